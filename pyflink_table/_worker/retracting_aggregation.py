"""Aggregations over an updating input (a changelog), as Flink's ``GroupAggFunction``.

An aggregation of an updating table (say, a count grouped by another aggregation's result) sees
each input change with its kind: ``+I``/``+U`` rows are accumulated, ``-U``/``-D`` rows retracted.
Per input change, as Flink does at parallelism 1: a key's first row emits ``+I``, a changed result
``-U`` old / ``+U`` new, an unchanged one nothing, and a key whose last row was retracted ``-D``
(its state is dropped; a retraction for a key without state is ignored). Built-in aggregates keep
Flink's retractable accumulators (MIN/MAX over the live values, FIRST_VALUE, LAST_VALUE and
LISTAGG over the live values in arrival order, a retraction removing the first equal one); Python
aggregate functions are called with ``accumulate``/``retract`` and, as PyFlink's Python group
aggregation does, emit once per key and *bundle* of input changes.

Two drivers share :class:`KeyState`: :class:`BoundedChangelog` (Spark ``mapInArrow`` over the
changes of bounded input, sorted by key and arrival) and :class:`RetractingAggregateProcessor`
(a ``transformWithStateInPandas`` processor over unbounded input, one bundle per micro-batch). The
bridge (``org.pyflink_table.bridge.streaming.RetractingAggregates``) hands keys, arguments and
results over as JSON text, so every value stays exact.
"""

from __future__ import annotations

import datetime
import json
import math
import pickle
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Dict, Iterator, List, Optional, Tuple

from pyflink_table._worker import lifecycle

_ACCUMULATE = ("+I", "+U")

Change = Tuple[str, str]  # (kind, results as JSON text)


def _decode(kind: str, value: Any) -> Any:
    """A JSON argument value (numbers read as Decimal) as the Python value of its Spark ``kind``."""
    if value is None:
        return None
    if kind in ("double", "float"):
        return float(value)
    if kind in ("long", "integer", "short", "byte"):
        return int(value)
    if kind.startswith("decimal"):
        return Decimal(value) if not isinstance(value, Decimal) else value
    if kind == "timestamp" or kind == "timestamp_ntz":
        return datetime.datetime.fromisoformat(str(value).replace("Z", "+00:00")).replace(tzinfo=None)
    if kind == "date":
        return datetime.date.fromisoformat(str(value))
    return value


