"""Row-based operations: map, flat_map, aggregate and flat_aggregate on Table, GroupedTable and
WindowGroupedTable.

Expected rows are hand-computed from the inputs. PyFlink 2.3 measured the default flat_map names
(f0, f1) and the aliasing; it cannot run flat_aggregate in batch ("no valid plan"), so those
expectations are by hand only.
"""

from __future__ import annotations

import datetime
from typing import Any, Iterator, List

import pytest

from pyflink_table import DataTypes, Row, TableAggregateFunction, ValidationException
from pyflink_table.expressions import col, lit
from pyflink_table.udf import AggregateFunction, udaf, udf, udtaf, udtf
from pyflink_table.window import Tumble

from conftest import sorted_rows


def _source(t_env: Any) -> Any:
    return t_env.from_elements([(1, 5, "x"), (1, 9, "y"), (1, 7, "z"), (2, 3, "u")], ["k", "v", "s"])


def _top2() -> Any:
    # Flink's documented Top2: emits the two largest values with their rank. Built in a function
    # so that it is pickled by value (the test module is not on the Python workers' path).
    class Top2(TableAggregateFunction):
        def create_accumulator(self) -> List[Any]:
            return [None, None]

        def accumulate(self, accumulator: List[Any], v: Any) -> None:
            if v is None:
                return
            if accumulator[0] is None or v > accumulator[0]:
                accumulator[1] = accumulator[0]
                accumulator[0] = v
            elif accumulator[1] is None or v > accumulator[1]:
                accumulator[1] = v

        def emit_value(self, accumulator: List[Any]) -> Iterator[Row]:
            if accumulator[0] is not None:
                yield Row(accumulator[0], 1)
            if accumulator[1] is not None:
                yield Row(accumulator[1], 2)

    return udtaf(Top2(), result_type=DataTypes.ROW([DataTypes.FIELD("a", DataTypes.BIGINT()),
                                                     DataTypes.FIELD("b", DataTypes.INT())]))


def _min_max_general() -> Any:
    class MinMax(AggregateFunction):
        def create_accumulator(self) -> List[Any]:
            return [None, None]

        def accumulate(self, accumulator: List[Any], v: Any) -> None:
            accumulator[0] = v if accumulator[0] is None else min(accumulator[0], v)
            accumulator[1] = v if accumulator[1] is None else max(accumulator[1], v)

        def get_value(self, accumulator: List[Any]) -> Row:
            return Row(accumulator[0], accumulator[1])

    return udaf(MinMax(), result_type=DataTypes.ROW([DataTypes.FIELD("lo", DataTypes.BIGINT()),
                                                     DataTypes.FIELD("hi", DataTypes.BIGINT())]))


def test_map_and_flat_map(t_env: Any) -> None:
    t = _source(t_env)
    pair = udf(lambda v, s: Row(v * 10, s + "!"), result_type=DataTypes.ROW([
        DataTypes.FIELD("big", DataTypes.BIGINT()), DataTypes.FIELD("loud", DataTypes.STRING())]))
    mapped = t.map(pair(col("v"), col("s")))
    # A ROW result is flattened into its fields.
    assert mapped.get_schema().get_field_names() == ["big", "loud"]
    renamed = t.map(pair(col("v"), col("s"))).alias("p", "q")
    assert sorted_rows(renamed) == [(30, "u!"), (50, "x!"), (70, "z!"), (90, "y!")]

    @udtf(result_types=[DataTypes.BIGINT(), DataTypes.STRING()])
    def repeat(v: int, s: str) -> Iterator[Any]:
        for i in range(v % 3):
            yield v + i, s

    # v=5 -> 2 rows, v=9 -> none, v=7 -> 1, v=3 -> none.
    assert sorted_rows(t.flat_map(repeat(col("v"), col("s")))) == [(5, "x"), (6, "x"), (7, "z")]


def test_aggregate_with_row_results(t_env: Any) -> None:
    t = _source(t_env)
    min_max = _min_max_general()
    stats = udaf(lambda v: Row(int(v.sum()), float(v.mean())), func_type="pandas",
                 result_type=DataTypes.ROW([DataTypes.FIELD("total", DataTypes.BIGINT()),
                                            DataTypes.FIELD("avg", DataTypes.DOUBLE())]))
    grouped = t.group_by(col("k")).aggregate(min_max(col("v")).alias("lo", "hi")).select(col("k"), col("hi"), col("lo"))
    assert sorted_rows(grouped) == [(1, 9, 5), (2, 3, 3)]
    by_type_names = t.group_by(col("k")).aggregate(stats(col("v"))).select("*")
    assert by_type_names.get_schema().get_field_names() == ["k", "total", "avg"]
    assert sorted_rows(by_type_names) == [(1, 21, 7.0), (2, 3, 3.0)]
    whole = t.aggregate(stats(col("v")).alias("t", "a")).select(col("a"), col("t"))
    assert sorted_rows(whole) == [(6.0, 24)]


