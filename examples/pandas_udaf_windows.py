"""Pandas aggregate functions (FLIP-137) in group windows and over windows, next to built-ins.

Run it with ``python examples/pandas_udaf_windows.py`` or
``pyflink-table run examples/pandas_udaf_windows.py``.
"""

from __future__ import annotations

import datetime

import pandas as pd

from pyflink_table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink_table.expressions import col, lit
from pyflink_table.udf import udaf
from pyflink_table.window import Slide, Tumble


@udaf(result_type=DataTypes.DOUBLE(), func_type="pandas")
def mean_temp(temperature: pd.Series) -> float:
    """Mean of a group's temperatures, computed by pandas on the whole group at once."""
    return float(temperature.mean())


@udaf(result_type=DataTypes.DOUBLE(), func_type="pandas")
def spread(temperature: pd.Series) -> float:
    """Largest minus smallest temperature of the group."""
    return float(temperature.max() - temperature.min())


def main() -> None:
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.get_config().set("parallelism.default", "1")

    def at(minute: int) -> datetime.datetime:
        return datetime.datetime(2024, 1, 1, 10, minute)

    readings = t_env.from_elements(
        [("a", at(1), 20.0), ("a", at(4), 22.0), ("a", at(7), 27.0), ("a", at(12), 25.0),
         ("b", at(2), 10.0), ("b", at(11), 14.0), ("b", at(13), 12.0)],
        DataTypes.ROW([DataTypes.FIELD("sensor", DataTypes.STRING()),
                       DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)),
                       DataTypes.FIELD("temperature", DataTypes.DOUBLE())]))

    # Tumbling 10-minute windows, two pandas UDAFs. (PyFlink cannot mix pandas and built-in
    # aggregates in one batch window aggregation, so neither does this program.)
    readings.window(Tumble.over(lit(10).minutes).on(col("ts")).alias("w")) \
        .group_by(col("w"), col("sensor")) \
        .select(col("sensor"), col("w").start.alias("window_start"), col("w").end.alias("window_end"),
                mean_temp(col("temperature")).alias("mean"), spread(col("temperature")).alias("spread")) \
        .order_by(col("sensor"), col("window_start")).execute().print()

    # Sliding 10-minute windows every 5 minutes.
    readings.window(Slide.over(lit(10).minutes).every(lit(5).minutes).on(col("ts")).alias("w")) \
        .group_by(col("w"), col("sensor")) \
        .select(col("sensor"), col("w").start.alias("window_start"),
                mean_temp(col("temperature")).alias("mean")) \
        .order_by(col("sensor"), col("window_start")).execute().print()

    # A pandas UDAF over the current and previous reading of each sensor (SQL OVER).
    t_env.create_temporary_view("readings", readings)
    t_env.create_temporary_function("mean_temp", mean_temp)
    t_env.sql_query("""
        SELECT sensor, ts, temperature,
               mean_temp(temperature) OVER (PARTITION BY sensor ORDER BY ts
                                            ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS moving_mean
        FROM readings
    """).order_by(col("sensor"), col("ts")).execute().print()


if __name__ == "__main__":
    main()
