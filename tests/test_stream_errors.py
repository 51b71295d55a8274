"""Failures of stream jobs reach the program as one PyFlink exception, and nothing else reaches stderr.

Each failing job runs in one child process (its own JVM) with ``logging.basicConfig()``, as many
programs have, so a record logged on Python's root logger shows too. The child writes a marker
line to stderr before each case: every case's stretch of stderr must be empty, where Spark's
MicroBatchExecution logged "Query ... terminated with error" with Python and Java frames, py4j
logged the failed micro-batch callback with its traceback, and Spark's DataSource V2 writer logged
its aborted commits. The user's own error (hand-written in the child) ends each message.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Dict, Iterator, List

import pytest

from pyflink_table import DataTypes, EnvironmentSettings, Schema, TableDescriptor, TableEnvironment
from pyflink_table.errors import ValidationException
from pyflink_table.expressions import col, lit
from pyflink_table.window import Tumble

ROOT = Path(__file__).resolve().parent.parent

CHILD = textwrap.dedent("""
    import json, logging, os, sys, tempfile
    logging.basicConfig()
    from pyflink_table import DataTypes, EnvironmentSettings, TableEnvironment
    from pyflink_table.expressions import col, lit, row_interval
    from pyflink_table.udf import AggregateFunction, udaf, udf
    from pyflink_table.window import Tumble

    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    d = tempfile.mkdtemp()
    src = os.path.join(d, "src")
    os.mkdir(src)
    with open(os.path.join(src, "f1.csv"), "w") as f:
        f.write("a,1,1970-01-01 00:00:01\\na,2,1970-01-01 00:00:02\\nb,3,1970-01-01 00:00:12\\n")
    t_env.execute_sql("CREATE TABLE ev (k STRING, v INT, ts TIMESTAMP(3), pt AS PROCTIME(), WATERMARK FOR ts AS "
                      "ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '" + src + "', "
                      "'format' = 'csv', 'source.monitor-interval' = '100ms')")
    t_env.execute_sql("CREATE TABLE bh (v INT) WITH ('connector' = 'blackhole')")
    blocker = os.path.join(d, "a_file")
    with open(blocker, "w") as f:
        f.write("x")
    t_env.execute_sql("CREATE TABLE unwritable (k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '"
                      + blocker + "/out', 'format' = 'csv')")

    @udf(result_type=DataTypes.INT())
    def boom(v):
        raise ValueError("user boom")

    def pandas_boom(v):
        raise ValueError("pandas boom")

    class Boom(AggregateFunction):
        def create_accumulator(self):
            return [0]
        def accumulate(self, acc, v):
            raise ValueError("aggregate boom")
        def retract(self, acc, v):
            raise ValueError("aggregate boom")
        def get_value(self, acc):
            return acc[0]

    pboom = udaf(pandas_boom, result_type=DataTypes.DOUBLE(), func_type="pandas")
    gboom = udaf(Boom(), result_type=DataTypes.BIGINT(), accumulator_type=DataTypes.ARRAY(DataTypes.BIGINT()))
    ev = t_env.from_path("ev")
    tumble = ev.window(Tumble.over(lit(5).seconds).on(col("ts")).alias("w")).group_by(col("w"), col("k"))

    def first(table):
        with table.execute().collect() as rows:
            return next(rows)

    def python_window(path):
        t_env.get_config().set("pyflink_table.streaming.python-window", path)
        try:
            return first(tumble.select(col("k"), pboom(col("v"))))
        finally:
            t_env.get_config().set("pyflink_table.streaming.python-window", "auto")

    def unwritable():
        result = ev.select(col("k"), col("v")).execute_insert("unwritable")
        try:
            result.wait(300000)
        finally:
            print(json.dumps({"status": str(result.get_job_client().get_job_status().result()),
                              "files": sorted(os.listdir(d))}), flush=True)

    def updating():
        bounded = t_env.from_elements([("a", 1), ("a", 2)], ["k", "v"])
        sums = bounded.group_by(col("k")).select(col("k"), col("v").sum.alias("s"))
        return list(sums.group_by(col("s")).select(col("s"), gboom(col("s"))).execute().collect())

    cases = {
        "udf_collect": lambda: first(ev.select(boom(col("v")))),
        "udf_insert": lambda: ev.select(boom(col("v"))).execute_insert("bh").wait(300000),
        "pandas_window": lambda: python_window("auto"),
        "pandas_window_processor": lambda: python_window("processor"),
        "join_processor": lambda: first(ev.left_outer_join(
            ev.select(col("k").alias("k2"), boom(col("v")).alias("b")), col("k") == col("k2")).select(col("k"), col("b"))),
        "row_count_window": lambda: first(ev.window(Tumble.over(row_interval(2)).on(col("pt")).alias("w"))
                                          .group_by(col("w"), col("k")).select(col("k"), gboom(col("v")))),
        "updating_aggregation": updating,
        "unwritable_sink": unwritable,
    }
    for name in sys.argv[1:]:
        sys.stderr.write("@@ " + name + "\\n")
        sys.stderr.flush()
        try:
            cases[name]()
            print(json.dumps({"case": name, "raised": None}), flush=True)
        except Exception as e:
            lines = str(e).strip().splitlines()
            print(json.dumps({"case": name, "raised": type(e).__name__, "first": lines[0], "last": lines[-1]}),
                  flush=True)
