"""Pandas aggregate functions (FLIP-137) in group, group-window and over-window aggregation: the
same programs under PyFlink 2.3 batch mode and here.

Expected values are PyFlink 2.3's own results (run by the harness in a PyFlink subprocess). PyFlink
2.3 refuses general (non-pandas) aggregate functions and table aggregates in batch, so those are
covered by ``tests/test_udaf*.py`` against pandas and hand computation instead.
"""

import pytest

from harness import Comparison

SRC = """
from pyflink.table.udf import udaf
from pyflink.table.window import Tumble, Slide
T = datetime.datetime
src = t_env.from_elements([
    ('a', 1, 1.5, T(2024, 1, 1, 10, 0, 0)), ('a', 2, 2.5, T(2024, 1, 1, 10, 4, 0)),
    ('b', 3, None, T(2024, 1, 1, 10, 6, 0)), ('a', 4, 4.0, T(2024, 1, 1, 10, 12, 0)),
    ('b', 5, 5.5, T(2024, 1, 1, 10, 13, 0)), (None, 6, 6.0, T(2024, 1, 1, 10, 29, 0)),
    ('b', 7, 7.0, T(2024, 1, 1, 11, 0, 0))],
    DataTypes.ROW([DataTypes.FIELD('k', DataTypes.STRING()), DataTypes.FIELD('i', DataTypes.BIGINT()),
                   DataTypes.FIELD('d', DataTypes.DOUBLE()), DataTypes.FIELD('ts', DataTypes.TIMESTAMP(3))]))
mean = udaf(lambda v: v.mean(), result_type=DataTypes.DOUBLE(), func_type='pandas')
@udaf(result_type=DataTypes.BIGINT(), func_type='pandas')
def total(v):
    return int(v.sum())
"""

programs = {
    "group_by_two_udafs": SRC + (
        "result = src.group_by(col('k')).select(col('k'), mean(col('d')).alias('m'), total(col('i')).alias('t'))"),
    "group_by_expression_on_result": SRC + (
        "result = src.group_by(col('k')).select(col('k'), (total(col('i')) * 10).alias('t10'))"),
    "global": SRC + "result = src.select(mean(col('d')).alias('m'), total(col('i')).alias('t'))",
    "global_empty": SRC + "result = src.filter(col('i') > 100).select(total(col('i')).alias('t'))",
    "row_based_aggregate": SRC + (
        "result = src.group_by(col('k')).aggregate(total(col('i')).alias('t')).select(col('k'), col('t'))"),
    "tumble": SRC + (
        "result = src.window(Tumble.over(lit(10).minutes).on(col('ts')).alias('w')).group_by(col('w'), col('k'))"
        ".select(col('k'), col('w').start, col('w').end, col('w').rowtime, mean(col('d')).alias('m'))"),
    "slide": SRC + (
        "result = src.window(Slide.over(lit(20).minutes).every(lit(10).minutes).on(col('ts')).alias('w'))"
        ".group_by(col('w')).select(col('w').start, col('w').end, total(col('i')).alias('t'))"),
    "over_sql_rows": SRC + (
        "t_env.create_temporary_view('src', src)\n"
        "t_env.create_temporary_function('total', total)\n"
        "result = t_env.sql_query('SELECT k, i, total(i) OVER (PARTITION BY k ORDER BY ts "
        "ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS t FROM src')"),
    "over_sql_range_unbounded": SRC + (
        "t_env.create_temporary_view('src', src)\n"
        "t_env.create_temporary_function('mean', mean)\n"
        "result = t_env.sql_query('SELECT k, i, mean(d) OVER (PARTITION BY k ORDER BY ts "
        "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS m FROM src')"),
    "over_sql_range_interval": SRC + (
        "t_env.create_temporary_view('src', src)\n"
        "t_env.create_temporary_function('total', total)\n"
        "result = t_env.sql_query('SELECT k, i, total(i) OVER (PARTITION BY k ORDER BY ts "
        "RANGE BETWEEN INTERVAL \\'10\\' MINUTE PRECEDING AND CURRENT ROW) AS t FROM src')"),
}


@pytest.mark.parametrize("name", sorted(programs))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same(name)
