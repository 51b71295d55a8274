"""Bounded over windows (ROWS and RANGE PRECEDING, ordered by the rowtime) over unbounded sources in
streaming mode, with built-in aggregates only, compared with PyFlink 2.3: files are published while
the job runs and each file's rows are awaited before the next file is written.

The data exercise Flink's rules: ties on one rowtime (a ROWS frame counts the peers before the row
in arrival order, a RANGE frame all of them), a row at or before its key's last emitted time is
dropped, and in a RANGE window a cleanup timer (1.5 ranges after a row) that has fired makes later
rows before it late too (measured: a, 8 at 00:04 is emitted by ROWS, dropped by RANGE).
"""

import pytest

from harness import STREAMING_PRELUDE, Comparison, differential  # noqa: F401 - the fixture

SETUP = STREAMING_PRELUDE + """
from pyflink.table.window import Over
from pyflink.table.expressions import row_interval
d = tempfile.mkdtemp()
publish = lambda name, text: publish_file(d, name, text)
t_env.execute_sql("CREATE TABLE ev (k STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) "
                  "WITH ('connector' = 'filesystem', 'path' = '" + d + "', 'format' = 'csv', "
                  "'source.monitor-interval' = '100ms')")
"""
# Watermark 00:05 after each file: a's rows at 00:01 and twice 00:03 are emitted, b's at 00:06 waits.
FIRST = ("publish('f1.csv', 'a,1,1970-01-01 00:00:01\\na,2,1970-01-01 00:00:03\\na,4,1970-01-01 00:00:03\\n"
         "b,3,1970-01-01 00:00:06\\n')\n")
# a, 10 at 00:02 is late; a, 8 at 00:04 is after a's last row (ROWS emits it) but before the cleanup
# timer a's 00:01 row set at 00:04.001 (RANGE drops it); watermark 00:11.
SECOND = ("publish('f2.csv', 'a,10,1970-01-01 00:00:02\\na,8,1970-01-01 00:00:04\\nb,7,1970-01-01 00:00:05\\n"
          "a,5,1970-01-01 00:00:12\\n')\n")
THIRD = "publish('f3.csv', 'a,6,1970-01-01 00:00:13\\na,7,1970-01-01 00:00:20\\n')\n"
ROWS_COUNTS = (3, 3, 2)
RANGE_COUNTS = (3, 2, 2)


def run(query: str, counts: tuple) -> str:
    """The program: ``query`` assigns ``it`` (a collect iterator); each file's rows are awaited."""
    return (SETUP + FIRST + query + f"take(it, {counts[0]})\n" + SECOND + f"take(it, {counts[1]})\n"
            + THIRD + f"take(it, {counts[2]})\n" + "it.close()\n")


def table(select: str, window: str, counts: tuple) -> str:
    return run(f"it = t_env.from_path('ev').over_window({window}.alias('o')).select({select}).execute().collect()\n",
               counts)


ROWS_2 = "Over.partition_by(col('k')).order_by(col('ts')).preceding(row_interval(2))"
RANGE_2S = "Over.partition_by(col('k')).order_by(col('ts')).preceding(lit(2).seconds)"
BUILTINS = ("col('k'), col('ts'), col('v'), col('v').sum.over(col('o')), col('v').count.over(col('o')), "
            "col('v').min.over(col('o')), col('v').max.over(col('o')), col('v').avg.over(col('o'))")

programs = {
    "table_rows_builtins": table(BUILTINS, ROWS_2, ROWS_COUNTS),
    "table_range_builtins": table(BUILTINS, RANGE_2S, RANGE_COUNTS),
    "table_rows_in_an_expression": table("col('k'), col('v').sum.over(col('o')) * 10 + col('v')", ROWS_2, ROWS_COUNTS),
    # Without partition keys every row shares one key, whose frames mix a and b.
    "table_rows_without_partition": table("col('k'), col('v'), col('v').sum.over(col('o'))",
                                          "Over.order_by(col('ts')).preceding(row_interval(1))", ROWS_COUNTS),
}


@pytest.mark.parametrize("name", sorted(programs))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same(name)
