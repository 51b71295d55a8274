"""UNBOUNDED PRECEDING over windows ordered by a non-time column over *bounded* input in streaming
mode (``from_elements``, a CSV file without a monitor interval), compared with PyFlink 2.3.

Flink's bounded source emits every row in order, then the end of input: the window's operator
gives the same updating changelog as over an unbounded source that reads the rows in one file
(tests/differential/test_diff_streaming_over_nontime.py): ``+I`` for each new row and ``-U``/``+U``
for each row after it (and, in a RANGE frame, each earlier peer) whose aggregates change. The whole
changelog is printed in order, row kinds included.
"""

import pytest

from harness import Comparison, differential  # noqa: F401 - the fixture

SETUP = """
import os, tempfile
from pyflink.table import EnvironmentSettings, TableEnvironment
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
src = t_env.from_elements([('a', 1), ('a', 4), ('a', 2), ('b', 3), ('a', 10), ('a', 8), ('b', 7), ('a', 5),
                           ('a', 2)], ['k', 'v'])
t_env.create_temporary_view('src', src)
t_env.create_temporary_view('neg', t_env.from_elements([('a', -1), ('a', -2), ('a', -1), ('b', 3), ('b', 3)], ['k', 'v']))
d = tempfile.mkdtemp()
with open(os.path.join(d, 'f.csv'), 'w') as f:
    f.write('a,1\\na,4\\na,2\\nb,3\\na,2\\n')
t_env.execute_sql("CREATE TABLE f (k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '" + d + "', "
                  "'format' = 'csv')")
def kinds(result):
    with result.collect() as it:
        for row in it:
            print(str(row.get_row_kind()), list(row))
"""

AGGREGATES = "SUM(v) OVER w AS s, COUNT(*) OVER w AS c, MIN(v) OVER w AS mi, MAX(v) OVER w AS ma, AVG(v) OVER w AS av"
ROWS = "PARTITION BY k ORDER BY v ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"


def query(sql: str) -> str:
    return SETUP + f'kinds(t_env.execute_sql("{sql}"))\n'


programs = {
    # By hand, a: 1 (+I 1), 4 (+I 5), 2 (+I 3, -U/+U a 4 5 -> 7), then b, 3 (+I 3) ...
    "rows_builtins": query(f"SELECT k, v, {AGGREGATES} FROM src WINDOW w AS ({ROWS})"),
    # Without a frame: RANGE; the second a, 2 updates its earlier peer first, then is inserted.
    "range_default_frame_ties": query("SELECT k, v, SUM(v) OVER (PARTITION BY k ORDER BY v) AS s FROM src"),
    # No PARTITION BY: one key for all rows.
    "global_count": query("SELECT k, v, COUNT(v) OVER (ORDER BY v) AS c FROM src"),
    # A bounded CSV file; a filter below the window and a projection above it.
    "csv_filter_projection": query("SELECT v, s * 10 AS s10 FROM (SELECT k, v, SUM(v) OVER (PARTITION BY k ORDER BY v) "
                                   "AS s FROM f WHERE v > 1)"),
    "csv_print": SETUP + 't_env.execute_sql("SELECT k, v, MIN(v) OVER (PARTITION BY k ORDER BY v ROWS BETWEEN '
    'UNBOUNDED PRECEDING AND CURRENT ROW) AS m, COUNT(*) OVER (PARTITION BY k ORDER BY v ROWS BETWEEN '
    'UNBOUNDED PRECEDING AND CURRENT ROW) AS c FROM f").print()\n',
    # to_changelog: the changes as insert-only rows, their kind in front.
    "to_changelog": SETUP + 'kinds(t_env.sql_query("SELECT k, v, SUM(v) OVER (PARTITION BY k ORDER BY v) AS s '
    'FROM f").to_changelog().execute())\n',
}

# A sink that takes only inserts refuses the changelog (PyFlink names the node; it lists the
# aggregates it splits SUM into, so the comparison stops at the frame).
refusals = {
    "refuse_insert_only_sink": SETUP + 't_env.execute_sql("CREATE TABLE snk (k STRING, v INT, s INT) WITH ('
    '\'connector\' = \'filesystem\', \'path\' = \'" + tempfile.mkdtemp() + "\', \'format\' = \'csv\')")\n'
    't_env.execute_sql("INSERT INTO snk SELECT k, v, SUM(v) OVER (PARTITION BY k ORDER BY v) AS s FROM f").wait()\n',
}
REFUSAL_MESSAGES = {
    "refuse_insert_only_sink": "doesn't support consuming update and delete changes which is produced by node "
                               "OverAggregate(partitionBy=[k], orderBy=[v ASC], window=[ RANGE BETWEEN UNBOUNDED "
                               "PRECEDING AND CURRENT ROW], select=[",
}
programs.update(refusals)

