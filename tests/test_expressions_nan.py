"""NaN in FLOAT/DOUBLE comparisons and NULL in GREATEST/LEAST behave as in Flink.

Flink compares floating-point values as Java primitives: every ordering comparison and ``=`` with
a NaN operand is false (``<>`` true), NaN IS NOT DISTINCT FROM NaN is false; but equi-joins,
IN-subqueries and INTERSECT/EXCEPT still match NaN keys. GREATEST/LEAST are NULL when any argument
is NULL. Every expected value below was measured on PyFlink 2.3 (tests/reference/probe_nan.py).
"""

from __future__ import annotations

import math
from typing import Any, List, Tuple

import pytest

from conftest import rows
from pyflink_table import DataTypes, TableEnvironment
from pyflink_table.expressions import call, col, lit

NAN = float("nan")


def _plain(v: Any) -> Any:
    # NaN != NaN in Python, so compare a marker instead.
    return "NaN" if isinstance(v, float) and math.isnan(v) else v


def _norm(result: List[Tuple[Any, ...]]) -> List[Tuple[Any, ...]]:
    return [tuple(_plain(v) for v in r) for r in result]


def _bag(result: List[Tuple[Any, ...]]) -> List[Tuple[Any, ...]]:
    return sorted(_norm(result), key=repr)


@pytest.fixture()
def env(t_env: TableEnvironment) -> TableEnvironment:
    t_env.create_temporary_view(
        "t", t_env.from_elements([(NAN, 1.0), (2.0, 2.0), (NAN, NAN), (None, 1.0)], ["a", "b"]))
    t_env.create_temporary_view("u", t_env.from_elements([(NAN, "x"), (2.0, "y"), (None, "z")], ["k", "s"]))
    return t_env


def sql(env: TableEnvironment, query: str) -> List[Tuple[Any, ...]]:
    return _norm(rows(env.sql_query(query)))


F, T = False, True


def test_table_api_comparisons(env: TableEnvironment) -> None:
    a, b = col("a"), col("b")
    t = env.from_path("t")
    got = rows(t.select(a > 100, a < 100, a == b, a != b, a >= b, a.between(0, 1e308)))
    assert got == [(F, F, F, T, F, F), (F, T, T, F, T, T), (F, F, F, T, F, F), (None,) * 6]
    got = rows(t.select(a > b, a.in_(2.0, 3.0), a <= 100, a > 1))
    assert got == [(F, F, F, F), (F, T, T, T), (F, F, F, F), (None,) * 4]


def test_table_api_filter_and_join(env: TableEnvironment) -> None:
    t, u = env.from_path("t"), env.from_path("u")
    assert _bag(rows(t.where(col("a") != col("b")))) == _bag([(NAN, 1.0), (NAN, NAN)])
    # An equi-join matches NaN keys in Flink too.
    joined = t.join(u).where(col("a") == col("k")).select(col("a"), col("s"))
    assert _bag(rows(joined)) == _bag([(NAN, "x"), (NAN, "x"), (2.0, "y")])


def test_sql_comparisons(env: TableEnvironment) -> None:
    got = sql(env, "SELECT a > 100, a = b, a <> b, a < b, a <= b, a IS DISTINCT FROM b, "
                   "a IS NOT DISTINCT FROM b, NOT (a > b) FROM t")
    assert got == [(F, F, T, F, F, T, F, F), (F, T, F, F, T, F, T, T), (F, F, T, F, F, T, F, F),
                   (None, None, None, None, None, T, F, None)]
    got = sql(env, "SELECT CAST(a AS FLOAT) > CAST(1 AS FLOAT), CAST(a AS FLOAT) = CAST(b AS FLOAT) FROM t")
    assert got == [(F, F), (T, T), (F, F), (None, None)]
    got = sql(env, "SELECT a BETWEEN 0 AND 10, a NOT BETWEEN 0 AND 10 FROM t")
    assert got == [(F, F), (T, F), (F, F), (None, None)]
    got = sql(env, "SELECT a IN (CAST('NaN' AS DOUBLE), 2.0), a NOT IN (2.0, 3.0) FROM t")
    assert got == [(F, T), (T, F), (F, T), (None, None)]


def test_sql_comparisons_in_clauses(env: TableEnvironment) -> None:
    assert sql(env, "SELECT a, b FROM t WHERE a = b") == [(2.0, 2.0)]
    assert _bag(sql(env, "SELECT a, b FROM t WHERE a <> b")) == _bag([(NAN, 1.0), (NAN, NAN)])
    assert sql(env, "SELECT CASE WHEN a > 1 THEN 'big' ELSE 'small' END FROM t") == [
        ("small",), ("big",), ("small",), ("small",)]
    assert _bag(sql(env, "SELECT a > 1, COUNT(*) FROM t GROUP BY a > 1")) == _bag([(F, 2), (T, 1), (None, 1)])
    assert sql(env, "SELECT SUM(CASE WHEN a >= 0 THEN 1 ELSE 0 END), COUNT(*) FILTER (WHERE a < 5) FROM t") == [(1, 1)]
    got = sql(env, "SELECT a, b, a > 1 FROM (SELECT a, b, ROW_NUMBER() OVER (ORDER BY b) AS rn FROM t) WHERE rn < 10")
    assert _bag(got) == _bag([(NAN, 1.0, F), (None, 1.0, None), (2.0, 2.0, T), (NAN, NAN, F)])


