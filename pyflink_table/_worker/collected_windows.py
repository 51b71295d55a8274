"""Python aggregate functions over the rows Spark's streaming window aggregation collected per
fired window (the design notes' "Option B").

Each input row is one fired window of one key: the window and key columns, the window's rows as
a list of structs of the functions' arguments (``collect_list`` in Spark's native window state),
and any built-in aggregates computed beside them. A batch's collected rows are flattened once into
one Arrow array per argument, converted once (to pandas for pandas UDAFs), and each window is a
slice of them, fed to the same :class:`~pyflink_table._worker.aggregates.AggregateEvaluator` as in
batch mode. The output is the input's other columns unchanged, then one result column per function.
"""

from __future__ import annotations

import json
import pickle
from typing import Any, Iterator, List

from pyflink_table import _protocol
from pyflink_table._worker import lifecycle


def collected_window_aggregation(layout: str, *evaluators: bytes) -> "CollectedWindows":
    """The function Spark's Python worker runs over ``mapInArrow`` (the bridge pickles a call of it).

    :param layout: JSON ``{"rows": index of the collected rows' column, "arguments": [[field index
        of a collected row, ...] per evaluator], "names": [the output's column names]}``.
    :param evaluators: the pickled aggregate evaluators, in output order.
    """
    spec = json.loads(layout)
    return CollectedWindows(int(spec[_protocol.LAYOUT_ROWS]), [list(a) for a in spec[_protocol.LAYOUT_ARGUMENTS]],
                            list(spec[_protocol.LAYOUT_NAMES]), [pickle.loads(e) for e in evaluators])


class CollectedWindows:
    """Evaluates the functions once per collected window; see the module docstring.

    :param rows: the index of the input column holding each window's rows.
    :param arguments: per evaluator, the indices of its arguments among a collected row's fields.
    :param names: the output's column names (the other input columns, then the results).
    :param evaluators: one :class:`~pyflink_table._worker.aggregates.AggregateEvaluator` per function.
    """

    def __init__(self, rows: int, arguments: List[List[int]], names: List[str], evaluators: List[Any]) -> None:
        self.rows = rows
        self.arguments = arguments
        self.names = names
        self.evaluators = evaluators

    def __call__(self, batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        lifecycle.prepare_task(self.evaluators)
        for batch in batches:
            n = batch.num_rows
            if n == 0:
                continue
            collected = batch.column(self.rows)
            # The flattened rows of every window of the batch, and where each window's rows start.
            offsets = collected.offsets.to_numpy()
            starts = (offsets - offsets[0]).tolist()
            fields = collected.flatten().flatten()
            columns = [batch.column(i) for i in range(batch.num_columns) if i != self.rows]
            for evaluator, args in zip(self.evaluators, self.arguments):
                view = evaluator.view([fields[i] for i in args])
                values = []
                for w in range(n):
                    state = evaluator.begin()
                    evaluator.feed(state, view, starts[w], starts[w + 1])
                    values.append(evaluator.end(state))
                columns.append(evaluator.to_arrow(values))
            yield pa.RecordBatch.from_arrays(columns, names=self.names)
