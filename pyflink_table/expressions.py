"""Functions that start Table API expressions: ``col``, ``lit``, ``call`` and the built-ins.

Mirrors ``pyflink.table.expressions``. Each function builds one unresolved JVM expression node.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, List, Union

from pyflink_table.errors import check_argument
from pyflink_table.expression import (
    Expression,
    JsonOnNull,
    _call_node,
    _exprs,
    _literal,
    _Symbol,
    _type_string,
)

if TYPE_CHECKING:
    from pyflink_table.types import DataType

__all__ = [
    "col", "lit", "call", "call_sql", "if_then_else", "concat", "concat_ws", "and_", "or_", "not_",
    "row", "array", "map_", "null_of", "range_", "with_columns", "without_columns",
    "current_date", "current_time", "current_timestamp", "current_database", "local_time",
    "local_timestamp", "to_date", "to_timestamp", "to_timestamp_ltz", "uuid", "pi", "e", "rand",
    "rand_integer", "atan2", "negative", "log", "row_interval", "UNBOUNDED_ROW", "UNBOUNDED_RANGE",
    "CURRENT_ROW", "CURRENT_RANGE", "date_format", "timestamp_diff", "convert_tz", "from_unixtime",
    "unix_timestamp", "temporal_overlaps", "JsonOnNull", "json", "json_string", "json_object",
    "json_object_agg", "json_array", "json_array_agg", "current_watermark", "source_watermark", "descriptor",
]


def _fn(name: str, *args: Any) -> Expression[Any]:
    return Expression(_call_node(name, args))


def col(name: str) -> Expression[Any]:
    """A reference to the input column ``name``.

    Example::

        >>> tab.select(col('a'), col('b') + 1)
    """
    check_argument("col", "name", name, str)
    return Expression(_exprs().col(name))


def lit(v: Any, data_type: Union["DataType", str, None] = None) -> Expression[Any]:
    """A literal value, optionally of an explicit type: ``lit(1)``, ``lit('1.5', DataTypes.DECIMAL(3, 1))``."""
    if data_type is None:
        return Expression(_literal(v))
    if v is None:
        return null_of(data_type)
    if isinstance(v, (bool, int, float, str)):
        # One hop; shown as the value, as Flink shows a literal of a given type.
        return Expression(_exprs().typed_value(v, _type_string(data_type)))
    return Expression(_literal(v)).cast(data_type)


def call(f: Union[str, Any], *args: Any) -> Expression[Any]:
    """Call a built-in or registered function by name, or a user-defined function object."""
    if isinstance(f, str):
        return _fn(f, *args)
    from pyflink_table.udf import UserDefinedFunctionWrapper

    if isinstance(f, UserDefinedFunctionWrapper):
        return f(*args)
    raise TypeError(f"call() takes a function name or a user-defined function, got {type(f).__name__}")


def call_sql(sql_expression: str) -> Expression[Any]:
    """A SQL expression evaluated as Spark SQL: ``call_sql('UPPER(a)')``."""
    return _fn("callSql", sql_expression)


def if_then_else(condition: Union[bool, Expression[bool]], if_true: Any, if_false: Any) -> Expression[Any]:
    """``if_true`` where ``condition`` holds, else ``if_false``."""
    return _fn("ifThenElse", condition, if_true, if_false)


def concat(first: Any, *others: Any) -> Expression[str]:
    """Concatenation of strings; NULL if any is NULL."""
    return _fn("concat", first, *others)


def concat_ws(separator: Any, first: Any, *others: Any) -> Expression[str]:
    """Concatenation with a separator; NULL arguments are skipped."""
    return _fn("concat_ws", separator, first, *others)


def and_(predicate0: Union[bool, Expression[bool]], predicate1: Union[bool, Expression[bool]],
         *predicates: Union[bool, Expression[bool]]) -> Expression[bool]:
    """Logical AND of the predicates."""
    return _fn("and", predicate0, predicate1, *predicates)


def or_(predicate0: Union[bool, Expression[bool]], predicate1: Union[bool, Expression[bool]],
        *predicates: Union[bool, Expression[bool]]) -> Expression[bool]:
    """Logical OR of the predicates."""
    return _fn("or", predicate0, predicate1, *predicates)


# Predicates are typed as in PyFlink, so a type checker rejects e.g. a SQL string passed as a predicate.
def not_(expression: Expression[bool]) -> Expression[bool]:
    """Logical NOT."""
    return _fn("not", expression)


def row(head: Any, *tail: Any) -> Expression[Any]:
    """A ROW value from the given fields."""
    return _fn("row", head, *tail)


def array(head: Any, *tail: Any) -> Expression[Any]:
    """An ARRAY value from the given elements."""
    return _fn("array", head, *tail)


def map_(key: Any, value: Any, *tail: Any) -> Expression[Any]:
    """A MAP value from alternating keys and values."""
    return _fn("map", key, value, *tail)


def null_of(data_type: Union["DataType", str]) -> Expression[Any]:
    """A NULL literal of ``data_type``."""
    return Expression(_exprs().typed_lit(None, _type_string(data_type)))


def range_(start: Union[str, int], end: Union[str, int]) -> Expression[Any]:
    """A column range for :func:`with_columns`: by 1-based positions or by names, inclusive."""
    return _fn("range", _range_bound(start), _range_bound(end))


def _range_bound(v: Union[str, int]) -> Any:
    return col(v) if isinstance(v, str) else v


def with_columns(head: Any, *tails: Any) -> Expression[Any]:
    """The columns named, numbered or in a :func:`range_`, in table order."""
    return _fn("withColumns", *[_range_bound(h) if isinstance(h, str) else h for h in (head, *tails)])


def without_columns(head: Any, *tails: Any) -> Expression[Any]:
    """All columns except those named, numbered or in a :func:`range_`."""
    return _fn("withoutColumns", *[_range_bound(h) if isinstance(h, str) else h for h in (head, *tails)])


def current_date() -> Expression[Any]:
    """Today's date in the session time zone."""
    return _fn("currentDate")