""")

#: Each case: the exception's type, the first and the last line of its message.
EXPECTED = {
    "udf_collect": ("PythonException", "Python function 'boom' failed:", "ValueError: user boom"),
    "udf_insert": ("PythonException", "Python function 'boom' failed:", "ValueError: user boom"),
    "pandas_window": ("PythonException", "Python aggregate function 'pandas_boom' failed:", "ValueError: pandas boom"),
    "pandas_window_processor": ("PythonException", "Python aggregate function 'pandas_boom' failed:",
                                "ValueError: pandas boom"),
    "join_processor": ("PythonException", "Python function 'boom' failed:", "ValueError: user boom"),
    "row_count_window": ("PythonException", "Python aggregate function 'Boom' failed:", "ValueError: aggregate boom"),
    "updating_aggregation": ("PythonException", "Python aggregate function 'Boom' failed:",
                             "ValueError: aggregate boom"),
}


@pytest.fixture(scope="module")
def failures(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, object]:
    """Runs every case in one child; each case's outcome and its stretch of stderr."""
    script = tmp_path_factory.mktemp("stream_errors") / "child.py"
    script.write_text(CHILD)
    cases = list(EXPECTED) + ["unwritable_sink"]
    p = subprocess.run([sys.executable, str(script)] + cases, capture_output=True, text=True, timeout=1800,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=script.parent)
    assert p.returncode == 0, p.stderr[-3000:]
    outcomes = {}
    extra: List[dict] = []
    for line in p.stdout.splitlines():
        record = json.loads(line)
        if "case" in record:
            outcomes[record["case"]] = record
        else:
            extra.append(record)
    stderr: Dict[str, str] = {}
    name = ""
    for line in p.stderr.splitlines(keepends=True):
        if line.startswith("@@ "):
            name = line[3:].strip()
            stderr[name] = ""
        else:
            stderr[name] = stderr.get(name, "") + line
    return {"outcomes": outcomes, "stderr": stderr, "extra": extra}


@pytest.mark.parametrize("case", list(EXPECTED))
def test_failing_stream_job_raises_the_users_error_and_prints_nothing(failures: Dict[str, object], case: str) -> None:
    outcome = failures["outcomes"][case]  # type: ignore[index]
    assert (outcome["raised"], outcome["first"], outcome["last"]) == EXPECTED[case], outcome
    assert failures["stderr"].get(case, "") == "", failures["stderr"][case]  # type: ignore[attr-defined]


def test_unwritable_stream_sink_fails_the_job_naming_the_path(failures: Dict[str, object]) -> None:
    # PyFlink 2.3 (measured, a bounded insert into a path under a file): Py4JJavaError over Flink's
    # TableException "Failed to wait job finish"; here the TableException names the path.
    outcome = failures["outcomes"]["unwritable_sink"]  # type: ignore[index]
    assert outcome["raised"] == "TableException", outcome
    assert outcome["first"].startswith("Writing to '") and "a_file/out' failed: " in outcome["first"], outcome
    # The job is FAILED and nothing was written (a_file is still the only entry besides the source).
    assert failures["extra"] == [{"status": "JobStatus.FAILED", "files": ["a_file", "src"]}]  # type: ignore[index]
    assert failures["stderr"].get("unwritable_sink", "") == ""  # type: ignore[attr-defined]


