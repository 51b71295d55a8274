"""Streaming mode: regular joins and Top-N whose inputs are updating tables (views over unbounded
aggregations), and Table API Python aggregates inside such chains, compared with PyFlink 2.3 at
parallelism 1.

Each program waits for the changes one file makes before it writes the next file, so an engine
that only answers at the end of its input fails. A file whose changes are not awaited (no change in
PyFlink) is still checked: an extra change would be taken by the next take()."""

import pytest

from harness import JOIN_TABLES, RETRACTING_SUM, STREAMING_PRELUDE, Comparison, differential  # noqa: F401

SETUP = STREAMING_PRELUDE + """
import time
from pyflink.table.expressions import col
""" + JOIN_TABLES + """
L = t_env.from_path('l')
# ls: the sum per key of l (an updating table); rc: the count per key of r.
t_env.create_temporary_view('ls', t_env.sql_query('SELECT k, SUM(a) AS t FROM l GROUP BY k'))
t_env.create_temporary_view('rc', t_env.sql_query('SELECT k2, COUNT(*) AS c FROM r GROUP BY k2'))
""" + RETRACTING_SUM + """
my_sum = udaf(MySum())
"""


def _program(query, steps, counts):
    """``query`` (SQL text, or a Table API expression when it starts with ``=``) collected while
    ``steps`` ((directory, csv line) each) are published, ``counts`` changes awaited after each."""
    if query.startswith("="):
        out = SETUP + f"it = ({query[1:]}).execute().collect()\n"
    else:
        out = SETUP + f"it = t_env.execute_sql({query!r}).collect()\n"
    for (d, text), count in zip(steps, counts):
        out += f"publish(d{d}, '{text}\\n')\n"
        if count:
            out += f"take(it, {count})\n"
        else:
            # Nothing to await: a pause keeps the next file out of this file's micro-batch (the
            # changes of different keys in one micro-batch come in no fixed order, see streaming.rst).
            out += "time.sleep(3)\n"
    return out + "it.close()\n"


def _left(*rows):
    return [("l", r) for r in rows]


def _right(*rows):
    return [("r", r) for r in rows]


SUM_STEPS = _left("a,1", "b,5", "a,3", "c,2", "a,5", "b,-4", "c,10")
COUNT_STEPS = _right("a,1", "b,1", "b,1", "c,1", "c,1", "c,1")

# Files for the unions: each input's sum per key changes in turn.
UNION_STEPS = [("l", "a,1"), ("r", "a,10"), ("l", "a,2"), ("r", "b,5"), ("r", "a,1"), ("l", "b,3")]
LS_SUM = "SELECT k, SUM(a) AS s FROM l GROUP BY k"
R_SUM = "SELECT k2, SUM(b) FROM r GROUP BY k2"
# The sum per key of l, ordered by the sum: a overtakes b, b drops behind, c overtakes b.
SORT_STEPS = _left("a,1", "b,5", "a,3", "b,-4", "c,2")

