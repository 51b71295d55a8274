"""Probe PyFlink 2.3 batch mode for group-window and over-window behaviour.

Run once with the reference interpreter (not part of the test suite)::

    /work/.venv-pyflink/bin/python tests/reference/probe_windows.py [1|2]

Part 1 probes the Table API group and over windows and SQL group windows, part 2 SQL over windows,
result names and TIMESTAMP_LTZ windows; without an argument both run.

Its printed results are pasted, with this file named as the source, into tests/test_window*.py.
"""

import datetime as dt
import os
import sys
import tempfile

from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import (CURRENT_RANGE, CURRENT_ROW, UNBOUNDED_RANGE, UNBOUNDED_ROW, col, lit,
                                       row_interval)
from pyflink.table.window import Over, Session, Slide, Tumble

T = dt.datetime
DATA = [
    ("a", 1, T(2024, 1, 1, 23, 55)),
    ("a", 2, T(2024, 1, 1, 23, 59, 59, 999000)),
    ("a", 3, T(2024, 1, 2, 0, 0)),
    ("a", 8, T(2024, 1, 2, 0, 0)),
    ("b", 4, T(2024, 1, 2, 0, 4, 0, 500000)),
    ("a", 5, T(2024, 1, 2, 0, 25)),
    ("b", 6, T(2024, 1, 2, 0, 31)),
    ("b", None, T(2024, 1, 2, 0, 32)),
]
SCHEMA = DataTypes.ROW([DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT()),
                        DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3))])

env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
env.get_config().set("table.local-time-zone", "UTC")
env.get_config().set("parallelism.default", "1")
t = env.from_elements(DATA, SCHEMA)
env.create_temporary_view("t", t)

# A source with a rowtime attribute, so that Table API over windows are allowed.
path = os.path.join(tempfile.mkdtemp(), "data.csv")
with open(path, "w") as f:
    for k, v, ts in DATA:
        f.write(f"{k},{'' if v is None else v},{ts.strftime('%Y-%m-%d %H:%M:%S.%f')[:-3]}\n")
env.execute_sql(f"""CREATE TABLE src (k STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
  WITH ('connector'='filesystem', 'path'='{path}', 'format'='csv', 'csv.null-literal'='')""")
src = env.from_path("src")


def show(name, make):
    try:
        table = make()
        schema = table.get_schema()
        types = [str(tp) for tp in schema.get_field_data_types()]
        result = sorted([tuple(r) for r in table.execute().collect()], key=lambda r: tuple((x is not None, str(x)) for x in r))
        print(f"== {name}\n   names={schema.get_field_names()}\n   types={types}")
        for r in result:
            print("   ", r)
    except Exception as e:  # noqa: BLE001 - the probe records every failure
        msg = str(e).strip().splitlines()
        print(f"== {name}\n   ERROR {type(e).__name__}: {' | '.join(m for m in msg[:3])[:400]}")


PARTS = sys.argv[1:] or ["1", "2"]
aggs = [col("v").count.alias("c"), col("v").sum.alias("s"), col("v").avg.alias("a"), col("v").min.alias("mn"),
        col("v").max.alias("mx")]
