"""Streaming mode: aggregations of updating tables (an aggregation over a view of an unbounded
aggregation), compared with PyFlink 2.3 at parallelism 1.

Over a monitored directory each program waits for the changes one file makes before it writes the
next file, so an engine that only answers at the end of its input fails. Over bounded input
(``from_elements``) the whole changelog is printed in order, row kinds included."""

import pytest

from harness import (RETRACTING_SUM, STREAMING_PRELUDE, Comparison, differential, event_table,  # noqa: F401
                     monitored_table)

SETUP = STREAMING_PRELUDE + event_table("k STRING, v INT") + """
ev = t_env.from_path('ev')
sums = ev.group_by(col('k')).select(col('k'), col('v').sum.alias('s'))
"""

JOIN_SETUP = (STREAMING_PRELUDE + "dl, dr = tempfile.mkdtemp(), tempfile.mkdtemp()\n"
              + monitored_table("l", "k STRING, a INT", "dl") + monitored_table("r", "k2 STRING, b INT", "dr"))

# Bounded input: the changelog in PyFlink's order.
BOUNDED = STREAMING_PRELUDE + RETRACTING_SUM + """
def show(t):
    for r in t.execute().collect():
        print(r.get_row_kind(), list(r))
e = t_env.from_elements([('a', 1), ('b', 2), ('a', 3), ('c', 1), ('b', -2), ('a', -4)], ['k', 'v'])
s = e.group_by(col('k')).select(col('k'), col('v').sum.alias('s'))
t_env.create_temporary_view('sv', s)
"""

programs = {
    # The retraction of a key's last row deletes its result (-D); a new key inserts (+I).
    "bounded_count_by_sum": BOUNDED + "show(s.group_by(col('s')).select(col('s'), col('k').count.alias('n')))\n",
    "bounded_sql_global": BOUNDED + "show(t_env.sql_query('SELECT COUNT(*) AS c, SUM(s) AS t, MAX(s) AS m, "
    "MIN(k) AS mk FROM sv'))\n",
    "bounded_sql_having": BOUNDED + "show(t_env.sql_query('SELECT s, COUNT(k) AS c FROM sv GROUP BY s "
    "HAVING COUNT(k) > 0'))\n",
    "bounded_listagg_first_last": BOUNDED + "show(t_env.sql_query(\"SELECT LISTAGG(k) AS l, FIRST_VALUE(k) AS f, "
    "LAST_VALUE(k) AS la, AVG(s) AS a FROM sv\"))\n",
    # A Python aggregate function with retract: PyFlink emits once per key and bundle.
    "bounded_python_udaf": BOUNDED + "my_sum = udaf(MySum())\n"
    "show(s.group_by(col('s')).select(col('s'), my_sum(col('s')).alias('m')))\n",
    "bounded_python_udaf_bundle_1": BOUNDED + "t_env.get_config().set('python.fn-execution.bundle.size', '1')\n"
    "my_sum = udaf(MySum())\n"
    "show(s.group_by(col('s')).select(col('s'), my_sum(col('s')).alias('m')))\n",
    "bounded_python_udaf_sql_bundle_1": BOUNDED + "t_env.get_config().set('python.fn-execution.bundle.size', '1')\n"
    "t_env.create_temporary_system_function('my_sum', MySum())\n"
    "show(t_env.sql_query('SELECT s, my_sum(s) AS m, COUNT(k) AS c FROM sv GROUP BY s'))\n",
    # Unbounded: the count of keys per sum, as files arrive.
    "count_by_sum": SETUP
    + "it = sums.group_by(col('s')).select(col('s'), col('k').count.alias('n')).execute().collect()\n"
    + "publish('f1.csv', 'a,1\\nb,2\\n')\n"
    + "take(it, 2)\n"
    + "publish('f2.csv', 'a,1\\n')\n"
    + "take(it, 3)\n"
    + "publish('f3.csv', 'c,2\\n')\n"
    + "take(it, 2)\n"
    + "publish('f4.csv', 'b,-2\\n')\n"
    + "take(it, 3)\n"
    + "it.close()\n",
    "sql_global_over_view": SETUP
    + "t_env.create_temporary_view('sv', sums)\n"
    + "it = t_env.execute_sql('SELECT COUNT(*) AS c, SUM(s) AS t, MAX(s) AS m FROM sv').collect()\n"
    + "publish('f1.csv', 'a,1\\n')\n"
    + "take(it, 1)\n"
    + "publish('f2.csv', 'b,5\\n')\n"
    + "take(it, 2)\n"
    + "publish('f3.csv', 'a,9\\n')\n"
    + "take(it, 4)\n"
    + "it.close()\n",
    # An aggregation of an outer join's changelog: the padded row's -D retracts its count.
    "count_over_left_join": JOIN_SETUP
    + "it = t_env.execute_sql('SELECT k, COUNT(b) AS c, SUM(a) AS s FROM l LEFT JOIN r ON k = k2 GROUP BY k')"
    + ".collect()\n"
    + "publish_file(dl, 'f1.csv', 'a,1\\n')\n"
    + "take(it, 1)\n"
    + "publish_file(dr, 'g1.csv', 'a,10\\n')\n"
    + "take(it, 2)\n"
    + "publish_file(dl, 'f2.csv', 'a,2\\n')\n"
    + "take(it, 2)\n"
    + "it.close()\n",
}


@pytest.mark.parametrize("name", sorted(programs))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same(name)