def _encode(value: Any) -> str:
    """A result value as JSON text that Spark's ``from_json`` reads back exactly."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return repr(value)
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, datetime.datetime):
        return json.dumps(value.strftime("%Y-%m-%dT%H:%M:%S.%f"))
    if isinstance(value, datetime.date):
        return json.dumps(value.isoformat())
    item = getattr(value, "item", None)
    if item is not None and type(value).__module__ == "numpy":
        return _encode(item())
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_encode(v) for v in value) + "]"
    return json.dumps(value)


class _BuiltIn:
    """A built-in aggregate with retraction (Flink's ``*WithRetractAggFunction``s)."""

    def __init__(self, spec: Dict[str, Any]) -> None:
        self.function = spec["function"]
        self.result = spec["result"]  # the Spark result type's name (decimal(p,s) with its scale)
        self.scale = int(spec.get("scale", 0))
        self.separator = spec.get("separator", ",")
        #: False for MIN/MAX over columns Flink's planner takes as never updated: retractions are skipped
        self.retract = bool(spec.get("retract", True))
        arguments = spec.get("arguments") or [["", ""]]
        #: AVG of an integral column is integral in Flink (the quotient truncated toward zero)
        self.integral = arguments[0][1] in ("byte", "short", "integer", "long")

    def create(self) -> Any:
        if self.function in ("count", "sum", "avg"):
            return [0, 0]  # (count of non-null values, their sum)
        if self.function in ("stddev_pop", "stddev_samp", "var_pop", "var_samp"):
            return [0, 0.0, 0.0]  # count, sum, sum of squares
        return []  # the live values in arrival order

    def add(self, acc: Any, args: List[Any], sign: int) -> None:
        if not args or args[0] is None:
            return  # nulls are skipped, as by every built-in
        value = args[0]
        f = self.function
        if f == "count":
            acc[0] += sign
        elif f in ("sum", "avg"):
            acc[0] += sign
            acc[1] += sign * value
        elif f in ("stddev_pop", "stddev_samp", "var_pop", "var_samp"):
            x = float(value)
            acc[0] += sign
            acc[1] += sign * x
            acc[2] += sign * x * x
        elif sign > 0:
            acc.append(value)
        elif self.retract and value in acc:
            acc.remove(value)  # the first equal one, as Flink's list-based accumulators

    def value(self, acc: Any) -> Any:
        f = self.function
        if f == "count":
            return acc[0]
        if f in ("sum", "avg"):
            if acc[0] == 0:
                return None
            if f == "sum":
                return acc[1]
            if self.integral:
                quotient = abs(acc[1]) // acc[0]
                return quotient if acc[1] >= 0 else -quotient
            if self.result.startswith("decimal"):
                return (Decimal(acc[1]) / acc[0]).quantize(Decimal(1).scaleb(-self.scale), rounding=ROUND_HALF_UP)
            return acc[1] / acc[0]
        if f in ("stddev_pop", "stddev_samp", "var_pop", "var_samp"):
            n, s, q = acc
            if n == 0 or (n == 1 and f.endswith("samp")):
                return None
            var = (q - s * s / n) / (n - 1 if f.endswith("samp") else n)
            if f.startswith("var"):
                return var
            return math.sqrt(var) if var >= 0 else float("nan")
        if not acc:
            return None
        if f == "min":
            return min(acc)
        if f == "max":
            return max(acc)
        if f == "first_value":
            return acc[0]
        if f == "last_value":
            return acc[-1]
        return self.separator.join(acc)  # listagg


class _Python:
    """A Python aggregate function with ``retract`` (PyFlink's general UDAF)."""

    def __init__(self, evaluator: Any) -> None:
        self.evaluator = evaluator
        self.function = evaluator.function

    def create(self) -> Any:
        return self.function.create_accumulator()

    def add(self, acc: Any, args: List[Any], sign: int) -> None:
        from pyflink_table._worker.scalar import _failure

        try:
            if sign > 0:
                self.function.accumulate(acc, *args)
            else:
                retract = getattr(self.function, "retract", None)
                if retract is None:
                    raise NotImplementedError(
                        f"the Python aggregate function '{self.evaluator.name}' has no retract() method, which an "
                        "aggregation over an updating input needs")
                retract(acc, *args)
        except Exception as e:
            raise _failure(f"Python aggregate function '{self.evaluator.name}'", e) from None

    def value(self, acc: Any) -> Any:
        from pyflink_table._worker.table_functions import to_spark_value

        return to_spark_value(self.function.get_value(acc))


def _count_key(args: List[Any]) -> str:
    """A DISTINCT argument tuple as the text its count is kept under: equal values give equal text
    (-0.0 as 0.0; NaN equals NaN, as Java's ``Double.equals`` in Flink's ``MapView``)."""
    return "[" + ",".join(_encode(0.0 if isinstance(a, float) and a == 0 else a) for a in args) + "]"


class _Distinct:
    """A DISTINCT aggregate: each distinct argument tuple counted in the key's state (Flink's
    DistinctAggregate keeps such counts in a MapView). The aggregate sees a tuple when its count
    goes from 0 to 1 and retracts it when it drops back to 0, so repeats change nothing. The counts
    (``acc[1]``) are a dict, or a :class:`_StoredCounts` reading and writing a map state."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def create(self) -> Any:
        return [self.inner.create(), {}]

    def add(self, acc: Any, args: List[Any], sign: int) -> None:
        if any(a is None for a in args):
            return  # a null argument is never counted, as by COUNT/SUM(DISTINCT ...)
        counts = acc[1]
        key = _count_key(args)
        before = counts.get(key, 0)
        after = before + sign
        if after > 0:
            counts[key] = after
        else:
            counts.pop(key, None)
        if before == 0 and after > 0:
            self.inner.add(acc[0], args, 1)
        elif before > 0 and after <= 0:
            self.inner.add(acc[0], args, -1)

    def value(self, acc: Any) -> Any:
        return self.inner.value(acc[0])


class _StoredCounts:
    """One DISTINCT aggregate's counts of one key in a map state ``(aggregate, value) -> count``: a
    value's count is read when first needed and only changed counts are written back (:meth:`write`),
    so a micro-batch costs what it touches, not the key's number of distinct values."""

    def __init__(self, state: Any, index: int) -> None:
        self.state = state
        self.index = index
        self.stored: Dict[str, int] = {}  # as read from the state
        self.current: Dict[str, int] = {}

    def get(self, key: str, default: int = 0) -> int:
        if key not in self.current:
            found = self.state.getValue((self.index, key))
            self.stored[key] = self.current[key] = int(found[0]) if found is not None else 0
        return self.current[key] or default

    def __setitem__(self, key: str, count: int) -> None:
        self.get(key)
        self.current[key] = count

    def pop(self, key: str, default: Any = None) -> Any:
        self.get(key)
        self.current[key] = 0
        return default

    def write(self) -> None:
        for key, count in self.current.items():
            if count == self.stored[key]:
                continue
            if count > 0:
                self.state.updateValue((self.index, key), (count,))
            else:
                self.state.removeKey((self.index, key))


class KeyState:
    """The aggregates of one select over changelog input; one state object per key.

    :param aggregates: per aggregate ``{"function": name, "arguments": [[field, kind], ...], ...}``;
        ``"function": "python"`` names ``"evaluator"``, an index into ``evaluators``; ``"distinct": true``
        makes it a DISTINCT aggregate.
    """

    def __init__(self, aggregates: List[Dict[str, Any]], evaluators: List[Any]) -> None:
        self.arguments = [[(a[0], a[1]) for a in spec["arguments"]] for spec in aggregates]
        self.functions: List[Any] = []
        for spec in aggregates:
            f = _Python(evaluators[int(spec["evaluator"])]) if spec["function"] == "python" else _BuiltIn(spec)
            self.functions.append(_Distinct(f) if spec.get("distinct") else f)
        #: the state indices of the DISTINCT aggregates' accumulators
        self.distinct = [i + 1 for i, f in enumerate(self.functions) if isinstance(f, _Distinct)]

    def new(self) -> List[Any]:
        """A new key's state: [record count, accumulators...]."""
        return [0] + [f.create() for f in self.functions]

    def apply(self, state: List[Any], kind: str, arguments: str) -> None:
        """Accumulate (``+I``/``+U``) or retract (``-U``/``-D``) one input change."""
        sign = 1 if kind in _ACCUMULATE else -1
        values = json.loads(arguments, parse_float=Decimal) if arguments else {}
        state[0] += sign
        for i, (f, args) in enumerate(zip(self.functions, self.arguments)):
            f.add(state[i + 1], [_decode(k, values.get(name)) for name, k in args], sign)

    def result(self, state: List[Any]) -> str:
        """The results as JSON text ``{"r0": ..., ...}``."""
        return "{" + ",".join(f'"r{i}":{_encode(f.value(state[i + 1]))}' for i, f in enumerate(self.functions)) + "}"

    def bundle(self, state: Optional[List[Any]], changes: List[Tuple[str, str]],
               emit_unchanged: bool = False) -> Tuple[Optional[List[Any]], List[Change]]:
        """One key's bundle of input changes ``(kind, arguments)`` applied to its ``state``: the new
        state (None once the key's last row is retracted) and the changes to emit. An unchanged
        result emits nothing unless ``emit_unchanged`` (a state TTL: Flink's ``GroupAggFunction``
        then emits ``-U``/``+U`` anyway, so that downstream state is written and does not expire)."""
        before = None if state is None else self.result(state)
        for kind, arguments in changes:
            if state is None:
                if kind not in _ACCUMULATE:
                    continue  # a retraction of a key without state, as Flink ignores it
                state = self.new()
            self.apply(state, kind, arguments)
        if state is None:
            return None, []
        if state[0] <= 0:
            return None, ([] if before is None else [("-D", before)])
        after = self.result(state)
        if before is None:
            return state, [("+I", after)]
        if after == before and not emit_unchanged:
            return state, []
        return state, [("-U", before), ("+U", after)]


def _emits_unchanged(per_change: bool, ttl_ms: int) -> bool:
    """Whether an unchanged result emits ``-U``/``+U``: with a state TTL, built-in aggregates do
    (Flink's ``GroupAggFunction`` with state cleaning); PyFlink's Python group aggregation, whose
    changes go per bundle, does not (both measured on PyFlink 2.3)."""
    return per_change and ttl_ms > 0


def _spec(layout: str, evaluators: Tuple[bytes, ...]) -> Tuple[Dict[str, Any], KeyState, List[Any]]:
    spec = json.loads(layout)
    loaded = [pickle.loads(e) for e in evaluators]
    return spec, KeyState(spec["aggregates"], loaded), loaded


class BoundedChangelog:
    """The changes of bounded input, sorted by key and then arrival: columns ``key`` (JSON text),
    ``op``, ``args`` (JSON text), ``pos`` (arrival position) and ``bundle``; emits ``key``,
    ``values``, ``op``, ``pos`` (of the key's first change in the bundle) and ``sub`` (order within it)."""

    def __init__(self, layout: str, *evaluators: bytes) -> None:
        from pyflink_table._protocol import LAYOUT_STATE_TTL_MS

        spec, self.state, self.evaluators = _spec(layout, evaluators)
        self.emit_unchanged = _emits_unchanged(spec.get("per_change", False), int(spec.get(LAYOUT_STATE_TTL_MS) or 0))

    def __call__(self, batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        lifecycle.prepare_task(self.evaluators)
        current: Any = object()
        state: Optional[List[Any]] = None
        pending: List[Tuple[str, str]] = []
        pending_at: Tuple[Any, Any] = (None, None)
        out: Dict[str, List[Any]] = {"key": [], "values": [], "op": [], "pos": [], "sub": []}

        def flush() -> None:
            nonlocal state, pending
            if not pending:
                return
            state, changes = self.state.bundle(state, pending, self.emit_unchanged)
            for sub, (kind, values) in enumerate(changes):
                out["key"].append(current)
                out["values"].append(values)
                out["op"].append(kind)
                out["pos"].append(pending_at[0])
                out["sub"].append(sub)
            pending = []

        for batch in batches:
            columns = batch.to_pydict()
            for key, op, args, pos, bundle in zip(columns["key"], columns["op"], columns["args"], columns["pos"],
                                                  columns["bundle"]):
                if key != current:
                    flush()
                    current, state = key, None
                elif bundle != pending_at[1]:
                    flush()
                if not pending:
                    pending_at = (pos, bundle)
                pending.append((op, args))
            if len(out["op"]) >= 10_000:
                yield pa.RecordBatch.from_pydict(out, schema=_BOUNDED_OUTPUT)
                out = {k: [] for k in out}
        flush()
        if out["op"]:
            yield pa.RecordBatch.from_pydict(out, schema=_BOUNDED_OUTPUT)


def _bounded_schema() -> Any:
    import pyarrow as pa

    return pa.schema([("key", pa.string()), ("values", pa.string()), ("op", pa.string()), ("pos", pa.int64()),
                      ("sub", pa.int32())])


_BOUNDED_OUTPUT: Any = None


def bounded_changelog(layout: str, *evaluators: bytes) -> BoundedChangelog:
    """The function Spark's Python worker runs for bounded input (``mapInArrow``).

    :param layout: JSON ``{"aggregates": [...]}`` (see :class:`KeyState`).
    :param evaluators: the pickled evaluators of the Python aggregate functions.
    """
    global _BOUNDED_OUTPUT
    if _BOUNDED_OUTPUT is None:
        _BOUNDED_OUTPUT = _bounded_schema()
    return BoundedChangelog(layout, *evaluators)


def _processor_class() -> Any:
    from pyspark.sql.streaming.stateful_processor import StatefulProcessor
    from pyspark.sql.types import BinaryType, IntegerType, LongType, StringType, StructField, StructType

    blob = StructType([StructField("state", BinaryType())])
    count_key = StructType([StructField("aggregate", IntegerType()), StructField("value", StringType())])
    count = StructType([StructField("count", LongType())])

    class RetractingAggregateProcessor(StatefulProcessor):
        """Unbounded input: a key's changes of one micro-batch, in Spark's order; input columns
        the grouping keys, ``key``, ``op`` and ``args``; output ``key``, ``values``, ``op``.
        Built-in aggregates emit per change; Python ones once per micro-batch (their bundle).
        With a state TTL (Flink's ``table.exec.state.ttl``), Spark expires a key's state once it was
        not written for that long, so the key's next row starts afresh (``+I``), as in Flink, and an
        unchanged result of built-in aggregates emits ``-U``/``+U`` (see :func:`_emits_unchanged`).

        Without a TTL, the DISTINCT aggregates' counts are a map state (:class:`_StoredCounts`) and
        the rest of the key's state one pickled value: a micro-batch writes the counts it changed,
        not all of them. With a TTL all of it is one value, so that it expires as a whole."""

        def __init__(self, state: KeyState, evaluators: List[Any], key_count: int, per_change: bool,
                     ttl_ms: int = 0) -> None:
            self.aggregates = state
            self.evaluators = evaluators
            self.key_count = key_count
            self.per_change = per_change
            self.ttl_ms = ttl_ms
            self.emit_unchanged = _emits_unchanged(per_change, ttl_ms)

        def init(self, handle: Any) -> None:
            lifecycle.prepare_task(self.evaluators)
            self.stored = handle.getValueState("state", blob, self.ttl_ms or None)
            self.mapped = self.aggregates.distinct if not self.ttl_ms else []
            self.counts: Any = handle.getMapState("counts", count_key, count) if self.mapped else None

        def _load(self) -> Optional[List[Any]]:
            stored = self.stored.get() if self.stored.exists() else None
            if stored is None:
                return None
            state: List[Any] = pickle.loads(stored[0])
            for i in self.mapped:
                if state[i][1] is None:  # else counts pickled with the rest (a TTL's state)
                    state[i][1] = _StoredCounts(self.counts, i)
            return state

        def _save(self, state: Optional[List[Any]], existed: bool) -> None:
            if state is None:
                self.stored.clear()
                if self.mapped and existed:
                    self.counts.clear()
                return
            if self.mapped:
                counts = [state[i][1] for i in self.mapped]
                if existed and not isinstance(counts[0], _StoredCounts):
                    self.counts.clear()  # the key's state was dropped and started afresh in this micro-batch
                for i, c in zip(self.mapped, counts):
                    if isinstance(c, _StoredCounts):
                        c.write()
                    else:
                        for value, n in c.items():
                            self.counts.updateValue((i, value), (n,))
                    state[i][1] = None
            self.stored.update((pickle.dumps(state, protocol=5),))

        def handleInputRows(self, key: Any, rows: Iterator[Any], timerValues: Any) -> Iterator[Any]:
            import pandas as pd

            state = self._load()
            existed = state is not None
            emitted: List[Tuple[str, str, str]] = []
            text = ""
            for chunk in rows:
                n = self.key_count
                for r in chunk.itertuples(index=False, name=None):
                    text, op, args = r[n], r[n + 1], r[n + 2]
                    if self.per_change:
                        state, changes = self.aggregates.bundle(state, [(op, args)], self.emit_unchanged)
                        emitted.extend((text, kind, values) for kind, values in changes)
                    else:
                        emitted.append((text, op, args))
            if not self.per_change and emitted:
                state, changes = self.aggregates.bundle(state, [(op, args) for _, op, args in emitted],
                                                        self.emit_unchanged)
                emitted = [(text, kind, values) for kind, values in changes]
            self._save(state, existed)
            if not emitted:
                return iter([])
            return iter([pd.DataFrame({"key": [e[0] for e in emitted], "values": [e[2] for e in emitted],
                                       "op": [e[1] for e in emitted]})])

        def close(self) -> None:
            pass

    return RetractingAggregateProcessor


def stream_retracting_aggregate(layout: str, *evaluators: bytes) -> Tuple[Any, Any]:
    """The command Spark's Python worker runs for unbounded input: (function, output type).

    :param layout: JSON ``{"aggregates": [...], "keys": number of grouping columns, "per_change":
        bool, "output": the output struct type as Spark's JSON text, "state_ttl_ms": the state TTL, 0
        for none}``.
    """
    from pyspark.sql.streaming.stateful_processor_util import TransformWithStateInPandasUdfUtils
    from pyspark.sql.types import _parse_datatype_json_string

    from pyflink_table._protocol import LAYOUT_STATE_TTL_MS

    spec, state, loaded = _spec(layout, evaluators)
    ttl = int(spec.get(LAYOUT_STATE_TTL_MS) or 0)
    processor = _processor_class()(state, loaded, int(spec["keys"]), bool(spec["per_change"]), ttl)
    output = _parse_datatype_json_string(spec["output"])
    # Spark's state TTL runs on processing time (the bridge starts the processor in that mode then).
    mode = "ProcessingTime" if ttl else "None"
    return TransformWithStateInPandasUdfUtils(processor, mode).transformWithStateUDF, output
