"""Window table function aggregations (``FROM TABLE(TUMBLE|HOP|CUMULATE(...)) GROUP BY k,
window_start, window_end``) over an unbounded source in streaming mode, compared with PyFlink 2.3:
files are published while the job runs and each file's fired windows are awaited before the next
file is written (an engine that answers only at the end of its input fails)."""

import pytest

from harness import (EVENT_COLUMNS, STREAMING_PRELUDE, TAKE_MULTISETS, Comparison, assert_prints,  # noqa: F401
                     differential, event_table, monitored_table)

SETUP = STREAMING_PRELUDE + event_table()
# ev with NULL values: the CSV text null is NULL (Flink's CSV format refuses an empty INT field).
NULLS_SETUP = STREAMING_PRELUDE + event_table(options="'csv.null-literal' = 'null'")

# Watermark 00:05 after the first file, 00:11 after the second, 00:19 after the third. The second
# file's a, 10 at 00:02 is late for the windows that fired after the first file (TUMBLE [0, 5), HOP
# [0, 4), CUMULATE [0, 2) and [0, 4)) and still counts in the HOP window [2, 6) and the CUMULATE
# window [0, 6), as in Flink's window aggregation.
FILES = ["'a,1,1970-01-01 00:00:01\\na,2,1970-01-01 00:00:03\\nb,3,1970-01-01 00:00:06\\n'",
         "'a,10,1970-01-01 00:00:02\\nb,7,1970-01-01 00:00:05\\na,4,1970-01-01 00:00:12\\n'",
         "'a,5,1970-01-01 00:00:13\\na,6,1970-01-01 00:00:20\\n'"]


def tvf(query: str, fired: list, files: list = FILES, take: str = "take", setup: str = SETUP,
        schema: bool = False) -> str:
    """``query``'s changes after each of ``files``, ``fired[i]`` of them after file i, taken with
    ``take`` (``take_multisets`` for a MULTISET, whose items' order differs), over ``setup``'s ``ev``;
    with ``schema``, its schema printed first, without PyFlink's *ROWTIME* mark (which the schema
    here does not say)."""
    program = (setup + (TAKE_MULTISETS if take == "take_multisets" else "")
               + (f"print(str(t_env.sql_query(\"{query}\").get_resolved_schema()).replace(' *ROWTIME*', ''))\n"
                  if schema else "")
               + f"it = t_env.execute_sql(\"{query}\").collect()\n")
    for i, n in enumerate(fired):
        program += f"publish('f{i + 1}.csv', {files[i]})\n{take}(it, {n})\n"
    return program + "it.close()\n"


TUMBLE = "TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '5' SECOND))"
HOP = "TABLE(HOP(TABLE ev, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '4' SECOND))"
CUMULATE = "TABLE(CUMULATE(TABLE ev, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND))"
# Sessions with a 2 s gap: after the first file a's [1, 5) fires (1 and 3 touch); the second file's
# a, 10 at 00:02 is late, b, 7 at 00:05 merges with b, 3 into [5, 8); a, 5 at 00:13 merges with
# a, 4 into [12, 15). Without PARTITION BY (and no key) the sessions are global: the same here.
SESSION = "TABLE(SESSION(TABLE ev PARTITION BY k, DESCRIPTOR(ts), INTERVAL '2' SECOND))"
GLOBAL_SESSION = "TABLE(SESSION(TABLE ev, DESCRIPTOR(ts), INTERVAL '2' SECOND))"
# NULL values: a's [0, 5) holds 1, NULL, NULL; b's [5, 10) (and its session) only NULLs; a's [10, 15) 4, NULL.
NULL_FILES = ["'a,1,1970-01-01 00:00:01\\na,null,1970-01-01 00:00:02\\na,null,1970-01-01 00:00:03\\n"
              "b,null,1970-01-01 00:00:06\\n'", "'b,null,1970-01-01 00:00:07\\na,4,1970-01-01 00:00:12\\n'",
              "'a,null,1970-01-01 00:00:13\\na,6,1970-01-01 00:00:20\\n'"]

