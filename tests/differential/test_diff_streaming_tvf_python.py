"""Python aggregate functions in window table function aggregations (``FROM TABLE(TUMBLE|HOP|
CUMULATE(...)) GROUP BY window_start, window_end, k``) over an unbounded source in streaming mode.

General ones are compared with PyFlink 2.3, which plans them as an updating group aggregation of the
windowed rows (not as a window operator): late rows count, and each (window, key) changes once per
bundle of its Python operator (``+I``, then ``-U``/``+U``). Files are published while the job runs
and each file's changes are awaited before the next is written. PyFlink may end a bundle anywhere in
a file (after 1 s, or at a watermark), so no file holds two rows of one (window, key): its changes
are then the same wherever the bundles end. In a SESSION table function's aggregation PyFlink runs a
general one as a window aggregation (each session once, +I). Pandas ones, which PyFlink 2.3 cannot
plan there, run as window aggregations (checked against hand-computed rows)."""

import pytest

from harness import (STREAMING_PRELUDE, Comparison, differential, event_table,  # noqa: F401 - the fixture
                     python_aggregates, run_ours)

SETUP = STREAMING_PRELUDE + event_table() + python_aggregates(merge=True) + """
t_env.create_temporary_function('total', total)
t_env.create_temporary_function('my_mean', mean)
"""

# Watermark 00:07 after the first file, 00:11 after the second, 00:19 after the third. a, 10 at
# 00:02 (file 2) and b, 1 at 00:04 (file 3) are late for a window operator; here they count.
FILES = ["'a,1,1970-01-01 00:00:01\\nb,3,1970-01-01 00:00:06\\na,2,1970-01-01 00:00:08\\n'",
         "'a,10,1970-01-01 00:00:02\\nb,7,1970-01-01 00:00:12\\na,4,1970-01-01 00:00:07\\n'",
         "'a,5,1970-01-01 00:00:13\\na,6,1970-01-01 00:00:20\\nb,1,1970-01-01 00:00:04\\n'"]


# For SESSION: watermark 00:05, 00:11, 00:19 after the files; no row that a later row of its own file
# makes late (Flink's watermark is per row, ours per micro-batch: in FILES[1] a, 4 at 00:07 comes
# after b, 7 at 00:12, whose watermark 00:11 fires a's session [8, 10) in Flink, so the row is dropped
# there and joins that session here; measured on PyFlink 2.3). b, 7 at 00:05 meets the watermark
# 00:05 and still joins b's open session [6, 8), as in GROUP BY SESSION (measured).
SESSION_FILES = ["'a,1,1970-01-01 00:00:01\\na,2,1970-01-01 00:00:03\\nb,3,1970-01-01 00:00:06\\n'",
                 "'a,10,1970-01-01 00:00:02\\nb,7,1970-01-01 00:00:05\\na,4,1970-01-01 00:00:12\\n'",
                 "'a,5,1970-01-01 00:00:13\\na,6,1970-01-01 00:00:20\\n'"]


def tvf(query: str, changes: list, files: list = FILES) -> str:
    """``query``'s changes after each of ``files``, ``changes[i]`` of them after file i."""
    program = SETUP + f"it = t_env.execute_sql(\"{query}\").collect()\n"
    for i, n in enumerate(changes):
        program += f"publish('f{i + 1}.csv', {files[i]})\ntake(it, {n})\n"
    return program + "it.close()\n"


TUMBLE = "TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '5' SECOND))"
HOP = "TABLE(HOP(TABLE ev, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '4' SECOND))"
CUMULATE = "TABLE(CUMULATE(TABLE ev, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '4' SECOND))"
SESSION = "TABLE(SESSION(TABLE ev PARTITION BY k, DESCRIPTOR(ts), INTERVAL '2' SECOND))"

