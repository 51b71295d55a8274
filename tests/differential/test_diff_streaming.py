"""Streaming mode: changelogs of bounded inputs (row kinds, the ``op`` column, the print sink,
append-only sinks refusing updates), compared with PyFlink 2.3 in streaming mode at parallelism 1."""

import pytest

from harness import Comparison, differential  # noqa: F401 - the fixture

STREAM = """
from pyflink.table import EnvironmentSettings, TableEnvironment
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
src = t_env.from_elements([(1, 'a'), (2, 'b'), (3, 'a'), (3, 'a'), (-1, 'b')], ['v', 'k'])
"""

KINDS = """
with {table}.execute().collect() as it:
    for row in it:
        print(str(row.get_row_kind()), list(row))
"""

COUNT = "counts = src.group_by(col('k')).select(col('k'), col('v').count.alias('c'))\n"
UNION_KINDS = """
t_env.create_temporary_view('s', src)
with t_env.sql_query("{query}").execute().collect() as it:
    print(sorted(str(row.get_row_kind()) + ' ' + str(list(row)) for row in it))
"""


# A bounded file read as a stream: the row a@2 arrives after b@6, when the watermark (delay 0) is
# 6 s, so it is late for [0, 5) (dropped) but not for the sliding window [0, 10).
EVENTS = """
import os, tempfile
from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.window import Slide, Tumble
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
d = tempfile.mkdtemp()
with open(os.path.join(d, 'events.csv'), 'w') as f:
    f.write('a,1,1970-01-01 00:00:01\\na,2,1970-01-01 00:00:03\\nb,3,1970-01-01 00:00:06\\n'
            'a,4,1970-01-01 00:00:02\\na,5,1970-01-01 00:00:07\\na,6,1970-01-01 00:00:12\\n')
t_env.execute_sql("CREATE TABLE ev (k STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) "
                  "WITH ('connector' = 'filesystem', 'path' = '" + d + "', 'format' = 'csv')")
ev = t_env.from_path('ev')
"""

