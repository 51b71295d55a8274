"""Streaming mode: Flink's state TTL (``table.exec.state.ttl``, processing time) over an unbounded
source (a monitored directory), compared with PyFlink 2.3. The programs publish files while the job
runs, wait for each file's changes, and sleep between files: a key whose state was not written for
longer than the TTL starts afresh (``+I`` again), one written more recently updates (``-U``/``+U``).
A key that must expire is never read before its last step, so a slow engine cannot make it expire
early; only the key that must be kept depends on the engines' speed.

With a 20 s TTL and sleeps of 16 s and 5 s, a key written only by the first file is idle for at
least 21 s when the third arrives, whatever the engines' delays; one written by the second file for
5 s plus the time an engine takes to pick up and process a file, which may reach 15 s on a loaded
machine before the test could fail (on a machine at load 21, both engines took up to 9 s)."""

import pytest

from harness import STREAMING_PRELUDE, Comparison, differential  # noqa: F401 - the fixture

SETUP = STREAMING_PRELUDE + """
import time
d = tempfile.mkdtemp()
publish = lambda name, text: publish_file(d, name, text)
t_env.get_config().set('table.exec.state.ttl', '20 s')
t_env.execute_sql("CREATE TABLE ev (k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '" + d + "', "
                  "'format' = 'csv', 'source.monitor-interval' = '100ms')")
ev = t_env.from_path('ev')
"""

# b is written at f1 only (at least 21 s before f3 arrives: expired); c at f2 (about 5 s before: kept).
EXPIRY = """
publish('f1.csv', 'a,1\\nb,2\\n')
it = {query}.execute().collect()
take(it, 2)
time.sleep(16)
publish('f2.csv', 'c,3\\n')
take(it, 1)
time.sleep(5)
publish('f3.csv', 'c,5\\nb,7\\n')
take(it, 3)
it.close()
"""

# A left join: a's first row (f1) and b's row expire before the right rows arrive, a's second row
# (l2) does not, so only it is joined (its padded row deleted); b's right row matches nothing.
LEFT_JOIN = STREAMING_PRELUDE + """
import time
dl, dr = tempfile.mkdtemp(), tempfile.mkdtemp()
t_env.get_config().set('table.exec.state.ttl', '20 s')
for name, d, cols in (('l', dl, 'k STRING, x INT'), ('r', dr, 'k2 STRING, y INT')):
    t_env.execute_sql("CREATE TABLE " + name + " (" + cols + ") WITH ('connector' = 'filesystem', 'path' = '"
                      + d + "', 'format' = 'csv', 'source.monitor-interval' = '100ms')")
publish_file(dl, 'l1.csv', 'a,1\\nb,2\\n')
it = t_env.sql_query('SELECT k, x, k2, y FROM l LEFT JOIN r ON k = k2').execute().collect()
take(it, 2)
time.sleep(16)
publish_file(dl, 'l2.csv', 'a,3\\n')
take(it, 1)
time.sleep(5)
publish_file(dr, 'r1.csv', 'a,10\\nb,20\\n')
take(it, 2)
it.close()
"""

# State TTL / bundle timers: run each side alone (harness.differential).
SIDES_IN_TURN = True

programs = {
    "left_join_idle_rows_expire": LEFT_JOIN,
    "group_by_idle_key_starts_afresh": SETUP + EXPIRY.format(
        query="ev.group_by(col('k')).select(col('k'), col('v').sum.alias('s'), col('v').count.alias('c'))"),
    "sql_group_by_idle_key_starts_afresh": SETUP + EXPIRY.format(
        query="t_env.sql_query('SELECT k, MAX(v) AS m, COUNT(*) AS n FROM ev GROUP BY k')"),
}


@pytest.mark.parametrize("name", sorted(programs))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same(name)


def test_the_programs_show_expiry(differential: Comparison) -> None:
    # Hand-computed: without a TTL, b's row in f3 would update (-U/+U) instead of inserting afresh,
    # and in the join a's first row and b's row would be joined too.
    last = differential.pyflink["group_by_idle_key_starts_afresh"]["stdout"].splitlines()[-1]
    assert last == str(sorted([["+I", "b", "7", "1"], ["-U", "c", "3", "1"], ["+U", "c", "8", "2"]])), last
    last = differential.pyflink["left_join_idle_rows_expire"]["stdout"].splitlines()[-1]
    assert last == str(sorted([["+I", "a", "3", "a", "10"], ["-D", "a", "3", "None", "None"]])), last
