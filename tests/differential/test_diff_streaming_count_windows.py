"""Row-count group windows (``Tumble.over(row_interval(n))``, ``Slide.over(row_interval(n)).every(row_interval(m))``
on a processing-time attribute) in streaming mode, compared with PyFlink 2.3.

Per key, in arrival order, window ``k`` holds rows ``k*m .. k*m+n-1`` and fires when its last row arrives; an
incomplete window never fires, not even when a bounded source ends. Over a monitored directory, files are
published while the job runs and each file's windows are awaited before the next file is written (an engine that
answers only at the end of its input fails); over a bounded file the whole result is compared."""

import pytest

from harness import (STREAMING_PRELUDE, TAKE_MULTISETS, Comparison, assert_prints,  # noqa: F401
                     collect_while_publishing, differential, event_table, python_aggregates)

FUNCTIONS = """
from pyflink.table.window import Tumble, Slide
from pyflink.table.expressions import row_interval
""" + python_aggregates(merge=True) + """
T2 = Tumble.over(row_interval(2)).on(col('pt')).alias('w')
T3 = Tumble.over(row_interval(3)).on(col('pt')).alias('w')
S3_2 = Slide.over(row_interval(3)).every(row_interval(2)).on(col('pt')).alias('w')
S2_3 = Slide.over(row_interval(2)).every(row_interval(3)).on(col('pt')).alias('w')
S2_1 = Slide.over(row_interval(2)).every(row_interval(1)).on(col('pt')).alias('w')
"""

UNBOUNDED = STREAMING_PRELUDE + FUNCTIONS + event_table("k STRING, v INT, pt AS PROCTIME()")

# Per key, in arrival order: a 1, 3, 4 | 6 | 7, 8 and b 2 | 5 | 9 (files f1 | f2 | f3).
FILES = ["a,1\\nb,2\\na,3\\na,4\\n", "b,5\\na,6\\n", "a,7\\na,8\\nb,9\\n"]


def unbounded(window: str, select: str, counts: list, keyed: bool = True, take: str = "take") -> str:
    """Publishes the three files in turn, taking ``counts[i]`` windows after file i with ``take``."""
    group = "col('w'), col('k')" if keyed else "col('w')"
    return UNBOUNDED + (TAKE_MULTISETS if take != "take" else "") + collect_while_publishing(
        f"it = t_env.from_path('ev').window({window}).group_by({group}).select({select}).execute().collect()\n",
        counts, FILES, first=0, take=take)


BOUNDED = FUNCTIONS + """
import os, tempfile
from pyflink.table import EnvironmentSettings, TableEnvironment
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
d = tempfile.mkdtemp()
with open(os.path.join(d, 'a.csv'), 'w') as f:
    f.write('a,1,1970-01-01 00:00:01\\nb,2,1970-01-01 00:00:02\\na,3,1970-01-01 00:00:03\\na,4,1970-01-01 00:00:04\\n'
            'b,5,1970-01-01 00:00:05\\na,6,1970-01-01 00:00:06\\na,7,1970-01-01 00:00:07\\na,8,1970-01-01 00:00:08\\n'
            'b,9,1970-01-01 00:00:09\\n')
t_env.execute_sql("CREATE TABLE ev (k STRING, v INT, ts TIMESTAMP(3), pt AS PROCTIME(), "
                  "WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) "
                  "WITH ('connector' = 'filesystem', 'path' = '" + d + "', 'format' = 'csv')")
t = t_env.from_path('ev')
"""


def bounded(window: str, select: str, group: str = "col('w'), col('k')") -> str:
    return BOUNDED + f"result = t.window({window}).group_by({group}).select({select})\n"


programs = {
    # a: [1, 3] fires with f1, [4, 6] and b's [2, 5] with f2, [7, 8] with f3; b's 9 waits forever.
    "unbounded_tumble_builtin": unbounded("T2", "col('k'), col('v').sum, col('v').count, col('v').avg, col('v').max, "
                                          "col('v').min", [1, 2, 1]),
    # COLLECT and LISTAGG on the processor too, in arrival order.
    "unbounded_tumble_collect_listagg": unbounded("T2", "col('k'), col('v').collect, col('v').cast(DataTypes.STRING())"
                                                  ".list_agg(';'), col('k').list_agg()", [1, 2, 1],
                                                  take="take_multisets"),
    "unbounded_tumble_general_udaf": unbounded("T3", "col('k'), total(col('v'))", [1, 0, 2]),
    "unbounded_tumble_pandas": unbounded("T2", "col('k'), mean(col('v'))", [1, 2, 1]),
    "unbounded_tumble_without_key": unbounded("T2", "col('v').sum, total(col('v'))", [2, 1, 1], keyed=False),
    # Window k holds rows 2k .. 2k+2: a's [1, 3, 4] (f1), [4, 6, 7] and b's [2, 5, 9] (f3).
    "unbounded_slide_overlapping": unbounded("S3_2", "col('k'), col('v').sum, total(col('v'))", [1, 0, 2]),
    # Window k holds rows 3k, 3k+1: a's 4 and b's 9 are in none.
    "unbounded_slide_with_gaps": unbounded("S2_3", "col('k'), col('v').sum", [1, 1, 1]),
    "unbounded_slide_pandas": unbounded("S2_1", "col('k'), mean(col('v'))", [2, 2, 3]),
    "unbounded_expression_over_aggregates": unbounded("T2", "col('k'), (total(col('v')) * 10).alias('t')",
                                                      [1, 2, 1]),
    # A bounded source in streaming mode: the same windows, the incomplete ones never fire.
    "bounded_tumble_builtin": bounded("T2", "col('k'), col('v').sum, col('v').count, col('v').avg"),
    "bounded_tumble_general_udaf": bounded("T3", "col('k'), total(col('v'))"),
    "bounded_tumble_pandas": bounded("T2", "col('k'), mean(col('v'))"),
    "bounded_slide_overlapping": bounded("S3_2", "col('k'), col('v').sum, total(col('v'))"),
    "bounded_slide_with_gaps": bounded("S2_3", "col('k'), col('v').max"),
    "bounded_slide_pandas": bounded("S2_1", "col('k'), mean(col('v'))"),
    "bounded_without_key": bounded("T2", "col('v').sum", group="col('w')"),
}

