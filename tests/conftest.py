"""One Spark session for the whole run (it is started once per process); a fresh environment per test."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Iterator

import pytest

from pyflink_table import EnvironmentSettings, TableEnvironment

# The test run's Spark driver JVM compiles with C1 alone (a SPARK_SUBMIT_OPTS of the caller's own
# wins): the suite's jobs are many short ones over a few rows, for which C2's compilations cost more
# CPU than they save. Measured on 4 streaming programs of test_diff_streaming_over_unbounded (Spark's
# start included), interleaved on the shared 2-core machine: 14.2 s of CPU against 22.3 s and 29.8 s
# with the default tiers. Only the JIT changes: no result depends on it.
os.environ.setdefault("SPARK_SUBMIT_OPTS", "-XX:TieredStopAtLevel=1")

if TYPE_CHECKING:
    from loopback_cluster import LoopbackCluster

# the conformance runner's shim (tests/conformance/pyflink_testing) is run by test_conformance.py
collect_ignore = ["conformance"]


@pytest.fixture(scope="session")
def _spark_started() -> None:
    # The first environment starts embedded Spark; later ones reuse its SparkContext.
    TableEnvironment.create(EnvironmentSettings.in_batch_mode())


@pytest.fixture()
def t_env(_spark_started: None) -> Iterator[TableEnvironment]:
    """A new batch TableEnvironment: own temporary views, functions and settings."""
    env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    yield env


def rows(table: object) -> list:
    """All rows of a table as plain tuples (order as produced)."""
    return [tuple(r) for r in table.execute().collect()]  # type: ignore[attr-defined]


def sorted_rows(table: object) -> list:
    """All rows of a table as tuples, sorted with NULLs first, for order-free comparison."""
    return sorted(rows(table), key=lambda r: tuple((v is not None, v) for v in r))


@pytest.fixture(scope="session")
def spark_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator["LoopbackCluster"]:
    """One loopback Spark standalone cluster (a master, two workers) for all cluster tests of the run."""
    from loopback_cluster import LoopbackCluster

    cluster = LoopbackCluster(tmp_path_factory.mktemp("spark-cluster")).start()
    try:
        yield cluster
    finally:
        cluster.stop()
