"""Session windows over a bounded source in streaming mode (a CSV table without a monitor
interval), compared with PyFlink 2.3 (issue 15).

The bridge computes a bounded stream's sessions over rows regrouped by key, while late rows are
judged in the file's order: before the fix a key whose rows sorted after another key's later rows
was judged late and lost (b here). Late rows are dropped before the sessions form, as Flink's
merging window operator does: a late row neither stretches nor bridges its key's sessions (it joins
one only when that session is still open), and a row after a fired session starts a new one; the
same for SQL's GROUP BY SESSION and the SESSION table function's aggregation. A general Python
aggregate function keeps the late rows, as PyFlink's Python window operator does (also in a SQL
TUMBLE window); a pandas one drops them in tumbling and sliding windows, as PyFlink's pandas window
operator does (Table API and SQL), and in session windows (by hand: PyFlink cannot plan them)."""

import pytest

from harness import STREAMING_PRELUDE, Comparison, assert_prints, differential, python_aggregates  # noqa: F401

# b, 7 at 00:07 comes after a, 4 at 00:12 (watermark 00:11 with the 1 s delay).
LATE_B = ("a,1,1970-01-01 00:00:01\\na,2,1970-01-01 00:00:03\\nb,3,1970-01-01 00:00:06\\n"
          "a,4,1970-01-01 00:00:12\\nb,7,1970-01-01 00:00:07\\na,5,1970-01-01 00:00:13\\n")
IN_ORDER = ("a,1,1970-01-01 00:00:01\\na,2,1970-01-01 00:00:03\\nb,3,1970-01-01 00:00:06\\n"
            "b,7,1970-01-01 00:00:07\\na,4,1970-01-01 00:00:12\\na,5,1970-01-01 00:00:13\\n")
# a's sessions [00:01, 00:03) and [00:05, 00:07); after c at 00:20 (watermark 00:19) a late a at
# 00:03 would bridge them ([00:03, 00:05) touches both).
LATE_BRIDGE = ("a,1,1970-01-01 00:00:01\\na,2,1970-01-01 00:00:05\\nc,4,1970-01-01 00:00:20\\n"
               "a,8,1970-01-01 00:00:03\\nc,16,1970-01-01 00:00:21\\n")
# A late row of a key never seen before (d at 00:05 after the watermark reached 00:11), and a late
# b at 00:04 whose own window [00:04, 00:06) ends before b's open session [00:06, ...) starts.
LATE_OTHER_KEY = ("b,1,1970-01-01 00:00:06\\na,2,1970-01-01 00:00:12\\nd,4,1970-01-01 00:00:05\\n"
                  "b,8,1970-01-01 00:00:10\\nb,16,1970-01-01 00:00:03\\n")
# a's session [00:08, 00:14) is open when the watermark is 00:11; a at 00:07 is late on its own
# ([00:07, 00:09) ended) but touches that open session.
LATE_JOINS_OPEN = ("a,1,1970-01-01 00:00:08\\na,2,1970-01-01 00:00:09.500\\na,4,1970-01-01 00:00:11\\n"
                   "a,8,1970-01-01 00:00:12\\na,16,1970-01-01 00:00:07\\n")
# b's session [00:06, 00:08) fires when a at 00:10 moves the watermark to 00:09; b at 00:07.500 is
# on time for its own window [00:07.500, 00:09.500), which overlaps the fired session.
AFTER_FIRED = ("b,1,1970-01-01 00:00:06\\na,2,1970-01-01 00:00:10\\nb,4,1970-01-01 00:00:07.500\\n")

BUILTINS = "col('k'), col('w').start, col('w').end, col('v').sum, col('v').count"

# LATE_B and a late b, 16 at 00:04 (watermark 00:12). Tumbling 5 s: b, 7 is late for [00:05, 00:10),
# b, 16 for [00:00, 00:05). Sliding 10 s every 5 s: b, 7 is late for [00:00, 00:10) and on time for
# [00:05, 00:15); b, 16 is late for [-00:05, 00:05) and [00:00, 00:10).
LATE_TWO = LATE_B + "b,16,1970-01-01 00:00:04\\n"


def bounded_window(rows: str, window: str, select: str) -> str:
    return (bounded_table(rows) + "from pyflink.table.window import Tumble, Slide\n"
            + f"w = t_env.from_path('evb').window({window}.on(col('ts')).alias('w'))\n"
            + f"result = w.group_by(col('w'), col('k')).select({select})\n")


