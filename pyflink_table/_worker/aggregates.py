"""Worker side of Python aggregate functions.

Two shapes, chosen on the driver:

* grouped: Spark's grouped-aggregate pandas UDF calls the evaluator once per group with one
  ``pandas.Series`` per argument (Spark concatenates the group's Arrow batches first, so a group
  larger than a batch arrives whole). Used for aggregates with a scalar result.
* collected: the group's argument rows are collected into one list (``collect_list(struct(...))``)
  and a row-at-a-time Arrow UDF turns the list into the result. Used for ROW results, which
  Spark's grouped-aggregate UDFs cannot return, and for table aggregates, which emit many rows.

General functions (FLIP-58 style) see one row of Python values per ``accumulate`` call; pandas
functions (FLIP-137) see whole Series.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence

from pyflink_table._worker.table_functions import to_spark_value


def _python_values(series: Any) -> List[Any]:
    """A Series as Python values with None for NULL (pandas turns NULLs into NaN/NaT)."""
    values: List[Any] = series.tolist()
    if series.hasnans:
        mask = series.isna().tolist()
        values = [None if m else v for v, m in zip(values, mask)]
    return values


class AggregateEvaluator:
    """Runs one aggregate function over the rows of one group at a time.

    :param function: an AggregateFunction / TableAggregateFunction instance, or for pandas UDAFs
        possibly a plain function of Series.
    :param pandas: whether the function takes pandas Series (FLIP-137) rather than single values.
    :param table_aggregate: whether the result is the rows of ``emit_value``.
    :param row_result: whether a single result is a ROW (returned as a tuple).
    :param open_function: opens the function once per worker task.
    """

    def __init__(self, function: Any, pandas: bool, table_aggregate: bool, row_result: bool,
                 open_function: Callable[[Any], None]) -> None:
        self.function = function
        self.pandas = pandas
        self.table_aggregate = table_aggregate
        self.row_result = row_result
        self.open_function = open_function
        self.is_class_based = hasattr(function, "create_accumulator")
        self._opened = False

    def _ensure_open(self) -> None:
        if not self._opened:
            self._opened = True
            self.open_function(self.function)

    def _finish(self, accumulator: Any) -> Any:
        if self.table_aggregate:
            return [_as_row(v) for v in (self.function.emit_value(accumulator) or ())]
        value = self.function.get_value(accumulator)
        return _as_row(value) if self.row_result else to_spark_value(value)

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

    # collected shape: the group's rows as one list --------------------------------------------

    def on_rows(self, rows: Optional[Sequence[Any]]) -> Any:
        """The group's result (a value, a row tuple, or a list of row tuples) from its argument rows."""
        self._ensure_open()
        rows = rows or []
        if self.pandas:
            import pandas as pd

            width = len(rows[0]) if rows else 0
            series = [pd.Series([r[i] for r in rows]) for i in range(width)]
            if not self.is_class_based:
                value = self.function(*series)
                return _as_row(value) if self.row_result else to_spark_value(value)
            accumulator = self.function.create_accumulator()
            self.function.accumulate(accumulator, *series)
            return self._finish(accumulator)
        accumulator = self.function.create_accumulator()
        accumulate = self.function.accumulate
        for r in rows:
            accumulate(accumulator, *r)
        return self._finish(accumulator)


def _as_row(value: Any) -> Any:
    """A ROW result (Row, tuple, list or scalar for a one-field row) as a tuple for Spark."""
    if value is None:
        return None
    spark_value = to_spark_value(value)
    if isinstance(spark_value, tuple):
        return spark_value
    if isinstance(spark_value, list):
        return tuple(spark_value)
    return (spark_value,)
