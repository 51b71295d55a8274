"""Streaming mode beyond what the differential tests compare: the print sink's changelog lines
(PyFlink prints them from its task manager, measured there) and streaming jobs."""

from __future__ import annotations

import datetime
import re
import threading
import time
from pathlib import Path
from typing import Callable, Iterator, List

import pytest

from pyflink_table import EnvironmentSettings, JobStatus, TableEnvironment, TableException, ValidationException
from pyflink_table.expressions import col, lit
from pyflink_table.window import Tumble


@pytest.fixture()
def s_env(_spark_started: None) -> Iterator[TableEnvironment]:
    """A streaming environment at parallelism 1."""
    env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    env.get_config().set("parallelism.default", "1")
    yield env


def test_print_sink_writes_changes_with_their_kind(s_env: TableEnvironment, capsys: pytest.CaptureFixture[str]) -> None:
    # Measured on PyFlink 2.3 streaming (task manager output): +I[a, 1] +I[b, 1] -U[a, 1] +U[a, 2].
    src = s_env.from_elements([(1, "a"), (2, "b"), (3, "a")], ["v", "k"])
    s_env.execute_sql("CREATE TABLE pr (k STRING, c BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'x')")
    src.group_by(col("k")).select(col("k"), col("v").count).execute_insert("pr").wait()
    assert capsys.readouterr().out.splitlines() == ["x> +I[a, 1]", "x> +I[b, 1]", "x> -U[a, 1]", "x> +U[a, 2]"]


def _publish(directory: Path, name: str, text: str) -> None:
    """Write a file under a hidden name, then rename it: the file stream sees it complete."""
    hidden = directory / ("." + name)
    hidden.write_text(text)
    hidden.rename(directory / name)