def test_flat_aggregate_on_grouped_and_whole_table(t_env: Any) -> None:
    t = _source(t_env)
    top2 = _top2()
    grouped = t.group_by(col("k")).flat_aggregate(top2(col("v")).alias("value", "rank")).select("*")
    assert grouped.get_schema().get_field_names() == ["k", "value", "rank"]
    assert sorted_rows(grouped) == [(1, 7, 2), (1, 9, 1), (2, 3, 1)]
    whole = t.flat_aggregate(top2(col("v"))).select(col("a"), col("b"))
    assert sorted_rows(whole) == [(7, 2), (9, 1)]


def test_aggregate_and_flat_aggregate_per_window(t_env: Any) -> None:
    base = datetime.datetime(2024, 1, 1)
    minute = datetime.timedelta(minutes=1)
    data = [(1, base, 5), (1, base + 2 * minute, 9), (1, base + 3 * minute, 7), (1, base + 6 * minute, 4),
            (2, base + minute, 3)]
    t = t_env.from_elements(data, DataTypes.ROW([
        DataTypes.FIELD("k", DataTypes.BIGINT()), DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)),
        DataTypes.FIELD("v", DataTypes.BIGINT())]))
    windowed = t.window(Tumble.over(lit(5).minutes).on(col("ts")).alias("w")).group_by(col("w"), col("k"))
    # Windows [0, 5) and [5, 10) minutes, by hand.
    agg = windowed.aggregate(_min_max_general()(col("v")).alias("lo", "hi")).select(
        col("k"), col("w").start, col("w").end, col("lo"), col("hi"))
    assert sorted_rows(agg) == [(1, base, base + 5 * minute, 5, 9), (1, base + 5 * minute, base + 10 * minute, 4, 4),
                                (2, base, base + 5 * minute, 3, 3)]
    top = windowed.flat_aggregate(_top2()(col("v"))).select(col("k"), col("w").start, col("a"), col("b"))
    assert sorted_rows(top) == [(1, base, 7, 2), (1, base, 9, 1), (1, base + 5 * minute, 4, 1), (2, base, 3, 1)]


def test_row_based_errors(t_env: Any) -> None:
    t = _source(t_env)
    top2 = _top2()
    with pytest.raises(ValidationException, match="can only be used in flat_aggregate"):
        t.group_by(col("k")).select(top2(col("v")))
    with pytest.raises(ValidationException, match="expects a table aggregate function"):
        t.group_by(col("k")).flat_aggregate(_min_max_general()(col("v")))
    with pytest.raises(ValidationException, match="alias"):
        t.group_by(col("k")).aggregate(_min_max_general()(col("v")).alias("only_one"))
    with pytest.raises(ValidationException, match="clashes"):
        t.group_by(col("k")).aggregate(_min_max_general()(col("v")).alias("k", "x"))


def test_pandas_map_over_a_nested_row_column(t_env):
    # PyFlink 2.3 (measured): a pandas map gets the input row as one DataFrame in which a nested
    # ROW column's fields are columns of their own (a, p, q); result [(2, 20, 'x!', 'a,p,q'), (4, 40, 'y!', 'a,p,q')].
    import pandas as pd

    nested = t_env.from_elements(
        [(1, Row(2, "x")), (3, Row(4, "y"))],
        DataTypes.ROW([DataTypes.FIELD("a", DataTypes.BIGINT()),
                       DataTypes.FIELD("r", DataTypes.ROW([DataTypes.FIELD("p", DataTypes.BIGINT()),
                                                          DataTypes.FIELD("q", DataTypes.STRING())]))]))

    def shape(df):
        return pd.DataFrame({"a": df["a"] + 1, "p": df["p"] * 10, "q": df["q"] + "!", "cols": ",".join(df.columns)})

    f = udf(shape, result_type=DataTypes.ROW([DataTypes.FIELD("a", DataTypes.BIGINT()),
                                              DataTypes.FIELD("p", DataTypes.BIGINT()),
                                              DataTypes.FIELD("q", DataTypes.STRING()),
                                              DataTypes.FIELD("cols", DataTypes.STRING())]), func_type="pandas")
    assert sorted_rows(nested.map(f)) == [(2, 20, "x!", "a,p,q"), (4, 40, "y!", "a,p,q")]
