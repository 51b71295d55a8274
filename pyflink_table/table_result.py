"""``TableResult``: the outcome of ``execute()`` and ``execute_sql()``, with ``collect()`` and ``print()``."""

from __future__ import annotations

import datetime
import decimal
import math
import unicodedata
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Callable, Iterator, List, Optional, Sequence

import numpy

from pyflink_table.errors import java_errors
from pyflink_table.row import Row
from pyflink_table.table_schema import ResolvedSchema, TableSchema
from pyflink_table.types import (
    ArrayType,
    BigIntType,
    BooleanType,
    DataType,
    DateType,
    DecimalType,
    FloatType,
    IntType,
    LocalZonedTimestampType,
    MapType,
    MultisetType,
    RowType,
    SmallIntType,
    TimestampType,
    TimeType,
    TinyIntType,
    parse_type_string,
)

if TYPE_CHECKING:
    from pyflink_table.table import Table

__all__ = ["TableResult", "ResultKind", "CloseableIterator"]


def _to_python(value: Any, t: Optional[DataType] = None) -> Any:
    """PySpark values to PyFlink's: rows become positional :class:`Row` objects (PyFlink's collected
    nested rows carry no field names), BYTES ``bytearray``, FLOAT the float32's shortest decimal."""
    from pyspark.sql import Row as SparkRow

    if value is None:
        return None
    if isinstance(value, SparkRow):
        field_types: List[Optional[DataType]] = (
            [f.data_type for f in t.fields] if isinstance(t, RowType) else [None] * len(value))
        return Row(*[_to_python(v, ft) for v, ft in zip(value, field_types)])
    if isinstance(value, list):
        element = t.element_type if isinstance(t, ArrayType) else None
        return [_to_python(v, element) for v in value]
    if isinstance(value, dict):
        key_t = t.key_type if isinstance(t, MapType) else None
        value_t = t.value_type if isinstance(t, MapType) else None
        return {_to_python(k, key_t): _to_python(v, value_t) for k, v in value.items()}
    if isinstance(value, (bytes, bytearray)):
        return bytearray(value)
    if isinstance(value, float) and isinstance(t, FloatType):
        return float(str(numpy.float32(value)))
    return value


class ResultKind(IntEnum):
    """Whether a statement returned rows; prints as 0 or 1, like PyFlink's plain constants."""

    SUCCESS = 0
    SUCCESS_WITH_CONTENT = 1

    def __str__(self) -> str:
        return str(self.value)


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
        self._widths_by_content = False

    @staticmethod
    def _of_table(table: "Table", widths_by_content: bool = False) -> "TableResult":
        j = table._j_table
        names = list(j.fieldNames())
        types = [parse_type_string(t) for t in j.fieldTypes()]
        result = TableResult(names, types, ResultKind.SUCCESS_WITH_CONTENT, table._collect_rows)
        # Flink prints SHOW and DESCRIBE results with columns as wide as their content.
        result._widths_by_content = widths_by_content
        return result

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
        """Print the rows as a table, in Flink's layout (``+----+`` borders, ``<NULL>``); a
        statement without content prints ``OK``, as PyFlink does."""
        if self._kind == ResultKind.SUCCESS:
            self._materialize()
            print("OK")
            return
        print(format_table(self._names, self._types, self._materialize(), self._widths_by_content))


# --- Flink's tableau layout ---------------------------------------------------------------------
# Measured on PyFlink 2.3: a column is as wide as its name, its type's widest value (numeric,
# boolean, date and time types) or 30 characters (everything else), and at least as wide as
# "<NULL>". Longer values are cut to fit and end with "...". Widths count East Asian wide
# characters as two. Values inside arrays, maps and rows print NULL without brackets.

_MAX_WIDTH = 30
_NULL = "<NULL>"
_NESTED_NULL = "NULL"


