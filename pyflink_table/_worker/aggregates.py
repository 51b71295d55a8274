"""Worker side of Python aggregate functions.

Two shapes, chosen on the driver:

* packed (the usual one): :mod:`pyflink_table._worker.packed_aggregation` feeds the evaluator the
  rows of one group at a time, in chunks (``begin``/``feed``/``end``), from key-sorted Arrow batches
  that hold many groups each. Used by group_by, global aggregation, group windows and the row-based
  ``aggregate``/``flat_aggregate``, for every result type.
* grouped: Spark's grouped-aggregate pandas UDF calls the evaluator once per group with one
  ``pandas.Series`` per argument (``on_series``). Used where Spark plans the aggregation itself:
  over windows and SQL, for aggregates with a scalar result.

General functions (FLIP-58 style) see one row of Python values per ``accumulate`` call; pandas
functions (FLIP-137) see whole Series.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, List

from pyflink_table._worker.scalar import UserFunctionError, _failure
from pyflink_table._worker.table_functions import to_spark_value


def _python_values(series: Any) -> List[Any]:
    """A Series as Python values with None for NULL (pandas turns NULLs into NaN/NaT)."""
    values: List[Any] = series.tolist()
    if series.hasnans:
        mask = series.isna().tolist()
        values = [None if m else v for v, m in zip(values, mask)]
    return values


@dataclass(eq=False)
class AggregateEvaluator:
    """Runs one aggregate function over the rows of one group at a time.

    :param function: an AggregateFunction / TableAggregateFunction instance, or for pandas UDAFs
        possibly a plain function of Series.
    :param pandas: whether the function takes pandas Series (FLIP-137) rather than single values.
    :param table_aggregate: whether the result is the rows of ``emit_value``.
    :param row_result: whether a single result is a ROW (returned as a tuple).
    :param open_function: opens the function once per worker task.
    :param name: the function's name, for errors.
    :param result_type: the declared result type (of one emitted row for table aggregates) as a
        Flink type string, for checking results in the packed shape and for their Arrow type.
    """

    function: Any
    pandas: bool
    table_aggregate: bool
    row_result: bool
    open_function: Callable[[Any], None]
    name: str = ""
    result_type: str = ""

    def __post_init__(self) -> None:
        self.is_class_based = hasattr(self.function, "create_accumulator")
        self._opened = False
        self._check: Any = None
        self._arrow_type: Any = None

    def __getstate__(self) -> Any:
        state = dict(self.__dict__)
        state.update(_opened=False, _check=None, _arrow_type=None)
        return state

    def _ensure_open(self) -> None:
        if not self._opened:
            self._opened = True
            self.open_function(self.function)

    def _finish(self, accumulator: Any) -> Any:
        # Only scalar-result aggregates take the grouped shape (ROW results and emitted rows are packed).
        return to_spark_value(self.function.get_value(accumulator))

    # grouped shape: one Series per argument ------------------------------------------------

    def on_series(self, *series: Any) -> Any:
        """The group's result from its argument columns."""
        self._ensure_open()
        if self.pandas:
            if not self.is_class_based:
                return self.function(*series)
            accumulator = self.function.create_accumulator()
            self.function.accumulate(accumulator, *series)
            return self._finish(accumulator)
        accumulator = self.function.create_accumulator()
        columns = [_python_values(s) for s in series]
        accumulate = self.function.accumulate
        for row in zip(*columns):
            accumulate(accumulator, *row)
        if not columns:
            raise ValueError("An aggregate function needs at least one argument")
        return self._finish(accumulator)

    # packed shape: a group's rows in chunks ---------------------------------------------------

    def prepare(self) -> None:
        """Open the function for this task and resolve the result's checker and Arrow type."""
        from pyflink_table._worker.scalar import result_conversion

        if self._check is None:
            self._check, self._arrow_type = result_conversion(self.result_type, as_row=self.table_aggregate)
        try:
            self._ensure_open()
        except Exception as e:
            raise _failure(f"open() of Python aggregate function '{self.name}'", e) from None

    def view(self, arrays: List[Any]) -> List[Any]:
        """One batch's argument columns in the form the function takes: pandas Series (or
        DataFrames for ROW arguments), or lists of PyFlink values."""
        from pyflink_table._worker.scalar import _arrow_to_pandas, _column_values

        if self.pandas:
            return [_arrow_to_pandas(a) for a in arrays]
        return [_column_values(a) for a in arrays]

    def begin(self) -> Any:
        """The state of a new group: the chunks seen (pandas) or the accumulator (general)."""
        if self.pandas:
            return []
        try:
            return self.function.create_accumulator()
        except Exception as e:
            raise _failure(f"create_accumulator() of Python aggregate function '{self.name}'", e) from None

    def feed(self, state: Any, view: List[Any], start: int, end: int) -> None:
        """Add rows ``start``..``end`` of a batch's ``view`` to a group's ``state``."""
        if self.pandas:
            state.append([column.iloc[start:end] for column in view])
            return
        accumulate = self.function.accumulate
        try:
            if len(view) == 1:
                for value in view[0][start:end]:
                    accumulate(state, value)
            else:
                for row in zip(*(column[start:end] for column in view)):
                    accumulate(state, *row)
        except Exception as e:
            raise _failure(f"Python aggregate function '{self.name}'", e) from None

    def end(self, state: Any) -> Any:
        """The group's result: one value, or the list of emitted rows for a table aggregate."""
        try:
            if not self.pandas:
                return self._finish_packed(state)
            import pandas as pd

            if len(state) == 1:
                series = state[0]
                for column in series:  # a fresh 0-based index, as Spark's UDAFs get; no copy
                    column.index = pd.RangeIndex(len(column))
            else:
                series = [pd.concat([chunk[i] for chunk in state], ignore_index=True) for i in range(len(state[0]))]
            if not self.is_class_based:
                return _plain(self.function(*series))
            accumulator = self.function.create_accumulator()
            self.function.accumulate(accumulator, *series)
            return self._finish_packed(accumulator)
        except UserFunctionError:
            raise
        except Exception as e:
            raise _failure(f"Python aggregate function '{self.name}'", e) from None

    def _finish_packed(self, accumulator: Any) -> Any:
        if self.table_aggregate:
            return [_plain(v) for v in (self.function.emit_value(accumulator) or ())]
        return _plain(self.function.get_value(accumulator))

    def to_arrow(self, values: List[Any]) -> Any:
        """The results of several groups as one Arrow array of the declared type."""
        from pyflink_table._worker.scalar import python_values_to_arrow

        check = self._check
        if self.pandas:
            # pandas marks a missing result NaN/NaT/NA; it is NULL, as when Spark converts a
            # grouped-aggregate UDF's Series (and PyFlink, measured: mean of an all-NULL group).
            values = [None if _missing(v) else v for v in values]
        if self.table_aggregate and not self.row_result:
            scalar = check
            check = lambda v: (scalar(v[0] if isinstance(v, (tuple, list)) and len(v) == 1 else v),)  # noqa: E731
        return python_values_to_arrow(values, self._arrow_type, check,
                                      f"Python aggregate function '{self.name}'", self.result_type)


def _missing(value: Any) -> bool:
    """Whether a pandas function's scalar result is pandas' missing value (NaN, NaT, NA)."""
    if isinstance(value, float):
        return value != value
    return type(value).__name__ in ("NaTType", "NAType")


def _plain(value: Any) -> Any:
    """A NumPy scalar (as pandas functions return) as the Python value it holds."""
    item = getattr(value, "item", None)
    if item is not None and type(value).__module__ == "numpy":
        return item()
    return value