programs = {
    # T2: a bounded stream drops late rows; every other window fires at the end of input.
    "bounded_tumble_drops_late_rows": EVENTS
    + "result = ev.window(Tumble.over(lit(5).seconds).on(col('ts')).alias('w')).group_by(col('w'), col('k'))"
    + ".select(col('k'), col('w').start, col('v').sum, col('v').count)",
    "bounded_sql_tumble_drops_late_rows": EVENTS
    + "result = t_env.sql_query(\"SELECT k, TUMBLE_END(ts, INTERVAL '5' SECOND) AS e, SUM(v) AS s FROM ev "
    + "GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND)\")",
    "bounded_slide_judges_lateness_per_window": EVENTS
    + "result = ev.window(Slide.over(lit(10).seconds).every(lit(5).seconds).on(col('ts')).alias('w'))"
    + ".group_by(col('w'), col('k')).select(col('k'), col('w').start, col('v').sum)",
    # Next to a general Python aggregate PyFlink's Python window operator keeps the late a@2 (v 4),
    # in SUM too (its pandas and built-in window operators drop it).
    "bounded_tumble_general_python_next_to_built_in_keeps_late_rows": EVENTS
    + "from pyflink.table import DataTypes\nfrom pyflink.table.udf import udaf, AggregateFunction\n"
    + "class Total(AggregateFunction):\n"
    + "    def create_accumulator(self): return [0]\n"
    + "    def accumulate(self, acc, v): acc[0] += v\n"
    + "    def get_value(self, acc): return acc[0]\n"
    + "total = udaf(Total(), result_type=DataTypes.BIGINT(), accumulator_type=DataTypes.ARRAY(DataTypes.BIGINT()))\n"
    + "result = ev.window(Tumble.over(lit(5).seconds).on(col('ts')).alias('w')).group_by(col('w'), col('k'))"
    + ".select(col('k'), col('w').start, total(col('v')), col('v').sum, col('v').count)",
    "bounded_filesystem_sink_drops_late_rows": EVENTS
    + "out = tempfile.mkdtemp()\n"
    + "t_env.execute_sql(\"CREATE TABLE o (k STRING, s INT) WITH ('connector' = 'filesystem', 'path' = '\" + out"
    + " + \"', 'format' = 'csv')\")\n"
    + "ev.window(Tumble.over(lit(5).seconds).on(col('ts')).alias('w')).group_by(col('w'), col('k'))"
    + ".select(col('k'), col('v').sum).execute_insert('o').wait()\n"
    + "print(sorted(line for n in os.listdir(out) if not n.startswith(('.', '_')) "
    + "for line in open(os.path.join(out, n)).read().splitlines()))",

    # T1: an updating count, collected with kinds and printed with the op column.
    "group_by_count_kinds": STREAM + COUNT + KINDS.format(table="counts"),
    "group_by_count_print": STREAM + COUNT + "counts.execute().print()",
    # T12: global aggregates retract their previous value.
    "global_aggregates_print": STREAM + "src.select(col('v').count.alias('n'), col('v').sum.alias('s')).execute().print()",
    # An unchanged result (max stays 3) emits nothing, as Flink's GroupAggFunction.
    "max_unchanged_emits_nothing": STREAM + KINDS.format(
        table="src.group_by(col('k')).select(col('k'), col('v').max.alias('m'))"),
    # A filter above the aggregation applies to each change record (-U rows too).
    "filter_above_aggregate": STREAM + COUNT + KINDS.format(table="counts.where(col('c') > 1)"),
    "projection_above_aggregate": STREAM + COUNT + KINDS.format(
        table="counts.select(col('k'), (col('c') * 10).alias('c10'))"),
    "sql_group_by_print": STREAM + "t_env.create_temporary_view('src', src)\n"
    + "t_env.execute_sql('SELECT k, SUM(v) AS s, MIN(v) AS lo FROM src GROUP BY k').print()",
    "insert_only_print": STREAM + "src.where(col('v') > 1).execute().print()",
    "empty_changelog_print": STREAM + "src.where(col('v') > 100).group_by(col('k')).select(col('k'), col('v').sum)"
    ".execute().print()",
    # T9: to_changelog of an updating table names each change's kind.
    # (PyFlink 2.3's Python descriptor() fails in Py4J, so op_mapping is tested in test_streaming.py.)
    "to_changelog_of_updating_count": STREAM + COUNT + KINDS.format(table="counts.to_changelog()"),
    # T19: an append-only sink refuses updates.
    "filesystem_sink_refuses_updates": STREAM + COUNT
    + "import tempfile\n"
    + "t_env.execute_sql(\"CREATE TABLE fs (k STRING, c BIGINT) WITH ('connector' = 'filesystem', "
    + "'path' = '\" + tempfile.mkdtemp() + \"', 'format' = 'csv')\")\n"
    + "counts.execute_insert('fs').wait()",
    # UNION ALL of updating tables: each input's changelog (the inputs interleave in no fixed order in
    # PyFlink, measured, so the change records are compared sorted).
    "union_of_updating": STREAM + UNION_KINDS.format(
        query="SELECT k, COUNT(*) AS c FROM s GROUP BY k UNION ALL SELECT k, CAST(SUM(v) AS BIGINT) FROM s GROUP BY k"),
    "union_of_insert_only_and_updating": STREAM + UNION_KINDS.format(
        query="SELECT k, CAST(v AS BIGINT) AS c FROM s WHERE v > 1 UNION ALL SELECT k, COUNT(*) FROM s GROUP BY k"),
    "union_of_three_then_filter": STREAM + UNION_KINDS.format(
        query="SELECT * FROM (SELECT k, COUNT(*) AS c FROM s GROUP BY k UNION ALL SELECT k, MAX(CAST(v AS BIGINT)) "
              "FROM s GROUP BY k UNION ALL SELECT k, CAST(v AS BIGINT) FROM s) WHERE c > 1"),
}


# A type that differs in batch mode too (not streaming): SQL TUMBLE_END is a nullable TIMESTAMP(3),
# PyFlink's TIMESTAMP(3) NOT NULL. The rows are compared exactly.
BATCH_TYPE_DIFFERENCES = {"bounded_sql_tumble_drops_late_rows"}


@pytest.mark.parametrize("name", sorted(programs))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same(name, compare_types=name not in BATCH_TYPE_DIFFERENCES)


def test_updating_sink_message_names_the_sink_and_the_aggregate(differential: Comparison) -> None:
    differential.assert_same_refusal("filesystem_sink_refuses_updates", starts_with=(
        "Table sink 'default_catalog.default_database.fs' doesn't support consuming update changes which is "
        "produced by node GroupAggregate(groupBy=[k], select=[k, "))


def test_python_window_program_keeps_the_late_row(differential: Comparison) -> None:
    # Hand-computed: a [0, 5) holds 1, 2 and the late 4: total 7, SUM 7, COUNT 3 (without it 3, 3, 2).
    rows = differential.pyflink["bounded_tumble_general_python_next_to_built_in_keeps_late_rows"]["rows"]
    assert ["a", "datetime:1970-01-01T00:00:00", 7, 7, 3] in rows, rows