programs = {
    "tumble_builtin": tvf(f"SELECT k, window_start, window_end, window_time, SUM(v), COUNT(*), MIN(v), MAX(v), "
                          f"AVG(v) FROM {TUMBLE} GROUP BY k, window_start, window_end, window_time", [1, 1, 1]),
    "hop_builtin": tvf(f"SELECT window_start, window_end, k, SUM(v) AS s, COUNT(v) AS c FROM {HOP} "
                       "GROUP BY k, window_start, window_end", [2, 4, 2]),
    "cumulate_builtin": tvf(f"SELECT k, window_start, window_end, SUM(v), MAX(v) FROM {CUMULATE} "
                            "GROUP BY window_start, window_end, k", [2, 4, 4]),
    # a, 1 twice in [0, 5) and a, 4 in [10, 15) (files 2 and 3): DISTINCT counts each once.
    "tumble_distinct": tvf(f"SELECT k, window_start, window_end, COUNT(DISTINCT v) AS cd, SUM(DISTINCT v) AS sd, "
                           f"AVG(DISTINCT v), MAX(DISTINCT v), COUNT(*) FROM {TUMBLE} GROUP BY k, window_start, window_end",
                           [1, 1, 1], ["'a,1,1970-01-01 00:00:01\\na,1,1970-01-01 00:00:02\\na,2,1970-01-01 00:00:03\\n"
                                       "b,3,1970-01-01 00:00:06\\n'", FILES[1],
                                       "'a,5,1970-01-01 00:00:13\\na,4,1970-01-01 00:00:14\\na,6,1970-01-01 00:00:20\\n'"]),
    # DISTINCT with FILTER: the filter picks the values first (an empty pick: COUNT 0, AVG NULL).
    "tumble_distinct_filter": tvf(f"SELECT k, window_start, COUNT(DISTINCT v) FILTER (WHERE v > 1) AS cd, "
                                  "SUM(DISTINCT v) FILTER (WHERE v <> 2) AS sd, AVG(DISTINCT v) FILTER (WHERE v > 4) AS ad, "
                                  f"MAX(DISTINCT v) FILTER (WHERE v < 5) AS md FROM {TUMBLE} "
                                  "GROUP BY k, window_start, window_end",
                                  [1, 1, 1], ["'a,1,1970-01-01 00:00:01\\na,1,1970-01-01 00:00:02\\na,2,1970-01-01 00:00:03\\n"
                                              "b,3,1970-01-01 00:00:06\\n'", FILES[1],
                                              "'a,5,1970-01-01 00:00:13\\na,4,1970-01-01 00:00:14\\na,5,1970-01-01 00:00:14\\n"
                                              "a,6,1970-01-01 00:00:20\\n'"]),
    # SUM, COUNT and AVG (DISTINCT) of a DECIMAL: a's 1.00 twice in [0, 5) counts once.
    "tumble_distinct_decimal": tvf(f"SELECT k, window_start, SUM(DISTINCT CAST(v AS DECIMAL(10, 2))) AS sd, "
                                   f"COUNT(DISTINCT CAST(v AS DECIMAL(10, 2))) AS cd, "
                                   f"AVG(DISTINCT CAST(v AS DECIMAL(10, 2))) AS ad FROM {TUMBLE} "
                                   "GROUP BY k, window_start, window_end",
                                   [1, 1, 1], ["'a,1,1970-01-01 00:00:01\\na,1,1970-01-01 00:00:02\\na,2,1970-01-01 00:00:03\\n"
                                               "b,3,1970-01-01 00:00:06\\n'", FILES[1],
                                               "'a,5,1970-01-01 00:00:13\\na,4,1970-01-01 00:00:14\\na,6,1970-01-01 00:00:20\\n'"]),
    "session_builtin": tvf(f"SELECT k, window_start, window_end, window_time, SUM(v), COUNT(*), MAX(v) FROM {SESSION} "
                           "GROUP BY k, window_start, window_end, window_time", [1, 1, 1]),
    "session_global": tvf(f"SELECT window_start, window_end AS we, SUM(v) AS s, COUNT(v) FROM {GLOBAL_SESSION} "
                          "GROUP BY window_start, window_end", [1, 1, 1]),
    # The function's rows themselves: each emitted once its session fires, with the merged
    # session's bounds (a, 10 at 00:02 is late and dropped); a filter above applies to the rows, not
    # to the sessions (a, 1 still starts a's first session).
    "session_rows": tvf(f"SELECT * FROM {SESSION}", [2, 2, 2], schema=True),
    "session_rows_filtered": tvf(f"SELECT k, v, window_start, window_end FROM {SESSION} WHERE v > 1", [1, 2, 2],
                                 schema=True),
    # Flink's late boundary (end - 1 ms): b, 4 at 00:09.001 meets the watermark 00:11, the last
    # instant of its own window [00:09.001, 00:11.001), after b's session fired: dropped.
    # Its schema printed too (window_end, window_time a TIMESTAMP(3) NOT NULL; the aggregations with
    # COUNT are not: a nullable BIGINT here, docs/streaming.rst).
    "session_late_boundary": tvf(f"SELECT k, window_end, window_time, SUM(v) FROM {SESSION} "
                                 "GROUP BY k, window_start, window_end, window_time",
                                 [1, 1, 1], ["'b,1,1970-01-01 00:00:06\\na,2,1970-01-01 00:00:12\\n'",
                                             "'b,4,1970-01-01 00:00:09.001\\nc,8,1970-01-01 00:00:30\\n'",
                                             "'d,16,1970-01-01 00:00:50\\n'"], schema=True),
    # A row late for its own window that touches its key's open session joins it, as in
    # test_diff_streaming_windows.py: a, 5 at 00:07 joins a's [00:08, 00:14) at the watermark 00:11.
    "session_late_touches_open": tvf(f"SELECT k, window_start, window_end, SUM(v), COUNT(*) FROM {SESSION} "
                                     "GROUP BY k, window_start, window_end", [1, 2],
                                     ["'b,0,1970-01-01 00:00:01\\na,1,1970-01-01 00:00:08\\na,2,1970-01-01 00:00:10\\n"
                                      "a,3,1970-01-01 00:00:12\\nc,4,1970-01-01 00:00:12\\n'",
                                      "'a,5,1970-01-01 00:00:07\\nc,6,1970-01-01 00:00:30\\n'"]),
    # The same with built-ins beyond SUM, COUNT, MIN, MAX, AVG: STDDEV/VAR, a DECIMAL's SUM/AVG, FILTER.
    "session_late_touches_open_more": tvf(f"SELECT k, window_start, STDDEV_POP(v), VAR_SAMP(v), "
                                          "STDDEV_SAMP(CAST(v AS DECIMAL(10, 2))), SUM(CAST(v AS DECIMAL(10, 2))), "
                                          "AVG(CAST(v AS DECIMAL(10, 2))), SUM(v) FILTER (WHERE v > 1), "
                                          f"COUNT(*) FILTER (WHERE v <> 3) FROM {SESSION} "
                                          "GROUP BY k, window_start, window_end", [1, 2],
                                          ["'b,0,1970-01-01 00:00:01\\na,1,1970-01-01 00:00:08\\na,2,1970-01-01 00:00:10\\n"
                                           "a,3,1970-01-01 00:00:12\\nc,4,1970-01-01 00:00:12\\n'",
                                           "'a,5,1970-01-01 00:00:07\\nc,6,1970-01-01 00:00:30\\n'"]),
    # LISTAGG (Flink's ',' and given separators, DISTINCT, FILTER) and ARRAY_AGG too: the late a, 5
    # joins last.
    "session_late_touches_open_listagg": tvf("SELECT k, window_start, LISTAGG(CAST(v AS STRING)), "
                                             "LISTAGG(CAST(v AS STRING), ';'), LISTAGG(DISTINCT k, ''), "
                                             "LISTAGG(CAST(v AS STRING), '-') FILTER (WHERE v <> 2), "
                                             "ARRAY_AGG(v), ARRAY_AGG(v) FILTER (WHERE v <> 2) "
                                             f"FROM {SESSION} GROUP BY k, window_start, window_end", [1, 2],
                                             ["'b,0,1970-01-01 00:00:01\\na,1,1970-01-01 00:00:08\\n"
                                              "a,2,1970-01-01 00:00:10\\na,3,1970-01-01 00:00:12\\n"
                                              "c,4,1970-01-01 00:00:12\\n'",
                                              "'a,5,1970-01-01 00:00:07\\nc,6,1970-01-01 00:00:30\\n'"]),
    # COLLECT (a MULTISET: each value with its count; DISTINCT counts each once; FILTER picks the
    # values), in a TUMBLE table function's and a GROUP BY TUMBLE window (a, 1 twice in [0, 5)) and
    # in sessions, where the late a, 5 joins a's open session (a, 2 twice there).
    "tumble_collect": tvf(f"SELECT k, window_start, COLLECT(v) AS c, COLLECT(DISTINCT v) AS cd, "
                          f"COLLECT(v) FILTER (WHERE v > 1) AS cf FROM {TUMBLE} GROUP BY k, window_start, window_end",
                          [1, 1, 1], ["'a,1,1970-01-01 00:00:01\\na,1,1970-01-01 00:00:02\\na,2,1970-01-01 00:00:03\\n"
                                      "b,3,1970-01-01 00:00:06\\n'", FILES[1], FILES[2]], take="take_multisets"),
    "group_window_tumble_collect": tvf("SELECT k, TUMBLE_END(ts, INTERVAL '5' SECOND) AS e, COLLECT(v) AS c, "
                                       "COLLECT(DISTINCT v) AS cd, COLLECT(v) FILTER (WHERE v > 1) AS cf FROM ev "
                                       "GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND)",
                                       [1, 1, 1], ["'a,1,1970-01-01 00:00:01\\na,1,1970-01-01 00:00:02\\n"
                                                   "a,2,1970-01-01 00:00:03\\nb,3,1970-01-01 00:00:06\\n'",
                                                   FILES[1], FILES[2]], take="take_multisets"),
    "session_late_touches_open_collect": tvf("SELECT k, window_start, COLLECT(v) AS c, COLLECT(DISTINCT v) AS cd, "
                                             "COLLECT(v) FILTER (WHERE v <> 2) AS cf, COUNT(*) AS n "
                                             f"FROM {SESSION} GROUP BY k, window_start, window_end", [1, 2],
                                             ["'b,0,1970-01-01 00:00:01\\na,1,1970-01-01 00:00:08\\n"
                                              "a,2,1970-01-01 00:00:10\\na,2,1970-01-01 00:00:11\\n"
                                              "a,3,1970-01-01 00:00:12\\nc,4,1970-01-01 00:00:12\\n'",
                                              "'a,5,1970-01-01 00:00:07\\nc,6,1970-01-01 00:00:30\\n'"],
                                             take="take_multisets"),
    # ARRAY_AGG keeps NULL values (as text: PyFlink 2.3 cannot collect an ARRAY holding a NULL,
    # EOFError), IGNORE NULLS drops them (only NULLs: NULL), FILTER of no row is NULL, DISTINCT keeps
    # one NULL; in a TUMBLE table function (Spark's aggregation) and GROUP BY SESSION (the window
    # processor). (PyFlink 2.3 puts the NULL first in a window table function's ARRAY_AGG(DISTINCT):
    # left out.)
    "tumble_array_agg_nulls": tvf(f"SELECT k, window_start, CAST(ARRAY_AGG(v) AS STRING) AS a, "
                                  "ARRAY_AGG(v) IGNORE NULLS AS i, CARDINALITY(ARRAY_AGG(v)) AS n "
                                  f"FROM {TUMBLE} GROUP BY k, window_start, window_end", [1, 1, 1], NULL_FILES,
                                  setup=NULLS_SETUP),
    "group_session_array_agg_nulls": tvf("SELECT k, SESSION_END(ts, INTERVAL '2' SECOND) AS e, "
                                         "CAST(ARRAY_AGG(v) AS STRING) AS a, ARRAY_AGG(v) IGNORE NULLS AS i, "
                                         "CAST(ARRAY_AGG(DISTINCT v) AS STRING) AS d, "
                                         "CAST(ARRAY_AGG(v) FILTER (WHERE v > 3) AS STRING) AS f "
                                         "FROM ev GROUP BY k, SESSION(ts, INTERVAL '2' SECOND)", [1, 1, 1],
                                         NULL_FILES, setup=NULLS_SETUP),
}