def current_time() -> Expression[Any]:
    """The current time in the session time zone."""
    return _fn("currentTime")


def current_timestamp() -> Expression[Any]:
    """The current timestamp (TIMESTAMP_LTZ)."""
    return _fn("currentTimestamp")


def current_database() -> Expression[str]:
    """The current database's name."""
    return _fn("currentDatabase")


def local_time() -> Expression[Any]:
    """The current local time."""
    return _fn("localTime")


def local_timestamp() -> Expression[Any]:
    """The current local timestamp (TIMESTAMP)."""
    return _fn("localTimestamp")


def to_date(date_str: Any, format: Any = None) -> Expression[Any]:
    """Parse a date string (default format 'yyyy-MM-dd')."""
    return _fn("toDate", date_str) if format is None else _fn("toDate", date_str, format)


def to_timestamp(timestamp_str: Any, format: Any = None) -> Expression[Any]:
    """Parse a timestamp string (default format 'yyyy-MM-dd HH:mm:ss')."""
    return _fn("toTimestamp", timestamp_str) if format is None else _fn("toTimestamp", timestamp_str, format)


def to_timestamp_ltz(value: Any, *args: Any) -> Expression[Any]:
    """A TIMESTAMP_LTZ from an epoch number and its precision (0 seconds, 3 milliseconds, the
    default, or 6 microseconds), or from a string with an optional format (default
    'yyyy-MM-dd HH:mm:ss') and time zone (default the session's)."""
    if len(args) > 2:
        raise TypeError(f"to_timestamp_ltz() takes 1 to 3 arguments, got {1 + len(args)}")
    return _fn("toTimestampLtz", value, *args)


def uuid() -> Expression[str]:
    """A random UUID string."""
    return _fn("uuid")


def pi() -> Expression[float]:
    """The constant pi."""
    return _fn("pi")


def e() -> Expression[float]:
    """The constant e."""
    return _fn("e")


def rand(seed: Any = None) -> Expression[float]:
    """A random DOUBLE in [0, 1)."""
    return _fn("rand") if seed is None else _fn("rand", seed)


def rand_integer(bound: Any, seed: Any = None) -> Expression[int]:
    """A random INT in [0, bound)."""
    return _fn("randInteger", bound) if seed is None else _fn("randInteger", seed, bound)


def atan2(y: Any, x: Any) -> Expression[float]:
    """The arc tangent of y/x."""
    return _fn("atan2", y, x)


def negative(v: Any) -> Expression[Any]:
    """The negated value."""
    return _fn("minusPrefix", v)


def log(v: Any, base: Any = None) -> Expression[float]:
    """Natural logarithm, or logarithm to ``base`` (``log(v, base)``)."""
    return _fn("log", v) if base is None else _fn("log", base, v)


def row_interval(row_count: int) -> Expression[Any]:
    """An interval of ``row_count`` rows, for over and row-count windows."""
    return Expression(_exprs().typed_lit(row_count, "ROW_INTERVAL"))


def date_format(timestamp: Any, format: Any) -> Expression[str]:
    """Format a timestamp with a Java date pattern."""
    return _fn("dateFormat", timestamp, format)


