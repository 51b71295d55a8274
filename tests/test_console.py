"""A quiet console: a program run in a terminal or a Jupyter kernel shows only its own output.

Each test runs a small program in a fresh process (its own JVM), with a UDF that logs and prints,
and compares everything the process showed, through its exit or the kernel's shutdown, with the
lines the program itself produces.
"""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any, Dict, List

import pytest
from jupyter_client import KernelManager

from pyflink_table._jvm_console import INCUBATOR_WARNING, TWS_WORKER_PREFIXES, LineDropper, PrefixLineDropper

ROOT = Path(__file__).resolve().parent.parent

PROGRAM = textwrap.dedent("""
    import logging
    from pyflink_table import DataTypes, EnvironmentSettings, TableEnvironment
    from pyflink_table.expressions import col
    from pyflink_table.udf import udf

    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())

    @udf(result_type=DataTypes.BIGINT(), name="plus_one")
    def plus_one(v):
        logging.getLogger("app").info("saw %s", v)
        print("printed", v)
        return v + 1

    t_env.from_elements([(1,), (2,)], ["v"]).select(plus_one(col("v")).alias("w")).execute().print()
""")

#: The table the program prints (hand-written from its input).
TABLE = ["+----------------------+", "|                    w |", "+----------------------+",
         "|                    2 |", "|                    3 |", "+----------------------+", "2 rows in set"]
LOG_LINE = re.compile(r"INFO \[plus_one, task \d+\.\d+ in stage \d+ \(TID \d+\)\] app: saw (\d)")


def _env() -> Dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")


def _check_lines(lines: List[str]) -> None:
    """The program's lines: the table (in order), two printed lines, two log records, nothing else."""
    logged = sorted(m.group(1) for m in map(LOG_LINE.fullmatch, lines) if m)
    printed = sorted(line for line in lines if line.startswith("printed "))
    rest = [line for line in lines if not LOG_LINE.fullmatch(line) and not line.startswith("printed ")]
    assert (logged, printed, rest) == (["1", "2"], ["printed 1", "printed 2"], TABLE), lines


def test_terminal_run_and_exit_show_only_the_programs_output(tmp_path: Path) -> None:
    script = tmp_path / "job.py"
    script.write_text(PROGRAM)
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, str(script)], stdin=subprocess.DEVNULL, stdout=slave, stderr=slave,
                            env=_env(), cwd=tmp_path)
    os.close(slave)
    chunks = []
    while True:  # until every process holding the terminal (the JVM too) has gone
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    assert proc.wait(timeout=60) == 0
    text = b"".join(chunks).decode().replace("\r\n", "\n")
    lines = []
    for line in text.split("\n"):
        # Spark's progress bar (on in a terminal) redraws with \r and clears itself when done.
        segments = [s for s in line.split("\r") if s.strip() and not s.startswith("[Stage ")]
        lines += segments
    _check_lines(lines)


def test_notebook_kernel_run_and_shutdown_show_only_the_programs_output(tmp_path: Path) -> None:
    out_path, err_path = tmp_path / "kernel.out", tmp_path / "kernel.err"
    km = KernelManager(kernel_name="python3", transport="ipc", ip=str(tmp_path / "kernel"))
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        km.start_kernel(env=_env(), cwd=str(tmp_path), stdout=out, stderr=err)
        client = km.client()
        client.start_channels()
        shown: List[Any] = []
        try:
            client.wait_for_ready(timeout=120)

            def on_output(msg: Dict[str, Any]) -> None:
                if msg["msg_type"] in ("stream", "error", "execute_result", "display_data"):
                    shown.append((msg["msg_type"], msg["content"].get("name"), msg["content"].get("text")))

            reply = client.execute_interactive(PROGRAM, timeout=600, output_hook=on_output)
            assert reply["content"]["status"] == "ok", reply["content"]
        finally:
            client.stop_channels()
            km.shutdown_kernel()
    assert {kind for kind, _, _ in shown} == {"stream"}, shown
    stdout = "".join(text for _, name, text in shown if name == "stdout").splitlines()
    stderr = "".join(text for _, name, text in shown if name == "stderr").splitlines()
    assert all(LOG_LINE.fullmatch(line) for line in stderr), stderr
    _check_lines(stdout + stderr)
    # Nothing on the kernel's own console, from the run or from its shutdown (the JVM's included).
    time.sleep(2)
    assert out_path.read_text() == "" and err_path.read_text() == ""


def test_stderr_filter_drops_only_the_warning_line_whatever_the_chunks() -> None:
    progress = b"\r[Stage 0:>                  (0 + 2) / 2]"
    stream = (b"Picked up JAVA_TOOL_OPTIONS: -Xss4m\n" + INCUBATOR_WARNING + progress + b"\r" + b" " * 10 + b"\r"
              + b"WARNING: Using incubator modules: other.module\n" + INCUBATOR_WARNING[:20])
    expected = (b"Picked up JAVA_TOOL_OPTIONS: -Xss4m\n" + progress + b"\r" + b" " * 10 + b"\r"
                + b"WARNING: Using incubator modules: other.module\n" + INCUBATOR_WARNING[:20])
    for size in (1, 2, 5, 17, len(stream)):
        dropper = LineDropper(INCUBATOR_WARNING)
        shown = [dropper.feed(stream[i:i + size]) for i in range(0, len(stream), size)]
        assert b"".join(shown) + dropper.flush() == expected, size
    # A progress bar is not held back: it is shown as soon as it diverges from the warning.
    dropper = LineDropper(INCUBATOR_WARNING)
    assert dropper.feed(progress) == progress


