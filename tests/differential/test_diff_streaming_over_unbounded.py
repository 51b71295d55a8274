"""UNBOUNDED PRECEDING over windows over unbounded sources in streaming mode (Table API
``preceding(UNBOUNDED_ROW | UNBOUNDED_RANGE)`` or no ``preceding``, SQL ``ROWS/RANGE BETWEEN
UNBOUNDED PRECEDING AND CURRENT ROW`` or no frame), ordered by the rowtime or by a processing-time
attribute, compared with PyFlink 2.3: files are published while the job runs and each file's rows
are awaited before the next file is written.

Ordered by the rowtime (Flink's ``RowTime{Rows,Range}UnboundedPrecedingFunction``), a row at or
before the current watermark is late and dropped, a rule other than the bounded windows' (a row
after its key's last emitted row can still be late): after the first file the watermark is 00:05,
so a, 10 at 00:02, a, 8 at 00:04 and b, 7 at 00:05 of the second file are dropped (b has emitted
nothing yet). Rows of one time: a ROWS frame counts the ones that arrived before, a RANGE frame all
of them. Ordered by ``PROCTIME()`` every row is emitted on arrival with its key's running
aggregates in arrival order, ROWS and RANGE alike.

Bounded windows ordered by ``PROCTIME()`` (Flink's ``ProcTimeRowsBoundedPrecedingFunction``) emit
each row on arrival too, a ROWS frame over the key's last rows in arrival order. A RANGE frame over
processing time depends on the wall clock and on which rows share a millisecond (measured: PyFlink
made a, 2 and a, 4 of the first file peers, but not a, 1), so its program partitions by ``v``, where
the rows of one key arrive in different files, and its interval is an hour.

Ordered by a non-time column (SQL ``ORDER BY v``, the programs ``nontime_*``), Flink runs them as an
updating result (``NonTimeRowsUnboundedPrecedingFunction``, ``NonTimeRangeUnboundedPrecedingFunction``):
each key's rows are kept sorted by the order column (a new row after its equal ones); a new row gives
``+I`` with its aggregates and each later row whose aggregates change ``-U`` old / ``+U`` new; in a
RANGE frame the new row's earlier peers change too. Counts per file, by hand: over EVENT_FILES (a: 1,
2, 4 | 10, 8, 5 | 6, 7; b: 3 | 7) with COUNT, every later row changes: 4, then a, 10 (1), a, 8 (+I and
a, 10: 3), b, 7 (1), a, 5 (5) = 10, then a, 6 and a, 7 (5 each) = 10. MAX(v) ordered by v never
changes a later row: one ``+I`` per row.
"""

import pytest

from harness import (EVENT_FILES, EVENT_PT_COLUMNS, STREAMING_PRELUDE, Comparison, assert_prints,  # noqa: F401
                     collect_while_publishing, differential, event_table, python_aggregates)

SETUP = STREAMING_PRELUDE + """
from pyflink.table.window import Over
from pyflink.table.expressions import UNBOUNDED_ROW, UNBOUNDED_RANGE, row_interval
""" + event_table(EVENT_PT_COLUMNS) + python_aggregates(registered=True)
# EVENT_FILES: watermark 00:05 after the first file: a's rows at 00:01 and twice 00:03 are emitted,
# b's at 00:06 waits. Of the second file all but a, 5 at 00:12 are at or before the watermark 00:05
# (late); watermark 00:11 emits b's 00:06. After the third, watermark 00:19: a's 00:12 and 00:13 are
# emitted, 00:20 waits.
ROWTIME_COUNTS = (3, 1, 2)
PROCTIME_COUNTS = (4, 4, 2)


def run(query: str, counts: tuple, files: tuple = EVENT_FILES) -> str:
    """The program: ``query`` assigns ``it`` (a collect iterator); each file's rows are awaited."""
    return SETUP + collect_while_publishing(query, counts, files, query_after_first_file=True)


