"""pyflink_table on a real Spark standalone cluster whose workers never had pyflink_table installed.

Every launch path reaches the cluster (``pyflink-table run --master``, ``spark.master`` in the
program, ``spark-submit --master``), each choosing the executors' interpreter its own way
(``PYSPARK_PYTHON``, ``python.executable``, ``spark.pyspark.python``); every Python function kind runs
there, with a helper module shipped by ``add_python_file``. Expected values are computed by hand
from the five input rows of ``cluster_job.py``. The last tests kill an executor's Python worker and
an executor JVM during an INSERT and check that task retry commits every row exactly once.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest

import pyflink_table
from loopback_cluster import LoopbackCluster, spark_home

TESTS = Path(__file__).resolve().parent
CLI = str(Path(sys.executable).with_name("pyflink-table"))

# By hand: ids 1..5, words "a b", "b", "a", "b c", "a", v = 1.0..5.0, k = id % 2.
EXPECTED: Dict[str, List[List[Any]]] = {
    "udf": [[i, i + 100] for i in range(1, 6)],
    "pandas_udf": [[i, i / 2] for i in range(1, 6)],
    "udtf": [[1, "a"], [1, "b"], [2, "b"], [3, "a"], [4, "b"], [4, "c"], [5, "a"]],
    "pandas_udaf": [[0, 3.0], [1, 3.0]],
    "general_udaf": [[0, 6.0], [1, 9.0]],
    "flat_aggregate": [[0, 2.0], [0, 4.0], [1, 3.0], [1, 5.0]],
}


def _env() -> Dict[str, str]:
    env = dict(os.environ)
    # The driver imports the package the tests import (installed wheel, or the checkout).
    env["PYTHONPATH"] = str(Path(pyflink_table.__file__).resolve().parent.parent)
    env.pop("PYSPARK_PYTHON", None)
    env["SPARK_LOCAL_IP"] = "127.0.0.1"
    return env


@pytest.fixture()
def helper_dir(tmp_path: Path) -> Path:
    (tmp_path / "cluster_helper.py").write_text("def shift(x):\n    return x + 100\n")
    return tmp_path


def _run(command: List[str], env: Dict[str, str]) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]


def _check(out: Path, cluster: LoopbackCluster) -> None:
    results = json.loads(out.read_text())
    assert results["master"] == cluster.url
    for kind, expected in EXPECTED.items():
        assert results[kind] == sorted(expected, key=str), kind
    # Every Python worker ran the cluster's interpreter and imported the package from the shipped zip.
    for (where,) in results["where"]:
        executable, package = where.split("|")
        assert executable == cluster.python
        assert ".zip" in package and not package.startswith(str(Path(pyflink_table.__file__).parent)), package


def test_run_command_with_master(spark_cluster: LoopbackCluster, helper_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    env = _env()
    env["PYSPARK_PYTHON"] = spark_cluster.python
    _run([CLI, "run", "--master", spark_cluster.url, str(TESTS / "cluster_job.py"), str(out), str(helper_dir)], env)
    _check(out, spark_cluster)


def test_spark_master_in_the_program(spark_cluster: LoopbackCluster, helper_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    _run([sys.executable, str(TESTS / "cluster_job.py"), str(out), str(helper_dir), spark_cluster.url,
          spark_cluster.python], _env())
    _check(out, spark_cluster)
    # What a UDF logs lands in its executor's log (FLIP-58's logging on a cluster), with its name.
    logged = [line for line in spark_cluster.executor_logs().splitlines() if "CLUSTER-LOG-MARKER" in line]
    assert {int(line.rsplit(" ", 1)[1]) for line in logged} == {1, 2, 3, 4, 5}
    assert all("[where," in line and " INFO " in line for line in logged), logged[:3]


@pytest.mark.parametrize("with_jars", [True, False])
def test_spark_submit(spark_cluster: LoopbackCluster, helper_dir: Path, tmp_path: Path, with_jars: bool) -> None:
    out = tmp_path / "out.json"
    jars: List[str] = []
    if with_jars:
        # As documented: spark-submit --jars $(pyflink-table jar) ...
        jar = subprocess.run([CLI, "jar"], env=_env(), capture_output=True, text=True, check=True).stdout.strip()
        assert jar.endswith("pyflink-table-bridge.jar") and Path(jar).is_file()
        jars = ["--jars", jar]
    # Without --jars the session adds the bridge jar to the driver and the executors itself.
    _run([str(spark_home() / "bin" / "spark-submit"), "--master", spark_cluster.url, *jars,
          "--conf", f"spark.pyspark.python={spark_cluster.python}",
          "--conf", f"spark.pyspark.driver.python={sys.executable}",
          str(TESTS / "cluster_job.py"), str(out), str(helper_dir)], _env())
    _check(out, spark_cluster)


def test_missing_executor_interpreter_is_named(spark_cluster: LoopbackCluster, tmp_path: Path) -> None:
    program = tmp_path / "job.py"
    program.write_text(
        "from pyflink_table import *\nfrom pyflink_table.udf import udf\nfrom pyflink_table.expressions import col\n"
        "c = Configuration()\n"
        f"c.set_string('spark.master', {spark_cluster.url!r})\n"
        "c.set_string('python.executable', '/nonexistent/bin/python3')\n"
        "t_env = TableEnvironment.create(EnvironmentSettings.new_instance().with_configuration(c).build())\n"
        "f = udf(lambda x: x + 1, result_type=DataTypes.BIGINT())\n"
        "try:\n"
        "    t_env.from_elements([(1,)], ['a']).select(f(col('a'))).execute().collect()\n"
        "except TableException as e:\n"
        "    print('ERROR', e)\n")
    done = subprocess.run([sys.executable, str(program)], env=_env(), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    line = next(line for line in done.stdout.splitlines() if line.startswith("ERROR"))
    assert "/nonexistent/bin/python3" in line and "python.executable" in line
    assert "\tat " not in done.stdout + done.stderr


@pytest.mark.parametrize("kill", ["python", "jvm"])
def test_insert_survives_a_dying_executor_process(spark_cluster: LoopbackCluster, tmp_path: Path, kill: str) -> None:
    sink, markers = tmp_path / "sink", tmp_path / "markers"
    markers.mkdir()
    _run([sys.executable, str(TESTS / "cluster_fault_job.py"), str(sink), str(markers), spark_cluster.url,
          spark_cluster.python, kill], _env())
    assert (markers / f"killed-{kill}").exists(), "the fault was never injected"
    found = sorted(p for p in sink.rglob("*") if p.is_file())
    files = [p for p in found if not p.name.startswith((".", "_"))]
    # Nothing but the committed data files and Hadoop's checksum beside each (no staging, no partial file).
    assert files and sorted(set(found) - set(files)) == sorted(p.with_name(f".{p.name}.crc") for p in files), found
    lines = [line for p in files for line in p.read_text().splitlines()]
    assert sorted(lines) == sorted(f"{i},{2 * i}" for i in range(400))