# PyFlink 2.3 fails on a MULTISET's CARDINALITY in SQL (CodeGenException: Expect an array or a
# map.); ours counts every occurrence, as Flink's Table API: a's [0, 5) holds 1, 1, 2 (DISTINCT:
# 1, 2), b's [5, 10) 3, 7, a's [10, 15) 4, 5 (a, 10 at 00:02 is late).
extensions = {
    "tumble_cardinality_of_collect": (
        tvf(f"SELECT k, window_start, CARDINALITY(COLLECT(v)) AS n, CARDINALITY(COLLECT(DISTINCT v)) AS nd "
            f"FROM {TUMBLE} GROUP BY k, window_start, window_end", [1, 1, 1],
            ["'a,1,1970-01-01 00:00:01\\na,1,1970-01-01 00:00:02\\na,2,1970-01-01 00:00:03\\n"
             "b,3,1970-01-01 00:00:06\\n'", FILES[1], FILES[2]]),
        "[['+I', 'a', '1970-01-01 00:00:00', '3', '2']]\n[['+I', 'b', '1970-01-01 00:00:05', '2', '2']]\n"
        "[['+I', 'a', '1970-01-01 00:00:10', '2', '2']]\n"),
}

# JSON_ARRAYAGG and JSON_OBJECTAGG over ev with NULL values ('null' in the files): a, NULL at 00:03
# and b, NULL at 00:02. Each key once per file, so that the updating aggregation's changes are
# Flink's (it emits one change per key and file, Flink one per row: docs/streaming.rst).
JSON_SETUP = (STREAMING_PRELUDE + "d = tempfile.mkdtemp()\npublish = lambda name, text: publish_file(d, name, text)\n"
              + monitored_table("ev", EVENT_COLUMNS, options="'csv.null-literal' = 'null'"))
