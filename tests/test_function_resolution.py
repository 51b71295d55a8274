"""Which function an unqualified name calls: Flink's order is temporary system functions, built-ins,
temporary catalog functions, in SQL and the Table API alike. A catalog function named like a
Spark-only built-in (MEAN) is the user's, since Flink has no such built-in; and the bridge's own
calls of built-ins (CSV reading, window rewrites) stay Spark's built-ins whatever the user registers.
Expected values measured on PyFlink 2.3 with the same programs (run through both engines on
2026-11-24)."""

from __future__ import annotations

import datetime
from pathlib import Path

from pyflink_table import DataTypes, TableEnvironment
from pyflink_table.expressions import call, call_sql, col
from pyflink_table.udf import udaf, udf, udtf

from conftest import sorted_rows


def test_temporary_system_function_hides_a_built_in(t_env: TableEnvironment) -> None:
    t = t_env.from_elements([("a", 1), ("a", 2)], ["k", "v"])
    t_env.create_temporary_view("fr_t", t)
    t_env.create_temporary_system_function("upper", udf(lambda s: s + "!", result_type=DataTypes.STRING()))
    try:
        assert sorted_rows(t_env.sql_query("SELECT upper(k) FROM fr_t")) == [("a!",), ("a!",)]
        assert sorted_rows(t_env.sql_query("SELECT `upper`(k) FROM fr_t")) == [("a!",), ("a!",)]
        assert sorted_rows(t.select(call("upper", col("k")))) == [("a!",), ("a!",)]
        assert sorted_rows(t.select(call_sql("upper(k)"))) == [("a!",), ("a!",)]
    finally:
        t_env.drop_temporary_system_function("upper")
    # dropped: the built-in again
    assert sorted_rows(t_env.sql_query("SELECT upper(k) FROM fr_t")) == [("A",), ("A",)]
    assert sorted_rows(t.select(call("upper", col("k")))) == [("A",), ("A",)]


def test_built_in_hides_a_temporary_catalog_function(t_env: TableEnvironment) -> None:
    t = t_env.from_elements([("a", 1)], ["k", "v"])
    t_env.create_temporary_view("fr_t2", t)
    t_env.create_temporary_function("lower", udf(lambda s: s + "?", result_type=DataTypes.STRING()))
    assert sorted_rows(t_env.sql_query("SELECT lower(k) FROM fr_t2")) == [("a",)]
    assert sorted_rows(t.select(call("lower", col("k")))) == [("a",)]


def test_catalog_function_named_like_a_spark_only_built_in(t_env: TableEnvironment) -> None:
    # Flink has no MEAN built-in, so the user's pandas mean is called (Spark's mean, taken for
    # Flink's AVG of INT, gave 1 in SQL before).
    t = t_env.from_elements([("a", 1), ("a", 2)], ["k", "v"])
    t_env.create_temporary_view("fr_t3", t)
    t_env.create_temporary_function(
        "mean", udaf(lambda v: v.mean(), result_type=DataTypes.DOUBLE(), func_type="pandas"))
    assert sorted_rows(t_env.sql_query("SELECT k, mean(v) FROM fr_t3 GROUP BY k")) == [("a", 1.5)]
    assert sorted_rows(t.group_by(col("k")).select(col("k"), call("mean", col("v")))) == [("a", 1.5)]
    # a SQL view keeps calling it
    t_env.execute_sql("CREATE TEMPORARY VIEW fr_mean AS SELECT k, mean(v) AS m FROM fr_t3 GROUP BY k")
    assert sorted_rows(t_env.sql_query("SELECT * FROM fr_mean")) == [("a", 1.5)]