def bounded_sql_pandas(rows: str, window: str, start: str) -> str:
    return (bounded_table(rows) + "t_env.create_temporary_function('mean_udaf', mean)\n"
            + f"result = t_env.sql_query(\"SELECT k, {start} AS s, mean_udaf(v) AS m FROM evb GROUP BY k, {window}\")\n")


TUMBLE_5S = "Tumble.over(lit(5).seconds)"
SLIDE_10S_5S = "Slide.over(lit(10).seconds).every(lit(5).seconds)"
PANDAS_MEAN = "col('k'), col('w').start, mean(col('v'))"


def bounded_table(rows: str) -> str:
    return (STREAMING_PRELUDE + "from pyflink.table.window import Session\n" + python_aggregates(merge=True)
            + "d = tempfile.mkdtemp()\n"
            + f"publish_file(d, 'f.csv', '{rows}')\n"
            + "t_env.execute_sql(\"CREATE TABLE evb (k STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - \"\n"
            + "                  \"INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '\" + d + \"', \"\n"
            + "                  \"'format' = 'csv')\")\n")


# A TIMESTAMP_LTZ rowtime (milliseconds since the epoch): its sessions are ordered by the instant.
LTZ_ROWS = ("a,1,1000\\na,2,5000\\nc,4,20000\\na,8,3000\\nc,16,21000\\nb,1,6000\\nd,2,30000\\n"
            "b,4,7500\\n")


def bounded_session(rows: str, select: str) -> str:
    return (bounded_table(rows)
            + "w = t_env.from_path('evb').window(Session.with_gap(lit(2).seconds).on(col('ts')).alias('w'))\n"
            + f"result = w.group_by(col('w'), col('k')).select({select})\n")


def bounded_sql_session(rows: str, aggregates: str = "SUM(v) AS total_v, COUNT(v) AS n") -> str:
    return (bounded_table(rows)
            + "t_env.create_temporary_function('total', total)\n"
            + "result = t_env.sql_query(\"SELECT k, SESSION_START(ts, INTERVAL '2' SECOND) AS s, \"\n"
            + "                         \"SESSION_END(ts, INTERVAL '2' SECOND) AS e, "
            + aggregates + " FROM evb \"\n"
            + "                         \"GROUP BY k, SESSION(ts, INTERVAL '2' SECOND)\")\n")


def bounded_tvf_session(rows: str) -> str:
    return (bounded_table(rows)
            + "result = t_env.sql_query(\"SELECT k, window_start, window_end, SUM(v) AS total_v, COUNT(v) AS n \"\n"
            + "                         \"FROM TABLE(SESSION(TABLE evb PARTITION BY k, DESCRIPTOR(ts), \"\n"
            + "                         \"INTERVAL '2' SECOND)) GROUP BY k, window_start, window_end\")\n")


def bounded_tvf(rows: str, tvf: str) -> str:
    return (bounded_table(rows)
            + "result = t_env.sql_query(\"SELECT k, window_start, window_end, SUM(v) AS total_v, COUNT(v) AS n \"\n"
            + f"                         \"FROM TABLE({tvf}) GROUP BY k, window_start, window_end\")\n")


