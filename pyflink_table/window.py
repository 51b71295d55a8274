"""Group windows (``Tumble``, ``Slide``, ``Session``) and over windows (``Over``), as in
``pyflink.table.window``.

The builders only collect expressions; the finished window (after ``alias``) holds a JVM window
spec that :meth:`~pyflink_table.Table.window` or :meth:`~pyflink_table.Table.over_window` applies.
Sizes, gaps and bounds are time intervals (``lit(10).minutes``, ``"10.minutes"``), row counts
(``row_interval(3)``, ``"3.rows"``) or the constants ``UNBOUNDED_ROW``, ``UNBOUNDED_RANGE``,
``CURRENT_ROW`` and ``CURRENT_RANGE``.

Example::

    >>> from pyflink_table.expressions import col, lit, UNBOUNDED_RANGE
    >>> tab.window(Tumble.over(lit(10).minutes).on(col('ts')).alias('w')) \\
    ...     .group_by(col('w'), col('k')) \\
    ...     .select(col('k'), col('w').start, col('w').end, col('v').sum)
    >>> tab.over_window(Over.partition_by(col('k')).order_by(col('ts'))
    ...                 .preceding(UNBOUNDED_RANGE).alias('w')) \\
    ...     .select(col('k'), col('v').sum.over(col('w')))
"""

from __future__ import annotations

from typing import Any, Callable, Generic, List, Optional, TypeVar, Union

from pyflink_table.errors import java_errors
from pyflink_table.expression import Expression
from pyflink_table.java_gateway import bridge, to_java_array

__all__ = ["Tumble", "Session", "Slide", "Over", "GroupWindow", "OverWindow"]

ExpressionOrStr = Union[Expression[Any], str]


def _j_expr(value: ExpressionOrStr, what: str) -> Any:
    """The JVM expression node of an Expression or a FLIP-38 string expression."""
    if isinstance(value, str):
        return bridge().expressions.Exprs.parse(value)
    if isinstance(value, Expression):
        return value._j_expr
    raise TypeError(f"{what} must be an Expression or a string expression, got {type(value).__name__}: {value!r}")


def _j_exprs(values: tuple[ExpressionOrStr, ...], what: str) -> List[Any]:
    """JVM nodes for several expressions; one string may list several, comma-separated."""
    nodes: List[Any] = []
    for v in values:
        if isinstance(v, str):
            nodes.extend(bridge().expressions.Exprs.parseList(v))
        else:
            nodes.append(_j_expr(v, what))
    return nodes


# --- group windows --------------------------------------------------------------------------------


@java_errors
class _FinishedWindow:
    """A window with its JVM spec (``GroupWindowSpec`` or ``OverWindowSpec``), ready to apply."""

    def __init__(self, j_window: Any) -> None:
        self._j_window = j_window

    def _java_window(self) -> Any:
        """The JVM window spec."""
        return self._j_window

    def __str__(self) -> str:
        return str(self._j_window.toString())


class GroupWindow(_FinishedWindow):
    """A fully defined group window: apply it with ``table.window(w)``, then ``group_by`` its alias.

    Group windows group rows by time intervals; like ``group_by`` they compute aggregates per group,
    and their properties ``w.start``, ``w.end`` (exclusive) and ``w.rowtime`` (``end`` minus one
    millisecond) can be selected.
    """


class TumbleWithSizeOnTimeWithAlias(GroupWindow):
    """A tumbling window with size, time field and alias."""


class SlideWithSizeAndSlideOnTimeWithAlias(GroupWindow):
    """A sliding window with size, slide, time field and alias."""


class SessionWithGapOnTimeWithAlias(GroupWindow):
    """A session window with gap, time field and alias."""


class _WindowParts:
    """A group window being built: the expressions collected so far (size, slide, gap, time field)."""

    def __init__(self, *parts: ExpressionOrStr) -> None:
        self._parts = parts


