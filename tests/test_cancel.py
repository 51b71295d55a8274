"""Ctrl-C during an insert cancels it: the sink keeps its old data and the environment stays usable."""

import json
import subprocess
import sys
import textwrap
from typing import Any

CHILD = textwrap.dedent("""
    import json, os, signal, sys, threading, time
    from pyflink_table import DataTypes, EnvironmentSettings, TableEnvironment
    from pyflink_table.udf import udf

    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.execute_sql(f"CREATE TABLE sink (a INT) WITH ('connector'='filesystem', 'path'='{sys.argv[1]}', "
                      "'format'='csv')")
    t_env.execute_sql("INSERT INTO sink VALUES (1), (2)").wait()

    @udf(result_type=DataTypes.INT())
    def slow(x):
        time.sleep(0.2)
        return x + 100

    t_env.create_temporary_function("slow", slow)
    values = ", ".join(f"({i})" for i in range(100))
    # Ctrl-C as a terminal sends it: SIGINT to the process, while the insert runs (about 10 s).
    threading.Timer(float(sys.argv[2]), lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    try:
        t_env.execute_sql(f"INSERT OVERWRITE sink SELECT slow(x) FROM (VALUES {values}) AS v(x)").wait()
        print("FINISHED", flush=True)
    except KeyboardInterrupt:
        print("INTERRUPTED", flush=True)
    time.sleep(25)  # a job that kept running would have replaced the sink by now
    print("ROWS " + json.dumps(sorted(r[0] for r in t_env.from_path("sink").execute().collect())), flush=True)
""")


def _run_at_once(*argvs: list[str]) -> list[subprocess.CompletedProcess[str]]:
    """Each child program run to its end, all at the same time: they spend most of their time asleep."""
    children = [subprocess.Popen([sys.executable, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for argv in argvs]
    done = []
    for argv, child in zip(argvs, children):
        try:
            out, err = child.communicate(timeout=900)
        except subprocess.TimeoutExpired:
            for c in children:
                c.kill()
            raise
        done.append(subprocess.CompletedProcess(argv, child.returncode, out, err))
    return done


def test_ctrl_c_cancels_the_insert_and_keeps_the_sink(tmp_path: Any) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    delays = ("3", "6")
    for p in _run_at_once(*([str(script), str(tmp_path / f"out{delay}"), delay] for delay in delays)):
        assert p.returncode == 0, p.stderr[-3000:]
        assert "INTERRUPTED" in p.stdout, p.stdout
        rows = [json.loads(line[5:]) for line in p.stdout.splitlines() if line.startswith("ROWS ")]
        assert rows == [[1, 2]], (p.stdout, p.stderr[-3000:])
        # The interrupt reaches the program once, as its KeyboardInterrupt; py4j's logged copy is silenced.
        assert "KeyboardInterrupt while sending command" not in p.stderr, p.stderr[-3000:]
        assert "Traceback" not in p.stderr, p.stderr[-3000:]


READ_CHILD = textwrap.dedent("""
    import os, signal, sys, threading, time
    from pyflink_table import DataTypes, EnvironmentSettings, TableEnvironment
    from pyflink_table.expressions import col
    from pyflink_table.udf import udf

    calls = sys.argv[1]
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())

    @udf(result_type=DataTypes.INT())
    def slow(x):
        with open(calls, "a") as f:  # one line per call, so the test sees whether the job runs on
            f.write("x\\n")
        time.sleep(0.2)
        return x

    t = t_env.from_elements([(i,) for i in range(200)], ["x"]).select(slow(col("x")))
    threading.Timer(4.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    try:
        if sys.argv[2] == "collect":
            with t.execute().collect() as rows:
                list(rows)
        else:
            t.to_pandas()
        print("FINISHED", flush=True)
    except KeyboardInterrupt:
        print("INTERRUPTED", flush=True)
    # Spark kills a cancelled task's Python worker after spark.python.task.killTimeout (2 s) and its
    # monitor's poll; the calls already running end by then.
    time.sleep(8)
    before = sum(1 for _ in open(calls))
    time.sleep(8)
    after = sum(1 for _ in open(calls))
    print("CALLS", before, after, flush=True)
    print("NEXT", t_env.from_elements([(1,)], ["a"]).execute().collect().__next__()[0], flush=True)
""")


def test_ctrl_c_cancels_collect_and_to_pandas(tmp_path: Any) -> None:
    script = tmp_path / "read_child.py"
    script.write_text(READ_CHILD)
    hows = ("collect", "to_pandas")
    for how in hows:
        (tmp_path / f"calls-{how}").write_text("")
    for p in _run_at_once(*([str(script), str(tmp_path / f"calls-{how}"), how] for how in hows)):
        assert p.returncode == 0, p.stderr[-3000:]
        assert "INTERRUPTED" in p.stdout, p.stdout
        before, after = next(line.split()[1:] for line in p.stdout.splitlines() if line.startswith("CALLS "))
        # 200 calls of 0.2 s on 2 cores take 20 s or more: a job that ran on would have added calls
        assert int(before) < 200 and before == after, p.stdout
        assert "NEXT 1" in p.stdout, p.stdout
        assert "Traceback" not in p.stderr, p.stderr[-3000:]


def test_py4j_interrupt_noise_is_dropped_on_py4j_loggers(tmp_path: Any) -> None:
    # After Ctrl-C py4j may log a broken pipe on its own logger while closing the interrupted connection;
    # that record propagates to the root logger's handlers, which the root logger's filters never see.
    script = tmp_path / "log_child.py"
    script.write_text(textwrap.dedent("""
        import logging
        from pyflink_table import table_environment
        logging.basicConfig()
        table_environment._install_interrupt_handler()
        try:
            raise BrokenPipeError(32, "Broken pipe")
        except BrokenPipeError:
            logging.getLogger("py4j.clientserver").exception("Exception occurred while shutting down connection")
        logging.getLogger("py4j.clientserver").error("another py4j error stays visible")
    """))
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr and "shutting down" not in p.stderr, p.stderr
    assert "another py4j error stays visible" in p.stderr, p.stderr
