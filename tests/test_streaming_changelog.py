"""Streaming changelogs beyond what the differential tests compare: table aggregates per bundle,
FLIP-38 legacy sinks taking the final result, and the loud refusals of what is not supported."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Iterator, List

import pytest

from pyflink_table import DataTypes, EnvironmentSettings, TableEnvironment, TableException
from pyflink_table.expressions import col, descriptor, map_
from pyflink_table.sinks import CsvTableSink
from pyflink_table.udf import AggregateFunction, TableAggregateFunction, udaf, udtaf


@pytest.fixture()
def s_env(_spark_started: None) -> Iterator[TableEnvironment]:
    """A streaming environment at parallelism 1."""
    env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    env.get_config().set("parallelism.default", "1")
    yield env


def _functions() -> Any:
    """The functions, defined here so that they are pickled by value (workers cannot import tests)."""

    class _Top2(TableAggregateFunction):  # type: ignore[type-arg]
        def create_accumulator(self) -> List[int]:
            return []

        def accumulate(self, acc: List[int], v: int) -> None:
            acc.append(v)
            acc.sort(reverse=True)
            del acc[2:]

        def emit_value(self, acc: List[int]) -> Iterator[Any]:
            for v in acc:
                yield v,

    class _Max(AggregateFunction):  # type: ignore[type-arg]
        def create_accumulator(self) -> List[Any]:
            return [None]

        def accumulate(self, acc: List[Any], v: Any) -> None:
            if v is not None and (acc[0] is None or v > acc[0]):
                acc[0] = v

        def get_value(self, acc: List[Any]) -> Any:
            return acc[0]

    top2 = udtaf(_Top2(), result_type=DataTypes.ROW([DataTypes.FIELD("t", DataTypes.BIGINT())]),
                 accumulator_type=DataTypes.ARRAY(DataTypes.BIGINT()))
    my_max = udaf(_Max(), result_type=DataTypes.BIGINT(), accumulator_type=DataTypes.ARRAY(DataTypes.BIGINT()))
    return top2, my_max


def _kinds(table: Any) -> List[Any]:
    with table.execute().collect() as it:
        return [(str(r.get_row_kind()), *r) for r in it]


def test_table_aggregate_retracts_its_rows_per_bundle(s_env: TableEnvironment) -> None:
    # PyFlink's GroupTableAggFunction: at each bundle's end a known key's emitted rows are retracted
    # (-D) and its rows emitted again (+I). Bundles of one row; measured on PyFlink 2.3 (same program).
    s_env.get_config().set("python.fn-execution.bundle.size", "1")
    top2, _ = _functions()
    t = s_env.from_elements([(1, "a"), (3, "a"), (5, "b"), (2, "a")], ["v", "k"])
    assert _kinds(t.group_by(col("k")).flat_aggregate(top2(col("v"))).select(col("k"), col("t"))) == [
        ("+I", "a", 1), ("-D", "a", 1), ("+I", "a", 3), ("+I", "a", 1), ("+I", "b", 5),
        ("-D", "a", 3), ("-D", "a", 1), ("+I", "a", 3), ("+I", "a", 2)]


def test_legacy_sink_receives_the_final_result(s_env: TableEnvironment, tmp_path: Path) -> None:
    # Our extension (docs/streaming.rst): FLIP-38 sinks predate changelogs.
    out = tmp_path / "out.csv"
    s_env.register_table_sink("Results", CsvTableSink(["k", "c"], [DataTypes.STRING(), DataTypes.BIGINT()], str(out)))
    t = s_env.from_elements([(1, "a"), (2, "b"), (3, "a")], ["v", "k"])
    t.group_by(col("k")).select(col("k"), col("v").count).execute_insert("Results").wait()
    assert sorted(out.read_text().splitlines()) == ["a,2", "b,1"]


def test_built_in_next_to_python_aggregate_over_bounded_input(s_env: TableEnvironment) -> None:
    # One shared aggregation emitting per bundle, as PyFlink 2.3 (compared with it per bundle size in
    # tests/differential/test_diff_streaming_python_aggregates.py); with the default bundle the bounded
    # input gives each key's final values once. By hand: a max 3 of 2 rows, b max 2 of 1 row.
    _, my_max = _functions()
    t = s_env.from_elements([(1, "a"), (2, "b"), (3, "a")], ["v", "k"])
    assert sorted(_kinds(t.group_by(col("k")).select(col("k"), my_max(col("v")), col("v").count))) == [
        ("+I", "a", 3, 2), ("+I", "b", 2, 1)]


def _stream(s_env: TableEnvironment, directory: Path) -> Any:
    s_env.execute_sql(f"CREATE TABLE src (k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '{directory}', "
                      "'format' = 'csv', 'source.monitor-interval' = '1s')")
    return s_env.from_path("src")


def test_pandas_aggregate_in_an_unbounded_sql_group_by_is_refused(s_env: TableEnvironment, tmp_path: Path) -> None:
    # FLIP-137 non-goal, PyFlink's message (tests/differential/test_diff_streaming_updating_python_distinct.py);
    # general Python aggregates and DISTINCT ones run there now (same file).
    _stream(s_env, tmp_path)
    s_env.create_temporary_function("mean", udaf(lambda v: v.mean(), result_type=DataTypes.DOUBLE(), func_type="pandas"))
    with pytest.raises(TableException, match="the pandas aggregate function .* in a group_by without a window"):
        s_env.execute_sql("SELECT k, mean(v) AS m FROM src GROUP BY k").collect()
    # The Table API's group_by plans it as a packed aggregation: the same check and message.
    mean = udaf(lambda v: v.mean(), result_type=DataTypes.DOUBLE(), func_type="pandas")
    with pytest.raises(TableException, match="the pandas aggregate function .* in a group_by without a window"):
        s_env.from_path("src").group_by(col("k")).select(col("k"), mean(col("v"))).execute()


def test_to_changelog_of_an_unbounded_updating_table_is_an_insert_only_stream(
        s_env: TableEnvironment, tmp_path: Path) -> None:
    # PyFlink 2.3 gives the changes as insert-only rows while the job runs (tests/differential/
    # test_diff_streaming_to_changelog.py); its Python descriptor() fails in Py4J, so op_mapping, an
    # insert-only sink taking the rows and a Python aggregate's changes are checked here, by hand.
    source, out, python_source = tmp_path / "in", tmp_path / "out", tmp_path / "python_in"
    source.mkdir()
    python_source.mkdir()
    src = _stream(s_env, source)
    counts = src.group_by(col("k")).select(col("k"), col("v").count.alias("c"))
    upserts = counts.to_changelog(descriptor("kind").as_argument("op"),
                                  map_("INSERT, UPDATE_AFTER", "U").as_argument("op_mapping"))
    assert upserts.get_schema().get_field_names() == ["kind", "k", "c"]
    s_env.execute_sql(f"CREATE TABLE upserts (kind STRING, k STRING, c BIGINT) WITH ('connector' = 'filesystem', "
                      f"'path' = '{out}', 'format' = 'csv')")
    job = upserts.execute_insert("upserts").get_job_client()

    def lines() -> List[str]:
        return _sink_lines(out)

    try:
        _publish(source, "f1.csv", "a,1\nb,2\na,3\n")
        # a: INSERT 1, UPDATE_BEFORE 1 (not mapped: dropped), UPDATE_AFTER 2; b: INSERT 1.
        _wait_for(lambda: lines() == ["U,a,1", "U,a,2", "U,b,1"])
    finally:
        job.cancel()

    # A Python aggregate's changes, once per key and micro-batch (each file is one micro-batch).
    _, my_max = _functions()
    s_env.execute_sql(f"CREATE TABLE python_src (k STRING, v INT) WITH ('connector' = 'filesystem', "
                      f"'path' = '{python_source}', 'format' = 'csv', 'source.monitor-interval' = '1s')")
    maxima = s_env.from_path("python_src").group_by(col("k")).select(col("k"), my_max(col("v")).alias("m"))
    with maxima.to_changelog().execute().collect() as it:
        _publish(python_source, "f1.csv", "a,1\na,4\nb,2\n")
        first = sorted((str(r.get_row_kind()), *r) for r in (next(it), next(it)))
        _publish(python_source, "f2.csv", "a,3\n")  # a's maximum stays 4: no change
        _publish(python_source, "f3.csv", "a,9\n")
        second = sorted((str(r.get_row_kind()), *r) for r in (next(it), next(it)))
    assert first == [("+I", "INSERT", "a", 4), ("+I", "INSERT", "b", 2)]
    assert second == [("+I", "UPDATE_AFTER", "a", 9), ("+I", "UPDATE_BEFORE", "a", 4)]


def _publish(directory: Path, name: str, text: str) -> None:
    """Write a file under a hidden name, then rename it: the file stream sees it complete."""
    hidden = directory / ("." + name)
    hidden.write_text(text)
    hidden.rename(directory / name)


def _sink_lines(out: Path) -> List[str]:
    """The sorted lines of a filesystem sink's committed files (none before its first commit)."""
    if not out.is_dir():
        return []
    return sorted(line for f in out.iterdir() if not f.name.startswith((".", "_"))
                  for line in f.read_text().splitlines())


