"""NaN comparisons and GREATEST/LEAST with NULL: the same programs under PyFlink 2.3 and here
(expected values are PyFlink's own results)."""

import pytest

from harness import Comparison, differential  # noqa: F401 - the fixture

VIEWS = """
nan = float('nan')
t = t_env.from_elements([(nan, 1.0), (2.0, 2.0), (nan, nan), (None, 1.0)], ['a', 'b'])
u = t_env.from_elements([(nan, 'x'), (2.0, 'y'), (None, 'z')], ['k', 's'])
t_env.create_temporary_view('t', t)
t_env.create_temporary_view('u', u)
"""

programs = {
    "table_api_comparisons": VIEWS + (
        "result = t.select(col('a') > 100, col('a') < col('b'), col('a') == col('b'), col('a') != col('b'), "
        "col('a') >= col('b'), col('a').between(0, 10), col('a').in_(2.0, 3.0))"),
    "table_api_where_join": VIEWS + (
        "result = t.where(col('a') <= col('b') + 1).join(u).where(col('a') == col('k')).select(col('a'), col('s'))"),
    "sql_comparisons": VIEWS + (
        "result = t_env.sql_query('SELECT a > b AS c1, a = b AS c2, a <> b AS c3, a <= 100 AS c4, "
        "a IS NOT DISTINCT FROM b AS c5, CAST(a AS FLOAT) < CAST(b AS FLOAT) AS c6 FROM t')"),
    "sql_where_case_group": VIEWS + (
        "result = t_env.sql_query('SELECT CASE WHEN a < 5 THEN 1 ELSE 2 END AS c, COUNT(*) AS n "
        "FROM t WHERE a <> 0 OR b > 1 GROUP BY CASE WHEN a < 5 THEN 1 ELSE 2 END')"),
    "sql_greatest_least": VIEWS + (
        "result = t_env.sql_query('SELECT GREATEST(a, b) AS g, LEAST(b, a, 0.5) AS l FROM t')"),
    "sql_joins_sets": VIEWS + (
        "result = t_env.sql_query('SELECT a, s FROM t JOIN u ON a = k UNION ALL "
        "SELECT a, s FROM t JOIN u ON a > k UNION ALL "
        "SELECT a, CAST(NULL AS STRING) FROM t WHERE a IN (SELECT k FROM u) UNION ALL "
        "(SELECT a, \\'i\\' FROM t INTERSECT SELECT k, \\'i\\' FROM u)')"),
    "sql_group_order_nan": VIEWS + (
        "result = t_env.sql_query('SELECT a, COUNT(*) AS n FROM t GROUP BY a ORDER BY a')"),
}

ORDERED = {"sql_group_order_nan"}
# Spark types LEAST(b, a, 0.5) NOT NULL (nullable only when every argument is); Flink DOUBLE. The
# values agree: the NULL row is NULL in both.
TYPES_DIFFER = {"sql_greatest_least"}


@pytest.mark.parametrize("name", sorted(programs))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same(name, ordered=name in ORDERED, compare_types=name not in TYPES_DIFFER)
