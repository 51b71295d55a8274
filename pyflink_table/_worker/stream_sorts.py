"""Flink's temporal sort (``ORDER BY rowtime[, more keys]``) over an unbounded stream, as a Spark
``transformWithStateInPandas`` processor with a single key.

The bridge (``org.pyflink_table.bridge.streaming.TemporalSort``) hands each row over with its
rowtime in epoch milliseconds, its further sort keys and the row itself as JSON text (kept and
emitted unchanged). :class:`TemporalSortProcessor` follows Flink's ``RowTimeSortOperator``:

* a row whose rowtime is at or before the last emitted rowtime is late and dropped; the others wait
  in a map state keyed by their rowtime;
* when the watermark advances, the waiting rows at or before it are emitted in rowtime order, the
  rows of one rowtime sorted by the further keys (in arrival order where those tie);
* a row arriving at or before the current watermark (but after the last emitted rowtime) waits for
  the watermark's next advance, as Flink's timer registered below its watermark does.

Spark's watermark advances between micro-batches, so every row of a micro-batch meets the same
watermark; with Flink's per-row watermark (``flink-exact``) each row also carries the watermark it
met, and the rows waiting up to it are emitted before the row is taken, as Flink fires its timers.

``by_arrival`` (``ORDER BY proctime, more keys``, Flink's ``ProcTimeSortOperator``): no rowtime and
no state; each micro-batch's rows, those Flink buffers until its next processing-time timer, are
emitted sorted by the further keys, in arrival order where those tie.
"""

from __future__ import annotations

import functools
import json
import pickle
from typing import Any, Dict, Iterator, List, Optional, Tuple

from pyspark.sql.streaming.stateful_processor import StatefulProcessor
from pyspark.sql.types import LongType, StructField, StructType, _parse_datatype_json_string

from pyflink_table._worker import lifecycle
from pyflink_table._worker.stream_changelogs import _BLOB, _values, compare_sort_keys

_TIME = StructType([StructField("t", LongType())])
_META = StructType([StructField("last", LongType()), StructField("fired", LongType())])

Entry = Tuple[Tuple[Any, ...], str]  # (further sort keys, row as JSON text)


class TemporalSortProcessor(StatefulProcessor):
    """The rows of one stream (a single constant key) in rowtime order.

    Input columns: the constant key, the rowtime (epoch ms), the watermark the row met (epoch ms or
    null; only with ``per_row``), the further sort keys, the row (JSON text), then Spark's event-time
    column (not read); ``by_arrival``: the constant key, the further sort keys and the row. Output:
    the row.
    """

    def __init__(self, order: List[Tuple[bool, bool]], per_row: bool, output: Any, by_arrival: bool = False) -> None:
        self.order = order  # (ascending, nulls first) per further sort key
        self.per_row = per_row
        self.by_arrival = by_arrival
        self.output = output
        self.key = functools.cmp_to_key(self._compare)

    def _compare(self, a: Entry, b: Entry) -> int:
        return compare_sort_keys(a[0], b[0], self.order)

    def _sorted(self, entries: List[Entry]) -> List[Entry]:
        """The entries of one rowtime by the further keys, ties in arrival order (a stable sort)."""
        return sorted(entries, key=self.key) if self.order else entries

    def init(self, handle: Any) -> None:
        lifecycle.prepare_task()
        self.handle = handle
        self.rows = handle.getMapState("rows", _TIME, _BLOB)
        self.meta = handle.getValueState("meta", _META)

    def _meta(self) -> Tuple[Optional[int], Optional[int]]:
        """(the last emitted rowtime, the watermark the waiting rows were emitted up to)."""
        value = self.meta.get() if self.meta.exists() else None
        if value is None:
            return None, None
        return (None if value[0] is None else int(value[0]), None if value[1] is None else int(value[1]))

    def _emit(self, waiting: Dict[int, List[Entry]], watermark: int, out: List[str]) -> Optional[int]:
        """Moves the rows of ``waiting`` at or before ``watermark`` to ``out`` in order; the last
        rowtime emitted, or None."""
        last = None
        for t in sorted(t for t in waiting if t <= watermark):
            entries = waiting.pop(t)
            out.extend(row for _, row in self._sorted(entries))
            last = t
        return last

    def _frame(self, out: List[str]) -> Iterator[Any]:
        import pandas as pd

        if not out:
            return iter([])
        return iter([pd.DataFrame({self.output.fields[0].name: pd.Series(out, dtype=object)})])

    def handleInputRows(self, key: Any, rows: Iterator[Any], timerValues: Any) -> Iterator[Any]:
        if self.by_arrival:
            n = len(self.order)
            batch = [(tuple(r[1:1 + n]), r[1 + n]) for chunk in rows for r in _values(chunk)]
            return self._frame([row for _, row in self._sorted(batch)])
        last, fired = self._meta()
        stored = {int(k[0]): pickle.loads(v[0]) for k, v in self.rows.iterator()}
        waiting: Dict[int, List[Entry]] = {t: list(entries) for t, entries in stored.items()}
        out: List[str] = []

        def advance(watermark: Optional[int]) -> None:
            nonlocal last, fired
            if watermark is None or (fired is not None and watermark <= fired):
                return
            emitted = self._emit(waiting, watermark, out)
            if emitted is not None:
                last = emitted
            fired = watermark

        advance(int(timerValues.getCurrentWatermarkInMs()))
        n = len(self.order)
        first = 3 if self.per_row else 2
        for chunk in rows:
            for r in _values(chunk):
                t = r[1]
                if self.per_row:
                    advance(None if r[2] is None else int(r[2]))
                if t is None:
                    continue
                t = int(t)
                if last is not None and t <= last:
                    continue  # late: its rowtime was emitted already
                waiting.setdefault(t, []).append((tuple(r[first:first + n]), r[first + n]))
                # Flink's timer fires once the watermark reaches it, or, registered at or below the
                # watermark, at its next advance.
                self.handle.registerTimer(t if fired is None or t > fired else fired + 1)
        for t in stored:
            if t not in waiting:
                self.rows.removeKey((t,))
        for t, entries in waiting.items():
            if len(entries) != len(stored.get(t, ())):
                self.rows.updateValue((t,), (pickle.dumps(entries, protocol=5),))
        self.meta.update((last, fired))
        return self._frame(out)

    def handleExpiredTimer(self, key: Any, timerValues: Any, expiredTimerInfo: Any) -> Iterator[Any]:
        last, fired = self._meta()
        watermark = int(timerValues.getCurrentWatermarkInMs())
        if fired is not None and watermark <= fired:
            return iter([])
        due = sorted(int(k[0]) for k in self.rows.keys() if int(k[0]) <= watermark)
        waiting = {t: pickle.loads(self.rows.getValue((t,))[0]) for t in due}
        out: List[str] = []
        emitted = self._emit(waiting, watermark, out)
        for t in due:
            self.rows.removeKey((t,))
        self.meta.update((emitted if emitted is not None else last, watermark))
        return self._frame(out)

    def close(self) -> None:
        pass