programs = {
    # By hand: f1 +I a[0, 5) 1, b[5, 10) 3, a[5, 10) 2; f2 a[0, 5) -U 1 +U 11, a[5, 10) -U 2 +U 6,
    # +I b[10, 15) 7; f3 +I a[10, 15) 5, a[20, 25) 6, b[0, 5) 1.
    "tumble_general": tvf(f"SELECT window_start, window_end, k, total(v) AS t FROM {TUMBLE} "
                          "GROUP BY window_start, window_end, k", [3, 5, 3]),
    # Each row in two windows: f1 6 +I; f2 2 updates of a, 4 new windows; f3 5 new, 1 update of b[4, 8).
    "hop_general": tvf(f"SELECT window_start, window_end, k, total(v) AS t FROM {HOP} "
                       "GROUP BY k, window_start, window_end", [6, 8, 7]),
    # A row in [p, p + 2) and [p, p + 4), or only the latter: f1 5 +I; f2 a[0, 4) -U 1 +U 11, 3 new;
    # f3 4 new for a, b[4, 6) new and b[4, 8) -U 3 +U 4.
    "cumulate_general": tvf(f"SELECT window_start, window_end, k, total(v) AS t FROM {CUMULATE} "
                            "GROUP BY window_start, window_end, k", [5, 5, 7]),
    "tumble_expression_around_general": tvf(f"SELECT k, window_end, total(v) * 2 + 1 AS t FROM {TUMBLE} "
                                            "GROUP BY window_start, window_end, k", [3, 5, 3]),
    # SESSION is planned as a window aggregation there: each session fires once as +I (measured:
    # tests/reference/probe_stream_sql_windows.py tvf_session_general). Gap 2 s: a[1, 5) after f1;
    # a, 10 at 00:02 is late; b[5, 8) after f2; a[12, 15) after f3.
    "session_general": tvf(f"SELECT window_start, window_end, k, total(v) AS t FROM {SESSION} "
                           "GROUP BY window_start, window_end, k", [1, 1, 1], SESSION_FILES),
}


