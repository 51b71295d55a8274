"""The Expression class of the Table API DSL: a Python handle on an unresolved JVM expression.

Every operator and method builds a new JVM expression node through the bridge's ``Exprs`` factory
(one Py4J call); nothing is planned in Python. The node is compiled to a Spark column when a table
operation uses it.
"""

from __future__ import annotations

import datetime
import decimal
from enum import Enum
from typing import TYPE_CHECKING, Any, Generic, List, Optional, Sequence, Tuple, TypeVar, Union

from pyflink_table.errors import TableException
from pyflink_table.java_gateway import expression_gateway
from pyflink_table.types import to_type_string

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
    "JsonOnNull",
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


class JsonOnNull(Enum):
    """What the JSON constructors do with NULL values: write ``null`` or leave the entry out."""

    NULL = 0
    ABSENT = 1


class _Symbol(str):
    """A string argument that is a symbol (a type, a time unit, a JSON behaviour), not a value:
    the JVM compiles it as a string and shows it unquoted, as Flink shows its symbols."""

    __slots__ = ()


_SYMBOL_KIND = "~"  # Exprs.SYMBOL on the Java side


class _Jvm:
    """The bridge's expression factory of one gateway, its methods looked up once.

    Each py4j attribute step (``jvm.org.pyflink_table...Exprs.call``) is a round trip of its own;
    with the methods held here a DSL call is exactly one.
    """

    def __init__(self, gateway: Any) -> None:
        from py4j.protocol import get_command_part  # type: ignore[attr-defined]  # not in the stubs

        self.gateway = gateway
        package = gateway.jvm.org.pyflink_table.bridge.expressions
        try:
            package.Args.attach(gateway.java_gateway_server)
        except Exception:  # noqa: BLE001 - py4j's error for a class the JVM does not have
            # Under spark-submit without --jars the bridge joins the JVM with the first environment.
            raise TableException("The JVM cannot load the pyflink_table bridge yet: create a TableEnvironment "
                                 "before building expressions, or pass the bridge jar to spark-submit "
                                 "(--jars and --driver-class-path).") from None
        exprs = package.Exprs
        self.col = exprs.col
        self.lit = exprs.lit
        self.typed_lit = exprs.typedLit
        self.typed_value = exprs.typedValue
        self.call = exprs.call
        self.call_function = exprs.callFunction
        self.array = exprs.array
        self.part = get_command_part


_jvm: Optional[_Jvm] = None


def _exprs() -> _Jvm:
    """The expression factory, starting the JVM when no TableEnvironment has yet."""
    global _jvm
    jvm = _jvm
    if jvm is None or jvm.gateway is not _current_gateway():
        jvm = _jvm = _Jvm(expression_gateway())
    return jvm


def _current_gateway() -> Any:
    from pyspark import SparkContext

    return SparkContext._gateway


def _typed(value: Any) -> Optional[Tuple[str, str]]:
    """The string form and Flink type of a value whose literal needs a type (decimal, temporal)."""
    if isinstance(value, decimal.Decimal):
        sign, digits, exponent = value.as_tuple()
        assert isinstance(exponent, int)
        scale = max(-exponent, 0)
        precision = max(len(digits), scale + 1)
        return str(value), f"DECIMAL({precision}, {scale})"
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            utc = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
            return utc.isoformat() + "Z", "TIMESTAMP_LTZ(6)"
        return value.isoformat(), "TIMESTAMP(6)"
    if isinstance(value, datetime.date):
        return value.isoformat(), "DATE"
    if isinstance(value, datetime.time):
        return value.isoformat(), "TIME(0)"
    return None


