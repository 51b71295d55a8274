"""Flink SQL windowing in batch mode: GROUP BY TUMBLE/HOP/SESSION with their _START/_END/_ROWTIME
functions, the TUMBLE/HOP/CUMULATE window table functions, and OVER clauses.

Values marked "PyFlink" were measured with PyFlink 2.3 batch mode by tests/reference/probe_windows.py
(case names S1, S2, ...). PyFlink batch refuses GROUP BY SESSION and RANGE frames with INTERVAL bounds;
those expectations are hand-computed.
"""

from __future__ import annotations

import datetime as dt

import pytest

from pyflink_table.errors import TableException, ValidationException

from conftest import sorted_rows
from window_data import DATA, SCHEMA

T = dt.datetime


# PyFlink S1/S4: 10-minute tumbling windows per key.
TUMBLE_10 = [
    ("a", T(2024, 1, 1, 23, 50), T(2024, 1, 2, 0, 0), T(2024, 1, 1, 23, 59, 59, 999000), 3),
    ("a", T(2024, 1, 2, 0, 0), T(2024, 1, 2, 0, 10), T(2024, 1, 2, 0, 9, 59, 999000), 11),
    ("a", T(2024, 1, 2, 0, 20), T(2024, 1, 2, 0, 30), T(2024, 1, 2, 0, 29, 59, 999000), 5),
    ("b", T(2024, 1, 2, 0, 0), T(2024, 1, 2, 0, 10), T(2024, 1, 2, 0, 9, 59, 999000), 4),
    ("b", T(2024, 1, 2, 0, 30), T(2024, 1, 2, 0, 40), T(2024, 1, 2, 0, 39, 59, 999000), 6),
]
# PyFlink S2/S5: 1-hour windows every 15 minutes.
HOP_1H = [
    (T(2024, 1, 1, 23, 0), T(2024, 1, 2, 0, 0), 3),
    (T(2024, 1, 1, 23, 15), T(2024, 1, 2, 0, 15), 18),
    (T(2024, 1, 1, 23, 30), T(2024, 1, 2, 0, 30), 23),
    (T(2024, 1, 1, 23, 45), T(2024, 1, 2, 0, 45), 29),
    (T(2024, 1, 2, 0, 0), T(2024, 1, 2, 1, 0), 26),
    (T(2024, 1, 2, 0, 15), T(2024, 1, 2, 1, 15), 11),
    (T(2024, 1, 2, 0, 30), T(2024, 1, 2, 1, 30), 6),
]


@pytest.fixture()
def env(t_env: Any) -> Any:
    t_env.create_temporary_view("t", t_env.from_elements(DATA, SCHEMA))
    return t_env


