"""Python aggregate functions in group windows over unbounded streams (FLIP-137), as a Spark
``transformWithStateInPandas`` processor keyed by the group keys.

Spark refuses pandas aggregates in streaming aggregations, so a window's rows are kept in state
and the functions are evaluated when the window fires, as Flink's window operator does:

* each input chunk's on-time rows (rowtime and argument columns) are stored **once** in a list
  state as one pickled DataFrame, whatever the number of sliding windows a row belongs to;
* an event-time timer is registered at each window's last instant (``end - 1 ms``, Flink's
  ``maxTimestamp``); Spark fires it once the watermark reaches it, Flink's rule;
* a row is dropped from each window whose last instant is at or before the current watermark
  (that window has fired: Flink drops late rows the same way); a row late for every window it
  belongs to is not stored;
* when a timer fires, the stored rows inside the window go through the same
  :class:`~pyflink_table._worker.aggregates.AggregateEvaluator` as in batch mode, one result row is
  emitted, and rows no later window needs are removed from state.

Rowtimes are wall-clock milliseconds (the naive datetimes Spark hands to pandas).
"""

from __future__ import annotations

import bisect
import json
import pickle
from typing import Any, Dict, Iterator, List, Tuple

from pyspark.sql.streaming.stateful_processor import StatefulProcessor
from pyspark.sql.types import BinaryType, LongType, StructField, StructType, _parse_datatype_json_string

from pyflink_table import _protocol
from pyflink_table._worker import lifecycle
from pyflink_table._worker.aggregates import _python_values

TIME_COLUMN = _protocol.STREAM_WINDOW_TIME_COLUMN
_KEY = _protocol.STREAM_WINDOW_KEY_PREFIX
_RESULT = _protocol.STREAM_WINDOW_RESULT_PREFIX
_BUILTIN = _protocol.STREAM_WINDOW_BUILTIN_PREFIX

#: The frame bound (Java's ``Long.MAX_VALUE``) of an UNBOUNDED PRECEDING over window.
UNBOUNDED = (1 << 63) - 1

_STORED = StructType([StructField("lo", LongType()), StructField("hi", LongType()), StructField("rows", BinaryType())])


def stream_window_aggregation(layout: str, *evaluators: bytes) -> Tuple[Any, Any]:
    """The command Spark's Python worker runs for the processor: (function, output type).

    :param layout: JSON with the keys ``_protocol.LAYOUT_*`` (see ``_protocol``): the processor
        (``STREAM_WINDOW_KIND_*``), its size and slide or over frame, each evaluator's argument
        column names, the built-in aggregates, the input's column names and the output struct type
        as Spark's JSON text.
    :param evaluators: the pickled aggregate evaluators, in output order.
    """
    from pyspark.sql.streaming.stateful_processor_util import TransformWithStateInPandasUdfUtils

    spec = json.loads(layout)
    loaded = [pickle.loads(e) for e in evaluators]
    arguments = [list(a) for a in spec[_protocol.LAYOUT_ARGUMENTS]]
    columns = list(spec[_protocol.LAYOUT_COLUMNS])
    builtins = list(spec[_protocol.LAYOUT_BUILTINS])
    kind = spec[_protocol.LAYOUT_KIND]
    processor: StatefulProcessor
    time_mode = "EventTime"
    if kind == _protocol.STREAM_WINDOW_KIND_COUNT:
        processor = CountWindowProcessor(int(spec[_protocol.LAYOUT_SIZE]), int(spec[_protocol.LAYOUT_SLIDE]),
                                         arguments, columns, loaded, builtins)
        time_mode = "None"
    elif kind == _protocol.STREAM_WINDOW_KIND_OVER:
        rows = int(spec[_protocol.LAYOUT_PRECEDING_ROWS])
        range_ms = int(spec[_protocol.LAYOUT_PRECEDING_RANGE])
        passed = list(spec[_protocol.LAYOUT_PASSED])
        proctime = bool(spec.get(_protocol.LAYOUT_PROCTIME, False))
        if UNBOUNDED in (rows, range_ms):
            processor = UnboundedOverProcessor(rows == UNBOUNDED, proctime, passed, arguments, columns, loaded,
                                               builtins)
        else:
            processor = OverProcessor(rows, range_ms, passed, arguments, columns, loaded, builtins, proctime)
        time_mode = "None" if proctime else "EventTime"
    elif kind == _protocol.STREAM_WINDOW_KIND_TIME:
        slide = int(spec[_protocol.LAYOUT_SLIDE])
        timed = SessionProcessor if slide == 0 else WindowProcessor
        processor = timed(int(spec[_protocol.LAYOUT_SIZE]), slide, arguments, columns, loaded, builtins)
    else:
        raise ValueError(f"unknown stream window processor {kind!r}")
    output = _parse_datatype_json_string(spec[_protocol.LAYOUT_OUTPUT])
    return TransformWithStateInPandasUdfUtils(processor, time_mode).transformWithStateUDF, output


