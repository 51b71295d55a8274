"""The Expression class of the Table API DSL: a Python handle on an unresolved JVM expression.

Every operator and method builds a new JVM expression node through the bridge's ``Exprs`` factory
(one Py4J call); nothing is planned in Python. The node is compiled to a Spark column when a table
operation uses it.
"""

from __future__ import annotations

import datetime
import decimal
from enum import Enum
from typing import TYPE_CHECKING, Any, Generic, List, Optional, TypeVar, Union

from pyflink_table.java_gateway import bridge, to_java_array

if TYPE_CHECKING:
    from pyflink_table.types import DataType

__all__ = [
    "Expression",
    "TimeIntervalUnit",
    "TimePointUnit",
    "JsonType",
    "JsonExistsOnError",
    "JsonValueOnEmptyOrError",
    "JsonQueryWrapper",
    "JsonQueryOnEmptyOrError",
]

T = TypeVar("T")


class TimeIntervalUnit(Enum):
    """Units of time intervals, for ``extract`` and ``floor``/``ceil``."""

    YEAR = 0
    YEAR_TO_MONTH = 1
    QUARTER = 2
    MONTH = 3
    WEEK = 4
    DAY = 5
    DAY_TO_HOUR = 6
    DAY_TO_MINUTE = 7
    DAY_TO_SECOND = 8
    HOUR = 9
    HOUR_TO_MINUTE = 10
    HOUR_TO_SECOND = 11
    MINUTE = 12
    MINUTE_TO_SECOND = 13
    SECOND = 14


class TimePointUnit(Enum):
    """Units of time points, for ``timestamp_diff``."""

    YEAR = 0
    QUARTER = 1
    MONTH = 2
    WEEK = 3
    DAY = 4
    HOUR = 5
    MINUTE = 6
    SECOND = 7
    MILLISECOND = 8
    MICROSECOND = 9


class JsonType(Enum):
    """Types a JSON value can be tested for with ``is_json``."""

    VALUE = 0
    SCALAR = 1
    ARRAY = 2
    OBJECT = 3


class JsonExistsOnError(Enum):
    """What ``json_exists`` returns on an error."""

    TRUE = 0
    FALSE = 1
    UNKNOWN = 2
    ERROR = 3


class JsonValueOnEmptyOrError(Enum):
    """What ``json_value`` returns on an empty result or an error."""

    NULL = 0
    ERROR = 1
    DEFAULT = 2


class JsonQueryWrapper(Enum):
    """How ``json_query`` wraps its result in an array."""

    WITHOUT_ARRAY = 0
    CONDITIONAL_ARRAY = 1
    UNCONDITIONAL_ARRAY = 2


class JsonQueryOnEmptyOrError(Enum):
    """What ``json_query`` returns on an empty result or an error."""

    NULL = 0
    EMPTY_ARRAY = 1
    EMPTY_OBJECT = 2
    ERROR = 3


def _exprs() -> Any:
    return bridge().expressions.Exprs


def _literal(value: Any) -> Any:
    """The JVM literal node of a Python value, typed the way PyFlink infers literal types."""
    ex = _exprs()
    if isinstance(value, bool) or value is None or isinstance(value, (str, float)):
        return ex.lit(value)
    if isinstance(value, int):
        # Py4J sends ints that fit 32 bits as Integer and others as Long: INT vs BIGINT in Flink.
        return ex.lit(value)
    if isinstance(value, decimal.Decimal):
        sign, digits, exponent = value.as_tuple()
        assert isinstance(exponent, int)
        scale = max(-exponent, 0)
        precision = max(len(digits), scale + 1)
        return ex.typedLit(str(value), f"DECIMAL({precision}, {scale})")
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            utc = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
            return ex.typedLit(utc.isoformat() + "Z", "TIMESTAMP_LTZ(6)")
        return ex.typedLit(value.isoformat(), "TIMESTAMP(6)")
    if isinstance(value, datetime.date):
        return ex.typedLit(value.isoformat(), "DATE")
    if isinstance(value, datetime.time):
        return ex.typedLit(value.isoformat(), "TIME(0)")
    if isinstance(value, (bytes, bytearray)):
        return ex.lit(bytearray(value))
    if isinstance(value, (list, tuple)):
        return _call_node("array", [_literal(v) for v in value])
    if isinstance(value, dict):
        args: List[Any] = []
        for k, v in value.items():
            args += [_literal(k), _literal(v)]
        return _call_node("map", args)
    raise TypeError(f"Cannot use a value of type {type(value).__name__} as a literal: {value!r}")


