"""Python aggregate functions over bin-packed, chunked Arrow batches (issue 4, item 7).

The first tests drive the worker (:mod:`pyflink_table._worker.packed_aggregation`) with
hand-built Arrow batches, so what each call of the user's function sees, and how many groups one
batch carries, are observed directly. The others run on Spark with a tiny Arrow batch size, so
that one group spans many batches and partitions while many tiny groups share each batch; expected
values come from pandas ``groupby`` or hand computation.
"""

from __future__ import annotations

import math
import sys
from typing import Any, List

import pandas as pd
import pyarrow as pa
import pytest
from pyspark import cloudpickle

from pyflink_table import AggregateFunction, DataTypes, PythonException, Row, TableAggregateFunction
from pyflink_table._worker.aggregates import AggregateEvaluator
from pyflink_table._worker.packed_aggregation import PackedAggregation, group_starts
from pyflink_table.expressions import col, lit
from pyflink_table.udf import udaf, udtaf
from pyflink_table.window import Slide, Tumble

from conftest import rows, sorted_rows

# Functions and classes of this module travel to the Spark workers by value (workers cannot import it).
cloudpickle.register_pickle_by_value(sys.modules[__name__])


# --- the worker alone --------------------------------------------------------------------------

def _no_open(function: Any) -> None:
    """Stands in for the task-level open of a function (nothing to open here)."""


class _Recorder:
    """A pandas aggregate that records the length of every Series it is called with."""

    def __init__(self) -> None:
        self.calls: List[int] = []

    def __call__(self, v: pd.Series) -> float:
        self.calls.append(len(v))
        assert list(v.index) == list(range(len(v)))  # a fresh 0-based index, as Spark's UDAFs get
        return float(v.sum())


class _Count(AggregateFunction):
    def create_accumulator(self) -> List[int]:
        return [0]

    def accumulate(self, acc: List[int], v: Any) -> None:
        acc[0] += 1

    def get_value(self, acc: List[int]) -> int:
        return acc[0]


def _evaluator(function: Any, pandas: bool, result_type: str) -> AggregateEvaluator:
    return AggregateEvaluator(function, pandas, False, False, _no_open, "f", result_type)


def _batch(keys: List[Any], values: List[float], key_type: Any = pa.int64()) -> pa.RecordBatch:
    return pa.RecordBatch.from_arrays([pa.array(keys, key_type), pa.array(values, pa.float64())], ["k0", "a0_0"])


def test_many_groups_share_a_batch_and_a_group_spans_batches() -> None:
    recorder = _Recorder()
    packed = PackedAggregation(1, [[1], [1]], [
        _evaluator(recorder, True, "DOUBLE"),
        _evaluator(_Count(), False, "BIGINT"),
    ])
    # Key-sorted input in three batches: group 3 spans batches 1-2, group 5 spans batches 2-3.
    batches = [_batch([1, 1, 2, 3, 3], [1, 2, 3, 4, 5]),
               _batch([3, 4, 5, 5, 5], [6, 7, 8, 9, 10]),
               _batch([5, 6], [11, 12])]
    out = list(packed(iter(batches)))
    # One output batch per input batch, each holding every group completed in it, plus the last group.
    assert [b.num_rows for b in out] == [2, 2, 1, 1]
    table = pa.Table.from_batches(out)
    assert table.column("k0").to_pylist() == [1, 2, 3, 4, 5, 6]
    # by hand: 1+2, 3, 4+5+6, 7, 8+9+10+11, 12
    assert table.column("r0").to_pylist() == [3.0, 3.0, 15.0, 7.0, 38.0, 12.0]
    assert table.column("r1").to_pylist() == [2, 1, 3, 1, 4, 1]
    # The pandas function saw each group whole, exactly once, chunks concatenated.
    assert recorder.calls == [2, 1, 3, 1, 4, 1]


def test_group_boundaries_treat_null_and_nan_as_equal_keys() -> None:
    batch = _batch([None, None, math.nan, math.nan, 1.0, 1.0, -2.0], [0] * 7, pa.float64())
    assert group_starts(batch, 1) == [0, 2, 4, 6]
    window = pa.array([{"start": 1, "end": 2}, {"start": 1, "end": 2}, None, {"start": 2, "end": 3}],
                      pa.struct([("start", pa.int64()), ("end", pa.int64())]))
    two_keys = pa.RecordBatch.from_arrays([window, pa.array(["a", "b", "b", "b"])], ["k0", "k1"])
    assert group_starts(two_keys, 2) == [0, 1, 2, 3]
    assert group_starts(two_keys, 0) == [0]  # no keys: one group


