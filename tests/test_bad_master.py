"""A spark.master that is no Spark master URL gives one TableException naming the option and the
forms that exist, before any JVM starts (not PySpark's JAVA_GATEWAY_EXITED and the launcher's usage
text on stderr)."""

import subprocess
import sys
import textwrap
from typing import Any

import pytest

CHILD = textwrap.dedent("""
    import sys
    from pyflink_table import EnvironmentSettings, TableEnvironment
    from pyflink_table.configuration import Configuration
    from pyflink_table.errors import TableException
    conf = Configuration()
    conf.set_string("spark.master", sys.argv[1])
    try:
        TableEnvironment.create(EnvironmentSettings.new_instance().in_batch_mode().with_configuration(conf).build())
        print("NO ERROR")
    except TableException as e:
        print("TABLE_EXCEPTION " + str(e))
""")


@pytest.mark.parametrize("master", ["nonsense", "local[abc]", "local[2", "spark:/host:7077", "yarn-cluster"])
def test_bad_master_is_one_table_exception(tmp_path: Any, master: str) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    p = subprocess.run([sys.executable, str(script), master], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    assert p.stdout.splitlines() == [
        f"TABLE_EXCEPTION Invalid value '{master}' for option spark.master; use local, local[N], local[*], "
        "local[N,F], local-cluster[N,C,M], spark://HOST:PORT, yarn or k8s://HOST:PORT."], p.stdout + p.stderr
    assert p.stderr == ""
