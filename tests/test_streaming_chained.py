"""Aggregations of updating tables in streaming mode: what the differential programs
(tests/differential/test_diff_streaming_chained.py) do not show: the explained updating operator
and the refusals. Expected texts measured on PyFlink 2.3 (streaming, parallelism 1)."""

from __future__ import annotations

import json
import re
import time
import uuid
import zipfile
from pathlib import Path
from typing import Any, Iterator, List, Tuple

import pytest

from pyflink_table import DataTypes, EnvironmentSettings, RowKind, TableEnvironment, TableException
from pyflink_table.explain_detail import ExplainDetail
from pyflink_table.expressions import col
from pyflink_table.udf import AggregateFunction, udaf


class _Count(AggregateFunction):  # type: ignore[misc]
    def get_value(self, accumulator):  # type: ignore[no-untyped-def]
        return accumulator[0]

    def create_accumulator(self):  # type: ignore[no-untyped-def]
        return [0]

    def accumulate(self, accumulator, *args):  # type: ignore[no-untyped-def]
        accumulator[0] += 1


@pytest.fixture()
def s_env(_spark_started: None) -> Iterator[TableEnvironment]:
    env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    env.get_config().set("parallelism.default", "1")
    yield env


def test_explain_names_the_updating_operator_as_pyflink(s_env: TableEnvironment) -> None:
    t = s_env.from_elements([(1, "Hi", "Hello")], ["a", "b", "c"])
    my_count = udaf(_Count(), accumulator_type=DataTypes.ARRAY(DataTypes.INT()), result_type=DataTypes.INT())
    python = t.group_by(t.c).select(my_count(t.a).alias("a"), t.c.alias("b"))
    # PyFlink 2.3: "PythonGroupAggregate(groupBy=[c], select=[c, *...PythonAggregateFunction$...*(a) AS EXPR$0])".
    assert "PythonGroupAggregate(groupBy=[c], " in python.explain()
    built_in = t.group_by(t.c).select(t.a.sum, t.c.alias("b"))
    assert "GroupAggregate(groupBy=[c], " in built_in.explain()
    # The JSON plan stays the last section (PyFlink's test reads everything after its title as JSON).
    text = built_in.explain(ExplainDetail.JSON_EXECUTION_PLAN)
    json.loads(text.split("== Physical Execution Plan ==")[1])
    assert text.index("== Updating Operator ==") < text.index("== Physical Execution Plan ==")
    assert "== Updating Operator ==" not in t.select(t.a).explain()


def test_unsupported_aggregates_of_an_updating_table_are_refused_by_name(s_env: TableEnvironment) -> None:
    t = s_env.from_elements([("a", 1), ("b", 2), ("a", 3)], ["k", "v"])
    sums = t.group_by(col("k")).select(col("k"), col("v").sum.alias("s"))
    s_env.create_temporary_view("sums", sums)
    with pytest.raises(TableException, match="DISTINCT aggregate"):
        list(s_env.sql_query("SELECT COUNT(DISTINCT k) FROM sums").execute().collect())
    with pytest.raises(TableException, match="the aggregate function .* in an aggregation of an updating table"):
        list(sums.group_by(col("s")).select(col("s"), col("k").collect).execute().collect())


def _publish(directory: Path, name: str, text: str) -> None:
    hidden = directory / ("." + name)
    hidden.write_text(text)
    hidden.rename(directory / name)