programs = {
    # Built-ins only: b's session [00:06, 00:09) was lost.
    "builtin_in_order": bounded_session(IN_ORDER, "col('k'), col('w').end, col('v').sum, col('v').count"),
    # A general Python aggregate next to built-ins: PyFlink's Python window operator counts the
    # late b, 7 (b, 00:09, 10, 10).
    "mixed_late_row": bounded_session(LATE_B, "col('k'), col('w').end, col('v').sum, total(col('v'))"),
    "builtin_late_row": bounded_session(LATE_B, BUILTINS),
    "builtin_late_bridge": bounded_session(LATE_BRIDGE, BUILTINS),
    "builtin_late_other_key": bounded_session(LATE_OTHER_KEY, BUILTINS),
    "builtin_late_joins_open": bounded_session(LATE_JOINS_OPEN, BUILTINS),
    "builtin_after_fired": bounded_session(AFTER_FIRED, BUILTINS),
    # COLLECT and LISTAGG: the late a, 16 joins last ('1;2;4;8;16').
    "builtin_late_joins_open_collect": bounded_session(LATE_JOINS_OPEN, "col('k'), col('w').end, col('v').collect, "
                                                       "col('v').cast(DataTypes.STRING()).list_agg(';')"),
    "builtin_ltz_rowtime": (
        STREAMING_PRELUDE + "from pyflink.table.window import Session\n" + "d = tempfile.mkdtemp()\n"
        + f"publish_file(d, 'f.csv', '{LTZ_ROWS}')\n"
        + "t_env.execute_sql(\"CREATE TABLE evl (k STRING, v INT, ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 3), \"\n"
        + "                  \"WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', \"\n"
        + "                  \"'path' = '\" + d + \"', 'format' = 'csv')\")\n"
        + "w = t_env.from_path('evl').window(Session.with_gap(lit(2).seconds).on(col('ts')).alias('w'))\n"
        + "result = w.group_by(col('w'), col('k')).select(col('k'), col('w').start, col('w').end, col('v').sum)\n"),
    # Without keys all rows share the sessions: a's and c's rows are one key here.
    "builtin_late_bridge_without_keys": (
        bounded_table(LATE_BRIDGE)
        + "w = t_env.from_path('evb').window(Session.with_gap(lit(2).seconds).on(col('ts')).alias('w'))\n"
        + "result = w.group_by(col('w')).select(col('w').start, col('w').end, col('v').sum, col('v').count)\n"),
    "general_late_bridge": bounded_session(LATE_BRIDGE, "col('k'), col('w').start, col('w').end, total(col('v'))"),
    "general_after_fired": bounded_session(AFTER_FIRED, "col('k'), col('w').start, col('w').end, total(col('v'))"),
    "sql_late_row": bounded_sql_session(LATE_B),
    "sql_late_bridge": bounded_sql_session(LATE_BRIDGE),
    "sql_late_joins_open": bounded_sql_session(LATE_JOINS_OPEN),
    "sql_after_fired": bounded_sql_session(AFTER_FIRED),
    "sql_late_bridge_listagg": bounded_sql_session(LATE_BRIDGE, "LISTAGG(CAST(v AS STRING)) AS l, COUNT(v) AS n"),
    "sql_late_joins_open_listagg": bounded_sql_session(LATE_JOINS_OPEN, "LISTAGG(CAST(v AS STRING), ';') AS l"),
    # A general Python aggregate function: PyFlink's Python window operator keeps every row of a
    # bounded input smaller than one bundle (b's session [00:06, 00:09.500) with 5; b, 00:06 with 10).
    "sql_general_after_fired": bounded_sql_session(AFTER_FIRED, "total(v) AS t"),
    "sql_general_late_row": bounded_sql_session(LATE_B, "total(v) AS t"),
    "sql_tumble_general_late_row": (
        bounded_table(LATE_B) + "t_env.create_temporary_function('total', total)\n"
        + "result = t_env.sql_query(\"SELECT k, TUMBLE_START(ts, INTERVAL '5' SECOND) AS s, total(v) AS t \"\n"
        + "                         \"FROM evb GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND)\")\n"),
    # A pandas aggregate function drops the late rows (b [00:05, 00:10): 3.0, not 5.0; no b [00:00, 00:05)).
    "pandas_tumble_late_rows": bounded_window(LATE_TWO, TUMBLE_5S, PANDAS_MEAN),
    # b's [00:00, 00:10) holds 3 only, [00:05, 00:15) holds 3 and 7.
    "pandas_slide_late_rows": bounded_window(LATE_TWO, SLIDE_10S_5S, PANDAS_MEAN),
    "sql_pandas_tumble_late_rows": bounded_sql_pandas(LATE_TWO, "TUMBLE(ts, INTERVAL '5' SECOND)",
                                                      "TUMBLE_START(ts, INTERVAL '5' SECOND)"),
    "sql_pandas_hop_late_rows": bounded_sql_pandas(
        LATE_TWO, "HOP(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND)",
        "HOP_START(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND)"),
    # A general Python aggregate beside built-ins in a SQL group window (refused before, as if in a
    # subquery expression): PyFlink keeps the late rows in both (b [00:00, 00:05) 16, 16).
    "sql_tumble_general_and_builtin_late_rows": (
        bounded_table(LATE_TWO) + "t_env.create_temporary_function('total', total)\n"
        + "result = t_env.sql_query(\"SELECT k, TUMBLE_START(ts, INTERVAL '5' SECOND) AS s, total(v) AS t, \"\n"
        + "                         \"SUM(v) AS sv FROM evb GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND)\")\n"),
    "sql_session_general_and_builtin_late_rows": bounded_sql_session(LATE_TWO, "total(v) AS t, SUM(v) AS sv"),
    # TUMBLE/HOP/CUMULATE table functions' aggregations: Flink's window aggregation, each window
    # once (+I) without its late rows (b [00:05, 00:10) 3, 1; we used to emit updates and count them).
    "tvf_tumble_late_rows": bounded_tvf(LATE_TWO, "TUMBLE(TABLE evb, DESCRIPTOR(ts), INTERVAL '5' SECOND)"),
    "tvf_hop_late_rows": bounded_tvf(
        LATE_TWO, "HOP(TABLE evb, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND)"),
    "tvf_cumulate_late_rows": bounded_tvf(
        LATE_TWO, "CUMULATE(TABLE evb, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND)"),
    # The SESSION table function's aggregation: as the group window over bounded input.
    "tvf_late_row": bounded_tvf_session(LATE_B),
    "tvf_late_joins_open": bounded_tvf_session(LATE_JOINS_OPEN),
    "tvf_after_fired": bounded_tvf_session(AFTER_FIRED),
    # The function's rows, and window_time (TIMESTAMP(3) NOT NULL; PyFlink marks it *ROWTIME*, which
    # the schema here does not say: the mark is left out of the printed schema).
    "tvf_rows_late_joins_open": (
        bounded_table(LATE_JOINS_OPEN)
        + "result = t_env.sql_query(\"SELECT k, v, window_start, window_end FROM TABLE(SESSION(TABLE evb \"\n"
        + "                         \"PARTITION BY k, DESCRIPTOR(ts), INTERVAL '2' SECOND))\")\n"),
    "tvf_window_time": (
        bounded_table(LATE_JOINS_OPEN)
        + "t = t_env.sql_query(\"SELECT k, window_start, window_end, window_time, SUM(v) AS total_v FROM \"\n"
        + "                    \"TABLE(SESSION(TABLE evb PARTITION BY k, DESCRIPTOR(ts), INTERVAL '2' SECOND)) \"\n"
        + "                    \"GROUP BY k, window_start, window_end, window_time\")\n"
        + "print(str(t.get_resolved_schema()).replace(' *ROWTIME*', ''))\n"
        + "print(sorted(str(list(r)) for r in t.execute().collect()))\n"),
    # PyFlink 2.3 cannot merge FIRST_VALUE's or LAST_VALUE's accumulators, over bounded input too.
    "sql_first_value_refused": bounded_sql_session(LATE_B, "FIRST_VALUE(v) AS f"),
    "last_value_refused": bounded_session(LATE_B, "col('k'), col('v').last_value"),
}