# Python aggregates over such a window: PyFlink 2.3 refuses the pandas one and the general one,
# whatever the frame (measured), and so do we, with its exception kind and first line.
PYTHON_AGGREGATES = SETUP + '''
from pyflink.table import AggregateFunction, DataTypes
from pyflink.table.udf import udaf
class Total(AggregateFunction):
    def create_accumulator(self):
        return [0]
    def accumulate(self, acc, v):
        acc[0] += v
    def retract(self, acc, v):
        acc[0] -= v
    def get_value(self, acc):
        return acc[0]
    def get_result_type(self):
        return DataTypes.BIGINT()
    def get_accumulator_type(self):
        return DataTypes.ARRAY(DataTypes.BIGINT())
t_env.create_temporary_function('total', udaf(Total()))
t_env.create_temporary_function('ptotal', udaf(lambda v: v.sum(), result_type=DataTypes.BIGINT(), func_type='pandas'))
'''
python_refusals = {
    "refuse_pandas_aggregate": (PYTHON_AGGREGATES + 'kinds(t_env.execute_sql("SELECT k, ptotal(v) OVER (PARTITION BY k '
                                'ORDER BY v) AS s FROM src"))\n',
                                "OVER windows' ordering in stream mode must be defined on a time attribute."),
    "refuse_general_aggregate": (PYTHON_AGGREGATES + 'kinds(t_env.execute_sql("SELECT k, total(v) OVER (PARTITION BY k '
                                 'ORDER BY v ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS s FROM f"))\n',
                                 "Cannot generate a valid execution plan for the given query:"),
}
programs.update({name: program for name, (program, _) in python_refusals.items()})

# An aggregation of the window's changes: each change is accumulated (+I/+U) or retracted (-U/-D),
# as Flink's GroupAggFunction does, except that MIN and MAX skip retractions (Flink's planner takes
# the window's columns as never updated): in "neg", a's MAX(s) stays -1 and MIN(s) keeps -3 after
# its -U; b's COUNT drops to 0 at the RANGE peer's -U, so b is deleted (-D) and inserted again.
OVER_SUM = "(SELECT k, v, SUM(v) OVER (PARTITION BY k ORDER BY v) AS s FROM {})"
programs.update({
    "aggregation_print": SETUP + 't_env.execute_sql("SELECT k, SUM(s) AS ss, MAX(s) AS ma FROM '
    + OVER_SUM.format("src") + ' GROUP BY k").print()\n',
    # Over a CSV file, whose columns the source defines under aliases (the ids the window's changes
    # re-enter under).
    "aggregation_csv": query("SELECT k, SUM(s) AS ss, COUNT(*) AS c FROM " + OVER_SUM.format("f") + " GROUP BY k"),
    "aggregation_builtins": query("SELECT k, SUM(s) AS ss, COUNT(*) AS c, MAX(s) AS ma, MIN(s) AS mi, AVG(s) AS av, "
                                  "MAX(-s) AS nma FROM " + OVER_SUM.format("src") + " GROUP BY k"),
    "aggregation_min_max_skip_retractions": query("SELECT k, MIN(s) AS mi, MAX(s) AS ma, MIN(-s) AS nmi, "
                                                  "COUNT(*) AS n FROM " + OVER_SUM.format("neg") + " GROUP BY k"),
    # Flink's types: SUM/MAX/AVG of the window's SUM of an INT column are INT (planned only).
    "aggregation_types": SETUP + 't_env.sql_query("SELECT k, SUM(s) AS ss, MAX(s) AS ma, AVG(s) AS av FROM '
    + OVER_SUM.format("f") + ' GROUP BY k").print_schema()\n',
    # A filter above the aggregation passes a +U whose -U it drops (Flink's Calc); one below it.
    "aggregation_filter_above": query("SELECT k, ss FROM (SELECT k, SUM(s) AS ss FROM " + OVER_SUM.format("src")
                                      + " GROUP BY k) WHERE ss > 10"),
    "aggregation_filter_below": query("SELECT k, COUNT(*) AS n, MAX(s) AS ma FROM " + OVER_SUM.format("src")
                                      + " WHERE s > 3 GROUP BY k"),
    # Grouped by the window's order column, and a global aggregation (one key).
    "aggregation_by_order_column": query("SELECT v, SUM(s) AS ss, COUNT(*) AS n FROM " + OVER_SUM.format("neg")
                                         + " GROUP BY v"),
    "aggregation_global": query("SELECT MAX(s) AS ma, COUNT(*) AS n FROM (SELECT k, v, COUNT(v) OVER (PARTITION BY k "
                                "ORDER BY v ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS s FROM src)"),
})


@pytest.mark.parametrize("name", sorted(set(programs) - set(refusals) - set(python_refusals)))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same(name)


@pytest.mark.parametrize("name", sorted(refusals))
def test_refused_as_pyflink(differential: Comparison, name: str) -> None:
    ref, got = differential.pyflink[name]["error"], differential.ours[name]["error"]
    assert ref is not None and got is not None, (ref, got)
    assert ref[0] == got[0] and REFUSAL_MESSAGES[name] in ref[1] and REFUSAL_MESSAGES[name] in got[1], (ref, got)


@pytest.mark.parametrize("name", sorted(python_refusals))
def test_python_aggregates_refused_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same_refusal(name, starts_with=python_refusals[name][1])