def test_no_batches_give_no_rows() -> None:
    # A global aggregation over an empty input gives no row, as PyFlink 2.3 batch does for pandas
    # UDAFs (measured: t.select(mean_udaf(col('b'))) over an empty table collects []).
    packed = PackedAggregation(0, [[0]], [_evaluator(_Count(), False, "BIGINT")])
    assert list(packed(iter([]))) == []


# --- on Spark ----------------------------------------------------------------------------------

class SumOfSquares(AggregateFunction):
    def create_accumulator(self) -> List[float]:
        return [0.0]

    def accumulate(self, acc: List[float], v: float) -> None:
        if v is not None:
            acc[0] += v * v

    def get_value(self, acc: List[float]) -> float:
        return acc[0]


class MinMax(AggregateFunction):
    """A ROW result: (lowest, highest, rows)."""

    def create_accumulator(self) -> List[Any]:
        return [None, None, 0]

    def accumulate(self, acc: List[Any], v: float) -> None:
        acc[0] = v if acc[0] is None else min(acc[0], v)
        acc[1] = v if acc[1] is None else max(acc[1], v)
        acc[2] += 1

    def get_value(self, acc: List[Any]) -> Row:
        return Row(acc[0], acc[1], acc[2])


class Top2(TableAggregateFunction):
    def create_accumulator(self) -> List[float]:
        return []

    def accumulate(self, acc: List[float], v: float) -> None:
        acc.append(v)
        acc.sort(reverse=True)
        del acc[2:]  # keep the accumulator small however large the group

    def emit_value(self, acc: List[float]) -> Any:
        for rank, v in enumerate(acc, 1):
            yield Row(v, rank)


MIN_MAX_TYPE = DataTypes.ROW([DataTypes.FIELD("lo", DataTypes.DOUBLE()), DataTypes.FIELD("hi", DataTypes.DOUBLE()),
                              DataTypes.FIELD("n", DataTypes.BIGINT())])
TOP2_TYPE = DataTypes.ROW([DataTypes.FIELD("v", DataTypes.DOUBLE()), DataTypes.FIELD("rnk", DataTypes.INT())])


def _skewed_frame() -> pd.DataFrame:
    # One group of 150 rows (key 0) and 120 tiny groups of one or two rows.
    keys = [0] * 150 + [k for k in range(1, 121) for _ in range(1 + k % 2)]
    values = [float((i * 7) % 31) for i in range(len(keys))]
    return pd.DataFrame({"k": keys, "v": values})


@pytest.fixture()
def small_batches(t_env: Any) -> Any:
    # 7 rows per Arrow batch and 3 partitions: key 0 spans many batches, tiny groups share them.
    t_env.get_config().set("python.fn-execution.arrow.batch.size", "7")
    t_env.get_config().set("parallelism.default", "3")
    return t_env


def test_every_aggregate_kind_over_a_skewed_input(small_batches: Any) -> None:
    t_env = small_batches
    frame = _skewed_frame()
    t = t_env.from_pandas(frame)
    mean = udaf(lambda v: float(v.mean()), result_type="DOUBLE", func_type="pandas")
    squares = udaf(SumOfSquares(), result_type="DOUBLE")
    min_max = udaf(MinMax(), result_type=MIN_MAX_TYPE)
    result = t.group_by(col("k")).select(
        col("k"), mean(col("v")).alias("m"), squares(col("v")).alias("sq"), min_max(col("v")).alias("mm"),
        col("v").count.alias("c"), (mean(col("v")) * 2).alias("m2"))
    assert "MapInArrow" in result.explain()

    g = frame.groupby("k")["v"]
    expected = sorted(
        (k, pytest.approx(g.mean()[k]), pytest.approx((frame.v[frame.k == k] ** 2).sum()),
         Row(g.min()[k], g.max()[k], int(g.count()[k])), int(g.count()[k]), pytest.approx(2 * g.mean()[k]))
        for k in g.groups)
    assert sorted_rows(result) == expected


def test_table_aggregate_and_row_aggregate_stream_large_groups(small_batches: Any) -> None:
    t_env = small_batches
    frame = _skewed_frame()
    t = t_env.from_pandas(frame)
    top2 = udtaf(Top2(), result_type=TOP2_TYPE)
    flat = t.group_by(col("k")).flat_aggregate(top2(col("v"))).select(col("k"), col("v"), col("rnk"))
    expected = []
    for k, values in frame.groupby("k")["v"]:
        for rank, v in enumerate(sorted(values, reverse=True)[:2], 1):
            expected.append((k, v, rank))
    assert sorted_rows(flat) == sorted(expected)

    min_max = udaf(MinMax(), result_type=MIN_MAX_TYPE)
    agg = t.aggregate(min_max(col("v")).alias("lo", "hi", "n")).select(col("*"))
    assert rows(agg) == [(frame.v.min(), frame.v.max(), len(frame))]


