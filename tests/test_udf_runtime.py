"""Python scalar functions at run time: registration, SQL, where UDFs may appear, lifecycle,
job parameters, metrics, dependencies, failures and the fused Arrow evaluation step.

Expected values are computed by hand next to each check.
"""

from __future__ import annotations

import sys

import os
import re
import zipfile

import pandas as pd
import pytest

from pyflink_table.errors import PythonException, TableException, ValidationException
from pyflink_table.expressions import call, col, lit
from pyflink_table.udf import AggregateFunction, FunctionContext, ScalarFunction, TableFunction, udaf, udf, udtf
from pyspark import cloudpickle

from conftest import rows, sorted_rows

# Functions and classes of this module travel to the Spark workers by value (workers cannot import it).
cloudpickle.register_pickle_by_value(sys.modules[__name__])


@udf(result_type="BIGINT")
def plus_one(i):
    return i + 1


@udf(result_type="BIGINT")
def twice(i):
    return i * 2


@udf(result_type="BIGINT", func_type="pandas")
def pandas_twice(i):
    return i * 2


def test_registration_sql_call_and_string_expressions(t_env):
    t_env.create_temporary_system_function("plus_one", plus_one)
    t_env.create_temporary_function("default_catalog.default_database.twice", twice)
    t_env.register_function("p_twice", pandas_twice)             # FLIP-38/58
    t_env.create_function("twice_again", twice)
    t = t_env.from_elements([(1,), (2,)], ["a"])
    t_env.create_temporary_view("src", t)
    assert {"plus_one", "twice", "p_twice", "twice_again"} <= set(t_env.list_user_defined_functions())
    # by hand: a+1, 2a, 2a, 2a
    expected = [(2, 2, 2, 2), (3, 4, 4, 4)]
    assert sorted_rows(t_env.sql_query(
        "SELECT plus_one(a), twice(a), p_twice(a), twice_again(a) FROM src")) == expected
    assert sorted_rows(t.select(call("plus_one", col("a")), call("twice", col("a")), call("p_twice", col("a")),
                                call("twice_again", col("a")))) == expected
    assert sorted_rows(t.select("plus_one(a) as x, twice(a), p_twice(a), twice_again(a)")) == expected
    with pytest.raises(ValidationException, match="plus_one"):
        t_env.create_temporary_system_function("plus_one", twice)
    t_env.create_function("twice_again", plus_one, ignore_if_exists=True)
    assert t_env.drop_temporary_system_function("plus_one") is True
    assert t_env.drop_temporary_system_function("plus_one") is False
    assert t_env.drop_temporary_function("twice") is True
    assert t_env.drop_function("twice_again") is True
    assert "plus_one" not in t_env.list_user_defined_functions()
    with pytest.raises(Exception, match="(?i)plus_one"):
        rows(t_env.sql_query("SELECT plus_one(a) FROM src"))
    with pytest.raises(ValidationException, match="udf"):
        t_env.create_temporary_function("raw", lambda x: x)
    with pytest.raises(TableException, match="Unsupported: Java"):
        t_env.create_java_temporary_function("j", "com.example.F")


def test_udfs_in_filter_group_by_order_by_and_join(t_env):
    left = t_env.from_elements([(1, "a"), (2, "b"), (3, "c"), (4, "d")], ["k", "v"])
    right = t_env.from_elements([(2, "x"), (3, "y"), (5, "z")], ["k2", "w"])
    parity = udf(lambda i: i % 2, result_type="BIGINT")
    # filter: k+1 > 2 keeps k in {2,3,4}
    assert sorted_rows(left.where(plus_one(col("k")) > 2).select(col("k"))) == [(2,), (3,), (4,)]
    # group by a UDF key: parity 1 -> k 1,3 (sum 4); parity 0 -> 2,4 (sum 6)
    grouped = left.add_columns(parity(col("k")).alias("p")).group_by(col("p")).select(col("p"), col("k").sum.alias("s"))
    assert sorted_rows(grouped) == [(0, 6), (1, 4)]
    assert sorted_rows(left.group_by(parity(col("k"))).select(col("k").sum.alias("s"))) == [(4,), (6,)]
    # order by a UDF: -k descending by twice(k) desc -> 4,3,2,1
    assert [r[0] for r in rows(left.order_by(twice(col("k")).desc).select(col("k")))] == [4, 3, 2, 1]
    # join condition with a UDF on one side: k + 1 == k2 -> (1,2), (2,3), (4,5)
    joined = left.join(right).where(plus_one(col("k")) == col("k2")).select(col("k"), col("w"))
    assert sorted_rows(joined) == [(1, "x"), (2, "y"), (4, "z")]