def test_stderr_filter_drops_the_state_worker_lines_whatever_the_chunks() -> None:
    # The lines of pyspark/sql/streaming/transform_with_state_driver_worker.py (print(f"...\\n")).
    worker = (b"Starting Streaming TransformWithStateInPandas Python worker.\n\n"
              b"Streaming TransformWithStateInPandas Python worker finish init stage of Python runner. Received UDF "
              b"from JVM: <function f at 0x7f>, received return type of UDF: StructType([]).\n\n")
    kept = b"Streaming is fine\n\nStarting Streaming jobs\n" + b"\r[Stage 1:>   (0 + 1) / 1]"
    stream = b"before\n" + worker + kept + worker[:30]
    for size in (1, 3, 16, len(stream)):
        dropper = PrefixLineDropper(TWS_WORKER_PREFIXES)
        shown = [dropper.feed(stream[i:i + size]) for i in range(0, len(stream), size)]
        assert b"".join(shown) + dropper.flush() == b"before\n" + kept + worker[:30], size


STREAM_PROGRAM = textwrap.dedent("""
    import os, sys, tempfile
    from pyflink_table import EnvironmentSettings, TableEnvironment
    from pyflink_table.expressions import col, lit
    from pyflink_table.window import Tumble

    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    d = tempfile.mkdtemp()
    with open(os.path.join(d, "f1.csv"), "w") as f:
        f.write("a,1,1970-01-01 00:00:01\\nb,2,1970-01-01 00:00:12\\n")
    t_env.execute_sql("CREATE TABLE ev (k STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' "
                      "SECOND) WITH ('connector' = 'filesystem', 'path' = '" + d + "', 'format' = 'csv', "
                      "'source.monitor-interval' = '100ms')")
    w = t_env.from_path("ev").window(Tumble.over(lit(5).seconds).on(col("ts")).alias("w"))
    it = w.group_by(col("w"), col("k")).select(col("k"), col("v").sum).execute().collect()
    print(list(next(it)))
    it.close()
""")


def test_streaming_run_prints_no_engine_warnings(tmp_path: Path) -> None:
    # Structured Streaming warns about AQE being off for stateful queries, micro-batches behind their
    # trigger and cancelled job groups: none of it is the user's business.
    script = tmp_path / "stream_job.py"
    script.write_text(STREAM_PROGRAM)
    proc = subprocess.run([sys.executable, str(script)], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          env=_env(), cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["['a', 1]"]
    assert proc.stderr == ""


PANDAS_STREAM_PROGRAM = STREAM_PROGRAM.replace(
    "col('v').sum", "mean(col('v'))").replace(
    "col(\"v\").sum", "mean(col(\"v\"))").replace(
    "from pyflink_table.window import Tumble",
    "from pyflink_table.window import Tumble\nfrom pyflink_table import DataTypes\nfrom pyflink_table.udf import udaf\n"
    "mean = udaf(lambda v: v.mean(), result_type=DataTypes.DOUBLE(), func_type='pandas')")


@pytest.mark.parametrize("path", ["auto", "processor"])
def test_stream_window_with_a_pandas_udaf_prints_nothing_of_spark(tmp_path: Path, path: str) -> None:
    # With 'processor' the window runs on transformWithStateInPandas, whose Spark helper process prints
    # start-up lines; by default on Spark's window aggregation and mapInArrow.
    assert "mean(col" in PANDAS_STREAM_PROGRAM
    script = tmp_path / "stream_job.py"
    script.write_text(PANDAS_STREAM_PROGRAM.replace(
        "d = tempfile.mkdtemp()", f"t_env.get_config().set('pyflink_table.streaming.python-window', '{path}')\n"
        "d = tempfile.mkdtemp()"))
    proc = subprocess.run([sys.executable, str(script)], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          env=_env(), cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["['a', 1.0]"]
    assert proc.stderr == ""


ARRAY_INDEX_PROGRAM = textwrap.dedent("""
    import os, tempfile
    from pyflink_table import EnvironmentSettings, TableEnvironment

    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    d = tempfile.mkdtemp()
    with open(os.path.join(d, "f.csv"), "w") as f:
        f.write("a,1\\nb,2\\n")
    t_env.execute_sql("CREATE TABLE csv_src (name STRING, v INT) WITH ('connector' = 'filesystem', "
                      "'path' = '" + d + "', 'format' = 'csv')")
    for sql in ("SELECT c[1] FROM (SELECT ARRAY[name, 'q'] AS c FROM csv_src)",
                "SELECT c[2], c[3] FROM (SELECT ARRAY[name, 'q'] AS c FROM csv_src)",
                "SELECT c[1], c[2], c[3] FROM (SELECT ARRAY[name, CAST(v AS STRING)] AS c FROM csv_src)"):
        print(sorted(tuple(r) for r in t_env.execute_sql(sql).collect()))
""")


def test_array_index_into_a_constructed_array_compiles_without_console_errors(tmp_path: Path) -> None:
    # Spark's element_at on ARRAY[...] of non-null values with a constant index generated Java that
    # did not compile: Spark logged CodeGenerator errors and fell back to interpreting. Rows measured
    # on PyFlink 2.3, except c[3] of the array of non-null values: PyFlink gives '' there (its
    # generated code's default value), we NULL, as Flink's documentation says and as PyFlink gives
    # for the nullable array of the last query.
    script = tmp_path / "array_job.py"
    script.write_text(ARRAY_INDEX_PROGRAM)
    proc = subprocess.run([sys.executable, str(script)], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          env=_env(), cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["[('a',), ('b',)]", "[('q', None), ('q', None)]",
                                        "[('a', '1', None), ('b', '2', None)]"]
    assert proc.stderr == ""
