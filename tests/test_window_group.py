"""Group windows (Tumble, Slide, Session) in batch mode.

Expected values marked "PyFlink" were measured with PyFlink 2.3 batch mode by
tests/reference/probe_windows.py (case names G1, G2, ... in its output); PyFlink refuses session
windows, TIMESTAMP_LTZ windows and row-count windows in batch, so those expectations are computed by
hand from Flink's window rules (start aligned to the epoch, end exclusive, a session ends one gap
after its last row and sessions whose windows touch are merged).
"""

from __future__ import annotations

import datetime as dt
from typing import Any, List, Tuple

import pytest

from pyflink_table import DataTypes
from pyflink_table.errors import TableException, ValidationException
from pyflink_table.expressions import col, lit, row_interval
from pyflink_table.window import Session, Slide, Tumble
from pyflink_table.types import to_type_string

from conftest import sorted_rows
from window_data import DATA, SCHEMA

T = dt.datetime



def _table(t_env: Any, data: List[Tuple[Any, ...]] = DATA) -> Any:
    return t_env.from_elements(data, SCHEMA)


def test_tumble_with_properties_and_aggregates_matches_pyflink(t_env: Any) -> None:
    t = _table(t_env)
    result = t.window(Tumble.over(lit(10).minutes).on(col("ts")).alias("w")) \
        .group_by(col("w"), col("k")) \
        .select(col("k"), col("w").start, col("w").end, col("w").rowtime, col("v").count.alias("c"),
                col("v").sum.alias("s"), col("v").avg.alias("a"), col("v").min.alias("mn"), col("v").max.alias("mx"))
    # PyFlink G1 (values) and N1 (names numbered with unnamed aggregates; types).
    assert result.get_schema().get_field_names() == ["k", "EXPR$0", "EXPR$1", "EXPR$2", "c", "s", "a", "mn", "mx"]
    assert sorted_rows(result) == [
        ("a", T(2024, 1, 1, 23, 50), T(2024, 1, 2, 0, 0), T(2024, 1, 1, 23, 59, 59, 999000), 2, 3, 1, 1, 2),
        ("a", T(2024, 1, 2, 0, 0), T(2024, 1, 2, 0, 10), T(2024, 1, 2, 0, 9, 59, 999000), 2, 11, 5, 3, 8),
        ("a", T(2024, 1, 2, 0, 20), T(2024, 1, 2, 0, 30), T(2024, 1, 2, 0, 29, 59, 999000), 1, 5, 5, 5, 5),
        ("b", T(2024, 1, 2, 0, 0), T(2024, 1, 2, 0, 10), T(2024, 1, 2, 0, 9, 59, 999000), 1, 4, 4, 4, 4),
        ("b", T(2024, 1, 2, 0, 30), T(2024, 1, 2, 0, 40), T(2024, 1, 2, 0, 39, 59, 999000), 1, 6, 6, 6, 6),
    ]


def test_window_result_types(t_env: Any) -> None:
    t = _table(t_env)
    result = t.window(Tumble.over(lit(10).minutes).on(col("ts")).alias("w")) \
        .group_by(col("w"), col("k")) \
        .select(col("k"), col("w").start, col("v").sum, col("w").end, col("v").count, col("w").rowtime, col("v").avg)
    # PyFlink N1: (k STRING, EXPR$0 TIMESTAMP(3), EXPR$1 INT, EXPR$2 TIMESTAMP(3), EXPR$3 BIGINT NOT NULL,
    #              EXPR$4 TIMESTAMP(3), EXPR$5 INT)
    schema = result.get_resolved_schema()
    assert schema.get_column_names() == ["k", "EXPR$0", "EXPR$1", "EXPR$2", "EXPR$3", "EXPR$4", "EXPR$5"]
    assert [to_type_string(x) for x in schema.get_column_data_types()] == [
        to_type_string(DataTypes.STRING()), to_type_string(DataTypes.TIMESTAMP(3)), to_type_string(DataTypes.INT()), to_type_string(DataTypes.TIMESTAMP(3)),
        to_type_string(DataTypes.BIGINT(nullable=False)), to_type_string(DataTypes.TIMESTAMP(3)), to_type_string(DataTypes.INT())]