def _timestamp_width(precision: int) -> int:
    # "yyyy-MM-dd HH:mm:ss" plus the fraction, which Flink sizes in steps of 3 digits.
    if precision == 0:
        return 19
    return 20 + 3 * ((precision + 2) // 3)


def _type_width(t: DataType) -> int:
    """The width Flink reserves for the values of a type (before names and NULL are considered)."""
    fixed = {BooleanType: 5, TinyIntType: 4, SmallIntType: 6, IntType: 11, BigIntType: 20, DateType: 10}
    for cls, width in fixed.items():
        if isinstance(t, cls):
            return width
    if isinstance(t, DecimalType):
        return t.precision + 2
    if isinstance(t, TimeType):
        return 8 if t.precision == 0 else 9 + t.precision
    if isinstance(t, (TimestampType, LocalZonedTimestampType)):
        return _timestamp_width(t.precision)
    return _MAX_WIDTH


def display_width(text: str) -> int:
    """Terminal columns of ``text``: East Asian wide and full-width characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def _java_floating(v: float, single: bool) -> str:
    """Java's Float/Double.toString: plain in [1e-3, 1e7), else d.dddE<exp>; shortest digits."""
    if v != v:
        return "NaN"
    if v in (float("inf"), float("-inf")):
        return "Infinity" if v > 0 else "-Infinity"
    if v == 0:
        return "-0.0" if math.copysign(1.0, v) < 0 else "0.0"
    shortest = str(numpy.float32(v)) if single else repr(v)
    sign, digits, exponent = decimal.Decimal(shortest).as_tuple()
    text = "".join(map(str, digits)).rstrip("0") or "0"
    assert isinstance(exponent, int)
    # Decimal exponent of the first significant digit.
    point = len(digits) + exponent - 1
    prefix = "-" if sign else ""
    if 1e-3 <= abs(v) < 1e7:
        if point >= 0:
            whole, frac = text[: point + 1].ljust(point + 1, "0"), text[point + 1:]
        else:
            whole, frac = "0", "0" * (-point - 1) + text
        return f"{prefix}{whole}.{frac or '0'}"
    return f"{prefix}{text[0]}.{text[1:] or '0'}E{point}"


def _fraction(micros: int, digits: int) -> str:
    return f"{micros:06d}".ljust(9, "0")[:digits]


def format_value(v: Any, t: Optional[DataType] = None, nested: bool = False) -> str:
    """A value the way Flink's ``print()`` shows it; ``t`` (its Flink type) refines numbers and times."""
    if v is None:
        return _NESTED_NULL if nested else _NULL
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, float):
        return _java_floating(v, isinstance(t, FloatType))
    if isinstance(v, decimal.Decimal):
        if isinstance(t, DecimalType) and v.is_finite():
            # Flink shows the type's scale; 38-digit decimals need more than the default context.
            v = v.quantize(decimal.Decimal(1).scaleb(-t.scale), context=decimal.Context(prec=80))
        return format(v, "f")
    if isinstance(v, datetime.datetime):
        precision = t.precision if isinstance(t, (TimestampType, LocalZonedTimestampType)) else 6
        text = v.strftime("%Y-%m-%d %H:%M:%S")
        return text + ("." + _fraction(v.microsecond, precision) if precision > 0 else "")
    if isinstance(v, datetime.time):
        precision = t.precision if isinstance(t, TimeType) else 6
        text = v.strftime("%H:%M:%S")
        frac = _fraction(v.microsecond, min(precision, 6)).rstrip("0")
        return text + ("." + frac if frac else "")
    if isinstance(v, (bytes, bytearray)):
        return "x'" + bytes(v).hex() + "'"
    if isinstance(v, Row):
        field_types: List[Optional[DataType]] = (
            [f.data_type for f in t.fields] if isinstance(t, RowType) else [None] * len(v))
        return "(" + ", ".join(format_value(x, ft, True) for x, ft in zip(v, field_types)) + ")"
    if isinstance(v, (list, tuple)):
        element = t.element_type if isinstance(t, ArrayType) else None
        return "[" + ", ".join(format_value(x, element, True) for x in v) + "]"
    if isinstance(v, dict):
        key_t = t.key_type if isinstance(t, MapType) else (t.element_type if isinstance(t, MultisetType) else None)
        value_t = t.value_type if isinstance(t, MapType) else None
        return "{" + ", ".join(f"{format_value(k, key_t, True)}={format_value(x, value_t, True)}"
                               for k, x in v.items()) + "}"
    return str(v)


def _fit(text: str, width: int) -> str:
    """Right-align ``text`` in ``width`` columns, cutting it with "..." when too wide."""
    if display_width(text) > width:
        kept, used = [], 0
        for ch in text:
            w = display_width(ch)
            if used + w > width - 3:
                break
            kept.append(ch)
            used += w
        text = "".join(kept) + "..."
    return " " * (width - display_width(text)) + text


def format_table(names: List[str], types: List[DataType], rows: List[Row], widths_by_content: bool = False) -> str:
    """The tableau text for ``rows``; ends with ``N rows in set`` (or is ``Empty set``).

    :param widths_by_content: size columns by their names and values, NULL printing empty (Flink's
        layout for SHOW and DESCRIBE results) instead of by type.
    """
    if not rows:
        return "Empty set"
    if widths_by_content:
        cells = [["" if v is None else format_value(v, t) for v, t in zip(r, types)] for r in rows]
        widths = [max([display_width(n)] + [display_width(c[i]) for c in cells]) for i, n in enumerate(names)]
    else:
        cells = [[format_value(v, t) for v, t in zip(r, types)] for r in rows]
        widths = [max(_type_width(t), display_width(n), len(_NULL)) for n, t in zip(names, types)]
    border = "+" + "+".join("-" * (w + 2) for w in widths) + "+"

    def line(values: List[str]) -> str:
        return "|" + "|".join(" " + _fit(c, w) + " " for c, w in zip(values, widths)) + "|"

    lines = [border, line(names), border]
    lines += [line(c) for c in cells]
    lines.append(border)
    lines.append(f"{len(rows)} row{'s' if len(rows) != 1 else ''} in set")
    return "\n".join(lines)
