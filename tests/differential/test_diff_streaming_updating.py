"""Streaming mode: updating aggregations over an unbounded source (a monitored directory), compared
with PyFlink 2.3. Each program waits for the changes one file makes before it writes the next file,
so an engine that only answers at the end of its input fails. Each file holds at most one row per
key: Spark emits one change per key and micro-batch where Flink emits one per row (see the docs)."""

import pytest

from harness import STREAMING_PRELUDE, Comparison, differential, monitored_table  # noqa: F401 - the fixture

SETUP = STREAMING_PRELUDE + """
d = tempfile.mkdtemp()
publish = lambda name, text: publish_file(d, name, text)
t_env.execute_sql("CREATE TABLE ev (k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '" + d + "', "
                  "'format' = 'csv', 'source.monitor-interval' = '100ms')")
ev = t_env.from_path('ev')
"""
# ev with NULL values: the CSV text null is NULL (Flink's CSV format refuses an empty INT field).
NULLS_SETUP = (STREAMING_PRELUDE + "d = tempfile.mkdtemp()\npublish = lambda name, text: publish_file(d, name, text)\n"
               + monitored_table("ev", "k STRING, v INT", options="'csv.null-literal' = 'null'"))

programs = {
    # A filter above the aggregation applies to each change: a,1 is filtered, so a's first +U has no -U.
    "group_by_with_filter_above": SETUP
    + "publish('f1.csv', 'a,1\\nb,2\\n')\n"
    + "it = ev.group_by(col('k')).select(col('k'), col('v').sum.alias('s'), col('v').count.alias('c'))"
    + ".where(col('s') > 1).execute().collect()\n"
    + "take(it, 1)\n"
    + "publish('f2.csv', 'a,3\\n')\n"
    + "take(it, 1)\n"
    + "publish('f3.csv', 'b,1\\nc,5\\n')\n"
    + "take(it, 3)\n"
    + "it.close()\n",
    # T12 over a stream: a global aggregate retracts its previous value.
    "global_aggregate": SETUP
    + "publish('f1.csv', 'a,2\\n')\n"
    + "it = t_env.sql_query('SELECT COUNT(*) AS n, SUM(v) AS s, MAX(k) AS mk FROM ev').execute().collect()\n"
    + "take(it, 1)\n"
    + "publish('f2.csv', 'c,4\\n')\n"
    + "take(it, 2)\n"
    + "publish('f3.csv', 'b,1\\n')\n"
    + "take(it, 2)\n"
    + "it.close()\n",
    # An unchanged result emits nothing; the next change of that key retracts the last one emitted.
    "sql_max_unchanged_emits_nothing": SETUP
    + "publish('f1.csv', 'a,5\\n')\n"
    + "it = t_env.execute_sql('SELECT k, MAX(v) AS m FROM ev GROUP BY k').collect()\n"
    + "take(it, 1)\n"
    + "publish('f2.csv', 'a,3\\nb,1\\n')\n"
    + "take(it, 1)\n"
    + "publish('f3.csv', 'a,7\\n')\n"
    + "take(it, 2)\n"
    + "it.close()\n",
    "sql_having": SETUP
    + "publish('f1.csv', 'a,1\\nb,3\\n')\n"
    + "it = t_env.execute_sql('SELECT k, SUM(v) AS s FROM ev GROUP BY k HAVING SUM(v) > 2').collect()\n"
    + "take(it, 1)\n"
    + "publish('f2.csv', 'a,4\\nb,1\\n')\n"
    + "take(it, 3)\n"
    + "it.close()\n",
    # ARRAY_AGG keeps NULL values (as text: PyFlink 2.3 cannot collect an ARRAY holding a NULL),
    # DISTINCT keeps one, IGNORE NULLS drops them (b's only NULL: NULL).
    "sql_array_agg_nulls": NULLS_SETUP
    + "publish('f1.csv', 'a,1\\nb,null\\n')\n"
    + "it = t_env.execute_sql('SELECT k, CAST(ARRAY_AGG(v) AS STRING) AS a, CAST(ARRAY_AGG(DISTINCT v) AS STRING) "
      "AS d, ARRAY_AGG(v) IGNORE NULLS AS i FROM ev GROUP BY k').collect()\n"
    + "take(it, 2)\n"
    + "publish('f2.csv', 'a,null\\nb,2\\n')\n"
    + "take(it, 4)\n"
    + "publish('f3.csv', 'a,null\\n')\n"
    + "take(it, 2)\n"
    + "it.close()\n",
}


@pytest.mark.parametrize("name", sorted(programs))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same(name)