def timestamp_diff(time_point_unit: Any, time_point1: Any, time_point2: Any) -> Expression[int]:
    """Whole ``time_point_unit``\\ s between two time points (second minus first)."""
    return _fn("timestampDiff", _Symbol(time_point_unit.name), time_point1, time_point2)


def convert_tz(date_str: Any, tz_from: Any, tz_to: Any) -> Expression[str]:
    """Convert a datetime string from one time zone to another."""
    return _fn("convertTz", date_str, tz_from, tz_to)


def from_unixtime(unixtime: Any, format: Any = None) -> Expression[str]:
    """Format epoch seconds as a string (default 'yyyy-MM-dd HH:mm:ss')."""
    return _fn("fromUnixtime", unixtime) if format is None else _fn("fromUnixtime", unixtime, format)


def unix_timestamp(date_str: Any = None, format: Any = None) -> Expression[int]:
    """Epoch seconds now, or of a datetime string."""
    if date_str is None:
        return _fn("unixTimestamp")
    return _fn("unixTimestamp", date_str) if format is None else _fn("unixTimestamp", date_str, format)


def temporal_overlaps(left_time_point: Any, left_temporal: Any, right_time_point: Any,
                      right_temporal: Any) -> Expression[bool]:
    """TRUE if two time ranges overlap."""
    return _fn("temporalOverlaps", left_time_point, left_temporal, right_time_point, right_temporal)


class _LazyConstant(Expression[Any]):
    """A window-bound constant whose JVM node is built on use, so importing needs no JVM."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    @property
    def _j_expr(self) -> Any:
        return _call_node(self._name, [])

    def __str__(self) -> str:
        return _SNAKE_NAMES[self._name]


_SNAKE_NAMES = {"unboundedRow": "UNBOUNDED_ROW", "unboundedRange": "UNBOUNDED_RANGE",
                "currentRow": "CURRENT_ROW", "currentRange": "CURRENT_RANGE"}


UNBOUNDED_ROW: Expression[Any] = _LazyConstant("unboundedRow")
UNBOUNDED_RANGE: Expression[Any] = _LazyConstant("unboundedRange")
CURRENT_ROW: Expression[Any] = _LazyConstant("currentRow")
CURRENT_RANGE: Expression[Any] = _LazyConstant("currentRange")


# --- JSON constructors ---------------------------------------------------------------------------


def json(value: Any) -> Expression[Any]:
    """Raw JSON text inserted as-is by an enclosing :func:`json_object` or :func:`json_array`."""
    return _fn("json", value)


def json_string(value: Any) -> Expression[str]:
    """The value serialised as JSON text: ``json_string('a')`` is ``'"a"'``; NULL stays NULL."""
    return _fn("jsonString", value)


def json_object(on_null: JsonOnNull = JsonOnNull.NULL, *args: Any) -> Expression[str]:
    """A JSON object from alternating literal keys and values; ``on_null`` decides about NULL values."""
    return _fn("jsonObject", _Symbol(on_null.name), *args)


def json_array(on_null: JsonOnNull = JsonOnNull.ABSENT, *args: Any) -> Expression[str]:
    """A JSON array of the values; ``on_null`` decides about NULL values."""
    return _fn("jsonArray", _Symbol(on_null.name), *args)


def json_object_agg(on_null: JsonOnNull, key_expr: Any, value_expr: Any) -> Expression[str]:
    """Aggregate: a JSON object of the group's keys and values."""
    return _fn("jsonObjectAgg", _Symbol(on_null.name), key_expr, value_expr)


def json_array_agg(on_null: JsonOnNull, item_expr: Any) -> Expression[str]:
    """Aggregate: a JSON array of the group's values."""
    return _fn("jsonArrayAgg", _Symbol(on_null.name), item_expr)


# --- streaming-only and process-table-function helpers (current_watermark aside, they raise
# TableException when used) ---------------------------------------------------------------------


def current_watermark(rowtime: Any) -> Expression[Any]:
    """The current watermark of a rowtime column, NULL before the first one (streaming only).

    Over an unbounded source it is Spark's watermark as of the start of the running micro-batch,
    the same for all rows of the batch (PyFlink's is per row); see the streaming docs. A column
    without a watermark, or batch mode, raises ValidationException as PyFlink does."""
    return _fn("currentWatermark", rowtime)


def source_watermark() -> Expression[Any]:
    """Watermark strategy declared by the source (streaming only: raises TableException in use)."""
    return _fn("sourceWatermark")


def descriptor(*column_names: str) -> Expression[Any]:
    """Column-name descriptor for process table functions (raises TableException in use)."""
    return _fn("descriptor", *column_names)
