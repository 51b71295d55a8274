"""Python aggregate functions over key-sorted Arrow batches that carry many groups each.

The bridge hash-partitions the input by the grouping keys, sorts each partition by them and hands
the rows to :class:`PackedAggregation` through Spark's ``mapInArrow``. Spark fills each Arrow batch
up to ``python.fn-execution.arrow.batch.size`` rows regardless of group boundaries, so one batch
holds many small groups (bin-packing: per-group cost is a slice, not an Arrow round trip) and a
large group spans several batches (chunking: a general function accumulates chunk by chunk, a
pandas function gets the chunks concatenated into one Series, as FLIP-137 specifies). This is the
batch counterpart of the group packing in Spark's writer for ``applyInPandasWithState``.

Group boundaries are found by comparing each row's keys with the previous row's, vectorised with
pyarrow; a group still open at the end of a batch is carried into the next one.
"""

from __future__ import annotations

import json
import pickle
from typing import Any, Iterator, List, Optional, Sequence, Tuple, Union

from pyflink_table import _protocol
from pyflink_table._worker import lifecycle


def packed_aggregation(layout: str, *evaluators: bytes) -> "Union[PackedAggregation, ChangelogAggregation]":
    """The function Spark's Python worker runs (the bridge pickles a call of this function).

    :param layout: JSON ``{"keys": number of leading key columns, "arguments": [[column index, ...]
        per evaluator], "changelog": whether to emit the streaming changelog}`` (the last key is
        optional: :class:`ChangelogAggregation` when true).
    :param evaluators: the pickled :class:`~pyflink_table._worker.aggregates.AggregateEvaluator`
        of each aggregate function, in output order.
    """
    spec = json.loads(layout)
    if spec.get(_protocol.LAYOUT_CHANGELOG):
        return ChangelogAggregation(int(spec[_protocol.LAYOUT_KEYS]), [list(a) for a in spec[_protocol.LAYOUT_ARGUMENTS]],
                                    [pickle.loads(e) for e in evaluators])
    return PackedAggregation(int(spec[_protocol.LAYOUT_KEYS]), [list(a) for a in spec[_protocol.LAYOUT_ARGUMENTS]],
                             [pickle.loads(e) for e in evaluators])


def group_starts(batch: Any, key_count: int) -> List[int]:
    """Row indices where a new group begins in a key-sorted batch (always starting with 0).

    NULL equals NULL and NaN equals NaN, as in grouping.
    """
    import numpy as np

    n = batch.num_rows
    if key_count == 0 or n <= 1:
        return [0]
    changed = np.zeros(n - 1, dtype=bool)
    for i in range(key_count):
        for array in _leaf_arrays(batch.column(i)):
            changed |= _differs_from_previous(array)
    return [0] + (np.flatnonzero(changed) + 1).tolist()


def _leaf_arrays(array: Any) -> List[Any]:
    """A key column as comparable arrays: a struct (the window column) by its fields and its nulls."""
    import pyarrow as pa

    if pa.types.is_struct(array.type):
        out = [array.is_null()]
        for field in array.flatten():
            out.extend(_leaf_arrays(field))
        return out
    return [array]


