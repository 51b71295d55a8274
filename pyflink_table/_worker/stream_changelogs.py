"""Retracting operators over unbounded streams (regular joins, Top-N and over windows ordered by a
non-time column), as Spark ``transformWithStateInPandas`` processors keyed by the join key or the
partition key.

Spark Structured Streaming has no retracting join or Top-N, so the bridge
(``org.pyflink_table.bridge.streaming.RetractingStreams``) plans them as these processors: each
keeps its key's rows in state and emits Flink's changes, one output row per change with its kind
(``+I``, ``-U``, ``+U``, ``-D``) in the last column. Both follow Flink's operators at parallelism 1:

* :class:`JoinProcessor` is Flink's ``StreamingJoinOperator`` over two changelogs: a row joins every
  stored row of the other side with the same key; an outer side's row without a match is emitted
  padded with nulls, and when its first match arrives that padded row is deleted (``-D``) before the
  joined row is inserted. A retracted row (``-U``/``-D``, from an updating input) leaves the state
  and retracts its joined rows; an outer row that loses its last match is inserted padded again. An
  inner join forwards its input's kinds, a join with an outer side emits only ``+I``/``-D``. A row
  with a null key never matches; rows with equal keys match only when the rest of the join
  condition holds for them (evaluated by :func:`_evaluate`).
* :class:`TopNProcessor` is Flink's ``AppendOnlyTopNFunction`` (and ``FastTop1Function`` for
  Top-1): with the row number in the output, each row whose rank changes is updated
  (``-U``/``+U``); without it, the row leaving the Top-N is deleted and the new one inserted.
  :class:`RetractTopNProcessor` is Flink's ``RetractableTopNFunction`` for an updating input: it
  keeps every live row, so a retracted row's place is taken by the next one.
  :class:`UpsertTopNProcessor` is Flink's ``UpdatableTopNFunction``, for an aggregation whose sort
  keys only move up: each new row replaces its key's row.
* :class:`NonTimeOverProcessor` is Flink's ``NonTime{Rows,Range}UnboundedPrecedingFunction``: an
  UNBOUNDED PRECEDING over window ordered by a column that is no time attribute, whose later rows'
  aggregates change when a row sorts before them (``-U``/``+U``).

The state of a join and a Top-N is one pickled value per key; the over window's is one map entry
per row (see :class:`NonTimeOverProcessor`). The bridge hands each row over as JSON text, which the
processors keep and emit unchanged (Top-N compares its sort-key columns only).
"""

from __future__ import annotations

import decimal
import json
import math
import pickle
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import numpy
from pyspark.sql.streaming.stateful_processor import StatefulProcessor
from pyspark.sql.types import BinaryType, LongType, StructField, StructType, _parse_datatype_json_string

from pyflink_table import _protocol
from pyflink_table._worker import lifecycle
from pyflink_table._worker.scalar import UserFunctionError
from pyflink_table._worker.stream_windows import _RunningBuiltin

_BLOB = StructType([StructField("state", BinaryType())])
_ARRIVAL = StructType([StructField("arrival", LongType())])
_OVER_META = StructType([StructField("next", LongType()), StructField("last", BinaryType()),
                         StructField("tail", BinaryType())])

Change = Tuple[str, Tuple[Any, ...]]


def _values(chunk: Any) -> List[Tuple[Any, ...]]:
    """The chunk's rows as tuples, SQL NULL (NaN/NaT in pandas) as None."""
    plain = chunk.astype(object).where(chunk.notna(), None)
    return [tuple(r) for r in plain.itertuples(index=False, name=None)]


def _frame(changes: List[Change], output: Any) -> Iterator[Any]:
    import pandas as pd

    if not changes:
        return iter([])
    names = [f.name for f in output.fields]
    data = {n: pd.Series([values[i] for _, values in changes], dtype=object) for i, n in enumerate(names[:-1])}
    data[names[-1]] = pd.Series([op for op, _ in changes], dtype=object)
    return iter([pd.DataFrame(data, columns=names)])


def compare_sort_keys(a: Tuple[Any, ...], b: Tuple[Any, ...], order: List[Tuple[bool, bool]]) -> int:
    """-1, 0 or 1 as sort key ``a`` comes before, ties with or comes after ``b`` under ``order``
    ((ascending, nulls first) per key; a NULL is None)."""
    for x, y, (ascending, nulls_first) in zip(a, b, order):
        if x is None or y is None:
            if x is None and y is None:
                continue
            return (-1 if nulls_first else 1) if x is None else (1 if nulls_first else -1)
        if x == y:
            continue
        c = -1 if x < y else 1
        return c if ascending else -c
    return 0


class _KeyedState(StatefulProcessor):
    """One pickled Python object per key; with ``ttl_ms``, Spark drops it once not written for that long."""

    ttl_ms = 0

    def init(self, handle: Any) -> None:
        lifecycle.prepare_task()
        self.state = handle.getValueState("state", _BLOB, self.ttl_ms or None)

    def load(self, default: Any) -> Any:
        stored = self.state.get() if self.state.exists() else None
        return pickle.loads(stored[0]) if stored is not None else default

    def save(self, value: Any) -> None:
        self.state.update((pickle.dumps(value, protocol=5),))

    def close(self) -> None:
        pass


