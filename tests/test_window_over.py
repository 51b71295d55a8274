"""Over windows in batch mode: ROWS and RANGE frames, defaults, ranking and offset functions.

PyFlink 2.3 refuses Table API over windows in batch mode (even on a rowtime source: "Invalid function
call: over(...)"), so values marked "PyFlink" were measured with the equivalent SQL OVER clauses by
tests/reference/probe_windows.py (case names P1, P2, ...). PyFlink batch also fails at run time on
RANGE frames with INTERVAL bounds; those and the tie-free ROWS cases are checked against a brute-force
evaluation of the frame definition over a pandas DataFrame.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable, List, Tuple

import pandas as pd
import pytest

from pyflink_table import DataTypes
from pyflink_table.errors import TableException, ValidationException
from pyflink_table.expressions import (CURRENT_RANGE, CURRENT_ROW, UNBOUNDED_RANGE, UNBOUNDED_ROW, call, col, lit,
                                       row_interval)
from pyflink_table.window import Over
from pyflink_table.types import to_type_string

from conftest import sorted_rows
from window_data import DATA, SCHEMA

T = dt.datetime
MIDNIGHT = T(2024, 1, 2)

# The same without the tie (a's 8 moved to 00:07), for ROWS frames whose result depends on tie order.
NO_TIES = [r if r[1] != 8 else ("a", 8, T(2024, 1, 2, 0, 7)) for r in DATA]


def _base() -> List[Any]:
    return [col("k"), col("v"), col("ts")]


def _five(w: str) -> List[Any]:
    return [col("v").count.over(col(w)).alias("c"), col("v").sum.over(col(w)).alias("s"),
            col("v").avg.over(col(w)).alias("a"), col("v").min.over(col(w)).alias("mn"),
            col("v").max.over(col(w)).alias("mx")]


def _brute_force(data: List[Tuple[Any, ...]], in_frame: Callable[[Any, Any], bool],
                 partitioned: bool = True) -> List[Tuple[Any, ...]]:
    """(k, v, ts, count, sum, avg, min, max) per row, with the frame given as a predicate on
    (current row, other row) of a pandas DataFrame sorted by ts and numbered by position."""
    df = pd.DataFrame(data, columns=["k", "v", "ts"]).sort_values("ts", kind="stable").reset_index(drop=True)
    df["pos"] = df.groupby("k").cumcount() if partitioned else range(len(df))
    out = []
    for _, cur in df.iterrows():
        peers = df[df.k == cur.k] if partitioned else df
        vals = [int(o.v) for _, o in peers.iterrows() if in_frame(cur, o) and pd.notna(o.v)]
        v = None if pd.isna(cur.v) else int(cur.v)
        # Flink's AVG of INT is an INT (integer division of the sum).
        agg = (len(vals), sum(vals), sum(vals) // len(vals), min(vals), max(vals)) if vals else (0, None, None, None, None)
        out.append((cur.k, v, cur.ts.to_pydatetime(), *agg))
    return sorted(out, key=lambda r: tuple((x is not None, x) for x in r))


def test_range_frames_and_defaults_match_pyflink(t_env: Any) -> None:
    t = t_env.from_elements(DATA, SCHEMA)
    result = t.over_window(
        Over.partition_by(col("k")).order_by(col("ts")).preceding(UNBOUNDED_RANGE).alias("w"),
        Over.partition_by(col("k")).order_by(col("ts")).alias("d"),
        Over.partition_by(col("k")).order_by(col("ts")).preceding(UNBOUNDED_RANGE).following(CURRENT_RANGE).alias("e"),
    ).select(*_base(), *_five("w"), col("v").sum.over(col("d")).alias("sd"), col("v").sum.over(col("e")).alias("se"))
    # PyFlink P4 (RANGE UNBOUNDED PRECEDING): the tied rows at midnight see each other.
    p4 = {
        ("a", 1): (1, 1, 1, 1, 1), ("a", 2): (2, 3, 1, 1, 2), ("a", 3): (4, 14, 3, 1, 8), ("a", 5): (5, 19, 3, 1, 8),
        ("a", 8): (4, 14, 3, 1, 8), ("b", None): (2, 10, 5, 4, 6), ("b", 4): (1, 4, 4, 4, 4), ("b", 6): (2, 10, 5, 4, 6),
    }
    got = sorted_rows(result)
    assert [(r[0], r[1], *r[3:8]) for r in got] == sorted(((k, v, *a) for (k, v), a in p4.items()),
                                                         key=lambda r: tuple((x is not None, x) for x in r))
    # Flink's default frame (PyFlink Q2) and the explicit UNBOUNDED_RANGE .. CURRENT_RANGE agree with P4.
    assert all(r[8] == r[4] and r[9] == r[4] for r in got)
    types = [to_type_string(x) for x in result.get_resolved_schema().get_column_data_types()]
    assert types[3:8] == [to_type_string(DataTypes.BIGINT(nullable=False)), to_type_string(DataTypes.INT()), to_type_string(DataTypes.INT()),
                          to_type_string(DataTypes.INT()), to_type_string(DataTypes.INT())]


def _deterministic(rows: List[Tuple[Any, ...]], also: Callable[[Tuple[Any, ...]], bool] = lambda r: False
                   ) -> List[Tuple[Any, ...]]:
    """Rows whose ROWS-frame result cannot depend on the order of a's two midnight rows."""
    return [r for r in rows if r[0] == "b" or r[2] < MIDNIGHT or also(r)]


