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

import json
import pickle
from typing import Any, Dict, Iterator, List, Tuple

from pyspark.sql.streaming.stateful_processor import StatefulProcessor
from pyspark.sql.types import BinaryType, LongType, StructField, StructType, _parse_datatype_json_string

from pyflink_table import _protocol
from pyflink_table._worker import lifecycle
from pyflink_table._worker.aggregates import _python_values

TIME_COLUMN = _protocol.STREAM_WINDOW_TIME_COLUMN

_STORED = StructType([StructField("lo", LongType()), StructField("hi", LongType()), StructField("rows", BinaryType())])


def stream_window_aggregation(layout: str, *evaluators: bytes) -> Tuple[Any, Any]:
    """The command Spark's Python worker runs for the processor: (function, output type).

    :param layout: JSON ``{"size": ms, "slide": ms, "arguments": [[column name, ...] per
        evaluator], "columns": [the input's column names], "output": the output struct type as
        Spark's JSON text}``.
    :param evaluators: the pickled aggregate evaluators, in output order.
    """
    from pyspark.sql.streaming.stateful_processor_util import TransformWithStateInPandasUdfUtils

    spec = json.loads(layout)
    processor = WindowProcessor(int(spec["size"]), int(spec["slide"]), [list(a) for a in spec["arguments"]],
                                list(spec["columns"]), [pickle.loads(e) for e in evaluators])
    output = _parse_datatype_json_string(spec["output"])
    return TransformWithStateInPandasUdfUtils(processor, "EventTime").transformWithStateUDF, output


def _millis(series: Any) -> Any:
    import numpy as np

    return series.to_numpy(dtype="datetime64[ns]").astype("datetime64[ms]").astype(np.int64)


class WindowProcessor(StatefulProcessor):
    """Tumbling (slide = size) and sliding windows of one key's rows; see the module docstring."""

    def __init__(self, size: int, slide: int, arguments: List[List[str]], columns: List[str],
                 evaluators: List[Any]) -> None:
        self.columns = columns
        self.size = size
        self.slide = slide
        self.arguments = arguments
        self.evaluators = evaluators

    def init(self, handle: Any) -> None:
        lifecycle.prepare_task()
        for evaluator in self.evaluators:
            evaluator.prepare()
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
            columns = [TIME_COLUMN] + sorted({c for a in self.arguments for c in a})
            frame = chunk.loc[keep, columns].reset_index(drop=True)
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
        results = [self._evaluate(e, args, window) for e, args in zip(self.evaluators, self.arguments)]
        # Rows before the next window's start belong to no window still to fire.
        horizon = start + self.slide
        kept = [(lo, hi, rows) for lo, hi, rows in entries if hi >= horizon]
        if len(kept) != len(entries):
            self.stored.clear()
            if kept:
                self.stored.put(kept)
        if len(window) == 0:
            return iter([])
        out: Dict[str, Any] = {f"k{i}": [k] for i, k in enumerate(key)}
        out["__pft_start"] = [pd.Timestamp(start, unit="ms")]
        out["__pft_end"] = [pd.Timestamp(end, unit="ms")]
        for j, value in enumerate(results):
            out[f"r{j}"] = pd.Series([value], dtype=object)
        return iter([pd.DataFrame(out)])

    @staticmethod
    def _evaluate(evaluator: Any, args: List[str], window: Any) -> Any:
        series = [window[c] for c in args]
        view = series if evaluator.pandas else [_python_values(s) for s in series]
        state = evaluator.begin()
        evaluator.feed(state, view, 0, len(window))
        value = evaluator.end(state)
        return evaluator.to_arrow([value]).to_pylist()[0]

    def close(self) -> None:
        pass