programs = {
    # An inner join forwards its updating input's kinds: -U[a,1,10], +U[a,4,10].
    "inner_join_of_an_updating_table": _program(
        "SELECT k, t, b FROM ls JOIN r ON k = k2",
        [("r", "a,10"), ("l", "a,1"), ("l", "b,5"), ("l", "a,3"), ("r", "b,20"), ("r", "a,11"), ("l", "a,-4")],
        [0, 1, 0, 2, 1, 1, 4]),
    # An outer join deletes and inserts instead (-D[a,1,10], +I[a,4,10]).
    "left_join_of_an_updating_left_side": _program(
        "SELECT k, t, b FROM ls LEFT JOIN r ON k = k2",
        [("l", "a,1"), ("r", "a,10"), ("l", "a,3"), ("l", "b,5"), ("r", "a,11"), ("l", "b,1"), ("r", "b,20"),
         ("l", "a,-4")],
        [1, 2, 2, 1, 1, 2, 2, 4]),
    # The updating right side of a left join: its -U retracts the joined row (-U) and the left row,
    # matched by nothing any more, is inserted padded until the +U arrives.
    "left_join_of_an_updating_right_side": _program(
        "SELECT k, a, c FROM l LEFT JOIN rc ON k = k2",
        [("l", "a,1"), ("r", "a,10"), ("r", "a,11"), ("l", "b,2"), ("r", "b,1"), ("l", "a,5")],
        [1, 2, 4, 1, 2, 1]),
    "full_join_of_two_updating_tables": _program(
        "SELECT k, t, k2, c FROM ls FULL JOIN rc ON k = k2",
        [("l", "a,1"), ("r", "b,10"), ("r", "a,10"), ("l", "a,2"), ("r", "a,11"), ("l", "b,5"), ("r", "c,1")],
        [1, 1, 2, 4, 4, 2, 1]),
    "inner_join_of_two_updating_tables": _program(
        "SELECT k, t, c FROM ls JOIN rc ON k = k2",
        [("l", "a,1"), ("r", "a,10"), ("r", "a,11"), ("l", "a,2"), ("l", "b,5"), ("r", "b,1")],
        [0, 1, 2, 2, 0, 1]),
    # Top-N of an updating table (Flink's RetractableTopNFunction): a retracted row's place is taken
    # by the next one, which may come back from below the Top-N.
    "top2_of_an_updating_table_with_row_number": _program(
        "SELECT k, t, rn FROM (SELECT k, t, ROW_NUMBER() OVER (ORDER BY t DESC) AS rn FROM ls) WHERE rn <= 2",
        SUM_STEPS, [1, 3, 2, 0, 6, 2, 6]),
    "top2_of_an_updating_table": _program(
        "SELECT k, t FROM (SELECT k, t, ROW_NUMBER() OVER (ORDER BY t DESC) AS rn FROM ls) WHERE rn <= 2",
        SUM_STEPS, [1, 1, 2, 0, 4, 2, 4]),
    # Ordered by a count (it only grows), Flink reads the aggregation's new rows alone
    # (UpdatableTopNFunction, FastTop1Function): b overtaking a updates both ranks.
    "top2_by_a_count_with_row_number": _program(
        "SELECT k2, c, rn FROM (SELECT k2, c, ROW_NUMBER() OVER (ORDER BY c DESC) AS rn FROM rc) WHERE rn <= 2",
        COUNT_STEPS, [1, 1, 4, 0, 2, 4]),
    "top1_by_a_count": _program(
        "SELECT k2, c FROM (SELECT k2, c, ROW_NUMBER() OVER (ORDER BY c DESC) AS rn FROM rc) WHERE rn = 1",
        _right("a,1", "b,1", "b,1", "a,1", "a,1"), [1, 0, 2, 0, 2]),
    # A Table API Python aggregate over an updating table: accumulate and retract, once per bundle.
    "table_api_python_aggregate_of_an_updating_table": _program(
        "=L.group_by(col('k')).select(col('k'), col('a').sum.alias('s'))"
        ".group_by(col('s')).select(col('s'), my_sum(col('s')).alias('m'))",
        _left("a,1", "b,1", "a,1", "c,2", "b,-1"), [1, 2, 3, 2, 2]),
    # A Table API Python aggregate whose changes another aggregation consumes.
    "table_api_python_aggregate_feeding_an_aggregation": _program(
        "=L.group_by(col('k')).select(col('k'), my_sum(col('a')).alias('s'))"
        ".group_by(col('s')).select(col('s'), col('k').count.alias('n'))",
        _left("a,1", "b,2", "a,1", "c,2", "b,-1"), [1, 1, 3, 2, 3]),
    # A union passes each input's changes through as they are.
    "union_all_of_two_updating_tables": _program(f"{LS_SUM} UNION ALL {R_SUM}", UNION_STEPS, [1, 1, 2, 1, 2, 1]),
    "union_all_of_an_updating_and_an_insert_only_table": _program(
        f"{LS_SUM} UNION ALL SELECT k2, b FROM r", UNION_STEPS, [1, 1, 2, 1, 1, 1]),
    "table_api_union_all_of_two_updating_tables": _program(
        "=L.group_by(col('k')).select(col('k'), col('a').sum.alias('s')).union_all(t_env.from_path('r')"
        ".group_by(col('k2')).select(col('k2'), col('b').sum.alias('s')))", UNION_STEPS, [1, 1, 2, 1, 2, 1]),
    # An aggregation of a union of updating tables retracts each input's old rows.
    "aggregation_of_a_union_all_of_updating_tables": _program(
        f"SELECT k, SUM(s) AS t, COUNT(*) AS n FROM ({LS_SUM} UNION ALL {R_SUM}) GROUP BY k", UNION_STEPS,
        [1, 2, 4, 1, 4, 2]),
    # UNION is an aggregation without aggregates: a row goes (-D) when its last copy is retracted.
    "union_of_two_updating_tables": _program(f"{LS_SUM} UNION {R_SUM}", UNION_STEPS, [1, 1, 2, 1, 2, 1]),
    "union_of_insert_only_tables": _program(
        "SELECT k, a FROM l UNION SELECT k2, b FROM r", [("l", "a,1"), ("r", "a,1\\na,2"), ("l", "a,2\\nb,1")],
        [1, 1, 1]),
    "table_api_distinct_of_an_updating_table": _program(
        "=L.group_by(col('k')).select(col('k'), col('a').sum.alias('s')).select(col('s')).distinct()",
        _left("a,1", "b,2", "a,1", "b,1"), [1, 1, 1, 1]),
    # PyFlink refuses the Table API's union (without ALL) in streaming mode when it is called.
    "table_api_union_is_refused": SETUP + "L.union(L)\n",
    # ORDER BY ... LIMIT n is a Top-N without partitions (and without the row number).
    "order_by_limit_of_an_updating_table": _program(
        f"SELECT k, s FROM ({LS_SUM}) ORDER BY s DESC LIMIT 2", SORT_STEPS, [1, 1, 2, 2, 2]),
    "table_api_order_by_fetch_of_an_updating_table": _program(
        "=L.group_by(col('k')).select(col('k'), col('a').sum.alias('s')).order_by(col('s').desc).fetch(2)",
        SORT_STEPS, [1, 1, 2, 2, 2]),
    "order_by_limit_of_an_insert_only_table": _program(
        "SELECT k, a FROM l ORDER BY a DESC LIMIT 2", _left("a,1", "b,5", "a,3", "c,7"), [1, 1, 2, 2]),
    "order_by_a_count_limit_1": _program(
        "SELECT k, c FROM (SELECT k, COUNT(*) AS c FROM l GROUP BY k) ORDER BY c DESC LIMIT 1",
        _left("a,1", "b,5\\nb,3", "a,2\\na,2"), [1, 2, 2]),
    "limit_of_an_updating_table": _program(f"SELECT k, s FROM ({LS_SUM}) LIMIT 2", SORT_STEPS[:4], [1, 1, 2, 2]),
    # A sort that is no Top-N: PyFlink's TableException.
    "order_by_of_an_updating_table_is_refused": SETUP
    + f"t_env.execute_sql('SELECT k, s FROM ({LS_SUM}) ORDER BY s DESC')\n",
    "order_by_of_an_insert_only_table_is_refused": SETUP + "L.order_by(col('a')).execute()\n",
}

REFUSED = {"table_api_union_is_refused", "order_by_of_an_updating_table_is_refused",
           "order_by_of_an_insert_only_table_is_refused"}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same_refusal(name)


@pytest.mark.parametrize("name", sorted(set(programs) - REFUSED))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same(name)
