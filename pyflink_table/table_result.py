"""``TableResult``: the outcome of ``execute()`` and ``execute_sql()``, with ``collect()`` and ``print()``."""

from __future__ import annotations

import datetime
import decimal
from enum import Enum
from typing import TYPE_CHECKING, Any, Callable, Iterator, List, Optional, Sequence

from pyflink_table.errors import java_errors
from pyflink_table.row import Row
from pyflink_table.table_schema import ResolvedSchema, TableSchema
from pyflink_table.types import DataType, parse_type_string

if TYPE_CHECKING:
    from pyflink_table.table import Table

__all__ = ["TableResult", "ResultKind", "CloseableIterator"]


class ResultKind(Enum):
    """Whether a statement returned rows."""

    SUCCESS = 0
    SUCCESS_WITH_CONTENT = 1


class CloseableIterator(Iterator[Row]):
    """Rows of a result; usable as a context manager, like PyFlink's."""

    def __init__(self, rows: Sequence[Row]) -> None:
        self._rows = iter(rows)

    def __iter__(self) -> "CloseableIterator":
        return self

    def __next__(self) -> Row:
        return next(self._rows)

    def next(self) -> Row:
        """The next row."""
        return next(self._rows)

    def close(self) -> None:
        """Release the result (rows are already on the driver)."""
        self._rows = iter(())

    def __enter__(self) -> "CloseableIterator":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


@java_errors
class TableResult:
    """The result of executing a table or a statement.

    Example::

        >>> with t.execute().collect() as results:
        ...     for row in results:
        ...         print(row)
    """

    def __init__(self, names: Sequence[str], types: Sequence[DataType], kind: ResultKind,
                 fetch: Callable[[], List[Row]], job_name: Optional[str] = None) -> None:
        self._names = list(names)
        self._types = list(types)
        self._kind = kind
        self._fetch = fetch
        self._rows: Optional[List[Row]] = None
        self._job_name = job_name

    @staticmethod
    def _of_table(table: "Table") -> "TableResult":
        j = table._j_table
        names = list(j.fieldNames())
        types = [parse_type_string(t) for t in j.fieldTypes()]
        return TableResult(names, types, ResultKind.SUCCESS_WITH_CONTENT, table._collect_rows)

    @staticmethod
    def _ok() -> "TableResult":
        return TableResult(["result"], [parse_type_string("STRING")], ResultKind.SUCCESS, lambda: [Row("OK")])

    def _materialize(self) -> List[Row]:
        if self._rows is None:
            self._rows = self._fetch()
        return self._rows

    def get_job_client(self) -> None:
        """Jobs run to completion inside ``execute``; there is no job client to hold."""
        return None

    def wait(self, timeout_ms: Optional[int] = None) -> None:
        """Wait for the job to finish (it runs when the result is requested, so this runs it)."""
        self._materialize()

    def get_table_schema(self) -> TableSchema:
        """The schema of the result."""
        return TableSchema(self._names, self._types)

    def get_resolved_schema(self) -> ResolvedSchema:
        """The resolved schema of the result."""
        return ResolvedSchema(self._names, self._types)

    def get_result_kind(self) -> ResultKind:
        """SUCCESS for statements, SUCCESS_WITH_CONTENT for queries."""
        return self._kind

    def collect(self) -> CloseableIterator:
        """The rows of the result."""
        return CloseableIterator(self._materialize())

    def print(self) -> None:
        """Print the rows as a table, in Flink's layout (``+----+`` borders, ``<NULL>``)."""
        print(format_table(self._names, self._types, self._materialize()))


# --- Flink's tableau layout ---------------------------------------------------------------------

_MAX_WIDTH = 30
_NULL = "<NULL>"


def _type_width(t: DataType) -> int:
    """Flink sizes numeric and boolean columns by type; everything else gets the maximum width."""
    s = str(t).replace(" NOT NULL", "")
    fixed = {"BOOLEAN": 5, "TINYINT": 4, "SMALLINT": 6, "INT": 11, "BIGINT": 20, "DATE": 10}
    if s in fixed:
        return fixed[s]
    if s.startswith("DECIMAL("):
        p = int(s[len("DECIMAL("):].split(",")[0])
        return p + 2
    return _MAX_WIDTH


def format_value(v: Any) -> str:
    """A value the way Flink's print shows it."""
    if v is None:
        return _NULL
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, float):
        return _java_double(v)
    if isinstance(v, decimal.Decimal):
        return str(v)
    if isinstance(v, datetime.datetime):
        return v.isoformat(sep=" ")
    if isinstance(v, (bytes, bytearray)):
        return "x'" + bytes(v).hex() + "'"
    if isinstance(v, Row):
        return "(" + ", ".join(format_value(x) for x in v) + ")"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(format_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{format_value(k)}={format_value(x)}" for k, x in v.items()) + "}"
    return str(v)


def _java_double(v: float) -> str:
    if v != v:
        return "NaN"
    if v in (float("inf"), float("-inf")):
        return "Infinity" if v > 0 else "-Infinity"
    r = repr(v)
    if "e" in r:
        mantissa, exp = r.split("e")
        if "." not in mantissa:
            mantissa += ".0"
        return f"{mantissa}E{int(exp)}"
    return r


def format_table(names: List[str], types: List[DataType], rows: List[Row]) -> str:
    """The tableau text for ``rows``; ends with ``N rows in set`` (or ``Empty set``)."""
    if not rows:
        return "Empty set"
    widths = [min(max(_type_width(t), len(n), len(_NULL)), max(_MAX_WIDTH, len(n))) for n, t in zip(names, types)]
    border = "+" + "+".join("-" * (w + 2) for w in widths) + "+"

    def line(cells: List[str]) -> str:
        out = []
        for c, w in zip(cells, widths):
            if len(c) > w:
                c = c[: w - 3] + "..."
            out.append(" " + c.rjust(w) + " ")
        return "|" + "|".join(out) + "|"

    lines = [border, line(names), border]
    lines += [line([format_value(v) for v in r]) for r in rows]
    lines.append(border)
    lines.append(f"{len(rows)} row{'s' if len(rows) != 1 else ''} in set")
    return "\n".join(lines)