def test_outer_join_changelog_into_print_and_refused_by_filesystem(
        s_env: TableEnvironment, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    left, right = tmp_path / "l", tmp_path / "r"
    for d, name, columns in ((left, "l", "k STRING, v INT"), (right, "r", "k2 STRING, w INT")):
        d.mkdir()
        s_env.execute_sql(f"CREATE TABLE {name} ({columns}) WITH ('connector' = 'filesystem', 'path' = '{d}', "
                          "'format' = 'csv', 'source.monitor-interval' = '100ms')")
    s_env.execute_sql(f"CREATE TABLE fs (k STRING, v INT, w INT) WITH ('connector' = 'filesystem', "
                      f"'path' = '{tmp_path / 'out'}', 'format' = 'csv')")
    # PyFlink 2.3's refusals (the node's description is Flink's own after "node Join(" / "node Rank(").
    prefix = "Table sink 'default_catalog.default_database.fs' doesn't support consuming update and delete changes "
    with pytest.raises(TableException, match=re.escape(prefix + "which is produced by node Join(joinType=[LeftOuterJoin]")):
        s_env.execute_sql("INSERT INTO fs SELECT k, v, w FROM l LEFT JOIN r ON k = k2")
    with pytest.raises(TableException, match=re.escape(prefix + "which is produced by node Rank(")):
        s_env.execute_sql("INSERT INTO fs SELECT k, v, v FROM (SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k "
                          "ORDER BY v DESC) AS rn FROM l) WHERE rn <= 1")
    # One job at a time: stateful Python processors start slowly on a loaded machine. PyFlink 2.3 printed the
    # Top-N (t>) and chained count (c>) jobs' lines measured with the same files too; those changes are
    # compared through collect() in tests/differential/test_diff_streaming_chained.py.
    s_env.execute_sql("CREATE TABLE pj (k STRING, v INT, w INT) WITH ('connector' = 'print', 'print-identifier' = 'j')")
    jobs = [s_env.execute_sql("INSERT INTO pj SELECT k, v, w FROM l LEFT JOIN r ON k = k2")]
    printed: List[str] = []

    def lines(n: int) -> List[str]:
        deadline = time.monotonic() + 400
        while len(printed) < n:
            assert time.monotonic() < deadline, f"timed out; printed so far: {printed}"
            printed.extend(capsys.readouterr().out.splitlines())
            time.sleep(0.2)
        block = sorted(printed[:n])
        del printed[:n]
        return block

    try:
        # Measured on PyFlink 2.3 (task manager output) with the same files, each awaited.
        _publish(left, "f1.csv", "a,1\nb,2\n")
        assert lines(2) == sorted(["j> +I[a, 1, null]", "j> +I[b, 2, null]"])
        _publish(right, "g1.csv", "a,10\n")
        assert lines(2) == sorted(["j> -D[a, 1, null]", "j> +I[a, 1, 10]"])
        _publish(left, "f2.csv", "a,1\n")
        assert lines(1) == ["j> +I[a, 1, 10]"]
    finally:
        for job in jobs:
            job.get_job_client().cancel()


def test_chained_aggregation_changelog_into_print(
        s_env: TableEnvironment, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "l"
    source.mkdir()
    s_env.execute_sql(f"CREATE TABLE l (k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '{source}', "
                      "'format' = 'csv', 'source.monitor-interval' = '100ms')")
    s_env.execute_sql("CREATE TABLE pc (s INT, n BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'c')")
    job = s_env.execute_sql("INSERT INTO pc SELECT s, COUNT(k) FROM (SELECT k, CAST(SUM(v) AS INT) AS s FROM l "
                            "GROUP BY k) GROUP BY s")
    printed: List[str] = []

    def lines(n: int) -> List[str]:
        deadline = time.monotonic() + 400
        while len(printed) < n:
            assert time.monotonic() < deadline, f"timed out; printed so far: {printed}"
            printed.extend(capsys.readouterr().out.splitlines())
            time.sleep(0.2)
        block = sorted(printed[:n])
        del printed[:n]
        return block

    try:
        # Measured on PyFlink 2.3 (task manager output) with the same files, each awaited.
        _publish(source, "f1.csv", "a,1\nb,2\n")
        assert lines(2) == ["c> +I[1, 1]", "c> +I[2, 1]"]
        _publish(source, "f2.csv", "a,1\n")
        assert lines(3) == sorted(["c> -D[1, 1]", "c> -U[2, 1]", "c> +U[2, 2]"])
    finally:
        job.get_job_client().cancel()


def _count_by_sum(env: TableEnvironment) -> List[Tuple[Any, ...]]:
    """A bounded chain of built-in aggregates: it runs on the environment's Python worker (no Python
    function of its own carries one)."""
    t = env.from_elements([("a", 1), ("b", 2), ("a", 1)], ["k", "v"])
    sums = t.group_by(col("k")).select(col("k"), col("v").sum.alias("s"))
    counts = sums.group_by(col("s")).select(col("s"), col("k").count.alias("n"))
    return [(r.get_row_kind(), *r) for r in counts.execute().collect()]


def test_each_environment_runs_stateful_operators_with_its_own_worker_template(
        _spark_started: None, tmp_path: Path) -> None:
    # Hand-computed: sums +I[a,1], +I[b,2], -U[a,1], +U[a,2]; their count per sum, in arrival order.
    expected = [(RowKind.INSERT, 1, 1), (RowKind.INSERT, 2, 1), (RowKind.DELETE, 1, 1),
                (RowKind.UPDATE_BEFORE, 2, 1), (RowKind.UPDATE_AFTER, 2, 2)]
    a = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    a.get_config().set("parallelism.default", "1")
    identity = a._spark.sparkContext._jvm.java.lang.System.identityHashCode

    def includes(env: TableEnvironment) -> List[str]:
        return list(env._j_env.workerTemplate().func().pythonIncludes())

    assert _count_by_sum(a) == expected
    template_a = identity(a._j_env.workerTemplate())
    assert _count_by_sum(a) == expected
    assert identity(a._j_env.workerTemplate()) == template_a  # same dependencies: the template is kept

    # A second environment ships a file of its own before its job.
    name = f"chain_dep_{uuid.uuid4().hex[:8]}.zip"
    with zipfile.ZipFile(tmp_path / name, "w") as zf:
        zf.writestr("chain_dep_module.py", "VALUE = 1\n")
    b = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    b.get_config().set("parallelism.default", "1")
    b.get_config().set("python.files", str(tmp_path / name))
    assert _count_by_sum(b) == expected
    assert name in includes(b)
    # B's job did not change what A's operators run with...
    assert identity(a._j_env.workerTemplate()) == template_a
    assert name not in includes(a)
    # ...until A runs again: the session's shipped files changed, so A builds its template again.
    assert _count_by_sum(a) == expected
    assert identity(a._j_env.workerTemplate()) != template_a
    assert name in includes(a)