def _millis(series: Any) -> Any:
    import numpy as np

    return series.to_numpy(dtype="datetime64[ns]").astype("datetime64[ms]").astype(np.int64)


def _builtin(spec: Dict[str, Any], frame: Any) -> Any:
    """Flink's built-in aggregate ``spec[BUILTIN_FUNCTION]`` of one window's rows ``frame``: its
    argument's values, of the rows its FILTER column holds true for; nulls are skipped (but by
    ARRAY_AGG); SUM/MIN/MAX/AVG of no value is null, COUNT and SUM0 of none 0; AVG of an integral type is integral, truncated
    toward zero as Java's division; STDDEV/VAR as Flink rewrites them (``sum(x * x)``, ``sum(x)``
    and ``count(x)`` in DOUBLE, the square root as ``POWER(.., 0.5)``), truncated for an integral
    result; a DECIMAL result rounded half up to its scale; COLLECT a dict of each value's count
    (empty without values), LISTAGG the values in the window's order joined by its separator,
    ARRAY_AGG the values in that order, nulls kept (null without values)."""
    values = _python_values(frame[spec[_protocol.BUILTIN_ARGUMENT]])
    if spec.get(_protocol.BUILTIN_FILTER):
        values = [v for v, keep in zip(values, frame[spec[_protocol.BUILTIN_FILTER]].tolist()) if keep is True]
    function = spec[_protocol.BUILTIN_FUNCTION]
    if function != "array_agg":
        values = [v for v in values if v is not None]
    if spec[_protocol.BUILTIN_DISTINCT]:
        values = list(dict.fromkeys(values))
    if function == "array_agg":
        return values if values else None
    if function == "count":
        return len(values)
    if function == "collect":
        # Flink's MULTISET: each value with its count (a map, whose order is no element order).
        counts: Dict[Any, int] = {}
        for v in values:
            counts[v] = counts.get(v, 0) + 1
        return counts
    if function == "listagg":
        return str(spec[_protocol.BUILTIN_SEPARATOR]).join(values) if values else None
    if not values:
        return 0 if function == "sum0" else None
    if function in ("sum", "sum0"):
        return _scaled(spec, sum(values))
    if function == "min":
        return min(values)
    if function == "max":
        return max(values)
    if function in _MOMENTS:
        return _moment(spec, function, values)
    total, count = sum(values), len(values)
    if spec[_protocol.BUILTIN_INTEGRAL]:
        quotient = abs(total) // count
        return quotient if total >= 0 else -quotient
    if spec.get(_protocol.BUILTIN_SCALE) is not None:
        import decimal

        with decimal.localcontext(decimal.Context(prec=80)):
            return _scaled(spec, decimal.Decimal(total) / count)
    return total / count


#: Flink's statistical aggregates: (whether the variance divides by n - 1, whether the root is taken).
_MOMENTS = {"var_pop": (False, False), "var_samp": (True, False), "stddev_pop": (False, True),
            "stddev_samp": (True, True)}


def _moment(spec: Dict[str, Any], function: str, values: List[Any]) -> Any:
    sample, root = _MOMENTS[function]
    xs = [float(v) for v in values]
    n = len(xs)
    if sample and n == 1:
        return None
    total = sum(xs)
    variance = (sum(x * x for x in xs) - total * total / n) / (n - 1 if sample else n)
    # Java's POWER of a negative (rounding can make a variance slightly negative) is NaN, Python's complex.
    result = (variance ** 0.5 if variance >= 0 else float("nan")) if root else variance
    if spec[_protocol.BUILTIN_INTEGRAL]:
        return int(result)
    if spec.get(_protocol.BUILTIN_SCALE) is not None:
        import decimal

        return _scaled(spec, decimal.Decimal(repr(result)))
    return result


def _scaled(spec: Dict[str, Any], value: Any) -> Any:
    """``value`` (a Decimal when the result is a DECIMAL) rounded half up to the result's scale."""
    scale = spec.get(_protocol.BUILTIN_SCALE)
    if scale is None:
        return value
    import decimal

    with decimal.localcontext(decimal.Context(prec=80)):
        return decimal.Decimal(value).quantize(decimal.Decimal(1).scaleb(-int(scale)), rounding=decimal.ROUND_HALF_UP)