def test_group_window_functions_match_pyflink(env: Any) -> None:
    tumble = env.sql_query(
        "SELECT k, TUMBLE_START(ts, INTERVAL '10' MINUTE) AS ws, TUMBLE_END(ts, INTERVAL '10' MINUTE) AS we, "
        "TUMBLE_ROWTIME(ts, INTERVAL '10' MINUTE) AS wr, COUNT(*) AS c, SUM(v) AS s FROM t "
        "GROUP BY TUMBLE(ts, INTERVAL '10' MINUTE), k")
    # PyFlink S1 (COUNT(*) counts the row with a NULL v too).
    counts = {("a", T(2024, 1, 1, 23, 50)): 2, ("a", T(2024, 1, 2, 0, 0)): 2, ("a", T(2024, 1, 2, 0, 20)): 1,
              ("b", T(2024, 1, 2, 0, 0)): 1, ("b", T(2024, 1, 2, 0, 30)): 2}
    got = sorted_rows(tumble)
    assert [r[:4] + (r[5],) for r in got] == TUMBLE_10
    assert [counts[(r[0], r[1])] for r in got] == [r[4] for r in got]
    hop = env.sql_query(
        "SELECT HOP_START(ts, INTERVAL '15' MINUTE, INTERVAL '1' HOUR) AS ws, "
        "HOP_END(ts, INTERVAL '15' MINUTE, INTERVAL '1' HOUR) AS we, SUM(v) AS s FROM t "
        "GROUP BY HOP(ts, INTERVAL '15' MINUTE, INTERVAL '1' HOUR)")
    assert sorted_rows(hop) == HOP_1H
    # Hand-computed (PyFlink batch cannot plan SQL session windows): a's rows up to midnight form one
    # session ending 10 minutes after 00:00; b's 00:31 and 00:32 form one.
    session = env.sql_query(
        "SELECT k, SESSION_START(ts, INTERVAL '10' MINUTE) AS ws, SESSION_END(ts, INTERVAL '10' MINUTE) AS we, "
        "SUM(v) AS s FROM t GROUP BY SESSION(ts, INTERVAL '10' MINUTE), k")
    assert sorted_rows(session) == [
        ("a", T(2024, 1, 1, 23, 55), T(2024, 1, 2, 0, 10), 14), ("a", T(2024, 1, 2, 0, 25), T(2024, 1, 2, 0, 35), 5),
        ("b", T(2024, 1, 2, 0, 4, 0, 500000), T(2024, 1, 2, 0, 14, 0, 500000), 4),
        ("b", T(2024, 1, 2, 0, 31), T(2024, 1, 2, 0, 42), 6)]


def test_session_window_table_function_aggregations(env: Any) -> None:
    # Hand-computed (PyFlink 2.3 batch refuses the SESSION table function; its streaming mode runs
    # it: tests/differential/test_diff_streaming_tvf.py). Per key with a 10-minute gap, as the
    # GROUP BY SESSION case above; window_time is window_end - 1 ms.
    def ms_before(t: dt.datetime) -> dt.datetime:
        return t - dt.timedelta(milliseconds=1)

    per_key = [("a", T(2024, 1, 1, 23, 55), T(2024, 1, 2, 0, 10), 14, 4),
               ("a", T(2024, 1, 2, 0, 25), T(2024, 1, 2, 0, 35), 5, 1),
               ("b", T(2024, 1, 2, 0, 4, 0, 500000), T(2024, 1, 2, 0, 14, 0, 500000), 4, 1),
               ("b", T(2024, 1, 2, 0, 31), T(2024, 1, 2, 0, 42), 6, 2)]
    for table in ("TABLE t PARTITION BY k", "TABLE t PARTITION BY (k)"):
        session = env.sql_query(
            "SELECT k, window_start, window_end, window_time, SUM(v) AS s, COUNT(*) AS c FROM "
            f"TABLE(SESSION({table}, DESCRIPTOR(ts), INTERVAL '10' MINUTES)) GROUP BY k, window_start, window_end, "
            "window_time")
        assert sorted_rows(session) == [(k, s, e, ms_before(e), v, c) for k, s, e, v, c in per_key]
    # Without PARTITION BY nor keys, sessions span all rows: b's 00:04:00.5 joins a's first session.
    global_session = env.sql_query(
        "SELECT window_start, window_end, SUM(v) AS s FROM TABLE(SESSION(TABLE t, DESCRIPTOR(ts), "
        "INTERVAL '10' MINUTES)) GROUP BY window_start, window_end")
    assert sorted_rows(global_session) == [(T(2024, 1, 1, 23, 55), T(2024, 1, 2, 0, 14, 0, 500000), 18),
                                           (T(2024, 1, 2, 0, 25), T(2024, 1, 2, 0, 42), 11)]
    # Keys other than the PARTITION BY ones: an aggregation of the sessions' rows (Flink's plan in
    # streaming mode), here of the global sessions above by k: per_key's sums, each key's rows within
    # the global session they fall in.
    by_other_keys = env.sql_query("SELECT k, window_start, window_end, SUM(v) FROM TABLE(SESSION(TABLE t, "
                                  "DESCRIPTOR(ts), INTERVAL '10' MINUTES)) GROUP BY k, window_start, window_end")
    assert sorted_rows(by_other_keys) == [("a", T(2024, 1, 1, 23, 55), T(2024, 1, 2, 0, 14, 0, 500000), 14),
                                          ("a", T(2024, 1, 2, 0, 25), T(2024, 1, 2, 0, 42), 5),
                                          ("b", T(2024, 1, 1, 23, 55), T(2024, 1, 2, 0, 14, 0, 500000), 4),
                                          ("b", T(2024, 1, 2, 0, 25), T(2024, 1, 2, 0, 42), 6)]
    # The function's rows themselves carry their session's bounds: grouped here by hand, they give
    # per_key's sessions (over a stream each row is emitted once its session closes, as in PyFlink 2.3:
    # session_rows* in tests/differential/test_diff_streaming_tvf.py).
    rows = env.sql_query("SELECT k, v, window_start, window_end, window_time FROM TABLE(SESSION(TABLE t PARTITION BY "
                         "k, DESCRIPTOR(ts), INTERVAL '10' MINUTES))").execute().collect()
    grouped: dict = {}
    for k, v, start, end, time in rows:
        assert time == ms_before(end)
        s, c = grouped.get((k, start, end), (0, 0))
        grouped[(k, start, end)] = (s + (v or 0), c + 1)  # SUM skips NULLs, COUNT(*) counts them
    assert sorted((k, s, e, v, c) for (k, s, e), (v, c) in grouped.items()) == per_key
    with pytest.raises(ValidationException, match="TUMBLE takes no PARTITION BY"):
        env.sql_query("SELECT * FROM TABLE(TUMBLE(TABLE t PARTITION BY k, DESCRIPTOR(ts), INTERVAL '10' MINUTES))")


