"""Stand-ins for Flink's JVM internals that upstream test files import at module level.

``pyflink.java_gateway``, ``pyflink.serializers``, ``pyflink.datastream`` and a few private
JVM helpers of ``pyflink.table.types`` do not exist in pyflink_table. The runner points their
imports here so that a file's other tests can run; any *use* of a stand-in raises, so a test that
relies on one fails loudly (such tests are excluded by name in ``exclusions.json``).
"""

import sys
from typing import Any


class FlinkInternalUnavailable(RuntimeError):
    """A test used a Flink JVM internal that pyflink_table does not provide."""


class _Unavailable:
    """A class/function stand-in: subclassable and subscriptable, but raises when called."""

    _name = "?"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise FlinkInternalUnavailable(f"Flink internal {self._name} is not available in pyflink_table")

    def __class_getitem__(cls, item: Any) -> Any:
        return cls


def on_windows() -> bool:
    """Whether the tests run on Windows (a plain platform check upstream too)."""
    return sys.platform == "win32"


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    return type(name, (_Unavailable,), {"_name": name})