class _Aggregating(StatefulProcessor):
    """What the window and over processors share: the aggregates they compute and the columns their
    stored rows keep (the rowtime, the ``passed`` input columns and every aggregate's arguments)."""

    def __init__(self, arguments: List[List[str]], columns: List[str], evaluators: List[Any],
                 builtins: List[Dict[str, Any]], passed: List[str]) -> None:
        self.arguments = arguments
        self.columns = columns
        self.evaluators = evaluators
        self.builtins = builtins
        self.passed = passed
        used = {c for a in arguments for c in a} | {b[_protocol.BUILTIN_ARGUMENT] for b in builtins}
        used |= {b[_protocol.BUILTIN_FILTER] for b in builtins if b.get(_protocol.BUILTIN_FILTER)}
        self.kept = [TIME_COLUMN] + passed + sorted(used)

    def _results(self, frames: List[Any]) -> Tuple[int, Dict[str, Any]]:
        """Each aggregate's results over ``frames`` (one window's or over frame's rows each): the
        number of rows and the result columns. A frame gives one row, or the rows a table aggregate
        function (``flat_aggregate``, the only function then) emits for it."""
        import pandas as pd

        count = 0
        columns: Dict[str, List[Any]] = {f"{_RESULT}{j}": [] for j in range(len(self.evaluators))}
        columns.update({f"{_BUILTIN}{j}": [] for j in range(len(self.builtins))})
        for frame in frames:
            emitted = 1
            for j, (evaluator, args) in enumerate(zip(self.evaluators, self.arguments)):
                value = self._evaluate(evaluator, args, frame)
                if evaluator.table_aggregate:
                    emitted = len(value)
                columns[f"{_RESULT}{j}"].extend(value if evaluator.table_aggregate else [value])
            for j, spec in enumerate(self.builtins):
                columns[f"{_BUILTIN}{j}"].append(_builtin(spec, frame))
            count += emitted
        return count, {name: pd.Series(values, dtype=object) for name, values in columns.items()}

    @staticmethod
    def _evaluate(evaluator: Any, args: List[str], window: Any) -> Any:
        """The function's result over the rows ``window`` (a table aggregate's: its emitted rows)."""
        series = [window[c] for c in args]
        view = series if evaluator.pandas else [_python_values(s) for s in series]
        state = evaluator.begin()
        evaluator.feed(state, view, 0, len(window))
        value = evaluator.end(state)
        if evaluator.table_aggregate:
            return evaluator.to_arrow(value).to_pylist()
        return evaluator.to_arrow([value]).to_pylist()[0]


class _Sized(_Aggregating):
    """A window processor of a size and a slide (a session's gap and 0; row counts for count windows)."""

    def __init__(self, size: int, slide: int, arguments: List[List[str]], columns: List[str],
                 evaluators: List[Any], builtins: List[Dict[str, Any]]) -> None:
        super().__init__(arguments, columns, evaluators, builtins, [])
        self.size = size
        self.slide = slide


