"""Probe: NaN comparisons and GREATEST/LEAST with NULL, Table API and SQL.

Run with PyFlink 2.3 to print the measured expectations, with ``--ours`` for pyflink_table::

    /work/.venv-pyflink/bin/python tests/reference/probe_nan.py
    .venv/bin/python tests/reference/probe_nan.py --ours

Output: one line per case, label then the collected rows (or ERR and the exception's first line).
tests/test_expressions_nan.py pastes the PyFlink answers.
"""
import sys

if "--ours" in sys.argv:
    from pyflink_table import EnvironmentSettings, TableEnvironment
    from pyflink_table.expressions import col
else:
    from pyflink.table import EnvironmentSettings, TableEnvironment  # type: ignore
    from pyflink.table.expressions import col  # type: ignore

NAN = float("nan")
T_ROWS = [(NAN, 1.0), (2.0, 2.0), (NAN, NAN), (None, 1.0)]
U_ROWS = [(NAN, "x"), (2.0, "y"), (None, "z")]

SQL = [
    ("cmp", "SELECT a > 100, a = b, a <> b, a < b, a <= b, a IS DISTINCT FROM b, "
            "a IS NOT DISTINCT FROM b, NOT (a > b) FROM t"),
    ("greatest", "SELECT GREATEST(a, b), LEAST(a, b), GREATEST(b, a), LEAST(b, a), "
                 "GREATEST(a, b, CAST(NULL AS DOUBLE)) FROM t"),
    ("greatest_int_literals", "SELECT GREATEST(1, CAST(NULL AS INT)), LEAST(2, 1, CAST(NULL AS INT)), GREATEST(1, 3, 2)"),
    ("join_eq", "SELECT a, k, s FROM t JOIN u ON a = k"),
    ("join_lt", "SELECT a, k, s FROM t JOIN u ON a < k OR a > k"),
    ("join_where", "SELECT a, k, s FROM t, u WHERE a = k"),
    ("in_sub", "SELECT a FROM t WHERE a IN (SELECT k FROM u)"),
    ("not_in_sub", "SELECT a FROM t WHERE a NOT IN (SELECT k FROM u WHERE k IS NOT NULL)"),
    ("intersect", "SELECT a FROM t INTERSECT SELECT k FROM u"),
    ("except", "SELECT a FROM t EXCEPT SELECT k FROM u"),
    ("in_list", "SELECT a IN (CAST('NaN' AS DOUBLE), 2.0), a NOT IN (2.0, 3.0) FROM t"),
    ("where", "SELECT a, b FROM t WHERE a = b"),
    ("where_ne", "SELECT a, b FROM t WHERE a <> b"),
    ("case", "SELECT CASE WHEN a > 1 THEN 'big' ELSE 'small' END FROM t"),
    ("groupby_cmp", "SELECT a > 1, COUNT(*) FROM t GROUP BY a > 1"),
    ("sum_if", "SELECT SUM(CASE WHEN a >= 0 THEN 1 ELSE 0 END), COUNT(*) FILTER (WHERE a < 5) FROM t"),
    ("float", "SELECT CAST(a AS FLOAT) > CAST(1 AS FLOAT), CAST(a AS FLOAT) = CAST(b AS FLOAT) FROM t"),
    ("between", "SELECT a BETWEEN 0 AND 10, a NOT BETWEEN 0 AND 10 FROM t"),
    ("nan_literals", "SELECT CAST('NaN' AS DOUBLE) = CAST('NaN' AS DOUBLE), CAST('NaN' AS DOUBLE) > 1.0"),
    ("having_max", "SELECT a, COUNT(*) FROM t GROUP BY a HAVING MAX(b) > 0.5"),
    ("over", "SELECT a, b, a > 1 FROM (SELECT a, b, ROW_NUMBER() OVER (ORDER BY b) AS rn FROM t) WHERE rn < 10"),
    ("probe_sql", "SELECT a > 100, a = b, a <> b, GREATEST(a, b), MAX(a) OVER (), a IS NOT DISTINCT FROM b FROM t"),
]


def main() -> None:
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.get_config().set("parallelism.default", "1")
    t = t_env.from_elements(T_ROWS, ["a", "b"])
    u = t_env.from_elements(U_ROWS, ["k", "s"])
    t_env.create_temporary_view("t", t)
    t_env.create_temporary_view("u", u)

    def show(label, table):
        try:
            print(label, [tuple(r) for r in table.execute().collect()])
        except Exception as e:  # noqa: BLE001 - a probe reports every failure
            print(label, "ERR", type(e).__name__, str(e).splitlines()[0][:200])

    for label, sql in SQL:
        show(label, t_env.sql_query(sql))
    a, b = col("a"), col("b")
    show("tapi_brief", t.select(a > 100, a < 100, a == b, a != b, a >= b, a.between(0, 1e308)))
    show("tapi_more", t.select(a > b, a.in_(2.0, 3.0), a <= 100, a > 1))
    show("tapi_filter", t.where(a != b))
    show("tapi_join", t.join(u).where(a == col("k")).select(a, col("s")))
    show("tapi_group", t.group_by(a).select(a, b.count))
    show("tapi_order", t.order_by(a).select(a))
    show("tapi_max_min", t.select(a.max, a.min))


if __name__ == "__main__":
    main()
