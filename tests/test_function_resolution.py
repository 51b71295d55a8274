"""Which function an unqualified name calls: Flink's order is temporary system functions, built-ins,
temporary catalog functions. The Table API follows it; SQL follows it for Flink's built-ins over
catalog functions (Spark's SQL still resolves its own built-ins first, see docs/porting.rst). Expected values measured on PyFlink 2.3
with the same program (tests ran /tmp programs through both engines on 2026-11-24)."""

from __future__ import annotations

from pyflink_table import DataTypes, TableEnvironment
from pyflink_table.expressions import call, col
from pyflink_table.udf import udaf, udf

from conftest import sorted_rows


def test_temporary_system_function_hides_a_built_in(t_env: TableEnvironment) -> None:
    t = t_env.from_elements([("a", 1), ("a", 2)], ["k", "v"])
    t_env.create_temporary_view("fr_t", t)
    t_env.create_temporary_system_function("upper", udf(lambda s: s + "!", result_type=DataTypes.STRING()))
    try:
        assert sorted_rows(t.select(call("upper", col("k")))) == [("a!",), ("a!",)]
    finally:
        t_env.drop_temporary_system_function("upper")
    # dropped: the built-in again
    assert sorted_rows(t.select(call("upper", col("k")))) == [("A",), ("A",)]


def test_built_in_hides_a_temporary_catalog_function(t_env: TableEnvironment) -> None:
    t = t_env.from_elements([("a", 1)], ["k", "v"])
    t_env.create_temporary_view("fr_t2", t)
    t_env.create_temporary_function("lower", udf(lambda s: s + "?", result_type=DataTypes.STRING()))
    assert sorted_rows(t_env.sql_query("SELECT lower(k) FROM fr_t2")) == [("a",)]
    assert sorted_rows(t.select(call("lower", col("k")))) == [("a",)]


def test_catalog_function_named_like_a_spark_only_built_in(t_env: TableEnvironment) -> None:
    # Flink has no MEAN built-in, so the user's pandas mean is called.
    t = t_env.from_elements([("a", 1), ("a", 2)], ["k", "v"])
    t_env.create_temporary_view("fr_t3", t)
    t_env.create_temporary_function(
        "mean", udaf(lambda v: v.mean(), result_type=DataTypes.DOUBLE(), func_type="pandas"))
    assert sorted_rows(t.group_by(col("k")).select(col("k"), call("mean", col("v")))) == [("a", 1.5)]