class WindowProcessor(_Sized):
    """Tumbling (slide = size) and sliding windows of one key's rows; see the module docstring."""

    def init(self, handle: Any) -> None:
        lifecycle.prepare_task(self.evaluators)
        self.handle = handle
        self.stored = handle.getListState("rows", _STORED)

    def _window_ends(self, ts: Any) -> Any:
        """Per row, the end of the last window holding it (the one starting at or before the row
        on a slide boundary); earlier ones end a slide apart."""
        return ts - ts % self.slide + self.size

    def handleInputRows(self, key: Any, rows: Iterator[Any], timerValues: Any) -> Iterator[Any]:
        import numpy as np

        watermark = timerValues.getCurrentWatermarkInMs()
        ends = set()
        for chunk in rows:
            # Spark hands the columns over by position, without their names.
            chunk = chunk.set_axis(self.columns, axis=1)
            ts = _millis(chunk[TIME_COLUMN])
            last_end = self._window_ends(ts)
            # The row's windows end at last_end, last_end - slide, ... while they hold it; it is
            # on time for those whose last instant (end - 1) is after the watermark.
            keep = np.zeros(len(ts), dtype=bool)
            for k in range(self.size // self.slide + 1):
                end = last_end - k * self.slide
                alive = (end > ts) & (end - 1 > watermark)
                keep |= alive
                ends.update(np.unique(end[alive]).tolist())
            if not keep.any():
                continue
            kept_ts = ts[keep]
            frame = chunk.loc[keep, self.kept].reset_index(drop=True)
            self.stored.appendValue((int(kept_ts.min()), int(kept_ts.max()), pickle.dumps(frame, protocol=5)))
        for end in sorted(ends):
            self.handle.registerTimer(int(end) - 1)
        return iter([])

    def handleExpiredTimer(self, key: Any, timerValues: Any, expiredTimerInfo: Any) -> Iterator[Any]:
        import pandas as pd

        end = expiredTimerInfo.getExpiryTimeInMs() + 1
        start = end - self.size
        entries = list(self.stored.get())
        frames = [pickle.loads(rows) for lo, hi, rows in entries if hi >= start and lo < end]
        if not frames:
            return iter([])
        data = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
        ts = _millis(data[TIME_COLUMN])
        window = data[(ts >= start) & (ts < end)].reset_index(drop=True)
        # Rows before the next window's start belong to no window still to fire.
        horizon = start + self.slide
        kept = [(lo, hi, rows) for lo, hi, rows in entries if hi >= horizon]
        if len(kept) != len(entries):
            self.stored.clear()
            if kept:
                self.stored.put(kept)
        if len(window) == 0:
            return iter([])
        return self._fired(key, start, end, window)

    def _fired(self, key: Any, start: int, end: int, window: Any) -> Iterator[Any]:
        """The one output row of the window ``[start, end)`` of ``key`` over its rows ``window``."""
        import pandas as pd

        count, results = self._results([window])
        if count == 0:
            return iter([])
        out: Dict[str, Any] = {f"{_KEY}{i}": [k] * count for i, k in enumerate(key)}
        out[_protocol.STREAM_WINDOW_START] = [pd.Timestamp(start, unit="ms")] * count
        out[_protocol.STREAM_WINDOW_END] = [pd.Timestamp(end, unit="ms")] * count
        out.update(results)
        return iter([pd.DataFrame(out)])

    def close(self) -> None:
        pass


class SessionProcessor(WindowProcessor):
    """Session windows of one key's rows (``size`` is the gap), merged as Flink's merging window
    operator does.

    Each open session is one list-state entry ``(start, end, rows)``. A row's own window is
    ``[ts, ts + gap)``; the rows are taken in arrival order, each window merging with the sessions it
    overlaps or touches, the merged session's timer replacing theirs. A row whose window touches no
    session and whose last instant is at or before the watermark is late and dropped, as Flink
    drops a late merged window; rows joining a session are kept.
    """

    def init(self, handle: Any) -> None:
        # Not WindowProcessor's: its "rows" list state is unused here, and each state variable costs
        # the JVM an encoder per micro-batch.
        lifecycle.prepare_task(self.evaluators)
        self.handle = handle
        self.sessions = handle.getListState("sessions", _STORED)

    def handleInputRows(self, key: Any, rows: Iterator[Any], timerValues: Any) -> Iterator[Any]:
        import numpy as np
        import pandas as pd

        watermark = timerValues.getCurrentWatermarkInMs()
        chunks = [chunk.set_axis(self.columns, axis=1)[self.kept] for chunk in rows]
        if not chunks:
            return iter([])
        data = pd.concat(chunks, ignore_index=True) if len(chunks) > 1 else chunks[0].reset_index(drop=True)
        data = data[data[TIME_COLUMN].notna()].reset_index(drop=True)
        ts = _millis(data[TIME_COLUMN])
        # Rows in arrival order, as Flink's merging window operator takes them: a row's own window
        # [ts, ts + gap) merges with the sessions it overlaps or touches (open ones and those earlier
        # rows formed), and without any it is late when its last instant is at or before the
        # watermark, so a late row that only a later row would connect to a session is dropped.
        open_sessions = [(int(lo), int(hi), frame) for lo, hi, frame in self.sessions.get()]
        open_sessions.sort(key=lambda entry: entry[0])
        starts = [lo for lo, _, _ in open_sessions]
        ends = [hi for _, hi, _ in open_sessions]
        # Per session, in start order: its rows' pieces in Flink's accumulation order, each an open
        # session (-1 - its index into open_sessions) or a new row (its index). Flink merges into the
        # earliest merged session's accumulator the later ones in start order, then accumulates the
        # row (measured: LISTAGG's order), so merged pieces keep start order and the row comes last.
        members: List[List[int]] = [[-1 - i] for i in range(len(open_sessions))]
        for r, t in enumerate(ts.tolist()):
            lo, hi = int(t), int(t) + self.size
            first, last = bisect.bisect_left(ends, lo), bisect.bisect_right(starts, hi)
            if first == last and hi - 1 <= watermark:
                continue  # late: its window would already have fired
            pieces = [piece for m in members[first:last] for piece in m] + [r]
            start = min([lo] + starts[first:last])
            end = max([hi] + ends[first:last])
            starts[first:last], ends[first:last], members[first:last] = [start], [end], [pieces]
        sessions = []
        changed = False
        for start, end, pieces in zip(starts, ends, members):
            if len(pieces) == 1 and pieces[0] < 0:
                # An open session no row touched: its bytes and its timer stay as they are.
                sessions.append(open_sessions[-1 - pieces[0]])
                continue
            changed = True
            old = [-1 - piece for piece in pieces if piece < 0]
            for i in old:
                if open_sessions[i][1] != end:
                    self.handle.deleteTimer(open_sessions[i][1] - 1)
            self.handle.registerTimer(end - 1)
            frames: List[Any] = []
            new: List[int] = []  # consecutive new rows, taken as one frame
            for piece in pieces + [-1 - len(open_sessions)]:  # a sentinel flushes the last rows
                if piece >= 0:
                    new.append(piece)
                    continue
                if new:
                    frames.append(data.iloc[np.asarray(new)])
                    new = []
                if -1 - piece < len(open_sessions):
                    frames.append(pickle.loads(open_sessions[-1 - piece][2]))
            frame = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0].reset_index(drop=True)
            sessions.append((start, end, pickle.dumps(frame, protocol=5)))
        if not changed:
            return iter([])  # every row was late: the state is as it was
        self.sessions.clear()
        if sessions:
            self.sessions.put(sessions)
        return iter([])

    def handleExpiredTimer(self, key: Any, timerValues: Any, expiredTimerInfo: Any) -> Iterator[Any]:
        end = expiredTimerInfo.getExpiryTimeInMs() + 1
        entries = list(self.sessions.get())
        fired = [entry for entry in entries if entry[1] == end]
        if not fired:
            return iter([])
        start, _, frame = fired[0]
        window = pickle.loads(frame).reset_index(drop=True)
        rest = [entry for entry in entries if entry[1] != end]
        self.sessions.clear()
        if rest:
            self.sessions.put(rest)
        return self._fired(key, start, end, window)