def table(select: str, window: str, counts: tuple = ROWTIME_COUNTS) -> str:
    return run(f"it = t_env.from_path('ev').over_window({window}.alias('o')).select({select}).execute().collect()\n",
               counts)


def sql(query: str, counts: tuple = ROWTIME_COUNTS, files: tuple = EVENT_FILES) -> str:
    return run(f'it = t_env.execute_sql("{query}").collect()\n', counts, files)


def refused(statement: str) -> str:
    return SETUP + statement + "it.close()\n"


ROWS = "Over.partition_by(col('k')).order_by(col('ts')).preceding(UNBOUNDED_ROW)"
RANGE = "Over.partition_by(col('k')).order_by(col('ts')).preceding(UNBOUNDED_RANGE)"
PT_ROWS = "Over.partition_by(col('k')).order_by(col('pt')).preceding(UNBOUNDED_ROW)"
PT_RANGE = "Over.partition_by(col('k')).order_by(col('pt')).preceding(UNBOUNDED_RANGE)"
PT_BOUNDED_ROWS = "Over.partition_by(col('k')).order_by(col('pt')).preceding(row_interval(2))"
BUILTINS = ("col('k'), col('ts'), col('v'), col('v').sum.over(col('o')), col('v').count.over(col('o')), "
            "col('v').min.over(col('o')), col('v').max.over(col('o')), col('v').avg.over(col('o'))")
PT_BUILTINS = ("col('k'), col('v'), col('v').sum.over(col('o')), col('v').count.over(col('o')), "
               "col('v').max.over(col('o')), col('v').avg.over(col('o'))")
SQL_ROWS = "PARTITION BY k ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"
SQL_RANGE = "PARTITION BY k ORDER BY ts RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"
SQL_AGGREGATES = ("SUM(v) OVER w AS s, COUNT(*) OVER w AS c, MIN(v) OVER w AS mi, MAX(v) OVER w AS ma, "
                  "AVG(v) OVER w AS av")

programs = {
    "table_rows_builtins": table(BUILTINS, ROWS),
    "table_range_builtins": table(BUILTINS, RANGE),
    # Without preceding the frame is UNBOUNDED_RANGE.
    "table_default_frame": table("col('k'), col('ts'), col('v').sum.over(col('o'))",
                                 "Over.partition_by(col('k')).order_by(col('ts'))"),
    # Without partition keys every row shares one key: b, 3 at 00:06 comes after a's rows.
    "table_rows_without_partition": table("col('k'), col('v'), col('v').sum.over(col('o'))",
                                          "Over.order_by(col('ts')).preceding(UNBOUNDED_ROW)"),
    "table_rows_in_an_expression": table("col('k'), col('v').sum.over(col('o')) * 10 + col('v')", ROWS),
    "table_proctime_rows": table(PT_BUILTINS, PT_ROWS, PROCTIME_COUNTS),
    "table_proctime_range": table(PT_BUILTINS, PT_RANGE, PROCTIME_COUNTS),
    "sql_rows_builtins": sql(f"SELECT k, ts, v, {SQL_AGGREGATES} FROM ev WINDOW w AS ({SQL_ROWS})"),
    "sql_range_builtins": sql(f"SELECT k, ts, v, {SQL_AGGREGATES} FROM ev WINDOW w AS ({SQL_RANGE})"),
    # Without a frame an ORDER BY window is RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW.
    "sql_default_frame": sql("SELECT k, ts, SUM(v) OVER (PARTITION BY k ORDER BY ts) AS s FROM ev"),
    "sql_proctime_rows": sql("SELECT k, v, SUM(v) OVER (PARTITION BY k ORDER BY pt ROWS BETWEEN UNBOUNDED "
                             "PRECEDING AND CURRENT ROW) AS s FROM ev", PROCTIME_COUNTS),
    "sql_proctime_range": sql("SELECT k, v, COUNT(v) OVER (PARTITION BY k ORDER BY pt) AS c FROM ev",
                              PROCTIME_COUNTS),
    "table_proctime_bounded_rows": table("col('k'), col('v'), col('v').sum.over(col('o')), col('v').max.over(col('o'))",
                                         PT_BOUNDED_ROWS, PROCTIME_COUNTS),
    "sql_proctime_bounded_rows": sql(f"SELECT k, v, {SQL_AGGREGATES} FROM ev WINDOW w AS (PARTITION BY k ORDER BY pt "
                                     "ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)", PROCTIME_COUNTS),
    # One key: b, 3 and b, 7 are in the frames of a's rows around them.
    "sql_proctime_bounded_rows_without_partition": sql("SELECT k, v, SUM(v) OVER (ORDER BY pt ROWS BETWEEN 2 "
                                                       "PRECEDING AND CURRENT ROW) AS s FROM ev", PROCTIME_COUNTS),
    # v = 7 arrives twice, in two files: the second row's frame holds both.
    "sql_proctime_bounded_range": sql("SELECT k, v, SUM(v) OVER w AS s, COUNT(*) OVER w AS c FROM ev WINDOW w AS "
                                      "(PARTITION BY v ORDER BY pt RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND "
                                      "CURRENT ROW)", PROCTIME_COUNTS),
}