if "1" in PARTS:
  show("G1 tumble 10 min by k", lambda: t.window(Tumble.over(lit(10).minutes).on(col("ts")).alias("w"))
       .group_by(col("w"), col("k")).select(col("k"), col("w").start, col("w").end, col("w").rowtime, *aggs))
  show("G2 slide 1h every 15 min", lambda: t.window(Slide.over(lit(1).hours).every(lit(15).minutes).on(col("ts")).alias("w"))
       .group_by(col("w")).select(col("w").start, col("w").end, col("v").count.alias("c"), col("v").sum.alias("s")))
  show("G3 tumble on LTZ", lambda: t.add_columns(col("ts").cast(DataTypes.TIMESTAMP_LTZ(3)).alias("lts"))
       .window(Tumble.over(lit(10).minutes).on(col("lts")).alias("w"))
       .group_by(col("w")).select(col("w").start, col("w").end, col("w").rowtime, col("v").sum.alias("s")))
  show("G4 session 10 min", lambda: t.window(Session.with_gap(lit(10).minutes).on(col("ts")).alias("w"))
       .group_by(col("w"), col("k")).select(col("k"), col("w").start, col("w").end, col("v").sum.alias("s")))
  show("G5 row tumble", lambda: t.window(Tumble.over(row_interval(2)).on(col("ts")).alias("w"))
       .group_by(col("w"), col("k")).select(col("k"), col("v").sum.alias("s")))
  show("G5b row slide", lambda: t.window(Slide.over(row_interval(2)).every(row_interval(1)).on(col("ts")).alias("w"))
       .group_by(col("w"), col("k")).select(col("k"), col("v").sum.alias("s")))
  show("G6 proctime", lambda: t.window(Tumble.over(lit(10).minutes).on(col("ts")).alias("w"))
       .group_by(col("w")).select(col("w").proctime, col("v").sum.alias("s")))
  show("G7 tumble 7 min", lambda: t.window(Tumble.over(lit(7).minutes).on(col("ts")).alias("w"))
       .group_by(col("w")).select(col("w").start, col("w").end, col("v").sum.alias("s")))
  show("G8 null ts", lambda: env.from_elements(DATA + [("c", 9, None)], SCHEMA)
       .window(Tumble.over(lit(10).minutes).on(col("ts")).alias("w"))
       .group_by(col("w")).select(col("w").start, col("v").sum.alias("s")))
  show("G9 slide size<slide", lambda: t.window(Slide.over(lit(5).minutes).every(lit(10).minutes).on(col("ts")).alias("w"))
       .group_by(col("w")).select(col("w").start, col("w").end, col("v").sum.alias("s")))
  show("G10 tumble on rowtime src", lambda: src.window(Tumble.over(lit(10).minutes).on(col("ts")).alias("w"))
       .group_by(col("w"), col("k")).select(col("k"), col("w").start, col("w").end, col("w").rowtime, col("v").sum.alias("s")))
  show("G11 session on rowtime src", lambda: src.window(Session.with_gap(lit(10).minutes).on(col("ts")).alias("w"))
       .group_by(col("w"), col("k")).select(col("k"), col("w").start, col("w").end, col("v").sum.alias("s")))
  show("G12 no window in group_by", lambda: t.window(Tumble.over(lit(10).minutes).on(col("ts")).alias("w"))
       .group_by(col("k")).select(col("k"), col("v").sum.alias("s")))
  show("G13 window on INT col", lambda: t.window(Tumble.over(lit(10).minutes).on(col("v")).alias("w"))
       .group_by(col("w")).select(col("v").sum.alias("s")))
  show("G14 expr of props", lambda: t.window(Tumble.over(lit(1).hours).on(col("ts")).alias("w"))
       .group_by(col("w")).select(col("w").end.cast(DataTypes.STRING()), (col("v").sum + 1).alias("s1")))
  show("G15 tumble 1 day", lambda: t.window(Tumble.over(lit(1).days).on(col("ts")).alias("w"))
       .group_by(col("w")).select(col("w").start, col("w").end, col("v").count.alias("c")))
  show("G16 month tumble", lambda: t.window(Tumble.over(lit(1).months).on(col("ts")).alias("w"))
       .group_by(col("w")).select(col("w").start, col("v").count.alias("c")))

  # --- SQL group windows ---
  show("S1 GROUP BY TUMBLE", lambda: env.sql_query(
      "SELECT k, TUMBLE_START(ts, INTERVAL '10' MINUTE) AS ws, TUMBLE_END(ts, INTERVAL '10' MINUTE) AS we, "
      "TUMBLE_ROWTIME(ts, INTERVAL '10' MINUTE) AS wr, COUNT(*) AS c, SUM(v) AS s FROM t "
      "GROUP BY TUMBLE(ts, INTERVAL '10' MINUTE), k"))
  show("S2 GROUP BY HOP", lambda: env.sql_query(
      "SELECT HOP_START(ts, INTERVAL '15' MINUTE, INTERVAL '1' HOUR) AS ws, HOP_END(ts, INTERVAL '15' MINUTE, INTERVAL '1' HOUR) AS we, "
      "SUM(v) AS s FROM t GROUP BY HOP(ts, INTERVAL '15' MINUTE, INTERVAL '1' HOUR)"))
  show("S3 GROUP BY SESSION", lambda: env.sql_query(
      "SELECT k, SESSION_START(ts, INTERVAL '10' MINUTE) AS ws, SESSION_END(ts, INTERVAL '10' MINUTE) AS we, SUM(v) AS s "
      "FROM t GROUP BY SESSION(ts, INTERVAL '10' MINUTE), k"))
  show("S4 TVF TUMBLE", lambda: env.sql_query(
      "SELECT k, window_start, window_end, window_time, SUM(v) AS s FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '10' MINUTES)) "
      "GROUP BY k, window_start, window_end, window_time"))
  show("S4b TVF TUMBLE on src", lambda: env.sql_query(
      "SELECT k, window_start, window_end, window_time, SUM(v) AS s FROM TABLE(TUMBLE(TABLE src, DESCRIPTOR(ts), INTERVAL '10' MINUTES)) "
      "GROUP BY k, window_start, window_end, window_time"))
  show("S5 TVF HOP on src", lambda: env.sql_query(
      "SELECT window_start, window_end, SUM(v) AS s FROM TABLE(HOP(TABLE src, DESCRIPTOR(ts), INTERVAL '15' MINUTES, INTERVAL '1' HOUR)) "
      "GROUP BY window_start, window_end"))
  show("S6 TVF CUMULATE on src", lambda: env.sql_query(
      "SELECT window_start, window_end, SUM(v) AS s FROM TABLE(CUMULATE(TABLE src, DESCRIPTOR(ts), INTERVAL '10' MINUTES, INTERVAL '30' MINUTES)) "
      "GROUP BY window_start, window_end"))
  show("S7 TVF TUMBLE raw rows", lambda: env.sql_query(
      "SELECT k, v, ts, window_start, window_end, window_time FROM TABLE(TUMBLE(TABLE src, DESCRIPTOR(ts), INTERVAL '10' MINUTES))"))
  show("S8 TVF SESSION on src", lambda: env.sql_query(
      "SELECT k, window_start, window_end, SUM(v) AS s FROM TABLE(SESSION(TABLE src PARTITION BY k, DESCRIPTOR(ts), INTERVAL '10' MINUTES)) "
      "GROUP BY k, window_start, window_end"))

  # --- Table API over windows (need a time attribute) ---
  oaggs = lambda: [col("v").count.over(col("w")).alias("c"), col("v").sum.over(col("w")).alias("s"),
                   col("v").avg.over(col("w")).alias("a"), col("v").min.over(col("w")).alias("mn"),
                   col("v").max.over(col("w")).alias("mx")]
  base = [col("k"), col("v"), col("ts")]
  show("O1 rows 1 preceding", lambda: src.over_window(Over.partition_by(col("k")).order_by(col("ts")).preceding(row_interval(1)).alias("w"))
       .select(*base, *oaggs()))
  show("O2 unbounded row", lambda: src.over_window(Over.partition_by(col("k")).order_by(col("ts")).preceding(UNBOUNDED_ROW).alias("w"))
       .select(*base, *oaggs()))
  show("O3 range 10 min", lambda: src.over_window(Over.partition_by(col("k")).order_by(col("ts")).preceding(lit(10).minutes).alias("w"))
       .select(*base, *oaggs()))
  show("O4 unbounded range", lambda: src.over_window(Over.partition_by(col("k")).order_by(col("ts")).preceding(UNBOUNDED_RANGE).alias("w"))
       .select(*base, *oaggs()))
  show("O5 default frame", lambda: src.over_window(Over.partition_by(col("k")).order_by(col("ts")).alias("w"))
       .select(*base, *oaggs()))
  show("O6 rows following current row", lambda: src.over_window(Over.partition_by(col("k")).order_by(col("ts")).preceding(row_interval(1)).following(CURRENT_ROW).alias("w"))
       .select(*base, *oaggs()))
  show("O6b range following current range", lambda: src.over_window(Over.partition_by(col("k")).order_by(col("ts")).preceding(UNBOUNDED_RANGE).following(CURRENT_RANGE).alias("w"))
       .select(*base, *oaggs()))
  show("O7 no partition", lambda: src.over_window(Over.order_by(col("ts")).preceding(row_interval(2)).alias("w"))
       .select(*base, *oaggs()))
  show("O8 rows following 1", lambda: src.over_window(Over.partition_by(col("k")).order_by(col("ts")).preceding(row_interval(1)).following(row_interval(1)).alias("w"))
       .select(*base, *oaggs()))
  show("O9 plain timestamp order", lambda: t.over_window(Over.partition_by(col("k")).order_by(col("ts")).preceding(UNBOUNDED_ROW).alias("w"))
       .select(*base, col("v").sum.over(col("w")).alias("s")))
  show("O10 range 10 min following unbounded", lambda: src.over_window(Over.partition_by(col("k")).order_by(col("ts")).preceding(UNBOUNDED_RANGE).following(lit(10).minutes).alias("w"))
       .select(*base, col("v").sum.over(col("w")).alias("s")))
  show("O11 mismatched row/range", lambda: src.over_window(Over.partition_by(col("k")).order_by(col("ts")).preceding(row_interval(1)).following(CURRENT_RANGE).alias("w"))
       .select(*base, col("v").sum.over(col("w")).alias("s")))
  show("O12 unbounded row following unbounded", lambda: src.over_window(Over.partition_by(col("k")).order_by(col("ts")).preceding(UNBOUNDED_ROW).following(UNBOUNDED_ROW).alias("w"))
       .select(*base, col("v").sum.over(col("w")).alias("s")))
  show("O13 two windows", lambda: src.over_window(Over.partition_by(col("k")).order_by(col("ts")).preceding(row_interval(1)).alias("w1"),
                                                  Over.order_by(col("ts")).preceding(UNBOUNDED_RANGE).alias("w2"))
       .select(col("k"), col("ts"), col("v").sum.over(col("w1")).alias("s1"), col("v").count.over(col("w2")).alias("c2")))
  show("O14 undefined alias", lambda: src.over_window(Over.partition_by(col("k")).order_by(col("ts")).alias("w"))
       .select(col("v").sum.over(col("x")).alias("s")))
  show("O15 order by desc", lambda: src.over_window(Over.partition_by(col("k")).order_by(col("ts").desc).preceding(UNBOUNDED_ROW).alias("w"))
       .select(col("k"), col("v").sum.over(col("w")).alias("s")))

  # --- SQL over windows on the plain-timestamp view ---
  show("Q1 SQL OVER range interval", lambda: env.sql_query(
      "SELECT k, v, ts, SUM(v) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '10' MINUTE PRECEDING AND CURRENT ROW) AS s, "
      "COUNT(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS c, "
      "ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts) AS rn, RANK() OVER (PARTITION BY k ORDER BY ts) AS rk, "
      "DENSE_RANK() OVER (ORDER BY ts) AS dr, LAG(v) OVER (PARTITION BY k ORDER BY ts) AS lg, "
      "LEAD(v, 2) OVER (PARTITION BY k ORDER BY ts) AS ld, AVG(v) OVER (PARTITION BY k) AS av FROM t"))
  show("Q2 SQL OVER default frame", lambda: env.sql_query(
      "SELECT k, v, ts, SUM(v) OVER (PARTITION BY k ORDER BY ts) AS s FROM t"))

