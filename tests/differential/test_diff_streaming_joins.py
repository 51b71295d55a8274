"""Streaming mode: regular joins and Top-N over unbounded sources (monitored directories), compared
with PyFlink 2.3. Each program waits for the changes one file makes before it writes the next
file, so an engine that only answers at the end of its input fails; an outer row's null-padded
insert is deleted (-D) when its match arrives, and a Top-N retracts the rows that leave it."""

import pytest

from harness import JOIN_TABLES, STREAMING_PRELUDE, Comparison, differential, monitored_table  # noqa: F401

SETUP = STREAMING_PRELUDE + JOIN_TABLES + """
L, R = t_env.from_path('l'), t_env.from_path('r')
"""

# Left rows a,1 and b,2 wait for their match; a second match of a,1 only inserts; a,3 arrives
# after both of a's right rows; c,30 never matches. A file whose changes are not awaited (no
# change in PyFlink) is still checked: an extra change would be taken by the next take().
STEPS = [("dl", "a,1"), ("dr", "a,10"), ("dr", "a,11"), ("dl", "b,2"), ("dl", "a,3"), ("dr", "c,30"), ("dr", "b,20")]


# The same rows with the sides swapped, for right joins: every change of the preserved side is
# awaited, so neither engine can read a later file of one input before an earlier one of the other.
MIRRORED = [("dr" if d == "dl" else "dl", text) for d, text in STEPS]


def _steps(counts, steps=STEPS):
    out = ""
    for (d, text), count in zip(steps, counts):
        out += f"publish({d}, '{text}\\n')\n"
        if count:
            out += f"take(it, {count})\n"
    return out + "it.close()\n"


# For conditions beyond the key: a,1 matches r's a,1 (1 + 1 > 1) and a,0; a,5 matches both; b,0 and
# r's b,1 differ in their other values; c,3 has no partner.
CONDITION_STEPS = [("dl", "a,1"), ("dr", "a,1"), ("dr", "a,0"), ("dl", "a,5"), ("dr", "b,1"), ("dl", "b,0"),
                   ("dl", "c,3")]


# Tables tl and tr of dates, timestamps and decimals (their columns k, d, ts, tz, m, v, s; tr's end
# in 2) over their own directories, for conditions comparing and computing them per pair.
def _typed_tables(options=""):
    return "tdl, tdr = tempfile.mkdtemp(), tempfile.mkdtemp()\n" + "".join(
        monitored_table(name, ", ".join(c.replace(" ", suffix + " ", 1) for c in (
            "k STRING", "d DATE", "ts TIMESTAMP(3)", "tz TIMESTAMP_LTZ(3)", "m DECIMAL(10, 2)", "v INT", "s STRING")), d,
            options)
        for name, suffix, d in (("tl", "", "tdl"), ("tr", "2", "tdr")))


TYPED_SETUP = SETUP + _typed_tables()

# a's left rows: one a millisecond after the right row (with the bigger day and value), one a day
# before it; b's left row 2 s after its right row, which comes last (an earlier step whose changes
# are not awaited has no match to race with). The right decimal 1.5 is read as 1.50.
TYPED_STEPS = [("tdl", "a,2024-01-02,2024-01-02 10:00:00.123,2024-01-02 10:00:00.123Z,1.50,7,x"),
               ("tdr", "a,2024-01-01,2024-01-02 10:00:00.122,2024-01-02 10:00:00.124Z,1.5,2,z"),
               ("tdl", "a,2024-01-01,2024-01-01 00:00:00,2024-01-01 00:00:00Z,0.10,-7,y"),
               ("tdl", "b,2024-01-01,2024-01-01 00:00:05,2024-01-01 00:00:05Z,3.33,5,u"),
               ("tdr", "b,2024-01-01,2024-01-01 00:00:03,2024-01-01 00:00:03Z,0.07,3,w")]


def _typed(query, counts):
    return TYPED_SETUP + f"it = t_env.execute_sql({query!r}).collect()\n" + _steps(counts, TYPED_STEPS)


