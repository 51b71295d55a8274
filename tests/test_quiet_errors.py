"""Errors we translate reach the user as one exception, without Java stack traces on stderr."""

import subprocess
import sys
import textwrap
from typing import Any

CHILD = textwrap.dedent("""
    import sys
    from pyflink_table import EnvironmentSettings, TableEnvironment
    from pyflink_table.errors import JavaException
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    out = sys.argv[1]
    t_env.execute_sql(f"CREATE TABLE sink (a INT) WITH ('connector'='filesystem', 'path'='{out}', 'format'='csv')")
    t_env.create_temporary_view("strings", t_env.from_elements([("7",), ("x",)], ["s"]))
    for verb in ("INTO", "OVERWRITE"):
        try:
            t_env.execute_sql(f"INSERT {verb} sink SELECT CAST(s AS INT) FROM strings").wait()
        except JavaException as e:
            print("RAISED", type(e).__name__, flush=True)
""")


def test_failed_insert_prints_no_java_frames(tmp_path: Any) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    p = subprocess.run([sys.executable, str(script), str(tmp_path / "out")], capture_output=True, text=True,
                       timeout=900)
    assert p.returncode == 0, p.stderr[-3000:]
    assert p.stdout.count("RAISED") == 2, p.stdout
    frames = [line for line in p.stderr.splitlines() if line.lstrip().startswith("at ")]
    assert frames == [], p.stderr[:3000]


TO_PANDAS_CHILD = textwrap.dedent("""
    from pyflink_table import DataTypes, EnvironmentSettings, TableEnvironment
    from pyflink_table.errors import PythonException
    from pyflink_table.expressions import col
    from pyflink_table.udf import udf

    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())

    @udf(result_type=DataTypes.BIGINT())
    def boom(v):
        if v == 2:
            raise ValueError("user boom")
        return v

    try:
        t_env.from_elements([(1,), (2,)], ["v"]).select(boom(col("v"))).to_pandas()
    except PythonException as e:
        print("RAISED", "ValueError: user boom" in str(e), flush=True)
""")


def test_failed_to_pandas_shows_only_the_raised_error(tmp_path: Any) -> None:
    # PySpark's toPandas warned on stderr with the worker's whole trace before raising it.
    script = tmp_path / "child.py"
    script.write_text(TO_PANDAS_CHILD)
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr[-3000:]
    assert p.stdout == "RAISED True\n"
    assert p.stderr == ""


STREAM_UDF_CHILD = textwrap.dedent("""
    import os, tempfile
    from pyflink_table import DataTypes, EnvironmentSettings, TableEnvironment
    from pyflink_table.errors import PythonException
    from pyflink_table.expressions import col
    from pyflink_table.udf import udf

    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    d = tempfile.mkdtemp()
    with open(os.path.join(d, "f1.csv"), "w") as f:
        f.write("a,2\\n")
    t_env.execute_sql("CREATE TABLE ev (k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '" + d
                      + "', 'format' = 'csv', 'source.monitor-interval' = '100ms')")

    @udf(result_type=DataTypes.INT())
    def boom(v):
        raise ValueError("user boom")

    try:
        list(t_env.from_path("ev").select(boom(col("v"))).execute().collect())
    except PythonException as e:
        print(str(e).strip().splitlines()[0], "|", str(e).strip().splitlines()[-1], flush=True)
""")


def test_python_function_failing_in_a_stream_job_raises_the_users_traceback(tmp_path: Any) -> None:
    # It raised TableException("The streaming job failed: An exception was raised by the Python Proxy...").
    script = tmp_path / "child.py"
    script.write_text(STREAM_UDF_CHILD)
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr[-3000:]
    assert p.stdout == "Python function 'boom' failed: | ValueError: user boom\n", p.stdout
