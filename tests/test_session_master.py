"""One SparkContext per process: an environment cannot silently land on another master than it asked for."""

from __future__ import annotations

import pytest

from pyflink_table import Configuration, EnvironmentSettings, TableEnvironment, TableException


def test_another_master_than_the_running_one_raises(t_env: TableEnvironment) -> None:
    running = t_env._spark.sparkContext.master
    config = Configuration()
    config.set_string("spark.master", "spark://127.0.0.1:1")
    with pytest.raises(TableException) as raised:
        TableEnvironment.create(EnvironmentSettings.new_instance().with_configuration(config).build())
    message = str(raised.value)
    assert "spark://127.0.0.1:1" in message and f"'{running}'" in message
    assert "\n" not in message


def test_the_running_master_may_be_named_again(t_env: TableEnvironment) -> None:
    config = Configuration()
    config.set_string("spark.master", t_env._spark.sparkContext.master)
    again = TableEnvironment.create(EnvironmentSettings.new_instance().with_configuration(config).build())
    assert [tuple(r) for r in again.from_elements([(1,)], ["a"]).execute().collect()] == [(1,)]