class JoinProcessor(_KeyedState):
    """A regular (unbounded) equi-join of two changelogs; see the module docstring.

    Input columns: the join keys, the side (0 left, 1 right), the row (JSON text), the change kind.
    Output: the left row, the right row (null for a padded side), the change kind.
    """

    def __init__(self, keys: int, left_outer: bool, right_outer: bool, output: Any,
                 residual: Optional[List[Any]] = None, ttl_ms: int = 0) -> None:
        self.keys = keys
        self.outer = (left_outer, right_outer)
        self.output = output
        self.residual = residual or []
        self.ttl_ms = ttl_ms

    def _matches(self, side: int, mine: str, entry: str) -> bool:
        """Whether the rest of the condition (beyond the key equalities) holds for the pair."""
        if not self.residual:
            return True
        rows = (json.loads(mine), json.loads(entry)) if side == 0 else (json.loads(entry), json.loads(mine))
        return all(_evaluate(c, rows) is True for c in self.residual)

    @staticmethod
    def _row(side: int, mine: str, other: Optional[str]) -> Tuple[Any, ...]:
        return (mine, other) if side == 0 else (other, mine)

    def handleInputRows(self, key: Any, rows: Iterator[Any], timerValues: Any) -> Iterator[Any]:
        null_key = any(k is None for k in key)
        # Per side, [row, number of other-side rows it matches, time it was last written] in arrival
        # order. With a state TTL, as Flink's join state: a row not written for the TTL is gone; a row
        # is written when stored (an equal row stored again writes it too) and, on an outer side, when
        # its match count changes.
        sides: List[List[List[Any]]] = [[], []] if null_key else self.load([[], []])
        now = timerValues.getCurrentProcessingTimeInMs() if self.ttl_ms else 0
        if self.ttl_ms:
            sides = [[e for e in stored if len(e) < 3 or e[2] + self.ttl_ms > now] for stored in sides]
        changes: List[Change] = []
        for chunk in rows:
            for r in _values(chunk):
                side, mine, kind = int(r[self.keys]), r[self.keys + 1], r[self.keys + 2]
                others = [] if null_key else [e for e in sides[1 - side] if self._matches(side, mine, e[0])]
                if kind in ("+I", "+U"):
                    self._accumulate(side, mine, kind, others, changes)
                    if not null_key:
                        if self.ttl_ms:
                            for entry in sides[side]:
                                if entry[0] == mine and len(entry) > 2:
                                    entry[2] = now
                        sides[side].append([mine, len(others), now])
                else:
                    if not null_key:
                        stored = next((e for e in sides[side] if e[0] == mine), None)
                        if stored is not None:
                            sides[side].remove(stored)
                    self._retract(side, mine, kind, others, changes)
                if self.ttl_ms and self.outer[1 - side]:
                    for entry in others:
                        if len(entry) > 2:
                            entry[2] = now
        if not null_key:
            self.save(sides)
        return _frame(changes, self.output)

    def _accumulate(self, side: int, mine: str, kind: str, others: List[List[Any]], changes: List[Change]) -> None:
        # Flink's StreamingJoinOperator: a join with an outer side inserts (and deletes a padded
        # row of the other side at its first match); an inner join forwards the input's kind.
        if not others:
            if self.outer[side]:
                changes.append(("+I", self._row(side, mine, None)))
            return
        if self.outer[1 - side]:
            for entry in others:
                if entry[1] == 0:
                    changes.append(("-D", self._row(1 - side, entry[0], None)))
                entry[1] += 1
        out = "+I" if self.outer[side] or self.outer[1 - side] else kind
        for entry in others:
            changes.append((out, self._row(side, mine, entry[0])))

    def _retract(self, side: int, mine: str, kind: str, others: List[List[Any]], changes: List[Change]) -> None:
        # A retracted row of an outer side is deleted; otherwise its kind (-U/-D) is forwarded. An
        # outer row of the other side that loses its last match is inserted again padded.
        if not others:
            if self.outer[side]:
                changes.append(("-D", self._row(side, mine, None)))
            return
        out = "-D" if self.outer[side] else kind
        for entry in others:
            changes.append((out, self._row(side, mine, entry[0])))
            if self.outer[1 - side]:
                if entry[1] == 1:
                    changes.append(("+I", self._row(1 - side, entry[0], None)))
                entry[1] -= 1