def stream_temporal_sort(layout: str) -> Tuple[Any, Any]:
    """The command Spark's Python worker runs for a temporal sort: (function, output type).

    :param layout: JSON ``{"order": [[ascending, nulls first], ...] of the sort keys after the
        rowtime, "per_row": whether each row carries the watermark it met, "by_arrival": whether the
        first key is a processing-time attribute (no rowtime column then), "output": the output
        struct type as Spark's JSON text}``.
    """
    from pyspark.sql.streaming.stateful_processor_util import TransformWithStateInPandasUdfUtils

    spec = json.loads(layout)
    output = _parse_datatype_json_string(spec["output"])
    order = [(bool(a), bool(f)) for a, f in spec["order"]]
    by_arrival = bool(spec["by_arrival"])
    processor = TemporalSortProcessor(order, bool(spec["per_row"]), output, by_arrival)
    time_mode = "None" if by_arrival else "EventTime"
    return TransformWithStateInPandasUdfUtils(processor, time_mode).transformWithStateUDF, output


class BoundedTemporalSort:
    """The rows of a bounded stream that Flink's ``RowTimeSortOperator`` keeps (``mapInArrow``, one
    partition, the rows in arrival order): each row meets its watermark (column ``watermark``, epoch
    ms, null before the first row); when the watermark advances, the waiting rowtimes at or before it
    are emitted, and a row at or before the last emitted rowtime is dropped. The kept rows pass
    unchanged (every column), for the sort above them."""

    def __init__(self, time: str, watermark: str) -> None:
        self.time = time
        self.watermark = watermark

    def __call__(self, batches: Iterator[Any]) -> Iterator[Any]:
        import heapq

        import pyarrow as pa

        lifecycle.prepare_task()
        waiting: List[int] = []  # a heap of the waiting rows' rowtimes
        last: Optional[int] = None
        fired: Optional[int] = None
        for batch in batches:
            keep = []
            for t, w in zip(batch.column(self.time).to_pylist(), batch.column(self.watermark).to_pylist()):
                if w is not None and (fired is None or w > fired):
                    while waiting and waiting[0] <= w:
                        last = heapq.heappop(waiting)
                    fired = w
                late = t is None or (last is not None and t <= last)
                if not late:
                    heapq.heappush(waiting, t)
                keep.append(not late)
            yield batch.filter(pa.array(keep, type=pa.bool_()))


def bounded_temporal_sort(layout: str) -> BoundedTemporalSort:
    """The function Spark's Python worker runs for a temporal sort over bounded input in streaming
    mode (``mapInArrow``): ``layout`` is JSON ``{"time": the rowtime column (epoch ms), "watermark":
    the column of the watermark each row met}``."""
    spec = json.loads(layout)
    return BoundedTemporalSort(str(spec["time"]), str(spec["watermark"]))