# --- WATERMARK declarations: PyFlink 2.3's checks when the table is created (in both modes) --------

@pytest.fixture(params=["streaming", "batch"])
def env(request: pytest.FixtureRequest, _spark_started: None) -> Iterator[TableEnvironment]:
    settings = EnvironmentSettings.in_streaming_mode() if request.param == "streaming" else \
        EnvironmentSettings.in_batch_mode()
    yield TableEnvironment.create(settings)


#: Messages measured on PyFlink 2.3 (ValidationException, through Py4JJavaError there).
TIME_TYPES = ("The field must be of type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 "
              "to 3")
WATERMARKS = {
    "WATERMARK FOR nope AS nope - INTERVAL '1' SECOND": "The rowtime attribute field 'nope' is not defined in the "
                                                        "table schema",
    "WATERMARK FOR ts AS x - INTERVAL '1' SECOND": "Unknown identifier 'x'",
    "WATERMARK FOR v AS v": f"Invalid data type of time field for watermark definition. {TIME_TYPES}, but the time "
                            "field type is INT",
    "WATERMARK FOR k AS k": f"Invalid data type of time field for watermark definition. {TIME_TYPES}, but the time "
                            "field type is STRING",
    "WATERMARK FOR ts AS v": f"Invalid data type of expression for watermark definition. {TIME_TYPES}, but the "
                             "watermark expression type is INT",
}


@pytest.mark.parametrize("watermark", list(WATERMARKS))
def test_invalid_watermark_is_refused_when_the_table_is_created(env: TableEnvironment, tmp_path: Path,
                                                                watermark: str) -> None:
    with pytest.raises(ValidationException) as raised:
        env.execute_sql(f"CREATE TABLE t (k STRING, v INT, ts TIMESTAMP(3), {watermark}) WITH ("
                        f"'connector' = 'filesystem', 'path' = '{tmp_path}', 'format' = 'csv')")
    assert str(raised.value).startswith(WATERMARKS[watermark]), str(raised.value)
    assert "t" not in env.list_tables()


def test_watermark_on_a_timestamp_with_more_than_millisecond_precision_is_refused(env: TableEnvironment,
                                                                                  tmp_path: Path) -> None:
    # Flink's rule (the precision 'p' is from 0 to 3), as its message says.
    with pytest.raises(ValidationException, match=r"but the time field type is TIMESTAMP\(6\)$"):
        env.execute_sql(f"CREATE TABLE t (ts TIMESTAMP(6), WATERMARK FOR ts AS ts) WITH ("
                        f"'connector' = 'filesystem', 'path' = '{tmp_path}', 'format' = 'csv')")


def _descriptor(path: Path, watermark_column: str) -> TableDescriptor:
    schema = (Schema.new_builder().column("k", DataTypes.STRING()).column("v", DataTypes.INT())
              .column("ts", DataTypes.TIMESTAMP(3)).watermark(watermark_column, f"{watermark_column} - INTERVAL '1' SECOND")
              .build())
    return TableDescriptor.for_connector("filesystem").schema(schema).option("path", str(path)).format("csv").build()


def test_descriptor_watermark_on_a_missing_column_is_refused(env: TableEnvironment, tmp_path: Path) -> None:
    # PyFlink 2.3 (measured): create_temporary_table raises this ValidationException.
    with pytest.raises(ValidationException) as raised:
        env.create_temporary_table("wm", _descriptor(tmp_path, "nope"))
    assert str(raised.value) == ("Invalid column name 'nope' for rowtime attribute in watermark declaration. "
                                 "Available columns are: [k, v, ts]")


def test_descriptor_watermark_drives_a_stream_window(_spark_started: None, tmp_path: Path) -> None:
    # Schema.watermark reached the bridge as a Python list's text and was refused in streaming mode.
    # Hand-computed: tumbling 5 s windows over a bounded file; every window fires at its end.
    (tmp_path / "f.csv").write_text("a,1,1970-01-01 00:00:01\na,2,1970-01-01 00:00:04\na,5,1970-01-01 00:00:06\n")
    s_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    s_env.create_temporary_table("wm", _descriptor(tmp_path, "ts"))
    w = s_env.from_path("wm").window(Tumble.over(lit(5).seconds).on(col("ts")).alias("w"))
    rows = w.group_by(col("w"), col("k")).select(col("k"), col("v").sum.alias("s")).execute().collect()
    assert sorted(tuple(r) for r in rows) == [("a", 3), ("a", 5)]