# The same tables reading 'null' as NULL, for conditions choosing among values: a's first left row
# has no v, the last right row no m2 and s2; b's rows differ in case only (b, B).
NULLABLE_SETUP = SETUP + _typed_tables("'csv.null-literal' = 'null'")
NULLABLE_STEPS = [("tdl", "a,2024-01-01,2024-01-01 00:00:00,2024-01-01 00:00:00Z,1.00,null,x"),
                  ("tdr", "a,2024-01-01,2024-01-01 00:00:30,2024-01-01 00:00:30Z,2.00,3,Y"),
                  ("tdl", "a,2024-01-02,2024-01-01 00:01:10,2024-01-01 00:01:10Z,3.00,5,y"),
                  ("tdr", "b,2024-01-01,2024-01-01 00:00:00,2024-01-01 00:00:00Z,1.00,2,b"),
                  ("tdl", "b,2024-01-01,2024-01-01 00:00:09,2024-01-01 00:00:09Z,1.00,1,B"),
                  ("tdr", "a,2024-01-03,2023-12-31 23:59:00,2023-12-31 23:59:00Z,null,-2,null")]


def _nullable(query, counts):
    return NULLABLE_SETUP + f"it = t_env.execute_sql({query!r}).collect()\n" + _steps(counts, NULLABLE_STEPS)


TOP_STEPS = ["a,5", "a,3", "a,7", "b,1", "a,9", "a,6"]


def _top(query, counts):
    """``query`` (SQL text, or a Table API expression after ``=``) collected while TOP_STEPS are
    published into l, ``counts`` changes awaited after each."""
    collected = f"({query[1:]}).execute()" if query.startswith("=") else f"t_env.execute_sql({query!r})"
    out = SETUP + "publish(dl, 'a,5\\n')\n" + f"it = {collected}.collect()\n"
    for i, (text, count) in enumerate(zip(TOP_STEPS, counts)):
        if i:
            out += f"publish(dl, '{text}\\n')\n"
        if count:
            out += f"take(it, {count})\n"
    return out + "it.close()\n"


