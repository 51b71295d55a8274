"""Regular joins and Top-N over unbounded sources: what is refused, each by name (the changelogs
themselves are compared with PyFlink in tests/differential/test_diff_streaming_joins.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from pyflink_table import EnvironmentSettings, TableEnvironment, TableException
from pyflink_table.expressions import col


@pytest.fixture()
def s_env(_spark_started: None, tmp_path: Path) -> Iterator[TableEnvironment]:
    """A streaming environment with two monitored directories, l (k, a) and r (k2, b)."""
    env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    env.get_config().set("parallelism.default", "1")
    for name, columns in (("l", "k STRING, a INT"), ("r", "k2 STRING, b INT")):
        (tmp_path / name).mkdir()
        env.execute_sql(f"CREATE TABLE {name} ({columns}) WITH ('connector' = 'filesystem', "
                        f"'path' = '{tmp_path / name}', 'format' = 'csv', 'source.monitor-interval' = '100ms')")
    yield env


def _refused(env: TableEnvironment, query: str, *fragments: str) -> None:
    with pytest.raises(TableException) as e:
        env.sql_query(query).execute()
    message = str(e.value)
    assert message.startswith("Unsupported: "), message
    for f in fragments:
        assert f in message, message


def test_outer_join_condition_beyond_the_supported_functions_is_refused(s_env: TableEnvironment) -> None:
    # Parts of one input are Spark's; the processor evaluates comparisons, logic, CASE/IF/COALESCE,
    # arithmetic and a few string and time functions combining both inputs per pair (the
    # differential joins test them against PyFlink); another function of both inputs is refused,
    # naming the part, and so are TIMESTAMPDIFF/TIMESTAMPADD by months (of no fixed length).
    _refused(s_env, "SELECT k, a, b FROM l LEFT JOIN r ON k = k2 AND REVERSE(CONCAT(k, k2)) <> 'AB'",
             "the join condition part reverse(concat(l.k, r.k2))")
    _refused(s_env, "SELECT k, a, b FROM l LEFT JOIN r ON k = k2 AND COALESCE(REVERSE(CONCAT(k, k2)), k) <> 'AB'",
             "the join condition part reverse(concat(l.k, r.k2))")
    _refused(s_env, "SELECT k, a, b FROM l LEFT JOIN r ON k = k2 AND TIMESTAMPADD(MONTH, a, "
             "TIMESTAMPADD(DAY, b, TIMESTAMP '2024-01-31 00:00:00')) > TIMESTAMP '2024-03-01 00:00:00'",
             "the join condition part timestampadd(MONTH")


def test_outer_join_condition_dividing_by_zero_fails_the_job(s_env: TableEnvironment, tmp_path: Path) -> None:
    # PyFlink 2.3's job fails (Py4JJavaError: ... Caused by: java.lang.ArithmeticException: / by zero,
    # measured); the differential joins compare the condition's divisions that do not fail.
    (tmp_path / "r" / "f1.csv").write_text("a,0\n")
    (tmp_path / "l" / "f1.csv").write_text("a,1\n")
    with s_env.execute_sql("SELECT k, a, b FROM l LEFT JOIN r ON k = k2 AND a / b > 1").collect() as rows:
        with pytest.raises(TableException, match="java.lang.ArithmeticException: / by zero"):
            list(rows)


def test_outer_join_without_keys_is_refused(s_env: TableEnvironment) -> None:
    _refused(s_env, "SELECT k, a, b FROM l FULL JOIN r ON a < b", "without an equality condition")


def test_join_of_an_updating_input_without_keys_is_refused(s_env: TableEnvironment) -> None:
    # Joins of updating inputs run on the join processor (compared with PyFlink in
    # tests/differential/test_diff_streaming_updating_joins.py), which needs an equality.
    _refused(s_env, "SELECT k, s, b FROM (SELECT k, SUM(a) AS s FROM l GROUP BY k) JOIN r ON s < b",
             "a regular join without an equality condition")


def test_row_number_without_a_top_n_filter_is_refused(s_env: TableEnvironment) -> None:
    _refused(s_env, "SELECT k, a, ROW_NUMBER() OVER (PARTITION BY k ORDER BY a) AS rn FROM l",
             "ROW_NUMBER() without a filter rn <= N")


def test_rank_range_not_starting_at_one_over_updates_is_refused(s_env: TableEnvironment) -> None:
    # Over insert-only rows such ranges run (tests/differential/test_diff_streaming_joins.py); over
    # an aggregation's changes PyFlink 2.3 runs them too (its RetractableTopNFunction), we refuse.
    _refused(s_env, "SELECT k, s FROM (SELECT k, SUM(a) AS s FROM l GROUP BY k) ORDER BY s DESC LIMIT 1 OFFSET 1",
             "a Top-N whose rank range starts after 1")
    _refused(s_env, "SELECT k, s FROM (SELECT k, s, ROW_NUMBER() OVER (ORDER BY s) AS rn FROM "
             "(SELECT k, SUM(a) AS s FROM l GROUP BY k)) WHERE rn BETWEEN 2 AND 3", "a Top-N whose rank range starts after 1")


def test_row_number_with_only_a_lower_bound_is_refused(s_env: TableEnvironment) -> None:
    _refused(s_env, "SELECT k, a FROM (SELECT k, a, ROW_NUMBER() OVER (ORDER BY a) AS rn FROM l) WHERE rn > 2",
             "ROW_NUMBER() without a filter rn <= N")


def test_offset_without_a_sort_is_refused(s_env: TableEnvironment) -> None:
    _refused(s_env, "SELECT k, a FROM l LIMIT 2 OFFSET 1", "an OFFSET over an unbounded source")


def test_inserting_an_outer_join_into_a_sink_is_refused(s_env: TableEnvironment, tmp_path: Path) -> None:
    s_env.execute_sql(f"CREATE TABLE out (k STRING, a INT, b INT) WITH ('connector' = 'filesystem', "
                      f"'path' = '{tmp_path / 'out'}', 'format' = 'csv')")
    joined = s_env.from_path("l").left_outer_join(s_env.from_path("r"), col("k") == col("k2"))
    # PyFlink 2.3's message (its node description goes on with Flink's own select and input specs).
    with pytest.raises(TableException, match=r"Table sink 'default_catalog\.default_database\.out' doesn't support "
                       r"consuming update and delete changes which is produced by node Join\(joinType=\[LeftOuterJoin\]"):
        joined.select(col("k"), col("a"), col("b")).execute_insert("out")


def test_bounded_outer_join_keeps_its_batch_result(_spark_started: None) -> None:
    # Bounded inputs are unchanged by this path: the final rows, each an insert.
    env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    left = env.from_elements([("a", 1), ("b", 2)], ["k", "a"])
    right = env.from_elements([("a", 10)], ["k2", "b"])
    rows = list(left.left_outer_join(right, col("k") == col("k2")).select(col("k"), col("b")).execute().collect())
    assert sorted((str(r.get_row_kind()), r[0], r[1]) for r in rows) == [("+I", "a", 10), ("+I", "b", None)]
