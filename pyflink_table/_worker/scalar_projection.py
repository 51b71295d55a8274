"""The Python scalar functions of one projection, evaluated over Spark's ``mapInArrow``.

The bridge's optimizer rule (``ScalarProjections``) replaces Spark's ``ArrowEvalPython`` step by a
``mapInArrow`` whose input batch holds the columns the plan needs further up followed by the
functions' arguments. :class:`ScalarProjection` calls each function's own
:class:`~pyflink_table._worker.scalar.ScalarEvaluator` on its argument columns (a chained call gets
the inner call's result) and returns the passed-through columns unchanged with the results: Spark
neither queues the input rows nor joins them with the results.
"""

from __future__ import annotations

import json
import pickle
from typing import Any, Dict, Iterator, List, Tuple

from pyflink_table import _protocol


def scalar_projection(layout: str, *commands: bytes) -> "ScalarProjection":
    """The function Spark's Python worker runs (the bridge pickles a call of this function).

    :param layout: JSON ``{"passed": number of leading input columns passed through, "calls":
        [call, ...]}``, each call ``{"function": index into commands, "args": [{"column": input
        column index} or a nested call, ...]}``, in output order.
    :param commands: each function's command as PySpark pickled it: (evaluator, Spark return type).
    """
    spec = json.loads(layout)
    functions = [pickle.loads(c) for c in commands]
    return ScalarProjection(int(spec[_protocol.LAYOUT_PASSED]), list(spec[_protocol.LAYOUT_CALLS]), functions)


class ScalarProjection:
    """Evaluates the calls of one projection over each Arrow batch of a partition.

    :param passed: how many leading input columns go back unchanged.
    :param calls: the call trees, one per result column.
    :param functions: (evaluator, Spark return type) per function the trees index.
    """

    def __init__(self, passed: int, calls: List[Dict[str, Any]], functions: List[Tuple[Any, Any]]) -> None:
        self._passed = passed
        self._calls = calls
        self._evaluators = [f for f, _ in functions]
        self._return_types = [t for _, t in functions]
        self._targets: List[Any] = []

    def __call__(self, batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        if not self._targets:
            from pyspark.sql.pandas.types import to_arrow_type

            # the Arrow types Spark's scalar Arrow UDF path casts results to (UTC, as PySpark's worker does)
            self._targets = [to_arrow_type(self._return_types[c[_protocol.CALL_FUNCTION]], timezone="UTC")
                             for c in self._calls]
        passed = self._passed
        names = [f"_{i}" for i in range(passed + len(self._calls))]
        for batch in batches:
            columns = batch.columns
            out = columns[:passed]
            for call, target in zip(self._calls, self._targets):
                result = self._evaluate(call, columns)
                out.append(result if result.type == target else result.cast(target, safe=True))
            yield pa.RecordBatch.from_arrays(out, names)

    def _evaluate(self, call: Dict[str, Any], columns: List[Any]) -> Any:
        args = [columns[a[_protocol.CALL_COLUMN]] if _protocol.CALL_COLUMN in a else self._evaluate(a, columns)
                for a in call[_protocol.CALL_ARGUMENTS]]
        return self._evaluators[call[_protocol.CALL_FUNCTION]](*args)
