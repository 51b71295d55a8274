"""Expressions built before any TableEnvironment (as PyFlink allows: its first ``col`` starts the JVM).

Each case runs in a fresh process, since the point is what happens before the process's first
environment.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=900)


def test_an_expression_built_first_is_used_by_the_environment_created_later() -> None:
    p = _run("""
        from pyflink_table.expressions import col, lit
        e = (col('a') + 1).alias('b')
        print(str(e))
        print(str(lit('x').json_value('$.y')))
        from pyflink_table import EnvironmentSettings, TableEnvironment
        t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
        print(sorted(tuple(r) for r in t_env.from_elements([(1,), (2,)], ['a']).select(e).execute().collect()))
    """)
    assert p.returncode == 0, p.stderr
    # The strings are PyFlink 2.3's str() of the same expressions.
    assert p.stdout.splitlines() == ["as(plus(a, 1), 'b')", "JSON_VALUE('x', '$.y', STRING, NULL, null, NULL, null)",
                                     "[(2,), (3,)]"]


def test_a_launch_setting_the_started_jvm_cannot_take_is_refused() -> None:
    p = _run("""
        from pyflink_table.expressions import col
        e = col('a') + 1
        from pyflink_table import Configuration, EnvironmentSettings, TableEnvironment, TableException
        config = Configuration()
        config.set_string('spark.driver.memory', '3g')
        try:
            TableEnvironment.create(EnvironmentSettings.new_instance().with_configuration(config).build())
        except TableException as ex:
            print('refused:', ex)
        config = Configuration()
        config.set_string('spark.master', 'local[2]')  # not a launch setting: the session takes it
        t_env = TableEnvironment.create(EnvironmentSettings.new_instance().with_configuration(config).build())
        print(t_env.get_spark_session().sparkContext.master)
        print(sorted(tuple(r) for r in t_env.from_elements([(1,)], ['a']).select(e).execute().collect()))
    """)
    assert p.returncode == 0, p.stderr
    refused, master, rows = p.stdout.splitlines()
    assert master == "local[2]"
    assert refused.startswith("refused: spark.driver.memory=3g cannot take effect")
    assert "spark.driver.memory=2g" in refused
    assert rows == "[(2,)]"