def test_sibling_and_chained_udfs_run_in_one_python_step(t_env):
    t = t_env.from_elements([(1,), (2,)], ["a"])
    mixed = t.select(plus_one(twice(col("a"))), twice(col("a")) + 1, plus_one(col("a")) * lit(3))
    plan = mixed.explain()
    physical = plan[plan.index("== Physical Plan =="):]
    # One Python step (mapInArrow, see ScalarProjections) evaluates every Python call (sibling and
    # nested) of the projection; Spark's ArrowEvalPython is not used.
    assert len(re.findall(r"MapInArrow", physical)) == 1 and "ArrowEvalPython" not in physical, physical
    # by hand: 2a+1, 2a+1, 3(a+1)
    assert sorted_rows(mixed) == [(3, 3, 6), (5, 5, 9)]
    # General and pandas functions mixed, nested both ways, still one step: all are scalar Arrow UDFs.
    both = t.select(pandas_twice(plus_one(col("a"))), plus_one(pandas_twice(col("a"))), pandas_twice(col("a")))
    both_plan = both.explain()
    assert len(re.findall(r"MapInArrow", both_plan[both_plan.index("== Physical Plan =="):])) == 1
    # by hand: 2(a+1), 2a+1, 2a
    assert sorted_rows(both) == [(4, 3, 2), (6, 5, 4)]
    # A function without arguments runs per row (Spark passes it no batch length).
    constant = udf(lambda: 7, result_type="BIGINT", name="seven")
    assert sorted_rows(t.select(col("a"), constant())) == [(1, 7), (2, 7)]


class Lifecycle(ScalarFunction):
    def open(self, function_context: FunctionContext) -> None:
        self.offset = int(function_context.get_job_parameter("offset", "0"))
        self.missing = function_context.get_job_parameter("nope", "dflt")
        group = function_context.get_metric_group().add_group("lc")
        self.rows = group.counter("rows")
        self.opens = group.counter("opens")
        self.opens.inc()
        self.values = group.distribution("values")
        self.meter = group.meter("events")
        group.gauge("constant", lambda: 42)
        index, parallelism = function_context.get_index_of_this_subtask(), function_context.get_number_of_parallel_subtasks()
        group.gauge("subtask_index_valid", lambda: int(0 <= index < parallelism))
        self.closes = group.counter("closes")

    def eval(self, i):
        self.rows.inc()
        self.values.update(i)
        self.meter.mark_event()
        return f"{i + self.offset}:{self.missing}"

    def close(self) -> None:
        self.closes.inc()


def test_lifecycle_job_parameters_and_metrics(t_env):
    t_env.get_config().set("pipeline.global-job-parameters", "offset:100,other:x")
    f = udf(Lifecycle(), result_type="STRING", name="lifecycle_fn")
    t = t_env.from_elements([(i,) for i in range(1, 6)], ["a"])
    assert sorted_rows(t.select(f(col("a")))) == [(f"{i + 100}:dflt",) for i in range(1, 6)]
    metrics = t_env.get_metrics()
    assert metrics["lifecycle_fn.lc.rows"] == 5
    # every opened instance was closed, and at least one was opened
    assert metrics["lifecycle_fn.lc.opens"] == metrics["lifecycle_fn.lc.closes"] >= 1
    assert metrics["lifecycle_fn.lc.values"]["count"] == 5
    assert metrics["lifecycle_fn.lc.values"]["sum"] == 15  # 1+2+3+4+5
    assert (metrics["lifecycle_fn.lc.values"]["min"], metrics["lifecycle_fn.lc.values"]["max"]) == (1, 5)
    assert metrics["lifecycle_fn.lc.events"]["count"] == 5
    assert metrics["lifecycle_fn.lc.constant"] == 42
    assert metrics["lifecycle_fn.lc.subtask_index_valid"] == 1


def test_failures_name_the_function_and_show_the_traceback(t_env):
    t = t_env.from_elements([(1,), (0,)], ["a"])

    @udf(result_type="BIGINT")
    def divide_ten(i):
        return 10 // i

    with pytest.raises(PythonException) as err:
        rows(t.select(divide_ten(col("a"))))
    text = str(err.value)
    assert "divide_ten" in text and "ZeroDivisionError" in text and "Traceback" in text
    assert "10 // i" in text  # the user's source line from the traceback

    wrong_type = udf(lambda i: "not a number", result_type="BIGINT", name="wrong_type")
    with pytest.raises(PythonException, match="wrong_type.*BIGINT"):
        rows(t.select(wrong_type(col("a"))))
    truncating = udf(lambda i: 1.7, result_type="BIGINT", name="float_for_bigint")
    with pytest.raises(PythonException, match="float_for_bigint"):
        rows(t.select(truncating(col("a"))))

    pandas_str = udf(lambda s: s.astype(str) + "x", result_type="BIGINT", func_type="pandas", name="pandas_str")
    with pytest.raises(PythonException, match="pandas_str.*BIGINT"):
        rows(t.select(pandas_str(col("a"))))
    pandas_frac = udf(lambda s: s + 0.5, result_type="BIGINT", func_type="pandas", name="pandas_frac")
    with pytest.raises(PythonException, match="pandas_frac.*BIGINT.*truncated"):
        rows(t.select(pandas_frac(col("a"))))

    doubled = udf(lambda s: pd.concat([s, s]), result_type="BIGINT", func_type="pandas", name="long_series")
    with pytest.raises(PythonException, match="long_series.*length"):
        rows(t.select(doubled(col("a"))))