def test_slide_hour_every_quarter_spanning_midnight_matches_pyflink(t_env: Any) -> None:
    t = _table(t_env)
    expected = [  # PyFlink G2
        (T(2024, 1, 1, 23, 0), T(2024, 1, 2, 0, 0), 2, 3),
        (T(2024, 1, 1, 23, 15), T(2024, 1, 2, 0, 15), 5, 18),
        (T(2024, 1, 1, 23, 30), T(2024, 1, 2, 0, 30), 6, 23),
        (T(2024, 1, 1, 23, 45), T(2024, 1, 2, 0, 45), 7, 29),
        (T(2024, 1, 2, 0, 0), T(2024, 1, 2, 1, 0), 5, 26),
        (T(2024, 1, 2, 0, 15), T(2024, 1, 2, 1, 15), 2, 11),
        (T(2024, 1, 2, 0, 30), T(2024, 1, 2, 1, 30), 1, 6),
    ]
    dsl = t.window(Slide.over(lit(1).hours).every(lit(15).minutes).on(col("ts")).alias("w")) \
        .group_by(col("w")).select(col("w").start, col("w").end, col("v").count.alias("c"), col("v").sum.alias("s"))
    assert sorted_rows(dsl) == expected
    # The FLIP-38 string forms of the same query.
    strings = t.window(Slide.over("1.hours").every("15.minutes").on("ts").alias("w")) \
        .group_by("w").select("w.start, w.end, v.count as c, v.sum as s")
    assert sorted_rows(strings) == expected


def test_epoch_alignment_null_times_gaps_and_day_windows(t_env: Any) -> None:
    t = _table(t_env)
    # PyFlink G7: 7-minute windows are aligned to the epoch, not to the data or to midnight.
    seven = t.window(Tumble.over(lit(7).minutes).on(col("ts")).alias("w")) \
        .group_by(col("w")).select(col("w").start, col("w").end, col("v").sum.alias("s"))
    assert sorted_rows(seven) == [
        (T(2024, 1, 1, 23, 49), T(2024, 1, 1, 23, 56), 1),
        (T(2024, 1, 1, 23, 56), T(2024, 1, 2, 0, 3), 13),
        (T(2024, 1, 2, 0, 3), T(2024, 1, 2, 0, 10), 4),
        (T(2024, 1, 2, 0, 24), T(2024, 1, 2, 0, 31), 5),
        (T(2024, 1, 2, 0, 31), T(2024, 1, 2, 0, 38), 6),
    ]
    # PyFlink G8: a row with a NULL time belongs to no window; empty windows are not emitted.
    with_null = _table(t_env, DATA + [("c", 9, None)]) \
        .window(Tumble.over("10.minutes").on("ts").alias("w")).group_by("w").select("w.start, v.sum as s")
    assert sorted_rows(with_null) == [(T(2024, 1, 1, 23, 50), 3), (T(2024, 1, 2, 0, 0), 15),
                                      (T(2024, 1, 2, 0, 20), 5), (T(2024, 1, 2, 0, 30), 6)]
    # PyFlink G9: a slide longer than the size leaves rows between windows out.
    gaps = t.window(Slide.over(lit(5).minutes).every(lit(10).minutes).on(col("ts")).alias("w")) \
        .group_by(col("w")).select(col("w").start, col("w").end, col("v").sum.alias("s"))
    assert sorted_rows(gaps) == [(T(2024, 1, 2, 0, 0), T(2024, 1, 2, 0, 5), 15),
                                 (T(2024, 1, 2, 0, 30), T(2024, 1, 2, 0, 35), 6)]
    # PyFlink G15: day windows start at midnight (UTC epoch alignment of TIMESTAMP values).
    day = t.window(Tumble.over(lit(1).days).on(col("ts")).alias("w")) \
        .group_by(col("w")).select(col("w").start, col("w").end, col("v").count.alias("c"))
    assert sorted_rows(day) == [(T(2024, 1, 1), T(2024, 1, 2), 2), (T(2024, 1, 2), T(2024, 1, 3), 5)]