# Ordered by a non-time column. Ties: a, 2 twice in the first file and again in the second, b, 1 in
# both, a, 5 in the first and third.
TIE_FILES = (
    "a,2,1970-01-01 00:00:01\\na,2,1970-01-01 00:00:02\\na,5,1970-01-01 00:00:03\\nb,1,1970-01-01 00:00:04\\n",
    "a,2,1970-01-01 00:00:05\\na,1,1970-01-01 00:00:06\\nb,1,1970-01-01 00:00:07\\n",
    "a,5,1970-01-01 00:00:08\\n",
)
NONTIME_ROWS = "PARTITION BY k ORDER BY v ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"
NONTIME_RANGE = "PARTITION BY k ORDER BY v RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"
programs.update({
    "nontime_sql_rows_builtins": sql(f"SELECT k, v, {SQL_AGGREGATES} FROM ev WINDOW w AS ({NONTIME_ROWS})", (4, 10, 10)),
    # RANGE with ties, by hand: 6 (a, 2's peer -U/+U then +I), 19, 3.
    "nontime_sql_range_ties": sql(f"SELECT k, v, {SQL_AGGREGATES} FROM ev WINDOW w AS ({NONTIME_RANGE})", (6, 19, 3),
                                  TIE_FILES),
    # Without a frame the window is RANGE; MAX(v) ordered by v changes no later row.
    "nontime_sql_default_frame_max": sql("SELECT k, v, MAX(v) OVER (PARTITION BY k ORDER BY v) AS ma FROM ev",
                                         (4, 4, 2)),
    # An aggregation of the window's changes: one -U/+U pair (or +I) per change of the window (MIN and
    # MAX skip the window's retractions, as Flink's planner takes its columns as never updated):
    # 6 = +I a, two pairs, +I b; then 10 changes of the window (20) and 10 (20).
    "nontime_sql_aggregation": sql("SELECT k, SUM(s) AS ss, COUNT(*) AS c, MAX(s) AS ma, MIN(s) AS mi FROM (SELECT "
                                   "k, v, SUM(v) OVER (PARTITION BY k ORDER BY v) AS s FROM ev) GROUP BY k",
                                   (6, 20, 20)),
})