class TopNProcessor(_KeyedState):
    """Top-N (ROW_NUMBER() ... WHERE rn <= N, or ranks ``start`` to N) of one partition of an
    insert-only stream.

    Input columns: the partition keys, the sort keys, the row (JSON text). Output: the row, its row
    number (null unless ``row_number`` is set), the change kind.
    """

    def __init__(self, keys: int, order: List[Tuple[bool, bool]], limit: int, row_number: bool, output: Any,
                 start: int = 1) -> None:
        self.keys = keys
        self.order = order  # (ascending, nulls first) per sort key
        self.start = start
        self.limit = limit
        self.row_number = row_number
        self.output = output

    def _cmp(self, a: Tuple[Any, ...], b: Tuple[Any, ...]) -> int:
        return compare_sort_keys(a, b, self.order)

    def handleInputRows(self, key: Any, rows: Iterator[Any], timerValues: Any) -> Iterator[Any]:
        buffer: List[List[Any]] = self.load([])  # [[sort key, [rows...]], ...] best first
        changes: List[Change] = []
        n = len(self.order)
        for chunk in rows:
            for r in _values(chunk):
                sort_key, row = r[self.keys:self.keys + n], r[self.keys + n]
                if self.limit == 1 and self.start == 1:
                    self._top1(buffer, sort_key, row, changes)
                else:
                    self._top_n(buffer, sort_key, row, changes)
        self.save(buffer)
        return _frame(changes, self.output)

    def _change(self, changes: List[Change], op: str, row: str, rank: int) -> None:
        changes.append((op, (row, rank if self.row_number else None)))

    def _top1(self, buffer: List[List[Any]], sort_key: Tuple[Any, ...], row: str,
              changes: List[Change]) -> None:
        # Flink's FastTop1Function: the partition key is the result's key, so a better row updates.
        if not buffer:
            buffer.append([sort_key, [row]])
            self._change(changes, "+I", row, 1)
        elif self._cmp(sort_key, buffer[0][0]) < 0:
            self._change(changes, "-U", buffer[0][1][0], 1)
            self._change(changes, "+U", row, 1)
            buffer[0] = [sort_key, [row]]

    def _top_n(self, buffer: List[List[Any]], sort_key: Tuple[Any, ...], row: str,
               changes: List[Change]) -> None:
        size = sum(len(rows) for _, rows in buffer)
        if buffer and self._cmp(sort_key, buffer[-1][0]) >= 0 and size >= self.limit:
            return  # not better than the worst of a full Top-N
        position = len(buffer)
        for i, (k, rows) in enumerate(buffer):
            c = self._cmp(sort_key, k)
            if c == 0:
                rows.append(row)
                position = -1
                break
            if c < 0:
                position = i
                break
        if position >= 0:
            buffer.insert(position, [sort_key, [row]])
        if self.row_number or self.start > 1:
            # Flink's AppendOnlyTopNFunction updates rank by rank with an offset too, row number or not.
            self._with_row_number(buffer, sort_key, row, changes)
        else:
            self._without_row_number(buffer, row, changes, size + 1)

    def _with_row_number(self, buffer: List[List[Any]], sort_key: Tuple[Any, ...], row: str,
                         changes: List[Change]) -> None:
        # Every row from the new one's rank down to N moves one rank down; the ranks before the
        # range's start change silently.
        rank, found, current, i = 0, False, row, 0
        while i < len(buffer) and rank <= self.limit:
            k, rows = buffer[i]
            if not found and self._cmp(k, sort_key) == 0:
                rank += len(rows)
                found = True
            elif found:
                j = 0
                while j < len(rows) and rank <= self.limit:
                    previous = rows[j]
                    if rank >= self.start:
                        self._change(changes, "-U", previous, rank)
                        self._change(changes, "+U", current, rank)
                    current, rank, j = previous, rank + 1, j + 1
            else:
                rank += len(rows)
            i += 1
        if self.start <= rank <= self.limit:
            self._change(changes, "+I", current, rank)
        del buffer[i:]

    def _without_row_number(self, buffer: List[List[Any]], row: str, changes: List[Change],
                            size: int) -> None:
        if size > self.limit:
            rows = buffer[-1][1]
            last = rows.pop()
            if not rows:
                buffer.pop()
            if last == row:
                return
            self._change(changes, "-D", last, 0)
        self._change(changes, "+I", row, 0)


class RetractTopNProcessor(TopNProcessor):
    """Top-N of one partition of a changelog (an updating input), as Flink's
    ``RetractableTopNFunction``: every live row of the partition is kept (a retraction may bring a
    row back into the Top-N), in sort order, rows with equal sort keys in arrival order.

    Input columns: the partition keys, the sort keys, the row (JSON text), the change kind.
    """

    def handleInputRows(self, key: Any, rows: Iterator[Any], timerValues: Any) -> Iterator[Any]:
        buffer: List[List[Any]] = self.load([])  # [[sort key, [rows...]], ...] best first, all live rows
        changes: List[Change] = []
        n = len(self.order)
        for chunk in rows:
            for r in _values(chunk):
                sort_key, row, kind = r[self.keys:self.keys + n], r[self.keys + n], r[self.keys + n + 1]
                if kind in ("+I", "+U"):
                    self._accumulate(buffer, sort_key, row, changes)
                else:
                    self._retract(buffer, sort_key, row, changes)
        self.save(buffer)
        return _frame(changes, self.output)

    def _entry(self, buffer: List[List[Any]], sort_key: Tuple[Any, ...], create: bool) -> int:
        """The index of the sort key's entry (inserted in order when ``create``), or -1."""
        for i, (k, _) in enumerate(buffer):
            c = self._cmp(sort_key, k)
            if c == 0:
                return i
            if c < 0:
                if create:
                    buffer.insert(i, [sort_key, []])
                    return i
                return -1
        if create:
            buffer.append([sort_key, []])
            return len(buffer) - 1
        return -1

    def _accumulate(self, buffer: List[List[Any]], sort_key: Tuple[Any, ...], row: str,
                    changes: List[Change]) -> None:
        at = self._entry(buffer, sort_key, True)
        buffer[at][1].append(row)  # after the rows with an equal sort key
        ranked = [r for _, rows in buffer for r in rows]
        rank = sum(len(rows) for _, rows in buffer[:at + 1])
        limit = self.limit
        if rank > limit:
            return
        if self.row_number:
            # Every row after the new one, up to rank N, moves down one rank.
            current = row
            while rank < len(ranked) and rank <= limit:
                self._change(changes, "-U", ranked[rank], rank)
                self._change(changes, "+U", current, rank)
                current, rank = ranked[rank], rank + 1
            if rank <= limit:
                self._change(changes, "+I", current, rank)
        else:
            if len(ranked) > limit:
                self._change(changes, "-D", ranked[limit], 0)  # pushed from rank N to N+1
            self._change(changes, "+I", row, 0)

    def _retract(self, buffer: List[List[Any]], sort_key: Tuple[Any, ...], row: str,
                 changes: List[Change]) -> None:
        at = self._entry(buffer, sort_key, False)
        if at < 0 or row not in buffer[at][1]:
            return  # a row that is not live: Flink logs it and emits nothing
        rank = sum(len(rows) for _, rows in buffer[:at]) + buffer[at][1].index(row) + 1
        buffer[at][1].remove(row)
        if not buffer[at][1]:
            del buffer[at]
        ranked = [r for _, rows in buffer for r in rows]  # without the retracted row
        limit = self.limit
        if rank > limit:
            return
        if self.row_number:
            # Every row after it, up to rank N, moves up one rank; an emptied last rank is deleted.
            previous = row
            while rank <= limit and rank <= len(ranked):
                self._change(changes, "-U", previous, rank)
                self._change(changes, "+U", ranked[rank - 1], rank)
                previous, rank = ranked[rank - 1], rank + 1
            if rank <= limit:
                self._change(changes, "-D", previous, rank)
        else:
            self._change(changes, "-D", row, 0)
            if len(ranked) >= limit:
                self._change(changes, "+I", ranked[limit - 1], 0)  # moved up from rank N+1 to N