JSON_FILES = ["'a,1,1970-01-01 00:00:01\\nb,null,1970-01-01 00:00:02\\n'",
              "'a,null,1970-01-01 00:00:03\\nb,2,1970-01-01 00:00:07\\n'",
              "'a,3,1970-01-01 00:00:04\\nc,5,1970-01-01 00:00:20\\n'"]
# The same rows in two files for the windows, each file firing some (awaited before the next is
# published): the watermark is 00:06 after the first, 00:19 after the second, whose a, 3 at 00:04 is
# late for TUMBLE's [0, 5) and a's session [1, 5) and counts in HOP's [4, 8).
JSON_WINDOW_FILES = [JSON_FILES[0][:-1] + JSON_FILES[1][1:], JSON_FILES[2]]
JSON_AGGREGATES = ("JSON_ARRAYAGG(v) AS a, JSON_ARRAYAGG(v NULL ON NULL) AS an, "
                   "JSON_OBJECTAGG(KEY CAST(ts AS STRING) VALUE v) AS o, "
                   "JSON_OBJECTAGG(CAST(ts AS STRING) : v ABSENT ON NULL) AS oa")


def json_program(query: str, fired: list, files: list = JSON_WINDOW_FILES) -> str:
    """``query`` over the JSON programs' ``ev``, ``fired[i]`` changes awaited after file i."""
    return tvf(query, fired, files).replace(SETUP, JSON_SETUP, 1)


