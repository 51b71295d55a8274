"""General Python aggregate functions in window table function aggregations (``FROM TABLE(TUMBLE|HOP(...)) GROUP BY window_start, window_end, k``) over an unbounded source in streaming mode,
compared with PyFlink 2.3. PyFlink plans them as an updating group aggregation of the windowed rows
(not as a window operator): late rows count, and each (window, key) changes once per bundle of its
Python operator (``+I``, then ``-U``/``+U``). Files are published while the job runs and each file's
changes are awaited before the next is written. PyFlink may end a bundle anywhere in a file (after
1 s, or at a watermark), so no file holds two rows of one (window, key): its changes are then the
same wherever the bundles end."""

import pytest

from harness import STREAMING_PRELUDE, Comparison, differential, event_table, python_aggregates  # noqa: F401

SETUP = STREAMING_PRELUDE + event_table() + python_aggregates(merge=True) + """
t_env.create_temporary_function('total', total)
"""

# Watermark 00:07 after the first file, 00:11 after the second, 00:19 after the third. a, 10 at
# 00:02 (file 2) and b, 1 at 00:04 (file 3) are late for a window operator; here they count.
FILES = ["'a,1,1970-01-01 00:00:01\\nb,3,1970-01-01 00:00:06\\na,2,1970-01-01 00:00:08\\n'",
         "'a,10,1970-01-01 00:00:02\\nb,7,1970-01-01 00:00:12\\na,4,1970-01-01 00:00:07\\n'",
         "'a,5,1970-01-01 00:00:13\\na,6,1970-01-01 00:00:20\\nb,1,1970-01-01 00:00:04\\n'"]


def tvf(query: str, changes: list) -> str:
    """``query``'s changes after each file, ``changes[i]`` of them after file i."""
    program = SETUP + f"it = t_env.execute_sql(\"{query}\").collect()\n"
    for i, n in enumerate(changes):
        program += f"publish('f{i + 1}.csv', {FILES[i]})\ntake(it, {n})\n"
    return program + "it.close()\n"


TUMBLE = "TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '5' SECOND))"
HOP = "TABLE(HOP(TABLE ev, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '4' SECOND))"

programs = {
    # By hand: f1 +I a[0, 5) 1, b[5, 10) 3, a[5, 10) 2; f2 a[0, 5) -U 1 +U 11, a[5, 10) -U 2 +U 6,
    # +I b[10, 15) 7; f3 +I a[10, 15) 5, a[20, 25) 6, b[0, 5) 1.
    "tumble_general": tvf(f"SELECT window_start, window_end, k, total(v) AS t FROM {TUMBLE} "
                          "GROUP BY window_start, window_end, k", [3, 5, 3]),
    # Each row in two windows: f1 6 +I; f2 2 updates of a, 4 new windows; f3 5 new, 1 update of b[4, 8).
    "hop_general": tvf(f"SELECT window_start, window_end, k, total(v) AS t FROM {HOP} "
                       "GROUP BY k, window_start, window_end", [6, 8, 7]),
    "tumble_expression_around_general": tvf(f"SELECT k, window_end, total(v) * 2 + 1 AS t FROM {TUMBLE} "
                                            "GROUP BY window_start, window_end, k", [3, 5, 3]),
}


@pytest.mark.parametrize("name", sorted(programs))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    assert differential.pyflink[name]["error"] is None, differential.pyflink[name]  # both compute rows
    differential.assert_same(name)