def test_sql_joins_and_set_operations_match_nan_keys(env: TableEnvironment) -> None:
    both = _bag([(NAN, NAN, "x"), (NAN, NAN, "x"), (2.0, 2.0, "y")])
    assert _bag(sql(env, "SELECT a, k, s FROM t JOIN u ON a = k")) == both
    assert _bag(sql(env, "SELECT a, k, s FROM t, u WHERE a = k")) == both
    # ...but a non-equi join condition compares like any other.
    assert sql(env, "SELECT a, k, s FROM t JOIN u ON a < k OR a > k") == []
    assert _bag(sql(env, "SELECT a FROM t WHERE a IN (SELECT k FROM u)")) == _bag([(NAN,), (2.0,), (NAN,)])
    assert sql(env, "SELECT a FROM t WHERE a NOT IN (SELECT k FROM u WHERE k IS NOT NULL)") == [("NaN",), ("NaN",)]
    assert _bag(sql(env, "SELECT a FROM t INTERSECT SELECT k FROM u")) == _bag([(NAN,), (2.0,), (None,)])
    assert sql(env, "SELECT a FROM t EXCEPT SELECT k FROM u") == []


def test_greatest_least_null_and_nan(env: TableEnvironment) -> None:
    got = sql(env, "SELECT GREATEST(a, b), LEAST(a, b), GREATEST(b, a), LEAST(b, a), "
                   "GREATEST(a, b, CAST(NULL AS DOUBLE)) FROM t")
    assert got == [("NaN", 1.0, "NaN", 1.0, None), (2.0, 2.0, 2.0, 2.0, None),
                   ("NaN", "NaN", "NaN", "NaN", None), (None, None, None, None, None)]
    got = sql(env, "SELECT a > 100, a = b, a <> b, GREATEST(a, b), MAX(a) OVER (), a IS NOT DISTINCT FROM b FROM t")
    assert got == [(F, F, T, "NaN", "NaN", F), (F, T, F, 2.0, "NaN", T), (F, F, T, "NaN", "NaN", F),
                   (None, None, None, None, "NaN", F)]


def test_greatest_null_argument_any_type(t_env: TableEnvironment) -> None:
    t = t_env.from_elements([(1, None), (1, 3)], DataTypes.ROW([
        DataTypes.FIELD("x", DataTypes.INT()), DataTypes.FIELD("y", DataTypes.INT())]))
    got = rows(t.select(call("greatest", col("x"), col("y")), call("least", col("x"), col("y"), lit(0))))
    # Flink: NULL as soon as one argument is NULL, for every type (measured: GREATEST(1, NULL) = NULL).
    assert got == [(None, None), (3, 0)]
    # Literal arguments too; LEAST of a nullable column is nullable (measured: `_c1` INT).
    lits = t.select(call("greatest", lit(1), lit(None, DataTypes.INT())), call("least", col("x"), lit(0)))
    assert rows(lits) == [(None, 0), (None, 0)]
    assert lits.get_schema().get_field_data_types()[1] == DataTypes.INT()


def test_grouping_and_sorting_unchanged(env: TableEnvironment) -> None:
    t = env.from_path("t")
    assert _bag(rows(t.group_by(col("a")).select(col("a"), col("b").count))) == _bag([(NAN, 2), (2.0, 1), (None, 1)])
    assert _norm(rows(t.order_by(col("a")).select(col("a")))) == [(2.0,), ("NaN",), ("NaN",), (None,)]


def test_nan_literals_are_folded_as_flink_folds_them(env: TableEnvironment) -> None:
    # Flink's planner folds constant comparisons with NaN ordered last and equal to itself.
    assert sql(env, "SELECT CAST('NaN' AS DOUBLE) = CAST('NaN' AS DOUBLE), CAST('NaN' AS DOUBLE) > 1.0") == [(T, T)]


def test_rule_is_idempotent(env: TableEnvironment) -> None:
    # Spark reruns an optimizer batch until the plan stops changing: the rule must recognise its output.
    table = env.sql_query("SELECT a > 1, a = b, a IS NOT DISTINCT FROM b, GREATEST(a, b), a IN (b, 1.0) "
                          "FROM t JOIN u ON a = k AND a < k + 1 WHERE a IN (SELECT k FROM u)")
    plan = table._j_table.dataset().queryExecution().optimizedPlan()
    jvm = env._spark._jvm
    assert jvm is not None
    rule = jvm.org.pyflink_table.bridge.expressions.FlinkFloatingComparisons()
    assert "isnan" in plan.toString()
    assert rule.apply(plan).equals(plan)
