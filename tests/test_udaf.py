"""Python aggregate functions: pandas UDAFs (FLIP-137) and general AggregateFunctions in batch.

Expected values are computed independently with pandas (``groupby().agg``) or by hand. PyFlink 2.3
refuses general UDAFs and session windows in batch ("non-Pandas UDAFs are not supported in batch
mode currently"), so those have no PyFlink measurement; Python UDFs could not be run under the local
PyFlink 2.3 install here, so the pandas cases are checked against pandas and hand computation only.
"""

from __future__ import annotations

import datetime
from typing import Any, List

import pandas as pd
import pytest

from pyflink_table import AggregateFunction, DataTypes, ListView, MapView, Row
from pyflink_table.errors import TableException
from pyflink_table.expressions import UNBOUNDED_RANGE, UNBOUNDED_ROW, col, lit, row_interval
from pyflink_table.udf import udaf
from pyflink_table.window import Over, Session, Tumble

from conftest import sorted_rows

KEYS = [1, 1, 2, 2, 2, 3]
VALUES = [1.0, 4.0, 2.0, 3.0, 10.0, None]


def _source(t_env: Any) -> Any:
    return t_env.from_elements(list(zip(KEYS, VALUES)), DataTypes.ROW([
        DataTypes.FIELD("k", DataTypes.BIGINT()), DataTypes.FIELD("v", DataTypes.DOUBLE())]))


@udaf(result_type=DataTypes.DOUBLE(), func_type="pandas")
def mean_udaf(v: pd.Series) -> float:
    return float(v.mean())


# FLIP-137 spellings: a lambda with udaf_type='pandas'.
spread = udaf(lambda v: float(v.max() - v.min()), result_type="DOUBLE", udaf_type="pandas")


def _class_based_pandas() -> Any:
    # Option 1 of FLIP-137: an AggregateFunction whose accumulate receives the group's Series.
    # Defined in a function so that it is pickled by value (the test module is not on the workers).
    class CountNonNull(AggregateFunction):
        def create_accumulator(self) -> List[int]:
            return []

        def accumulate(self, accumulator: List[int], v: pd.Series) -> None:
            accumulator.append(int(v.notna().sum()))

        def get_value(self, accumulator: List[int]) -> int:
            return accumulator[0]

    return udaf(CountNonNull(), result_type=DataTypes.BIGINT(), func_type="pandas")


def _general_functions() -> Any:
    class WeightedSum(AggregateFunction):
        """Sum of v * w, skipping NULLs; the accumulator holds its rows in a ListView."""

        def create_accumulator(self) -> List[Any]:
            return [ListView()]

        def accumulate(self, accumulator: List[Any], v: Any, w: Any) -> None:
            if v is not None:
                accumulator[0].add(v * w)

        def retract(self, accumulator: List[Any], v: Any, w: Any) -> None:
            raise AssertionError("retract is not called in batch")

        def merge(self, accumulator: List[Any], accumulators: Any) -> None:
            for other in accumulators:
                accumulator[0].add_all(list(other[0]))

        def get_value(self, accumulator: List[Any]) -> float:
            return float(sum(accumulator[0]))

        def get_result_type(self) -> Any:
            return DataTypes.DOUBLE()

        def get_accumulator_type(self) -> Any:
            return DataTypes.ARRAY(DataTypes.DOUBLE())

    class CountDistinct(AggregateFunction):
        """Distinct non-NULL values, kept in a MapView."""

        def create_accumulator(self) -> List[Any]:
            return [MapView()]

        def accumulate(self, accumulator: List[Any], v: Any) -> None:
            if v is not None:
                accumulator[0].put(v, True)

        def get_value(self, accumulator: List[Any]) -> int:
            return len(list(accumulator[0].keys()))

    # result_type from get_result_type(); the other given explicitly.
    return udaf(WeightedSum()), udaf(CountDistinct(), result_type="BIGINT", accumulator_type="MAP<DOUBLE, BOOLEAN>")


