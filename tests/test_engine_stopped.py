"""When the JVM dies, calls raise one TableException saying so, not a bare ConnectionRefusedError."""

import subprocess
import sys
import textwrap
from typing import Any

CHILD = textwrap.dedent("""
    import os, signal, time
    from pyflink_table import EnvironmentSettings, TableEnvironment
    from pyflink_table.errors import TableException
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    assert [tuple(r) for r in t_env.sql_query("SELECT 1").execute().collect()] == [(1,)]
    jvm = t_env.get_spark_session().sparkContext._gateway.proc
    os.kill(jvm.pid, signal.SIGKILL)
    jvm.wait()
    for call in (lambda: t_env.sql_query("SELECT 1"), lambda: t_env.list_tables()):
        try:
            call()
            print("NO ERROR")
        except TableException as e:
            print("TABLE_EXCEPTION", str(e).splitlines()[0], flush=True)
        except BaseException as e:
            print("OTHER", type(e).__name__, flush=True)
""")


def test_dead_engine_is_one_table_exception(tmp_path: Any) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr[-3000:]
    lines = [line for line in p.stdout.splitlines() if line.startswith(("TABLE_EXCEPTION", "OTHER", "NO ERROR"))]
    assert len(lines) == 2, p.stdout
    for line in lines:
        assert line.startswith("TABLE_EXCEPTION The Spark engine (the JVM) of this process has stopped"), line