class UpsertTopNProcessor(RetractTopNProcessor):
    """Top-N of one partition of an aggregation's updates whose sort keys only move up, as Flink's
    ``UpdatableTopNFunction``: each ``+I``/``+U`` row replaces the row of its unique key (the
    aggregation's group key), ``-U`` rows are not needed, and the changes are the Top-N's changes
    rank by rank (with the row number) or row by row (without it).

    Input columns: the partition keys, the sort keys, the unique key (JSON text), the row (JSON
    text), the change kind.
    """

    def handleInputRows(self, key: Any, rows: Iterator[Any], timerValues: Any) -> Iterator[Any]:
        # [[sort key, [[unique key, row], ...]], ...] best first; a row with an improved sort key
        # goes after the rows already holding that sort key.
        buffer: List[List[Any]] = self.load([])
        changes: List[Change] = []
        n = len(self.order)
        for chunk in rows:
            for r in _values(chunk):
                sort_key, unique, row, kind = (r[self.keys:self.keys + n], r[self.keys + n], r[self.keys + n + 1],
                                               r[self.keys + n + 2])
                if kind in ("+I", "+U"):
                    self._upsert(buffer, sort_key, unique, row, changes)
        self.save(buffer)
        return _frame(changes, self.output)

    def _top(self, buffer: List[List[Any]]) -> List[List[Any]]:
        return [list(e) for _, entries in buffer for e in entries][:self.limit]

    def _upsert(self, buffer: List[List[Any]], sort_key: Tuple[Any, ...], unique: str, row: str,
                changes: List[Change]) -> None:
        before = self._top(buffer)
        placed = False
        for i, (k, entries) in enumerate(buffer):
            for entry in entries:
                if entry[0] != unique:
                    continue
                if self._cmp(sort_key, k) == 0:
                    entry[1] = row  # same sort key: the row keeps its place
                    placed = True
                else:
                    entries.remove(entry)
                    if not entries:
                        del buffer[i]
                break
            else:
                continue
            break
        if not placed:
            at = self._entry(buffer, sort_key, True)
            buffer[at][1].append([unique, row])
        after = self._top(buffer)
        if self.row_number or self.limit == 1:
            # Rank by rank (a Top-1 without it is Flink's FastTop1Function: the same -U/+U).
            for rank in range(1, self.limit + 1):
                old = before[rank - 1] if rank <= len(before) else None
                new = after[rank - 1] if rank <= len(after) else None
                if old == new:
                    continue
                if old is not None and new is not None:
                    self._change(changes, "-U", old[1], rank)
                    self._change(changes, "+U", new[1], rank)
                elif new is not None:
                    self._change(changes, "+I", new[1], rank)
                elif old is not None:
                    self._change(changes, "-D", old[1], rank)
            return
        previous = next((e for e in before if e[0] == unique), None)
        if previous is not None:
            self._change(changes, "-U", previous[1], 0)
            self._change(changes, "+U", row, 0)
        elif any(e[0] == unique for e in after):
            for e in before:
                if e not in after:
                    self._change(changes, "-D", e[1], 0)  # pushed out of the Top-N
            self._change(changes, "+I", row, 0)


