"""PyFlink's data types: :class:`DataTypes`, the :class:`DataType` classes and type strings.

The classes, their attributes, constructors, defaults and ``repr`` follow PyFlink 2.3's
``pyflink.table.types``, ``str()`` too: it prints only the type's name, as PyFlink does
(``VARCHAR`` for ``STRING`` and ``VARCHAR(10)``, no nullability). The full Flink SQL type string
that Flink's Java side prints (in ``print_schema`` and ``get_schema``), for example
``BIGINT NOT NULL``, ``DECIMAL(10, 2)``, ``TIMESTAMP_LTZ(3)`` or ``ROW<`a` INT, `b` STRING>``,
is :func:`to_type_string`'s; it is also the form in which types cross to the bridge and the
workers. :func:`parse_type_string` reads such strings (and Flink's SQL synonyms) back:

>>> t = DataTypes.ROW([DataTypes.FIELD("a", DataTypes.INT()),
...                    DataTypes.FIELD("b", DataTypes.STRING(False))])
>>> str(t), to_type_string(t)
('ROW', 'ROW<`a` INT, `b` STRING NOT NULL>')
>>> parse_type_string("ROW(a INT, b STRING NOT NULL)") == DataTypes.ROW(
...     [DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.STRING(False))])
True

The private helpers :func:`_infer_type`, :func:`_infer_schema`, :func:`_merge_type` and
:func:`_infer_schema_from_data` infer types from Python values the way PyFlink's
``TableEnvironment.from_elements`` does when it is given no schema.
"""

from __future__ import annotations

import array
import calendar
import ctypes
import datetime
import decimal
import time
from copy import copy
from enum import Enum, IntEnum
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from pyflink_table.row import Row, RowKind

__all__ = [
    "DataTypes",
    "DataType",
    "AtomicType",
    "NumericType",
    "IntegralType",
    "FractionalType",
    "NullType",
    "CharType",
    "VarCharType",
    "BinaryType",
    "VarBinaryType",
    "BooleanType",
    "TinyIntType",
    "SmallIntType",
    "IntType",
    "BigIntType",
    "FloatType",
    "DoubleType",
    "DecimalType",
    "DateType",
    "TimeType",
    "TimestampType",
    "LocalZonedTimestampType",
    "ZonedTimestampType",
    "Resolution",
    "YearMonthIntervalType",
    "DayTimeIntervalType",
    "ArrayType",
    "ListViewType",
    "MapType",
    "MapViewType",
    "MultisetType",
    "RowField",
    "RowType",
    "UserDefinedType",
    "Row",
    "RowKind",
    "parse_type_string",
]

#: The largest length of CHAR, VARCHAR, BINARY and VARBINARY; VARCHAR of it is ``STRING``.
MAX_LENGTH = 0x7FFFFFFF


class _TypeValueError(ValueError, AssertionError):
    """A type parameter out of range.

    PyFlink checks these with ``assert`` (raising ``AssertionError``); this error is both a
    ``ValueError`` and an ``AssertionError`` so code written either way keeps working.
    """


class _TypeArgumentError(TypeError, AssertionError):
    """A type argument of the wrong kind (``TypeError``, and ``AssertionError`` like PyFlink)."""


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise _TypeValueError(message)


def _check_data_type(value: object, what: str) -> None:
    if not isinstance(value, DataType):
        raise _TypeArgumentError("%s %s should be an instance of %s" % (what, value, DataType))


def _bool_str(value: bool) -> str:
    return str(value).lower()


# ------------------------------------------------------------------------------------------------
# DataType and the atomic types
# ------------------------------------------------------------------------------------------------


class DataType:
    """The data type of a value in the table ecosystem.

    Instances are created through :class:`DataTypes`. A type is nullable unless created with
    ``nullable=False`` or turned with :meth:`not_null`; the flag is kept in ``_nullable``.

    ``str()`` and ``repr()`` print what PyFlink prints; :func:`to_type_string` gives the Flink
    SQL type string:

    >>> t = DataTypes.BIGINT(nullable=False)
    >>> str(t), repr(t), to_type_string(t)
    ('BIGINT', 'BigIntType(false)', 'BIGINT NOT NULL')

    Types compare equal when they are of the same class with the same parameters and
    nullability.

    :param nullable: whether the type can hold null (None).
    """

    def __init__(self, nullable: bool = True) -> None:
        self._nullable = nullable
        self._conversion_cls = ""

    def __repr__(self) -> str:
        return "%s(%s)" % (type(self).__name__, _bool_str(self._nullable))

    def __str__(self) -> str:
        """PyFlink's short name of the type (:meth:`type_name`), as PyFlink prints it."""
        return type(self).type_name()

    def _type_string(self) -> str:
        """The Flink SQL type string, ending in ``NOT NULL`` when the type is not nullable."""
        return self._sql() + ("" if self._nullable else " NOT NULL")

    def _sql(self) -> str:
        """The Flink SQL type string without the nullability suffix."""
        return type(self).type_name()

    def __hash__(self) -> int:
        return hash(str(self))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, type(self)) and self.__dict__ == other.__dict__

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def not_null(self) -> "DataType":
        """A copy of this type that cannot hold null.

        >>> repr(DataTypes.INT().not_null())
        'IntType(false)'

        :return: the copy (this type is left unchanged).
        """
        cp = copy(self)
        cp._nullable = False
        return cp

    def nullable(self) -> "DataType":
        """A copy of this type that can hold null.

        :return: the copy (this type is left unchanged).
        """
        cp = copy(self)
        cp._nullable = True
        return cp

    @classmethod
    def type_name(cls) -> str:
        """PyFlink's short name of the type: the class name without ``Type``, upper-cased.

        >>> BigIntType.type_name(), LocalZonedTimestampType.type_name()
        ('BIGINT', 'LOCALZONEDTIMESTAMP')

        :return: the name.
        """
        return cls.__name__[:-4].upper()

    def bridged_to(self, conversion_cls: str) -> "DataType":
        """Hint which class should represent the data when it enters or leaves the table ecosystem.

        :param conversion_cls: the name of the conversion class.
        :return: this type (changed in place, as in PyFlink).
        """
        self._conversion_cls = conversion_cls
        return self

    def need_conversion(self) -> bool:
        """Whether values of this type need converting between Python and SQL objects.

        :return: False, except for user-defined types.
        """
        return False

    def to_sql_type(self, obj: Any) -> Any:
        """Convert a Python object into the SQL object of this type.

        :param obj: the Python object.
        :return: the SQL object (the object itself, except for user-defined types).
        """
        return obj

    def from_sql_type(self, obj: Any) -> Any:
        """Convert a SQL object of this type into a Python object.

        :param obj: the SQL object.
        :return: the Python object (the object itself, except for user-defined types).
        """
        return obj


class AtomicType(DataType):
    """Base class of the types that are not arrays, maps, multisets or rows.

    :param nullable: whether the type can hold null (None).
    """


class NullType(AtomicType):
    """The type of untyped null (None) values: SQL ``NULL``.

    It has no value other than null and can be cast to any nullable type.
    """

    def __init__(self) -> None:
        super().__init__(True)

    def _sql(self) -> str:
        return "NULL"


class NumericType(AtomicType):
    """Base class of the numeric types.

    :param nullable: whether the type can hold null (None).
    """


class IntegralType(NumericType):
    """Base class of the integer types.

    :param nullable: whether the type can hold null (None).
    """


class FractionalType(NumericType):
    """Base class of the fractional types: FLOAT, DOUBLE and DECIMAL.

    :param nullable: whether the type can hold null (None).
    """


class CharType(AtomicType):
    """Fixed-length character string: SQL ``CHAR(n)``.

    >>> to_type_string(CharType(3)), str(CharType(3)), repr(CharType(3))
    ('CHAR(3)', 'CHAR', 'CharType(3, true)')

    :param length: the number of code points, from 1 to 2147483647 (default 1).
    :param nullable: whether the type can hold null (None).
    """

    def __init__(self, length: int = 1, nullable: bool = True) -> None:
        super().__init__(nullable)
        self.length = length

    def __repr__(self) -> str:
        return "CharType(%d, %s)" % (self.length, _bool_str(self._nullable))

    def _sql(self) -> str:
        return "CHAR(%d)" % self.length


class VarCharType(AtomicType):
    """Variable-length character string: SQL ``VARCHAR(n)``; ``STRING`` when ``n`` is 2147483647.

    >>> to_type_string(VarCharType(10)), to_type_string(VarCharType(2147483647))
    ('VARCHAR(10)', 'STRING')
    >>> str(VarCharType(10)), repr(VarCharType(10))
    ('VARCHAR', 'VarCharType(10, true)')

    :param length: the maximum number of code points, from 1 to 2147483647 (default 1).
    :param nullable: whether the type can hold null (None).
    """

    def __init__(self, length: int = 1, nullable: bool = True) -> None:
        super().__init__(nullable)
        self.length = length

    def __repr__(self) -> str:
        return "VarCharType(%d, %s)" % (self.length, _bool_str(self._nullable))

    def _sql(self) -> str:
        return "STRING" if self.length == MAX_LENGTH else "VARCHAR(%d)" % self.length


class BinaryType(AtomicType):
    """Fixed-length byte string: SQL ``BINARY(n)``.

    :param length: the number of bytes, from 1 to 2147483647 (default 1).
    :param nullable: whether the type can hold null (None).
    """

    def __init__(self, length: int = 1, nullable: bool = True) -> None:
        super().__init__(nullable)
        self.length = length

    def __repr__(self) -> str:
        return "BinaryType(%d, %s)" % (self.length, _bool_str(self._nullable))

    def _sql(self) -> str:
        return "BINARY(%d)" % self.length


class VarBinaryType(AtomicType):
    """Variable-length byte string: SQL ``VARBINARY(n)``; ``BYTES`` when ``n`` is 2147483647.

    :param length: the maximum number of bytes, from 1 to 2147483647 (default 1).
    :param nullable: whether the type can hold null (None).
    """

    def __init__(self, length: int = 1, nullable: bool = True) -> None:
        super().__init__(nullable)
        self.length = length

    def __repr__(self) -> str:
        return "VarBinaryType(%d, %s)" % (self.length, _bool_str(self._nullable))

    def _sql(self) -> str:
        return "BYTES" if self.length == MAX_LENGTH else "VARBINARY(%d)" % self.length


class BooleanType(AtomicType):
    """Boolean: SQL ``BOOLEAN``.

    :param nullable: whether the type can hold null (None).
    """


class TinyIntType(IntegralType):
    """1-byte signed integer: SQL ``TINYINT``.

    :param nullable: whether the type can hold null (None).
    """


class SmallIntType(IntegralType):
    """2-byte signed integer: SQL ``SMALLINT``.

    :param nullable: whether the type can hold null (None).
    """