def test_expressions_of_aggregates_and_key_expressions(t_env: Any) -> None:
    t = _table(t_env)
    # PyFlink G14 (second column): sums per hour plus one.
    hourly = t.window(Tumble.over(lit(1).hours).on(col("ts")).alias("w")) \
        .group_by(col("w")).select(col("w").end, (col("v").sum + 1).alias("s1"))
    assert sorted_rows(hourly) == [(T(2024, 1, 2, 0, 0), 4), (T(2024, 1, 2, 1, 0), 27)]
    # Hand-computed: an upper-cased key and a window property renamed.
    keyed = t.window(Tumble.over(lit(1).days).on(col("ts")).alias("w")) \
        .group_by(col("w"), col("k").upper_case.alias("K")) \
        .select(col("k").upper_case, col("w").start.alias("day"), col("v").max.alias("mx"))
    assert sorted_rows(keyed) == [("A", T(2024, 1, 1), 2), ("A", T(2024, 1, 2), 8), ("B", T(2024, 1, 2), 6)]


def test_session_windows_merge_and_end_one_gap_after_last_row(t_env: Any) -> None:
    t = _table(t_env)
    # Hand-computed (PyFlink batch refuses session windows): a's rows 23:55 .. 00:00 chain within
    # 10 minutes, 00:25 is alone; b's 00:31 and 00:32 share a session.
    sessions = t.window(Session.with_gap(lit(10).minutes).on(col("ts")).alias("w")) \
        .group_by(col("w"), col("k")) \
        .select(col("k"), col("w").start, col("w").end, col("w").rowtime, col("v").count.alias("c"),
                col("v").sum.alias("s"))
    assert sorted_rows(sessions) == [
        ("a", T(2024, 1, 1, 23, 55), T(2024, 1, 2, 0, 10), T(2024, 1, 2, 0, 9, 59, 999000), 4, 14),
        ("a", T(2024, 1, 2, 0, 25), T(2024, 1, 2, 0, 35), T(2024, 1, 2, 0, 34, 59, 999000), 1, 5),
        ("b", T(2024, 1, 2, 0, 4, 0, 500000), T(2024, 1, 2, 0, 14, 0, 500000), T(2024, 1, 2, 0, 14, 0, 499000), 1, 4),
        ("b", T(2024, 1, 2, 0, 31), T(2024, 1, 2, 0, 42), T(2024, 1, 2, 0, 41, 59, 999000), 1, 6),
    ]
    # Flink merges session windows whose bounds touch ([10:00, 10:10) and [10:10, 10:20)); a row
    # one millisecond after a session's end starts a new one.
    touching = _table(t_env, [("x", 1, T(2024, 3, 1, 10, 0)), ("x", 2, T(2024, 3, 1, 10, 10)),
                              ("x", 4, T(2024, 3, 1, 10, 20, 0, 1000))])
    merged = touching.window(Session.with_gap("10.minutes").on("ts").alias("s")) \
        .group_by("s").select("s.start, s.end, v.sum")
    assert sorted_rows(merged) == [(T(2024, 3, 1, 10, 0), T(2024, 3, 1, 10, 20), 3),
                                   (T(2024, 3, 1, 10, 20, 0, 1000), T(2024, 3, 1, 10, 30, 0, 1000), 4)]


def test_windows_on_timestamp_ltz_use_the_session_time_zone(t_env: Any) -> None:
    # Hand-computed, following Flink's rule for TIMESTAMP_LTZ windows: windows are aligned to the
    # wall-clock time of the session time zone, start/end are TIMESTAMP(3) and rowtime TIMESTAMP_LTZ(3).
    t_env.get_config().set("table.local-time-zone", "Asia/Shanghai")
    t = _table(t_env, [("a", 1, T(2024, 1, 1, 15, 59)), ("a", 2, T(2024, 1, 1, 16, 0)), ("a", 4, T(2024, 1, 2, 3, 0))])
    # Casting TIMESTAMP to TIMESTAMP_LTZ reads the wall clock in the session zone, so each instant's
    # Shanghai wall clock is its ts: day windows group by ts's calendar day (UTC-aligned windows
    # would put all three rows, 07:59Z, 08:00Z and 19:00Z, into 2024-01-01 with sum 7).
    instants = t.add_columns(col("ts").cast(DataTypes.TIMESTAMP_LTZ(3)).alias("lts"))
    days = instants.window(Tumble.over(lit(1).days).on(col("lts")).alias("w")) \
        .group_by(col("w")).select(col("w").start, col("w").end, col("v").sum.alias("s"))
    types = [to_type_string(x) for x in days.get_resolved_schema().get_column_data_types()]
    assert types[:2] == [to_type_string(DataTypes.TIMESTAMP(3)), to_type_string(DataTypes.TIMESTAMP(3))]
    assert sorted_rows(days) == [(T(2024, 1, 1), T(2024, 1, 2), 3), (T(2024, 1, 2), T(2024, 1, 3), 4)]
    rowtime = instants.window(Tumble.over(lit(1).days).on(col("lts")).alias("w")) \
        .group_by(col("w")).select(col("w").rowtime)
    assert [to_type_string(x) for x in rowtime.get_resolved_schema().get_column_data_types()] == [to_type_string(DataTypes.TIMESTAMP_LTZ(3))]
    # Six-hour windows start at 00:00, 06:00, ... Shanghai wall clock: 15:59 and 16:00 share [12:00, 18:00).
    six = instants.window(Tumble.over(lit(6).hours).on(col("lts")).alias("w")) \
        .group_by(col("w")).select(col("w").start, col("v").sum.alias("s"))
    assert sorted_rows(six) == [(T(2024, 1, 1, 12), 3), (T(2024, 1, 2, 0), 4)]