def test_window_table_functions_match_pyflink(env: Any) -> None:
    tumble = env.sql_query(
        "SELECT k, window_start, window_end, window_time, SUM(v) AS s "
        "FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '10' MINUTES)) GROUP BY k, window_start, window_end, window_time")
    assert sorted_rows(tumble) == TUMBLE_10  # PyFlink S4
    hop = env.sql_query(
        "SELECT window_start, window_end, SUM(v) AS s "
        "FROM TABLE(HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '15' MINUTES, INTERVAL '1' HOUR)) GROUP BY window_start, window_end")
    assert sorted_rows(hop) == HOP_1H  # PyFlink S5
    cumulate = env.sql_query(
        "SELECT window_start, window_end, SUM(v) AS s FROM TABLE(CUMULATE(DATA => TABLE t, TIMECOL => DESCRIPTOR(ts), "
        "STEP => INTERVAL '10' MINUTES, SIZE => INTERVAL '30' MINUTES)) GROUP BY window_start, window_end")
    assert sorted_rows(cumulate) == [  # PyFlink S6
        (T(2024, 1, 1, 23, 30), T(2024, 1, 2, 0, 0), 3), (T(2024, 1, 2, 0, 0), T(2024, 1, 2, 0, 10), 15),
        (T(2024, 1, 2, 0, 0), T(2024, 1, 2, 0, 20), 15), (T(2024, 1, 2, 0, 0), T(2024, 1, 2, 0, 30), 20),
        (T(2024, 1, 2, 0, 30), T(2024, 1, 2, 0, 40), 6), (T(2024, 1, 2, 0, 30), T(2024, 1, 2, 0, 50), 6),
        (T(2024, 1, 2, 0, 30), T(2024, 1, 2, 1, 0), 6)]
    raw = env.sql_query("SELECT * FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '10' MINUTES))")
    # PyFlink S7: the input columns followed by the three window columns, one row per input row.
    assert raw.get_schema().get_field_names() == ["k", "v", "ts", "window_start", "window_end", "window_time"]
    assert [r[:4] for r in sorted_rows(raw) if r[0] == "a"][:2] == [
        ("a", 1, T(2024, 1, 1, 23, 55), T(2024, 1, 1, 23, 50)),
        ("a", 2, T(2024, 1, 1, 23, 59, 59, 999000), T(2024, 1, 1, 23, 50))]


