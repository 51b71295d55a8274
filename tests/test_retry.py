"""Failed tasks are retried: a Python worker killed mid-task does not fail the job or duplicate rows."""

import os
import signal
from typing import Any

from conftest import sorted_rows
from pyflink_table import DataTypes
from pyflink_table.expressions import col
from pyflink_table.udf import udf


def test_killed_python_worker_is_retried(t_env: Any, tmp_path: Any) -> None:
    marker = str(tmp_path / "killed-once")

    @udf(result_type=DataTypes.BIGINT())
    def die_once(x: int) -> int:
        # The first worker to get here kills itself (as the OOM killer would); its retry succeeds.
        if x == 37 and not os.path.exists(marker):
            open(marker, "w").close()
            os.kill(os.getpid(), signal.SIGKILL)
        return x * 2

    t = t_env.from_elements([(i,) for i in range(100)], ["x"])
    result = sorted_rows(t.select(col("x"), die_once(col("x")).alias("y")))
    assert os.path.exists(marker)  # the worker was killed
    assert result == [(i, 2 * i) for i in range(100)]  # complete, no row twice