def test_rows_frames_match_pyflink(t_env: Any) -> None:
    t = t_env.from_elements(DATA, SCHEMA)
    by_k = Over.partition_by(col("k")).order_by(col("ts"))
    result = t.over_window(
        by_k.preceding(row_interval(1)).alias("p1"),
        by_k.preceding(UNBOUNDED_ROW).alias("p2"),
        by_k.preceding(row_interval(1)).following(row_interval(1)).alias("p6"),
        by_k.preceding(UNBOUNDED_ROW).following(UNBOUNDED_ROW).alias("p8"),
        Over.partition_by(col("k")).order_by(col("ts").desc).preceding(UNBOUNDED_ROW).alias("p13"),
        by_k.preceding(row_interval(1)).following(CURRENT_ROW).alias("p1b"),
    ).select(*_base(), *_five("p1"), *_five("p2"), *_five("p6"), col("v").sum.over(col("p8")),
             col("v").sum.over(col("p13")), col("v").sum.over(col("p1b")))
    got = sorted_rows(result)
    # PyFlink P1, P2, P6 (count, sum, avg, min, max), P8 and P13 (sum), on the rows whose frame
    # does not depend on how the midnight tie is ordered (PyFlink's order there is not specified).
    expected = {
        ("a", 1): ((1, 1, 1, 1, 1), (1, 1, 1, 1, 1), (2, 3, 1, 1, 2), 19, 19),
        ("a", 2): ((2, 3, 1, 1, 2), (2, 3, 1, 1, 2), None, 19, 18),
        ("a", 5): (None, (5, 19, 3, 1, 8), (2, 13, 6, 5, 8), 19, 5),
        ("b", None): ((1, 6, 6, 6, 6), (2, 10, 5, 4, 6), (1, 6, 6, 6, 6), 10, None),
        ("b", 4): ((1, 4, 4, 4, 4), (1, 4, 4, 4, 4), (2, 10, 5, 4, 6), 10, 10),
        ("b", 6): ((2, 10, 5, 4, 6), (2, 10, 5, 4, 6), (2, 10, 5, 4, 6), 10, 6),
    }
    for r in got:
        if (r[0], r[1]) not in expected:
            continue
        p1, p2, p6, p8, p13 = expected[(r[0], r[1])]
        if p1 is not None:
            assert r[3:8] == p1, r
            assert r[20] == p1[1], r  # following(CURRENT_ROW) is the default end of a ROWS frame
        assert r[8:13] == p2, r
        if p6 is not None:
            assert r[13:18] == p6, r
        assert (r[18], r[19]) == (p8, p13), r
    assert len([r for r in got if (r[0], r[1]) in expected]) == 6


