"""DISTINCT and FILTER of Python aggregate calls: which rows of a group reach the function.

``f(DISTINCT a, b) FILTER (WHERE c)`` in SQL (``f(col('a')).distinct`` in the Table API) calls the
function with the rows whose filter is true, and of those only the first row of each distinct
argument tuple, in arrival order, as Flink's distinct aggregates do (a NULL is one value; measured
on PyFlink 2.3). The bridge computes the filter in the plan and passes it as one more argument
column after the function's own; the selection below runs on whole columns before the function
sees them, in every shape the function runs in (packed, grouped, stream windows), so the user's
function is unchanged.
"""

from __future__ import annotations

import json
import pickle
from typing import Any, Callable, List, Optional, Set, Tuple

from pyflink_table import _protocol


class _Nan:
    """The key of NaN where NaN equals NaN (pandas functions, whose NULLs are NaN too)."""

    def __hash__(self) -> int:
        return 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Nan)


_NAN = _Nan()


def _key(value: Any, nan_equal: bool) -> Any:
    """A hashable stand-in of one argument value that is equal exactly when the values are."""
    if isinstance(value, float) and value != value:
        # Flink passes every NaN to a DISTINCT aggregate (measured); pandas' NULLs are NaN as well.
        return _NAN if nan_equal else object()
    if isinstance(value, dict):
        return ("__map", frozenset((_key(k, nan_equal), _key(v, nan_equal)) for k, v in value.items()))
    if isinstance(value, (list, tuple)) or type(value).__name__ == "ndarray":
        return (type(value).__name__ == "Row", tuple(_key(v, nan_equal) for v in value))
    return value


def _python_rows(column: Any) -> List[Any]:
    """A pandas argument (Series, or DataFrame for a ROW argument) as one Python value per row."""
    if hasattr(column, "itertuples"):
        return list(column.itertuples(index=False, name=None))
    return column.tolist()  # type: ignore[no-any-return]


def select_rows(columns: List[List[Any]], mask: Optional[List[Any]], seen: Optional[Set[Any]],
                nan_equal: bool) -> List[int]:
    """Positions of the rows that reach the function: the filter true, and (with ``seen``, the
    argument tuples passed before) the first of each distinct tuple, recorded in ``seen``."""
    count = len(mask) if mask is not None else (len(columns[0]) if columns else 0)
    kept: List[int] = []
    for i in range(count):
        if mask is not None and not mask[i]:
            continue
        if seen is not None:
            key = tuple(_key(c[i], nan_equal) for c in columns)
            if key in seen:
                continue
            seen.add(key)
        kept.append(i)
    return kept


class _Selected:
    """A group's state: the function's own, and the distinct argument tuples passed so far."""

    __slots__ = ("inner", "seen")

    def __init__(self, inner: Any, seen: Optional[Set[Any]]) -> None:
        self.inner = inner
        self.seen = seen


class SelectingEvaluator:
    """An :class:`~pyflink_table._worker.aggregates.AggregateEvaluator` that passes only the
    selected rows; every other attribute is the wrapped evaluator's."""

    def __init__(self, inner: Any, distinct: bool, filtered: bool) -> None:
        self.inner = inner
        self.distinct = distinct
        self.filtered = filtered

    def __getattr__(self, name: str) -> Any:
        if name == "inner":  # unpickling: not set yet
            raise AttributeError(name)
        return getattr(self.inner, name)

    def _split(self, columns: List[Any]) -> Tuple[List[Any], Optional[Any]]:
        if self.filtered:
            return list(columns[:-1]), columns[-1]
        return list(columns), None

    def begin(self) -> Any:
        return _Selected(self.inner.begin(), set() if self.distinct else None)

    def feed(self, state: Any, view: List[Any], start: int, end: int) -> None:
        arguments, mask = self._split(view)
        if self.inner.pandas:
            part = [a.iloc[start:end] for a in arguments]
            flags = None if mask is None else mask.iloc[start:end].fillna(False).astype(bool).tolist()
            kept = select_rows([_python_rows(a) for a in part] if self.distinct else [], flags, state.seen, True)
            self.inner.feed(state.inner, [a.iloc[kept] for a in part], 0, len(kept))
            return
        part = [a[start:end] for a in arguments]
        kept = select_rows(part if self.distinct else [],
                           None if mask is None else [bool(m) for m in mask[start:end]], state.seen, False)
        self.inner.feed(state.inner, [[a[i] for i in kept] for a in part], 0, len(kept))

    def end(self, state: Any) -> Any:
        return self.inner.end(state.inner)

    def on_series(self, *series: Any) -> Any:
        return _selected_call(self.inner.on_series, self.distinct, self.filtered, series)


def _selected_call(function: Callable[..., Any], distinct: bool, filtered: bool, series: Any) -> Any:
    """Calls a grouped-shape function (one pandas column per argument) with the selected rows."""
    arguments = list(series[:-1]) if filtered else list(series)
    mask = series[-1].fillna(False).astype(bool).tolist() if filtered else None
    if not distinct and mask is None:
        return function(*arguments)
    if mask is None:
        mask = [True] * (len(arguments[0]) if arguments else 0)
    kept = select_rows([_python_rows(a) for a in arguments] if distinct else [], mask,
                       set() if distinct else None, True)
    return function(*[a.iloc[kept].reset_index(drop=True) for a in arguments])


class SelectingCall:
    """A Spark grouped-aggregate UDF's callable that passes only the selected rows."""

    def __init__(self, function: Callable[..., Any], distinct: bool, filtered: bool) -> None:
        self.function = function
        self.distinct = distinct
        self.filtered = filtered

    def __call__(self, *series: Any) -> Any:
        return _selected_call(self.function, self.distinct, self.filtered, series)


def selecting_evaluator(evaluator: bytes, layout: str) -> SelectingEvaluator:
    """What the bridge's pickle of a DISTINCT/FILTER call's packed evaluator unpickles to.

    :param evaluator: the function's pickled evaluator.
    :param layout: JSON ``{"distinct": bool, "filtered": bool}``.
    """
    spec = json.loads(layout)
    return SelectingEvaluator(pickle.loads(evaluator), bool(spec.get(_protocol.SELECTION_DISTINCT)), bool(spec.get(_protocol.SELECTION_FILTERED)))


def selecting_command(command: bytes, layout: str) -> Tuple[SelectingCall, Any]:
    """The Spark UDF command (callable, return type) of a DISTINCT/FILTER call in SQL, from the
    function's own command (see :func:`selecting_evaluator` for ``layout``)."""
    spec = json.loads(layout)
    function, return_type = pickle.loads(command)
    return SelectingCall(function, bool(spec.get(_protocol.SELECTION_DISTINCT)), bool(spec.get(_protocol.SELECTION_FILTERED))), return_type
