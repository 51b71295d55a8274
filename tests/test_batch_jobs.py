"""Batch inserts are submitted as Flink submits jobs (measured on PyFlink 2.3: execute_insert
returns while the job runs, status RUNNING; wait(timeout) raises on timeout and the job runs on;
a failing job raises at wait(); cancel() gives CANCELED and wait() then raises): here the insert
runs in the background, and nothing of a failed or cancelled job reaches the sink."""

from __future__ import annotations

import sys
import time
from typing import Any

import pytest

from pyflink_table import DataTypes
from pyflink_table.errors import PythonException, TableException, ValidationException
from pyflink_table.expressions import col
from pyflink_table.job_client import JobStatus
from pyflink_table.udf import udf
from pyspark import cloudpickle

from conftest import rows

cloudpickle.register_pickle_by_value(sys.modules[__name__])


@udf(result_type=DataTypes.BIGINT())
def slow(x):
    time.sleep(0.2)
    return x + 100


@udf(result_type=DataTypes.BIGINT())
def broken(x):
    return x // 0


def _sink(t_env: Any, tmp_path: Any, name: str) -> None:
    t_env.execute_sql(f"CREATE TABLE {name} (a BIGINT) WITH ('connector'='filesystem', "
                      f"'path'='{tmp_path}/{name}', 'format'='csv')")
    t_env.execute_sql(f"INSERT INTO {name} VALUES (1), (2)").wait()


def _source(t_env: Any, n: int = 40) -> Any:
    return t_env.from_elements([(i,) for i in range(n)], DataTypes.ROW([DataTypes.FIELD("x", DataTypes.BIGINT())]))


def test_insert_returns_at_once_and_wait_times_out(t_env: Any, tmp_path: Any) -> None:
    _sink(t_env, tmp_path, "s_wait")
    result = _source(t_env).select(slow(col("x"))).execute_insert("s_wait")
    client = result.get_job_client()
    assert client.get_job_status().result() == JobStatus.RUNNING
    with pytest.raises(TimeoutError, match="did not finish within 300 ms"):
        result.wait(300)
    assert client.get_job_status().result() == JobStatus.RUNNING  # a timeout does not stop the job
    result.wait()
    assert client.get_job_status().result() == JobStatus.FINISHED
    assert sorted(r[0] for r in rows(t_env.from_path("s_wait"))) == [1, 2] + list(range(100, 140))
    assert [tuple(r) for r in result.collect()] == [(-1,)]


def test_failure_surfaces_at_wait_and_the_sink_is_untouched(t_env: Any, tmp_path: Any) -> None:
    _sink(t_env, tmp_path, "s_fail")
    result = _source(t_env).select(broken(col("x"))).execute_insert("s_fail", overwrite=True)
    with pytest.raises(PythonException, match="broken"):
        result.wait()
    assert result.get_job_client().get_job_status().result() == JobStatus.FAILED
    with pytest.raises(PythonException, match="broken"):  # PyFlink's collect() waits for the job too
        result.collect()
    assert sorted(r[0] for r in rows(t_env.from_path("s_fail"))) == [1, 2]
    # Validation still happens when the insert is submitted.
    with pytest.raises(ValidationException, match="nope"):
        _source(t_env).execute_insert("nope")


def test_cancel_stops_the_job_and_keeps_the_sink(t_env: Any, tmp_path: Any) -> None:
    _sink(t_env, tmp_path, "s_cancel")
    result = _source(t_env).select(slow(col("x"))).execute_insert("s_cancel", overwrite=True)
    client = result.get_job_client()
    time.sleep(1)
    client.cancel().result()
    assert client.get_job_status().result() == JobStatus.CANCELED
    with pytest.raises(TableException, match="was cancelled"):
        result.wait()
    assert sorted(r[0] for r in rows(t_env.from_path("s_cancel"))) == [1, 2]
    # The environment stays usable.
    t_env.execute_sql("INSERT INTO s_cancel VALUES (3)").wait()
    assert sorted(r[0] for r in rows(t_env.from_path("s_cancel"))) == [1, 2, 3]


def test_inserts_run_in_submission_order(t_env: Any, tmp_path: Any) -> None:
    _sink(t_env, tmp_path, "s_order")
    first = _source(t_env, 10).select(slow(col("x"))).execute_insert("s_order", overwrite=True)
    statements = t_env.create_statement_set()
    statements.add_insert("s_order", _source(t_env, 2))
    second = statements.execute()
    second.wait()
    assert first.get_job_client().get_job_status().result() == JobStatus.FINISHED
    # A synchronous SQL insert waits for the submitted ones too.
    t_env.execute_sql("INSERT INTO s_order VALUES (7)")
    assert sorted(r[0] for r in rows(t_env.from_path("s_order"))) == [0, 1, 7] + list(range(100, 110))