class CountWindowProcessor(_Sized):
    """Row-count tumbling (slide = size) and sliding windows of one key's rows, as Flink's count
    windows on a processing-time attribute: counted in arrival order from 0, window ``k`` holds
    rows ``k * slide`` to ``k * slide + size - 1`` and is emitted once, as soon as its last row
    arrives; an incomplete window never fires. State: the key's row count and the rows from the
    first window not yet fired on (a row is stored once, whatever the number of windows holding it;
    with ``slide > size`` the rows between two windows are not kept)."""

    def init(self, handle: Any) -> None:
        lifecycle.prepare_task(self.evaluators)
        self.handle = handle
        self.count = handle.getValueState("count", StructType([StructField("n", LongType())]))
        self.stored = handle.getListState("rows", _STORED)

    def handleInputRows(self, key: Any, rows: Iterator[Any], timerValues: Any) -> Iterator[Any]:
        import pandas as pd

        # Spark hands the columns over by position, without their names; chunks come in arrival order.
        chunks = [chunk.set_axis(self.columns, axis=1)[self.kept] for chunk in rows]
        if not chunks:
            return iter([])
        value = self.count.get()
        seen = 0 if value is None else int(value[0])
        frames = [pickle.loads(frame) for _, _, frame in self.stored.get()] + chunks
        data = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0].reset_index(drop=True)
        total = seen + sum(len(c) for c in chunks)
        first = total - len(data)  # the row number of data's first row
        # The first window not fired yet, and those whose last row is now here.
        k = (seen - self.size) // self.slide + 1 if seen >= self.size else 0
        windows = []
        while k * self.slide + self.size <= total:
            start = k * self.slide - first
            windows.append(data.iloc[start:start + self.size].reset_index(drop=True))
            k += 1
        kept = data.iloc[max(0, k * self.slide - first):].reset_index(drop=True)
        self.count.update((total,))
        self.stored.clear()
        if len(kept):
            self.stored.put([(total - len(kept), total - 1, pickle.dumps(kept, protocol=5))])
        if not windows:
            return iter([])
        total_rows, results = self._results(windows)
        if total_rows == 0:
            return iter([])
        out: Dict[str, Any] = {f"{_KEY}{i}": [v] * total_rows for i, v in enumerate(key)}
        out.update(results)
        return iter([pd.DataFrame(out)])

    def close(self) -> None:
        pass


