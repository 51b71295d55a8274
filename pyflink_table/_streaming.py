"""Streaming mode: changelog results (row kinds, PyFlink's ``op`` column) and running stream jobs.

The changelog itself is computed in the JVM (``org.pyflink_table.bridge.streaming``); this module
turns it into PyFlink's results: collected rows carry their :class:`~pyflink_table.row.RowKind` and
``print()`` shows the ``op`` column.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, List

from pyflink_table.java_gateway import bridge
from pyflink_table.row import Row, RowKind
from pyflink_table.table_result import (
    _NULL,
    ResultKind,
    TableResult,
    _fit,
    _type_width,
    display_width,
    format_value,
)
from pyflink_table.types import DataType, parse_type_string

if TYPE_CHECKING:
    from pyflink_table.table import Table

_KINDS = {"+I": RowKind.INSERT, "-U": RowKind.UPDATE_BEFORE, "+U": RowKind.UPDATE_AFTER, "-D": RowKind.DELETE}


def changelog_rows(table: "Table") -> List[Row]:
    """The rows of a bounded table as Flink's streaming changelog, each with its kind."""
    from pyspark.sql import DataFrame

    from pyflink_table.table import _to_python

    table._t_env._before_job()
    j_changes = bridge().streaming.Changelog.of(table._j_table)
    types = [parse_type_string(t) for t in table._j_table.fieldTypes()]
    out = []
    for r in DataFrame(j_changes, table._t_env._spark).collect():
        row = Row(*[_to_python(v, t) for v, t in zip(r, types)])
        row.set_row_kind(_KINDS[r[-1]])
        out.append(row)
    return out


def format_changelog(names: List[str], types: List[DataType], rows: List[Row]) -> str:
    """Flink's streaming tableau: an ``op`` column in front of the columns of :func:`format_table`."""
    if not rows:
        return "Empty set"
    widths = [2] + [max(_type_width(t), display_width(n), len(_NULL)) for n, t in zip(names, types)]
    cells = [[str(r.get_row_kind())] + [format_value(v, t) for v, t in zip(r, types)] for r in rows]
    border = "+" + "+".join("-" * (w + 2) for w in widths) + "+"

    def line(values: List[str]) -> str:
        return "|" + "|".join(" " + _fit(c, w) + " " for c, w in zip(values, widths)) + "|"

    lines = [border, line(["op"] + names), border] + [line(c) for c in cells] + [border]
    lines.append(f"{len(rows)} row{'s' if len(rows) != 1 else ''} in set")
    return "\n".join(lines)


class ChangelogResult(TableResult):
    """The result of ``execute()`` in streaming mode: rows carry their kind, ``print()`` shows ``op``."""

    def print(self) -> None:
        """Print the changelog as Flink's streaming tableau (with the ``op`` column)."""
        print(format_changelog(self._names, self._types, self._materialize()))


def execute(table: "Table") -> TableResult:
    """``Table.execute()`` in streaming mode."""
    j = table._j_table
    names = list(j.fieldNames())
    types = [parse_type_string(t) for t in j.fieldTypes()]
    return ChangelogResult(names, types, ResultKind.SUCCESS_WITH_CONTENT, lambda: changelog_rows(table))