class IntType(IntegralType):
    """4-byte signed integer: SQL ``INT``.

    :param nullable: whether the type can hold null (None).
    """


class BigIntType(IntegralType):
    """8-byte signed integer: SQL ``BIGINT``.

    :param nullable: whether the type can hold null (None).
    """


class FloatType(FractionalType):
    """4-byte floating point number: SQL ``FLOAT``.

    :param nullable: whether the type can hold null (None).
    """


class DoubleType(FractionalType):
    """8-byte floating point number: SQL ``DOUBLE``.

    :param nullable: whether the type can hold null (None).
    """


class DecimalType(FractionalType):
    """Decimal number of fixed precision and scale: SQL ``DECIMAL(p, s)``.

    >>> to_type_string(DecimalType(10, 2)), repr(DecimalType(10, 2))
    ('DECIMAL(10, 2)', 'DecimalType(10, 2, true)')

    :param precision: the number of digits, from 1 to 38 (default 10).
    :param scale: the number of digits right of the point, from 0 to ``precision`` (default 0).
    :param nullable: whether the type can hold null (None).
    :raises ValueError: if precision or scale is out of range (also an ``AssertionError``, as
        PyFlink asserts).
    """

    def __init__(self, precision: int = 10, scale: int = 0, nullable: bool = True) -> None:
        super().__init__(nullable)
        _check(1 <= precision <= 38,
               "DECIMAL precision must be between 1 and 38 (both inclusive), got %s" % precision)
        _check(0 <= scale <= precision,
               "DECIMAL scale must be between 0 and the precision %s (both inclusive), got %s"
               % (precision, scale))
        self.precision = precision
        self.scale = scale
        self.has_precision_info = True

    def __repr__(self) -> str:
        return "DecimalType(%d, %d, %s)" % (self.precision, self.scale, _bool_str(self._nullable))

    def _sql(self) -> str:
        return "DECIMAL(%d, %d)" % (self.precision, self.scale)


class DateType(AtomicType):
    """Date of year-month-day: SQL ``DATE``.

    :param nullable: whether the type can hold null (None).
    """

    EPOCH_ORDINAL = datetime.datetime(1970, 1, 1).toordinal()

    def to_sql_type(self, d: Any) -> Any:
        """Days since 1970-01-01 of a date (Flink's internal form); None stays None."""
        return None if d is None else d.toordinal() - self.EPOCH_ORDINAL

    def from_sql_type(self, v: Any) -> Any:
        """The date ``v`` days after 1970-01-01; None stays None."""
        return None if v is None else datetime.date.fromordinal(v + self.EPOCH_ORDINAL)


def _check_fraction_precision(kind: str, precision: int) -> None:
    _check(0 <= precision <= 9,
           "%s precision must be between 0 and 9 (both inclusive), got %s" % (kind, precision))