class OverProcessor(_Aggregating):
    """Bounded over windows (ROWS or RANGE PRECEDING, ordered by the rowtime) of one partition
    key's rows, as Flink's row-time bounded over functions:

    * a row at or before the key's last emitted time is late and dropped; the others wait in a
      list state, with an event-time timer at their time;
    * RANGE as Flink's ``RowTimeRangeBoundedPrecedingFunction``: each row also sets a cleanup timer
      at ``t + 1.5 range + 1`` unless the one set covers ``t + range + 1`` (earlier ones still
      fire); any timer advances the last emitted time (so a cleanup timer makes later rows before
      it late), and the cleanup timer in force clears the key's state;
    * when the timer at ``t`` fires, the waiting rows at ``t`` are emitted in arrival order, each
      with its aggregates over the ``rows`` rows before it (ROWS) or over all rows in
      ``[t - range, t]`` (RANGE); the rows later windows still need stay in a history state.

    Ordered by a processing-time attribute (``proctime``; Flink's ``ProcTimeRowsBoundedPrecedingFunction``
    and ``ProcTimeRangeBoundedPrecedingFunction``) there are no timers and nothing is late: each row
    is emitted when it arrives, with the same frames over the rows that arrived before it. The
    attribute's value is the micro-batch's time, so in a RANGE frame a micro-batch's rows of one
    key are peers, as Flink's rows of one millisecond are.
    """

    def __init__(self, rows: int, range_ms: int, passed: List[str], arguments: List[List[str]], columns: List[str],
                 evaluators: List[Any], builtins: List[Dict[str, Any]], proctime: bool = False) -> None:
        super().__init__(arguments, columns, evaluators, builtins, passed)
        self.rows = rows
        self.range = range_ms
        self.proctime = proctime

    def init(self, handle: Any) -> None:
        lifecycle.prepare_task(self.evaluators)
        self.handle = handle
        self.pending = handle.getListState("pending", _STORED)
        self.history = handle.getListState("history", _STORED)
        self.last = handle.getValueState("last", StructType([StructField("t", LongType())]))
        self.cleanup = handle.getValueState("cleanup", StructType([StructField("t", LongType())]))

    def _last(self) -> Any:
        value = self.last.get()
        return None if value is None else int(value[0])

    def _set_cleanup_timers(self, times: Any) -> None:
        """Flink's RANGE cleanup timers for rows at ``times``, in arrival order."""
        value = self.cleanup.get()
        cleanup = None if value is None else int(value[0])
        for t in times:
            if cleanup is None or cleanup < t + self.range + 1:
                cleanup = t + int(self.range * 1.5) + 1
                self.handle.registerTimer(cleanup)
        if cleanup is not None:
            self.cleanup.update((cleanup,))

    def handleInputRows(self, key: Any, rows: Iterator[Any], timerValues: Any) -> Iterator[Any]:
        import numpy as np

        if self.proctime:
            return self._on_arrival(rows)
        last = self._last()
        for chunk in rows:
            chunk = chunk.set_axis(self.columns, axis=1)
            ts = _millis(chunk[TIME_COLUMN])
            keep = chunk[TIME_COLUMN].notna().to_numpy()
            if last is not None:
                keep &= ts > last
            if not keep.any():
                continue
            kept_ts = ts[keep]
            frame = chunk.loc[keep, self.kept].reset_index(drop=True)
            self.pending.appendValue((int(kept_ts.min()), int(kept_ts.max()), pickle.dumps(frame, protocol=5)))
            for t in np.unique(kept_ts).tolist():
                self.handle.registerTimer(int(t))
            if self.rows < 0:
                self._set_cleanup_timers(int(t) for t in kept_ts)
        return iter([])

    def handleExpiredTimer(self, key: Any, timerValues: Any, expiredTimerInfo: Any) -> Iterator[Any]:
        import pandas as pd

        t = expiredTimerInfo.getExpiryTimeInMs()
        if self.rows < 0:
            cleanup = self.cleanup.get()
            if cleanup is not None and int(cleanup[0]) <= t:
                for state in (self.pending, self.history, self.last, self.cleanup):
                    state.clear()
                return iter([])
            self.last.update((t,))
        entries = list(self.pending.get())
        frames = [pickle.loads(rows) for lo, hi, rows in entries]
        if not frames:
            return iter([])
        waiting = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
        ts = _millis(waiting[TIME_COLUMN])
        current = waiting[ts == t].reset_index(drop=True)
        rest = waiting[ts != t].reset_index(drop=True)
        self.pending.clear()
        if len(rest):
            rest_ts = _millis(rest[TIME_COLUMN])
            self.pending.put([(int(rest_ts.min()), int(rest_ts.max()), pickle.dumps(rest, protocol=5))])
        if len(current) == 0:
            return iter([])
        out = self._emit(current, t)
        self.last.update((t,))
        return iter([out])

    def _on_arrival(self, rows: Iterator[Any]) -> Iterator[Any]:
        """Processing time: the rows of the micro-batch emitted at once, in arrival order."""
        import pandas as pd

        chunks = [chunk.set_axis(self.columns, axis=1)[self.kept] for chunk in rows]
        if not chunks:
            return iter([])
        current = pd.concat(chunks, ignore_index=True) if len(chunks) > 1 else chunks[0].reset_index(drop=True)
        if len(current) == 0:
            return iter([])
        return iter([self._emit(current, int(_millis(current[TIME_COLUMN]).max()))])

    def _emit(self, current: Any, t: int) -> Any:
        """``current`` (the rows at time ``t``, in arrival order) with their aggregates over the key's
        history, which then keeps the rows later frames still need."""
        import pandas as pd

        past = [pickle.loads(rows) for _, _, rows in self.history.get()]
        history = past[0] if past else current.iloc[0:0]
        combined = pd.concat([history, current], ignore_index=True)
        combined_ts = _millis(combined[TIME_COLUMN])
        out = current[self.passed].copy()
        if self.rows >= 0:
            frames_per_row = [combined.iloc[max(0, len(history) + i - self.rows):len(history) + i + 1]
                              .reset_index(drop=True) for i in range(len(current))]
            kept = combined.iloc[max(0, len(combined) - self.rows):]
        else:
            window = combined[combined_ts >= t - self.range].reset_index(drop=True)
            frames_per_row = [window] * len(current)
            kept = combined[combined_ts > t - self.range]
        for name, values in self._results(frames_per_row)[1].items():
            out[name] = values
        self.history.clear()
        kept = kept.reset_index(drop=True)
        if len(kept):
            kept_ts = _millis(kept[TIME_COLUMN])
            self.history.put([(int(kept_ts.min()), int(kept_ts.max()), pickle.dumps(kept, protocol=5))])
        return out

    def close(self) -> None:
        pass


