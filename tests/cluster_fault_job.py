"""An INSERT into a filesystem sink during which one executor process dies, run by test_cluster.py.

``python cluster_fault_job.py SINK_DIR MARKER_DIR MASTER PYTHON KILL`` where KILL is ``python`` (the
Python worker evaluating a UDF kills itself) or ``jvm`` (it kills the executor JVM it runs under).
It happens once, on the row with id 77 (a marker file records it); Spark's task retry must finish
the job with every row written exactly once.
"""

import os
import signal
import sys
from pathlib import Path

from pyflink_table import Configuration, DataTypes, EnvironmentSettings, TableEnvironment
from pyflink_table.expressions import col
from pyflink_table.udf import udf

sink_dir, marker_dir, master, python, kill = sys.argv[1:6]
config = Configuration()
config.set_string("spark.master", master)
config.set_string("python.executable", python)
t_env = TableEnvironment.create(EnvironmentSettings.new_instance().in_batch_mode().with_configuration(config).build())


def _parent_of(pid: int) -> int:
    # /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so split after ')'.
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


@udf(result_type=DataTypes.BIGINT())
def doubled(i):
    marker = Path(marker_dir) / f"killed-{kill}"
    if i == 77 and not marker.exists():
        marker.write_text(str(os.getpid()))
        if kill == "python":
            os.kill(os.getpid(), signal.SIGKILL)
        # Python worker -> pyspark.daemon -> executor JVM.
        jvm = _parent_of(os.getppid())
        if "CoarseGrainedExecutorBackend" not in Path(f"/proc/{jvm}/cmdline").read_bytes().decode(errors="replace"):
            raise RuntimeError(f"process {jvm} is not the executor JVM")
        os.kill(jvm, signal.SIGKILL)
    return i * 2


t_env.execute_sql(f"""
    CREATE TABLE sink (id BIGINT, doubled BIGINT)
    WITH ('connector' = 'filesystem', 'path' = '{sink_dir}', 'format' = 'csv')""")
source = t_env.from_elements([(i,) for i in range(400)], ["id"])
source.select(col("id"), doubled(col("id"))).execute_insert("sink").wait()
print("committed")