# PyFlink 2.3 fails with a NullPointerException on a pandas UDAF next to a built-in aggregate in one window
# select; we compute both. Hand-computed: a [1, 3] [4, 6] [7, 8], b [2, 5].
extensions = {
    "unbounded_pandas_and_builtin": (
        unbounded("T2", "col('k'), mean(col('v')), col('v').sum", [1, 2, 1]),
        "[['+I', 'a', '2.0', '4']]\n[['+I', 'a', '5.0', '10'], ['+I', 'b', '3.5', '7']]\n[['+I', 'a', '7.5', '15']]\n"),
}

REFUSED = {
    "start": ("T2", "col('k'), col('w').start, col('v').sum"),
    "end": ("S2_1", "col('k'), col('w').end, total(col('v'))"),
    "rowtime": ("T2", "col('k'), col('w').rowtime, mean(col('v'))"),
    "on_rowtime": ("Tumble.over(row_interval(2)).on(col('ts')).alias('w')", "col('k'), col('v').sum"),
    "size_and_slide_of_two_kinds": ("Slide.over(row_interval(2)).every(lit(1).seconds).on(col('pt')).alias('w')",
                                    "col('k'), col('v').sum"),
}
refusals = {name: bounded(window, select) + "result.execute().collect()\n"
            for name, (window, select) in REFUSED.items()}
refusals["batch_mode"] = (bounded("T2", "col('k'), col('v').sum").replace("in_streaming_mode()", "in_batch_mode()")
                          + "result.execute().collect()\n")
# They run in the module's PyFlink process, checked by test_refusals_say_what_pyflink_says.
programs.update(refusals)


@pytest.mark.parametrize("name", sorted(set(programs) - set(refusals)))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same(name)


@pytest.mark.parametrize("name", sorted(extensions))
def test_extension(_spark_started: None, name: str) -> None:
    assert_prints(name, *extensions[name])


def test_refusals_say_what_pyflink_says(differential: Comparison) -> None:
    """Measured on PyFlink 2.3: its messages (the last line of its Java chain for rowtime), which ours start with."""
    pyflink, ours = differential.pyflink, differential.ours
    expected = {
        "start": ["ValidationException", "Window start and Window end cannot be selected for a row-count tumble window."],
        "end": ["ValidationException", "Window start and Window end cannot be selected for a row-count slide window."],
        "rowtime": ["ValidationException", "Invalid function call:"],
        "on_rowtime": ["UnsupportedOperationException",
                       "Event-time grouping windows on row intervals are currently not supported."],
        "size_and_slide_of_two_kinds": ["ValidationException",
                                        "A sliding window expects the same type of size and slide."],
        "batch_mode": ["TableException", "Cannot generate a valid execution plan for the given query:"],
    }
    for name, (kind, message) in expected.items():
        assert pyflink[name]["error"] is not None and pyflink[name]["error"][0] == kind, (name, pyflink[name])
        # PyFlink prefixes the batch planner's message with the Java class and "Sql optimization: ".
        assert message in pyflink[name]["error"][1], (name, pyflink[name])
        assert name == "batch_mode" or pyflink[name]["error"][1].startswith(message), (name, pyflink[name])
    ours_expected = dict(expected)
    ours_expected["rowtime"] = ["ValidationException", "A proctime window cannot provide a rowtime attribute."]
    ours_expected["on_rowtime"] = ["TableException", expected["on_rowtime"][1][:-1]]
    # PyFlink's batch planner cannot plan them; we say so before running.
    ours_expected["batch_mode"] = ["TableException", "Unsupported: Row-count group windows in batch mode"]
    for name, (kind, message) in ours_expected.items():
        assert ours[name]["error"] is not None and ours[name]["error"][0] == kind, (name, ours[name])
        assert ours[name]["error"][1].startswith(message), (name, ours[name])
