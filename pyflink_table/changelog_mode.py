"""``ChangelogMode``: the kinds of change a changelog may contain."""

from __future__ import annotations

from typing import FrozenSet

from pyflink_table.row import RowKind

__all__ = ["ChangelogMode"]


class ChangelogMode:
    """A set of :class:`~pyflink_table.RowKind` values a table's changelog may hold.

    Batch tables on Spark are always insert-only; the other modes exist so that programs
    describing changelogs (e.g. for connectors) keep importing and comparing them.

    Example::

        >>> ChangelogMode.insert_only().contains(RowKind.INSERT)
        True
    """

    def __init__(self, kinds: FrozenSet[RowKind]) -> None:
        self._kinds = frozenset(kinds)

    @staticmethod
    def insert_only() -> "ChangelogMode":
        """Only inserts (``+I``)."""
        return ChangelogMode(frozenset({RowKind.INSERT}))

    @staticmethod
    def upsert() -> "ChangelogMode":
        """Inserts, updates without the ``-U`` row and deletes: idempotent changes on a key."""
        return ChangelogMode(frozenset({RowKind.INSERT, RowKind.UPDATE_AFTER, RowKind.DELETE}))

    @staticmethod
    def all() -> "ChangelogMode":
        """Every kind of change: ``+I``, ``-U``, ``+U`` and ``-D``."""
        return ChangelogMode(frozenset(RowKind))

    def get_contained_kinds(self) -> FrozenSet[RowKind]:
        """The kinds of change in this mode."""
        return self._kinds

    def contains(self, kind: RowKind) -> bool:
        """Whether ``kind`` may occur."""
        return kind in self._kinds

    def contains_only(self, kind: RowKind) -> bool:
        """Whether ``kind`` is the only kind that may occur."""
        return self._kinds == frozenset({kind})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ChangelogMode) and other._kinds == self._kinds

    def __hash__(self) -> int:
        return hash(self._kinds)

    def __repr__(self) -> str:
        order = [RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE]
        short = {RowKind.INSERT: "I", RowKind.UPDATE_BEFORE: "UB", RowKind.UPDATE_AFTER: "UA", RowKind.DELETE: "D"}
        return "[" + ",".join(short[k] for k in order if k in self._kinds) + "]"
