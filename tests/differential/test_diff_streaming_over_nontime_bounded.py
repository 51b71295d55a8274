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

# PyFlink 2.3 aggregates the window's changes (measured: +I a 1, -U/+U a 6, ...); we refuse it by name.
AGGREGATION = SETUP + 't_env.execute_sql("SELECT k, SUM(s) AS ss FROM (SELECT k, v, SUM(v) OVER (PARTITION BY k ' \
    'ORDER BY v) AS s FROM f) GROUP BY k").print()\n'
programs["aggregation_of_the_changes"] = AGGREGATION


@pytest.mark.parametrize("name", sorted(set(programs) - set(refusals) - set(python_refusals)
                                         - {"aggregation_of_the_changes"}))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same(name)


@pytest.mark.parametrize("name", sorted(refusals))
def test_refused_as_pyflink(differential: Comparison, name: str) -> None:
    ref, got = differential.pyflink[name]["error"], differential.ours[name]["error"]
    assert ref is not None and got is not None, (ref, got)
    assert ref[0] == got[0] and REFUSAL_MESSAGES[name] in ref[1] and REFUSAL_MESSAGES[name] in got[1], (ref, got)


def test_aggregation_of_the_changes_is_refused_by_name(differential: Comparison) -> None:
    ref, got = differential.pyflink["aggregation_of_the_changes"], differential.ours["aggregation_of_the_changes"]
    assert ref["error"] is None and "| -U |" in ref["stdout"], ref
    assert got["error"] is not None and got["error"][0] == "TableException", got
    assert got["error"][1].startswith("Unsupported: an aggregation of the changes of OverAggregate(partitionBy=[k], "
                                      "orderBy=[v ASC], window=[ RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW]"), got


@pytest.mark.parametrize("name", sorted(python_refusals))
def test_python_aggregates_refused_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same_refusal(name, starts_with=python_refusals[name][1])
