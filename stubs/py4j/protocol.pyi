from typing import Any, Optional

class Py4JError(Exception):
    cause: Optional[BaseException]
    def __init__(self, args: Any = ..., cause: Optional[BaseException] = ...) -> None: ...

class Py4JAuthenticationError(Py4JError): ...

class Py4JNetworkError(Py4JError):
    when: Any
    def __init__(self, args: Any = ..., cause: Optional[BaseException] = ..., when: Any = ...) -> None: ...

class Py4JJavaError(Py4JError):
    errmsg: str
    java_exception: Any
    def __init__(self, msg: str, java_exception: Any) -> None: ...