def _encode(args: Sequence[Any]) -> Tuple[Optional[str], str]:
    """The arguments of one JVM call as Py4J command parts (bridge ``Args``), and their kinds.

    Expressions travel as references and Python values as Py4J primitives, so a call carries any
    number of arguments in one round trip; ints that fit 32 bits arrive as Integer and others as
    Long, which Flink types INT and BIGINT.
    """
    jvm = _exprs()
    part = jvm.part
    parts: List[str] = []
    kinds: Optional[List[str]] = None
    for i, a in enumerate(args):
        kind = ""
        if isinstance(a, Expression):
            parts.append(part(a._j_expr))
        elif isinstance(a, _Symbol):
            kind = _SYMBOL_KIND
            parts.append(part(str(a)))
        elif a is None or isinstance(a, (bool, int, float, str)) or hasattr(a, "_get_object_id"):
            parts.append(part(a))
        elif isinstance(a, (bytes, bytearray)):
            parts.append(part(bytearray(a)))
        else:
            typed = _typed(a)
            if typed is not None:
                kind = typed[1]
                parts.append(part(typed[0]))
            else:
                parts.append(part(_literal(a)))
        if kind:
            if kinds is None:
                kinds = [""] * len(args)
            kinds[i] = kind
    return (None if kinds is None else "\n".join(kinds)), "".join(parts)