# A pandas aggregate function there: PyFlink 2.3 cannot plan it ("Cannot generate a valid execution
# plan for the given query", measured here and with tests/reference/probe_stream_sql_windows.py).
# FLIP-137 gives pandas aggregate functions window semantics, so here they run as Flink's window
# aggregation (as the built-ins there and as GROUP BY TUMBLE/HOP(...) do): each window fires once,
# as +I, when the watermark passes its end; a row is dropped from each of its windows that fired.
# Expected rows by hand (watermark 00:07, 00:11, 00:19 after the files). TUMBLE: a[0, 5) fires after
# f1; a, 10 at 00:02 is late; [5, 10) fires after f2 (a 2 and 4, b 3); [10, 15) after f3 (b, 1 at
# 00:04 is late). HOP: a, 10 at 00:02 is late for both its windows [0, 4) and [2, 6); b, 1 at 00:04
# for [2, 6) and [4, 8).
PANDAS = {
    "tumble_pandas": (
        f"SELECT window_start, k, my_mean(v) AS m FROM {TUMBLE} GROUP BY window_start, window_end, k", [1, 2, 2],
        "[['+I', '1970-01-01 00:00:00', 'a', '1.0']]\n"
        "[['+I', '1970-01-01 00:00:05', 'a', '3.0'], ['+I', '1970-01-01 00:00:05', 'b', '3.0']]\n"
        "[['+I', '1970-01-01 00:00:10', 'a', '5.0'], ['+I', '1970-01-01 00:00:10', 'b', '7.0']]\n"),
    "hop_pandas_with_built_ins": (
        f"SELECT window_start, k, my_mean(v) + 1 AS m, SUM(v) AS s, COUNT(*) AS c FROM {HOP} "
        "GROUP BY window_start, window_end, k", [2, 4, 5],
        "[['+I', '1969-12-31 23:59:58', 'a', '2.0', '1', '1'], ['+I', '1970-01-01 00:00:00', 'a', '2.0', '1', '1']]\n"
        "[['+I', '1970-01-01 00:00:04', 'a', '5.0', '4', '1'], ['+I', '1970-01-01 00:00:04', 'b', '4.0', '3', '1'], "
        "['+I', '1970-01-01 00:00:06', 'a', '4.0', '6', '2'], ['+I', '1970-01-01 00:00:06', 'b', '4.0', '3', '1']]\n"
        "[['+I', '1970-01-01 00:00:08', 'a', '3.0', '2', '1'], ['+I', '1970-01-01 00:00:10', 'a', '6.0', '5', '1'], "
        "['+I', '1970-01-01 00:00:10', 'b', '8.0', '7', '1'], ['+I', '1970-01-01 00:00:12', 'a', '6.0', '5', '1'], "
        "['+I', '1970-01-01 00:00:12', 'b', '8.0', '7', '1']]\n"),
    # CUMULATE 2 s / 4 s: a, 10 at 00:02 is late for its one window [0, 4); b, 1 at 00:04 for [4, 6) and [4, 8).
    "cumulate_pandas": (
        f"SELECT window_start, window_end, k, my_mean(v) AS m FROM {CUMULATE} GROUP BY window_start, window_end, k",
        [2, 3, 5],
        "[['+I', '1970-01-01 00:00:00', '1970-01-01 00:00:02', 'a', '1.0'], "
        "['+I', '1970-01-01 00:00:00', '1970-01-01 00:00:04', 'a', '1.0']]\n"
        "[['+I', '1970-01-01 00:00:04', '1970-01-01 00:00:08', 'a', '4.0'], "
        "['+I', '1970-01-01 00:00:04', '1970-01-01 00:00:08', 'b', '3.0'], "
        "['+I', '1970-01-01 00:00:08', '1970-01-01 00:00:10', 'a', '2.0']]\n"
        "[['+I', '1970-01-01 00:00:08', '1970-01-01 00:00:12', 'a', '2.0'], "
        "['+I', '1970-01-01 00:00:12', '1970-01-01 00:00:14', 'a', '5.0'], "
        "['+I', '1970-01-01 00:00:12', '1970-01-01 00:00:14', 'b', '7.0'], "
        "['+I', '1970-01-01 00:00:12', '1970-01-01 00:00:16', 'a', '5.0'], "
        "['+I', '1970-01-01 00:00:12', '1970-01-01 00:00:16', 'b', '7.0']]\n"),
    # SESSION, as GROUP BY SESSION(...) runs pandas UDAFs. By hand (gap 2 s, watermark 00:07, 00:11,
    # 00:19): a[1, 3) after f1; a, 10 at 00:02 is late, a, 4 at 00:07 merges with a, 2 into a[7, 10)
    # (PyFlink would drop it, see SESSION_FILES), fired with b[6, 8) after f2; b[12, 14) and a[13, 15)
    # after f3 (b, 1 at 00:04 is late).
    "session_pandas": (
        f"SELECT window_start, window_end, k, my_mean(v) AS m FROM {SESSION} GROUP BY window_start, window_end, k",
        [1, 2, 2],
        "[['+I', '1970-01-01 00:00:01', '1970-01-01 00:00:03', 'a', '1.0']]\n"
        "[['+I', '1970-01-01 00:00:06', '1970-01-01 00:00:08', 'b', '3.0'], "
        "['+I', '1970-01-01 00:00:07', '1970-01-01 00:00:10', 'a', '3.0']]\n"
        "[['+I', '1970-01-01 00:00:12', '1970-01-01 00:00:14', 'b', '7.0'], "
        "['+I', '1970-01-01 00:00:13', '1970-01-01 00:00:15', 'a', '5.0']]\n"),
}
# PyFlink runs each up to its refusal.
programs.update({name: SETUP + f"t_env.execute_sql(\"{query}\")\n" for name, (query, _, _) in PANDAS.items()})


@pytest.mark.parametrize("name", sorted(PANDAS))
def test_pandas_aggregate_as_a_window_aggregation(differential: Comparison, name: str) -> None:
    error = differential.pyflink[name]["error"]
    assert error is not None and "Cannot generate a valid execution plan" in error[1], differential.pyflink[name]
    query, changes, expected = PANDAS[name]
    got = run_ours({name: tvf(query, changes)})[name]
    assert got["error"] is None and got["stdout"] == expected, got


@pytest.mark.parametrize("name", sorted(set(programs) - set(PANDAS)))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    assert differential.pyflink[name]["error"] is None, differential.pyflink[name]  # both compute rows
    differential.assert_same(name)