def test_rows_frames_without_ties_match_brute_force(t_env: Any) -> None:
    t = t_env.from_elements(NO_TIES, SCHEMA)
    result = t.over_window(
        Over.partition_by(col("k")).order_by(col("ts")).preceding(row_interval(2)).following(row_interval(1)).alias("w"),
        Over.order_by(col("ts")).preceding(row_interval(2)).alias("g"),
        Over.partition_by("k").order_by("ts").preceding("1.rows").following("current_row").alias("s"),
    ).select(*_base(), *_five("w"), *_five("g"), col("v").sum.over(col("s")).alias("ss"))
    got = sorted_rows(result)
    keyed = _brute_force(NO_TIES, lambda cur, o: cur.pos - 2 <= o.pos <= cur.pos + 1)
    unpartitioned = _brute_force(NO_TIES, lambda cur, o: cur.pos - 2 <= o.pos <= cur.pos, partitioned=False)
    one_back = _brute_force(NO_TIES, lambda cur, o: cur.pos - 1 <= o.pos <= cur.pos)
    assert [r[:8] for r in got] == keyed
    assert [r[:3] + r[8:13] for r in got] == unpartitioned
    assert [r[13] for r in got] == [r[4] for r in one_back]


def test_time_range_frames_match_brute_force(t_env: Any) -> None:
    t = t_env.from_elements(DATA, SCHEMA)
    ten = pd.Timedelta(minutes=10)
    by_k = Over.partition_by(col("k")).order_by(col("ts"))
    result = t.over_window(
        by_k.preceding(lit(10).minutes).alias("back"),
        by_k.preceding(UNBOUNDED_RANGE).following(lit(10).minutes).alias("ahead"),
        Over.partition_by("k").order_by("ts").preceding("current_range").following("10.minutes").alias("next"),
    ).select(*_base(), *_five("back"), col("v").sum.over(col("ahead")).alias("sa"),
             col("v").sum.over(col("next")).alias("sn"))
    got = sorted_rows(result)
    back = _brute_force(DATA, lambda cur, o: cur.ts - ten <= o.ts <= cur.ts)
    ahead = _brute_force(DATA, lambda cur, o: o.ts <= cur.ts + ten)
    nxt = _brute_force(DATA, lambda cur, o: cur.ts <= o.ts <= cur.ts + ten)
    assert [r[:8] for r in got] == back
    assert [r[8] for r in got] == [r[4] for r in ahead]
    assert [r[9] for r in got] == [r[4] for r in nxt]
    # Spot checks by hand: at midnight a's frame reaches back to 23:50 (rows 1, 2, 3, 8).
    assert [r[3:5] for r in got if r[0] == "a" and r[1] == 3] == [(4, 14)]

    # The same RANGE frame on a TIMESTAMP_LTZ order key gives the same sums.
    ltz = t.add_columns(col("ts").cast(DataTypes.TIMESTAMP_LTZ(3)).alias("lts")).over_window(
        Over.partition_by(col("k")).order_by(col("lts")).preceding(lit(10).minutes).alias("w")
    ).select(col("k"), col("v"), col("ts"), col("v").sum.over(col("w")))
    assert [r[3] for r in sorted_rows(ltz)] == [r[4] for r in back]


def test_ranking_and_offset_functions_match_pyflink(t_env: Any) -> None:
    t = t_env.from_elements(DATA, SCHEMA)
    result = t.over_window(
        Over.partition_by(col("k")).order_by(col("ts")).preceding(row_interval(1)).alias("w"),
        Over.order_by(col("ts")).alias("all"),
    ).select(*_base(), call("row_number").over(col("w")), call("rank").over(col("w")),
             call("dense_rank").over(col("all")), call("lag", col("v")).over(col("w")),
             call("lead", col("v"), 2).over(col("w")))
    got = sorted_rows(result)
    # PyFlink P9 (rank, dense_rank over all rows) and P10 (lag, lead) where the tie does not matter.
    assert [(r[0], r[1], r[4], r[5]) for r in got] == [
        ("a", 1, 1, 1), ("a", 2, 2, 2), ("a", 3, 3, 3), ("a", 5, 5, 5), ("a", 8, 3, 3),
        ("b", None, 3, 7), ("b", 4, 1, 4), ("b", 6, 2, 6)]
    assert sorted(r[3] for r in got if r[0] == "a") == [1, 2, 3, 4, 5]
    assert [(r[1], r[6], r[7]) for r in got if r[0] == "b"] == [(None, 6, None), (4, None, None), (6, 4, None)]
    assert [(r[1], r[6]) for r in got if r[0] == "a" and r[2] < MIDNIGHT] == [(1, None), (2, 1)]