if "2" in PARTS:
    def over_sql(name, frame_items):
        show(name, lambda: env.sql_query(f"SELECT k, v, ts, {frame_items} FROM t"))

    W = "PARTITION BY k ORDER BY ts"
    five = lambda frame: ", ".join(f"{fn}(v) OVER ({frame}) AS {a}" for fn, a in
                                   [("COUNT", "c"), ("SUM", "s"), ("AVG", "a"), ("MIN", "mn"), ("MAX", "mx")])
    over_sql("P1 rows 1 preceding", five(f"{W} ROWS BETWEEN 1 PRECEDING AND CURRENT ROW"))
    over_sql("P2 rows unbounded", five(f"{W} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"))
    over_sql("P3 range 10 min", five(f"{W} RANGE BETWEEN INTERVAL '10' MINUTE PRECEDING AND CURRENT ROW"))
    over_sql("P4 range unbounded", five(f"{W} RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"))
    over_sql("P5 no partition rows 2", five("ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW"))
    over_sql("P6 rows 1 preceding 1 following", five(f"{W} ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING"))
    over_sql("P7 range unbounded to 10 min following",
             f"SUM(v) OVER ({W} RANGE BETWEEN UNBOUNDED PRECEDING AND INTERVAL '10' MINUTE FOLLOWING) AS s")
    over_sql("P8 rows unbounded both", f"SUM(v) OVER ({W} ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS s")
    over_sql("P9 ranking", f"ROW_NUMBER() OVER ({W}) AS rn, RANK() OVER ({W}) AS rk, DENSE_RANK() OVER (ORDER BY ts) AS dr")
    over_sql("P10 lag lead", f"LAG(v) OVER ({W}) AS lg, LEAD(v, 2) OVER ({W}) AS ld")
    over_sql("P11 partition only", "AVG(v) OVER (PARTITION BY k) AS a, COUNT(*) OVER () AS c")
    over_sql("P12 range 10 min following", f"SUM(v) OVER ({W} RANGE BETWEEN CURRENT ROW AND INTERVAL '10' MINUTE FOLLOWING) AS s")
    over_sql("P13 order by desc", f"SUM(v) OVER (PARTITION BY k ORDER BY ts DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS s")

    # Result names and exact types of window properties mixed with unaliased aggregates.
    def names_types(name, make):
        try:
            tab = make()
            print(f"== {name}\n   {tab.get_resolved_schema()}".replace("\n", " "))
        except Exception as e:  # noqa: BLE001
            print(f"== {name}\n   ERROR {type(e).__name__}: {str(e).strip().splitlines()[0][:300]}")
    names_types("N1 names", lambda: t.window(Tumble.over(lit(10).minutes).on(col("ts")).alias("w"))
                .group_by(col("w"), col("k")).select(col("k"), col("w").start, col("v").sum, col("w").end, col("v").count,
                                                     col("w").rowtime, col("v") .avg))
    names_types("N2 SQL names", lambda: env.sql_query(
        "SELECT k, TUMBLE_START(ts, INTERVAL '10' MINUTE), SUM(v) FROM t GROUP BY TUMBLE(ts, INTERVAL '10' MINUTE), k"))
    names_types("N3 over names", lambda: env.sql_query(f"SELECT k, SUM(v) OVER ({W}), COUNT(v) OVER ({W}) FROM t"))

    # TIMESTAMP_LTZ windows in a non-UTC zone: alignment of day windows.
    env.get_config().set("table.local-time-zone", "Asia/Shanghai")
    env.create_temporary_view("lt", env.sql_query("SELECT k, v, CAST(ts AS TIMESTAMP_LTZ(3)) AS lts FROM t"))
    show("L1 TVF day tumble on LTZ in Shanghai", lambda: env.sql_query(
        "SELECT window_start, window_end, window_time, SUM(v) AS s FROM TABLE(TUMBLE(TABLE lt, DESCRIPTOR(lts), INTERVAL '1' DAY)) "
        "GROUP BY window_start, window_end, window_time"))
    names_types("L1 types", lambda: env.sql_query(
        "SELECT window_start, window_end, window_time, SUM(v) AS s FROM TABLE(TUMBLE(TABLE lt, DESCRIPTOR(lts), INTERVAL '1' DAY)) "
        "GROUP BY window_start, window_end, window_time"))
    show("L2 GROUP BY TUMBLE day on LTZ in Shanghai", lambda: env.sql_query(
        "SELECT TUMBLE_START(lts, INTERVAL '1' DAY) AS ws, TUMBLE_END(lts, INTERVAL '1' DAY) AS we, SUM(v) AS s FROM lt "
        "GROUP BY TUMBLE(lts, INTERVAL '1' DAY)"))
    show("L3 Table API tumble day on LTZ in Shanghai", lambda: env.from_path("lt")
         .window(Tumble.over(lit(1).days).on(col("lts")).alias("w")).group_by(col("w"))
         .select(col("w").start, col("w").end, col("v").sum.alias("s")))