def test_invalid_and_unsupported_windows(t_env: Any) -> None:
    t = _table(t_env)
    tumble = Tumble.over(lit(10).minutes).on(col("ts")).alias("w")
    # PyFlink G12: "GroupBy must contain exactly one window alias."
    with pytest.raises(ValidationException, match="exactly one window alias"):
        t.window(tumble).group_by(col("k"))
    # PyFlink G13: "A group window expects a time attribute for grouping in a batch environment."
    with pytest.raises(ValidationException, match="time attribute.*'v'.*INT"):
        t.window(Tumble.over(lit(10).minutes).on(col("v")).alias("w")).group_by(col("w")).select(col("v").sum)
    # PyFlink G16: month intervals are refused ("expects a size literal of a day-time interval").
    with pytest.raises(ValidationException, match="day-time interval"):
        t.window(Tumble.over(lit(1).months).on(col("ts")).alias("w")).group_by(col("w")).select(col("v").sum)
    # PyFlink G6: proctime is not a property of a batch window.
    with pytest.raises(ValidationException, match="proctime"):
        t.window(tumble).group_by(col("w")).select(col("w").proctime)
    # PyFlink G5/G5b cannot plan row-count windows in batch; neither can we.
    with pytest.raises(TableException, match="Row-count group windows"):
        t.window(Tumble.over(row_interval(2)).on(col("ts")).alias("w")).group_by(col("w")).select(col("v").sum)
    with pytest.raises(TableException, match="Row-count group windows"):
        t.window(Slide.over("2.rows").every("1.rows").on("ts").alias("w")).group_by("w").select("v.sum")
    # Unknown fields are reported with the table's own fields only.
    with pytest.raises(ValidationException, match=r"input field list:\[k, v, ts\]\."):
        t.window(tumble).group_by(col("w"), col("nope")).select(col("v").sum)
    with pytest.raises(ValidationException, match="must be positive"):
        t.window(Tumble.over(lit(0).minutes).on(col("ts")).alias("w")).group_by(col("w")).select(col("v").sum)


def test_pandas_aggregate_functions_in_group_windows(t_env: Any) -> None:
    from pyflink_table.udf import udaf

    # Hand-computed means; the window path shares group_by's handling of Python aggregates,
    # including their mix with built-in aggregates in one select.
    mean = udaf(lambda v: float(v.mean()), result_type=DataTypes.DOUBLE(), func_type="pandas")
    t = _table(t_env).add_columns(col("v").cast(DataTypes.DOUBLE()).alias("d"))
    tumble = t.window(Tumble.over(lit(10).minutes).on(col("ts")).alias("w")) \
        .group_by(col("w"), col("k")) \
        .select(col("k"), col("w").start, mean(col("d")).alias("m"), col("v").count.alias("c"))
    assert sorted_rows(tumble) == [
        ("a", T(2024, 1, 1, 23, 50), 1.5, 2), ("a", T(2024, 1, 2, 0, 0), 5.5, 2), ("a", T(2024, 1, 2, 0, 20), 5.0, 1),
        ("b", T(2024, 1, 2, 0, 0), 4.0, 1), ("b", T(2024, 1, 2, 0, 30), 6.0, 1)]
    session = t.window(Session.with_gap(lit(10).minutes).on(col("ts")).alias("w")) \
        .group_by(col("w"), col("k")).select(col("k"), col("w").end, mean(col("d")).alias("m"))
    assert sorted_rows(session) == [("a", T(2024, 1, 2, 0, 10), 3.5), ("a", T(2024, 1, 2, 0, 35), 5.0),
                                    ("b", T(2024, 1, 2, 0, 14, 0, 500000), 4.0), ("b", T(2024, 1, 2, 0, 42), 6.0)]