def test_expression_keys_nulls_and_built_ins_together(t_env: Any) -> None:
    t = t_env.from_elements([(1, 1.0), (1, 2.0), (None, 3.0), (2, 4.0), (None, 5.0), (3, 6.0), (4, 7.0)], ["k", "v"])
    total = udaf(lambda v: float(v.sum()), result_type="DOUBLE", func_type="pandas")
    by_parity = t.group_by(col("k") % 2).select((col("k") % 2).alias("p"), total(col("v")), col("v").max)
    # by hand: k%2 = 1 -> 1+2+6; 0 -> 4+7; NULL -> 3+5
    assert sorted_rows(by_parity) == [(None, 8.0, 5.0), (0, 11.0, 7.0), (1, 9.0, 6.0)]
    by_key = t.group_by(col("k")).select(col("k"), total(col("v")) + 1, col("v").count,
                                         total(col("v")) / col("v").count, col("v").count.distinct)
    assert sorted_rows(by_key) == [(None, 9.0, 2, 4.0, 2), (1, 4.0, 2, 1.5, 2), (2, 5.0, 1, 4.0, 1),
                                   (3, 7.0, 1, 6.0, 1), (4, 8.0, 1, 7.0, 1)]
    # Flink's names: an aggregate alone is EXPR$n, any other expression _c<position>.
    assert by_key.get_schema().get_field_names() == ["k", "_c1", "EXPR$0", "_c3", "EXPR$1"]


def test_global_aggregation_and_empty_input(t_env: Any) -> None:
    t = t_env.from_elements([(1, 2.0), (2, 4.0)], ["a", "b"])
    mean = udaf(lambda v: float(v.mean()), result_type="DOUBLE", func_type="pandas")
    squares = udaf(SumOfSquares(), result_type="DOUBLE")
    assert rows(t.select(mean(col("b")), squares(col("b")), col("a").sum)) == [(3.0, 20.0, 3)]
    empty = t.filter(col("a") > 5)
    # PyFlink 2.3 batch, measured: a global pandas UDAF over an empty table gives no row.
    assert rows(empty.select(mean(col("b")))) == []
    # Next to a built-in (PyFlink 2.3 batch cannot plan it): SQL's one row, the Python result NULL.
    assert rows(empty.select(mean(col("b")), col("a").sum)) == [(None, None)]
    assert rows(empty.select(col("a").sum, col("a").count)) == [(None, 0)]


def test_windows_take_the_packed_path(t_env: Any) -> None:
    import datetime

    ts = [datetime.datetime(2024, 1, 1, 0, m) for m in (1, 4, 6, 9, 11)]
    t = t_env.from_elements([(x, float(i + 1)) for i, x in enumerate(ts)], DataTypes.ROW([
        DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)), DataTypes.FIELD("v", DataTypes.DOUBLE())]))
    min_max = udaf(MinMax(), result_type=MIN_MAX_TYPE)
    tumble = t.window(Tumble.over(lit(5).minutes).on(col("ts")).alias("w")).group_by(col("w")) \
        .select(col("w").start, min_max(col("v")).alias("mm"))
    start = datetime.datetime(2024, 1, 1)
    minutes = datetime.timedelta(minutes=1)
    # by hand: [0:00, 0:05) holds 1, 2; [0:05, 0:10) holds 3, 4; [0:10, 0:15) holds 5
    assert sorted_rows(tumble) == [(start, Row(1.0, 2.0, 2)), (start + 5 * minutes, Row(3.0, 4.0, 2)),
                                   (start + 10 * minutes, Row(5.0, 5.0, 1))]
    top2 = udtaf(Top2(), result_type=TOP2_TYPE)
    slide = t.window(Slide.over(lit(10).minutes).every(lit(5).minutes).on(col("ts")).alias("w")) \
        .group_by(col("w")).flat_aggregate(top2(col("v"))).select(col("w").end, col("v"), col("rnk"))
    # windows of 10 minutes every 5: ends 0:05 {1,2}, 0:10 {1,2,3,4}, 0:15 {3,4,5}, 0:20 {5}
    assert sorted_rows(slide) == [
        (start + 5 * minutes, 1.0, 2), (start + 5 * minutes, 2.0, 1),
        (start + 10 * minutes, 3.0, 2), (start + 10 * minutes, 4.0, 1),
        (start + 15 * minutes, 4.0, 2), (start + 15 * minutes, 5.0, 1),
        (start + 20 * minutes, 5.0, 1)]