if "3" in PARTS:
    # Slides that do not divide the size, long tumbles, and microsecond timestamps near a boundary.
    show("G17 slide 10 min every 3 min", lambda: t.window(Slide.over(lit(10).minutes).every(lit(3).minutes).on(col("ts")).alias("w"))
         .group_by(col("w")).select(col("w").start, col("w").end, col("v").count.alias("c"), col("v").sum.alias("s")))
    show("G18 tumble 90 min", lambda: t.window(Tumble.over(lit(90).minutes).on(col("ts")).alias("w"))
         .group_by(col("w")).select(col("w").start, col("w").end, col("v").sum.alias("s")))
    micro = DataTypes.ROW([DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT()),
                           DataTypes.FIELD("ts", DataTypes.TIMESTAMP(6))])
    show("G19 TIMESTAMP(6) near a boundary", lambda: env.from_elements(
        [("a", 1, T(2024, 1, 2, 0, 9, 59, 999500)), ("a", 2, T(2024, 1, 2, 0, 10, 0, 0)), ("a", 4, T(2024, 1, 2, 0, 10, 0, 500))], micro)
         .window(Tumble.over(lit(10).minutes).on(col("ts")).alias("w"))
         .group_by(col("w")).select(col("w").start, col("w").end, col("w").rowtime, col("v").sum.alias("s")))
    show("G20 slide 1 day every 6 hours", lambda: t.window(Slide.over(lit(1).days).every(lit(6).hours).on(col("ts")).alias("w"))
         .group_by(col("w")).select(col("w").start, col("w").end, col("v").count.alias("c")))

if "4" in PARTS:
    # Where do NULL order keys go in an over window (SQL; the Table API refuses batch over windows)?
    env.create_temporary_view("tn", env.from_elements(DATA + [("a", 100, None)], SCHEMA))
    show("P14 NULL ts, ROWS unbounded", lambda: env.sql_query(
        "SELECT k, v, ts, SUM(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS s "
        "FROM tn WHERE k = 'a'"))
    show("P15 NULL ts, RANGE unbounded", lambda: env.sql_query(
        "SELECT k, v, ts, SUM(v) OVER (PARTITION BY k ORDER BY ts) AS s FROM tn WHERE k = 'a'"))
    show("P16 NULL ts, DESC", lambda: env.sql_query(
        "SELECT k, v, ts, SUM(v) OVER (PARTITION BY k ORDER BY ts DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS s "
        "FROM tn WHERE k = 'a'"))