# --- cancelling: a JobClient during a micro-batch, Ctrl-C during print() of an unbounded query ------

STOP_CHILD = textwrap.dedent("""
    import os, signal, sys, tempfile, threading, time
    from pyflink_table import DataTypes, EnvironmentSettings, TableEnvironment
    from pyflink_table.expressions import col
    from pyflink_table.udf import udf

    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    d = tempfile.mkdtemp()
    src, out, calls = os.path.join(d, "src"), os.path.join(d, "out"), os.path.join(d, "calls")
    os.mkdir(src)
    with open(os.path.join(src, "f1.csv"), "w") as f:
        f.write("".join("a,%d\\n" % i for i in range(40)))
    t_env.execute_sql("CREATE TABLE ev (k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '" + src
                      + "', 'format' = 'csv', 'source.monitor-interval' = '100ms')")
    t_env.execute_sql("CREATE TABLE dst (k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '" + out
                      + "', 'format' = 'csv')")

    @udf(result_type=DataTypes.INT())
    def slow(v):
        with open(calls, "a") as f:  # one line per call: the test sees whether the job runs on
            f.write("x\\n")
        time.sleep(0.25)  # 40 rows: 10 s of calls in the first micro-batch
        return v

    def in_first_batch():
        while not os.path.exists(calls):
            time.sleep(0.05)
        time.sleep(1)

    def count():
        with open(calls) as f:
            return sum(1 for _ in f)

    sys.stderr.write("@@ started\\n")
    sys.stderr.flush()
    table = t_env.from_path("ev").select(col("k"), slow(col("v")))
    if sys.argv[1] == "cancel":
        result = table.execute_insert("dst")
        in_first_batch()
        result.get_job_client().cancel().result()
        print("STATUS", result.get_job_client().get_job_status().result(), flush=True)
    else:
        def interrupt():
            in_first_batch()
            os.kill(os.getpid(), signal.SIGINT)
        threading.Thread(target=interrupt, daemon=True).start()
        try:
            table.execute().print()
            print("RETURNED", flush=True)
        except KeyboardInterrupt:
            print("INTERRUPTED", flush=True)
    time.sleep(4)  # a Python worker in the middle of its Arrow batch is killed after Spark's timeout
    before = count()
    time.sleep(4)
    print("CALLS", before < 40 and count() == before, flush=True)
    print("ACTIVE", len(t_env.get_spark_session().streams.active), flush=True)
    print("SINK", sorted(os.listdir(out)) if os.path.exists(out) else None, flush=True)
""")


def _run_stop_child(tmp_path: Path, how: str) -> "subprocess.CompletedProcess[str]":
    script = tmp_path / "stop_child.py"
    script.write_text(STOP_CHILD)
    p = subprocess.run([sys.executable, str(script), how], capture_output=True, text=True, timeout=900,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=tmp_path)
    assert p.returncode == 0, p.stderr[-3000:]
    # Stopping the query used to print a StackOverflowError from Spark's stream thread (its check of
    # the failed callback's long traceback) with 1024 Java frames.
    assert p.stderr == "@@ started\n", p.stderr[:3000]
    return p


def test_cancelling_a_stream_insert_during_a_micro_batch(tmp_path: Path) -> None:
    p = _run_stop_child(tmp_path, "cancel")
    # Stopped in its first micro-batch: no more calls, no query left, nothing written to the sink.
    assert p.stdout.splitlines() == ["STATUS JobStatus.CANCELED", "CALLS True", "ACTIVE 0", "SINK None"], p.stdout


def test_ctrl_c_during_print_of_an_unbounded_query_stops_it(tmp_path: Path) -> None:
    # As PyFlink: print() raises KeyboardInterrupt. The query stops (no calls, no query left).
    p = _run_stop_child(tmp_path, "print")
    lines = p.stdout.splitlines()
    assert lines[:3] == ["+----+--------------------------------+-------------+",
                         "| op |                              k |         _c1 |",
                         "+----+--------------------------------+-------------+"], p.stdout
    assert lines[-4:] == ["INTERRUPTED", "CALLS True", "ACTIVE 0", "SINK None"], p.stdout