class _NonTimeOver:
    """An UNBOUNDED PRECEDING over window ordered by a non-time column, as Flink's
    ``NonTimeRowsUnboundedPrecedingFunction`` and ``NonTimeRangeUnboundedPrecedingFunction``: the
    changes one new row of a key makes (:meth:`add`), for the streaming processor and for bounded
    input alike.

    The key's rows are kept sorted by the order column (a new row after its equal ones), each with
    the aggregates last emitted for it. A new row is emitted with ``+I`` and its aggregates (ROWS:
    over the rows up to itself; RANGE: up to its last peer); then each row after it whose aggregates
    changed gets ``-U`` old / ``+U`` new, in order, up to the first unchanged one (the aggregates
    are running ones, so the rest cannot have changed; Flink stops there too). In a RANGE frame the
    new row's earlier peers are updated first, then the new row is inserted.
    """

    def __init__(self, keys: int, nulls_first: bool, rows_frame: bool, aggregates: List[Dict[str, Any]]) -> None:
        self.keys = keys
        self.nulls_first = nulls_first
        self.rows_frame = rows_frame
        self.aggregates = aggregates

    def _after(self, a: Any, b: Any) -> bool:
        """Whether order key ``a`` sorts strictly after ``b`` (ascending, nulls as the window puts them)."""
        if a is None or b is None:
            if a is None and b is None:
                return False
            return (b is None) == self.nulls_first
        return bool(a > b)

    def _running(self, entries: List[List[Any]]) -> Tuple[List[Tuple[Any, ...]], List[_RunningBuiltin]]:
        """The aggregates of each entry: over the rows up to it (ROWS) or up to its last peer (RANGE);
        and the accumulators over all of them."""
        running = [_RunningBuiltin(spec) for spec in self.aggregates]
        out: List[Tuple[Any, ...]] = []
        for entry in entries:
            for aggregate, value in zip(running, entry[1]):
                aggregate.add(value)
            out.append(tuple(a.value() for a in running))
        if not self.rows_frame:
            # A peer group shares the aggregates of its last row.
            for i in range(len(entries) - 2, -1, -1):
                if not self._after(entries[i + 1][0], entries[i][0]):
                    out[i] = out[i + 1]
        return out, running

    def _text(self, values: Tuple[Any, ...]) -> str:
        return json.dumps({"r%d" % j: v for j, v in enumerate(values)})

    def arguments(self, args_text: str) -> List[Any]:
        """The aggregates' arguments of a row, from their JSON text ``{"a0": ..., ...}``."""
        parsed = json.loads(args_text)
        return [parsed.get("a%d" % j) for j in range(len(self.aggregates))]

    def appends(self, last: Any, sort_key: Any) -> bool:
        """Whether a row ordered by ``sort_key`` goes after every row of a key whose greatest order
        key is ``last`` without changing any of them (in a RANGE frame: sorts strictly after)."""
        return not self._after(last, sort_key) and (self.rows_frame or self._after(sort_key, last))

    def append(self, tail: List[_RunningBuiltin], sort_key: Any, args: List[Any], row: str,
               changes: List[Change]) -> List[Any]:
        """The entry of a row that :meth:`appends`: its aggregates are the ``tail``'s with it added
        (constant time, and no other row is read)."""
        for aggregate, value in zip(tail, args):
            aggregate.add(value)
        entry = [sort_key, args, row, tuple(a.value() for a in tail)]
        changes.append(("+I", (row, self._text(entry[3]))))
        return entry

    def add(self, state: List[Any], sort_key: Any, args: List[Any], row: str, changes: List[Change],
            updated: Optional[List[List[Any]]] = None) -> List[Any]:
        """Insert a new row into the key's ``state``, append the changes it makes to ``changes`` and
        the earlier entries whose aggregates changed to ``updated``; return the row's entry.

        ``state`` is ``[entries, tail]``: the rows sorted (``[[order key, args, row, emitted
        aggregates, ...], ...]``) and the accumulators over all of them (None until first computed).
        A row that sorts after every other one (:meth:`appends`) changes no earlier row, so rows
        arriving in order cost constant time each instead of a pass over the key's rows."""
        entries, tail = state
        if tail is not None and entries and self.appends(entries[-1][0], sort_key):
            entry = self.append(tail, sort_key, args, row, changes)
            entries.append(entry)
            return entry
        position = len(entries)
        while position > 0 and self._after(entries[position - 1][0], sort_key):
            position -= 1
        entry = [sort_key, args, row, None]
        entries.insert(position, entry)
        current, state[1] = self._running(entries)
        first = position
        if not self.rows_frame:
            while first > 0 and not self._after(sort_key, entries[first - 1][0]):
                first -= 1
        for i in range(first, position):  # earlier peers (RANGE)
            if self._update(entries[i], current[i], changes) and updated is not None:
                updated.append(entries[i])
        entry[3] = current[position]
        changes.append(("+I", (row, self._text(current[position]))))
        for i in range(position + 1, len(entries)):
            if not self._update(entries[i], current[i], changes):
                break
            if updated is not None:
                updated.append(entries[i])
        return entry

    def _update(self, entry: List[Any], values: Tuple[Any, ...], changes: List[Change]) -> bool:
        """``-U``/``+U`` for ``entry`` if its aggregates changed to ``values``; whether they did."""
        if entry[3] == values:
            return False
        changes.append(("-U", (entry[2], self._text(entry[3]))))
        changes.append(("+U", (entry[2], self._text(values))))
        entry[3] = values
        return True


