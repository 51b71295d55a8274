"""Pandas UDAFs in tumbling and sliding windows over unbounded sources on the fast path (Spark's own
window aggregation collects each window's rows, the functions run once per fired window), compared
with PyFlink 2.3 where it can plan the query and with hand-computed rows where it cannot; files are
published while the job runs and each window's result is awaited before the next file is written."""

import pytest

from harness import (STREAMING_PRELUDE, Comparison, assert_prints, differential, event_table,  # noqa: F401
                     monitored_table, python_aggregates)

SETUP = STREAMING_PRELUDE + """
from pyflink.table import DataTypes
from pyflink.table.window import Tumble, Slide
from pyflink.table.udf import udaf
""" + event_table("k STRING, v INT, x DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND") + """
mean = udaf(lambda v: v.mean(), result_type=DataTypes.DOUBLE(), func_type='pandas')
weighted = udaf(lambda v, x: float((v * x).sum() / x.sum()), result_type=DataTypes.DOUBLE(), func_type='pandas')
"""

# Watermark 00:05 after this file: a [0, 5) fires (a 00:01, 00:03); b 00:06 waits.
FIRST = "publish('f1.csv', 'a,1,1.0,1970-01-01 00:00:01\\na,2,3.0,1970-01-01 00:00:03\\nb,3,1.0,1970-01-01 00:00:06\\n')\n"
# a 00:02 is late (its window fired); b 00:05 joins b [5, 10); a 00:12 moves the watermark to 00:11,
# which fires b [5, 10).
SECOND = ("publish('f2.csv', 'a,10,1.0,1970-01-01 00:00:02\\nb,7,3.0,1970-01-01 00:00:05\\n"
          "a,4,1.0,1970-01-01 00:00:12\\n')\n")


def tumble(select: str, option: str = "") -> str:
    return (SETUP + option + FIRST
            + "w = t_env.from_path('ev').window(Tumble.over(lit(5).seconds).on(col('ts')).alias('w'))\n"
            + f"it = w.group_by(col('w'), col('k')).select({select}).execute().collect()\n"
            + "print(list(next(it)))\n" + SECOND + "print(list(next(it)))\nit.close()\n")


programs = {
    # T3's shape with window properties and a two-argument pandas UDAF.
    "tumble_pandas_udafs": tumble("col('k'), col('w').start, col('w').end, col('w').rowtime, mean(col('v')), "
                                  "weighted(col('v'), col('x')) * 2"),
    # One window for all keys.
    "tumble_pandas_udaf_without_keys": (
        SETUP + FIRST
        + "w = t_env.from_path('ev').window(Tumble.over(lit(5).seconds).on(col('ts')).alias('w'))\n"
        + "it = w.group_by(col('w')).select(col('w').start, mean(col('v')), mean(col('x'))).execute().collect()\n"
        + "print(list(next(it)))\n" + SECOND + "print(list(next(it)))\nit.close()\n"),
}

MIXED = ("col('k'), col('w').start, mean(col('v')), col('v').sum, col('v').avg, col('v').count, "
         "mean(col('x')) + col('v').max")
# By hand: a [0, 5) holds (1, 1.0), (2, 3.0): mean 1.5, SUM 3, AVG of an INT is an INT (1), COUNT 2,
# mean(x) 2.0 + MAX 2; the late a, 10 is dropped; b [5, 10) holds (3, 1.0), (7, 3.0).
MIXED_ROWS = ("['a', datetime.datetime(1970, 1, 1, 0, 0), 1.5, 3, 1, 2, 4.0]\n"
              "['b', datetime.datetime(1970, 1, 1, 0, 0, 5), 5.0, 10, 5, 2, 9.0]\n")
PROCESSOR = "t_env.get_config().set('pyflink_table.streaming.python-window', 'processor')\n"

extensions = {
    # PyFlink 2.3 fails with a NullPointerException when built-in and pandas aggregates share a
    # stream window select; both of our paths give the hand-computed rows.
    "tumble_pandas_and_builtins": (tumble(MIXED), MIXED_ROWS),
    "tumble_pandas_and_builtins_processor": (tumble(MIXED, PROCESSOR), MIXED_ROWS),
}


@pytest.mark.parametrize("name", sorted(programs))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    assert differential.pyflink[name]["error"] is None, differential.pyflink[name]  # both compute rows
    differential.assert_same(name)


@pytest.mark.parametrize("name", sorted(extensions))
def test_extension(_spark_started: None, name: str) -> None:
    assert_prints(name, *extensions[name])


def test_fast_path_is_taken_where_it_applies(_spark_started: None) -> None:
    # Which path runs is visible in the physical plan: the worker function's name.
    program = SETUP + python_aggregates() + """
from pyflink.table.window import Session
ev = t_env.from_path('ev')
def path(window, *select):
    plan = ev.window(window.alias('w')).group_by(col('w'), col('k')).select(col('k'), *select).explain()
    return 'collected' if 'collected_window_aggregation' in plan else 'processor'
tumble, slide = Tumble.over(lit(5).seconds).on(col('ts')), Slide.over(lit(10).seconds).every(lit(5).seconds).on(col('ts'))
print(path(tumble, mean(col('v'))), path(slide, mean(col('v')), col('v').sum),
      path(tumble, mean(col('v')), total(col('v'))), path(tumble, mean(col('v')), col('v').count.distinct),
      path(Session.with_gap(lit(2).seconds).on(col('ts')), mean(col('v'))))
t_env.get_config().set('pyflink_table.streaming.python-window', 'processor')
print(path(tumble, mean(col('v'))))
t_env.get_config().set('pyflink_table.streaming.python-window', 'sometimes')
try:
    path(tumble, mean(col('v')))
except Exception as e:
    print(type(e).__name__, "'sometimes' of pyflink_table.streaming.python-window; expected auto or processor" in str(e))
"""
    assert_prints("paths", program, "collected collected processor processor processor\nprocessor\nTableException True\n")


def test_window_without_a_watermark_is_refused_when_the_select_is_built(_spark_started: None) -> None:
    program = STREAMING_PRELUDE + """
from pyflink.table.window import Tumble
d = tempfile.mkdtemp()
""" + monitored_table("nowm", "k STRING, v INT, ts TIMESTAMP(3)") + python_aggregates() + """
w = t_env.from_path('nowm').window(Tumble.over(lit(5).seconds).on(col('ts')).alias('w'))
try:
    w.group_by(col('w'), col('k')).select(col('k'), mean(col('v')))
except Exception as e:
    print(type(e).__name__, 'needs a time attribute with a watermark' in str(e))
"""
    assert_prints("no_watermark", program, "TableException True\n")