@java_errors
class _WindowOnTime(_WindowParts):
    """A group window with all its parts; :meth:`alias` names it and makes the JVM window spec."""

    #: The ``GroupWindowSpec`` factory, what each part is (for errors) and the finished window's class.
    _factory: str
    _labels: tuple[str, ...]
    _finished: type[GroupWindow]

    def alias(self, alias: str) -> GroupWindow:
        """The name that ``group_by`` and window properties (``w.start``) refer to."""
        j_parts = [_j_expr(part, label) for part, label in zip(self._parts, self._labels)]
        return self._finished(getattr(bridge().window.GroupWindowSpec, self._factory)(*j_parts, alias))


_OnTime = TypeVar("_OnTime", bound=_WindowOnTime)


class _WindowBeforeTime(_WindowParts, Generic[_OnTime]):
    """A group window waiting for its time field."""

    _next: Callable[..., _OnTime]

    def on(self, time_field: ExpressionOrStr) -> _OnTime:
        """The TIMESTAMP or TIMESTAMP_LTZ field that assigns rows to windows."""
        return type(self)._next(*self._parts, time_field)


class TumbleWithSizeOnTime(_WindowOnTime):
    """A tumbling window with size and time field; name it with :meth:`alias`."""

    _factory, _labels, _finished = "tumble", ("Tumble size", "Tumble time field"), TumbleWithSizeOnTimeWithAlias


class TumbleWithSize(_WindowBeforeTime[TumbleWithSizeOnTime]):
    """A tumbling window with a size; set the time field with :meth:`on`."""

    _next = TumbleWithSizeOnTime


class Tumble:
    """Tumbling windows: consecutive, non-overlapping windows of a fixed length, aligned to the epoch.

    Example::

        >>> Tumble.over(lit(10).minutes).on(col('ts')).alias('w')
        >>> Tumble.over("10.minutes").on("ts").alias("w")
    """

    @classmethod
    def over(cls, size: ExpressionOrStr) -> TumbleWithSize:
        """The window length, a time interval such as ``lit(10).minutes``."""
        return TumbleWithSize(size)


class SlideWithSizeAndSlideOnTime(_WindowOnTime):
    """A sliding window with size, slide and time field; name it with :meth:`alias`."""

    _factory, _labels = "slide", ("Slide size", "Slide every", "Slide time field")
    _finished = SlideWithSizeAndSlideOnTimeWithAlias


class SlideWithSizeAndSlide(_WindowBeforeTime[SlideWithSizeAndSlideOnTime]):
    """A sliding window with size and slide; set the time field with :meth:`on`."""

    _next = SlideWithSizeAndSlideOnTime


class SlideWithSize(_WindowParts):
    """A sliding window with a size; set the slide with :meth:`every`."""

    def every(self, slide: ExpressionOrStr) -> SlideWithSizeAndSlide:
        """The distance between the starts of consecutive windows, a time interval."""
        return SlideWithSizeAndSlide(*self._parts, slide)


class Slide:
    """Sliding (hopping) windows of a fixed length that start every ``slide``; they may overlap, so
    a row can belong to several windows. With a slide longer than the size, rows between windows
    belong to none.

    Example::

        >>> Slide.over(lit(1).hours).every(lit(15).minutes).on(col('ts')).alias('w')
        >>> Slide.over("1.hours").every("15.minutes").on("ts").alias("w")
    """

    @classmethod
    def over(cls, size: ExpressionOrStr) -> SlideWithSize:
        """The window length, a time interval."""
        return SlideWithSize(size)


class SessionWithGapOnTime(_WindowOnTime):
    """A session window with gap and time field; name it with :meth:`alias`."""

    _factory, _labels, _finished = "session", ("Session gap", "Session time field"), SessionWithGapOnTimeWithAlias


class SessionWithGap(_WindowBeforeTime[SessionWithGapOnTime]):
    """A session window with a gap; set the time field with :meth:`on`."""

    _next = SessionWithGapOnTime


class Session:
    """Session windows: rows closer than ``gap`` to each other share a window, which starts at its
    first row and ends ``gap`` after its last.

    Example::

        >>> Session.with_gap(lit(10).minutes).on(col('ts')).alias('w')
        >>> Session.with_gap("10.minutes").on("ts").alias("w")
    """

    @classmethod
    def with_gap(cls, gap: ExpressionOrStr) -> SessionWithGap:
        """The inactivity gap that closes a session, a time interval."""
        return SessionWithGap(gap)


# --- over windows ---------------------------------------------------------------------------------


