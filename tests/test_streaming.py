"""Streaming mode beyond what the differential tests compare: the print sink's changelog lines
(PyFlink prints them from its task manager, measured there) and streaming jobs."""

from __future__ import annotations

from typing import Iterator

import pytest

from pyflink_table import EnvironmentSettings, TableEnvironment
from pyflink_table.expressions import col


@pytest.fixture()
def s_env(_spark_started: None) -> Iterator[TableEnvironment]:
    """A streaming environment at parallelism 1."""
    env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    env.get_config().set("parallelism.default", "1")
    yield env


def test_print_sink_writes_changes_with_their_kind(s_env: TableEnvironment, capsys: pytest.CaptureFixture[str]) -> None:
    # Measured on PyFlink 2.3 streaming (task manager output): +I[a, 1] +I[b, 1] -U[a, 1] +U[a, 2].
    src = s_env.from_elements([(1, "a"), (2, "b"), (3, "a")], ["v", "k"])
    s_env.execute_sql("CREATE TABLE pr (k STRING, c BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'x')")
    src.group_by(col("k")).select(col("k"), col("v").count).execute_insert("pr").wait()
    assert capsys.readouterr().out.splitlines() == ["x> +I[a, 1]", "x> +I[b, 1]", "x> -U[a, 1]", "x> +U[a, 2]"]
