"""Data views for aggregate accumulators, as ``pyflink.table.data_view``: :class:`ListView` and :class:`MapView`.

In Flink a data view in an accumulator may be backed by state. Batch aggregation here keeps an
accumulator in the memory of one Python worker for one group, so both views are plain in-memory
containers with Flink's interface.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Dict, Generic, Iterable, Iterator, List, Tuple, TypeVar

__all__ = ["DataView", "ListView", "MapView"]

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")


class DataView(ABC):
    """A collection usable as (part of) an aggregate function's accumulator."""

    @abstractmethod
    def clear(self) -> None:
        """Remove all elements."""


class ListView(DataView, Generic[T]):
    """A list in an accumulator: ``add``, ``add_all``, ``get`` and iteration."""

    def __init__(self) -> None:
        self._items: List[T] = []

    def get(self) -> Iterable[T]:
        """The elements, in insertion order."""
        return self._items

    def add(self, value: T) -> None:
        """Append one element."""
        self._items.append(value)

    def add_all(self, values: List[T]) -> None:
        """Append several elements."""
        self._items.extend(values)

    def clear(self) -> None:
        """Remove all elements."""
        self._items = []

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ListView) and list(self._items) == list(other._items)

    def __hash__(self) -> int:
        return hash(tuple(self._items))

    def __iter__(self) -> Iterator[T]:
        return iter(self._items)

    def __repr__(self) -> str:
        return f"ListView({self._items!r})"


class MapView(DataView, Generic[K, V]):
    """A map in an accumulator: ``get``, ``put``, ``remove``, ``contains`` and iteration over keys."""

    def __init__(self) -> None:
        self._map: Dict[K, V] = {}

    def get(self, key: K) -> V:
        """The value of ``key`` (None when absent)."""
        return self._map.get(key)  # type: ignore[return-value]

    def put(self, key: K, value: V) -> None:
        """Set the value of ``key``."""
        self._map[key] = value

    def put_all(self, dict_value: Dict[K, V]) -> None:
        """Set the values of all keys of ``dict_value``."""
        self._map.update(dict_value)

    def remove(self, key: K) -> None:
        """Remove ``key`` (absent keys are ignored)."""
        self._map.pop(key, None)

    def contains(self, key: K) -> bool:
        """Whether ``key`` is present."""
        return key in self._map

    def items(self) -> Iterable[Tuple[K, V]]:
        """The (key, value) pairs."""
        return self._map.items()

    def keys(self) -> Iterable[K]:
        """The keys."""
        return self._map.keys()

    def values(self) -> Iterable[V]:
        """The values."""
        return self._map.values()

    def is_empty(self) -> bool:
        """Whether the map has no entries."""
        return not self._map

    def clear(self) -> None:
        """Remove all entries."""
        self._map = {}

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, MapView) and self._map == other._map

    def __hash__(self) -> int:
        return hash(tuple(sorted(map(repr, self._map.items()))))

    def __getitem__(self, key: K) -> V:
        return self._map[key]

    def __setitem__(self, key: K, value: V) -> None:
        self._map[key] = value

    def __delitem__(self, key: K) -> None:
        del self._map[key]

    def __contains__(self, key: object) -> bool:
        return key in self._map

    def __iter__(self) -> Iterator[K]:
        return iter(self._map)

    def __len__(self) -> int:
        return len(self._map)

    def __repr__(self) -> str:
        return f"MapView({self._map!r})"