class OverWindow(_FinishedWindow):
    """A fully defined over window: apply it with ``table.over_window(w)`` and use ``agg.over(alias)``."""


class _OverWindowBuilder:
    """The parts of an over window collected so far."""

    def __init__(self, partition_by: tuple[ExpressionOrStr, ...], order_by: Optional[ExpressionOrStr],
                 preceding: Optional[ExpressionOrStr] = None, following: Optional[ExpressionOrStr] = None) -> None:
        self._partition_by = partition_by
        self._order_by = order_by
        self._preceding = preceding
        self._following = following

    def _build(self, alias: str) -> OverWindow:
        b = bridge()
        partition = to_java_array(b.expressions.Expr, _j_exprs(self._partition_by, "Over partition_by"))
        order = None if self._order_by is None else _j_expr(self._order_by, "Over order_by")
        preceding = None if self._preceding is None else _j_expr(self._preceding, "Over preceding")
        following = None if self._following is None else _j_expr(self._following, "Over following")
        return OverWindow(b.window.OverWindowSpec.create(partition, order, preceding, following, alias))


class Over:
    """Over windows: an aggregate per row over its neighbouring rows (ROWS frames with
    ``row_interval``, RANGE frames with time intervals).

    Without ``preceding`` the frame starts at ``UNBOUNDED_RANGE``; without ``following`` it ends at
    ``CURRENT_ROW`` for row counts and ``CURRENT_RANGE`` otherwise, as in Flink.

    Example::

        >>> Over.partition_by(col('k')).order_by(col('ts')).preceding(row_interval(2)).alias('w')
        >>> Over.order_by(col('ts')).preceding(UNBOUNDED_RANGE).alias('w')
    """

    @classmethod
    def order_by(cls, order_by: ExpressionOrStr) -> "OverWindowPartitionedOrdered":
        """The ordering of the rows (a timestamp for time-interval bounds); no partitioning."""
        return OverWindowPartitionedOrdered(_OverWindowBuilder((), order_by))

    @classmethod
    def partition_by(cls, *partition_by: ExpressionOrStr) -> "OverWindowPartitioned":
        """Partition keys: each partition is ordered and aggregated separately."""
        return OverWindowPartitioned(_OverWindowBuilder(tuple(partition_by), None))


class _OverWindowStep:
    """An over window being built."""

    def __init__(self, builder: _OverWindowBuilder) -> None:
        self._builder = builder


@java_errors
class _OrderedOverWindowStep(_OverWindowStep):
    """An over window that can be finished: it has its ordering."""

    def alias(self, alias: str) -> OverWindow:
        """The name that ``agg.over(alias)`` refers to; :class:`Over` says which frame is the default."""
        return self._builder._build(alias)


class OverWindowPartitioned(_OverWindowStep):
    """An over window with partitioning; set the ordering with :meth:`order_by`."""

    def order_by(self, order_by: ExpressionOrStr) -> "OverWindowPartitionedOrdered":
        """The ordering of the rows within each partition."""
        return OverWindowPartitionedOrdered(_OverWindowBuilder(self._builder._partition_by, order_by))


class OverWindowPartitionedOrdered(_OrderedOverWindowStep):
    """An over window with (optional) partitioning and ordering."""

    def preceding(self, preceding: ExpressionOrStr) -> "OverWindowPartitionedOrderedPreceding":
        """The frame start relative to the current row: ``row_interval(n)``, a time interval,
        ``UNBOUNDED_ROW``, ``UNBOUNDED_RANGE``, ``CURRENT_ROW`` or ``CURRENT_RANGE``."""
        b = self._builder
        return OverWindowPartitionedOrderedPreceding(_OverWindowBuilder(b._partition_by, b._order_by, preceding))


class OverWindowPartitionedOrderedPreceding(_OrderedOverWindowStep):
    """An over window with partitioning, ordering and a frame start."""

    def following(self, following: ExpressionOrStr) -> "OverWindowPartitionedOrderedPreceding":
        """The frame end relative to the current row, of the same kind (rows or range) as the start."""
        b = self._builder
        return OverWindowPartitionedOrderedPreceding(
            _OverWindowBuilder(b._partition_by, b._order_by, b._preceding, following))