class _RunningBuiltin:
    """Flink's built-in aggregate ``spec["function"]`` over a growing set of values, one value at a
    time (nulls skipped; with ``distinct`` a value seen before is skipped); :meth:`value` answers as
    :func:`_builtin` does over the values added so far."""

    def __init__(self, spec: Dict[str, Any]) -> None:
        self.function = spec["function"]
        self.integral = bool(spec["integral"])
        self.seen: Any = set() if spec["distinct"] else None
        self.count = 0
        self.total: Any = None
        self.low: Any = None
        self.high: Any = None

    def add(self, value: Any) -> None:
        if value is None:
            return
        if self.seen is not None:
            if value in self.seen:
                return
            self.seen.add(value)
        self.count += 1
        if self.function in ("sum", "sum0", "avg"):
            self.total = value if self.total is None else self.total + value
        if self.low is None or value < self.low:
            self.low = value
        if self.high is None or value > self.high:
            self.high = value

    def value(self) -> Any:
        if self.function == "count":
            return self.count
        if self.count == 0:
            return 0 if self.function == "sum0" else None
        if self.function in ("sum", "sum0"):
            return self.total
        if self.function == "min":
            return self.low
        if self.function == "max":
            return self.high
        if self.integral:
            quotient = abs(self.total) // self.count
            return quotient if self.total >= 0 else -quotient
        return self.total / self.count