def test_python_dependencies_reach_the_workers(t_env, tmp_path):
    module_dir = tmp_path / "mods"
    module_dir.mkdir()
    (module_dir / "c_helper_mod.py").write_text("def shout(s):\n    return s.upper() + '!'\n")
    pkg = tmp_path / "c_helper_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("FACTOR = 7\n")
    archive = tmp_path / "data.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("words.txt", "from-archive")
    t_env.add_python_file(str(module_dir / "c_helper_mod.py"))
    t_env.add_python_file(str(pkg))
    t_env.add_python_archive(str(archive), "dat")

    @udf(result_type="STRING")
    def use_helpers(s):
        import c_helper_mod
        import c_helper_pkg
        with open(os.path.join("dat", "words.txt")) as fh:
            word = fh.read()
        return f"{c_helper_mod.shout(s)}{c_helper_pkg.FACTOR}{word}"

    t = t_env.from_elements([("a",), ("b",)], ["s"])
    assert sorted_rows(t.select(use_helpers(col("s")))) == [("A!7from-archive",), ("B!7from-archive",)]


def test_python_requirements_installed_from_a_local_package(t_env, tmp_path):
    # A tiny local wheel installed by pip for the workers (offline: a file path requirement).
    wheel = tmp_path / "c_req_pkg-0.1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("c_req_pkg/__init__.py", "def answer():\n    return 41 + 1\n")
        zf.writestr("c_req_pkg-0.1.dist-info/METADATA", "Metadata-Version: 2.1\nName: c-req-pkg\nVersion: 0.1\n")
        zf.writestr("c_req_pkg-0.1.dist-info/WHEEL",
                    "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        zf.writestr("c_req_pkg-0.1.dist-info/RECORD", "")
    req = tmp_path / "requirements.txt"
    req.write_text(f"{wheel}\n")
    t_env.set_python_requirements(str(req))

    @udf(result_type="BIGINT")
    def use_requirement(i):
        import os

        import c_req_pkg
        # Flink's workers name where the requirements were installed (PyFlink 2.3's own
        # test_set_requirements_without_cached_directory asserts it); here the path holds the package.
        assert os.path.exists(os.path.join(os.environ["_PYTHON_REQUIREMENTS_INSTALL_DIR"]))
        assert c_req_pkg.__file__.startswith(os.environ["_PYTHON_REQUIREMENTS_INSTALL_DIR"])
        return c_req_pkg.answer() + i

    t = t_env.from_elements([(0,), (1,)], ["i"])
    assert sorted_rows(t.select(use_requirement(col("i")))) == [(42,), (43,)]


def test_arrow_batch_size_and_bundle_size_options(t_env):
    batch_length = udf(lambda s: pd.Series([len(s)] * len(s)), result_type="BIGINT", func_type="pandas",
                       name="batch_length")
    t = t_env.from_elements([(i,) for i in range(6)], ["a"])
    t_env.get_config().set("python.fn-execution.arrow.batch.size", "2")
    spark_conf = t_env.get_spark_session().conf
    assert spark_conf.get("spark.sql.execution.arrow.maxRecordsPerBatch") == "2"
    assert max(r[0] for r in rows(t.select(batch_length(col("a"))))) <= 2
    # bundle.size caps the batch size (Flink requires batch <= bundle)
    t_env.get_config().set("python.fn-execution.arrow.batch.size", "10000")
    t_env.get_config().set("python.fn-execution.bundle.size", "1")
    assert [r[0] for r in rows(t.select(batch_length(col("a"))))] == [1] * 6
    assert spark_conf.get("spark.sql.execution.arrow.maxRecordsPerBatch") == "1"


class CountingSplit(TableFunction):
    def open(self, function_context: FunctionContext) -> None:
        self.rows = function_context.get_metric_group().counter("rows")

    def eval(self, s):
        self.rows.inc()
        yield from s.split(",")


class CountingSum(AggregateFunction):
    def open(self, function_context: FunctionContext) -> None:
        self.rows = function_context.get_metric_group().add_group("acc").counter("rows")

    def create_accumulator(self):
        return [0]

    def accumulate(self, acc, v):
        self.rows.inc()
        acc[0] += v

    def get_value(self, acc):
        return acc[0]


def test_metrics_of_table_and_aggregate_functions_reach_the_driver(t_env):
    """Every function kind registers metrics the same way, and they reach get_metrics()."""
    t = t_env.from_elements([(1, "a,b", 1), (2, "c", 2), (3, "d,e,f", 3), (4, "g", 4), (5, "h", 5)], ["k", "s", "v"])
    split = udtf(CountingSplit(), result_types=["STRING"], name="split_counted")
    total = udaf(CountingSum(), result_type="BIGINT", accumulator_type="ARRAY<BIGINT>", name="sum_counted")
    assert len(rows(t.join_lateral(split(col("s")).alias("w")).select(col("w")))) == 8
    assert sorted_rows(t.group_by(col("k") % 2).select(total(col("v")))) == [(6,), (9,)]
    metrics = t_env.get_metrics()
    # by hand: 5 input rows reach the table function, 5 rows are accumulated
    assert metrics["split_counted.rows"] == 5
    assert metrics["sum_counted.acc.rows"] == 5