def test_sql_over_windows(env: Any) -> None:
    over = env.sql_query(
        "SELECT k, v, ts, SUM(v) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '10' MINUTE PRECEDING "
        "AND CURRENT ROW) AS s10, SUM(v) OVER (PARTITION BY k ORDER BY ts) AS sd, "
        "RANK() OVER (PARTITION BY k ORDER BY ts) AS rk FROM t")
    got = sorted_rows(over)
    # Hand-computed RANGE 10 minutes (PyFlink batch fails at run time on it); default frame and RANK
    # from PyFlink Q2 and P9.
    assert [(r[0], r[1], r[3], r[4], r[5]) for r in got] == [
        ("a", 1, 1, 1, 1), ("a", 2, 3, 3, 2), ("a", 3, 14, 14, 3), ("a", 5, 5, 19, 5), ("a", 8, 14, 14, 3),
        ("b", None, 6, 10, 3), ("b", 4, 4, 4, 1), ("b", 6, 6, 10, 2)]


def test_python_aggregates_in_a_session_window_table_function(env: Any) -> None:
    # Hand-computed (PyFlink 2.3 batch refuses the function): the per-key sessions of
    # test_session_window_table_function_aggregations, their sums by a general aggregate function and
    # their means by a pandas one.
    from pyflink_table import DataTypes
    from pyflink_table.udf import AggregateFunction, udaf

    class Total(AggregateFunction):  # type: ignore[misc]
        def create_accumulator(self) -> list:
            return [0]

        def accumulate(self, acc: list, v: Any) -> None:
            acc[0] += v or 0

        def merge(self, acc: list, accs: list) -> None:
            for a in accs:
                acc[0] += a[0]

        def get_value(self, acc: list) -> int:
            return acc[0]

    env.create_temporary_function("total", udaf(Total(), result_type=DataTypes.BIGINT(),
                                                accumulator_type=DataTypes.ARRAY(DataTypes.BIGINT())))
    env.create_temporary_function("my_count", udaf(lambda v: float(len(v)), result_type=DataTypes.DOUBLE(),
                                                   func_type="pandas"))
    got = env.sql_query("SELECT k, window_start, window_end, total(v) AS t, my_count(v) AS c FROM TABLE(SESSION("
                        "TABLE t PARTITION BY k, DESCRIPTOR(ts), INTERVAL '10' MINUTES)) GROUP BY k, window_start, "
                        "window_end")
    assert sorted_rows(got) == [
        ("a", T(2024, 1, 1, 23, 55), T(2024, 1, 2, 0, 10), 14, 4.0),
        ("a", T(2024, 1, 2, 0, 25), T(2024, 1, 2, 0, 35), 5, 1.0),
        ("b", T(2024, 1, 2, 0, 4, 0, 500000), T(2024, 1, 2, 0, 14, 0, 500000), 4, 1.0),
        ("b", T(2024, 1, 2, 0, 31), T(2024, 1, 2, 0, 42), 6, 2.0)]


def test_unsupported_and_invalid_sql_windows(env: Any) -> None:
    with pytest.raises(ValidationException, match="day-time interval"):
        env.sql_query("SELECT SUM(v) FROM t GROUP BY TUMBLE(ts, INTERVAL '1' MONTH)")
    with pytest.raises(ValidationException, match="TUMBLE_PROCTIME"):
        env.sql_query("SELECT TUMBLE_PROCTIME(ts, INTERVAL '1' HOUR) FROM t GROUP BY TUMBLE(ts, INTERVAL '1' HOUR)")
    # Words inside strings and plain columns named like window functions are left alone.
    plain = env.sql_query("SELECT 'TUMBLE(x)' AS s, k AS session FROM t WHERE v = 1")
    assert sorted_rows(plain) == [("TUMBLE(x)", "a")]