def _differs_from_previous(array: Any) -> Any:
    """For rows 1..n-1: whether the value differs from the previous row's (NULL-safe, NaN-safe)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    n = len(array)
    if array.null_count == 0 and pa.types.is_integer(array.type):
        values = array.to_numpy()  # zero-copy; the usual key, compared without Arrow's kernels
        return values[1:] != values[:-1]
    current, previous = array.slice(1), array.slice(0, n - 1)
    try:
        unequal = pc.not_equal(current, previous)
    except (pa.ArrowNotImplementedError, pa.ArrowInvalid):
        # Types without an Arrow kernel (lists, maps): compare Python values.
        values = array.to_pylist()
        return np.array([values[i] != values[i - 1] for i in range(1, n)], dtype=bool)
    if pa.types.is_floating(array.type):
        both_nan = pc.and_(pc.is_nan(current), pc.is_nan(previous))
        unequal = pc.and_(unequal, pc.invert(both_nan))
    null_now, null_before = current.is_null(), previous.is_null()
    differs = pc.or_(pc.fill_null(unequal, False), pc.not_equal(null_now, null_before))
    return differs.to_numpy(zero_copy_only=False)


def _same_key(key: Tuple[Any, ...], other: Tuple[Any, ...]) -> bool:
    """Key equality across batches, with NaN equal to NaN."""
    for a, b in zip(key, other):
        if a != b and not (a != a and b != b):
            return False
    return True


def _key_at(keys: List[Any], row: int) -> Tuple[Any, ...]:
    return tuple(k[row].as_py() for k in keys)


class _OpenGroup:
    """A group being aggregated: each function's state, and (once it may continue in the next
    batch) its key and key columns."""

    __slots__ = ("key", "key_columns", "states")

    def __init__(self, states: List[Any]) -> None:
        self.key: Tuple[Any, ...] = ()
        self.key_columns: List[Any] = []
        self.states = states


class PackedAggregation:
    """Evaluates aggregate functions group by group over an iterator of key-sorted Arrow batches.

    :param key_count: the number of leading key columns (0: the whole input is one group).
    :param arguments: per evaluator, the input column indices of its arguments.
    :param evaluators: one :class:`~pyflink_table._worker.aggregates.AggregateEvaluator` per function.
    """

    def __init__(self, key_count: int, arguments: List[List[int]], evaluators: List[Any]) -> None:
        self.key_count = key_count
        self.arguments = arguments
        self.evaluators = evaluators

    def _batches(self, batches: Iterator[Any]) -> Iterator[Any]:
        """The non-empty ``batches``, once the task and its evaluators are prepared."""
        lifecycle.prepare_task(self.evaluators)
        return (batch for batch in batches if batch.num_rows)

    def __call__(self, batches: Iterator[Any]) -> Iterator[Any]:
        open_group: Optional[_OpenGroup] = None
        for batch in self._batches(batches):
            n = batch.num_rows
            starts = group_starts(batch, self.key_count)
            views = [e.view([batch.column(i) for i in args]) for e, args in zip(self.evaluators, self.arguments)]
            keys = [batch.column(i) for i in range(self.key_count)]
            output = _Output(self.evaluators, keys)
            last = len(starts) - 1
            for g, start in enumerate(starts):
                end = starts[g + 1] if g < last else n
                if g == 0 and open_group is not None and _same_key(open_group.key, _key_at(keys, 0)):
                    group = open_group  # the group carried from the previous batch goes on
                else:
                    if g == 0 and open_group is not None:
                        output.add_carried(open_group)
                    group = _OpenGroup([e.begin() for e in self.evaluators])
                open_group = None
                for e, state, view in zip(self.evaluators, group.states, views):
                    e.feed(state, view, start, end)
                if g < last:  # a later group starts in this batch: this one is complete
                    output.add(group, start)
                else:  # the batch's last group may go on in the next batch
                    group.key = _key_at(keys, start)
                    group.key_columns = [k.slice(start, 1) for k in keys]
                    open_group = group
            if not output.empty():
                yield output.batch()
        if open_group is not None:
            output = _Output(self.evaluators, [])
            output.add_carried(open_group)
            yield output.batch()


class _Output:
    """The result rows of the groups completed while one batch was read, as one Arrow batch."""

    def __init__(self, evaluators: Sequence[Any], keys: List[Any]) -> None:
        self.evaluators = evaluators
        self.keys = keys
        self.carried: List[Tuple[List[Any], int]] = []  # key columns of a previous batch, repeat count
        self.indices: List[int] = []  # rows of this batch giving the keys of the completed groups
        self.results: List[List[Any]] = [[] for _ in evaluators]

    def empty(self) -> bool:
        return not self.carried and not self.indices

    def _finish(self, group: _OpenGroup) -> int:
        count = 1
        for e, state, results in zip(self.evaluators, group.states, self.results):
            value = e.end(state)
            if e.table_aggregate:
                results.extend(value)
                count = len(value)
            else:
                results.append(value)
        return count

    def add(self, group: _OpenGroup, start: int) -> None:
        self.indices.extend([start] * self._finish(group))

    def add_carried(self, group: _OpenGroup) -> None:
        self.carried.append((group.key_columns, self._finish(group)))

    def batch(self) -> Any:
        import pyarrow as pa

        key_count = len(self.carried[0][0]) if self.carried else len(self.keys)
        key_arrays = []
        for i in range(key_count):
            pieces = [columns[i].take(pa.array([0] * count, pa.int32())) for columns, count in self.carried]
            if self.indices:
                pieces.append(self.keys[i].take(pa.array(self.indices, pa.int32())))
            key_arrays.append(pa.concat_arrays(pieces) if len(pieces) != 1 else pieces[0])
        result_arrays = [e.to_arrow(values) for e, values in zip(self.evaluators, self.results)]
        names = [f"k{i}" for i in range(key_count)] + [f"r{j}" for j in range(len(result_arrays))]
        return pa.RecordBatch.from_arrays(key_arrays + result_arrays, names=names)



class ChangelogAggregation(PackedAggregation):
    """Flink's streaming changelog of aggregate functions over a bounded input, at parallelism 1.

    PyFlink's Python group aggregation buffers each bundle of input rows
    (``python.fn-execution.bundle.size`` rows in arrival order) and, at the bundle's end, emits per key
    that occurred in it (in order of first occurrence): ``+I`` for a new key, ``-U`` old / ``+U`` new
    for a changed result, nothing for an unchanged one; a table aggregate retracts every row it emitted
    before (``-D``) and emits its rows again (``+I``). The input here is sorted by key, then arrival;
    its last two columns are each row's bundle number and arrival number. Each output row carries the
    arrival number of its key's first row in the bundle and its position among that key's changes,
    by which the bridge orders the changelog.

    Its parameters are those of :class:`PackedAggregation`.
    """

    def __call__(self, batches: Iterator[Any]) -> Iterator[Any]:
        group: Optional[_ChangingGroup] = None
        for batch in self._batches(batches):
            n = batch.num_rows
            out = _Changes(self.evaluators)
            bundles = batch.column(batch.num_columns - 2).to_pylist()
            seqs = batch.column(batch.num_columns - 1).to_pylist()
            keys = [batch.column(i) for i in range(self.key_count)]
            views = [e.view([batch.column(i) for i in args]) for e, args in zip(self.evaluators, self.arguments)]
            starts = group_starts(batch, self.key_count)
            for g, start in enumerate(starts):
                end = starts[g + 1] if g + 1 < len(starts) else n
                key = _key_at(keys, start)
                if group is None or not _same_key(group.key, key):
                    if group is not None:
                        group.flush(out)
                    group = _ChangingGroup(key, [k.slice(start, 1) for k in keys],
                                           [e.begin() for e in self.evaluators])
                row = start
                while row < end:  # the rows of one bundle
                    stop = row + 1
                    while stop < end and bundles[stop] == bundles[row]:
                        stop += 1
                    if group.bundle != bundles[row]:
                        group.flush(out)
                        group.bundle, group.seq = bundles[row], seqs[row]
                    for e, state, view in zip(self.evaluators, group.states, views):
                        e.feed(state, view, row, stop)
                    row = stop
            if not out.empty():
                yield out.batch(self.key_count)
        if group is not None:
            out = _Changes(self.evaluators)
            group.flush(out)
            if not out.empty():
                yield out.batch(self.key_count)


class _ChangingGroup:
    """One key's accumulators, its last emitted result and the bundle being read."""

    __slots__ = ("key", "key_columns", "states", "emitted", "bundle", "seq")

    def __init__(self, key: Tuple[Any, ...], key_columns: List[Any], states: List[Any]) -> None:
        self.key = key
        self.key_columns = key_columns
        self.states = states
        self.emitted: Optional[List[Any]] = None  # one value per function, or a table aggregate's rows
        self.bundle: Any = None
        self.seq: Any = None

    def flush(self, out: "_Changes") -> None:
        """Emit the changes of the bundle read so far (nothing before the first bundle)."""
        if self.bundle is None:
            return
        values = [e.end(state) for e, state in zip(out.evaluators, self.states)]
        table = out.evaluators[0].table_aggregate
        if table:
            if self.emitted is not None:
                out.add_rows(self, "-D", self.emitted[0])
            out.add_rows(self, "+I", values[0])
        elif self.emitted is None:
            out.add(self, "+I", values)
        elif values != self.emitted:
            out.add(self, "-U", self.emitted)
            out.add(self, "+U", values)
        self.emitted = values
        self.bundle = None