def test_system_function_hides_a_catalog_function_of_the_same_name(t_env: TableEnvironment) -> None:
    t = t_env.from_elements([("a", 1), ("a", 2)], ["k", "v"])
    t_env.create_temporary_view("fr_t4", t)
    t_env.create_temporary_function(
        "mean", udaf(lambda v: v.mean(), result_type=DataTypes.DOUBLE(), func_type="pandas"))
    t_env.create_temporary_system_function(
        "mean", udaf(lambda v: v.max() * 10.0, result_type=DataTypes.DOUBLE(), func_type="pandas"))
    assert sorted_rows(t_env.sql_query("SELECT k, mean(v) FROM fr_t4 GROUP BY k")) == [("a", 20.0)]
    t_env.drop_temporary_system_function("mean")
    # the catalog function is SQL's again
    assert sorted_rows(t_env.sql_query("SELECT k, mean(v) FROM fr_t4 GROUP BY k")) == [("a", 1.5)]


def test_user_functions_named_like_functions_the_sql_rewrites_use(t_env: TableEnvironment) -> None:
    t = t_env.from_elements([("a", "x,y"), ("a", "z")], ["k", "c"])
    t_env.create_temporary_view("fr_t5", t)

    @udtf(result_types=[DataTypes.STRING()])
    def split(s: str):  # type: ignore[no-untyped-def]
        for p in s.split(","):
            yield p

    # SPLIT is a Spark (scalar) built-in: LATERAL split(c) was refused as "not a table function".
    t_env.create_temporary_system_function("split", split)
    assert sorted_rows(t_env.sql_query("SELECT k, w FROM fr_t5, LATERAL TABLE(split(c)) AS T(w)")) == [
        ("a", "x"), ("a", "y"), ("a", "z")]
    # SPLIT_INDEX is a Flink built-in the SQL rewrite turns into Spark calls: the user's wins.
    t_env.create_temporary_system_function(
        "split_index", udf(lambda s, sep, i: "U" + s, result_type=DataTypes.STRING()))
    assert sorted_rows(t_env.sql_query("SELECT split_index(c, ',', 0) FROM fr_t5")) == [("Ux,y",), ("Uz",)]


def test_system_concat_with_a_csv_source_and_windows(t_env: TableEnvironment, tmp_path: Path) -> None:
    # The CSV reader and the window rewrites call Spark's built-ins (trim, concat, window, ...) by
    # name; a user's system function named concat must not capture them, only the query's own calls.
    (tmp_path / "in.csv").write_text(
        " a ,2020-01-01 00:00:01,1\nb,2020-01-01 00:00:02,2\n a ,2020-01-01 00:00:07,3\n"
        "\"x,y\",2020-01-01 00:00:03,4\n")
    t_env.execute_sql(
        "CREATE TABLE fr_src (name STRING, ts TIMESTAMP(3), v INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) "
        f"WITH ('connector'='filesystem','path'='{tmp_path}','format'='csv')")
    t_env.create_temporary_system_function(
        "concat", udf(lambda a, b: "<" + a + "|" + b + ">", result_type=DataTypes.STRING()))
    assert sorted_rows(t_env.sql_query("SELECT name, concat(name, 'z'), v FROM fr_src")) == [
        (" a ", "< a |z>", 1), (" a ", "< a |z>", 3), ("b", "<b|z>", 2), ("x,y", "<x,y|z>", 4)]
    start = datetime.datetime(2020, 1, 1)
    windowed = [("< a |w>", start, 1), ("< a |w>", start + datetime.timedelta(seconds=5), 3),
                ("<b|w>", start, 2), ("<x,y|w>", start, 4)]
    assert sorted_rows(t_env.sql_query(
        "SELECT concat(name, 'w'), TUMBLE_START(ts, INTERVAL '5' SECOND), SUM(v) FROM fr_src "
        "GROUP BY name, TUMBLE(ts, INTERVAL '5' SECOND)")) == windowed
    assert sorted_rows(t_env.sql_query(
        "SELECT concat(name, 'w'), window_start, SUM(v) "
        "FROM TABLE(TUMBLE(TABLE fr_src, DESCRIPTOR(ts), INTERVAL '5' SECOND)) "
        "GROUP BY name, window_start, window_end")) == windowed
