"""When the JVM dies, calls raise one TableException saying so, not a bare ConnectionRefusedError;
TableEnvironment.create() then starts a new engine, and the old environment keeps raising."""

import subprocess
import sys
import textwrap
from typing import Any

CHILD = textwrap.dedent("""
    import os, signal, time
    from pyflink_table import DataTypes, EnvironmentSettings, TableEnvironment
    from pyflink_table.errors import TableException
    from pyflink_table.expressions import col
    from pyflink_table.udf import udf
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    assert [tuple(r) for r in t_env.sql_query("SELECT 1").execute().collect()] == [(1,)]
    old_table = t_env.from_elements([(7,)], ['a'])
    jvm = t_env.get_spark_session().sparkContext._gateway.proc
    os.kill(jvm.pid, signal.SIGKILL)
    jvm.wait()

    def report(call):
        try:
            call()
            print("NO ERROR", flush=True)
        except TableException as e:
            print("TABLE_EXCEPTION", str(e).splitlines()[0], flush=True)
        except BaseException as e:
            print("OTHER", type(e).__name__, e, flush=True)

    for call in (lambda: t_env.sql_query("SELECT 1"), lambda: t_env.list_tables()):
        report(call)
    new_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    plus_one = udf(lambda x: x + 1, result_type=DataTypes.BIGINT())
    rows = new_env.from_elements([(1,), (2,)], ['a']).select(plus_one(col('a'))).execute().collect()
    print("NEW_ENGINE", sorted(tuple(r) for r in rows), flush=True)
    print("NEW_PID_DIFFERS", new_env.get_spark_session().sparkContext._gateway.proc.pid != jvm.pid, flush=True)
    # The old environment and its tables stay dead: their handles never reach the new JVM.
    for call in (lambda: t_env.sql_query("SELECT 1"), lambda: t_env.list_tables(),
                 lambda: old_table.select('a'), lambda: new_env.create_temporary_view('v', old_table)):
        report(call)
""")


def test_dead_engine_is_one_table_exception_and_create_starts_a_new_one(tmp_path: Any) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr[-3000:]
    lines = [line for line in p.stdout.splitlines() if line.startswith(("TABLE_EXCEPTION", "OTHER", "NO ERROR"))]
    assert len(lines) == 6, p.stdout
    for line in lines:
        assert line.startswith("TABLE_EXCEPTION The Spark engine (the JVM) of this process has stopped"), line
    assert "NEW_ENGINE [(2,), (3,)]" in p.stdout, p.stdout + p.stderr[-3000:]
    assert "NEW_PID_DIFFERS True" in p.stdout, p.stdout
