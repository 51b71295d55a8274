"""``Configuration``: string key/value options, as ``pyflink.common.Configuration``."""

from __future__ import annotations

from typing import Callable, Dict, Iterator, List, Optional, TypeVar

__all__ = ["Configuration"]

T = TypeVar("T")


class Configuration:
    """A set of options. Keys and values are strings; typed getters parse them.

    Example::

        >>> config = Configuration()
        >>> config.set_integer("parallelism.default", 2)
    """

    def __init__(self, other: Optional["Configuration"] = None) -> None:
        self._data: Dict[str, str] = dict(other._data) if other is not None else {}

    def get_string(self, key: str, default_value: str) -> str:
        """The value of ``key``, or ``default_value``."""
        return self._data.get(key, default_value)

    def set_string(self, key: str, value: str) -> "Configuration":
        """Set ``key`` to ``value``."""
        self._data[key] = str(value)
        return self

    def set(self, key: str, value: str) -> "Configuration":
        """Set ``key`` to ``value`` (any value is stored as its string form)."""
        self._data[key] = _to_str(value)
        return self

    def get(self, key: str, default_value: Optional[str] = None) -> Optional[str]:
        """The value of ``key``, or ``default_value``."""
        return self._data.get(key, default_value)

    def get_integer(self, key: str, default_value: int) -> int:
        """The value of ``key`` as an int."""
        return self._get_as(key, default_value, int)

    def set_integer(self, key: str, value: int) -> "Configuration":
        """Set ``key`` to an int."""
        self._data[key] = str(int(value))
        return self

    def get_boolean(self, key: str, default_value: bool) -> bool:
        """The value of ``key`` as a bool."""
        return self._get_as(key, default_value, lambda v: v.strip().lower() == "true")

    def set_boolean(self, key: str, value: bool) -> "Configuration":
        """Set ``key`` to a bool."""
        self._data[key] = "true" if value else "false"
        return self

    def get_float(self, key: str, default_value: float) -> float:
        """The value of ``key`` as a float."""
        return self._get_as(key, default_value, float)

    def set_float(self, key: str, value: float) -> "Configuration":
        """Set ``key`` to a float."""
        self._data[key] = str(float(value))
        return self

    def get_bytearray(self, key: str, default_value: bytearray) -> bytearray:
        """The value of ``key`` as bytes (stored as latin-1 text)."""
        return self._get_as(key, default_value, lambda v: bytearray(v, "latin-1"))

    def set_bytearray(self, key: str, value: bytearray) -> "Configuration":
        """Set ``key`` to bytes."""
        self._data[key] = bytes(value).decode("latin-1")
        return self

    def _get_as(self, key: str, default_value: T, convert: Callable[[str], T]) -> T:
        """The value of ``key`` converted, or ``default_value`` when it is not set."""
        v = self._data.get(key)
        return default_value if v is None else convert(v)

    def key_set(self) -> List[str]:
        """All keys."""
        return list(self._data)

    def add_all_to_dict(self, target_dict: Dict[str, str]) -> None:
        """Copy all options into ``target_dict``."""
        target_dict.update(self._data)

    def add_all(self, other: "Configuration", prefix: Optional[str] = None) -> "Configuration":
        """Copy all options of ``other``, with ``prefix`` prepended to their keys."""
        for k, v in other._data.items():
            self._data[(prefix or "") + k] = v
        return self

    def contains_key(self, key: str) -> bool:
        """True if ``key`` is set."""
        return key in self._data

    def remove_config(self, key: str) -> bool:
        """Remove ``key``; True if it was set."""
        return self._data.pop(key, None) is not None

    def to_dict(self) -> Dict[str, str]:
        """A copy of all options."""
        return dict(self._data)

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Configuration) and other._data == self._data

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._data.items())))

    def __repr__(self) -> str:
        return f"Configuration({self._data!r})"


def _to_str(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