# PyFlink's refusals (no job runs), with its messages: where they differ further on, the start that
# both share (``""``: the kind only; see ``STARTS``).
refusals = {
    "refuse_table_pandas_unbounded": refused(
        f"it = t_env.from_path('ev').over_window({ROWS}.alias('o')).select(col('k'), mean(col('v')).over(col('o')))"
        ".execute().collect()\n"),
    # Ordered by a non-time column: a Python aggregate function, DESC, and a sink that takes only inserts.
    "refuse_nontime_python_aggregate": refused(
        'it = t_env.execute_sql("SELECT k, v, total_udaf(v) OVER (PARTITION BY k ORDER BY v) AS t FROM ev").collect()\n'),
    "refuse_nontime_desc": refused(
        'it = t_env.execute_sql("SELECT k, v, SUM(v) OVER (PARTITION BY k ORDER BY v DESC) AS s FROM ev").collect()\n'),
    "refuse_nontime_insert_only_sink": SETUP + 't_env.execute_sql("CREATE TABLE snk (k STRING, v INT, s INT) WITH ('
    '\'connector\' = \'filesystem\', \'path\' = \'" + tempfile.mkdtemp() + "\', \'format\' = \'csv\')")\n'
    't_env.execute_sql("INSERT INTO snk SELECT k, v, SUM(v) OVER (PARTITION BY k ORDER BY v) AS s FROM ev")\n',
}
programs.update(refusals)
STARTS = {
    # PyFlink's first line; ours names the aggregate on the next.
    "refuse_nontime_python_aggregate": "Cannot generate a valid execution plan for the given query:",
    # Flink lists the aggregates it splits SUM into.
    "refuse_nontime_insert_only_sink": "Table sink 'default_catalog.default_database.snk' doesn't support consuming "
                                       "update and delete changes which is produced by node OverAggregate(partitionBy=[k], "
                                       "orderBy=[v ASC], window=[ RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW], "
                                       "select=[k, v, ",
}

# Our extensions: PyFlink 2.3 cannot plan a general Python aggregate function in an over window
# ("Cannot generate a valid execution plan"); the expected values are PyFlink's built-in SUM over
# the same frames (table_rows_builtins, table_range_builtins, table_proctime_rows above).
A1 = "['+I', 'a', '1970-01-01 00:00:01', "
A3 = "['+I', 'a', '1970-01-01 00:00:03', "
B6 = "['+I', 'b', '1970-01-01 00:00:06', "
A12 = "['+I', 'a', '1970-01-01 00:00:12', "
A13 = "['+I', 'a', '1970-01-01 00:00:13', "
ROWTIME_LATER = f"[{B6}'3']]\n[{A12}'12'], {A13}'18']]\n"
extensions = {
    "table_rows_general_udaf": (table("col('k'), col('ts'), total(col('v')).over(col('o'))", ROWS),
                                f"[{A1}'1'], {A3}'3'], {A3}'7']]\n" + ROWTIME_LATER),
    "table_range_general_udaf": (table("col('k'), col('ts'), total(col('v')).over(col('o'))", RANGE),
                                 f"[{A1}'1'], {A3}'7'], {A3}'7']]\n" + ROWTIME_LATER),
    "sql_rows_general_udaf": (sql(f"SELECT k, ts, total_udaf(v) OVER ({SQL_ROWS}) AS t FROM ev"),
                              f"[{A1}'1'], {A3}'3'], {A3}'7']]\n" + ROWTIME_LATER),
    "table_proctime_general_udaf": (table("col('k'), col('v'), total(col('v')).over(col('o'))", PT_ROWS,
                                          PROCTIME_COUNTS),
                                    "[['+I', 'a', '1', '1'], ['+I', 'a', '2', '3'], ['+I', 'a', '4', '7'], "
                                    "['+I', 'b', '3', '3']]\n[['+I', 'a', '10', '17'], ['+I', 'a', '5', '30'], "
                                    "['+I', 'a', '8', '25'], ['+I', 'b', '7', '10']]\n"
                                    "[['+I', 'a', '6', '36'], ['+I', 'a', '7', '43']]\n"),
    # PyFlink's SUM over the same frames (table_proctime_bounded_rows).
    "table_proctime_bounded_general_udaf": (table("col('k'), col('v'), total(col('v')).over(col('o'))",
                                                  PT_BOUNDED_ROWS, PROCTIME_COUNTS),
                                            "[['+I', 'a', '1', '1'], ['+I', 'a', '2', '3'], ['+I', 'a', '4', '7'], "
                                            "['+I', 'b', '3', '3']]\n[['+I', 'a', '10', '16'], ['+I', 'a', '5', '23'], "
                                            "['+I', 'a', '8', '22'], ['+I', 'b', '7', '10']]\n"
                                            "[['+I', 'a', '6', '19'], ['+I', 'a', '7', '18']]\n"),
}

