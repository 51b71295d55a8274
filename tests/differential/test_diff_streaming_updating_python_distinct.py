"""Streaming mode: single-level updating aggregations over an unbounded source that Spark's
Update-mode aggregation cannot run, compared with PyFlink 2.3 at parallelism 1: general Python
aggregate functions (with and without ``retract``; Table API ``select`` and ``aggregate``, SQL, a
global one), built-in aggregates next to them in one Table API ``group_by``, and DISTINCT aggregates.

Each program waits for the changes one file makes before it writes the next. Built-in aggregates
(DISTINCT ones too) change per input row in PyFlink (mini-batch is off by default); a Python group
aggregation, and the built-ins sharing it, per key and bundle, so those programs put at most one row
of a key in a file (PyFlink may end a bundle after 1 s, anywhere in a file)."""

import pytest

from harness import RETRACTING_SUM, STREAMING_PRELUDE, Comparison, differential  # noqa: F401 - the fixture

SETUP = STREAMING_PRELUDE + RETRACTING_SUM + """
class MyMax(AggregateFunction):  # no retract: its input is insert-only
    def get_value(self, acc): return acc[0]
    def create_accumulator(self): return [None]
    def accumulate(self, acc, v):
        if v is not None and (acc[0] is None or v > acc[0]): acc[0] = v
    def get_accumulator_type(self): return 'ARRAY<INT>'
    def get_result_type(self): return 'INT'
my_sum, my_max = udaf(MySum()), udaf(MyMax())
t_env.create_temporary_system_function('my_sum', MySum())
t_env.create_temporary_system_function('my_max', MyMax())
d = tempfile.mkdtemp()
publish = lambda name, text: publish_file(d, name, text)
t_env.execute_sql("CREATE TABLE ev (k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '" + d + "', "
                  "'format' = 'csv', 'source.monitor-interval' = '100ms')")
ev = t_env.from_path('ev')
"""


def _run(query: str, *files: "tuple[str, int]", options: str = "") -> str:
    """``query`` collected while files arrive: each file's text, then how many changes it makes;
    ``options`` is program text run before the query."""
    text = SETUP + options + f"it = {query}.collect()\n"
    for i, (content, changes) in enumerate(files):
        text += f"publish('f{i + 1}.csv', {content!r})\ntake(it, {changes})\n"
    return text + "it.close()\n"


# Python group aggregation: one row of a key per file (see above).
PYTHON_FILES = (("a,1\nb,2\n", 2), ("a,3\nc,5\n", 3), ("b,-2\na,-4\n", 4))

BOUNDED = STREAMING_PRELUDE + """
def show(t):
    for r in t.execute().collect():
        print(r.get_row_kind(), list(r))
e = t_env.from_elements([('a', 1), ('b', 2), ('a', 3), ('c', 1), ('b', -2), ('a', -1)], ['k', 'v'])
t_env.create_temporary_view('sv', e.group_by(col('k')).select(col('k'), col('v').sum.alias('s')))
"""

programs = {
    # Built-ins next to a Python aggregate in one group_by: all change with the Python bundle.
    "table_api_python_next_to_built_ins": _run(
        "ev.group_by(col('k')).select(col('k'), col('v').sum.alias('s'), my_sum(col('v')).alias('m'), "
        "col('v').count.alias('c')).execute()", *PYTHON_FILES),
    "table_api_aggregate": _run(
        "ev.group_by(col('k')).aggregate(my_sum(col('v')).alias('m')).select(col('k'), col('m')).execute()",
        *PYTHON_FILES),
    # A function without retract: a single-level aggregation of insert-only rows never retracts.
    "sql_python_without_retract": _run(
        "t_env.execute_sql('SELECT k, my_max(v) AS x, my_sum(v) AS m FROM ev GROUP BY k')", *PYTHON_FILES),
    "table_api_global_python": _run(
        "ev.select(my_sum(col('v')).alias('m')).execute()", ("a,1\n", 1), ("b,2\n", 2), ("c,5\n", 2)),
    # DISTINCT: a repeated value changes nothing (a,1 twice); COUNT(v) next to it changes per row.
    "sql_distinct": _run(
        "t_env.execute_sql('SELECT k, COUNT(DISTINCT v) AS c, SUM(DISTINCT v) AS s, COUNT(v) AS n FROM ev "
        "GROUP BY k')", ("a,1\na,1\nb,2\n", 4), ("a,1\nb,3\n", 4), ("a,2\n", 2)),
    "table_api_global_distinct": _run(
        "ev.select(col('v').count.distinct.alias('c'), col('v').sum.distinct.alias('s')).execute()",
        ("a,1\na,1\nb,2\n", 3), ("a,1\nb,4\n", 2), ("c,-1\n", 2)),
    # DISTINCT over an unbounded updating table: f2's -U empties the global key (-D) and its +U
    # starts it again within one micro-batch; f4 retracts the last 3 and f5 one of two 2s.
    "global_distinct_of_updates": _run(
        "t_env.sql_query('SELECT COUNT(DISTINCT s) AS c, SUM(DISTINCT s) AS t FROM uv').execute()",
        ("a,1\n", 1), ("a,1\n", 2), ("b,2\nc,3\n", 2), ("c,1\n", 4), ("b,-2\n", 2),
        options="t_env.create_temporary_view('uv', ev.group_by(col('k')).select(col('k'), "
                "col('v').sum.alias('s')))\n"),
    # With a state TTL an unchanged MAX still emits -U/+U (a,3 and a,5 in f2: two pairs), as Flink's
    # GroupAggFunction does to keep downstream state alive; without one it emits nothing.
    "sql_state_ttl_unchanged_result_updates": _run(
        "t_env.sql_query('SELECT k, MAX(v) AS m FROM ev GROUP BY k').execute()", ("a,5\n", 1), ("a,3\na,5\n", 4),
        options="t_env.get_config().set('table.exec.state.ttl', '1 h')\n"),
    # DISTINCT over an updating table (bounded): value counts retracted as the sums change.
    "bounded_distinct_of_updates": BOUNDED
    + "show(t_env.sql_query('SELECT COUNT(DISTINCT s) AS c, SUM(DISTINCT s) AS t, COUNT(s) AS n FROM sv'))\n",
    # FLIP-137's non-goal, in SQL: a pandas aggregate in an unbounded GROUP BY.
    "sql_pandas_udaf_refused": SETUP
    + "from pyflink.table import DataTypes\n"
    + "t_env.create_temporary_function('mean', udaf(lambda v: v.mean(), result_type=DataTypes.DOUBLE(), "
    + "func_type='pandas'))\n"
    + "t_env.execute_sql('SELECT k, mean(v) AS m FROM ev GROUP BY k').collect()\n",
}


@pytest.mark.parametrize("name", sorted(programs))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same(name)


def test_pandas_refusal_names_what_pyflink_names(differential: Comparison) -> None:
    differential.assert_same_refusal("sql_pandas_udaf_refused",
                                     starts_with="Cannot generate a valid execution plan for the given query")
