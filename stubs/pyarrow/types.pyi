# Type predicates of pyarrow (is_list, is_struct, ...); see __init__.pyi.
from typing import Any

def __getattr__(name: str) -> Any: ...