class NonTimeOverProcessor(StatefulProcessor):
    """:class:`_NonTimeOver` over an unbounded stream, the key's sorted rows its state.

    Input columns: the partition keys, the order key, the aggregates' arguments (JSON text), the
    row (JSON text). Output: the row, the aggregates (JSON text ``{"r0": ...}``), the change kind.

    Each row is one map state entry (its arrival number -> its entry), written when it arrives and
    again only when its emitted aggregates change; a value state holds the next arrival number, the
    greatest order key and the accumulators over all rows. A micro-batch whose rows all sort after
    the key's rows (:meth:`_NonTimeOver.appends`) reads none of them; any other row reads them all
    (ordered by order key, then arrival: a new row goes after its equal ones) and writes back the
    ones whose aggregates changed.
    """

    def __init__(self, over: _NonTimeOver, output: Any) -> None:
        self.over = over
        self.output = output

    def init(self, handle: Any) -> None:
        lifecycle.prepare_task()
        self.meta = handle.getValueState("over", _OVER_META)
        self.rows = handle.getMapState("rows", _ARRIVAL, _BLOB)

    def _entries(self) -> List[List[Any]]:
        """The key's entries, each with its arrival number last, in the window's order."""
        from functools import cmp_to_key

        entries = [pickle.loads(value[0]) + [k[0]] for k, value in self.rows.iterator()]

        def order(a: List[Any], b: List[Any]) -> int:
            if self.over._after(a[0], b[0]):
                return 1
            if self.over._after(b[0], a[0]):
                return -1
            return -1 if a[4] < b[4] else int(a[4] > b[4])

        entries.sort(key=cmp_to_key(order))
        return entries

    def handleInputRows(self, key: Any, rows: Iterator[Any], timerValues: Any) -> Iterator[Any]:
        stored = self.meta.get()
        arrival, last, tail = (0, None, None) if stored is None else (
            stored[0], pickle.loads(stored[1]), pickle.loads(stored[2]))
        state: Optional[List[Any]] = None  # [entries, tail] once the entries are read (see _NonTimeOver.add)
        written: Dict[int, List[Any]] = {}
        changes: List[Change] = []
        n = self.over.keys
        for chunk in rows:
            for r in _values(chunk):
                sort_key, args = r[n], self.over.arguments(r[n + 1])
                if state is None and tail is not None and self.over.appends(last, sort_key):
                    entry = self.over.append(tail, sort_key, args, r[n + 2], changes)
                    last = sort_key
                else:
                    if state is None:
                        # The stored rows, then this micro-batch's so far (they were appended in order).
                        state = [(self._entries() if stored is not None else []) + list(written.values()), tail]
                    updated: List[List[Any]] = []
                    entry = self.over.add(state, sort_key, args, r[n + 2], changes, updated)
                    written.update((e[4], e) for e in updated)
                entry.append(arrival)
                written[arrival] = entry
                arrival += 1
        if state is not None:
            last, tail = state[0][-1][0], state[1]
        for number, entry in written.items():
            self.rows.updateValue((number,), (pickle.dumps(entry[:4], protocol=5),))
        self.meta.update((arrival, pickle.dumps(last, protocol=5), pickle.dumps(tail, protocol=5)))
        return _frame(changes, self.output)

    def close(self) -> None:
        pass


class BoundedNonTimeOver:
    """:class:`_NonTimeOver` over bounded input (``mapInArrow``), the rows sorted by key and then
    arrival: columns the partition keys, the order key, ``args``, ``row`` and ``pos`` (arrival
    position); emits ``row``, ``values``, ``op``, ``pos`` (of the row that made the change) and
    ``sub`` (order among that row's changes), as a bounded stream gives them to Flink's operator."""

    def __init__(self, over: _NonTimeOver) -> None:
        self.over = over

    def __call__(self, batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        lifecycle.prepare_task()
        schema = pa.schema([("row", pa.string()), ("values", pa.string()), ("op", pa.string()),
                            ("pos", pa.int64()), ("sub", pa.int32())])
        n = self.over.keys
        current: Any = object()
        state: List[Any] = [[], None]
        out: Dict[str, List[Any]] = {name: [] for name in schema.names}
        for batch in batches:
            columns = batch.to_pydict()
            names = batch.schema.names
            key_columns = [columns[names[i]] for i in range(n)]
            for i, (sort_key, args, row, pos) in enumerate(zip(columns[names[n]], columns["args"], columns["row"],
                                                               columns["pos"])):
                key = tuple(c[i] for c in key_columns)
                if key != current:
                    current, state = key, [[], None]
                changes: List[Change] = []
                self.over.add(state, sort_key, self.over.arguments(args), row, changes)
                for sub, (op, (text, values)) in enumerate(changes):
                    out["row"].append(text)
                    out["values"].append(values)
                    out["op"].append(op)
                    out["pos"].append(pos)
                    out["sub"].append(sub)
            if len(out["op"]) >= 10_000:
                yield pa.RecordBatch.from_pydict(out, schema=schema)
                out = {name: [] for name in schema.names}
        if out["op"]:
            yield pa.RecordBatch.from_pydict(out, schema=schema)


_ARITHMETIC = ("+", "-", "*", "/", "%", "neg", "abs", "cast")
#: Bits of Spark's integer types: their arithmetic wraps around as Java's (and Flink's) does.
_BITS = {"byte": 8, "short": 16, "integer": 32, "long": 64}
#: Exact decimal arithmetic (a DECIMAL(38) product has 76 digits) and Flink's division: to 38
#: significant digits, rounded half up (``DecimalDataUtils.divide``'s ``MathContext``).
_EXACT = decimal.Context(prec=200, rounding=decimal.ROUND_HALF_UP, Emin=-999999, Emax=999999)
_DIVISION = decimal.Context(prec=38, rounding=decimal.ROUND_HALF_UP, Emin=-999999, Emax=999999)


def _decimal(value: decimal.Decimal, precision: int, scale: int) -> Optional[decimal.Decimal]:
    """``value`` as DECIMAL(precision, scale): rounded half up, None when it has too many digits
    (Flink's ``DecimalData.fromBigDecimal``)."""
    rounded = value.quantize(decimal.Decimal(1).scaleb(-scale), context=_EXACT)
    return None if len(rounded.as_tuple().digits) > precision and rounded != 0 else rounded


def _arithmetic(node: Dict[str, Any], a: Any, b: Any) -> Any:
    """``a op b`` (``neg``, ``abs``, ``cast``: of ``a``) of the node's type, None when an operand is."""
    op, type_name = node["op"], node["type"]
    if a is None or (op in ("+", "-", "*", "/", "%") and b is None):
        return None
    if type_name == "decimal":
        a, b = decimal.Decimal(a), (None if b is None else decimal.Decimal(b))
        if op == "/":
            if b == 0:
                raise _division_by_zero("Division by zero")
            value = _DIVISION.divide(a, b)
        else:
            value = (_EXACT.minus(a) if op == "neg" else _EXACT.abs(a) if op == "abs" else a if op == "cast"
                     else _EXACT.add(a, b) if op == "+" else _EXACT.subtract(a, b) if op == "-"
                     else _EXACT.multiply(a, b))
        return _decimal(value, int(node["precision"]), int(node["scale"]))
    bits = _BITS.get(type_name)
    if type_name == "float":  # FLOAT: a double's result rounded once is the float's (53 >= 2 * 24 + 2 bits)
        return _float32(a if op == "cast" else _arithmetic(dict(node, type="double"), a, b))
    if op == "cast" and bits is None:
        return float(a)  # a decimal or BIGINT as DOUBLE (correctly rounded, as Java's)
    if op == "cast":
        value = a  # an integer narrowed, wrapping around below
    elif op == "/":
        if bits is None:
            return _double_division(float(a), float(b))
        if b == 0:
            raise _division_by_zero("/ by zero")
        value = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)  # truncated toward zero
    elif op == "%":
        if b == 0:
            raise _division_by_zero("/ by zero")
        value = abs(a) % abs(b) * (1 if a >= 0 else -1)  # Java's remainder: the dividend's sign
    else:
        value = -a if op == "neg" else abs(a) if op == "abs" else a + b if op == "+" else a - b if op == "-" else a * b
    if bits is None:
        return float(value)
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >= 1 << (bits - 1) else value