def test_unmergeable_aggregates_are_refused(differential: Comparison) -> None:
    for name in ("sql_first_value_refused", "last_value_refused"):
        differential.assert_same_refusal(name, starts_with="Could not find an implementation method 'merge'")


@pytest.mark.parametrize("name", sorted(programs))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same(name)


# Our extensions, by hand: PyFlink 2.3 cannot plan a pandas aggregate function in a session window
# ("Session Group Window is currently not supported for Pandas UDAF.") and fails with a
# NullPointerException for one beside built-ins in a stream group window (both measured). They drop
# late rows as the built-ins do, from the same windows.
def printed(program: str) -> str:
    return program + "print(sorted(str(list(r)) for r in result.execute().collect()))\n"


def _at(seconds: int) -> str:
    return f"datetime.datetime(1970, 1, 1, 0, 0, {seconds})" if seconds else "datetime.datetime(1970, 1, 1, 0, 0)"


extensions = {
    # Tumbling: a [0, 5) 1, 2; a [10, 15) 4, 5; b [5, 10) 3 (b, 7 and b, 16 late).
    "pandas_and_builtins_tumble_late_rows": (
        printed(bounded_window(LATE_TWO, TUMBLE_5S, PANDAS_MEAN + ", col('v').sum, col('v').count")),
        str(sorted([f"['a', {_at(0)}, 1.5, 3, 2]", f"['a', {_at(10)}, 4.5, 9, 2]", f"['b', {_at(5)}, 3.0, 3, 1]"]))
        + "\n"),
    # Sliding, by window end: b [0, 10) 3; b [5, 15) 3, 7.
    "pandas_and_builtins_slide_late_rows": (
        printed(bounded_window(LATE_TWO, SLIDE_10S_5S, "col('k'), col('w').end, mean(col('v')), col('v').sum")),
        str(sorted([f"['a', {_at(5)}, 1.5, 3]", f"['a', {_at(10)}, 1.5, 3]", f"['a', {_at(15)}, 4.5, 9]",
                    f"['a', datetime.datetime(1970, 1, 1, 0, 0, 20), 4.5, 9]", f"['b', {_at(10)}, 3.0, 3]",
                    f"['b', {_at(15)}, 5.0, 10]"])) + "\n"),
    # The same in SQL (PyFlink: the same NullPointerException).
    "sql_pandas_and_builtins_tumble_late_rows": (
        printed(bounded_table(LATE_TWO) + "t_env.create_temporary_function('mean_udaf', mean)\n"
                + "result = t_env.sql_query(\"SELECT k, TUMBLE_END(ts, INTERVAL '5' SECOND) AS e, mean_udaf(v) AS m, \"\n"
                + "                         \"SUM(v) AS s, COUNT(*) AS c FROM evb GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND)\")\n"),
        str(sorted([f"['a', {_at(5)}, 1.5, 3, 2]", f"['a', {_at(15)}, 4.5, 9, 2]", f"['b', {_at(10)}, 3.0, 3, 1]"]))
        + "\n"),
    # With packing off (Spark's per-group pandas aggregation), the same windows as PyFlink's
    # pandas_tumble_late_rows: a [0, 5) 1, 2; a [10, 15) 4, 5; b [5, 10) 3.
    "pandas_tumble_late_rows_packing_off": (
        printed(bounded_window(LATE_TWO, TUMBLE_5S, PANDAS_MEAN).replace(
            "d = tempfile.mkdtemp()\n", "t_env.get_config().set('pyflink_table.aggregate.packing', 'false')\n"
            "d = tempfile.mkdtemp()\n", 1)),
        str(sorted([f"['a', {_at(0)}, 1.5]", f"['a', {_at(10)}, 4.5]", f"['b', {_at(5)}, 3.0]"])) + "\n"),
    # Sessions (gap 2 s) as BoundedSessions forms them: b, 7 at 00:07 (watermark 00:11) is late, so b's
    # session stays [00:06, 00:08); a's are [00:01, 00:05) and [00:12, 00:15).
    "pandas_session_late_row": (
        printed(bounded_session(LATE_B, "col('k'), col('w').start, col('w').end, mean(col('v')), col('v').sum")),
        str(sorted([f"['a', {_at(1)}, {_at(5)}, 1.5, 3]", f"['a', {_at(12)}, {_at(15)}, 4.5, 9]",
                    f"['b', {_at(6)}, {_at(8)}, 3.0, 3]"])) + "\n"),
    # a's sessions [00:01, 00:03) and [00:05, 00:07) stay apart: the late a, 8 at 00:03 bridges nothing.
    "sql_pandas_session_late_bridge": (
        printed(bounded_sql_session(LATE_BRIDGE, "mean(v) AS m").replace(
            "t_env.create_temporary_function('total', total)", "t_env.create_temporary_function('mean', mean)")),
        str(sorted([f"['a', {_at(1)}, {_at(3)}, 1.0]", f"['a', {_at(5)}, {_at(7)}, 2.0]",
                    f"['c', {_at(20)}, datetime.datetime(1970, 1, 1, 0, 0, 23), 10.0]"])) + "\n"),
    # A pandas aggregate function in a TUMBLE table function's aggregation (PyFlink 2.3: "Pandas UDAFs
    # are not supported in streaming mode currently."): the windows of the group window above.
    "tvf_pandas_tumble_late_rows": (
        printed(bounded_table(LATE_TWO) + "t_env.create_temporary_function('mean_udaf', mean)\n"
                + "result = t_env.sql_query(\"SELECT k, window_start, mean_udaf(v) AS m, SUM(v) AS s FROM \"\n"
                + "                         \"TABLE(TUMBLE(TABLE evb, DESCRIPTOR(ts), INTERVAL '5' SECOND)) \"\n"
                + "                         \"GROUP BY k, window_start, window_end\")\n"),
        str(sorted([f"['a', {_at(0)}, 1.5, 3]", f"['a', {_at(10)}, 4.5, 9]", f"['b', {_at(5)}, 3.0, 3]"])) + "\n"),
}


@pytest.mark.parametrize("name", sorted(extensions))
def test_extension(_spark_started: None, name: str) -> None:
    assert_prints(name, *extensions[name])