programs.update({
    # A TUMBLE table function and an updating GROUP BY run both (texts compared exactly, VARCHAR(2000)
    # NOT NULL); a HOP and a SESSION table function JSON_OBJECTAGG, which has a 'merge' method.
    "tumble_json_aggregates": json_program(f"SELECT k, window_start, {JSON_AGGREGATES} FROM {TUMBLE} "
                                           "GROUP BY k, window_start, window_end", [2, 1]),
    "updating_json_aggregates": json_program(f"SELECT k, {JSON_AGGREGATES} FROM ev GROUP BY k", [2, 4, 3], JSON_FILES),
    "hop_json_objectagg": json_program(f"SELECT k, window_start, JSON_OBJECTAGG(KEY CAST(ts AS STRING) VALUE v) "
                                       f"FROM {HOP} GROUP BY k, window_start, window_end", [5, 3]),
    "session_json_objectagg": json_program(f"SELECT k, window_start, window_end, JSON_OBJECTAGG(KEY CAST(ts AS "
                                           f"STRING) VALUE v ABSENT ON NULL) FROM {SESSION} "
                                           "GROUP BY k, window_start, window_end", [2, 1]),
    # PyFlink 2.3 refuses JSON_ARRAYAGG in HOP, CUMULATE and SESSION table functions (no 'merge'
    # method) and both in group windows (no 'accumulate' method).
    "hop_json_arrayagg": json_program(f"SELECT k, window_start, JSON_ARRAYAGG(v) FROM {HOP} "
                                      "GROUP BY k, window_start, window_end", [5]),
    "session_json_arrayagg": json_program(f"SELECT k, window_start, JSON_ARRAYAGG(v NULL ON NULL) FROM {SESSION} "
                                          "GROUP BY k, window_start, window_end", [2]),
    "group_window_session_json_objectagg": json_program("SELECT k, JSON_OBJECTAGG(KEY CAST(ts AS STRING) VALUE v) "
                                                        "FROM ev GROUP BY k, SESSION(ts, INTERVAL '2' SECOND)", [2]),
})
JSON_REFUSALS = {"hop_json_arrayagg": "merge", "session_json_arrayagg": "merge",
                 "group_window_session_json_objectagg": "accumulate"}


@pytest.mark.parametrize("name", sorted(programs))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same(name)


@pytest.mark.parametrize("name", sorted(extensions))
def test_extension(_spark_started: None, name: str) -> None:
    assert_prints(name, *extensions[name])


@pytest.mark.parametrize("name", sorted(JSON_REFUSALS))
def test_json_aggregate_refusals(differential: Comparison, name: str) -> None:
    differential.assert_same_refusal(name, starts_with=f"Could not find an implementation method '{JSON_REFUSALS[name]}' ")