programs = {
    # T10: +I a 1 null, then -D a 1 null, +I a 1 10 when a's match arrives.
    "sql_left_join": SETUP + "it = t_env.execute_sql('SELECT k, a, b FROM l LEFT JOIN r ON k = k2').collect()\n"
    + _steps([1, 2, 1, 1, 2, 0, 2]),
    "sql_full_join": SETUP + "it = t_env.execute_sql('SELECT k, a, k2, b FROM l FULL JOIN r ON k = k2').collect()\n"
    + _steps([1, 2, 1, 1, 2, 1, 2]),
    "sql_right_join": SETUP + "it = t_env.execute_sql('SELECT k, a, k2, b FROM l RIGHT JOIN r ON k = k2').collect()\n"
    + _steps([1, 2, 1, 1, 2, 0, 2], MIRRORED),
    # Inner joins emit one insert per matching pair, whichever side arrives last.
    "sql_inner_join": SETUP + "it = t_env.execute_sql('SELECT k, a, b FROM l JOIN r ON k = k2').collect()\n"
    + _steps([0, 1, 1, 0, 2, 0, 1]),
    "table_api_left_outer_join": SETUP
    + "it = L.left_outer_join(R, col('k') == col('k2')).select(col('k'), col('a'), col('b')).execute().collect()\n"
    + _steps([1, 2, 1, 1, 2, 0, 2]),
    "table_api_full_outer_join": SETUP
    + "it = L.full_outer_join(R, col('k') == col('k2')).execute().collect()\n"
    + _steps([1, 2, 1, 1, 2, 1, 2]),
    "table_api_right_outer_join_with_filter_above": SETUP
    + "it = L.right_outer_join(R, col('k') == col('k2')).where(col('a').is_null | (col('a') > 10))"
    + ".select(col('k2'), col('a')).execute().collect()\n"
    + _steps([1, 1, 1, 1, 1, 0, 2], MIRRORED),
    "table_api_inner_join": SETUP
    + "it = L.join(R).where(col('k') == col('k2')).select(col('k'), col('a') + col('b')).execute().collect()\n"
    + _steps([0, 1, 1, 0, 2, 0, 1]),
    # A right row first: its padded insert is deleted when the left row arrives.
    "sql_right_join_row_waits_for_left": SETUP
    + "publish(dr, 'x,1\\n')\n"
    + "it = t_env.execute_sql('SELECT k, a, k2, b FROM l RIGHT JOIN r ON k = k2').collect()\n"
    + "take(it, 1)\npublish(dl, 'x,5\\n')\ntake(it, 2)\npublish(dl, 'x,6\\n')\ntake(it, 1)\nit.close()\n",
    # A condition beyond the key equality: rows with equal keys whose residual is false stay
    # unmatched (a,7 waits for a,9 although a,0 and a,5 share its key).
    "table_api_left_outer_join_with_residual": SETUP
    + "it = L.left_outer_join(R, (col('k') == col('k2')) & (col('a') < col('b'))).execute().collect()\n"
    + _steps([1, 0, 2, 1, 3], [("dl", "a,1"), ("dr", "a,0"), ("dr", "a,5"), ("dl", "a,7"), ("dr", "a,9")]),
    "sql_full_join_with_residual": SETUP
    + "it = t_env.execute_sql('SELECT k, a, k2, b FROM l FULL JOIN r ON k = k2 AND (a < b OR b IS NULL) "
    + "AND a <> 4').collect()\n"
    + _steps([1, 1, 2, 1, 3, 1], [("dl", "a,1"), ("dr", "a,0"), ("dr", "a,5"), ("dl", "a,7"), ("dr", "a,9"),
                                  ("dl", "a,4")]),
    # Conditions beyond comparisons of columns and literals: a part of one input is computed with
    # that input's rows, what combines both is evaluated per pair of rows with equal keys.
    "sql_left_join_with_arithmetic": SETUP
    + "it = t_env.execute_sql('SELECT k, a, k2, b FROM l LEFT JOIN r ON k = k2 AND a + 1 > b').collect()\n"
    + _steps([1, 2, 1, 2, 0, 1, 1], CONDITION_STEPS),
    "sql_full_join_with_arithmetic_of_both_inputs": SETUP
    + "it = t_env.execute_sql('SELECT k, a, k2, b FROM l FULL JOIN r ON k = k2 AND a + b > 2').collect()\n"
    + _steps([1, 1, 1, 4, 1, 1, 1], CONDITION_STEPS),
    "sql_full_join_with_a_disjunction_of_both_inputs": SETUP
    + "it = t_env.execute_sql('SELECT k, a, k2, b FROM l FULL JOIN r ON k = k2 AND (a > 2 OR b < 1)').collect()\n"
    + _steps([1, 1, 2, 3, 1, 1, 1], CONDITION_STEPS),
    # The right side's changes come first in each step, so the preserved side leads.
    "sql_right_join_with_functions": SETUP
    + "it = t_env.execute_sql(\"SELECT k, a, k2, b FROM l RIGHT JOIN r ON k = k2 AND UPPER(k) <> 'B' "
    + "AND CONCAT(k2, CAST(b AS STRING)) <> 'a0'\").collect()\n"
    + _steps([1, 2, 1, 0, 1], [("dr", "a,1"), ("dl", "a,1"), ("dr", "a,0"), ("dl", "b,0"), ("dr", "b,1")]),
    # Inner joins of insert-only inputs are Spark's stream-stream join, its condition Spark's.
    "sql_inner_join_with_a_product_of_both_inputs": SETUP
    + "it = t_env.execute_sql('SELECT k, a, k2, b FROM l JOIN r ON k = k2 AND a * b < 4').collect()\n"
    + _steps([0, 1, 1, 1, 0, 1], CONDITION_STEPS),
    "table_api_inner_join_with_python_functions_of_each_input": SETUP
    + "from pyflink.table.udf import udf\n"
    + "plus1 = udf(lambda v: v + 1, result_type=DataTypes.INT())\n"
    + "it = L.join(R, (col('k') == col('k2')) & (plus1(col('a')) > plus1(col('b')))).execute().collect()\n"
    + _steps([0, 0, 1, 2], CONDITION_STEPS),
    # PyFlink cannot plan a Python function in an outer join's condition (TableException).
    "table_api_left_outer_join_with_a_python_function_is_refused": SETUP
    + "from pyflink.table.udf import udf\n"
    + "plus1 = udf(lambda v: v + 1, result_type=DataTypes.INT())\n"
    + "it = L.left_outer_join(R, (col('k') == col('k2')) & (plus1(col('a')) > col('b'))).execute().collect()\n"
    + "it.close()\n",
    # Dates, timestamps (to the millisecond) and decimals compared per pair: a's first rows match; a
    # remainder has the dividend's sign (MOD(-5, 2) = -1, as Java's).
    "sql_left_join_comparing_dates_and_timestamps": _typed(
        "SELECT k, v, d, ts, v2, d2, ts2 FROM tl LEFT JOIN tr ON k = k2 AND d >= d2 AND ts > ts2 "
        "AND MOD(v2 - v, v2) <> 1", [1, 2, 1, 1, 2]),
    "sql_full_join_comparing_local_zoned_timestamps_and_decimals": _typed(
        "SELECT k, v, m, k2, v2, m2 FROM tl FULL JOIN tr ON k = k2 AND tz < tz2 AND m <= m2", [1, 2, 1, 1, 1]),
    # A time range: the interval is subtracted from one input's rows, the comparisons are per pair.
    "sql_full_join_with_a_time_range": _typed(
        "SELECT k, v, k2, v2 FROM tl FULL JOIN tr ON k = k2 AND ts2 BETWEEN ts - INTERVAL '5' SECOND AND ts",
        [1, 2, 1, 1, 2]),
    # INT / INT is truncated (7 / 2 = 3, so a's first rows do not match), decimals divide exactly; a
    # right row that v2 <> 2 rejects never divides by zero (Flink filters the right input by it).
    "sql_left_join_with_divisions": _typed(
        "SELECT k, v, m, v2, m2 FROM tl LEFT JOIN tr ON k = k2 AND v / v2 <> 3 AND m / m2 > 0.5 "
        "AND v / (v2 - 2) <> 0 AND v2 <> 2", [1, 0, 1, 1, 2]),
    # Functions of both inputs; a double divided by zero is infinite (b's rows match).
    "sql_left_join_with_functions_of_both_inputs": _typed(
        "SELECT k, v, s, v2, s2 FROM tl LEFT JOIN tr ON k = k2 AND ABS(v - v2) < 6 AND CONCAT(s, s2) <> 'xz' "
        "AND CAST(v AS DOUBLE) / (v2 - 3) > 1", [1, 0, 1, 1, 2]),
    # The Table API's INT / INT is truncated too (7 / 2 <= 3).
    "table_api_left_outer_join_with_decimal_arithmetic": TYPED_SETUP
    + "it = t_env.from_path('tl').left_outer_join(t_env.from_path('tr'), (col('k') == col('k2')) & "
    + "((col('m') + col('m2')) * col('v') > 20) & (col('v') / col('v2') <= 3)).select(col('k'), col('m'), col('v'), col('m2'))"
    + ".execute().collect()\n" + _steps([1, 2, 1, 1, 0], TYPED_STEPS),
    # Full joins, so that every file's changes are awaited. CASE / IF / COALESCE of both inputs: a NULL
    # condition takes the next branch (a's first left row takes s2 = 'Y' and does not match), a NULL
    # result does not match (a's last right row, whose s2 is NULL, with a's second left row).
    "sql_full_join_with_case_and_coalesce_of_both_inputs": _nullable(
        "SELECT k, v, s, k2, v2, s2 FROM tl FULL JOIN tr ON k = k2 AND CASE WHEN v > v2 THEN s ELSE s2 END <> 'Y' "
        "AND COALESCE(v, v2) > 0", [1, 1, 2, 1, 2, 1]),
    "sql_full_join_with_if_and_case_of_both_inputs": _nullable(
        "SELECT k, v, s, k2, v2, s2 FROM tl FULL JOIN tr ON k = k2 AND IF(v IS NULL OR v2 IS NULL, v2 > 0, "
        "v <> v2 + 2) AND CASE WHEN s = s2 THEN FALSE WHEN v2 < 0 THEN NULL ELSE TRUE END", [1, 2, 1, 1, 2, 1]),
    "sql_full_join_with_nullif_and_ifnull_of_both_inputs": _nullable(
        "SELECT k, v, s, k2, v2, s2 FROM tl FULL JOIN tr ON k = k2 AND NULLIF(v, v2 + 2) IS NOT NULL "
        "AND IFNULL(s2, s) <> ''", [1, 1, 1, 1, 2, 2]),
    # TIMESTAMPDIFF truncates toward zero (40 s are 0 minutes, -130 s are -2 minutes); TIMESTAMPADD of
    # a unit count of the other input; dates' day difference.
    "sql_full_join_with_timestampdiff_of_both_inputs": _nullable(
        "SELECT k, v, ts, k2, v2, ts2 FROM tl FULL JOIN tr ON k = k2 AND TIMESTAMPDIFF(SECOND, ts, ts2) < 10 "
        "AND TIMESTAMPDIFF(MINUTE, tz2, tz) >= 0", [1, 1, 2, 1, 2, 3]),
    "sql_full_join_with_timestampadd_of_both_inputs": _nullable(
        "SELECT k, v, ts, k2, v2, ts2 FROM tl FULL JOIN tr ON k = k2 AND ts2 <= TIMESTAMPADD(SECOND, v2 * 10, ts) "
        "AND TIMESTAMPDIFF(DAY, d, d2) >= 0", [1, 2, 1, 1, 2, 3]),
    # String functions of both inputs (LOWER of each input alone is computed with its rows).
    "sql_full_join_with_string_functions_of_both_inputs": _nullable(
        "SELECT k, s, k2, s2 FROM tl FULL JOIN tr ON k = k2 AND UPPER(CONCAT(s, s2)) <> 'XY' AND LOWER(s2) = LOWER(s) "
        "AND CHAR_LENGTH(TRIM(CONCAT(s, ' ', s2, ' '))) = 3", [1, 1, 2, 1, 2, 1]),
    # BETWEEN SYMMETRIC takes its bounds in either order (5 is between 6 and 0, 1 between 4 and 0).
    "sql_full_join_with_between_symmetric": _nullable(
        "SELECT k, v, k2, v2 FROM tl FULL JOIN tr ON k = k2 AND v BETWEEN SYMMETRIC v2 * 2 AND 0 "
        "AND v2 BETWEEN ASYMMETRIC -5 AND v + 5", [1, 1, 2, 1, 2, 1]),
    # FLOAT arithmetic rounds to 4-byte floats: 5 * 3 * 1677721 = 25165815 is the float 25165816 (a's
    # second left row matches its first right row, and its last one by the sum). Spark widens FLOAT
    # with INT to DOUBLE (Flink keeps FLOAT), so the operands are FLOATs.
    "sql_full_join_with_float_arithmetic": _nullable(
        "SELECT k, v, k2, v2 FROM tl FULL JOIN tr ON k = k2 AND (CAST(v AS FLOAT) * CAST(v2 AS FLOAT) "
        "* CAST(1677721 AS FLOAT) = 25165816 OR CAST(v AS FLOAT) + CAST(v2 AS FLOAT) = 3)", [1, 1, 2, 1, 2, 1]),
    # T11 and Top-N: with the row number, each row whose rank changes is updated.
    "top2_with_row_number": _top("SELECT k, a, rn FROM (SELECT k, a, ROW_NUMBER() OVER (PARTITION BY k "
                                 "ORDER BY a DESC) AS rn FROM l) WHERE rn <= 2", [1, 1, 4, 1, 4, 0]),
    # Without it, the row leaving the Top-N is deleted and the new one inserted.
    "top2_without_row_number": _top("SELECT k, a FROM (SELECT k, a, ROW_NUMBER() OVER (PARTITION BY k "
                                    "ORDER BY a DESC) AS rn FROM l) WHERE rn <= 2", [1, 1, 2, 1, 2, 0]),
    "top1_global": _top("SELECT k, a FROM (SELECT k, a, ROW_NUMBER() OVER (ORDER BY a DESC) AS rn FROM l) "
                        "WHERE rn = 1", [1, 0, 2, 0, 2, 0]),
    "top3_ascending_with_row_number": _top("SELECT a, rn, k FROM (SELECT k, a, ROW_NUMBER() OVER (ORDER BY a) "
                                           "AS rn FROM l) WHERE rn < 4", [1, 3, 1, 6, 0, 0]),
    # Rank ranges starting after 1 (Flink's AppendOnlyTopNFunction with an offset): rank by rank,
    # -U/+U with or without the row number; ranks before the range change silently.
    "sql_order_by_limit_offset": _top("SELECT k, a FROM l ORDER BY a DESC LIMIT 2 OFFSET 1", [0, 1, 3, 0, 4, 2]),
    "top_ranks_2_to_3_with_row_number": _top("SELECT k, a, rn FROM (SELECT k, a, ROW_NUMBER() OVER (PARTITION BY k "
                                             "ORDER BY a DESC) AS rn FROM l) WHERE rn BETWEEN 2 AND 3",
                                             [0, 1, 3, 0, 4, 2]),
    "table_api_order_by_offset_fetch": _top("=L.order_by(col('a')).offset(1).fetch(2)", [0, 1, 1, 4, 0, 0]),
}


REFUSED = {"table_api_left_outer_join_with_a_python_function_is_refused"}


@pytest.mark.parametrize("name", sorted(set(programs) - REFUSED))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same(name)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same_refusal(name, starts_with="Sql optimization: Cannot generate a valid execution plan "
                                     "for the given query:")