def test_pandas_udafs_mixed_with_builtins(t_env: Any) -> None:
    t = _source(t_env)
    count_non_null = _class_based_pandas()
    grouped = t.group_by(col("k")).select(
        col("k"), mean_udaf(col("v")).alias("m"), spread(col("v")).alias("r"),
        count_non_null(col("v")).alias("n"), col("v").sum.alias("s"), col("k").count.alias("c"))
    pdf = pd.DataFrame({"k": KEYS, "v": VALUES})
    expected = pdf.groupby("k")["v"].agg(["mean", "max", "min", "count", "sum", "size"])
    got = {r[0]: r[1:] for r in sorted_rows(grouped)}
    assert sorted(got) == [1, 2, 3]
    for k in (1, 2):
        e = expected.loc[k]
        assert got[k] == pytest.approx((e["mean"], e["max"] - e["min"], e["count"], e["sum"], e["size"]))
    # Key 3 has only a NULL: pandas' mean of [NaN] is NaN, Flink's SUM of NULLs is NULL.
    assert got[3][2:] == (0, None, 1)
    # Global aggregation mixing a pandas UDAF and a built-in (the keys of the split are constant).
    glob = t.select(mean_udaf(col("v")), col("v").max)
    assert glob.get_schema().get_field_names() == ["EXPR$0", "EXPR$1"]
    assert sorted_rows(glob) == [(pytest.approx(pdf["v"].mean()), 10.0)]
    # Over no rows a global aggregation still has its one row (SQL's rule; PyFlink 2.3 batch cannot
    # plan this mix, measured): the built-ins' NULL MAX and 0 COUNT, the Python result NULL.
    empty = t.where(col("k") > 5).select(mean_udaf(col("v")), col("v").max, col("v").count)
    assert [tuple(r) for r in empty.execute().collect()] == [(None, None, 0)]