def test_a_failing_aggregate_names_itself_and_shows_the_users_traceback(t_env: Any) -> None:
    class Fragile(AggregateFunction):
        def create_accumulator(self) -> List[int]:
            return []

        def accumulate(self, acc: List[int], v: int) -> None:
            acc.append(100 // v)

        def get_value(self, acc: List[int]) -> int:
            return sum(acc)

    fragile = udaf(Fragile(), result_type="BIGINT", name="fragile")
    t = t_env.from_elements([(1, 1), (1, 0)], ["k", "v"])
    with pytest.raises(PythonException) as err:
        rows(t.group_by(col("k")).select(fragile(col("v"))))
    text = str(err.value)
    assert text.startswith("Python aggregate function 'fragile' failed")
    assert "100 // v" in text and "ZeroDivisionError" in text
    assert "packed_aggregation" not in text  # only the user's frames


def test_row_results_where_spark_plans_the_aggregation_are_refused_loudly(t_env: Any) -> None:
    from pyflink_table import TableException
    from pyflink_table.expressions import UNBOUNDED_RANGE
    from pyflink_table.window import Over

    min_max = udaf(MinMax(), result_type=MIN_MAX_TYPE)
    t = t_env.from_elements([(1, 2.0), (1, 3.0)], ["k", "v"])
    over = t.over_window(Over.partition_by(col("k")).order_by(col("v")).preceding(UNBOUNDED_RANGE).alias("w"))
    with pytest.raises(TableException, match="MinMax with a ROW result in an over window"):
        over.select(min_max(col("v")).over(col("w")))
    t_env.create_temporary_view("t", t)
    t_env.create_temporary_function("min_max", min_max)
    with pytest.raises(TableException, match="calling the function min_max from SQL"):
        t_env.sql_query("SELECT k, min_max(v) FROM t GROUP BY k")


def test_packing_can_be_switched_off_for_few_large_groups(t_env: Any) -> None:
    t_env.get_config().set("pyflink_table.aggregate.packing", "false")
    frame = _skewed_frame()
    t = t_env.from_pandas(frame)
    mean = udaf(lambda v: float(v.mean()), result_type="DOUBLE", func_type="pandas")
    squares = udaf(SumOfSquares(), result_type="DOUBLE")
    result = t.group_by(col("k")).select(col("k"), mean(col("v")), squares(col("v")), col("v").count)
    plan = result.explain()
    assert "ArrowAggregatePython" in plan and "MapInArrow" not in plan  # Spark's own per-group path
    g = frame.groupby("k")["v"]
    expected = sorted((k, pytest.approx(g.mean()[k]), pytest.approx((frame.v[frame.k == k] ** 2).sum()),
                       int(g.count()[k])) for k in g.groups)
    assert sorted_rows(result) == expected
    # ROW results have no per-group Spark form: they stay packed.
    min_max = udaf(MinMax(), result_type=MIN_MAX_TYPE)
    assert "MapInArrow" in t.group_by(col("k")).select(min_max(col("v"))).explain()


def _python_node_inputs(table: Any) -> List[List[str]]:
    """The input column names of each Python aggregation node in the physical plan of ``table``."""
    plan = table._j_table.dataset().queryExecution().executedPlan()
    if plan.getClass().getSimpleName() == "AdaptiveSparkPlanExec":
        plan = plan.executedPlan()
    found: List[List[str]] = []

    def walk(node: Any) -> None:
        name = node.getClass().getSimpleName()
        if name in ("MapInArrowExec", "ArrowAggregatePythonExec", "AggregateInPandasExec"):
            output = node.child().output()
            found.append([output.apply(i).name() for i in range(output.size())])
        children = node.children()
        for i in range(children.size()):
            walk(children.apply(i))

    walk(plan)
    return found


@pytest.mark.parametrize("packing", ["true", "false"])
def test_only_the_columns_the_aggregates_read_travel_to_python(t_env: Any, packing: str) -> None:
    t_env.get_config().set("pyflink_table.aggregate.packing", packing)
    wide = t_env.from_elements([(1, 2.0, 3.0, "x" * 10, 4, 5.0, 6.0), (1, 7.0, 8.0, "y", 9, 10.0, 11.0),
                                (2, 12.0, 13.0, "z", 14, 15.0, 16.0)],
                               ["k", "v", "w", "s", "i", "unused1", "unused2"])
    total = udaf(lambda v: float(v.sum()), result_type="DOUBLE", func_type="pandas")
    squares = udaf(SumOfSquares(), result_type="DOUBLE")
    result = wide.group_by(col("k")).select(col("k"), total(col("v") + col("w")), squares(col("v")), col("i").max)
    inputs = _python_node_inputs(result)
    assert len(inputs) == 1
    # k (the key), v and w (read by the aggregates; v + w may travel computed): not s, i, unused1/2.
    assert not set(inputs[0]) & {"s", "i", "unused1", "unused2"}, inputs
    assert len(inputs[0]) <= 4, inputs
    # by hand: k=1: (2+3)+(7+8)=20, 2*2+7*7=53, max i 9; k=2: 25, 144, 14
    assert sorted_rows(result) == [(1, 20.0, 53.0, 9), (2, 25.0, 144.0, 14)]


def test_arrow_batches_are_bounded_in_rows_only(t_env: Any) -> None:
    # Spark's byte cap makes its Arrow writer measure the batch after every row, costly for
    # mapInArrow's struct-wrapped input; Int.MaxValue (2**31 - 1) turns the measuring off.
    conf = t_env.get_spark_session().conf
    assert conf.get("spark.sql.execution.arrow.maxBytesPerBatch").rstrip("b") == str(2**31 - 1)


def test_group_boundaries_of_integer_keys_with_and_without_nulls() -> None:
    assert group_starts(_batch([1, 1, 2, 2, 2, 3], [0] * 6), 1) == [0, 2, 5]
    assert group_starts(_batch([None, None, 1, 1, None], [0] * 5), 1) == [0, 2, 4]
    assert group_starts(_batch([7], [0]), 1) == [0]


# --- the automatic choice between packing and Spark's per-group path ---------------------------

def _aggregation_path(table: Any) -> str:
    """Which path the physical plan of ``table`` evaluates its Python aggregates with."""
    plan = table.explain()
    packed, per_group = "MapInArrow" in plan, "ArrowAggregatePython" in plan
    assert packed != per_group, plan
    return "packed" if packed else "per group"


def test_auto_choice_runs_few_large_groups_per_group_and_many_small_ones_packed(t_env: Any) -> None:
    import numpy as np

    t_env.get_config().set("pyflink_table.aggregate.packing", "auto")
    n = 90_000
    ids = np.arange(n)
    frame = pd.DataFrame({"b": ids % 3 == 0, "k": ids % 5_000, "v": (ids % 97).astype(float)})
    t = t_env.from_pandas(frame)
    mean = udaf(lambda v: float(v.mean()), result_type="DOUBLE", func_type="pandas")
    # A BOOLEAN key has at most 3 groups: 90,000 rows make groups of at least 30,000 rows.
    by_flag = t.group_by(col("b")).select(col("b"), mean(col("v")))
    assert _aggregation_path(by_flag) == "per group"
    g = frame.groupby("b")["v"].mean()
    assert sorted_rows(by_flag) == [(b, pytest.approx(g[b])) for b in (False, True)]
    # An integer key's distinct count is unknown without column statistics: packed.
    by_key = t.group_by(col("k")).select(col("k"), mean(col("v")))
    assert _aggregation_path(by_key) == "packed"
    g = frame.groupby("k")["v"].mean()
    assert sorted_rows(by_key) == [(k, pytest.approx(g[k])) for k in range(5_000)]
    # Few rows under a BOOLEAN key: packed; and the option's explicit values still decide.
    small = t_env.from_pandas(frame.head(1_000))
    assert _aggregation_path(small.group_by(col("b")).select(mean(col("v")))) == "packed"
    t_env.get_config().set("pyflink_table.aggregate.packing", "true")
    assert _aggregation_path(t.group_by(col("b")).select(mean(col("v")))) == "packed"


def test_auto_choice_reads_column_statistics(t_env: Any, tmp_path: Any) -> None:
    import numpy as np

    spark = t_env.get_spark_session()
    n = 90_000
    ids = np.arange(n)
    frame = pd.DataFrame({"k": ids % 3, "v": (ids % 97).astype(float)})
    # CSV: no footer statistics, so only ANALYZE's column statistics can bound k.
    spark.createDataFrame(frame).write.csv(str(tmp_path / "few"))
    spark.sql(f"CREATE TABLE few_keys (k BIGINT, v DOUBLE) USING csv LOCATION '{tmp_path / 'few'}'")
    try:
        mean = udaf(lambda v: float(v.mean()), result_type="DOUBLE", func_type="pandas")

        def by_key() -> Any:
            return t_env.from_path("few_keys").group_by(col("k")).select(col("k"), mean(col("v")))

        assert _aggregation_path(by_key()) == "packed"  # no statistics yet
        spark.sql("ANALYZE TABLE few_keys COMPUTE STATISTICS FOR COLUMNS k")
        spark.conf.set("spark.sql.cbo.enabled", "true")
        assert _aggregation_path(by_key()) == "per group"  # 3 distinct keys over 90,000 rows
        g = frame.groupby("k")["v"].mean()
        assert sorted_rows(by_key()) == [(k, pytest.approx(g[k])) for k in range(3)]
    finally:
        spark.conf.unset("spark.sql.cbo.enabled")
        spark.sql("DROP TABLE few_keys")


def test_auto_choice_reads_the_bounds_of_a_cached_integer_key(t_env: Any, tmp_path: Any) -> None:
    import numpy as np

    spark = t_env.get_spark_session()
    n = 90_000
    ids = np.arange(n)
    frame = pd.DataFrame({"k": ids % 3 + 10, "m": ids % 5_000, "j": ids % 12, "h": ids % 30,
                          "v": (ids % 97).astype(float)})
    # CSV: no footer statistics, so only the cache's bounds can bound the keys.
    spark.createDataFrame(frame).write.csv(str(tmp_path / "cached"))
    spark.sql(f"CREATE TABLE cached_keys (k BIGINT, m BIGINT, j BIGINT, h BIGINT, v DOUBLE) USING csv "
              f"LOCATION '{tmp_path / 'cached'}'")
    try:
        mean = udaf(lambda v: float(v.mean()), result_type="DOUBLE", func_type="pandas")

        def by(key: str) -> Any:
            return t_env.from_path("cached_keys").group_by(col(key)).select(col(key), mean(col("v")))

        assert _aggregation_path(by("k")) == "packed"  # not cached: nothing bounds k
        spark.sql("CACHE TABLE cached_keys")
        sc = spark.sparkContext
        sc.setJobGroup("cached-key-bounds", "planning only")
        try:
            # The cache's bounds of k are 10 and 12: at most 3 groups of 90,000 rows.
            assert _aggregation_path(by("k")) == "per group"
            jobs = len(sc.statusTracker().getJobIdsForGroup("cached-key-bounds"))
            assert jobs >= 1  # the bounds were read by a job
            # Planning again reads the bounds it already has: no job (cached batches never change).
            assert _aggregation_path(by("k")) == "per group"
            assert len(sc.statusTracker().getJobIdsForGroup("cached-key-bounds")) == jobs
        finally:
            sc.setLocalProperty("spark.jobGroup.id", None)
            sc.setLocalProperty("spark.job.description", None)
        g = frame.groupby("k")["v"].mean()
        assert sorted_rows(by("k")) == [(k, pytest.approx(g[k])) for k in (10, 11, 12)]
        # m spans 0..4,999: groups of 18 rows stay packed.
        assert _aggregation_path(by("m")) == "packed"
        # Either side of the crossover measured for cached input (5,000 rows per group): j spans
        # 0..11, groups of at least 7,500 rows, per group; h spans 0..29, groups of 3,000 rows,
        # packed (read from the files instead, it would take the per-group path: see below).
        assert _aggregation_path(by("j")) == "per group"
        assert _aggregation_path(by("h")) == "packed"
    finally:
        spark.sql("UNCACHE TABLE IF EXISTS cached_keys")
        spark.sql("DROP TABLE cached_keys")


def _parquet_source(t_env: Any, name: str, path: Any, schema: str) -> None:
    t_env.execute_sql(f"CREATE TEMPORARY TABLE {name} ({schema}) WITH ('connector' = 'filesystem', "
                      f"'path' = '{path}', 'format' = 'parquet')")


def test_auto_choice_reads_the_footers_of_a_parquet_file_source(t_env: Any, tmp_path: Any) -> None:
    import numpy as np
    import pyarrow.parquet as pq

    t_env.get_config().set("pyflink_table.aggregate.packing", "auto")
    n = 90_000
    ids = np.arange(n)
    frame = pd.DataFrame({"k": ids % 3 + 10, "j": ids % 12, "h": ids % 30, "q": ids % 60, "m": ids % 5_000,
                          "s": ["key-%d" % i for i in ids % 4], "v": (ids % 97).astype(float)})
    # Written by pyarrow, not Spark: two files of one row group each, with statistics and dictionaries.
    (tmp_path / "src").mkdir()
    pq.write_table(pa.Table.from_pandas(frame.iloc[: n // 2], preserve_index=False), tmp_path / "src" / "a.parquet")
    pq.write_table(pa.Table.from_pandas(frame.iloc[n // 2:], preserve_index=False), tmp_path / "src" / "b.parquet")
    _parquet_source(t_env, "files", tmp_path / "src",
                    "k BIGINT, j BIGINT, h BIGINT, q BIGINT, m BIGINT, s STRING, v DOUBLE")
    mean = udaf(lambda v: float(v.mean()), result_type="DOUBLE", func_type="pandas")

    def by(key: str) -> Any:
        return t_env.from_path("files").group_by(col(key)).select(col(key), mean(col("v")))

    # 90,000 rows in the footers; k spans 10..12 in both files: at most 3 groups of 30,000 rows.
    assert _aggregation_path(by("k")) == "per group"
    g = frame.groupby("k")["v"].mean()
    assert sorted_rows(by("k")) == [(k, pytest.approx(g[k])) for k in (10, 11, 12)]
    # Either side of 2,000 rows per group (the crossover measured for input read from files; 5,000
    # for cached input): j spans 0..11 (at least 7,500 rows per group) and h 0..29 (3,000), per
    # group; q spans 0..59 (1,500), packed; m spans 0..4,999 (18), packed.
    assert _aggregation_path(by("j")) == "per group"
    assert _aggregation_path(by("h")) == "per group"
    assert _aggregation_path(by("q")) == "packed"
    assert _aggregation_path(by("m")) == "packed"
    # A string key: each file's dictionary of s has 4 entries, at most 8 groups over both files.
    assert _aggregation_path(by("s")) == "per group"
    g = frame.groupby("s")["v"].mean()
    assert sorted_rows(by("s")) == [(s, pytest.approx(g[s])) for s in sorted(g.index)]
    # The same aggregation packed gives the same rows.
    t_env.get_config().set("pyflink_table.aggregate.packing", "true")
    assert _aggregation_path(by("s")) == "packed"
    assert sorted_rows(by("s")) == [(s, pytest.approx(g[s])) for s in sorted(g.index)]
    t_env.get_config().set("pyflink_table.aggregate.packing", "auto")
    # A filter makes the footers' row count an overestimate: packed (the size says too few rows).
    filtered = t_env.from_path("files").where(col("v") > 1.0).group_by(col("k")).select(mean(col("v")))
    assert _aggregation_path(filtered) == "packed"


def test_auto_choice_unites_the_dictionaries_of_many_row_groups(t_env: Any, tmp_path: Any) -> None:
    import numpy as np
    import pyarrow.parquet as pq

    t_env.get_config().set("pyflink_table.aggregate.packing", "auto")
    n = 90_000
    ids = np.arange(n)
    frame = pd.DataFrame({"s": ["key-%d" % i for i in ids % 4], "d": (ids % 6) / 2.0,
                          "t": ["t-%d" % i for i in ids % 60], "v": (ids % 97).astype(float)})
    # 18 row groups of 5,000 rows, each with every key in its dictionary: the dictionaries' sizes
    # add up to 72 entries for s (1,250 rows per group, too few), their union has 4 values.
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), tmp_path / "groups.parquet",
                   row_group_size=5_000)
    assert pq.ParquetFile(tmp_path / "groups.parquet").metadata.num_row_groups == 18
    _parquet_source(t_env, "row_groups", tmp_path / "groups.parquet", "s STRING, d DOUBLE, t STRING, v DOUBLE")
    mean = udaf(lambda v: float(v.mean()), result_type="DOUBLE", func_type="pandas")

    def by(key: str) -> Any:
        return t_env.from_path("row_groups").group_by(col(key)).select(col(key), mean(col("v")))

    assert _aggregation_path(by("s")) == "per group"
    g = frame.groupby("s")["v"].mean()
    assert sorted_rows(by("s")) == [(s, pytest.approx(g[s])) for s in sorted(g.index)]
    # A DOUBLE key's dictionaries unite as well: 6 values, 15,000 rows per group.
    assert _aggregation_path(by("d")) == "per group"
    # t has 60 values: 1,500 rows per group, packed.
    assert _aggregation_path(by("t")) == "packed"


def test_auto_choice_counts_nulls_and_packs_without_footer_bounds(t_env: Any, tmp_path: Any) -> None:
    import numpy as np
    import pyarrow.parquet as pq

    t_env.get_config().set("pyflink_table.aggregate.packing", "auto")
    n = 7_000
    ids = np.arange(n)
    # k: 0, 1, 2 and NULL, at most 4 groups: 7,000 rows < 4 x 2,000, packed. c: 0, 1, 2 without
    # NULL, at most 3 groups: 7,000 >= 3 x 2,000, per group. s is written without a dictionary.
    k = pd.array(ids % 4, dtype="Int64")
    k[ids % 4 == 3] = pd.NA
    frame = pd.DataFrame({"k": k, "c": ids % 3, "s": ["s%d" % (i % 2) for i in ids],
                          "v": (ids % 97).astype(float)})
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), tmp_path / "nulls.parquet",
                   use_dictionary=["k", "c"])
    _parquet_source(t_env, "nulls", tmp_path / "nulls.parquet", "k BIGINT, c BIGINT, s STRING, v DOUBLE")
    mean = udaf(lambda v: float(v.mean()), result_type="DOUBLE", func_type="pandas")

    def by(key: str) -> Any:
        return t_env.from_path("nulls").group_by(col(key)).select(col(key), mean(col("v")))

    assert _aggregation_path(by("k")) == "packed"
    assert _aggregation_path(by("c")) == "per group"
    # s: plain encoded, no dictionary to bound it and no range for a string: packed.
    assert _aggregation_path(by("s")) == "packed"
    for key in ("k", "c"):
        g = frame.groupby(key, dropna=False)["v"].mean()
        expected = sorted((((None if pd.isna(x) else int(x)), y) for x, y in g.items()),
                          key=lambda e: (e[0] is not None, e[0] or 0))  # NULLs first, as sorted_rows
        result = sorted_rows(by(key))
        assert [r[0] for r in result] == [e[0] for e in expected]
        assert [r[1] for r in result] == [pytest.approx(e[1]) for e in expected]


def test_auto_choice_reads_the_footers_of_an_orc_file_source(t_env: Any, tmp_path: Any) -> None:
    import numpy as np
    import pyarrow.orc as orc

    t_env.get_config().set("pyflink_table.aggregate.packing", "auto")
    n = 90_000
    ids = np.arange(n)
    k = pd.array(ids % 3 + 10, dtype="Int64")
    k[ids % 1_000 == 0] = pd.NA
    frame = pd.DataFrame({"k": k, "j": ids % 12, "h": ids % 60, "s": ["key-%d" % i for i in ids % 4],
                          "v": (ids % 97).astype(float)})
    # Written by pyarrow: two files, each with its footer's row count and column statistics.
    (tmp_path / "orc").mkdir()
    orc.write_table(pa.Table.from_pandas(frame.iloc[: n // 2], preserve_index=False), tmp_path / "orc" / "a.orc")
    orc.write_table(pa.Table.from_pandas(frame.iloc[n // 2:], preserve_index=False), tmp_path / "orc" / "b.orc")
    t_env.execute_sql(f"CREATE TEMPORARY TABLE orc_files (k BIGINT, j BIGINT, h BIGINT, s STRING, v DOUBLE) "
                      f"WITH ('connector' = 'filesystem', 'path' = '{tmp_path / 'orc'}', 'format' = 'orc')")
    mean = udaf(lambda v: float(v.mean()), result_type="DOUBLE", func_type="pandas")

    def by(key: str) -> Any:
        return t_env.from_path("orc_files").group_by(col(key)).select(col(key), mean(col("v")))

    # 90,000 rows in the footers; k spans 10..12 and has NULLs: at most 4 groups of 22,500 rows.
    assert _aggregation_path(by("k")) == "per group"
    g = frame.groupby("k")["v"].mean()
    expected = [(None, pytest.approx(frame[frame.k.isna()].v.mean()))]  # NULLs first, as sorted_rows
    expected += [(x, pytest.approx(g[x])) for x in (10, 11, 12)]
    assert sorted_rows(by("k")) == expected
    # Either side of 2,000 rows per group: j spans 0..11, per group; h spans 0..59 (1,500), packed.
    assert _aggregation_path(by("j")) == "per group"
    assert _aggregation_path(by("h")) == "packed"
    # A string key: ORC's footer has no dictionary sizes, so nothing bounds s: packed.
    assert _aggregation_path(by("s")) == "packed"
    # A filter makes the footers' row count an overestimate: it is not used, and the files' size
    # over the row width is too small for h's 60 keys: packed.
    filtered = t_env.from_path("orc_files").where(col("v") > 1.0).group_by(col("h")).select(mean(col("v")))
    assert _aggregation_path(filtered) == "packed"


def test_unknown_packing_value_is_refused(t_env: Any) -> None:
    from pyflink_table import TableException

    t_env.get_config().set("pyflink_table.aggregate.packing", "sometimes")
    t = t_env.from_elements([(1, 2.0)], ["k", "v"])
    mean = udaf(lambda v: float(v.mean()), result_type="DOUBLE", func_type="pandas")
    with pytest.raises(TableException, match="'sometimes' of pyflink_table.aggregate.packing; expected auto, true"):
        t.group_by(col("k")).select(mean(col("v")))