def _call_node(name: str, args: List[Any]) -> Any:
    ex = _exprs()
    return ex.call(name, to_java_array(bridge().expressions.Expr, args))


def _get_java_expression(value: Any) -> Any:
    """The JVM node of an Expression, or of a Python value used as a literal."""
    if isinstance(value, Expression):
        return value._j_expr
    if isinstance(value, str):
        return _exprs().lit(value)
    return _literal(value)


def _type_string(data_type: Union["DataType", str]) -> str:
    return data_type if isinstance(data_type, str) else str(data_type)


class Expression(Generic[T]):
    """An expression of the Table API, e.g. ``col('a') + 1`` or ``col('b').sum``.

    Expressions are built with the functions in :mod:`pyflink_table.expressions` and combined with
    Python operators and the methods below; they are evaluated by Spark when the table that uses
    them runs.
    """

    __slots__ = ("_j_expr",)

    def __init__(self, j_expr: Any) -> None:
        self._j_expr = j_expr

    # --- building blocks ---------------------------------------------------------------------

    def _call(self, name: str, *args: Any) -> "Expression[Any]":
        return Expression(_call_node(name, [self._j_expr] + [_get_java_expression(a) for a in args]))

    def _reverse(self, name: str, other: Any) -> "Expression[Any]":
        return Expression(_call_node(name, [_get_java_expression(other), self._j_expr]))

    def __str__(self) -> str:
        return str(self._j_expr.toString())

    def __repr__(self) -> str:
        return str(self)

    def __bool__(self) -> bool:
        raise TypeError(
            "An Expression has no truth value: use & | ~ (or and_, or_, not_) instead of and/or/not."
        )

    # --- arithmetic --------------------------------------------------------------------------

    def __add__(self, other: Any) -> "Expression[Any]":
        return self._call("plus", other)

    def __radd__(self, other: Any) -> "Expression[Any]":
        return self._reverse("plus", other)

    def __sub__(self, other: Any) -> "Expression[Any]":
        return self._call("minus", other)

    def __rsub__(self, other: Any) -> "Expression[Any]":
        return self._reverse("minus", other)

    def __mul__(self, other: Any) -> "Expression[Any]":
        return self._call("times", other)

    def __rmul__(self, other: Any) -> "Expression[Any]":
        return self._reverse("times", other)

    def __truediv__(self, other: Any) -> "Expression[Any]":
        return self._call("divide", other)

    def __rtruediv__(self, other: Any) -> "Expression[Any]":
        return self._reverse("divide", other)

    def __mod__(self, other: Any) -> "Expression[Any]":
        return self._call("mod", other)

    def __rmod__(self, other: Any) -> "Expression[Any]":
        return self._reverse("mod", other)

    def __pow__(self, other: Any) -> "Expression[Any]":
        return self._call("power", other)

    def __rpow__(self, other: Any) -> "Expression[Any]":
        return self._reverse("power", other)

    def __neg__(self) -> "Expression[Any]":
        return self._call("minusPrefix")

    def __pos__(self) -> "Expression[Any]":
        return self._call("plusPrefix")

    # --- comparison and logic ----------------------------------------------------------------

    def __eq__(self, other: Any) -> "Expression[bool]":  # type: ignore[override]
        return self._call("equals", other)

    def __ne__(self, other: Any) -> "Expression[bool]":  # type: ignore[override]
        return self._call("notEquals", other)

    def __lt__(self, other: Any) -> "Expression[bool]":
        return self._call("lessThan", other)

    def __le__(self, other: Any) -> "Expression[bool]":
        return self._call("lessThanOrEqual", other)

    def __gt__(self, other: Any) -> "Expression[bool]":
        return self._call("greaterThan", other)

    def __ge__(self, other: Any) -> "Expression[bool]":
        return self._call("greaterThanOrEqual", other)

    def __and__(self, other: Any) -> "Expression[bool]":
        return self._call("and", other)

    def __rand__(self, other: Any) -> "Expression[bool]":
        return self._reverse("and", other)

    def __or__(self, other: Any) -> "Expression[bool]":
        return self._call("or", other)

    def __ror__(self, other: Any) -> "Expression[bool]":
        return self._reverse("or", other)

    def __invert__(self) -> "Expression[bool]":
        return self._call("not")

    def __hash__(self) -> int:
        return id(self)

    def __getitem__(self, index: Any) -> "Expression[Any]":
        """``row_expr['f']`` is ``get('f')``; ``array_expr[1]`` is ``at(1)``."""
        return self.get(index) if isinstance(index, str) else self.at(index)

    # --- naming, casting, ordering -------------------------------------------------------------

    def alias(self, name: str, *extra_names: str) -> "Expression[T]":
        """Name the result: ``col('a').sum.alias('total')``; several names for a row result."""
        return self._call("as", name, *extra_names)

    def cast(self, data_type: Union["DataType", str]) -> "Expression[Any]":
        """Convert to ``data_type``; fails the job for values that cannot be converted."""
        return self._call("cast", _type_string(data_type))

    def try_cast(self, data_type: Union["DataType", str]) -> "Expression[Any]":
        """Like :meth:`cast`, but NULL for values that cannot be converted."""
        return self._call("tryCast", _type_string(data_type))

    @property
    def asc(self) -> "Expression[Any]":
        """Ascending order, NULLs last (Flink's default)."""
        return self._call("asc")

    @property
    def desc(self) -> "Expression[Any]":
        """Descending order, NULLs first (Flink's default)."""
        return self._call("desc")

    @property
    def distinct(self) -> "Expression[Any]":
        """Marks an aggregate's argument as DISTINCT: ``col('a').distinct.count``."""
        return self._call("distinct")

    def over(self, alias: Union[str, "Expression[Any]"]) -> "Expression[Any]":
        """Evaluate an aggregate over the over-window named ``alias``."""
        return self._call("over", _field_or_str(alias))

    # --- null and boolean tests ---------------------------------------------------------------

    @property
    def is_null(self) -> "Expression[bool]":
        """TRUE if the value is NULL."""
        return self._call("isNull")

    @property
    def is_not_null(self) -> "Expression[bool]":
        """TRUE if the value is not NULL."""
        return self._call("isNotNull")

    @property
    def is_true(self) -> "Expression[bool]":
        """TRUE if the value is TRUE (never NULL)."""
        return self._call("isTrue")

    @property
    def is_false(self) -> "Expression[bool]":
        """TRUE if the value is FALSE (never NULL)."""
        return self._call("isFalse")

    @property
    def is_not_true(self) -> "Expression[bool]":
        """TRUE if the value is FALSE or NULL."""
        return self._call("isNotTrue")

    @property
    def is_not_false(self) -> "Expression[bool]":
        """TRUE if the value is TRUE or NULL."""
        return self._call("isNotFalse")

    def between(self, lower_bound: Any, upper_bound: Any) -> "Expression[bool]":
        """TRUE if the value is within both bounds, inclusive."""
        return self._call("between", lower_bound, upper_bound)

    def not_between(self, lower_bound: Any, upper_bound: Any) -> "Expression[bool]":
        """TRUE if the value is outside the bounds."""
        return self._call("notBetween", lower_bound, upper_bound)

    def in_(self, first_element_or_table: Any, *remaining_elements: Any) -> "Expression[bool]":
        """TRUE if the value equals one of the elements."""
        return self._call("in", first_element_or_table, *remaining_elements)

    def then(self, if_true: Any, if_false: Any) -> "Expression[Any]":
        """Ternary conditional: ``(col('a') > 0).then('pos', 'neg')``."""
        return self._call("ifThenElse", if_true, if_false)

    def if_null(self, null_replacement: Any) -> "Expression[Any]":
        """The value, or ``null_replacement`` when it is NULL."""
        return self._call("ifNull", null_replacement)

    # --- aggregates ---------------------------------------------------------------------------

    @property
    def sum(self) -> "Expression[Any]":
        """Sum of the values; NULL for no rows."""
        return self._call("sum")

    @property
    def sum0(self) -> "Expression[Any]":
        """Sum of the values; 0 for no rows."""
        return self._call("sum0")

    @property
    def min(self) -> "Expression[Any]":
        """Smallest value."""
        return self._call("min")

    @property
    def max(self) -> "Expression[Any]":
        """Largest value."""
        return self._call("max")

    @property
    def count(self) -> "Expression[int]":
        """Number of non-NULL values."""
        return self._call("count")

    @property
    def avg(self) -> "Expression[Any]":
        """Average; keeps the input type, so the average of INTs is an INT."""
        return self._call("avg")

    @property
    def first_value(self) -> "Expression[Any]":
        """First non-NULL value of the group."""
        return self._call("firstValue")

    @property
    def last_value(self) -> "Expression[Any]":
        """Last non-NULL value of the group."""
        return self._call("lastValue")

    @property
    def stddev_pop(self) -> "Expression[Any]":
        """Population standard deviation."""
        return self._call("stddevPop")

    @property
    def stddev_samp(self) -> "Expression[Any]":
        """Sample standard deviation."""
        return self._call("stddevSamp")

    @property
    def var_pop(self) -> "Expression[Any]":
        """Population variance."""
        return self._call("varPop")

    @property
    def var_samp(self) -> "Expression[Any]":
        """Sample variance."""
        return self._call("varSamp")

    @property
    def collect(self) -> "Expression[Any]":
        """Multiset (value to count) of the non-NULL values."""
        return self._call("collect")

    def list_agg(self, separator: Optional[str] = None) -> "Expression[str]":
        """The values joined into one string with ``separator`` (default ',')."""
        return self._call("listAgg") if separator is None else self._call("listAgg", separator)

    # --- strings ------------------------------------------------------------------------------

    def substring(self, begin_index: Any, length: Any = None) -> "Expression[str]":
        """Substring from the 1-based ``begin_index``, of ``length`` characters or to the end."""
        return self._call("substring", begin_index) if length is None else self._call("substring", begin_index, length)

    def substr(self, begin_index: Any, length: Any = None) -> "Expression[str]":
        """Same as :meth:`substring`."""
        return self.substring(begin_index, length)

    def trim(self, character: Optional[Any] = None) -> "Expression[str]":
        """Remove leading and trailing spaces (or ``character``)."""
        return self._call("trim") if character is None else self._call("trim", character)

    def trim_leading(self, character: Optional[Any] = None) -> "Expression[str]":
        """Remove leading spaces (or ``character``)."""
        return self._call("trimLeading") if character is None else self._call("trimLeading", character)

    def trim_trailing(self, character: Optional[Any] = None) -> "Expression[str]":
        """Remove trailing spaces (or ``character``)."""
        return self._call("trimTrailing") if character is None else self._call("trimTrailing", character)

    @property
    def upper_case(self) -> "Expression[str]":
        """The string in upper case."""
        return self._call("upperCase")

    @property
    def lower_case(self) -> "Expression[str]":
        """The string in lower case."""
        return self._call("lowerCase")

    @property
    def char_length(self) -> "Expression[int]":
        """Number of characters."""
        return self._call("charLength")

    @property
    def init_cap(self) -> "Expression[str]":
        """First letter of each word in upper case, the rest in lower case."""
        return self._call("initCap")

    def like(self, pattern: Any) -> "Expression[bool]":
        """SQL LIKE with ``%`` and ``_`` wildcards."""
        return self._call("like", pattern)

    def similar(self, pattern: Any) -> "Expression[bool]":
        """SQL SIMILAR TO."""
        return self._call("similar", pattern)

    def position(self, haystack: Any) -> "Expression[int]":
        """1-based position of this string in ``haystack``; 0 if absent."""
        return self._call("position", haystack)

    def replace(self, search: Any, replacement: Any) -> "Expression[str]":
        """Replace every occurrence of ``search``."""
        return self._call("replace", search, replacement)

    def regexp_replace(self, regex: Any, replacement: Any) -> "Expression[str]":
        """Replace every match of ``regex``."""
        return self._call("regexpReplace", regex, replacement)

    def regexp_extract(self, regex: Any, extract_index: Any = None) -> "Expression[str]":
        """The ``extract_index``-th group of the first match of ``regex``."""
        if extract_index is None:
            return self._call("regexpExtract", regex)
        return self._call("regexpExtract", regex, extract_index)

    def split_index(self, separator: Any, index: Any) -> "Expression[str]":
        """The ``index``-th (0-based) field after splitting by ``separator``."""
        return self._call("splitIndex", separator, index)

    # --- collections and rows -----------------------------------------------------------------

    def get(self, name_or_index: Union[str, int]) -> "Expression[Any]":
        """Field of a ROW by name or 0-based position."""
        return self._call("get", name_or_index)

    def at(self, index: Any) -> "Expression[Any]":
        """Element of an ARRAY (1-based) or value of a MAP by key."""
        return self._call("at", index)

    @property
    def cardinality(self) -> "Expression[int]":
        """Number of elements of an ARRAY, MAP or MULTISET."""
        return self._call("cardinality")

    @property
    def element(self) -> "Expression[Any]":
        """The only element of a single-element ARRAY."""
        return self._call("element")

    @property
    def flatten(self) -> "Expression[Any]":
        """All fields of a ROW as separate columns."""
        return self._call("flatten")

    # --- window properties and intervals ------------------------------------------------------

    @property
    def start(self) -> "Expression[Any]":
        """Start of a group window (inclusive)."""
        return self._call("start")

    @property
    def end(self) -> "Expression[Any]":
        """End of a group window (exclusive)."""
        return self._call("end")

    @property
    def rowtime(self) -> "Expression[Any]":
        """Time attribute of a group window: its end minus one millisecond."""
        return self._call("rowtime")

    @property
    def proctime(self) -> "Expression[Any]":
        """Processing-time attribute of a group window."""
        return self._call("proctime")

    def _interval(self, unit: str) -> "Expression[Any]":
        return Expression(bridge().expressions.Exprs.call(
            "interval", to_java_array(bridge().expressions.Expr, [self._j_expr, _exprs().lit(unit)])))

    @property
    def years(self) -> "Expression[Any]":
        """An interval of this many years."""
        return self._interval("YEAR")

    @property
    def year(self) -> "Expression[Any]":
        """Same as :attr:`years`."""
        return self.years

    @property
    def quarters(self) -> "Expression[Any]":
        """An interval of this many quarters."""
        return self._interval("QUARTER")

    @property
    def quarter(self) -> "Expression[Any]":
        """Same as :attr:`quarters`."""
        return self.quarters

    @property
    def months(self) -> "Expression[Any]":
        """An interval of this many months."""
        return self._interval("MONTH")

    @property
    def month(self) -> "Expression[Any]":
        """Same as :attr:`months`."""
        return self.months

    @property
    def weeks(self) -> "Expression[Any]":
        """An interval of this many weeks."""
        return self._interval("WEEK")

    @property
    def week(self) -> "Expression[Any]":
        """Same as :attr:`weeks`."""
        return self.weeks

    @property
    def days(self) -> "Expression[Any]":
        """An interval of this many days."""
        return self._interval("DAY")

    @property
    def day(self) -> "Expression[Any]":
        """Same as :attr:`days`."""
        return self.days

    @property
    def hours(self) -> "Expression[Any]":
        """An interval of this many hours."""
        return self._interval("HOUR")

    @property
    def hour(self) -> "Expression[Any]":
        """Same as :attr:`hours`."""
        return self.hours

    @property
    def minutes(self) -> "Expression[Any]":
        """An interval of this many minutes."""
        return self._interval("MINUTE")

    @property
    def minute(self) -> "Expression[Any]":
        """Same as :attr:`minutes`."""
        return self.minutes

    @property
    def seconds(self) -> "Expression[Any]":
        """An interval of this many seconds."""
        return self._interval("SECOND")

    @property
    def second(self) -> "Expression[Any]":
        """Same as :attr:`seconds`."""
        return self.seconds

    @property
    def millis(self) -> "Expression[Any]":
        """An interval of this many milliseconds."""
        return self._interval("MILLISECOND")

    @property
    def milli(self) -> "Expression[Any]":
        """Same as :attr:`millis`."""
        return self.millis


def _field_or_str(value: Union[str, Expression[Any]]) -> Any:
    if isinstance(value, Expression):
        return value
    return Expression(_exprs().col(value))