def test_general_aggregate_functions_and_sql(t_env: Any) -> None:
    t = _source(t_env)
    weighted_sum, count_distinct = _general_functions()
    grouped = t.group_by(col("k")).select(col("k"), weighted_sum(col("v"), col("k")), count_distinct(col("v")))
    # By hand: k=1: 1*1 + 4*1 = 5, 2 distinct; k=2: (2+3+10)*2 = 30, 3 distinct; k=3: only NULL.
    assert sorted_rows(grouped) == [(1, 5.0, 2), (2, 30.0, 3), (3, 0.0, 0)]
    t_env.create_temporary_function("weighted_sum", weighted_sum)
    t_env.create_temporary_function("mean_udaf", mean_udaf)
    t_env.create_temporary_view("src", t)
    sql = t_env.sql_query("SELECT k, weighted_sum(v, k) AS ws, mean_udaf(v) AS m FROM src WHERE k < 3 GROUP BY k")
    assert sorted_rows(sql) == [(1, 5.0, 2.5), (2, 30.0, 5.0)]
    # Global general aggregation: (1 + 4) * 1 + (2 + 3 + 10) * 2.
    assert sorted_rows(t.select(weighted_sum(col("v"), col("k")))) == [(35.0,)]
    # Next to built-in aggregates (PyFlink 2.3 batch cannot plan this, measured: "Cannot generate a
    # valid execution plan"), as the Table API's select runs them. By hand: SUM(v) is 5, 15, NULL;
    # COUNT(*) 2, 3, 1; mean_udaf(v) 2.5, 5.0.
    mixed = t_env.sql_query("SELECT k, weighted_sum(v, k), SUM(v) FROM src GROUP BY k")
    assert mixed.get_schema().get_field_names() == ["k", "EXPR$1", "EXPR$2"]
    assert sorted_rows(mixed) == [(1, 5.0, 5.0), (2, 30.0, 15.0), (3, 0.0, None)]
    assert sorted_rows(t_env.sql_query("SELECT k, mean_udaf(v) AS m, COUNT(*) AS c FROM src WHERE k < 3 GROUP BY k")) \
        == [(1, 2.5, 2), (2, 5.0, 3)]
    # HAVING over both kinds: only k=2 has more than one row and a weighted sum above 10; its MAX is 10.
    having = ("SELECT k, weighted_sum(v, k) AS ws, MAX(v) AS mx FROM src GROUP BY k "
              "HAVING COUNT(*) > 1 AND weighted_sum(v, k) > 10")
    assert sorted_rows(t_env.sql_query(having)) == [(2, 30.0, 10.0)]
    # Both kinds in one expression, grouped by an expression, ordered: 5 / 2 and 30 / 3.
    ratio = t_env.sql_query("SELECT k * 10 AS k10, weighted_sum(v, k) / COUNT(v) AS r FROM src WHERE k < 3 "
                            "GROUP BY k * 10 ORDER BY k10 DESC")
    assert [tuple(r) for r in ratio.execute().collect()] == [(20, 10.0), (10, 2.5)]
    # Without GROUP BY: 35 as above; SUM 20; pandas' mean of the five non-NULL values 4.0; 6 rows.
    glob = t_env.sql_query("SELECT weighted_sum(v, k), SUM(v), mean_udaf(v), COUNT(*) FROM src")
    assert sorted_rows(glob) == [(35.0, 20.0, pd.Series(VALUES).mean(), 6)]
    # Over no rows: one row, as SQL's global aggregation (PyFlink 2.3 batch, measured: "Cannot
    # generate a valid execution plan"; its built-ins alone give (NULL, 0)): SUM NULL, COUNT 0, the
    # Python results NULL.
    none = t_env.sql_query("SELECT weighted_sum(v, k), SUM(v), mean_udaf(v), COUNT(*) FROM src WHERE k > 5")
    assert [tuple(r) for r in none.execute().collect()] == [(None, None, None, 0)]
    # Inside a subquery expression the aggregation is not split: refused by name, not with Spark's
    # text about "pandas UDF"s.
    with pytest.raises(TableException, match=r"^Unsupported: the Python aggregate function WeightedSum next to "
                                             r"built-in aggregate functions in one SQL aggregation inside a subquery "
                                             r"expression is not supported by pyflink_table on Spark; the same "
                                             r"aggregation in the FROM clause"):
        sorted_rows(t_env.sql_query("SELECT * FROM src WHERE v > (SELECT weighted_sum(v, k) - SUM(v) FROM src)"))


def test_large_group_and_many_tiny_groups_with_small_arrow_batches(t_env: Any) -> None:
    # Batches of 7 rows: key 0's 150 rows span many batches (chunked), the 40 small groups share
    # batches (several groups per batch); three shuffle partitions.
    t_env.get_config().set("python.fn-execution.arrow.batch.size", "7")
    t_env.get_config().set("parallelism.default", "3")
    data = [(0, float(i)) for i in range(150)] + [(k, float(k * j)) for k in range(1, 41) for j in range(1, k % 3 + 2)]
    t = t_env.from_elements(data, ["k", "v"])
    weighted_sum, _ = _general_functions()
    size = udaf(lambda v: len(v), result_type="BIGINT", func_type="pandas")
    result = t.group_by(col("k")).select(col("k"), size(col("v")), mean_udaf(col("v")), weighted_sum(col("v"), lit(1)))
    pdf = pd.DataFrame(data, columns=["k", "v"]).groupby("k")["v"].agg(["size", "mean", "sum"]).reset_index()
    expected = [(int(r.k), int(r.size), pytest.approx(r.mean), pytest.approx(r.sum)) for r in pdf.itertuples()]
    assert sorted_rows(result) == expected


def test_row_result_in_select(t_env: Any) -> None:
    t = _source(t_env)
    min_max = udaf(lambda v: Row(float(v.min()), float(v.max())), func_type="pandas",
                   result_type=DataTypes.ROW([DataTypes.FIELD("lo", DataTypes.DOUBLE()),
                                              DataTypes.FIELD("hi", DataTypes.DOUBLE())]))
    got = sorted_rows(t.where(col("k") < 3).group_by(col("k")).select(col("k"), min_max(col("v")), col("v").count))
    assert got == [(1, Row(1.0, 4.0), 2), (2, Row(2.0, 10.0), 3)]


