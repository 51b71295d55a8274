"""Streaming mode over unbounded sources, compared with PyFlink 2.3: a monitored directory whose
files arrive while the job runs (each program waits for the results of one file before writing
the next, so an engine that only answers at the end of its input fails), event-time windows that
fire while the source is still open, and unbounded datagen."""

import pytest

from harness import STREAMING_PRELUDE, Comparison, differential, event_table, python_aggregates  # noqa: F401

SETUP = STREAMING_PRELUDE + """
from pyflink.table.window import Tumble
""" + event_table()

FIRST = "publish('f1.csv', 'a,1,1970-01-01 00:00:01\\na,2,1970-01-01 00:00:03\\nb,3,1970-01-01 00:00:06\\n')\n"
# A pandas UDAF (FLIP-137) and a general Python aggregate function.
PANDAS_MEAN = python_aggregates()

SECOND = "publish('f2.csv', 'a,4,1970-01-01 00:00:12\\n')\n"

programs = {
    # T13: rows arrive after each file; close() stops the job.
    "monitored_directory_rows_per_file": SETUP + FIRST
    + "it = t_env.from_path('ev').where(col('v') > 1).select(col('k'), col('v')).execute().collect()\n"
    + "print([str(next(it).get_row_kind()), list(next(it))])\n"
    + SECOND
    + "print(list(next(it)))\n"
    + "it.close()\n",
    # A tumbling window fires once the watermark passes its end, while the source stays open.
    "tumble_fires_while_source_is_open": SETUP + FIRST
    + "w = t_env.from_path('ev').window(Tumble.over(lit(5).seconds).on(col('ts')).alias('w'))\n"
    + "it = w.group_by(col('w'), col('k')).select(col('k'), col('w').start, col('w').end, col('v').sum)"
    + ".execute().collect()\n"
    + "print(list(next(it)))\n"
    + SECOND
    + "print(list(next(it)))\n"
    + "it.close()\n",
    "sql_tumble_fires_while_source_is_open": SETUP + FIRST
    + "it = t_env.execute_sql(\"SELECT k, TUMBLE_START(ts, INTERVAL '5' SECOND) AS s, COUNT(*) AS c FROM ev "
    + "GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND)\").collect()\n"
    + "print(list(next(it)))\n"
    + SECOND
    + "print(list(next(it)))\n"
    + "it.close()\n",
    # T18: a late row in a later file is dropped by both engines (a system that kept it would
    # print a second a [0, 5) row), and later windows still fire while the source is open.
    "late_row_in_later_file_is_dropped": SETUP + FIRST
    + "w = t_env.from_path('ev').window(Tumble.over(lit(5).seconds).on(col('ts')).alias('w'))\n"
    + "it = w.group_by(col('w'), col('k')).select(col('k'), col('w').start, col('v').sum).execute().collect()\n"
    + "print(list(next(it)))\n"
    + "publish('f2.csv', 'a,10,1970-01-01 00:00:02\\na,4,1970-01-01 00:00:12\\n')\n"
    + "print(list(next(it)))\n"
    + "publish('f3.csv', 'a,5,1970-01-01 00:00:20\\n')\n"
    + "print(list(next(it)))\n"
    + "it.close()\n",
    # A Python aggregate function in a tumbling window fires while the source is open; the late row
    # of the second file (a, 10 at 00:02) is dropped, as its window has fired.
    "python_udaf_tumble_fires_while_source_is_open": SETUP + PANDAS_MEAN + FIRST
    + "w = t_env.from_path('ev').window(Tumble.over(lit(5).seconds).on(col('ts')).alias('w'))\n"
    + "it = w.group_by(col('w'), col('k')).select(col('k'), col('w').start, col('w').end, total(col('v')))"
    + ".execute().collect()\n"
    + "print(list(next(it)))\n"
    + "publish('f2.csv', 'a,10,1970-01-01 00:00:02\\na,4,1970-01-01 00:00:12\\n')\n"
    + "print(list(next(it)))\n"
    + "it.close()\n",
    # FLIP-137: a pandas UDAF in a sliding window; a row that is late for its first window (fired)
    # still counts in the next one.
    "pandas_udaf_slide_late_for_one_window_only": SETUP + PANDAS_MEAN + FIRST
    + "from pyflink.table.window import Slide\n"
    + "w = t_env.from_path('ev').window(Slide.over(lit(10).seconds).every(lit(5).seconds).on(col('ts')).alias('w'))\n"
    + "it = w.group_by(col('w'), col('k')).select(col('k'), col('w').start, mean(col('v')))"
    + ".execute().collect()\n"
    + "print(list(next(it)))\n"
    + "publish('f2.csv', 'a,10,1970-01-01 00:00:04\\na,4,1970-01-01 00:00:12\\n')\n"
    + "print(sorted([list(next(it)), list(next(it))]))\n"
    + "it.close()\n",
    # T15: datagen without number-of-rows never ends.
    "unbounded_datagen": """
from pyflink.table import EnvironmentSettings, TableEnvironment
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.execute_sql("CREATE TABLE gen (x INT, s STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '20', "
                  "'fields.x.min' = '1', 'fields.x.max' = '9', 'fields.s.length' = '4')")
it = t_env.from_path('gen').execute().collect()
rows = [next(it) for _ in range(5)]
it.close()
print(len(rows), all(1 <= r[0] <= 9 and len(r[1]) == 4 for r in rows))
""",
}


@pytest.mark.parametrize("name", sorted(programs))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same(name)