def _literal(value: Any) -> Any:
    """The JVM literal node of a Python value, typed the way PyFlink infers literal types."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return _exprs().lit(value)
    if isinstance(value, (bytes, bytearray)):
        return _exprs().lit(bytearray(value))
    typed = _typed(value)
    if typed is not None:
        return _exprs().typed_lit(*typed)
    if isinstance(value, (list, tuple)):
        return _call_node("array", list(value))
    if isinstance(value, dict):
        args: List[Any] = []
        for k, v in value.items():
            args += [k, v]
        return _call_node("map", args)
    raise TypeError(f"Cannot use a value of type {type(value).__name__} as a literal: {value!r}")


def _call_node(name: str, args: Sequence[Any]) -> Any:
    """The JVM node of a call: ``args`` are Expressions, JVM nodes or Python values, sent in one hop."""
    kinds, encoded = _encode(args)
    return _exprs().call(name, kinds, encoded)


def _function_node(name: str, j_function: Any, args: Sequence[Any]) -> Any:
    """The JVM node of a call of a user function object, in one hop."""
    kinds, encoded = _encode(args)
    return _exprs().call_function(name, j_function, kinds, encoded)


def _expr_array(nodes: Sequence[Any]) -> Any:
    """A Java Expr[] of JVM nodes (a select list), in one hop."""
    return _exprs().array("".join(_exprs().part(n) for n in nodes))


def _get_java_expression(value: Any) -> Any:
    """The JVM node of an Expression, or of a Python value used as a literal."""
    if isinstance(value, Expression):
        return value._j_expr
    return _literal(value)


def _type_string(data_type: Union["DataType", str]) -> _Symbol:
    return _Symbol(data_type if isinstance(data_type, str) else to_type_string(data_type))


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
        return Expression(_call_node(name, (self, *args)))

    def _reverse(self, name: str, other: Any) -> "Expression[Any]":
        return Expression(_call_node(name, (other, self)))

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
        # PyFlink maps ~ to IS NOT TRUE (so ~NULL is TRUE), not to three-valued NOT.
        return self._call("isNotTrue")

    def __abs__(self) -> "Expression[Any]":
        return self._call("abs")

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
        # A name travels as a string literal, which Flink shows quoted: over(sum(a), 'w').
        return self._call("over", alias)

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
        """TRUE if the value equals one of the elements (a sub-query table is not supported)."""
        if type(first_element_or_table).__name__ == "Table" and hasattr(first_element_or_table, "_j_table"):
            from pyflink_table.errors import TableException

            raise TableException("Unsupported: in_ with a sub-query Table is not supported by pyflink_table on "
                                 "Spark; pass the values as elements, or use a join.")
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
        return self._call("substr", begin_index) if length is None else self._call("substr", begin_index, length)

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

    def like(self, pattern: Any = None, escape: Optional[str] = None) -> "Expression[bool]":
        """SQL LIKE with ``%`` and ``_`` wildcards; ``escape`` makes the next character literal."""
        return self._call("like", pattern) if escape is None else self._call("like", pattern, escape)

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


    # --- math --------------------------------------------------------------------------------

    @property
    def abs(self) -> "Expression[Any]":
        """Absolute value; keeps the input type."""
        return self._call("abs")

    @property
    def exp(self) -> "Expression[Any]":
        """e raised to the value."""
        return self._call("exp")

    @property
    def log10(self) -> "Expression[Any]":
        """Base-10 logarithm."""
        return self._call("log10")

    @property
    def log2(self) -> "Expression[Any]":
        """Base-2 logarithm."""
        return self._call("log2")

    @property
    def ln(self) -> "Expression[Any]":
        """Natural logarithm."""
        return self._call("ln")

    @property
    def sqrt(self) -> "Expression[Any]":
        """Square root."""
        return self._call("sqrt")

    @property
    def sin(self) -> "Expression[Any]":
        """Sine."""
        return self._call("sin")

    @property
    def cos(self) -> "Expression[Any]":
        """Cosine."""
        return self._call("cos")

    @property
    def tan(self) -> "Expression[Any]":
        """Tangent."""
        return self._call("tan")

    @property
    def cot(self) -> "Expression[Any]":
        """Cotangent."""
        return self._call("cot")

    @property
    def asin(self) -> "Expression[Any]":
        """Arc sine."""
        return self._call("asin")

    @property
    def acos(self) -> "Expression[Any]":
        """Arc cosine."""
        return self._call("acos")

    @property
    def atan(self) -> "Expression[Any]":
        """Arc tangent."""
        return self._call("atan")

    @property
    def sinh(self) -> "Expression[Any]":
        """Hyperbolic sine."""
        return self._call("sinh")

    @property
    def cosh(self) -> "Expression[Any]":
        """Hyperbolic cosine."""
        return self._call("cosh")

    @property
    def tanh(self) -> "Expression[Any]":
        """Hyperbolic tangent."""
        return self._call("tanh")

    @property
    def degrees(self) -> "Expression[Any]":
        """Radians converted to degrees."""
        return self._call("degrees")

    @property
    def radians(self) -> "Expression[Any]":
        """Degrees converted to radians."""
        return self._call("radians")

    @property
    def sign(self) -> "Expression[Any]":
        """Signum: -1, 0 or 1 in the input's type."""
        return self._call("sign")

    @property
    def bin(self) -> "Expression[Any]":
        """Binary string of an integer (two's complement for negatives)."""
        return self._call("bin")

    @property
    def hex(self) -> "Expression[Any]":
        """Hexadecimal string of an integer or of a string's UTF-8 bytes."""
        return self._call("hex")

    @property
    def unhex(self) -> "Expression[Any]":
        """The bytes a hexadecimal string spells."""
        return self._call("unhex")

    def log(self, base: Any = None) -> "Expression[Any]":
        """Logarithm of the value to ``base``; natural logarithm without a base."""
        # SQL order LOG(base, value), as the FLIP-38 string parser also builds it.
        return self._call("log") if base is None else self._reverse("log", base)

    def round(self, places: Any) -> "Expression[Any]":
        """Rounded half up to ``places`` decimal places; keeps the input type."""
        return self._call("round", places)

    def truncate(self, n: Any = 0) -> "Expression[Any]":
        """Truncated toward zero to ``n`` decimal places; keeps the input type."""
        return self._call("truncate", *_given(n))


    # --- strings -----------------------------------------------------------------------------

    def concat(self, other: Any) -> "Expression[Any]":
        """This string followed by ``other``; NULL if either is NULL."""
        return self._call("concat", other)

    def starts_with(self, start_expr: Any) -> "Expression[Any]":
        """TRUE if the string starts with ``start_expr``."""
        return self._call("startsWith", start_expr)

    def ends_with(self, end_expr: Any) -> "Expression[Any]":
        """TRUE if the string ends with ``end_expr``."""
        return self._call("endsWith", end_expr)

    def translate(self, from_str: Any, to_str: Any) -> "Expression[Any]":
        """Replace each character of ``from_str`` by the character at the same place in ``to_str``."""
        return self._call("translate", from_str, to_str)

    def lpad(self, length: Any, pad: Any) -> "Expression[Any]":
        """Left-pad (or cut) to ``length`` characters with ``pad``."""
        return self._call("lpad", length, pad)

    def rpad(self, length: Any, pad: Any) -> "Expression[Any]":
        """Right-pad (or cut) to ``length`` characters with ``pad``."""
        return self._call("rpad", length, pad)

    def overlay(self, new_string: Any, starting: Any, length: Any = None) -> "Expression[Any]":
        """Replace ``length`` characters (default: the length of ``new_string``) from the 1-based ``starting`` position by ``new_string``."""
        return self._call("overlay", *_given(new_string, starting, length))

    def regexp(self, regex: Any) -> "Expression[Any]":
        """TRUE if some substring matches the Java regular expression ``regex``."""
        return self._call("regexp", regex)

    def regexp_count(self, regex: Any) -> "Expression[Any]":
        """Number of matches of ``regex``."""
        return self._call("regexpCount", regex)

    def regexp_extract_all(self, regex: Any, extract_index: Any = None) -> "Expression[Any]":
        """Array of the ``extract_index``-th group (default 0, the whole match) of every match of ``regex``."""
        return self._call("regexpExtractAll", *_given(regex, extract_index))

    def regexp_instr(self, regex: Any) -> "Expression[Any]":
        """1-based position of the first match of ``regex``; 0 when none."""
        return self._call("regexpInstr", regex)

    def regexp_substr(self, regex: Any) -> "Expression[Any]":
        """The first substring that matches ``regex``."""
        return self._call("regexpSubstr", regex)

    @property
    def from_base64(self) -> "Expression[Any]":
        """Decodes a base64 string."""
        return self._call("fromBase64")

    @property
    def to_base64(self) -> "Expression[Any]":
        """The base64 encoding of the string's UTF-8 bytes."""
        return self._call("toBase64")

    @property
    def ascii(self) -> "Expression[Any]":
        """Code of the first character; 0 for an empty string."""
        return self._call("ascii")

    @property
    def chr(self) -> "Expression[Any]":
        """The character with this (ASCII) code modulo 256."""
        return self._call("chr")

    def decode(self, charset: Any) -> "Expression[Any]":
        """The string of these bytes in ``charset``."""
        return self._call("decode", charset)

    def encode(self, charset: Any) -> "Expression[Any]":
        """The bytes of the string in ``charset``."""
        return self._call("encode", charset)

    def left(self, length: Any) -> "Expression[Any]":
        """The leftmost ``length`` characters."""
        return self._call("left", length)

    def right(self, length: Any) -> "Expression[Any]":
        """The rightmost ``length`` characters."""
        return self._call("right", length)

    def instr(self, s: Any) -> "Expression[Any]":
        """1-based position of the first occurrence of ``s`` in this string; 0 if absent."""
        return self._call("instr", s)

    def locate(self, s: Any, pos: Any = None) -> "Expression[Any]":
        """1-based position of this string in ``s``, searching from ``pos``; 0 if absent."""
        return self._call("locate", *_given(s, pos))

    def url_decode(self) -> "Expression[Any]":
        """Decodes an application/x-www-form-urlencoded string (UTF-8)."""
        return self._call("urlDecode")

    def url_encode(self) -> "Expression[Any]":
        """Encodes as application/x-www-form-urlencoded (UTF-8)."""
        return self._call("urlEncode")

    def inet_aton(self) -> "Expression[Any]":
        """The number of an IPv4 dotted address; NULL if invalid."""
        return self._call("inetAton")

    def inet_ntoa(self) -> "Expression[Any]":
        """The IPv4 dotted address of a number."""
        return self._call("inetNtoa")

    def parse_url(self, part_to_extract: Any, key: Any = None) -> "Expression[Any]":
        """A part of a URL (HOST, PATH, QUERY, REF, PROTOCOL, AUTHORITY, FILE, USERINFO), or a query parameter with ``key``."""
        return self._call("parseUrl", *_given(part_to_extract, key))

    def printf(self, *obj: Any) -> "Expression[Any]":
        """The arguments formatted by this printf-style format string."""
        return self._call("printf", *obj)

    def ltrim(self, trim_str: Any = None) -> "Expression[Any]":
        """Remove leading spaces (or the characters of ``trim_str``)."""
        return self._call("ltrim", *_given(trim_str))

    def rtrim(self, trim_str: Any = None) -> "Expression[Any]":
        """Remove trailing spaces (or the characters of ``trim_str``)."""
        return self._call("rtrim", *_given(trim_str))

    def btrim(self, trim_str: Any = None) -> "Expression[Any]":
        """Remove leading and trailing spaces (or the characters of ``trim_str``)."""
        return self._call("btrim", *_given(trim_str))

    def repeat(self, n: Any) -> "Expression[Any]":
        """The string repeated ``n`` times."""
        return self._call("repeat", n)

    @property
    def reverse(self) -> "Expression[Any]":
        """The characters in reverse order."""
        return self._call("reverse")

    def split(self, delimiter: Any) -> "Expression[Any]":
        """Array of the parts between occurrences of ``delimiter``."""
        return self._call("split", delimiter)

    def str_to_map(self, list_delimiter: Any = None, key_value_delimiter: Any = None) -> "Expression[Any]":
        """A MAP from 'k1=v1,k2=v2' (delimiters ',' and '=' by default)."""
        return self._call("strToMap", *_given(list_delimiter, key_value_delimiter))

    def elt(self, expr: Any, *exprs: Any) -> "Expression[Any]":
        """The argument at this 1-based index; NULL when out of range."""
        return self._call("elt", expr, *exprs)

    @property
    def md5(self) -> "Expression[Any]":
        """MD5 hash as 32 hex digits."""
        return self._call("md5")

    @property
    def sha1(self) -> "Expression[Any]":
        """SHA-1 hash as hex digits."""
        return self._call("sha1")

    @property
    def sha224(self) -> "Expression[Any]":
        """SHA-224 hash as hex digits."""
        return self._call("sha224")

    @property
    def sha256(self) -> "Expression[Any]":
        """SHA-256 hash as hex digits."""
        return self._call("sha256")

    @property
    def sha384(self) -> "Expression[Any]":
        """SHA-384 hash as hex digits."""
        return self._call("sha384")

    @property
    def sha512(self) -> "Expression[Any]":
        """SHA-512 hash as hex digits."""
        return self._call("sha512")

    def sha2(self, hash_length: Any) -> "Expression[Any]":
        """SHA-2 hash of ``hash_length`` bits (224, 256, 384 or 512) as hex digits."""
        return self._call("sha2", hash_length)


    # --- temporal ----------------------------------------------------------------------------

    @property
    def to_date(self) -> "Expression[Any]":
        """The DATE a 'yyyy-MM-dd' string spells."""
        return self._call("cast", _Symbol("DATE"))  # as in Flink, whose toDate() is this cast

    @property
    def to_time(self) -> "Expression[Any]":
        """The TIME a 'HH:mm:ss' string spells."""
        return self._call("cast", _Symbol("TIME(0)"))

    @property
    def to_timestamp(self) -> "Expression[Any]":
        """The TIMESTAMP a 'yyyy-MM-dd HH:mm:ss[.SSS]' string spells."""
        return self._call("cast", _Symbol("TIMESTAMP(3)"))


    # --- collections -------------------------------------------------------------------------

    def array_append(self, addition: Any) -> "Expression[Any]":
        """The array with ``addition`` appended."""
        return self._call("arrayAppend", addition)

    def array_contains(self, needle: Any) -> "Expression[Any]":
        """TRUE if the array contains ``needle``."""
        return self._call("arrayContains", needle)

    def array_distinct(self) -> "Expression[Any]":
        """The array without duplicates, first occurrences kept."""
        return self._call("arrayDistinct")

    def array_position(self, needle: Any) -> "Expression[Any]":
        """1-based position of the first ``needle``; 0 if absent."""
        return self._call("arrayPosition", needle)

    def array_prepend(self, addition: Any) -> "Expression[Any]":
        """The array with ``addition`` in front."""
        return self._call("arrayPrepend", addition)

    def array_remove(self, needle: Any) -> "Expression[Any]":
        """The array without the elements equal to ``needle``."""
        return self._call("arrayRemove", needle)

    def array_reverse(self) -> "Expression[Any]":
        """The array in reverse order."""
        return self._call("arrayReverse")

    def array_slice(self, start_offset: Any, end_offset: Any = None) -> "Expression[Any]":
        """Elements from the 1-based ``start_offset`` to ``end_offset`` inclusive (negative offsets count from the end)."""
        return self._call("arraySlice", *_given(start_offset, end_offset))

    def array_sort(self, ascending_order: Any = None, null_first: Any = None) -> "Expression[Any]":
        """The array sorted, ascending with NULLs first by default."""
        return self._call("arraySort", *_given(ascending_order, null_first))

    def array_union(self, array: Any) -> "Expression[Any]":
        """Distinct elements of both arrays."""
        return self._call("arrayUnion", array)

    def array_concat(self, *arrays: Any) -> "Expression[Any]":
        """The arrays concatenated."""
        return self._call("arrayConcat", *arrays)

    def array_max(self) -> "Expression[Any]":
        """Largest element."""
        return self._call("arrayMax")

    def array_min(self) -> "Expression[Any]":
        """Smallest element."""
        return self._call("arrayMin")

    def array_join(self, delimiter: Any, null_replacement: Any = None) -> "Expression[Any]":
        """The string elements joined by ``delimiter``; NULLs skipped or replaced by ``null_replacement``."""
        return self._call("arrayJoin", *_given(delimiter, null_replacement))

    def array_except(self, array: Any) -> "Expression[Any]":
        """Distinct elements not in ``array``."""
        return self._call("arrayExcept", array)

    def array_intersect(self, array: Any) -> "Expression[Any]":
        """Distinct elements also in ``array``."""
        return self._call("arrayIntersect", array)

    @property
    def map_keys(self) -> "Expression[Any]":
        """The keys of a MAP as an ARRAY."""
        return self._call("mapKeys")

    @property
    def map_values(self) -> "Expression[Any]":
        """The values of a MAP as an ARRAY."""
        return self._call("mapValues")

    @property
    def map_entries(self) -> "Expression[Any]":
        """The entries of a MAP as an ARRAY of ROW<key, value>."""
        return self._call("mapEntries")

    def map_union(self, *maps: Any) -> "Expression[Any]":
        """The maps merged; later maps win on equal keys."""
        return self._call("mapUnion", *maps)


    # --- aggregates --------------------------------------------------------------------------

    @property
    def array_agg(self) -> "Expression[Any]":
        """ARRAY of the values (NULLs included) of the group."""
        return self._call("arrayAgg")

    def percentile(self, percentage: Any, frequency: Any = None) -> "Expression[Any]":
        """The exact ``percentage`` percentile (0..1, or an array of them) of the values, with optional integer frequencies."""
        return self._call("percentile", *_given(percentage, frequency))


    # --- json --------------------------------------------------------------------------------

    def is_json(self, json_type: Optional[JsonType] = None) -> "Expression[Any]":
        """TRUE if the string is valid JSON (of ``json_type``, default VALUE)."""
        return self._call("isJson") if json_type is None else self._call("isJson", _Symbol(json_type.name))

    def json_exists(self, path: str, on_error: Optional[JsonExistsOnError] = None) -> "Expression[Any]":
        """TRUE if the JSON path ``path`` matches something."""
        return self._call("jsonExists", path) if on_error is None else self._call("jsonExists", path, _Symbol(on_error.name))

    def json_quote(self) -> "Expression[Any]":
        """The string as a JSON string literal (quoted and escaped)."""
        return self._call("jsonQuote")

    def json_unquote(self) -> "Expression[Any]":
        """The value of a JSON string literal; other input unchanged."""
        return self._call("jsonUnquote")


    # --- misc --------------------------------------------------------------------------------

    def as_argument(self, name: str) -> "Expression[Any]":
        """Pass this value as the named argument ``name`` of a function call."""
        return self._call("asArgument", name)

    def bitmap_and(self, bitmap2: Any) -> "Expression[Any]":
        """BITMAP_AND: bitmaps are not supported (Spark has no 32-bit roaring bitmap type); raises TableException."""
        return self._call("bitmapAnd", bitmap2)

    def bitmap_andnot(self, bitmap2: Any) -> "Expression[Any]":
        """BITMAP_ANDNOT: bitmaps are not supported (Spark has no 32-bit roaring bitmap type); raises TableException."""
        return self._call("bitmapAndnot", bitmap2)

    def bitmap_or(self, bitmap2: Any) -> "Expression[Any]":
        """BITMAP_OR: bitmaps are not supported (Spark has no 32-bit roaring bitmap type); raises TableException."""
        return self._call("bitmapOr", bitmap2)

    def bitmap_xor(self, bitmap2: Any) -> "Expression[Any]":
        """BITMAP_XOR: bitmaps are not supported (Spark has no 32-bit roaring bitmap type); raises TableException."""
        return self._call("bitmapXor", bitmap2)

    def bitmap_build(self) -> "Expression[Any]":
        """BITMAP_BUILD: bitmaps are not supported; raises TableException."""
        return self._call("bitmapBuild")

    def bitmap_cardinality(self) -> "Expression[Any]":
        """BITMAP_CARDINALITY: bitmaps are not supported; raises TableException."""
        return self._call("bitmapCardinality")

    def bitmap_from_bytes(self) -> "Expression[Any]":
        """BITMAP_FROM_BYTES: bitmaps are not supported; raises TableException."""
        return self._call("bitmapFromBytes")

    def bitmap_to_array(self) -> "Expression[Any]":
        """BITMAP_TO_ARRAY: bitmaps are not supported; raises TableException."""
        return self._call("bitmapToArray")

    def bitmap_to_bytes(self) -> "Expression[Any]":
        """BITMAP_TO_BYTES: bitmaps are not supported; raises TableException."""
        return self._call("bitmapToBytes")

    def bitmap_to_string(self) -> "Expression[Any]":
        """BITMAP_TO_STRING: bitmaps are not supported; raises TableException."""
        return self._call("bitmapToString")

    def bitmap_and_agg(self) -> "Expression[Any]":
        """BITMAP_AND_AGG: bitmaps are not supported; raises TableException."""
        return self._call("bitmapAndAgg")

    def bitmap_and_cardinality_agg(self) -> "Expression[Any]":
        """BITMAP_AND_CARDINALITY_AGG: bitmaps are not supported; raises TableException."""
        return self._call("bitmapAndCardinalityAgg")

    def bitmap_build_agg(self) -> "Expression[Any]":
        """BITMAP_BUILD_AGG: bitmaps are not supported; raises TableException."""
        return self._call("bitmapBuildAgg")

    def bitmap_build_cardinality_agg(self) -> "Expression[Any]":
        """BITMAP_BUILD_CARDINALITY_AGG: bitmaps are not supported; raises TableException."""
        return self._call("bitmapBuildCardinalityAgg")

    def bitmap_or_agg(self) -> "Expression[Any]":
        """BITMAP_OR_AGG: bitmaps are not supported; raises TableException."""
        return self._call("bitmapOrAgg")

    def bitmap_or_cardinality_agg(self) -> "Expression[Any]":
        """BITMAP_OR_CARDINALITY_AGG: bitmaps are not supported; raises TableException."""
        return self._call("bitmapOrCardinalityAgg")

    def bitmap_xor_agg(self) -> "Expression[Any]":
        """BITMAP_XOR_AGG: bitmaps are not supported; raises TableException."""
        return self._call("bitmapXorAgg")

    def bitmap_xor_cardinality_agg(self) -> "Expression[Any]":
        """BITMAP_XOR_CARDINALITY_AGG: bitmaps are not supported; raises TableException."""
        return self._call("bitmapXorCardinalityAgg")

    # --- temporal units -------------------------------------------------------------------------

    def extract(self, time_interval_unit: TimeIntervalUnit) -> "Expression[Any]":
        """The ``time_interval_unit`` part (YEAR, MONTH, ..., SECOND) of a date, time or timestamp."""
        return self._call("extract", _Symbol(time_interval_unit.name))

    def floor(self, time_interval_unit: Optional[TimeIntervalUnit] = None) -> "Expression[Any]":
        """A number rounded down, or a time point rounded down to ``time_interval_unit``."""
        return self._call("floor") if time_interval_unit is None else self._call("floor", _Symbol(time_interval_unit.name))

    def ceil(self, time_interval_unit: Optional[TimeIntervalUnit] = None) -> "Expression[Any]":
        """A number rounded up, or a time point rounded up to ``time_interval_unit``."""
        return self._call("ceil") if time_interval_unit is None else self._call("ceil", _Symbol(time_interval_unit.name))

    # --- json with options ----------------------------------------------------------------------

    def json_value(self, path: str, returning_type: Union["DataType", str, None] = None,
                   on_empty: JsonValueOnEmptyOrError = JsonValueOnEmptyOrError.NULL, default_on_empty: Any = None,
                   on_error: JsonValueOnEmptyOrError = JsonValueOnEmptyOrError.NULL,
                   default_on_error: Any = None) -> "Expression[Any]":
        """The scalar at JSON path ``path``, as ``returning_type`` (STRING by default)."""
        return self._call("jsonValue", path, _type_string(returning_type or "STRING"), _Symbol(on_empty.name),
                          default_on_empty, _Symbol(on_error.name), default_on_error)

    def json_query(self, path: str, wrapping_behavior: JsonQueryWrapper = JsonQueryWrapper.WITHOUT_ARRAY,
                   on_empty: JsonQueryOnEmptyOrError = JsonQueryOnEmptyOrError.NULL,
                   on_error: JsonQueryOnEmptyOrError = JsonQueryOnEmptyOrError.NULL) -> "Expression[Any]":
        """The JSON text of the array or object at JSON path ``path``."""
        return self._call("jsonQuery", path, _Symbol(wrapping_behavior.name), _Symbol(on_empty.name), _Symbol(on_error.name))

    def object_update(self, *kv: Any) -> "Expression[Any]":
        """This JSON object with the keys and values ``k1, v1, k2, v2, ...`` set."""
        return self._call("objectUpdate", *kv)

    def __getattr__(self, name: str) -> "Expression[Any]":
        """``row_expr.f`` is ``get('f')``, as in PyFlink."""
        if name.startswith("_"):
            raise AttributeError(name)
        return self.get(name)

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
        return self._call("interval", _Symbol(unit))

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


def _given(*args: Any) -> List[Any]:
    """The arguments up to the last one that is not None: optional trailing arguments left out."""
    values = list(args)
    while values and values[-1] is None:
        values.pop()
    return values