class UnboundedOverProcessor(_Aggregating):
    """UNBOUNDED PRECEDING over windows of one partition key's rows, as Flink's unbounded over
    functions; the key's state is its aggregates' accumulators (one pickled value), so no row is
    kept once emitted.

    * Ordered by the rowtime (Flink's ``RowTimeRowsUnboundedPrecedingFunction`` and
      ``RowTimeRangeUnboundedPrecedingFunction``): a row at or before the current watermark is late
      and dropped; the others wait in a list state with an event-time timer at their time. When
      the watermark passes, the waiting rows up to it are taken in time order (arrival order among
      equal times) and accumulated: a ROWS row is emitted with the aggregates up to and including
      itself, a RANGE row with the aggregates over every row up to its time (its peers included).
    * Ordered by a processing-time attribute (``ProcTimeUnboundedPrecedingFunction``, for ROWS and
      RANGE alike): each row is accumulated and emitted when it arrives, in arrival order.
    """

    def __init__(self, rows_frame: bool, proctime: bool, passed: List[str], arguments: List[List[str]],
                 columns: List[str], evaluators: List[Any], builtins: List[Dict[str, Any]]) -> None:
        super().__init__(arguments, columns, evaluators, builtins, passed)
        self.rows_frame = rows_frame
        self.proctime = proctime

    def init(self, handle: Any) -> None:
        lifecycle.prepare_task(self.evaluators)
        self.handle = handle
        self.pending = handle.getListState("pending", _STORED)
        self.accumulators = handle.getValueState("accumulators", StructType([StructField("a", BinaryType())]))

    def _load(self) -> Tuple[List[Any], List[_RunningBuiltin]]:
        value = self.accumulators.get()
        if value is not None:
            loaded: Tuple[List[Any], List[_RunningBuiltin]] = pickle.loads(value[0])
            return loaded
        return [e.begin() for e in self.evaluators], [_RunningBuiltin(b) for b in self.builtins]

    def _emit(self, data: Any) -> Any:
        """``data``'s rows (in order) with the aggregates after adding them one by one (ROWS, and
        every processing-time window) or time by time (RANGE: all rows of one time, then each)."""
        import numpy as np
        import pandas as pd
        from pyspark import cloudpickle

        states, running = self._load()
        views = [[_python_values(data[c]) for c in args] for args in self.arguments]
        inputs = [_python_values(data[b[_protocol.BUILTIN_ARGUMENT]]) for b in self.builtins]
        results: List[List[Any]] = [[] for _ in self.evaluators]
        others: List[List[Any]] = [[] for _ in self.builtins]
        if self.rows_frame or self.proctime:
            groups = [(i, i + 1) for i in range(len(data))]
        else:
            ts = _millis(data[TIME_COLUMN])
            cuts = np.flatnonzero(np.diff(ts)) + 1
            bounds = [0] + cuts.tolist() + [len(data)]
            groups = list(zip(bounds[:-1], bounds[1:]))
        for lo, hi in groups:
            for evaluator, state, view in zip(self.evaluators, states, views):
                evaluator.feed(state, view, lo, hi)
            for aggregate, values in zip(running, inputs):
                for v in values[lo:hi]:
                    aggregate.add(v)
            for j, (evaluator, state) in enumerate(zip(self.evaluators, states)):
                results[j].extend([evaluator.end(state)] * (hi - lo))
            for j, aggregate in enumerate(running):
                others[j].extend([aggregate.value()] * (hi - lo))
        self.accumulators.update((cloudpickle.dumps((states, running), protocol=5),))  # type: ignore[no-untyped-call]
        out = data[self.passed].reset_index(drop=True)
        for j, evaluator in enumerate(self.evaluators):
            out[f"{_RESULT}{j}"] = pd.Series(evaluator.to_arrow(results[j]).to_pylist(), dtype=object)
        for j in range(len(self.builtins)):
            out[f"{_BUILTIN}{j}"] = pd.Series(others[j], dtype=object)
        return out

    def handleInputRows(self, key: Any, rows: Iterator[Any], timerValues: Any) -> Iterator[Any]:
        import numpy as np
        import pandas as pd

        chunks = [chunk.set_axis(self.columns, axis=1)[self.kept] for chunk in rows]
        if not chunks:
            return iter([])
        data = pd.concat(chunks, ignore_index=True) if len(chunks) > 1 else chunks[0].reset_index(drop=True)
        if self.proctime:
            return iter([self._emit(data)]) if len(data) else iter([])
        # Spark's watermark starts at 0 (Flink's at Long.MIN_VALUE): before the first one, nothing is late.
        watermark = timerValues.getCurrentWatermarkInMs()
        keep = data[TIME_COLUMN].notna().to_numpy()
        ts = _millis(data[TIME_COLUMN])
        if watermark > 0:
            keep &= ts > watermark
        if not keep.any():
            return iter([])
        kept_ts = ts[keep]
        frame = data.loc[keep].reset_index(drop=True)
        self.pending.appendValue((int(kept_ts.min()), int(kept_ts.max()), pickle.dumps(frame, protocol=5)))
        for t in np.unique(kept_ts).tolist():
            self.handle.registerTimer(int(t))
        return iter([])

    def handleExpiredTimer(self, key: Any, timerValues: Any, expiredTimerInfo: Any) -> Iterator[Any]:
        import pandas as pd

        # Every waiting row up to the watermark, as Flink's onTimer takes them (so the order in
        # which Spark calls the expired timers does not matter).
        until = max(expiredTimerInfo.getExpiryTimeInMs(), timerValues.getCurrentWatermarkInMs())
        frames = [pickle.loads(rows) for _, _, rows in self.pending.get()]
        if not frames:
            return iter([])
        waiting = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
        ts = _millis(waiting[TIME_COLUMN])
        due = ts <= until
        if not due.any():
            return iter([])
        current = waiting[due]
        current = current.iloc[_millis(current[TIME_COLUMN]).argsort(kind="stable")].reset_index(drop=True)
        rest = waiting[~due].reset_index(drop=True)
        self.pending.clear()
        if len(rest):
            rest_ts = _millis(rest[TIME_COLUMN])
            self.pending.put([(int(rest_ts.min()), int(rest_ts.max()), pickle.dumps(rest, protocol=5))])
        return iter([self._emit(current)])

    def close(self) -> None:
        pass