def test_pandas_udaf_in_group_and_over_windows(t_env: Any) -> None:
    base = datetime.datetime(2024, 1, 1, 0, 0, 0)
    data = [(1, base + datetime.timedelta(minutes=m), float(v)) for m, v in [(0, 1), (3, 2), (7, 4), (12, 8)]]
    t = t_env.from_elements(data, DataTypes.ROW([
        DataTypes.FIELD("k", DataTypes.BIGINT()), DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)),
        DataTypes.FIELD("v", DataTypes.DOUBLE())]))
    # Tumbling 5-minute windows: [0,5) -> 1,2; [5,10) -> 4; [10,15) -> 8 (by hand).
    tumble = (t.window(Tumble.over(lit(5).minutes).on(col("ts")).alias("w"))
              .group_by(col("w"), col("k"))
              .select(col("k"), col("w").start, mean_udaf(col("v")), col("v").count))
    assert sorted_rows(tumble) == [
        (1, base, 1.5, 2), (1, base + datetime.timedelta(minutes=5), 4.0, 1),
        (1, base + datetime.timedelta(minutes=10), 8.0, 1)]
    # Session windows with a 4-minute gap: {0, 3, 7} (each gap < 4) and {12}; PyFlink 2.3 refuses
    # session windows in batch, so by hand: start = first event, end = last event + gap.
    session = (t.window(Session.with_gap(lit(4).minutes).on(col("ts")).alias("s"))
               .group_by(col("s"))
               .select(col("s").start, col("s").end, mean_udaf(col("v"))))
    assert sorted_rows(session) == [(base, base + datetime.timedelta(minutes=11), 7 / 3),
                                    (base + datetime.timedelta(minutes=12), base + datetime.timedelta(minutes=16), 8.0)]
    # ROWS frame of the two latest rows, and the unbounded running frame, by hand.
    over = (t.over_window(Over.partition_by(col("k")).order_by(col("ts")).preceding(row_interval(1)).alias("w2"),
                          Over.partition_by(col("k")).order_by(col("ts")).preceding(
                              UNBOUNDED_ROW).alias("w3"))
            .select(col("v"), mean_udaf(col("v")).over(col("w2")), mean_udaf(col("v")).over(col("w3"))))
    assert sorted_rows(over) == [(1.0, 1.0, 1.0), (2.0, 1.5, 1.5), (4.0, 3.0, 7 / 3), (8.0, 6.0, 3.75)]
    # RANGE frames: 4 minutes preceding (inclusive bound: at 7 min the row at 3 min is in) and unbounded.
    ranged = (t.over_window(Over.partition_by(col("k")).order_by(col("ts")).preceding(lit(4).minutes).alias("r4"),
                            Over.partition_by(col("k")).order_by(col("ts")).preceding(UNBOUNDED_RANGE).alias("ru"))
              .select(col("v"), mean_udaf(col("v")).over(col("r4")), mean_udaf(col("v")).over(col("ru"))))
    assert sorted_rows(ranged) == [(1.0, 1.0, 1.0), (2.0, 1.5, 1.5), (4.0, 3.0, 7 / 3), (8.0, 8.0, 3.75)]


def test_udaf_definition_errors(t_env: Any) -> None:
    with pytest.raises(TypeError, match="must be an instance of AggregateFunction"):
        udaf(lambda v: v, result_type="BIGINT")
    with pytest.raises(ValueError, match="func_type"):
        udaf(lambda v: v, result_type="BIGINT", func_type="arrow")
    t = _source(t_env)
    # A Python aggregate and a built-in one may share an expression (by hand from KEYS/VALUES:
    # k=1 mean 2.5 + sum 5.0; k=2 mean 5.0 + sum 15.0; k=3 no values).
    mixed = t.group_by(col("k")).select(col("k"), mean_udaf(col("v")) + col("v").sum)
    assert sorted_rows(mixed) == [(1, 7.5), (2, 20.0), (3, None)]