def test_invalid_over_windows(t_env: Any) -> None:
    t = t_env.from_elements(DATA, SCHEMA)
    mixed = Over.partition_by(col("k")).order_by(col("ts")).preceding(row_interval(1)).following(CURRENT_RANGE)
    with pytest.raises(ValidationException, match="same interval type"):
        t.over_window(mixed.alias("w")).select(col("v").sum.over(col("w")))
    ok = Over.partition_by(col("k")).order_by(col("ts")).alias("w")
    with pytest.raises(ValidationException, match="'x' is not defined"):
        t.over_window(ok).select(col("v").sum.over(col("x")))
    by_int = Over.partition_by(col("k")).order_by(col("v")).preceding(lit(10).minutes).alias("w")
    with pytest.raises(ValidationException, match="TIMESTAMP.*INT"):
        t.over_window(by_int).select(col("v").sum.over(col("w")))
    with pytest.raises(ValidationException, match="defined twice"):
        t.over_window(ok, ok).select(col("v").sum.over(col("w")))
    with pytest.raises(ValidationException, match="day-time interval"):
        t.over_window(Over.order_by(col("ts")).preceding(lit(1).months).alias("w")).select(col("v").sum.over(col("w")))
    with pytest.raises(ValidationException, match=r"needs \.over\(alias\)"):
        t.over_window(ok).select(col("k"), col("v").sum)
    # Spark has no DISTINCT window aggregates: refused by name rather than failing inside Spark.
    with pytest.raises(TableException, match="DISTINCT aggregates over windows"):
        t.over_window(ok).select(col("v").distinct.count.over(col("w")))


def test_pandas_aggregate_function_over_windows(t_env: Any) -> None:
    from pyflink_table.udf import udaf

    mean = udaf(lambda v: float(v.mean()), result_type=DataTypes.DOUBLE(), func_type="pandas")
    t = t_env.from_elements(NO_TIES, SCHEMA).add_columns(col("v").cast(DataTypes.DOUBLE()).alias("d"))
    result = t.over_window(
        Over.partition_by(col("k")).order_by(col("ts")).preceding(row_interval(1)).alias("r"),
        Over.partition_by(col("k")).order_by(col("ts")).preceding(lit(10).minutes).alias("t"),
    ).select(col("k"), col("v"), mean(col("d")).over(col("r")), mean(col("d")).over(col("t")), col("v").sum.over(col("t")))
    # Means of the brute-force frames' values (pandas' mean skips the NULL).
    rows_frame = _brute_force(NO_TIES, lambda cur, o: cur.pos - 1 <= o.pos <= cur.pos)
    time_frame = _brute_force(NO_TIES, lambda cur, o: cur.ts - pd.Timedelta(minutes=10) <= o.ts <= cur.ts)
    got = sorted(sorted_rows(result), key=lambda r: (r[0], r[1] is not None, r[1]))
    by_key = lambda rows: sorted(rows, key=lambda r: (r[0], r[1] is not None, r[1]))  # noqa: E731
    assert [(r[0], r[1], r[2]) for r in got] == [(r[0], r[1], r[4] / r[3]) for r in by_key(rows_frame)]
    assert [(r[3], r[4]) for r in got] == [(r[4] / r[3], r[4]) for r in by_key(time_frame)]


def test_null_order_keys_sort_first_ascending_and_last_descending(t_env: Any) -> None:
    t = t_env.from_elements(DATA + [("a", 100, None)], SCHEMA).where(col("k") == "a")
    result = t.over_window(
        Over.partition_by(col("k")).order_by(col("ts")).preceding(UNBOUNDED_ROW).alias("rows"),
        Over.partition_by(col("k")).order_by(col("ts")).alias("range"),
        Over.partition_by(col("k")).order_by(col("ts").desc).preceding(UNBOUNDED_ROW).alias("desc"),
    ).select(col("v"), col("v").sum.over(col("rows")), col("v").sum.over(col("range")), col("v").sum.over(col("desc")))
    got = {r[0]: r[1:] for r in sorted_rows(result)}
    # PyFlink P14 (ROWS), P15 (RANGE), P16 (DESC); the tied midnight rows only where order does not matter.
    assert {v: got[v] for v in (100, 1, 2, 5)} == {100: (100, 100, 119), 1: (101, 101, 19), 2: (103, 103, 18),
                                                   5: (119, 119, 5)}
    assert got[3][1] == got[8][1] == 114
    assert sorted([got[3][0], got[8][0]]) == [106, 114] and sorted([got[3][2], got[8][2]]) == [8, 16]