# A pandas UDAF in a bounded window ordered by PROCTIME() runs in PyFlink 2.3 too, but its Python
# over operator emits a bundle's rows only when later rows arrive (measured: all ten after the third
# file), so a program awaiting each file's rows would wait forever there. The expected values are
# PyFlink's, measured with this query and these files.
extensions["sql_proctime_bounded_pandas"] = (
    sql("SELECT k, v, mean_udaf(v) OVER (PARTITION BY k ORDER BY pt ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) "
        "AS m FROM ev", PROCTIME_COUNTS),
    "[['+I', 'a', '1', '1.0'], ['+I', 'a', '2', '1.5'], ['+I', 'a', '4', '3.0'], ['+I', 'b', '3', '3.0']]\n"
    "[['+I', 'a', '10', '7.0'], ['+I', 'a', '5', '6.5'], ['+I', 'a', '8', '9.0'], ['+I', 'b', '7', '5.0']]\n"
    "[['+I', 'a', '6', '5.5'], ['+I', 'a', '7', '6.5']]\n")

# By hand: ordered by a non-time column, ROWS with ties, SUM(v) and COUNT(v). A row equal to earlier
# ones comes after them and leaves them unchanged. Second file: a, 2 goes between the two a, 2 rows
# and a, 5 (+I a 2 6 3, a, 5 9 3 -> 11 4); a, 1 goes first (+I a 1 1 1) and every a row after it
# changes (a, 2: 2 1 -> 3 2, 4 2 -> 5 3, 6 3 -> 7 4; a, 5: 11 4 -> 12 5); b, 1 after b, 1 (+I b 1 2 2).
# Third: a, 5 last.
extensions["nontime_rows_ties"] = (
    sql(f"SELECT k, v, SUM(v) OVER w AS s, COUNT(v) OVER w AS c FROM ev WINDOW w AS ({NONTIME_ROWS})", (4, 13, 1),
        TIE_FILES),
    "[['+I', 'a', '2', '2', '1'], ['+I', 'a', '2', '4', '2'], ['+I', 'a', '5', '9', '3'], ['+I', 'b', '1', '1', '1']]\n"
    "[['+I', 'a', '1', '1', '1'], ['+I', 'a', '2', '6', '3'], ['+I', 'b', '1', '2', '2'], "
    "['+U', 'a', '2', '3', '2'], ['+U', 'a', '2', '5', '3'], ['+U', 'a', '2', '7', '4'], ['+U', 'a', '5', '11', '4'], "
    "['+U', 'a', '5', '12', '5'], ['-U', 'a', '2', '2', '1'], ['-U', 'a', '2', '4', '2'], ['-U', 'a', '2', '6', '3'], "
    "['-U', 'a', '5', '11', '4'], ['-U', 'a', '5', '9', '3']]\n"
    "[['+I', 'a', '5', '17', '6']]\n")


@pytest.mark.parametrize("name", sorted(set(programs) - set(refusals)))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same(name)


@pytest.mark.parametrize("name", sorted(refusals))
def test_refused_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same_refusal(name, starts_with=STARTS.get(name))


@pytest.mark.parametrize("name", sorted(extensions))
def test_extension(_spark_started: None, name: str) -> None:
    assert_prints(name, *extensions[name])
