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


def test_ctrl_c_cancels_the_insert_and_keeps_the_sink(tmp_path: Any) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    for delay in ("3", "6"):
        out = tmp_path / f"out{delay}"
        p = subprocess.run([sys.executable, str(script), str(out), delay], capture_output=True, text=True,
                           timeout=900)
        assert p.returncode == 0, p.stderr[-3000:]
        assert "INTERRUPTED" in p.stdout, p.stdout
        rows = [json.loads(line[5:]) for line in p.stdout.splitlines() if line.startswith("ROWS ")]
        assert rows == [[1, 2]], (p.stdout, p.stderr[-3000:])
        # The interrupt reaches the program once, as its KeyboardInterrupt; py4j's logged copy is silenced.
        assert "KeyboardInterrupt while sending command" not in p.stderr, p.stderr[-3000:]
        assert "Traceback" not in p.stderr, p.stderr[-3000:]