def _wait_for(condition: Any, seconds: float = 180.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting for the streaming job"
        time.sleep(0.2)


def test_checkpoint_directory_resumes_a_restarted_job(_spark_started: None, tmp_path: Path) -> None:
    source, out, checkpoints = tmp_path / "in", tmp_path / "out", tmp_path / "checkpoints"
    source.mkdir()

    def lines() -> List[str]:
        return _sink_lines(out)

    def run(table: str, name: str, text: str, expected: List[str]) -> None:
        env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
        env.get_config().set("execution.checkpointing.dir", f"file://{checkpoints}")
        env.execute_sql(f"CREATE TABLE {table} (k STRING, v INT) WITH ('connector' = 'filesystem', "
                        f"'path' = '{source}', 'format' = 'csv', 'source.monitor-interval' = '100ms')")
        env.execute_sql(f"CREATE TABLE {table}_out (k STRING, v INT) WITH ('connector' = 'filesystem', "
                        f"'path' = '{out}', 'format' = 'csv')")
        _publish(source, name, text)
        job = env.from_path(table).execute_insert(f"{table}_out").get_job_client()
        _wait_for(lambda: lines() == expected and (checkpoints / "query-1" / "commits" / "0").exists())
        job.cancel()

    run("src1", "f1.csv", "a,1\n", ["a,1"])
    # The same program started again resumes after f1 (a fresh job would read f1 again: a,1 twice).
    run("src2", "f2.csv", "b,2\n", ["a,1", "b,2"])
    assert lines() == ["a,1", "b,2"]


@pytest.mark.parametrize("query, columns, files", [
    # COUNT(DISTINCT v): its value counts are a map state. After the restart a, 2 is a repeat (no
    # change); a fresh state would count it again (+I a 1).
    ("SELECT k, COUNT(DISTINCT v) AS c FROM {src} GROUP BY k", "k STRING, c BIGINT",
     [("a,1\na,2\na,1\n", ["INSERT,a,1", "UPDATE_AFTER,a,2", "UPDATE_BEFORE,a,1"]),
      ("a,2\na,3\n", ["UPDATE_AFTER,a,3", "UPDATE_BEFORE,a,2"])]),
    # An over window ordered by v: its rows are map state entries. After the restart a, 2 sorts
    # before the stored a, 4, which is updated (by hand: 1 + 2 + 4 = 7), and a, 9 follows.
    ("SELECT k, v, SUM(v) OVER (PARTITION BY k ORDER BY v) AS s FROM {src}", "k STRING, v INT, s INT",
     [("a,1\na,4\n", ["INSERT,a,1,1", "INSERT,a,4,5"]),
      ("a,2\na,9\n", ["INSERT,a,2,3", "INSERT,a,9,16", "UPDATE_AFTER,a,4,7", "UPDATE_BEFORE,a,4,5"])]),
], ids=["distinct", "nontime_over"])
def test_python_processor_state_survives_a_restart(_spark_started: None, tmp_path: Path, query: str, columns: str,
                                                   files: List[Any]) -> None:
    source, out, checkpoints = tmp_path / "in", tmp_path / "out", tmp_path / "checkpoints"
    source.mkdir()

    def lines() -> List[str]:
        return _sink_lines(out)

    expected: List[str] = []
    for run, (text, changes) in enumerate(files):
        env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
        env.get_config().set("execution.checkpointing.dir", f"file://{checkpoints}")
        env.execute_sql(f"CREATE TABLE src{run} (k STRING, v INT) WITH ('connector' = 'filesystem', "
                        f"'path' = '{source}', 'format' = 'csv', 'source.monitor-interval' = '100ms')")
        env.execute_sql(f"CREATE TABLE out{run} (op STRING, {columns}) WITH ('connector' = 'filesystem', "
                        f"'path' = '{out}', 'format' = 'csv')")
        _publish(source, f"f{run}.csv", text)
        expected = sorted(expected + changes)
        job = env.sql_query(query.format(src=f"src{run}")).to_changelog().execute_insert(f"out{run}").get_job_client()
        _wait_for(lambda: lines() == expected and (checkpoints / "query-1" / "commits" / str(run)).exists())
        job.cancel()
    assert lines() == expected