class _Changes:
    """Change rows (keys, results, kind, arrival number, position) as one Arrow batch."""

    def __init__(self, evaluators: Sequence[Any]) -> None:
        self.evaluators = evaluators
        self.keys: List[List[Any]] = []
        self.results: List[List[Any]] = [[] for _ in evaluators]
        self.ops: List[str] = []
        self.seqs: List[Any] = []
        self.subs: List[int] = []
        self._position: Tuple[Any, int] = (None, 0)

    def empty(self) -> bool:
        return not self.ops

    def _next_position(self, group: _ChangingGroup) -> int:
        seq, count = self._position
        count = count + 1 if seq == group.seq else 0
        self._position = (group.seq, count)
        return count

    def add(self, group: _ChangingGroup, op: str, values: List[Any]) -> None:
        self.keys.append(group.key_columns)
        for results, value in zip(self.results, values):
            results.append(value)
        self.ops.append(op)
        self.seqs.append(group.seq)
        self.subs.append(self._next_position(group))

    def add_rows(self, group: _ChangingGroup, op: str, rows: List[Any]) -> None:
        for value in rows:
            self.add(group, op, [value])

    def batch(self, key_count: int) -> Any:
        import pyarrow as pa

        key_arrays = [pa.concat_arrays([columns[i] for columns in self.keys]) for i in range(key_count)]
        result_arrays = [e.to_arrow(values) for e, values in zip(self.evaluators, self.results)]
        extra = [pa.array(self.ops, pa.string()), pa.array(self.seqs, pa.int64()), pa.array(self.subs, pa.int32())]
        names = ([f"k{i}" for i in range(key_count)] + [f"r{j}" for j in range(len(result_arrays))]
                 + ["op", "seq", "sub"])
        return pa.RecordBatch.from_arrays(key_arrays + result_arrays + extra, names=names)