def _wait_for(condition: Callable[[], bool], seconds: float = 180.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting for the streaming job"
        time.sleep(0.2)


def test_stream_inserts_run_in_the_background_with_a_job_client(
        s_env: TableEnvironment, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, out = tmp_path / "in", tmp_path / "out"
    source.mkdir()
    _publish(source, "f1.csv", "a,1\nb,2\n")
    s_env.execute_sql(f"CREATE TABLE src (k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '{source}', "
                      "'format' = 'csv', 'source.monitor-interval' = '100ms')")
    s_env.execute_sql("CREATE TABLE pr (k STRING, v INT) WITH ('connector' = 'print')")
    s_env.execute_sql(f"CREATE TABLE fs (k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '{out}', "
                      "'format' = 'csv')")
    # SQL's statement set and the Table API's: both return while their jobs run.
    result = s_env.execute_sql("EXECUTE STATEMENT SET BEGIN INSERT INTO pr SELECT * FROM src; "
                               "INSERT INTO fs SELECT * FROM src WHERE v > 1; END")
    client = result.get_job_client()
    assert client is not None and len(str(client.get_job_id())) == 32
    assert client.get_job_status().result() == JobStatus.RUNNING
    with pytest.raises(TimeoutError):
        result.wait(300)
    printed: List[str] = []

    def printed_lines() -> List[str]:
        printed.extend(capsys.readouterr().out.splitlines())
        return sorted(printed)

    _wait_for(lambda: printed_lines() == ["+I[a, 1]", "+I[b, 2]"])
    _publish(source, "f2.csv", "c,3\n")  # arrives while the jobs run
    _wait_for(lambda: printed_lines() == ["+I[a, 1]", "+I[b, 2]", "+I[c, 3]"])

    def written() -> List[str]:
        return sorted(line for f in out.rglob("*") if f.is_file() and not f.name.startswith((".", "_"))
                      for line in f.read_text().splitlines())

    _wait_for(lambda: written() == ["b,2", "c,3"])
    client.cancel().result()
    assert client.get_job_status().result() == JobStatus.CANCELED
    result.wait()  # returns at once: the jobs have ended


def test_temporal_sort_reaches_the_print_sink_in_order(
        s_env: TableEnvironment, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Measured on PyFlink 2.3 (task manager output, the same files, each awaited): the rows up to the
    # watermark (00:05) in rowtime order, v DESC among equal rowtimes; then a, 10 at 00:02 is late and
    # a, 5 at 00:12 moves the watermark to 00:11, which emits b, 3.
    s_env.execute_sql(f"CREATE TABLE ev (k STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' "
                      f"SECOND) WITH ('connector' = 'filesystem', 'path' = '{tmp_path}', 'format' = 'csv', "
                      "'source.monitor-interval' = '100ms')")
    s_env.execute_sql("CREATE TABLE ps (k STRING, v INT, ts TIMESTAMP(3)) WITH ('connector' = 'print', "
                      "'print-identifier' = 's')")
    job = s_env.execute_sql("INSERT INTO ps SELECT k, v, ts FROM ev ORDER BY ts, v DESC")
    printed: List[str] = []

    def printed_lines() -> List[str]:
        printed.extend(capsys.readouterr().out.splitlines())
        return printed

    try:
        _publish(tmp_path, "f1.csv", "a,1,1970-01-01 00:00:01\na,2,1970-01-01 00:00:03\na,4,1970-01-01 00:00:03\n"
                                     "b,3,1970-01-01 00:00:06\n")
        _wait_for(lambda: len(printed_lines()) >= 3, 400)
        assert printed == ["s> +I[a, 1, 1970-01-01T00:00:01]", "s> +I[a, 4, 1970-01-01T00:00:03]",
                           "s> +I[a, 2, 1970-01-01T00:00:03]"]
        _publish(tmp_path, "f2.csv", "a,10,1970-01-01 00:00:02\na,5,1970-01-01 00:00:12\n")
        _wait_for(lambda: len(printed_lines()) >= 4, 400)
        assert printed[3:] == ["s> +I[b, 3, 1970-01-01T00:00:06]"]
    finally:
        job.get_job_client().cancel()


def test_temporal_sort_of_other_rows_than_the_sources_is_refused_by_name(s_env: TableEnvironment,
                                                                        tmp_path: Path) -> None:
    s_env.execute_sql(f"CREATE TABLE ev (k STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' "
                      f"SECOND) WITH ('connector' = 'filesystem', 'path' = '{tmp_path}', 'format' = 'csv', "
                      "'source.monitor-interval' = '100ms')")
    # An interval join keeps the rowtime a time attribute in Flink, which sorts its rows.
    joined = s_env.sql_query("SELECT a.k, a.ts FROM ev a, ev b WHERE a.k = b.k AND a.ts BETWEEN b.ts - INTERVAL '1' "
                             "SECOND AND b.ts ORDER BY a.ts")
    with pytest.raises(TableException, match="a sort by the time attribute ts over an unbounded source other than"):
        joined.execute().collect()
    # Keeping each key's first row by the rowtime is Flink's insert-only Deduplicate, which it sorts.
    first = s_env.sql_query("SELECT k, v, ts FROM (SELECT k, v, ts, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts) "
                            "AS rn FROM ev) WHERE rn = 1 ORDER BY ts")
    with pytest.raises(TableException, match="a sort by the time attribute ts over an unbounded source other than"):
        first.execute().collect()


def test_updating_aggregation_over_a_stream_is_refused_by_append_sinks(s_env: TableEnvironment, tmp_path: Path) -> None:
    # The print sink takes the changelog (tests/test_streaming_chained.py); filesystem refuses it with
    # PyFlink 2.3's message ("... doesn't support consuming update changes which is produced by node GroupAggregate(...").
    src, out = tmp_path / "src", tmp_path / "out"
    src.mkdir()
    s_env.execute_sql(f"CREATE TABLE src (k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '{src}', "
                      "'format' = 'csv', 'source.monitor-interval' = '1s')")
    s_env.execute_sql(f"CREATE TABLE fs (k STRING, c BIGINT) WITH ('connector' = 'filesystem', 'path' = '{out}', "
                      "'format' = 'csv')")
    counts = s_env.from_path("src").group_by(col("k")).select(col("k"), col("v").count)
    with pytest.raises(TableException, match="doesn't support consuming update changes which is produced by node "
                                             "GroupAggregate"):
        counts.execute_insert("fs")


def test_window_over_a_stream_needs_a_watermark(s_env: TableEnvironment, tmp_path: Path) -> None:
    s_env.execute_sql(f"CREATE TABLE src (k STRING, ts TIMESTAMP(3)) WITH ('connector' = 'filesystem', "
                      f"'path' = '{tmp_path}', 'format' = 'csv', 'source.monitor-interval' = '1s')")
    w = s_env.from_path("src").window(Tumble.over(lit(5).seconds).on(col("ts")).alias("w"))
    with pytest.raises(TableException, match="needs a time attribute with a watermark"):
        w.group_by(col("w"), col("k")).select(col("k"), col("w").start).execute().collect()


def test_sql_window_over_a_stream_refuses_built_ins_the_window_processor_lacks(s_env: TableEnvironment,
                                                                              tmp_path: Path) -> None:
    # Python aggregates in SQL stream windows run on the window processor (differential tests in
    # tests/differential/test_diff_streaming_sql_windows.py); a built-in beside them that it cannot
    # compute is refused by name when the query is planned (PyFlink 2.3 fails there with a
    # NullPointerException).
    from pyflink_table import DataTypes
    from pyflink_table.udf import udaf

    s_env.execute_sql(f"CREATE TABLE src (k STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' "
                      f"SECOND) WITH ('connector' = 'filesystem', 'path' = '{tmp_path}', 'format' = 'csv', "
                      "'source.monitor-interval' = '1s')")
    s_env.create_temporary_function(
        "my_mean", udaf(lambda v: v.mean(), result_type=DataTypes.DOUBLE(), func_type="pandas"))
    with pytest.raises(TableException, match=r"Python aggregate functions in a SQL group window over an unbounded "
                                             r"source with the built-in aggregate first_value\("):
        s_env.sql_query("SELECT k, my_mean(v), FIRST_VALUE(v) FROM src GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND)")


def test_unsupported_watermark_expression_is_named(s_env: TableEnvironment, tmp_path: Path) -> None:
    # Refused when the table is created (streaming mode), and the table is not registered.
    with pytest.raises(TableException, match=r"watermark expression 'ts \+ INTERVAL '1' SECOND'"):
        s_env.execute_sql(f"CREATE TABLE src (k STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts + INTERVAL '1' SECOND) "
                          f"WITH ('connector' = 'filesystem', 'path' = '{tmp_path}', 'format' = 'csv')")
    assert "src" not in s_env.list_tables()


def test_bounded_insert_has_a_finished_job_client(s_env: TableEnvironment, capsys: pytest.CaptureFixture[str]) -> None:
    # PyFlink 2.3 streaming: execute_insert returns a result whose job client is not None (measured).
    s_env.execute_sql("CREATE TABLE pr (v BIGINT) WITH ('connector' = 'print')")
    src = s_env.from_elements([(1,)], ["v"])
    result = src.execute_insert("pr")
    result.wait()
    assert result.get_job_client().get_job_status().result() == JobStatus.FINISHED
    s_env.create_temporary_view("src", src)
    sql_result = s_env.execute_sql("INSERT INTO pr SELECT v + 1 FROM src")
    assert sql_result.get_job_client().get_job_status().result() == JobStatus.FINISHED
    statements = s_env.create_statement_set()
    statements.add_insert("pr", src)
    assert statements.execute().get_job_client().get_job_status().result() == JobStatus.FINISHED
    assert capsys.readouterr().out == "+I[1]\n+I[2]\n+I[1]\n"


def test_result_changing_options_without_mapping_are_refused(s_env: TableEnvironment,
                                                              caplog: pytest.LogCaptureFixture) -> None:
    with pytest.raises(TableException, match="table.exec.source.idle-timeout"):
        s_env.get_config().set("table.exec.source.idle-timeout", "5 s")
    from pyflink_table import _streaming

    _streaming._warned.discard("table.exec.mini-batch.size")  # once per process: start from "not warned"
    with caplog.at_level("WARNING", logger="pyflink_table"):
        s_env.get_config().set("table.exec.mini-batch.size", "1000")
        s_env.get_config().set("table.exec.mini-batch.size", "2000")
    assert sum("table.exec.mini-batch.size" in r.getMessage() for r in caplog.records) == 1
    # PyFlink's bundle timer is not modelled (bundles end by size): one warning names it.
    _streaming._warned.discard("python.fn-execution.bundle.time")
    caplog.clear()
    with caplog.at_level("WARNING", logger="pyflink_table"):
        s_env.get_config().set("python.fn-execution.bundle.time", "1000")
        s_env.get_config().set("python.fn-execution.bundle.time", "2000")
    assert [r.getMessage().split(" has ")[0] for r in caplog.records] == [
        "Option 'python.fn-execution.bundle.time'"]


def test_state_ttl_on_bounded_input_and_over_an_unbounded_source(
        s_env: TableEnvironment, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    # Flink's idle state retention: a key's state is dropped after it was idle that long (processing
    # time). A bounded input is one job, so nothing is idle within it: the changelog is the one
    # without TTL (hand-computed; PyFlink 2.3 gives it too, as its upstream tests with one day show).
    s_env.get_config().set_idle_state_retention(datetime.timedelta(days=1))
    src = s_env.from_elements([(1, "a"), (2, "b"), (3, "a")], ["v", "k"])
    changes = [(str(r.get_row_kind()), tuple(r))
               for r in src.group_by(col("k")).select(col("k"), col("v").count).execute().collect()]
    assert changes == [("+I", ("a", 1)), ("+I", ("b", 1)), ("-U", ("a", 1)), ("+U", ("a", 2))]
    # Over an unbounded source the updating aggregation runs on a processor whose state expires
    # (test_diff_streaming_state_ttl.py shows the expiry against PyFlink); a day changes nothing here.
    _publish(tmp_path, "f1.csv", "a,1\n")
    s_env.execute_sql(f"CREATE TABLE src (k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '{tmp_path}', "
                      "'format' = 'csv', 'source.monitor-interval' = '100ms')")
    counts = s_env.from_path("src").group_by(col("k")).select(col("k"), col("v").sum)
    with counts.execute().collect() as rows:
        first = next(rows)
        assert (str(first.get_row_kind()), tuple(first)) == ("+I", ("a", 1))
    with pytest.raises(TableException, match="Invalid duration for 'table.exec.state.ttl': 'soon'"):
        s_env.get_config().set("table.exec.state.ttl", "soon")
    from pyflink_table import _streaming

    _streaming._warned.discard("table.exec.state.ttl")
    with caplog.at_level("WARNING", logger="pyflink_table"):  # shorter than a job: Flink may expire state
        s_env.get_config().set("table.exec.state.ttl", "2 ms")
    assert sum("'table.exec.state.ttl' = '2 ms'" in r.getMessage() for r in caplog.records) == 1


def test_state_ttl_is_refused_by_operators_whose_state_cannot_expire(s_env: TableEnvironment, tmp_path: Path) -> None:
    # Spark's stream-stream join, the Top-N and over-window processors keep their state without a
    # time-to-live: with a TTL they are refused, naming the option, where Flink would expire state.
    _publish(tmp_path, "f1.csv", "a,1\n")
    s_env.execute_sql(f"CREATE TABLE src (k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '{tmp_path}', "
                      "'format' = 'csv', 'source.monitor-interval' = '100ms')")
    s_env.execute_sql(f"CREATE TABLE src2 (k2 STRING, w INT) WITH ('connector' = 'filesystem', "
                      f"'path' = '{tmp_path}', 'format' = 'csv', 'source.monitor-interval' = '100ms')")
    s_env.get_config().set("table.exec.state.ttl", "1 h")
    refused = "option 'table.exec.state.ttl' = '3600000 ms' cannot be honoured by "
    inner = s_env.from_path("src").join(s_env.from_path("src2"), col("k") == col("k2"))
    with pytest.raises(TableException, match=refused + "a regular join of unbounded inputs \\(inner join"):
        inner.execute()
    s_env.execute_sql("CREATE TABLE pr (k STRING, v INT, k2 STRING, w INT) WITH ('connector' = 'print')")
    with pytest.raises(TableException, match=refused + "a regular join"):
        inner.execute_insert("pr")
    top = s_env.sql_query("SELECT k, v FROM (SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn "
                          "FROM src) WHERE rn <= 2")
    with pytest.raises(TableException, match=refused + "a Top-N"):
        top.execute()
    (tmp_path / "ts").mkdir()
    s_env.execute_sql(f"CREATE TABLE timed (k STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' "
                      f"SECOND) WITH ('connector' = 'filesystem', 'path' = '{tmp_path / 'ts'}', 'format' = 'csv', "
                      "'source.monitor-interval' = '100ms')")
    with pytest.raises(TableException, match=refused + "an over window"):
        s_env.sql_query("SELECT k, SUM(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) "
                        "FROM timed")
    with pytest.raises(TableException, match="the query hint STATE_TTL"):
        s_env.sql_query("SELECT /*+ STATE_TTL('src' = '1d') */ k, COUNT(*) FROM src GROUP BY k")
    s_env.get_config().set("table.exec.state.ttl", "0 ms")  # off: the inner join runs
    with inner.execute().collect() as rows:
        assert tuple(next(rows)) == ("a", 1, "a", 1)


def test_blackhole_sink_takes_an_updating_changelog(s_env: TableEnvironment, tmp_path: Path) -> None:
    # Flink's blackhole consumes updates (PyFlink 2.3's test_clean_state inserts a global count into
    # one); a filesystem sink refuses the same query with Flink's message.
    src = s_env.from_elements([(1, "a"), (2, "b"), (3, "a")], ["v", "k"])
    s_env.execute_sql("CREATE TABLE bh (c BIGINT) WITH ('connector' = 'blackhole')")
    s_env.execute_sql(f"CREATE TABLE fs (c BIGINT) WITH ('connector' = 'filesystem', 'path' = '{tmp_path}', "
                      "'format' = 'csv')")
    counts = src.select(col("v").count)
    counts.execute_insert("bh").wait()
    with pytest.raises(TableException, match="doesn't support consuming update changes"):
        counts.execute_insert("fs").wait()


def test_to_changelog_op_mapping_of_an_updating_table(s_env: TableEnvironment) -> None:
    # The changelog is PyFlink 2.3's (test_diff_streaming: to_changelog_of_updating_count); with
    # op_mapping, INSERT and UPDATE_AFTER become 'upsert' and the unmapped UPDATE_BEFORE rows go.
    from pyflink_table.expressions import descriptor, map_

    src = s_env.from_elements([(1, "a"), (2, "b"), (3, "a"), (3, "a"), (-1, "b")], ["v", "k"])
    counts = src.group_by(col("k")).select(col("k"), col("v").count.alias("c"))
    upserts = counts.to_changelog(descriptor("kind").as_argument("op"),
                                  map_("INSERT, UPDATE_AFTER", "upsert").as_argument("op_mapping"))
    assert upserts.get_schema().get_field_names() == ["kind", "k", "c"]
    assert [tuple(r) for r in upserts.execute().collect()] == [
        ("upsert", "a", 1), ("upsert", "b", 1), ("upsert", "a", 2), ("upsert", "a", 3), ("upsert", "b", 2)]


def test_print_of_a_stream_prints_rows_until_the_job_is_cancelled(
        s_env: TableEnvironment, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _publish(tmp_path, "f1.csv", "a,1\nb,22\n")
    s_env.execute_sql(f"CREATE TABLE src (k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '{tmp_path}', "
                      "'format' = 'csv', 'source.monitor-interval' = '100ms')")
    result = s_env.from_path("src").execute()
    client = result.get_job_client()  # starts the job
    assert client.get_job_status().result() == JobStatus.RUNNING

    def cancel_after_first_batch() -> None:
        query = result._iterator.job._query  # type: ignore[attr-defined]
        _wait_for(lambda: any(p["numInputRows"] > 0 for p in query.recentProgress))
        client.cancel()

    canceller = threading.Thread(target=cancel_after_first_batch)
    canceller.start()
    result.print()  # returns once the job is cancelled
    canceller.join()
    # The layout of PyFlink's streaming tableau (measured for bounded input in test_diff_streaming).
    assert capsys.readouterr().out.splitlines() == [
        "+----+--------------------------------+-------------+",
        "| op |                              k |           v |",
        "+----+--------------------------------+-------------+",
        "| +I |                              a |           1 |",
        "| +I |                              b |          22 |",
        "+----+--------------------------------+-------------+",
        "2 rows in set",
    ]
    assert client.get_job_status().result() == JobStatus.CANCELED


def _events(s_env: TableEnvironment, directory: Path) -> None:
    s_env.execute_sql(f"CREATE TABLE ev (k STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' "
                      f"SECOND) WITH ('connector' = 'filesystem', 'path' = '{directory}', 'format' = 'csv', "
                      "'source.monitor-interval' = '1s')")


def test_pandas_aggregate_in_an_unbounded_over_window_over_a_stream_is_refused(s_env: TableEnvironment,
                                                                               tmp_path: Path) -> None:
    # FLIP-137 non-goal; PyFlink 2.3's message, measured.
    from pyflink_table import DataTypes
    from pyflink_table.expressions import UNBOUNDED_RANGE
    from pyflink_table.udf import udaf
    from pyflink_table.window import Over

    _events(s_env, tmp_path)
    mean = udaf(lambda v: v.mean(), result_type=DataTypes.DOUBLE(), func_type="pandas")
    w = s_env.from_path("ev").over_window(
        Over.partition_by(col("k")).order_by(col("ts")).preceding(UNBOUNDED_RANGE).alias("o"))
    with pytest.raises(TableException, match=r"^Python UDAF is not supported to be used in UNBOUNDED PRECEDING OVER "
                                             r"windows\.$"):
        w.select(col("k"), mean(col("v")).over(col("o")))


def test_unbounded_over_window_ordered_by_a_non_time_column_refuses_other_aggregates_by_name(
        s_env: TableEnvironment, tmp_path: Path) -> None:
    # It runs with SUM, COUNT, MIN, MAX and AVG (tests/differential/test_diff_streaming_over_unbounded.py);
    # another aggregate is named when the job is planned.
    _events(s_env, tmp_path)
    table = s_env.sql_query("SELECT k, STDDEV_POP(v) OVER (PARTITION BY k ORDER BY v ROWS BETWEEN UNBOUNDED "
                            "PRECEDING AND CURRENT ROW) FROM ev")
    with pytest.raises(TableException, match=r"stddev_pop\(.*in an UNBOUNDED PRECEDING over window ordered by a "
                                             r"non-time column .*\(SUM, COUNT, MIN, MAX and AVG are supported\)"):
        table.execute()


def test_unbounded_over_window_ordered_by_a_non_time_column_over_bounded_input_refuses_other_aggregates_by_name(
        s_env: TableEnvironment) -> None:
    # Over bounded input it runs with PyFlink's changelog (tests/differential/
    # test_diff_streaming_over_nontime_bounded.py); another aggregate is named when the changelog is computed.
    s_env.create_temporary_view("bounded_kv", s_env.from_elements([("a", 1), ("a", 4), ("a", 2)], ["k", "v"]))
    table = s_env.sql_query("SELECT k, STDDEV_POP(v) OVER (PARTITION BY k ORDER BY v) AS s FROM bounded_kv")
    with pytest.raises(TableException, match=r"stddev_pop\(.*in an UNBOUNDED PRECEDING over window ordered by a "
                                             r"non-time column in streaming mode \(SUM, COUNT, MIN, MAX and AVG"):
        list(table.execute().collect())


def test_table_api_over_window_ordered_by_a_non_time_column_gets_pyflinks_validation_error(
        s_env: TableEnvironment, tmp_path: Path) -> None:
    # PyFlink 2.3 streaming, measured for row_interval(2), lit(2).seconds and UNBOUNDED_ROW:
    # ValidationException "Invalid function call:", whose innermost cause reads as below.
    from pyflink_table import ValidationException
    from pyflink_table.expressions import UNBOUNDED_ROW, row_interval
    from pyflink_table.window import Over

    _events(s_env, tmp_path)
    for preceding in (UNBOUNDED_ROW, row_interval(2)):
        w = s_env.from_path("ev").over_window(
            Over.partition_by(col("k")).order_by(col("v")).preceding(preceding).alias("o"))
        with pytest.raises(ValidationException,
                           match=r"^Second argument in OVER window must be a TIME ATTRIBUTE, but is: INT$"):
            w.select(col("k"), col("v").sum.over(col("o")))


def test_window_table_function_aggregation_over_a_stream_needs_both_window_columns(s_env: TableEnvironment,
                                                                                   tmp_path: Path) -> None:
    # Grouped by window_start and window_end, a TVF aggregation runs as Flink's window aggregation
    # (tests/differential/test_diff_streaming_tvf.py). Grouped by only one of them, Flink plans an
    # updating aggregation of the windowed rows, which is not built here: refused by name.
    _events(s_env, tmp_path)
    tvf = "TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '5' SECOND))"
    s_env.sql_query(f"SELECT k, window_start, window_end, SUM(v) FROM {tvf} GROUP BY k, window_start, window_end")
    with pytest.raises(TableException, match="grouped by a window table function's columns other than both "
                                             "window_start and window_end"):
        s_env.sql_query(f"SELECT ws, SUM(v) FROM (SELECT window_start AS ws, v FROM {tvf}) GROUP BY ws")
    with pytest.raises(TableException, match="grouped by a window table function's columns other than both "
                                             "window_start and window_end"):
        s_env.sql_query(f"SELECT k, SUM(v) FROM {tvf} GROUP BY k, window_end")
    # The watermark is placed on the time column below the aggregation: a subquery must keep it.
    with pytest.raises(TableException, match="does not carry the table function's time column with its WATERMARK"):
        s_env.sql_query(f"SELECT k, window_start, window_end, SUM(v) FROM (SELECT k, v, window_start, window_end "
                        f"FROM {tvf}) GROUP BY k, window_start, window_end")
    # DISTINCT aggregates run from a set of the window's values (test_diff_streaming_tvf.py); those
    # of several arguments are refused by name.
    s_env.sql_query(f"SELECT k, COUNT(DISTINCT v) FROM {tvf} GROUP BY k, window_start, window_end")
    with pytest.raises(TableException, match="the DISTINCT aggregate COUNT of 2 argument"):
        s_env.sql_query(f"SELECT k, COUNT(DISTINCT k, v) FROM {tvf} GROUP BY k, window_start, window_end")
    # Python aggregates in TVF windows over streams plan (rows: test_diff_streaming_tvf_python.py): a
    # pandas one as a window aggregation on the collected path, which a general one beside it, or the
    # processor option, cannot take: refused by name.
    from pyflink_table import DataTypes
    from pyflink_table.udf import AggregateFunction, udaf

    def mean_v(v):  # type: ignore[no-untyped-def]
        return v.mean()

    class Last(AggregateFunction):  # type: ignore[misc]
        def create_accumulator(self):  # type: ignore[no-untyped-def]
            return [None]

        def accumulate(self, acc, v):  # type: ignore[no-untyped-def]
            acc[0] = v

        def get_value(self, acc):  # type: ignore[no-untyped-def]
            return acc[0]

    s_env.create_temporary_function("mean_v", udaf(mean_v, result_type=DataTypes.DOUBLE(), func_type="pandas"))
    s_env.create_temporary_function("last_v", udaf(Last(), result_type=DataTypes.INT(),
                                                   accumulator_type=DataTypes.ARRAY(DataTypes.INT())))
    pandas = f"SELECT k, window_start, mean_v(v) FROM {tvf} GROUP BY k, window_start, window_end"
    assert "collected_window_aggregation" in s_env.sql_query(pandas).explain()
    s_env.sql_query(f"SELECT k, window_start, last_v(v) FROM {tvf} GROUP BY k, window_start, window_end")
    refused = "next to a pandas aggregate function in a window table function aggregation over an unbounded source"
    with pytest.raises(TableException, match=refused):
        s_env.sql_query(f"SELECT k, mean_v(v), last_v(v) FROM {tvf} GROUP BY k, window_start, window_end")
    s_env.get_config().set("pyflink_table.streaming.python-window", "processor")
    with pytest.raises(TableException, match=refused):
        s_env.sql_query(pandas)
    s_env.get_config().set("pyflink_table.streaming.python-window", "auto")
    # The windowed rows themselves, and the group window form, still plan.
    s_env.sql_query(f"SELECT k, v, window_start, window_end FROM {tvf}")
    # SESSION: a window aggregation when grouped by its PARTITION BY keys (as Flink plans it). Other
    # keys (measured on PyFlink 2.3: an updating aggregation of the sessions' rows, each emitted when
    # its session closes) are refused by name over a stream (Spark cannot chain its session
    # aggregation and an updating one); over bounded input they run (tests/test_window_sql.py).
    session = "TABLE(SESSION(TABLE ev PARTITION BY k, DESCRIPTOR(ts), INTERVAL '2' SECOND))"
    s_env.sql_query(f"SELECT k, window_start, window_end, SUM(v) FROM {session} GROUP BY k, window_start, window_end")
    with pytest.raises(TableException, match=r"over an unbounded source whose keys besides window_start and "
                                             r"window_end \[\] differ from its PARTITION BY keys \[k\]"):
        s_env.sql_query(f"SELECT window_start, window_end, SUM(v) FROM {session} GROUP BY window_start, window_end")
    s_env.sql_query(f"SELECT k, v, window_start, window_end FROM {session}")
    s_env.sql_query("SELECT k, TUMBLE_END(ts, INTERVAL '5' SECOND), SUM(v) FROM ev "
                    "GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND)")


def test_current_watermark_of_a_column_without_a_watermark_is_a_validation_error(s_env: TableEnvironment,
                                                                                tmp_path: Path) -> None:
    # PyFlink 2.3's first line, measured (SQL and Table API); the argument must be a rowtime attribute.
    from pyflink_table import ValidationException
    from pyflink_table.expressions import current_watermark

    _events(s_env, tmp_path)
    with pytest.raises(ValidationException, match=r"^Invalid function call:\nCURRENT_WATERMARK\(INT\)"):
        s_env.from_path("ev").select(col("k"), current_watermark(col("v")))
    with pytest.raises(ValidationException,
                       match=r"^SQL validation failed. Invalid function call:\nCURRENT_WATERMARK\(STRING\)"):
        s_env.sql_query("SELECT k FROM ev WHERE CURRENT_WATERMARK(k) IS NULL")


def test_bounded_retracting_results_are_refused_by_append_sinks_naming_deletes(s_env: TableEnvironment,
                                                                              tmp_path: Path) -> None:
    # Measured on PyFlink 2.3 streaming with these bounded views: a chained aggregation, a left join and a
    # Top-N into filesystem are refused for "update and delete changes"; a single aggregation for "update changes".
    s_env.execute_sql("CREATE TEMPORARY VIEW l AS SELECT * FROM (VALUES ('a', 1), ('b', 2), ('a', 3)) AS v(k, v)")
    s_env.execute_sql("CREATE TEMPORARY VIEW r AS SELECT * FROM (VALUES ('a', 10)) AS v(k2, w)")
    for name, columns in (("fs1", "k STRING, c BIGINT"), ("fs2", "s INT, c BIGINT"), ("fs3", "k STRING, v INT, w INT"),
                          ("fs4", "k STRING, v INT")):
        s_env.execute_sql(f"CREATE TABLE {name} ({columns}) WITH ('connector' = 'filesystem', "
                          f"'path' = '{tmp_path / name}', 'format' = 'csv')")
    prefix = "Table sink 'default_catalog.default_database.{}' doesn't support consuming update {}changes which is " \
             "produced by node {}"
    cases = [
        ("INSERT INTO fs1 SELECT k, COUNT(*) FROM l GROUP BY k", prefix.format("fs1", "", "GroupAggregate(groupBy=[k]")),
        ("INSERT INTO fs2 SELECT s, COUNT(*) AS c FROM (SELECT k, SUM(v) AS s FROM l GROUP BY k) GROUP BY s",
         prefix.format("fs2", "and delete ", "GroupAggregate(groupBy=[s]")),
        ("INSERT INTO fs3 SELECT k, v, w FROM l LEFT JOIN r ON k = k2",
         prefix.format("fs3", "and delete ", "Join(joinType=[LeftOuterJoin]")),
        ("INSERT INTO fs4 SELECT k, v FROM (SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn "
         "FROM l) WHERE rn <= 1", prefix.format("fs4", "and delete ", "Rank(")),
    ]
    for statement, message in cases:
        with pytest.raises(TableException, match="^" + re.escape(message)):
            s_env.execute_sql(statement).wait()


def test_flink_exact_watermark_survives_a_restart(_spark_started: None, tmp_path: Path) -> None:
    from pyflink_table import DataTypes
    from pyflink_table.expressions import current_watermark

    # pyflink_table.streaming.event-time = flink-exact: the largest rowtime so far is checkpointed
    # state. By hand (1 s delay): f1's a, 1 at 00:04 sees NULL, a, 2 at 00:02 sees 00:03; after the
    # restart f2's b, 3 at 00:01 still sees 00:03 (a fresh job would give it NULL).
    source, out, checkpoints = tmp_path / "in", tmp_path / "out", tmp_path / "checkpoints"
    source.mkdir()

    def lines() -> List[str]:
        if not out.is_dir():
            return []
        # k, v and the watermark to the second (the string's format is not what is tested here).
        return sorted(line.replace('"', "")[:23] for f in out.iterdir() if not f.name.startswith((".", "_"))
                      for line in f.read_text().splitlines())

    def run(name: str, text: str, expected: List[str]) -> None:
        env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
        env.get_config().set("parallelism.default", "1")
        env.get_config().set("pyflink_table.streaming.event-time", "flink-exact")
        env.get_config().set("execution.checkpointing.dir", f"file://{checkpoints}")
        env.execute_sql(f"CREATE TABLE ev (k STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' "
                        f"SECOND) WITH ('connector' = 'filesystem', 'path' = '{source}', 'format' = 'csv', "
                        "'source.monitor-interval' = '100ms')")
        env.execute_sql(f"CREATE TABLE wm_out (k STRING, v INT, wm STRING) WITH ('connector' = 'filesystem', "
                        f"'path' = '{out}', 'format' = 'csv')")
        _publish(source, name, text)
        job = env.from_path("ev").select(col("k"), col("v"), current_watermark(col("ts")).cast(DataTypes.STRING())
                                         ).execute_insert("wm_out").get_job_client()
        assert job is not None
        _wait_for(lambda: lines() == expected)
        job.cancel()

    run("f1.csv", "a,1,1970-01-01 00:00:04\na,2,1970-01-01 00:00:02\n", ["a,1,", "a,2,1970-01-01 00:00:03"])
    run("f2.csv", "b,3,1970-01-01 00:00:01\n", ["a,1,", "a,2,1970-01-01 00:00:03", "b,3,1970-01-01 00:00:03"])


def test_flink_exact_refuses_what_it_cannot_order(s_env: TableEnvironment, tmp_path: Path) -> None:
    s_env.get_config().set("pyflink_table.streaming.event-time", "flink-exact")
    _events(s_env, tmp_path)
    with pytest.raises(TableException, match=r"^Unsupported: a session window over an unbounded source under "
                                             r"pyflink_table\.streaming\.event-time = flink-exact"):
        s_env.execute_sql("SELECT k, SUM(v) FROM ev GROUP BY k, SESSION(ts, INTERVAL '2' SECOND)").collect()
    with pytest.raises(TableException, match=r"^Unsupported: CURRENT_WATERMARK in a query with a group window under"):
        s_env.execute_sql("SELECT k, SUM(v) FROM ev WHERE CURRENT_WATERMARK(ts) IS NULL OR ts > CURRENT_WATERMARK(ts) "
                          "GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND)").collect()
    with pytest.raises(TableException, match=r"^Unsupported: a window with Python aggregates on the window processor, "
                                             r"or an over window, over an unbounded source under"):
        s_env.execute_sql("SELECT k, SUM(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) "
                          "FROM ev").collect()
    with pytest.raises(ValidationException, match=r"^Invalid value for option 'pyflink_table\.streaming\.event-time': "
                                                  r"Could not parse value 'per-row'"):
        s_env.get_config().set("pyflink_table.streaming.event-time", "per-row")