class TimeType(AtomicType):
    """Time of day without time zone: SQL ``TIME(p)``.

    >>> to_type_string(TimeType()), repr(TimeType())
    ('TIME(0)', 'TimeType(0, true)')

    :param precision: the number of digits of fractional seconds, from 0 to 9 (default 0).
    :param nullable: whether the type can hold null (None).
    """

    def __init__(self, precision: int = 0, nullable: bool = True) -> None:
        super().__init__(nullable)
        _check_fraction_precision("TIME", precision)
        self.precision = precision

    def __repr__(self) -> str:
        return "TimeType(%s, %s)" % (self.precision, _bool_str(self._nullable))

    def _sql(self) -> str:
        return "TIME(%d)" % self.precision

    def to_sql_type(self, t: Any) -> Any:
        """Microseconds since midnight of a time (Flink's internal form); None stays None."""
        if t is None:
            return None
        return ((t.hour * 60 + t.minute) * 60 + t.second) * 10 ** 6 + t.microsecond

    def from_sql_type(self, v: Any) -> Any:
        """The time ``v`` microseconds after midnight; None stays None."""
        if v is None:
            return None
        seconds, micros = divmod(v, 10 ** 6)
        minutes, second = divmod(seconds, 60)
        return datetime.time(minutes // 60, minutes % 60, second, micros)


class TimestampType(AtomicType):
    """Timestamp without time zone: SQL ``TIMESTAMP(p)``.

    >>> to_type_string(TimestampType()), repr(TimestampType(3))
    ('TIMESTAMP(6)', 'TimestampType(3, true)')

    :param precision: the number of digits of fractional seconds, from 0 to 9 (default 6).
    :param nullable: whether the type can hold null (None).
    """

    def __init__(self, precision: int = 6, nullable: bool = True) -> None:
        super().__init__(nullable)
        _check_fraction_precision("TIMESTAMP", precision)
        self.precision = precision

    def __repr__(self) -> str:
        return "TimestampType(%s, %s)" % (self.precision, _bool_str(self._nullable))

    def _sql(self) -> str:
        return "TIMESTAMP(%d)" % self.precision

    def to_sql_type(self, dt: Any) -> Any:
        """Microseconds since the epoch of a timestamp's wall-clock time; None stays None."""
        if dt is None:
            return None
        seconds = calendar.timegm(dt.utctimetuple() if dt.tzinfo else dt.timetuple())
        return seconds * 10 ** 6 + dt.microsecond

    def from_sql_type(self, ts: Any) -> Any:
        """The timestamp ``ts`` microseconds after the epoch (wall-clock); None stays None."""
        if ts is None:
            return None
        return datetime.datetime(1970, 1, 1) + datetime.timedelta(microseconds=ts)


class LocalZonedTimestampType(AtomicType):
    """Timestamp with local time zone: SQL ``TIMESTAMP(p) WITH LOCAL TIME ZONE``.

    Flink prints it as ``TIMESTAMP_LTZ(p)``:

    >>> to_type_string(LocalZonedTimestampType(3)), repr(LocalZonedTimestampType(3))
    ('TIMESTAMP_LTZ(3)', 'LocalZonedTimestampType(3, true)')

    :param precision: the number of digits of fractional seconds, from 0 to 9 (default 6).
    :param nullable: whether the type can hold null (None).
    """

    def __init__(self, precision: int = 6, nullable: bool = True) -> None:
        super().__init__(nullable)
        _check_fraction_precision("TIMESTAMP_LTZ", precision)
        self.precision = precision

    def __repr__(self) -> str:
        return "LocalZonedTimestampType(%s, %s)" % (self.precision, _bool_str(self._nullable))

    def _sql(self) -> str:
        return "TIMESTAMP_LTZ(%d)" % self.precision

    #: Offset of the local time zone at the epoch, in microseconds (added to instants).
    EPOCH_ORDINAL = calendar.timegm(time.localtime(0)) * 10 ** 6

    def to_sql_type(self, dt: Any) -> Any:
        """Microseconds since the epoch of an instant (naive values read in the local zone)."""
        if dt is None:
            return None
        seconds = calendar.timegm(dt.utctimetuple()) if dt.tzinfo else time.mktime(dt.timetuple())
        return int(seconds) * 10 ** 6 + dt.microsecond + self.EPOCH_ORDINAL

    def from_sql_type(self, ts: Any) -> Any:
        """The local date-time of an instant ``ts`` microseconds after the epoch."""
        if ts is None:
            return None
        ts -= self.EPOCH_ORDINAL
        return datetime.datetime.fromtimestamp(ts // 10 ** 6).replace(microsecond=ts % 10 ** 6)


class ZonedTimestampType(AtomicType):
    """Timestamp with time zone: SQL ``TIMESTAMP(p) WITH TIME ZONE``.

    Like in Flink, tables cannot have columns of this type; it exists for completeness.

    :param precision: the number of digits of fractional seconds, from 0 to 9 (default 6).
    :param nullable: whether the type can hold null (None).
    """

    def __init__(self, precision: int = 6, nullable: bool = True) -> None:
        super().__init__(nullable)
        _check_fraction_precision("TIMESTAMP WITH TIME ZONE", precision)
        self.precision = precision

    def __repr__(self) -> str:
        return "ZonedTimestampType(%s, %s)" % (self.precision, _bool_str(self._nullable))

    def _sql(self) -> str:
        return "TIMESTAMP(%d) WITH TIME ZONE" % self.precision

    def to_sql_type(self, dt: Any) -> Any:
        """``(wall-clock microseconds since the epoch, UTC offset in seconds)`` of an aware date-time."""
        if dt is None:
            return None
        offset = dt.utcoffset() or datetime.timedelta(0)
        micros = calendar.timegm(dt.timetuple()) * 10 ** 6 + dt.microsecond
        return micros, int(offset.total_seconds())

    def from_sql_type(self, zoned: Any) -> Any:
        """The aware date-time of ``(wall-clock microseconds, UTC offset in seconds)``."""
        if zoned is None:
            return None
        micros, offset = zoned
        tz = datetime.timezone(datetime.timedelta(seconds=offset))
        return (datetime.datetime(1970, 1, 1) + datetime.timedelta(microseconds=micros)).replace(tzinfo=tz)


# ------------------------------------------------------------------------------------------------
# Intervals
# ------------------------------------------------------------------------------------------------


class Resolution:
    """The resolution of one end of an interval type; see :meth:`DataTypes.INTERVAL`.

    Created by :meth:`DataTypes.SECOND`, :meth:`DataTypes.MINUTE`, :meth:`DataTypes.HOUR`,
    :meth:`DataTypes.DAY`, :meth:`DataTypes.MONTH` and :meth:`DataTypes.YEAR`.

    >>> str(DataTypes.SECOND(3))
    'IntervalUnit.SECOND(3)'

    :param unit: the unit, one of :class:`Resolution.IntervalUnit`.
    :param precision: the number of digits of years, of days or of fractional seconds (-1 when
        the unit has none).
    """

    class IntervalUnit(Enum):
        """The units of an interval."""

        SECOND = 0
        MINUTE = 1
        HOUR = 2
        DAY = 3
        MONTH = 4
        YEAR = 5

    def __init__(self, unit: "Resolution.IntervalUnit", precision: int = -1) -> None:
        self._unit = unit
        self._precision = precision

    @property
    def unit(self) -> "Resolution.IntervalUnit":
        """The unit of this resolution."""
        return self._unit

    @property
    def precision(self) -> int:
        """The precision of this resolution (-1 when the unit has none)."""
        return self._precision

    def __str__(self) -> str:
        return "%s(%s)" % (self._unit, self._precision)


class YearMonthIntervalType(AtomicType):
    """Interval of years, of years to months, or of months.

    Flink prints ``INTERVAL YEAR(p)``, ``INTERVAL YEAR(p) TO MONTH`` or ``INTERVAL MONTH``:

    >>> to_type_string(DataTypes.INTERVAL(DataTypes.YEAR(), DataTypes.MONTH()))
    'INTERVAL YEAR(2) TO MONTH'

    :param resolution: one of :class:`YearMonthIntervalType.YearMonthResolution`.
    :param precision: the number of digits of years, from 1 to 4 (default 2; must be 2 for MONTH).
    :param nullable: whether the type can hold null (None).
    """

    class YearMonthResolution(IntEnum):
        """The resolutions of a year-month interval."""

        YEAR = 1
        MONTH = 2
        YEAR_TO_MONTH = 3

    DEFAULT_PRECISION = 2

    def __init__(self, resolution: "YearMonthIntervalType.YearMonthResolution",
                 precision: int = DEFAULT_PRECISION, nullable: bool = True) -> None:
        _check(resolution in (1, 2, 3), "Unknown year-month resolution %r" % (resolution,))
        resolution = YearMonthIntervalType.YearMonthResolution(resolution)
        _check(resolution != YearMonthIntervalType.YearMonthResolution.MONTH
               or precision == self.DEFAULT_PRECISION,
               "INTERVAL MONTH takes no year precision, got %s" % precision)
        _check(1 <= precision <= 4,
               "Year precision of an interval must be between 1 and 4 (both inclusive), got %s"
               % precision)
        self._resolution = resolution
        self._precision = precision
        super().__init__(nullable)

    @property
    def resolution(self) -> "YearMonthIntervalType.YearMonthResolution":
        """The resolution of this interval."""
        return self._resolution

    @property
    def precision(self) -> int:
        """The number of digits of years."""
        return self._precision

    def _sql(self) -> str:
        r = YearMonthIntervalType.YearMonthResolution
        if self._resolution == r.YEAR:
            return "INTERVAL YEAR(%d)" % self._precision
        if self._resolution == r.MONTH:
            return "INTERVAL MONTH"
        return "INTERVAL YEAR(%d) TO MONTH" % self._precision


class DayTimeIntervalType(AtomicType):
    """Interval of days, hours, minutes and seconds, with up to nanosecond precision.

    Flink prints it by resolution, e.g. ``INTERVAL SECOND(3)``, ``INTERVAL DAY(2) TO SECOND(6)``,
    ``INTERVAL HOUR TO MINUTE``:

    >>> to_type_string(DataTypes.INTERVAL(DataTypes.DAY(), DataTypes.SECOND(3)))
    'INTERVAL DAY(2) TO SECOND(3)'

    :param resolution: one of :class:`DayTimeIntervalType.DayTimeResolution`.
    :param day_precision: the number of digits of days, from 1 to 6 (default 2; must be 2 when
        the interval does not start with days).
    :param fractional_precision: the number of digits of fractional seconds, from 0 to 9
        (default 6; must be 6 when the interval does not end with seconds).
    :param nullable: whether the type can hold null (None).
    """

    class DayTimeResolution(Enum):
        """The resolutions of a day-time interval."""

        DAY = 1
        DAY_TO_HOUR = 2
        DAY_TO_MINUTE = 3
        DAY_TO_SECOND = 4
        HOUR = 5
        HOUR_TO_MINUTE = 6
        HOUR_TO_SECOND = 7
        MINUTE = 8
        MINUTE_TO_SECOND = 9
        SECOND = 10

    DEFAULT_DAY_PRECISION = 2
    DEFAULT_FRACTIONAL_PRECISION = 6

    def __init__(self, resolution: "DayTimeIntervalType.DayTimeResolution",
                 day_precision: int = DEFAULT_DAY_PRECISION,
                 fractional_precision: int = DEFAULT_FRACTIONAL_PRECISION,
                 nullable: bool = True) -> None:
        _check(isinstance(resolution, DayTimeIntervalType.DayTimeResolution),
               "Unknown day-time resolution %r" % (resolution,))
        _check(not self._needs_default_day_precision(resolution)
               or day_precision == self.DEFAULT_DAY_PRECISION,
               "Interval %s takes no day precision, got %s" % (resolution.name, day_precision))
        _check(not self._needs_default_fractional_precision(resolution)
               or fractional_precision == self.DEFAULT_FRACTIONAL_PRECISION,
               "Interval %s takes no fractional precision, got %s"
               % (resolution.name, fractional_precision))
        _check(1 <= day_precision <= 6,
               "Day precision of an interval must be between 1 and 6 (both inclusive), got %s"
               % day_precision)
        _check(0 <= fractional_precision <= 9,
               "Fractional precision of an interval must be between 0 and 9 (both inclusive), "
               "got %s" % fractional_precision)
        self._resolution = resolution
        self._day_precision = day_precision
        self._fractional_precision = fractional_precision
        super().__init__(nullable)

    @property
    def resolution(self) -> "DayTimeIntervalType.DayTimeResolution":
        """The resolution of this interval."""
        return self._resolution

    @property
    def day_precision(self) -> int:
        """The number of digits of days."""
        return self._day_precision

    @property
    def fractional_precision(self) -> int:
        """The number of digits of fractional seconds."""
        return self._fractional_precision

    @staticmethod
    def _needs_default_day_precision(resolution: "DayTimeIntervalType.DayTimeResolution") -> bool:
        return not resolution.name.startswith("DAY")

    @staticmethod
    def _needs_default_fractional_precision(
            resolution: "DayTimeIntervalType.DayTimeResolution") -> bool:
        return not resolution.name.endswith("SECOND")

    def _sql(self) -> str:
        name = self._resolution.name
        start, _, end = name.partition("_TO_")
        parts = []
        for unit in (start, end):
            if not unit:
                continue
            if unit == "DAY":
                parts.append("DAY(%d)" % self._day_precision)
            elif unit == "SECOND":
                parts.append("SECOND(%d)" % self._fractional_precision)
            else:
                parts.append(unit)
        return "INTERVAL " + " TO ".join(parts)

    def to_sql_type(self, td: Any) -> Any:
        """Microseconds of a :class:`datetime.timedelta` (Flink's internal form); None stays None."""
        if td is None:
            return None
        return (td.days * 86400 + td.seconds) * 10 ** 6 + td.microseconds

    def from_sql_type(self, micros: Any) -> Any:
        """The :class:`datetime.timedelta` of ``micros`` microseconds; None stays None."""
        return None if micros is None else datetime.timedelta(microseconds=micros)


def _from_resolution(upper: Resolution,
                     lower: Optional[Resolution] = None) -> Union["DayTimeIntervalType",
                                                                  "YearMonthIntervalType"]:
    """The interval type of an upper and (optionally) lower resolution, as PyFlink maps them."""
    unit = Resolution.IntervalUnit
    ym = YearMonthIntervalType.YearMonthResolution
    dt = DayTimeIntervalType.DayTimeResolution
    lower_unit = None if lower is None else lower.unit
    p1 = upper.precision
    p2 = -1 if lower is None else lower.precision
    dflt_day = DayTimeIntervalType.DEFAULT_DAY_PRECISION
    dflt_frac = DayTimeIntervalType.DEFAULT_FRACTIONAL_PRECISION
    key = (upper.unit, lower_unit)
    if key == (unit.YEAR, None):
        return YearMonthIntervalType(ym.YEAR, p1)
    if key == (unit.MONTH, None):
        return YearMonthIntervalType(ym.MONTH)
    if key == (unit.YEAR, unit.MONTH):
        # Measured on PyFlink 2.3: the year precision is dropped here (YEAR(3) TO MONTH gives
        # INTERVAL YEAR(2) TO MONTH); kept for compatibility.
        return YearMonthIntervalType(ym.YEAR_TO_MONTH)
    if key == (unit.DAY, None):
        return DayTimeIntervalType(dt.DAY, p1, dflt_frac)
    if key == (unit.DAY, unit.HOUR):
        return DayTimeIntervalType(dt.DAY_TO_HOUR, p1, dflt_frac)
    if key == (unit.DAY, unit.MINUTE):
        return DayTimeIntervalType(dt.DAY_TO_MINUTE, p1, dflt_frac)
    if key == (unit.DAY, unit.SECOND):
        return DayTimeIntervalType(dt.DAY_TO_SECOND, p1, p2)
    if key == (unit.HOUR, None):
        return DayTimeIntervalType(dt.HOUR)
    if key == (unit.HOUR, unit.MINUTE):
        return DayTimeIntervalType(dt.HOUR_TO_MINUTE)
    if key == (unit.HOUR, unit.SECOND):
        return DayTimeIntervalType(dt.HOUR_TO_SECOND, dflt_day, p2)
    if key == (unit.MINUTE, None):
        return DayTimeIntervalType(dt.MINUTE)
    if key == (unit.MINUTE, unit.SECOND):
        return DayTimeIntervalType(dt.MINUTE_TO_SECOND, dflt_day, p2)
    if key == (unit.SECOND, None):
        return DayTimeIntervalType(dt.SECOND, dflt_day, p1)
    raise ValueError(
        "Unsupported interval definition '%s TO %s'. Please check the documentation for "
        "supported combinations for year-month and day-time intervals." % (upper, lower))


# ------------------------------------------------------------------------------------------------
# Collections and rows
# ------------------------------------------------------------------------------------------------


class ArrayType(DataType):
    """Array of elements of one type: SQL ``ARRAY<t>``.

    >>> to_type_string(ArrayType(IntType(False))), repr(ArrayType(IntType()))
    ('ARRAY<INT NOT NULL>', 'ArrayType(IntType(true), true)')

    :param element_type: the type of the elements.
    :param nullable: whether the type can hold null (None).
    """

    def __init__(self, element_type: DataType, nullable: bool = True) -> None:
        _check_data_type(element_type, "element_type")
        super().__init__(nullable)
        self.element_type = element_type

    def __repr__(self) -> str:
        return "ArrayType(%r, %s)" % (self.element_type, _bool_str(self._nullable))

    def _sql(self) -> str:
        return "ARRAY<%s>" % to_type_string(self.element_type)


_LIST_VIEW_CLASS = "org.apache.flink.table.api.dataview.ListView"
_MAP_VIEW_CLASS = "org.apache.flink.table.api.dataview.MapView"


class ListViewType(DataType):
    """The type of a ``ListView``; only for accumulator types of aggregate functions.

    Flink represents it as a structured type, which is its type string:

    >>> to_type_string(ListViewType(BigIntType()))
    "STRUCTURED<'org.apache.flink.table.api.dataview.ListView', `list` ARRAY<BIGINT>>"

    :param element_type: the type of the elements of the list view.
    """

    def __init__(self, element_type: DataType) -> None:
        _check_data_type(element_type, "element_type")
        super().__init__(False)
        self._element_type = element_type

    @property
    def element_type(self) -> DataType:
        """The type of the elements."""
        return self._element_type

    def __repr__(self) -> str:
        return "ListViewType(%r)" % (self._element_type,)

    def _type_string(self) -> str:
        return self._sql()

    def _sql(self) -> str:
        return "STRUCTURED<'%s', `list` ARRAY<%s>>" % (_LIST_VIEW_CLASS, to_type_string(self._element_type))


class MapType(DataType):
    """Map from keys of one type to values of another: SQL ``MAP<k, v>``.

    >>> to_type_string(MapType(VarCharType(2147483647), BigIntType()))
    'MAP<STRING, BIGINT>'

    :param key_type: the type of the keys.
    :param value_type: the type of the values.
    :param nullable: whether the type can hold null (None).
    """

    def __init__(self, key_type: DataType, value_type: DataType, nullable: bool = True) -> None:
        _check_data_type(key_type, "key_type")
        _check_data_type(value_type, "value_type")
        super().__init__(nullable)
        self.key_type = key_type
        self.value_type = value_type

    def __repr__(self) -> str:
        return "MapType(%r, %r, %s)" % (self.key_type, self.value_type, _bool_str(self._nullable))

    def _sql(self) -> str:
        return "MAP<%s, %s>" % (to_type_string(self.key_type), to_type_string(self.value_type))


class MapViewType(DataType):
    """The type of a ``MapView``; only for accumulator types of aggregate functions.

    Flink represents it as a structured type, which is its type string:

    >>> to_type_string(MapViewType(VarCharType(2147483647), BigIntType()))
    "STRUCTURED<'org.apache.flink.table.api.dataview.MapView', `map` MAP<STRING, BIGINT>>"

    :param key_type: the type of the keys of the map view.
    :param value_type: the type of the values of the map view.
    """

    def __init__(self, key_type: DataType, value_type: DataType) -> None:
        _check_data_type(key_type, "key_type")
        _check_data_type(value_type, "value_type")
        super().__init__(False)
        self._key_type = key_type
        self._value_type = value_type

    @property
    def key_type(self) -> DataType:
        """The type of the keys."""
        return self._key_type

    @property
    def value_type(self) -> DataType:
        """The type of the values."""
        return self._value_type

    def __repr__(self) -> str:
        return "MapViewType(%r, %r)" % (self._key_type, self._value_type)

    def _type_string(self) -> str:
        return self._sql()

    def _sql(self) -> str:
        return "STRUCTURED<'%s', `map` MAP<%s, %s>>" % (
            _MAP_VIEW_CLASS, to_type_string(self._key_type), to_type_string(self._value_type))


class MultisetType(DataType):
    """Multiset (bag) of elements of one type: SQL ``MULTISET<t>``.

    :param element_type: the type of the elements.
    :param nullable: whether the type can hold null (None).
    """

    def __init__(self, element_type: DataType, nullable: bool = True) -> None:
        _check_data_type(element_type, "element_type")
        super().__init__(nullable)
        self.element_type = element_type

    def __repr__(self) -> str:
        return "MultisetType(%r, %s)" % (self.element_type, _bool_str(self._nullable))

    def _sql(self) -> str:
        return "MULTISET<%s>" % to_type_string(self.element_type)


def to_type_string(data_type: DataType) -> str:
    """The Flink SQL type string of a type: the form in which types cross to the bridge and the
    workers, and which Flink's Java side prints (``print_schema``, ``TableSchema``).

    ``str()`` of a type prints only its name, as in PyFlink; :func:`parse_type_string` reads this
    string back.

    >>> to_type_string(DataTypes.DECIMAL(10, 2, nullable=False)), str(DataTypes.DECIMAL(10, 2))
    ('DECIMAL(10, 2) NOT NULL', 'DECIMAL')

    :param data_type: the type.
    :return: the type string, ending in ``NOT NULL`` when the type is not nullable.
    """
    return data_type._type_string()


def _quote_name(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


class RowField:
    """A field of a :class:`RowType`: a name, a type and an optional description.

    >>> f = RowField("a", IntType())
    >>> str(f), repr(f)
    ('RowField(a, INT)', 'RowField(a, IntType(true), ...)')

    :param name: the name of the field.
    :param data_type: the type of the field.
    :param description: a description of the field (``'...'`` when not given, as in PyFlink).
    """

    def __init__(self, name: str, data_type: DataType, description: Optional[str] = None) -> None:
        _check_data_type(data_type, "data_type")
        if not isinstance(name, str):
            raise _TypeArgumentError("field name %s should be string" % (name,))
        if description is not None and not isinstance(description, str):
            raise _TypeArgumentError("description %s should be string" % (description,))
        self.name = name
        self.data_type = data_type
        self.description = "..." if description is None else description

    def __repr__(self) -> str:
        return "RowField(%s, %r, %s)" % (self.name, self.data_type, self.description)

    def __str__(self) -> str:
        return "RowField(%s, %s)" % (self.name, self.data_type)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, type(self)) and self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        return hash((self.name, str(self.data_type)))

    def need_conversion(self) -> bool:
        """Whether values of this field need converting; see :meth:`DataType.need_conversion`.

        :return: the answer of the field's type.
        """
        return self.data_type.need_conversion()

    def to_sql_type(self, obj: Any) -> Any:
        """Convert a Python value of this field with :meth:`DataType.to_sql_type`.

        :param obj: the Python value.
        :return: the SQL value.
        """
        return self.data_type.to_sql_type(obj)

    def from_sql_type(self, obj: Any) -> Any:
        """Convert a SQL value of this field with :meth:`DataType.from_sql_type`.

        :param obj: the SQL value.
        :return: the Python value.
        """
        return self.data_type.from_sql_type(obj)


class RowType(DataType):
    """A sequence of named fields: SQL ``ROW<`a` INT, `b` STRING>``.

    Iterating a row type gives its :class:`RowField` objects; a field can be looked up by
    name or position, and a slice gives a new row type.

    >>> row = RowType([RowField("a", IntType()), RowField("b", VarCharType(2147483647))])
    >>> to_type_string(row)
    'ROW<`a` INT, `b` STRING>'
    >>> row.field_names(), str(row["b"]), str(row[0]), len(row)
    (['a', 'b'], 'RowField(b, VARCHAR)', 'RowField(a, INT)', 2)

    Field descriptions are kept on the fields but not printed, as in PyFlink's schemas.

    :param fields: the fields (none by default).
    :param nullable: whether the type can hold null (None).
    """

    def __init__(self, fields: Optional[Sequence[RowField]] = None, nullable: bool = True) -> None:
        super().__init__(nullable)
        fields = list(fields) if fields else []
        for f in fields:
            if not isinstance(f, RowField):
                raise _TypeArgumentError("fields should be a list of RowField, got %r" % (f,))
        self.fields: List[RowField] = fields
        self.names: List[str] = [f.name for f in fields]

    def add(self, field: Union[str, RowField], data_type: Union[str, DataType, None] = None) -> "RowType":
        """Append a field to this row type (in place) and return it.

        Takes either a :class:`RowField`, or a name and a type (a :class:`DataType` or a type
        string for :func:`parse_type_string`).

        >>> to_type_string(RowType().add("a", IntType()).add(RowField("b", VarCharType(10))).add("c", "DATE"))
        'ROW<`a` INT, `b` VARCHAR(10), `c` DATE>'

        :param field: the field, or the name of the new field.
        :param data_type: the type of the new field when ``field`` is a name.
        :return: this row type.
        :raises ValueError: if a name is given without a type.
        """
        if isinstance(field, RowField):
            new_field = field
        else:
            if data_type is None:
                raise ValueError("Must specify DataType if passing name of row_field to create.")
            if isinstance(data_type, str):
                data_type = parse_type_string(data_type)
            new_field = RowField(field, data_type)
        self.fields.append(new_field)
        self.names.append(new_field.name)
        return self

    def __iter__(self) -> Iterator[RowField]:
        """Iterate the fields."""
        return iter(self.fields)

    def __len__(self) -> int:
        """The number of fields."""
        return len(self.fields)

    def __getitem__(self, key: Union[str, int, slice]) -> Any:
        """A field by name or position, or a row type of a slice of the fields.

        :raises KeyError: for an unknown name.
        :raises IndexError: for a position out of range.
        :raises TypeError: for any other key.
        """
        if isinstance(key, str):
            for f in self.fields:
                if f.name == key:
                    return f
            raise KeyError("No RowField named {0}".format(key))
        if isinstance(key, int):
            try:
                return self.fields[key]
            except IndexError:
                raise IndexError("RowType index out of range") from None
        if isinstance(key, slice):
            return RowType(self.fields[key])
        raise TypeError("RowType keys should be strings, integers or slices")

    def __repr__(self) -> str:
        return "RowType(%s)" % ",".join(repr(f) for f in self.fields)

    def _sql(self) -> str:
        return "ROW<%s>" % ", ".join(
            "%s %s" % (_quote_name(f.name), to_type_string(f.data_type)) for f in self.fields)

    def field_names(self) -> List[str]:
        """The names of all fields.

        :return: a new list of the names.
        """
        return list(self.names)

    def field_types(self) -> List[DataType]:
        """The types of all fields.

        :return: a new list of the types.
        """
        return [f.data_type for f in self.fields]


class UserDefinedType(DataType):
    """A user-defined type (UDT), stored as its :meth:`sql_type`.

    Subclasses implement :meth:`sql_type`, :meth:`module`, :meth:`serialize` and
    :meth:`deserialize`. A value whose class has a ``__UDT__`` attribute is inferred to be of
    that type. Its type string (:func:`to_type_string`) is the underlying SQL type's; ``str()``
    prints the class name in lower case, as in PyFlink.

    .. note:: PyFlink marks this as for Flink's internal use.
    """

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other)

    def __hash__(self) -> int:
        return hash(type(self))

    @classmethod
    def type_name(cls) -> str:
        """The class name, lower-cased.

        :return: the name.
        """
        return cls.__name__.lower()

    @classmethod
    def sql_type(cls) -> DataType:
        """The underlying SQL storage type of this UDT.

        :return: the type.
        """
        raise NotImplementedError("UDT must implement sql_type().")

    @classmethod
    def module(cls) -> str:
        """The Python module of the UDT.

        :return: the module name.
        """
        raise NotImplementedError("UDT must implement module().")

    @classmethod
    def java_udt(cls) -> str:
        """The class name of the paired Java UDT (``''`` when there is none).

        :return: the class name.
        """
        return ""

    def need_conversion(self) -> bool:
        """User-defined types always need conversion.

        :return: True.
        """
        return True

    @classmethod
    def _cached_sql_type(cls) -> DataType:
        cached: Optional[DataType] = cls.__dict__.get("_UserDefinedType__cached_sql_type")
        if cached is None:
            cached = cls.sql_type()
            setattr(cls, "_UserDefinedType__cached_sql_type", cached)
        return cached

    def to_sql_type(self, obj: Any) -> Any:
        """Serialize a user object into a SQL value of :meth:`sql_type`.

        :param obj: the user object (or None).
        :return: the SQL value (None for None).
        """
        if obj is None:
            return None
        return self._cached_sql_type().to_sql_type(self.serialize(obj))

    def from_sql_type(self, obj: Any) -> Any:
        """Deserialize a SQL value of :meth:`sql_type` into a user object.

        :param obj: the SQL value (or None).
        :return: the user object (None for None).
        """
        v = self._cached_sql_type().from_sql_type(obj)
        if v is None:
            return None
        return self.deserialize(v)

    def serialize(self, obj: Any) -> Any:
        """Convert a user object into a SQL datum.

        :param obj: the user object.
        :return: the datum.
        """
        raise NotImplementedError("UDT must implement serialize().")

    def deserialize(self, datum: Any) -> Any:
        """Convert a SQL datum into a user object.

        :param datum: the datum.
        :return: the user object.
        """
        raise NotImplementedError("UDT must implement deserialize().")

    def _sql(self) -> str:
        return self._cached_sql_type()._sql()


# ------------------------------------------------------------------------------------------------
# DataTypes
# ------------------------------------------------------------------------------------------------


class DataTypes:
    """Factories of all data types of the Table & SQL API.

    >>> to_type_string(DataTypes.ROW([DataTypes.FIELD("id", DataTypes.BIGINT(False)),
    ...                    DataTypes.FIELD("tags", DataTypes.ARRAY(DataTypes.STRING()))]))
    'ROW<`id` BIGINT NOT NULL, `tags` ARRAY<STRING>>'
    """

    @staticmethod
    def NULL() -> NullType:
        """Type of untyped null (None) values: ``NULL``.

        :return: the type.
        """
        return NullType()

    @staticmethod
    def CHAR(length: int, nullable: bool = True) -> CharType:
        """Fixed-length character string: ``CHAR(length)``.

        :param length: the number of code points, from 1 to 2147483647.
        :param nullable: whether the type can hold null (None).
        :return: the type.
        """
        return CharType(length, nullable)

    @staticmethod
    def VARCHAR(length: int, nullable: bool = True) -> VarCharType:
        """Variable-length character string: ``VARCHAR(length)``.

        :param length: the maximum number of code points, from 1 to 2147483647.
        :param nullable: whether the type can hold null (None).
        :return: the type.
        """
        return VarCharType(length, nullable)

    @staticmethod
    def STRING(nullable: bool = True) -> VarCharType:
        """Character string of maximum length: ``STRING``, short for ``VARCHAR(2147483647)``.

        :param nullable: whether the type can hold null (None).
        :return: the type.
        """
        return VarCharType(MAX_LENGTH, nullable)

    @staticmethod
    def BOOLEAN(nullable: bool = True) -> BooleanType:
        """Boolean with (possibly) three-valued logic: ``BOOLEAN``.

        :param nullable: whether the type can hold null (None).
        :return: the type.
        """
        return BooleanType(nullable)

    @staticmethod
    def BINARY(length: int, nullable: bool = True) -> BinaryType:
        """Fixed-length byte string: ``BINARY(length)``.

        :param length: the number of bytes, from 1 to 2147483647.
        :param nullable: whether the type can hold null (None).
        :return: the type.
        """
        return BinaryType(length, nullable)

    @staticmethod
    def VARBINARY(length: int, nullable: bool = True) -> VarBinaryType:
        """Variable-length byte string: ``VARBINARY(length)``.

        :param length: the maximum number of bytes, from 1 to 2147483647.
        :param nullable: whether the type can hold null (None).
        :return: the type.
        """
        return VarBinaryType(length, nullable)

    @staticmethod
    def BYTES(nullable: bool = True) -> VarBinaryType:
        """Byte string of maximum length: ``BYTES``, short for ``VARBINARY(2147483647)``.

        :param nullable: whether the type can hold null (None).
        :return: the type.
        """
        return VarBinaryType(MAX_LENGTH, nullable)

    @staticmethod
    def DECIMAL(precision: int, scale: int, nullable: bool = True) -> DecimalType:
        """Decimal number of fixed precision and scale: ``DECIMAL(precision, scale)``.

        :param precision: the number of digits, from 1 to 38.
        :param scale: the number of digits right of the point, from 0 to ``precision``.
        :param nullable: whether the type can hold null (None).
        :return: the type.
        """
        return DecimalType(precision, scale, nullable)

    @staticmethod
    def TINYINT(nullable: bool = True) -> TinyIntType:
        """1-byte signed integer from -128 to 127: ``TINYINT``.

        :param nullable: whether the type can hold null (None).
        :return: the type.
        """
        return TinyIntType(nullable)

    @staticmethod
    def SMALLINT(nullable: bool = True) -> SmallIntType:
        """2-byte signed integer from -32,768 to 32,767: ``SMALLINT``.

        :param nullable: whether the type can hold null (None).
        :return: the type.
        """
        return SmallIntType(nullable)

    @staticmethod
    def INT(nullable: bool = True) -> IntType:
        """4-byte signed integer: ``INT``.

        :param nullable: whether the type can hold null (None).
        :return: the type.
        """
        return IntType(nullable)

    @staticmethod
    def BIGINT(nullable: bool = True) -> BigIntType:
        """8-byte signed integer: ``BIGINT``.

        :param nullable: whether the type can hold null (None).
        :return: the type.
        """
        return BigIntType(nullable)

    @staticmethod
    def FLOAT(nullable: bool = True) -> FloatType:
        """4-byte single precision floating point number: ``FLOAT``.

        :param nullable: whether the type can hold null (None).
        :return: the type.
        """
        return FloatType(nullable)

    @staticmethod
    def DOUBLE(nullable: bool = True) -> DoubleType:
        """8-byte double precision floating point number: ``DOUBLE``.

        :param nullable: whether the type can hold null (None).
        :return: the type.
        """
        return DoubleType(nullable)

    @staticmethod
    def DATE(nullable: bool = True) -> DateType:
        """Date of year-month-day from 0000-01-01 to 9999-12-31: ``DATE``.

        :param nullable: whether the type can hold null (None).
        :return: the type.
        """
        return DateType(nullable)

    @staticmethod
    def TIME(precision: int = 0, nullable: bool = True) -> TimeType:
        """Time of day without time zone: ``TIME(precision)``.

        :param precision: the number of digits of fractional seconds, from 0 to 9 (default 0).
        :param nullable: whether the type can hold null (None).
        :return: the type.
        """
        return TimeType(precision, nullable)

    @staticmethod
    def TIMESTAMP(precision: int = 6, nullable: bool = True) -> TimestampType:
        """Timestamp without time zone: ``TIMESTAMP(precision)``.

        :param precision: the number of digits of fractional seconds, from 0 to 9 (default 6).
        :param nullable: whether the type can hold null (None).
        :return: the type.
        """
        return TimestampType(precision, nullable)

    @staticmethod
    def TIMESTAMP_WITH_LOCAL_TIME_ZONE(precision: int = 6,
                                       nullable: bool = True) -> LocalZonedTimestampType:
        """Timestamp with local time zone: ``TIMESTAMP_LTZ(precision)``.

        :param precision: the number of digits of fractional seconds, from 0 to 9 (default 6).
        :param nullable: whether the type can hold null (None).
        :return: the type.
        """
        return LocalZonedTimestampType(precision, nullable)

    @staticmethod
    def TIMESTAMP_LTZ(precision: int = 6, nullable: bool = True) -> LocalZonedTimestampType:
        """Short for :meth:`TIMESTAMP_WITH_LOCAL_TIME_ZONE`: ``TIMESTAMP_LTZ(precision)``.

        :param precision: the number of digits of fractional seconds, from 0 to 9 (default 6).
        :param nullable: whether the type can hold null (None).
        :return: the type.
        """
        return LocalZonedTimestampType(precision, nullable)

    @staticmethod
    def ARRAY(element_type: DataType, nullable: bool = True) -> ArrayType:
        """Array of elements of one type: ``ARRAY<element_type>``.

        :param element_type: the type of the elements.
        :param nullable: whether the type can hold null (None).
        :return: the type.
        """
        return ArrayType(element_type, nullable)

    @staticmethod
    def LIST_VIEW(element_type: DataType) -> ListViewType:
        """Type of a ``ListView``, only for accumulator types of aggregate functions.

        :param element_type: the type of the elements of the list view.
        :return: the type.
        """
        return ListViewType(element_type)

    @staticmethod
    def MAP(key_type: DataType, value_type: DataType, nullable: bool = True) -> MapType:
        """Map from keys to values: ``MAP<key_type, value_type>``.

        :param key_type: the type of the keys.
        :param value_type: the type of the values.
        :param nullable: whether the type can hold null (None).
        :return: the type.
        """
        return MapType(key_type, value_type, nullable)

    @staticmethod
    def MAP_VIEW(key_type: DataType, value_type: DataType) -> MapViewType:
        """Type of a ``MapView``, only for accumulator types of aggregate functions.

        :param key_type: the type of the keys of the map view.
        :param value_type: the type of the values of the map view.
        :return: the type.
        """
        return MapViewType(key_type, value_type)

    @staticmethod
    def MULTISET(element_type: DataType, nullable: bool = True) -> MultisetType:
        """Multiset (bag) of elements of one type: ``MULTISET<element_type>``.

        :param element_type: the type of the elements.
        :param nullable: whether the type can hold null (None).
        :return: the type.
        """
        return MultisetType(element_type, nullable)

    @staticmethod
    def ROW(row_fields: Sequence[RowField] = (), nullable: bool = True) -> RowType:
        """Sequence of named fields: ``ROW<`name` type, ...>``.

        :param row_fields: the fields, made with :meth:`FIELD` (none by default).
        :param nullable: whether the type can hold null (None).
        :return: the type.
        """
        return RowType(row_fields, nullable)

    @staticmethod
    def FIELD(name: str, data_type: DataType, description: Optional[str] = None) -> RowField:
        """A field of a row type, for :meth:`ROW`.

        :param name: the name of the field.
        :param data_type: the type of the field.
        :param description: a description of the field.
        :return: the field.
        """
        return RowField(name, data_type, description)

    @staticmethod
    def SECOND(precision: int = DayTimeIntervalType.DEFAULT_FRACTIONAL_PRECISION) -> Resolution:
        """Resolution in seconds, for :meth:`INTERVAL`.

        :param precision: the number of digits of fractional seconds, from 0 to 9 (default 6).
        :return: the resolution.
        """
        return Resolution(Resolution.IntervalUnit.SECOND, precision)

    @staticmethod
    def MINUTE() -> Resolution:
        """Resolution in minutes, for :meth:`INTERVAL`.

        :return: the resolution.
        """
        return Resolution(Resolution.IntervalUnit.MINUTE)

    @staticmethod
    def HOUR() -> Resolution:
        """Resolution in hours, for :meth:`INTERVAL`.

        :return: the resolution.
        """
        return Resolution(Resolution.IntervalUnit.HOUR)

    @staticmethod
    def DAY(precision: int = DayTimeIntervalType.DEFAULT_DAY_PRECISION) -> Resolution:
        """Resolution in days, for :meth:`INTERVAL`.

        :param precision: the number of digits of days, from 1 to 6 (default 2).
        :return: the resolution.
        """
        return Resolution(Resolution.IntervalUnit.DAY, precision)

    @staticmethod
    def MONTH() -> Resolution:
        """Resolution in months, for :meth:`INTERVAL`.

        :return: the resolution.
        """
        return Resolution(Resolution.IntervalUnit.MONTH)

    @staticmethod
    def YEAR(precision: int = YearMonthIntervalType.DEFAULT_PRECISION) -> Resolution:
        """Resolution in years, for :meth:`INTERVAL`.

        :param precision: the number of digits of years, from 1 to 4 (default 2).
        :return: the resolution.
        """
        return Resolution(Resolution.IntervalUnit.YEAR, precision)

    @staticmethod
    def INTERVAL(upper_resolution: Resolution, lower_resolution: Optional[Resolution] = None
                 ) -> Union[DayTimeIntervalType, YearMonthIntervalType]:
        """Temporal interval: a day-time interval or a year-month interval.

        The supported combinations are ``YEAR``, ``YEAR TO MONTH``, ``MONTH``, ``DAY``,
        ``DAY TO HOUR``, ``DAY TO MINUTE``, ``DAY TO SECOND``, ``HOUR``, ``HOUR TO MINUTE``,
        ``HOUR TO SECOND``, ``MINUTE``, ``MINUTE TO SECOND`` and ``SECOND``.

        >>> to_type_string(DataTypes.INTERVAL(DataTypes.SECOND(3)))
        'INTERVAL SECOND(3)'
        >>> to_type_string(DataTypes.INTERVAL(DataTypes.DAY(), DataTypes.SECOND()))
        'INTERVAL DAY(2) TO SECOND(6)'

        :param upper_resolution: the upper resolution.
        :param lower_resolution: the lower resolution, if any.
        :return: the type.
        :raises ValueError: for an unsupported combination.
        """
        return _from_resolution(upper_resolution, lower_resolution)


# ------------------------------------------------------------------------------------------------
# Type strings
# ------------------------------------------------------------------------------------------------

_PUNCTUATION = "<>(),"


class _Token:
    __slots__ = ("kind", "text", "pos")

    def __init__(self, kind: str, text: str, pos: int) -> None:
        self.kind = kind  # 'word', 'quoted', 'string', 'sym' or 'end'
        self.text = text
        self.pos = pos

    def describe(self) -> str:
        if self.kind == "end":
            return "end of input"
        if self.kind == "quoted":
            return "'%s'" % _quote_name(self.text)
        if self.kind == "string":
            return "'%s'" % ("'" + self.text.replace("'", "''") + "'")
        return "'%s'" % self.text


def _is_word_char(c: str) -> bool:
    return c.isalnum() or c in "_$"


class _TypeParser:
    """Recursive-descent parser over Flink's type grammar (that of ``LogicalTypeParser``)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = self._tokenize(text)
        self.i = 0

    # --- tokens ---

    def _fail(self, message: str, token: Optional[_Token] = None) -> ValueError:
        tok = token if token is not None else self.tokens[self.i]
        return ValueError("Could not parse type '%s': %s at %s (position %d)."
                          % (self.text, message, tok.describe(), tok.pos))

    def _tokenize(self, s: str) -> List[_Token]:
        tokens: List[_Token] = []
        i, n = 0, len(s)
        while i < n:
            c = s[i]
            if c.isspace():
                i += 1
            elif c in _PUNCTUATION:
                tokens.append(_Token("sym", c, i))
                i += 1
            elif c == "`" or c == "'":
                start = i
                i += 1
                buf: List[str] = []
                while True:
                    if i >= n:
                        raise ValueError("Could not parse type '%s': unclosed %s starting at "
                                         "position %d." % (s, c, start))
                    if s[i] == c:
                        if i + 1 < n and s[i + 1] == c:
                            buf.append(c)
                            i += 2
                            continue
                        i += 1
                        break
                    buf.append(s[i])
                    i += 1
                tokens.append(_Token("quoted" if c == "`" else "string", "".join(buf), start))
            elif _is_word_char(c):
                start = i
                while i < n and _is_word_char(s[i]):
                    i += 1
                tokens.append(_Token("word", s[start:i], start))
            else:
                raise ValueError("Could not parse type '%s': unexpected character '%s' at "
                                 "position %d." % (s, c, i))
        tokens.append(_Token("end", "", n))
        return tokens

    def _peek(self) -> _Token:
        return self.tokens[self.i]

    def _next(self) -> _Token:
        tok = self.tokens[self.i]
        if tok.kind != "end":
            self.i += 1
        return tok

    def _peek_keyword(self, offset: int = 0) -> str:
        tok = self.tokens[min(self.i + offset, len(self.tokens) - 1)]
        return tok.text.upper() if tok.kind == "word" else ""

    def _accept_keyword(self, *words: str) -> bool:
        for k, w in enumerate(words):
            if self._peek_keyword(k) != w:
                return False
        self.i += len(words)
        return True

    def _expect_keyword(self, word: str) -> None:
        if self._peek_keyword() != word:
            raise self._fail("expected %s" % word)
        self.i += 1

    def _accept_sym(self, sym: str) -> bool:
        tok = self._peek()
        if tok.kind == "sym" and tok.text == sym:
            self.i += 1
            return True
        return False

    def _expect_sym(self, sym: str) -> None:
        if not self._accept_sym(sym):
            raise self._fail("expected '%s'" % sym)

    def _number(self) -> int:
        tok = self._peek()
        if tok.kind != "word" or not tok.text.isdigit():
            raise self._fail("expected a number")
        self.i += 1
        return int(tok.text)

    def _optional_number(self, default: int) -> Tuple[int, Optional[_Token]]:
        if not self._accept_sym("("):
            return default, None
        tok = self._peek()
        value = self._number()
        self._expect_sym(")")
        return value, tok

    def _build(self, make: Callable[[], DataType], token: _Token) -> DataType:
        try:
            return make()
        except AssertionError as e:  # our range checks (ValueError and AssertionError)
            raise self._fail(str(e), token) from None

    # --- grammar ---

    def parse(self) -> DataType:
        t = self._type()
        if self._peek().kind != "end":
            raise self._fail("unexpected token")
        return t

    def _type(self) -> DataType:
        # type := base [NULL | NOT NULL] [(ARRAY | MULTISET) [NULL | NOT NULL]]
        t = self._nullability(self._base())
        kw = self._peek_keyword()
        if kw == "ARRAY":
            self.i += 1
            t = self._nullability(ArrayType(t))
        elif kw == "MULTISET":
            self.i += 1
            t = self._nullability(MultisetType(t))
        return t

    def _nullability(self, t: DataType) -> DataType:
        if self._peek_keyword() == "NOT":
            tok = self._next()
            self._expect_keyword("NULL")
            if isinstance(t, NullType):
                raise self._fail("type NULL cannot be NOT NULL", tok)
            return t.not_null()
        if self._peek_keyword() == "NULL" and not isinstance(t, NullType):
            self.i += 1
        return t

    def _length(self, tok: _Token, kind: str) -> int:
        length, ltok = self._optional_number(1)
        if not 1 <= length <= MAX_LENGTH:
            raise self._fail("%s length must be between 1 and %d (both inclusive), got %d"
                             % (kind, MAX_LENGTH, length), ltok or tok)
        return length

    def _base(self) -> DataType:
        tok = self._next()
        if tok.kind != "word":
            raise self._fail("expected a type", tok)
        kw = tok.text.upper()
        simple: Dict[str, Callable[[], DataType]] = {
            "BOOLEAN": BooleanType, "TINYINT": TinyIntType, "SMALLINT": SmallIntType,
            "INT": IntType, "INTEGER": IntType, "BIGINT": BigIntType, "FLOAT": FloatType,
            "DATE": DateType, "NULL": NullType,
            "STRING": lambda: VarCharType(MAX_LENGTH), "BYTES": lambda: VarBinaryType(MAX_LENGTH),
        }
        if kw in simple:
            return simple[kw]()
        if kw == "DOUBLE":
            self._accept_keyword("PRECISION")
            return DoubleType()
        if kw == "CHAR":
            return CharType(self._length(tok, kw))
        if kw == "VARCHAR":
            return VarCharType(self._length(tok, kw))
        if kw == "BINARY":
            return BinaryType(self._length(tok, kw))
        if kw == "VARBINARY":
            return VarBinaryType(self._length(tok, kw))
        if kw in ("DECIMAL", "DEC", "NUMERIC"):
            precision, scale = 10, 0
            if self._accept_sym("("):
                precision = self._number()
                if self._accept_sym(","):
                    scale = self._number()
                self._expect_sym(")")
            return self._build(lambda: DecimalType(precision, scale), tok)
        if kw == "TIME":
            p, ptok = self._optional_number(0)
            if self._peek_keyword() == "WITH":
                raise self._fail("TIME WITH TIME ZONE is not supported")
            self._accept_keyword("WITHOUT", "TIME", "ZONE")
            return self._build(lambda: TimeType(p), ptok or tok)
        if kw == "TIMESTAMP":
            p, ptok = self._optional_number(6)
            if self._accept_keyword("WITH", "LOCAL", "TIME", "ZONE"):
                return self._build(lambda: LocalZonedTimestampType(p), ptok or tok)
            if self._accept_keyword("WITH", "TIME", "ZONE"):
                return self._build(lambda: ZonedTimestampType(p), ptok or tok)
            if self._peek_keyword() == "WITH":
                raise self._fail("expected WITH LOCAL TIME ZONE or WITH TIME ZONE")
            self._accept_keyword("WITHOUT", "TIME", "ZONE")
            return self._build(lambda: TimestampType(p), ptok or tok)
        if kw == "TIMESTAMP_LTZ":
            p, ptok = self._optional_number(6)
            return self._build(lambda: LocalZonedTimestampType(p), ptok or tok)
        if kw == "ARRAY":
            self._expect_sym("<")
            element = self._type()
            self._expect_sym(">")
            return ArrayType(element)
        if kw == "MULTISET":
            self._expect_sym("<")
            element = self._type()
            self._expect_sym(">")
            return MultisetType(element)
        if kw == "MAP":
            self._expect_sym("<")
            key = self._type()
            self._expect_sym(",")
            value = self._type()
            self._expect_sym(">")
            return MapType(key, value)
        if kw == "ROW":
            return RowType(self._fields())
        if kw == "INTERVAL":
            return self._interval()
        if kw == "STRUCTURED":
            return self._structured(tok)
        raise self._fail("unknown or unsupported type", tok)

    def _field_name(self) -> str:
        tok = self._next()
        if tok.kind == "quoted":
            if not tok.text:
                raise self._fail("empty field name", tok)
            return tok.text
        if tok.kind == "word" and not tok.text[0].isdigit():
            return tok.text
        raise self._fail("expected a field name", tok)

    def _fields(self) -> List[RowField]:
        if self._accept_sym("<"):
            close = ">"
        elif self._accept_sym("("):
            close = ")"
        else:
            raise self._fail("expected '<' or '('")
        fields: List[RowField] = []
        seen = set()
        if self._accept_sym(close):
            return fields
        while True:
            name_tok = self._peek()
            name = self._field_name()
            if name in seen:
                raise self._fail("duplicate field name '%s'" % name, name_tok)
            seen.add(name)
            data_type = self._type()
            description = None
            if self._peek().kind == "string":
                description = self._next().text
            fields.append(RowField(name, data_type, description))
            if self._accept_sym(close):
                return fields
            if not self._accept_sym(","):
                raise self._fail("expected ',' or '%s'" % close)

    def _interval(self) -> DataType:
        ym = YearMonthIntervalType.YearMonthResolution
        dt = DayTimeIntervalType.DayTimeResolution
        start_tok = self._next()
        start = start_tok.text.upper() if start_tok.kind == "word" else ""
        if start not in ("YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"):
            raise self._fail("expected YEAR, MONTH, DAY, HOUR, MINUTE or SECOND", start_tok)
        p1, p1_tok = self._optional_number(-1) if start in ("YEAR", "DAY", "SECOND") else (-1, None)
        end = ""
        p2, p2_tok = -1, None
        end_tok = self._peek()
        if self._accept_keyword("TO"):
            end_tok = self._next()
            end = end_tok.text.upper() if end_tok.kind == "word" else ""
            if end == "SECOND":
                p2, p2_tok = self._optional_number(-1)
        where = p2_tok or p1_tok or start_tok
        if start in ("YEAR", "MONTH"):
            if start == "YEAR" and end in ("", "MONTH"):
                resolution = ym.YEAR if not end else ym.YEAR_TO_MONTH
                year_p = p1 if p1 >= 0 else YearMonthIntervalType.DEFAULT_PRECISION
                return self._build(lambda: YearMonthIntervalType(resolution, year_p), where)
            if start == "MONTH" and not end:
                return YearMonthIntervalType(ym.MONTH)
            raise self._fail("unsupported interval end", end_tok)
        name = start if not end else start + "_TO_" + end
        try:
            resolution_dt = dt[name]
        except KeyError:
            raise self._fail("unsupported interval end", end_tok) from None
        day_p = p1 if start == "DAY" and p1 >= 0 else DayTimeIntervalType.DEFAULT_DAY_PRECISION
        frac = p2 if end == "SECOND" else (p1 if start == "SECOND" else -1)
        frac_p = frac if frac >= 0 else DayTimeIntervalType.DEFAULT_FRACTIONAL_PRECISION
        return self._build(lambda: DayTimeIntervalType(resolution_dt, day_p, frac_p), where)

    def _structured(self, tok: _Token) -> DataType:
        # Only the two structured types PyFlink has classes for: ListView and MapView.
        self._expect_sym("<")
        cls_tok = self._next()
        if cls_tok.kind != "string" or cls_tok.text not in (_LIST_VIEW_CLASS, _MAP_VIEW_CLASS):
            raise self._fail("only the ListView and MapView structured types are supported",
                             cls_tok)
        self._expect_sym(",")
        fields: List[RowField] = []
        while True:
            name = self._field_name()
            fields.append(RowField(name, self._type()))
            if self._peek().kind == "string":
                self._next()
            if self._accept_sym(">"):
                break
            self._expect_sym(",")
        if len(fields) == 1:
            f = fields[0]
            if cls_tok.text == _LIST_VIEW_CLASS and f.name == "list" and \
                    isinstance(f.data_type, ArrayType):
                return ListViewType(f.data_type.element_type)
            if cls_tok.text == _MAP_VIEW_CLASS and f.name == "map" and \
                    isinstance(f.data_type, MapType):
                return MapViewType(f.data_type.key_type, f.data_type.value_type)
        raise self._fail("unexpected fields of a view type", cls_tok)


def parse_type_string(s: str) -> DataType:
    """Parse a Flink SQL type string into a :class:`DataType`.

    Accepts what :func:`to_type_string` prints (so ``to_type_string(parse_type_string(x)) == x``
    for those strings) and the rest of Flink's type grammar: keywords in any case, the synonyms
    ``INTEGER``, ``DEC``, ``NUMERIC`` and ``DOUBLE PRECISION``, defaults such as ``DECIMAL``
    (``DECIMAL(10, 0)``), ``VARCHAR`` (``VARCHAR(1)``), ``TIME`` (``TIME(0)``) and ``TIMESTAMP``
    (``TIMESTAMP(6)``), ``TIMESTAMP(3) WITH LOCAL TIME ZONE`` and ``WITHOUT TIME ZONE``,
    ``ROW(a INT, b STRING)`` with unquoted or back-quoted names and optional ``'description'``,
    the postfix forms ``INT ARRAY`` and ``INT MULTISET``, every ``INTERVAL`` form, and
    ``NULL``/``NOT NULL`` at every level.

    >>> parse_type_string("INT NOT NULL ARRAY")
    ArrayType(IntType(false), true)
    >>> to_type_string(parse_type_string("timestamp(3) with local time zone"))
    'TIMESTAMP_LTZ(3)'

    :param s: the type string.
    :return: the type.
    :raises ValueError: if the string is not a valid type; the message names the bad token.
    """
    if not isinstance(s, str):
        raise TypeError("type string must be a str, got %r" % (s,))
    return _TypeParser(s).parse()


# ------------------------------------------------------------------------------------------------
# Type inference (TableEnvironment.from_elements without a schema)
# ------------------------------------------------------------------------------------------------


def _int_type_of_bits(bits: int) -> Optional[DataType]:
    if bits <= 8:
        return TinyIntType()
    if bits <= 16:
        return SmallIntType()
    if bits <= 32:
        return IntType()
    if bits <= 64:
        return BigIntType()
    return None


def _array_typecode_types() -> Dict[str, DataType]:
    # Element types of array.array typecodes: signed C integers by their size, unsigned ones
    # one bit larger (the JVM has no unsigned types); those that need more than 64 bits have none.
    result: Dict[str, DataType] = {"f": FloatType(), "d": DoubleType()}
    signed = {"b": ctypes.c_byte, "h": ctypes.c_short, "i": ctypes.c_int, "l": ctypes.c_long}
    unsigned = {"B": ctypes.c_ubyte, "H": ctypes.c_ushort, "I": ctypes.c_uint, "L": ctypes.c_ulong}
    for code, ctype in signed.items():
        t = _int_type_of_bits(ctypes.sizeof(ctype) * 8)
        if t is not None:
            result[code] = t
    for code, ctype in unsigned.items():
        t = _int_type_of_bits(ctypes.sizeof(ctype) * 8 + 1)
        if t is not None:
            result[code] = t
    result["u"] = CharType(ctypes.sizeof(ctypes.c_wchar))
    return result


_ARRAY_TYPECODE_TYPES = _array_typecode_types()

# Exact Python classes and the types inferred for them (fresh instances on each inference).
_PYTHON_TYPES: Dict[type, Callable[[], DataType]] = {
    bool: BooleanType,
    int: BigIntType,
    float: DoubleType,
    str: lambda: VarCharType(MAX_LENGTH),
    bytearray: lambda: VarBinaryType(MAX_LENGTH),
    bytes: lambda: VarBinaryType(MAX_LENGTH),
    decimal.Decimal: lambda: DecimalType(38, 18),
    datetime.date: DateType,
    datetime.datetime: LocalZonedTimestampType,
    datetime.time: TimeType,
}


def _infer_type(obj: Any) -> DataType:
    """The data type PyFlink infers for a Python value.

    Measured on PyFlink 2.3: ``int`` gives ``BIGINT``, ``float`` ``DOUBLE``, ``str`` ``STRING``,
    ``bool`` ``BOOLEAN``, ``bytearray`` ``BYTES``, ``decimal.Decimal`` ``DECIMAL(38, 18)``,
    ``datetime.datetime`` ``TIMESTAMP_LTZ(6)``, ``datetime.date`` ``DATE``, ``datetime.time``
    ``TIME(0)``, ``None`` ``NULL``; a list ``ARRAY`` of the type of its first element (``NULL``
    when all are None), a dict ``MAP`` of the first pair without None (its key type
    ``NOT NULL``), an ``array.array`` ``ARRAY`` of its ``NOT NULL`` typecode type, and rows,
    tuples, named tuples and objects ``ROW`` (see :func:`_infer_schema`). ``bytes`` also gives
    ``BYTES`` (PyFlink 2.3 rejects it).

    :param obj: the value.
    :return: the inferred type.
    :raises TypeError: for a value of an unsupported type.
    """
    if obj is None:
        return NullType()
    udt = getattr(obj, "__UDT__", None)
    if isinstance(udt, DataType):
        return udt
    make = _PYTHON_TYPES.get(type(obj))
    if make is not None:
        return make()
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key is not None and value is not None:
                return MapType(_infer_type(key).not_null(), _infer_type(value))
        return MapType(NullType(), NullType())
    if isinstance(obj, list):
        if any(v is not None for v in obj):
            # PyFlink types the array by its first element, even when that one is None.
            return ArrayType(_infer_type(obj[0]))
        return ArrayType(NullType())
    if isinstance(obj, array.array):
        element = _ARRAY_TYPECODE_TYPES.get(obj.typecode)
        if element is None:
            raise TypeError("not supported type: array(%s)" % obj.typecode)
        return ArrayType(copy(element).not_null())
    try:
        return _infer_schema(obj)
    except TypeError:
        raise TypeError("not supported type: %s" % type(obj)) from None


def _infer_schema(row: Any, names: Optional[Sequence[str]] = None) -> RowType:
    """The row type PyFlink infers for one element of ``from_elements``.

    A dict gives its keys in sorted order; a :class:`Row` with names or a named tuple gives its
    field names; other rows, tuples and lists give ``names`` and then ``_1``, ``_2``, ... for
    positions without a name; another object gives its sorted attributes.

    :param row: the element.
    :param names: field names for positional elements.
    :return: the row type.
    :raises TypeError: if no row type can be inferred.
    """
    items: Iterable[Tuple[Any, Any]]
    if isinstance(row, dict):
        items = sorted(row.items())
    elif isinstance(row, (Row, tuple, list)):
        fields = getattr(row, "_fields", None) if isinstance(row, (Row, tuple)) else None
        if fields is not None:
            items = zip(fields, tuple(row))
        else:
            given = list(names) if names is not None else []
            all_names = given + ["_%d" % i for i in range(len(given) + 1, len(row) + 1)]
            items = zip(all_names, row)
    elif hasattr(row, "__dict__"):
        items = sorted(row.__dict__.items())
    else:
        raise TypeError("Can not infer schema for type: %s" % type(row))
    return RowType([RowField(k, _infer_type(v)) for k, v in items])


def _has_nulltype(dt: DataType) -> bool:
    """Whether ``dt`` is or contains the ``NULL`` type.

    :param dt: the type.
    :return: the answer.
    """
    if isinstance(dt, RowType):
        return any(_has_nulltype(f.data_type) for f in dt.fields)
    if isinstance(dt, (ArrayType, MultisetType)):
        return _has_nulltype(dt.element_type)
    if isinstance(dt, MapType):
        return _has_nulltype(dt.key_type) or _has_nulltype(dt.value_type)
    return isinstance(dt, NullType)


def _merge_type(a: DataType, b: Optional[DataType], name: Optional[str] = None) -> DataType:
    """Merge the types inferred for two values of one column, as PyFlink does.

    ``NULL`` merges into anything; otherwise both must be of the same class and the first one
    wins (``VARCHAR(3)`` and ``VARCHAR(5)`` give ``VARCHAR(3)``). Rows merge field by field by
    name, appending fields only the second has; arrays, multisets and maps merge their element,
    key and value types.

    :param a: the first type.
    :param b: the second type (None for a field missing from the second row).
    :param name: what is being merged, for error messages.
    :return: the merged type.
    :raises TypeError: if the types cannot be merged (``int`` and ``float``, a field missing
        from the second row, ...).
    """
    def msg(text: str) -> str:
        return text if name is None else "%s: %s" % (name, text)

    def field_name(n: str) -> str:
        return "field %s" % n if name is None else "field %s in %s" % (n, name)

    if isinstance(a, NullType) and b is not None:
        return b
    if isinstance(b, NullType):
        return a
    if b is None or type(a) is not type(b):
        raise TypeError(msg("Can not merge type %s and %s" % (type(a), type(b))))

    if isinstance(a, RowType):
        assert isinstance(b, RowType)
        other = {f.name: f.data_type for f in b.fields}
        fields = [RowField(f.name, _merge_type(f.data_type, other.get(f.name),
                                               name=field_name(f.name)))
                  for f in a.fields]
        present = {f.name for f in fields}
        fields += [RowField(n, t) for n, t in other.items() if n not in present]
        return RowType(fields)
    if isinstance(a, ArrayType):
        assert isinstance(b, ArrayType)
        return ArrayType(_merge_type(a.element_type, b.element_type,
                                     name="element in array %s" % name))
    if isinstance(a, MultisetType):
        assert isinstance(b, MultisetType)
        return MultisetType(_merge_type(a.element_type, b.element_type,
                                        name="element in multiset %s" % name))
    if isinstance(a, MapType):
        assert isinstance(b, MapType)
        return MapType(_merge_type(a.key_type, b.key_type, name="key of map %s" % name),
                       _merge_type(a.value_type, b.value_type, name="value of map %s" % name))
    return a


def _infer_schema_from_data(elements: Iterable[Any],
                            names: Optional[Sequence[str]] = None) -> RowType:
    """The row type PyFlink infers for ``from_elements(elements)`` without a schema.

    >>> to_type_string(_infer_schema_from_data([(1, 'x'), (None, 'y')]))
    'ROW<`_1` BIGINT, `_2` STRING>'

    :param elements: the rows (tuples, lists, :class:`Row`, dicts or objects).
    :param names: column names for positional rows (missing ones become ``_1``, ``_2``, ...).
    :return: the row type.
    :raises ValueError: if there are no elements or a column's type stays ``NULL``.
    :raises TypeError: if the rows' types cannot be merged.
    """
    rows = list(elements)
    if not rows:
        raise ValueError("can not infer schema from empty data set")
    merged: DataType = _infer_schema(rows[0], names)
    for row in rows[1:]:
        merged = _merge_type(merged, _infer_schema(row, names))
    assert isinstance(merged, RowType)
    if _has_nulltype(merged):
        raise ValueError("Some column types cannot be determined after inferring")
    return merged


# ------------------------------------------------------------------------------------------------
# Value checks (PyFlink's private helpers, used by its tests of from_elements and of UDT values)
# ------------------------------------------------------------------------------------------------

#: array.array typecodes of signed C integers and their C types.
_array_signed_int_typecode_ctype_mappings: Dict[str, Any] = {
    "b": ctypes.c_byte, "h": ctypes.c_short, "i": ctypes.c_int, "l": ctypes.c_long}
#: array.array typecodes of unsigned C integers and their C types.
_array_unsigned_int_typecode_ctype_mappings: Dict[str, Any] = {
    "B": ctypes.c_ubyte, "H": ctypes.c_ushort, "I": ctypes.c_uint, "L": ctypes.c_ulong}
#: array.array typecodes that from_elements accepts, with the element type inferred for each.
_array_type_mappings: Dict[str, DataType] = _ARRAY_TYPECODE_TYPES

_INT_RANGES: Dict[type, Tuple[int, int]] = {
    TinyIntType: (-(2 ** 7), 2 ** 7 - 1),
    SmallIntType: (-(2 ** 15), 2 ** 15 - 1),
    IntType: (-(2 ** 31), 2 ** 31 - 1),
}

# Python classes a value of each type may have (exact class or subclass).
_ACCEPTED: Dict[type, Tuple[type, ...]] = {
    BooleanType: (bool,),
    TinyIntType: (int,), SmallIntType: (int,), IntType: (int,), BigIntType: (int,),
    FloatType: (float,), DoubleType: (float,),
    DecimalType: (decimal.Decimal,),
    CharType: (str,), VarCharType: (str,),
    BinaryType: (bytes, bytearray), VarBinaryType: (bytes, bytearray),
    DateType: (datetime.date,),
    TimeType: (datetime.time,),
    TimestampType: (datetime.datetime,),
    LocalZonedTimestampType: (datetime.datetime,),
    ZonedTimestampType: (datetime.datetime,),
    ArrayType: (list, tuple, array.array),
    MapType: (dict,),
    MultisetType: (dict, list, tuple),
}


def _create_type_verifier(data_type: DataType, name: Optional[str] = None) -> Callable[[Any], None]:
    """A function that checks a Python value against ``data_type``, as ``from_elements`` does.

    It raises :class:`TypeError` for a value of the wrong Python class and :class:`ValueError`
    for a value out of range, too long, or None where the type is NOT NULL.

    >>> _create_type_verifier(DataTypes.TINYINT())(1)
    >>> _create_type_verifier(DataTypes.TINYINT())(200)
    Traceback (most recent call last):
    ...
    ValueError: value 200 is out of range of TINYINT

    :param data_type: the type values must conform to.
    :param name: the field name to mention in errors.
    :return: the checking function.
    """
    where = "" if name is None else f"field {name}: "

    def not_null(obj: Any) -> None:
        if obj is None and not data_type._nullable:
            raise ValueError(f"{where}This field is not nullable, but got None")

    if isinstance(data_type, UserDefinedType):
        udt = data_type
        sql_check = _create_type_verifier(udt.sql_type(), name)

        def verify_udt(obj: Any) -> None:
            not_null(obj)
            if obj is None:
                return
            if getattr(type(obj), "__UDT__", None) != udt:
                raise ValueError(f"{where}{obj!r} is not an instance of {type(udt).__name__}")
            sql_check(udt.serialize(obj))
        return verify_udt

    element_checks: List[Callable[[Any], None]] = []
    if isinstance(data_type, (ArrayType, MultisetType)):
        element_checks = [_create_type_verifier(data_type.element_type, f"element in array {name}")]
    elif isinstance(data_type, MapType):
        element_checks = [_create_type_verifier(data_type.key_type, f"key of map {name}"),
                          _create_type_verifier(data_type.value_type, f"value of map {name}")]
    elif isinstance(data_type, RowType):
        element_checks = [_create_type_verifier(f.data_type, f.name) for f in data_type.fields]

    def verify(obj: Any) -> None:
        not_null(obj)
        if obj is None:
            return
        accepted = _ACCEPTED.get(type(data_type))
        if accepted is not None and not isinstance(obj, accepted):
            raise TypeError(f"{where}{type(data_type).__name__} can not accept object {obj!r} "
                            f"in type {type(obj)}")
        if type(data_type) in _INT_RANGES:
            low, high = _INT_RANGES[type(data_type)]
            if not low <= obj <= high:
                raise ValueError(f"{where}value {obj} is out of range of {data_type._sql()}")
        length = getattr(data_type, "length", None)
        if length is not None and isinstance(obj, (str, bytes, bytearray)) and len(obj) > length:
            raise ValueError(f"{where}length {len(obj)} of {obj!r} exceeds {data_type._sql()}")
        if isinstance(data_type, (ArrayType, MultisetType)):
            for v in obj:
                element_checks[0](v)
        elif isinstance(data_type, MapType):
            for k, v in obj.items():
                element_checks[0](k)
                element_checks[1](v)
        elif isinstance(data_type, RowType):
            _verify_row(data_type, element_checks, obj, where)
    return verify


def _verify_row(row_type: "RowType", checks: List[Callable[[Any], None]], obj: Any, where: str) -> None:
    names = row_type.field_names()
    if isinstance(obj, dict):
        values = [obj.get(n) for n in names]
    elif isinstance(obj, Row) and hasattr(obj, "_fields"):
        missing = [n for n in names if n not in obj._fields]
        if missing:
            raise ValueError(f"{where}Row {obj!r} has no field(s) {missing} of {row_type._sql()}")
        d = obj.as_dict()
        values = [d[n] for n in names]
    elif isinstance(obj, (tuple, list)):
        if len(obj) != len(names):
            raise ValueError(f"{where}Length of object ({len(obj)}) does not match with length of "
                             f"fields ({len(names)})")
        values = list(obj)
    elif hasattr(obj, "__dict__"):
        values = [obj.__dict__.get(n) for n in names]
    else:
        raise TypeError(f"{where}RowType can not accept object {obj!r} in type {type(obj)}")
    for check, v in zip(checks, values):
        check(v)