def _float32(value: Any) -> float:
    """``value`` as the nearest FLOAT (float32), as Java's ``(float)`` cast: an integer rounded once
    (half to even), beyond the float's range infinite."""
    if isinstance(value, int) and abs(value) >= 1 << 24:
        n = abs(value)
        shift = n.bit_length() - 24
        q, r = divmod(n, 1 << shift)
        half = 1 << (shift - 1)
        q += 1 if r > half or (r == half and q & 1) else 0
        value = (q << shift) * (1 if value >= 0 else -1)
    with numpy.errstate(over="ignore"):
        return float(numpy.float32(float(value)))


def _division_by_zero(java_message: str) -> UserFunctionError:
    """Flink's job fails on an integer or decimal division by zero with Java's exception; the
    driver reports the failure from its marker on, without Spark's text around it."""
    return UserFunctionError(f"java.lang.ArithmeticException: {java_message} (in the join condition)")


def _double_division(a: float, b: float) -> float:
    """Java's double division: by zero it is infinite (NaN for 0/0 and NaN)."""
    if b != 0 or math.isnan(b):
        return a / b
    if a == 0 or math.isnan(a):
        return math.nan
    return math.inf if (a > 0) == (math.copysign(1.0, b) > 0) else -math.inf


#: String functions of a string (and a trim's characters, spaces if not given). UPPER and LOWER map
#: characters as Java's String.toUpperCase/toLowerCase do (full case mapping: ß is SS); CHAR_LENGTH
#: counts characters (code points, as Flink's numChars).
_STRING_FUNCTIONS: Dict[str, Callable[[str, str], Any]] = {
    "upper": lambda s, _: s.upper(), "lower": lambda s, _: s.lower(), "char_length": lambda s, _: len(s),
    "trim": lambda s, chars: s.strip(chars), "ltrim": lambda s, chars: s.lstrip(chars),
    "rtrim": lambda s, chars: s.rstrip(chars)}
_TIMESTAMP_UNITS = ("timestampdiff", "timestampadd")


def _timestamp_unit(op: str, unit_ms: int, a: Any, b: Any) -> Optional[int]:
    """Flink's TIMESTAMPDIFF(unit, a, b) of two timestamps' microseconds: their milliseconds' (as
    Flink reads them, floored) difference divided by the unit's, truncated toward zero; or
    TIMESTAMPADD(unit, a, b): timestamp ``b`` plus ``a`` units. None when an operand is."""
    if a is None or b is None:
        return None
    if op == "timestampadd":
        return int(b) + int(a) * unit_ms * 1000
    millis = int(b) // 1000 - int(a) // 1000
    return abs(millis) // unit_ms * (1 if millis >= 0 else -1)