def test_uneven_slides_long_windows_and_microseconds_match_pyflink(t_env: Any) -> None:
    t = _table(t_env)
    uneven = t.window(Slide.over(lit(10).minutes).every(lit(3).minutes).on(col("ts")).alias("w")) \
        .group_by(col("w")).select(col("w").start, col("w").end, col("v").count.alias("c"), col("v").sum.alias("s"))
    assert sorted_rows(uneven) == [  # PyFlink G17: a slide that does not divide the size
        (T(2024, 1, 1, 23, 48), T(2024, 1, 1, 23, 58), 1, 1), (T(2024, 1, 1, 23, 51), T(2024, 1, 2, 0, 1), 4, 14),
        (T(2024, 1, 1, 23, 54), T(2024, 1, 2, 0, 4), 4, 14), (T(2024, 1, 1, 23, 57), T(2024, 1, 2, 0, 7), 4, 17),
        (T(2024, 1, 2, 0, 0), T(2024, 1, 2, 0, 10), 3, 15), (T(2024, 1, 2, 0, 3), T(2024, 1, 2, 0, 13), 1, 4),
        (T(2024, 1, 2, 0, 18), T(2024, 1, 2, 0, 28), 1, 5), (T(2024, 1, 2, 0, 21), T(2024, 1, 2, 0, 31), 1, 5),
        (T(2024, 1, 2, 0, 24), T(2024, 1, 2, 0, 34), 2, 11), (T(2024, 1, 2, 0, 27), T(2024, 1, 2, 0, 37), 1, 6),
        (T(2024, 1, 2, 0, 30), T(2024, 1, 2, 0, 40), 1, 6)]
    ninety = t.window(Tumble.over(lit(90).minutes).on(col("ts")).alias("w")) \
        .group_by(col("w")).select(col("w").start, col("w").end, col("v").sum.alias("s"))
    assert sorted_rows(ninety) == [(T(2024, 1, 1, 22, 30), T(2024, 1, 2), 3),  # PyFlink G18
                                   (T(2024, 1, 2), T(2024, 1, 2, 1, 30), 26)]
    daily = t.window(Slide.over(lit(1).days).every(lit(6).hours).on(col("ts")).alias("w")) \
        .group_by(col("w")).select(col("w").start, col("w").end, col("v").count.alias("c"))
    assert sorted_rows(daily) == [  # PyFlink G20
        (T(2024, 1, 1, 0), T(2024, 1, 2, 0), 2), (T(2024, 1, 1, 6), T(2024, 1, 2, 6), 7),
        (T(2024, 1, 1, 12), T(2024, 1, 2, 12), 7), (T(2024, 1, 1, 18), T(2024, 1, 2, 18), 7),
        (T(2024, 1, 2, 0), T(2024, 1, 3, 0), 5)]
    micro_schema = DataTypes.ROW([DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT()),
                                  DataTypes.FIELD("ts", DataTypes.TIMESTAMP(6))])
    micro = t_env.from_elements([("a", 1, T(2024, 1, 2, 0, 9, 59, 999500)), ("a", 2, T(2024, 1, 2, 0, 10)),
                                 ("a", 4, T(2024, 1, 2, 0, 10, 0, 500))], micro_schema)
    near = micro.window(Tumble.over(lit(10).minutes).on(col("ts")).alias("w")) \
        .group_by(col("w")).select(col("w").start, col("w").end, col("w").rowtime, col("v").sum.alias("s"))
    assert sorted_rows(near) == [  # PyFlink G19: sub-millisecond times stay in their window
        (T(2024, 1, 2, 0, 0), T(2024, 1, 2, 0, 10), T(2024, 1, 2, 0, 9, 59, 999000), 1),
        (T(2024, 1, 2, 0, 10), T(2024, 1, 2, 0, 20), T(2024, 1, 2, 0, 19, 59, 999000), 6)]
