"""UNBOUNDED PRECEDING over windows ordered by a non-time column over unbounded sources in
streaming mode (SQL ``ORDER BY v ROWS/RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW``),
compared with PyFlink 2.3: files are published while the job runs and each file's changes are
awaited before the next file is written.

Flink runs them as an updating result (``NonTimeRowsUnboundedPrecedingFunction``,
``NonTimeRangeUnboundedPrecedingFunction``): each key's rows are kept sorted by the order column (a
new row after its equal ones); a new row gives ``+I`` with its aggregates and each later row whose
aggregates change ``-U`` old / ``+U`` new; in a RANGE frame the new row's earlier peers change too.
Counts per file, by hand: over EVENT_FILES (a: 1, 2, 4 | 10, 8, 5 | 6, 7; b: 3 | 7) with COUNT,
every later row changes: 4, then a, 10 (1), a, 8 (+I and a, 10: 3), b, 7 (1), a, 5 (5) = 10, then
a, 6 and a, 7 (5 each) = 10. MAX(v) ordered by v never changes a later row: one ``+I`` per row.
"""

import pytest

from harness import (EVENT_PT_COLUMNS, STREAMING_PRELUDE, Comparison, assert_prints,  # noqa: F401
                     collect_while_publishing, differential, event_table, python_aggregates)

SETUP = STREAMING_PRELUDE + event_table(EVENT_PT_COLUMNS)

# Ties: a, 2 twice in the first file and again in the second, b, 1 in both, a, 5 in the first and third.
TIE_FILES = (
    "a,2,1970-01-01 00:00:01\\na,2,1970-01-01 00:00:02\\na,5,1970-01-01 00:00:03\\nb,1,1970-01-01 00:00:04\\n",
    "a,2,1970-01-01 00:00:05\\na,1,1970-01-01 00:00:06\\nb,1,1970-01-01 00:00:07\\n",
    "a,5,1970-01-01 00:00:08\\n",
)


def sql(query: str, counts: tuple, files: tuple = ()) -> str:
    """The program: the query's changes per file (``files``, else the harness's EVENT_FILES)."""
    statement = f'it = t_env.execute_sql("{query}").collect()\n'
    if files:
        return SETUP + collect_while_publishing(statement, counts, files, query_after_first_file=True)
    return SETUP + collect_while_publishing(statement, counts, query_after_first_file=True)


AGGREGATES = "SUM(v) OVER w AS s, COUNT(*) OVER w AS c, MIN(v) OVER w AS mi, MAX(v) OVER w AS ma, AVG(v) OVER w AS av"
ROWS = "PARTITION BY k ORDER BY v ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"
RANGE = "PARTITION BY k ORDER BY v RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"

programs = {
    "sql_rows_builtins": sql(f"SELECT k, v, {AGGREGATES} FROM ev WINDOW w AS ({ROWS})", (4, 10, 10)),
    # RANGE with ties, by hand: 6 (a, 2's peer -U/+U then +I), 19, 3.
    "sql_range_ties": sql(f"SELECT k, v, {AGGREGATES} FROM ev WINDOW w AS ({RANGE})", (6, 19, 3), TIE_FILES),
    # Without a frame the window is RANGE; MAX(v) ordered by v changes no later row.
    "sql_default_frame_max": sql("SELECT k, v, MAX(v) OVER (PARTITION BY k ORDER BY v) AS ma FROM ev", (4, 4, 2)),
}

# PyFlink's refusals (no job runs): a Python aggregate function there ("Cannot generate a valid
# execution plan"), DESC, and a sink that takes only inserts (Flink names the node; it lists the
# aggregates it splits SUM into, so the comparison stops at the frame).
refusals = {
    "refuse_python_aggregate": SETUP + python_aggregates(registered=True)
    + 'it = t_env.execute_sql("SELECT k, v, total_udaf(v) OVER (PARTITION BY k ORDER BY v) AS t FROM ev").collect()\n',
    "refuse_desc": SETUP + 'it = t_env.execute_sql("SELECT k, v, SUM(v) OVER (PARTITION BY k ORDER BY v DESC) AS s '
    'FROM ev").collect()\n',
    "refuse_insert_only_sink": SETUP + 't_env.execute_sql("CREATE TABLE snk (k STRING, v INT, s INT) WITH ('
    '\'connector\' = \'filesystem\', \'path\' = \'" + tempfile.mkdtemp() + "\', \'format\' = \'csv\')")\n'
    't_env.execute_sql("INSERT INTO snk SELECT k, v, SUM(v) OVER (PARTITION BY k ORDER BY v) AS s FROM ev")\n',
}
REFUSAL_MESSAGES = {
    "refuse_python_aggregate": "",
    "refuse_desc": "The window can only be ordered in ASCENDING mode.",
    "refuse_insert_only_sink": "doesn't support consuming update and delete changes which is produced by node "
                               "OverAggregate(partitionBy=[k], orderBy=[v ASC], window=[ RANGE BETWEEN UNBOUNDED "
                               "PRECEDING AND CURRENT ROW], select=[",
}
programs.update(refusals)

# By hand: ROWS with ties, SUM(v) and COUNT(v). A row equal to earlier ones comes after them and
# leaves them unchanged. Second file: a, 2 goes between the two a, 2 rows and a, 5 (+I a 2 6 3, a, 5
# 9 3 -> 11 4); a, 1 goes first (+I a 1 1 1) and every a row after it changes (a, 2: 2 1 -> 3 2,
# 4 2 -> 5 3, 6 3 -> 7 4; a, 5: 11 4 -> 12 5); b, 1 after b, 1 (+I b 1 2 2). Third: a, 5 last.
ROWS_TIES = sql(f"SELECT k, v, SUM(v) OVER w AS s, COUNT(v) OVER w AS c FROM ev WINDOW w AS ({ROWS})",
                (4, 13, 1), TIE_FILES)
ROWS_TIES_PRINTED = (
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
    ref, got = differential.pyflink[name]["error"], differential.ours[name]["error"]
    assert ref is not None and got is not None, (ref, got)
    assert ref[0] == got[0] and REFUSAL_MESSAGES[name] in ref[1] and REFUSAL_MESSAGES[name] in got[1], (ref, got)


def test_rows_with_ties_by_hand(_spark_started: None) -> None:
    assert_prints("rows_ties", ROWS_TIES, ROWS_TIES_PRINTED)