def _evaluate(node: Any, rows: Tuple[Any, Any]) -> Any:
    """A join condition tree of the bridge's ``JoinResidual`` over (left row, right row), as SQL
    evaluates it: None is unknown. A date is its day number, a timestamp its microseconds, a decimal
    its text (made a ``Decimal`` here), a double a JSON number or text (``"NaN"``)."""
    if "col" in node or "lit" in node:
        if "lit" in node:
            value = node["lit"]
        else:
            side, index = node["col"]
            value = rows[side].get("c%d" % index)
        if value is None or "type" not in node:
            return value
        if node["type"] == "decimal":
            return decimal.Decimal(value)
        return _float32(float(value)) if node["type"] == "float" else float(value)  # float("NaN") too
    op, args = node["op"], node["args"]
    if op in ("and", "or"):
        # Left to right, stopping at the deciding value as Flink's generated code does (so a division
        # by zero after a false AND operand does not fail).
        decisive = op == "or"  # True decides OR, False decides AND
        unknown = False
        for a in args:
            value = _evaluate(a, rows)
            if value is decisive:
                return decisive
            unknown |= value is None
        return None if unknown else not decisive
    if op == "concat":
        parts = [_evaluate(a, rows) for a in args]
        return None if None in parts else "".join(parts)
    if op == "case":
        # [condition, value, ..., else] (IF too): the first TRUE condition's value, only it evaluated.
        for i in range(0, len(args) - 1, 2):
            if _evaluate(args[i], rows) is True:
                return _evaluate(args[i + 1], rows)
        return _evaluate(args[-1], rows)
    if op == "coalesce":
        for a in args:
            value = _evaluate(a, rows)
            if value is not None:
                return value
        return None
    if op in _TIMESTAMP_UNITS:
        return _timestamp_unit(op, int(node["unit_ms"]), _evaluate(args[0], rows), _evaluate(args[1], rows))
    value = _evaluate(args[0], rows)
    if op in _STRING_FUNCTIONS:
        chars = _evaluate(args[1], rows) if len(args) > 1 else " "
        return None if value is None or chars is None else _STRING_FUNCTIONS[op](value, chars)
    if op in _ARITHMETIC:
        return _arithmetic(node, value, _evaluate(args[1], rows) if len(args) > 1 else None)
    if op == "not":
        return None if value is None else not value
    if op == "is_null":
        return value is None
    if op == "is_not_null":
        return value is not None
    other = _evaluate(args[1], rows)
    if value is None or other is None:
        return None
    if op == "=":
        return bool(value == other)
    if op == "<":
        return bool(value < other)
    if op == "<=":
        return bool(value <= other)
    if op == ">":
        return bool(value > other)
    return bool(value >= other)


def stream_join(layout: str) -> Tuple[Any, Any]:
    """The command Spark's Python worker runs for a join: (function, output type).

    :param layout: JSON ``{"keys": n, "left_outer": bool, "right_outer": bool, "output": the output
        struct type as Spark's JSON text, "residual": the condition's trees beyond the key equalities}``.
    """
    spec = json.loads(layout)
    output = _parse_datatype_json_string(spec["output"])
    ttl = int(spec.get(_protocol.LAYOUT_STATE_TTL_MS) or 0)
    processor = JoinProcessor(int(spec["keys"]), bool(spec["left_outer"]), bool(spec["right_outer"]), output,
                              list(spec.get("residual") or []), ttl)
    return _udf(processor, ttl), output


def stream_top_n(layout: str) -> Tuple[Any, Any]:
    """The command Spark's Python worker runs for a Top-N: (function, output type).

    :param layout: JSON ``{"keys": n, "order": [[ascending, nulls first], ...], "start": the first rank
        (1 but for an insert-only input), "limit": N,
        "row_number": bool, "input": "append" (insert-only), "retract" (a changelog, its rows with
        their kind) or "upsert" (an aggregation's changes with its unique key), "output": the output
        struct type as Spark's JSON text}``.
    """
    spec = json.loads(layout)
    output = _parse_datatype_json_string(spec["output"])
    order = [(bool(a), bool(f)) for a, f in spec["order"]]
    kind = {"retract": RetractTopNProcessor, "upsert": UpsertTopNProcessor}.get(spec.get("input"), TopNProcessor)
    processor = kind(int(spec["keys"]), order, int(spec["limit"]), bool(spec["row_number"]), output,
                     int(spec.get("start", 1)))
    return _udf(processor), output


def _non_time_over(spec: Dict[str, Any]) -> _NonTimeOver:
    return _NonTimeOver(int(spec["keys"]), bool(spec["nulls_first"]), bool(spec["rows"]), list(spec["aggregates"]))


def stream_non_time_over(layout: str) -> Tuple[Any, Any]:
    """The command Spark's Python worker runs for an over window ordered by a non-time column:
    (function, output type).

    :param layout: JSON ``{"keys": n, "nulls_first": bool, "rows": bool (a ROWS frame, else RANGE),
        "aggregates": [{"function": sum|count|min|max|avg, "distinct": bool, "integral": bool}, ...],
        "output": the output struct type as Spark's JSON text}``.
    """
    spec = json.loads(layout)
    output = _parse_datatype_json_string(spec["output"])
    return _udf(NonTimeOverProcessor(_non_time_over(spec), output)), output


def bounded_non_time_over(layout: str) -> BoundedNonTimeOver:
    """The function Spark's Python worker runs for an over window ordered by a non-time column over
    bounded input in streaming mode (``mapInArrow``); ``layout`` as :func:`stream_non_time_over`'s."""
    return BoundedNonTimeOver(_non_time_over(json.loads(layout)))


def _udf(processor: StatefulProcessor, ttl_ms: int = 0) -> Any:
    from pyspark.sql.streaming.stateful_processor_util import TransformWithStateInPandasUdfUtils

    # Spark's state TTL runs on processing time (the bridge starts the processor in that mode then).
    return TransformWithStateInPandasUdfUtils(processor, "ProcessingTime" if ttl_ms else "None").transformWithStateUDF
