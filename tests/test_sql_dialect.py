"""Flink SQL that Spark SQL reads differently (session/FlinkSqlDialect.java).

Every expected value and type was measured on PyFlink 2.3 with tests/reference/probe_sql.py
(same data, same queries), unless a comment says otherwise.
"""

import datetime
from decimal import Decimal
from typing import Any, List

import pytest

from conftest import rows
from pyflink_table import DataTypes
from pyflink_table.errors import TableException

DATA = [
    (1, "hello", 3, 2.5, "2024-01-15 10:30:45.123"),
    (2, "xxabxx", -7, None, "2024-03-01 00:00:00.000"),
]
TS1 = datetime.datetime(2024, 1, 15, 10, 30, 45, 123000)
TS2 = datetime.datetime(2024, 3, 1)


def _view(t_env: Any) -> None:
    t_env.get_config().set("table.local-time-zone", "UTC")
    schema = DataTypes.ROW([DataTypes.FIELD("id", DataTypes.INT()), DataTypes.FIELD("s", DataTypes.STRING()),
                            DataTypes.FIELD("i", DataTypes.INT()), DataTypes.FIELD("d", DataTypes.DOUBLE()),
                            DataTypes.FIELD("ts_s", DataTypes.STRING())])
    t_env.create_temporary_view("t0", t_env.from_elements(DATA, schema))
    t_env.create_temporary_view(
        "t", t_env.sql_query("SELECT id, s, i, d, CAST(ts_s AS TIMESTAMP(3)) AS ts FROM t0"))


def _types(table: Any) -> List[str]:
    return [type(t).__name__ for t in table.get_schema().get_field_data_types()]


def test_cast_to_flink_types(t_env: Any) -> None:
    _view(t_env)
    table = t_env.sql_query(
        "SELECT CAST('2024-01-15 10:30:45.123456' AS TIMESTAMP(3)), CAST('2024-01-15 10:30:45.9' AS TIMESTAMP(0)),"
        " CAST(i AS VARCHAR(10)), CAST(i AS CHAR(3)), CAST(s AS BYTES), CAST(s AS VARBINARY(10)),"
        " CAST(i AS TINYINT), CAST(ROW(i, s) AS ROW<a INT, b STRING>), CAST(ARRAY[i, 1] AS ARRAY<BIGINT>),"
        " TRY_CAST(s AS TIMESTAMP(3)), TRY_CAST(s AS INT), CAST(s AS CHAR(2)), CAST(s AS VARCHAR(2)),"
        " CAST(ts AS TIMESTAMP), ts FROM t WHERE id = 1")
    (r,) = rows(table)
    assert r[:4] == (datetime.datetime(2024, 1, 15, 10, 30, 45, 123000), datetime.datetime(2024, 1, 15, 10, 30, 45),
                     "3", "3  ")
    assert bytes(r[4]) == b"hello" and bytes(r[5]) == b"hello" and r[6] == 3
    assert tuple(r[7]) == (3, "hello") and list(r[8]) == [3, 1]
    assert table.get_schema().get_field_data_types()[7].field_names() == ["a", "b"]  # named by the CAST
    assert r[9:] == (None, None, "he", "he", TS1, TS1)
    types = _types(table)
    # Flink's TIMESTAMP has no time zone (Spark's TIMESTAMP has one).
    assert types[0] == types[1] == types[13] == types[14] == "TimestampType"
    assert types[6] == "TinyIntType" and types[7] == "RowType" and types[9] == "TimestampType"


def test_cast_to_timestamp_ltz(t_env: Any) -> None:
    # PyFlink 2.3 computes this but fails to hand TIMESTAMP_LTZ(3) rows to Python (Py4JJavaError in
    # getPickledBytesFromRow), so the expectation is hand-computed: in UTC the wall clock is unchanged.
    _view(t_env)
    table = t_env.sql_query(
        "SELECT CAST(ts AS TIMESTAMP_LTZ(3)), CAST(ts AS TIMESTAMP(3) WITH LOCAL TIME ZONE) FROM t WHERE id = 1")
    (r,) = rows(table)
    assert [v.replace(tzinfo=None) for v in r] == [TS1, TS1]
    assert _types(table) == ["LocalZonedTimestampType", "LocalZonedTimestampType"]


def test_flink_functions_and_syntax(t_env: Any) -> None:
    _view(t_env)
    table = t_env.sql_query(
        "SELECT id, SUBSTRING(s FROM 2 FOR 3), POSITION('l' IN s), TRIM(BOTH 'x' FROM s),"
        " s || '!' || CAST(id AS STRING), IF(i > 0, 'pos', 'neg'), TIMESTAMPADD(DAY, 2, ts),"
        " TIMESTAMPDIFF(DAY, ts, TIMESTAMP '2024-03-01 00:00:00'), TO_TIMESTAMP('15/01/2024', 'dd/MM/yyyy'),"
        " DATE_FORMAT(ts, 'yyyy-MM-dd'), LOCALTIMESTAMP IS NOT NULL, FLOOR(ts TO HOUR), CEIL(ts TO DAY),"
        " CEIL(ts TO MONTH), REGEXP_EXTRACT(s, 'h(e)', 1), REGEXP_EXTRACT(s, 'l+'), SPLIT_INDEX(s, 'l', 1),"
        " SPLIT_INDEX('a,b,c', ',', 1), STR_TO_MAP('a=1,b=2')['b'], ARRAY[i, 10, 20][1], ARRAY[i, 10][3],"
        " MAP['a', i]['a'], WEEK(ts) FROM t ORDER BY id")
    assert rows(table) == [
        (1, "ell", 3, "hello", "hello!1", "pos", datetime.datetime(2024, 1, 17, 10, 30, 45, 123000), 45,
         datetime.datetime(2024, 1, 15), "2024-01-15", True, datetime.datetime(2024, 1, 15, 10),
         datetime.datetime(2024, 1, 16), datetime.datetime(2024, 2, 1), "e", "ll", "", "b", "2", 3, None, 3, 3),
        (2, "xab", 0, "ab", "xxabxx!2", "neg", datetime.datetime(2024, 3, 3), 0,
         datetime.datetime(2024, 1, 15), "2024-03-01", True, TS2, TS2, TS2, None, None, None, "b", "2", -7, None,
         -7, 9),
    ]
    types = _types(table)
    assert types[7] == "IntType" and types[8] == types[11] == types[12] == "TimestampType"
    assert types[22] == "BigIntType"  # WEEK is BIGINT in Flink


def test_literals_and_row_limits(t_env: Any) -> None:
    _view(t_env)
    table = t_env.sql_query(
        r"SELECT 'it''s', 'a\b', U&'\0041B', 'FETCH FIRST 1 ROWS ONLY', 'CAST(a AS TIMESTAMP(3))',"
        " TIMESTAMP '2024-01-15 10:30:45.5' FROM t WHERE id = 1")
    assert rows(table) == [("it's", "a\\b", "AB", "FETCH FIRST 1 ROWS ONLY", "CAST(a AS TIMESTAMP(3))",
                            datetime.datetime(2024, 1, 15, 10, 30, 45, 500000))]
    assert _types(table)[5] == "TimestampType"
    # Flink's LIKE has no escape character by default: '\' is an ordinary character.
    like = t_env.sql_query(r"SELECT s LIKE 'a\b', s LIKE 'a\%', 'a_b' LIKE 'a\_b', 'axb' LIKE 'a\_b'"
                           r" FROM (VALUES ('a\b')) AS v(s)")
    assert rows(like) == [(True, True, False, False)]
    assert rows(t_env.sql_query("SELECT id FROM t ORDER BY id FETCH FIRST 1 ROWS ONLY")) == [(1,)]
    assert rows(t_env.sql_query("SELECT id FROM t ORDER BY id OFFSET 1 ROWS FETCH NEXT 1 ROWS ONLY")) == [(2,)]
    # PyFlink answers SIMILAR TO; Spark has no such predicate, so it is refused by name.
    with pytest.raises(TableException, match="SIMILAR TO"):
        t_env.sql_query("SELECT s SIMILAR TO 'h%' FROM t")


def test_aggregate_and_division_result_types(t_env: Any) -> None:
    _view(t_env)
    table = t_env.sql_query("SELECT SUM(i), AVG(i), MIN(i), MAX(i), AVG(d), COUNT(*) FROM t")
    assert rows(table) == [(-4, -2, -7, 3, 2.5, 2)]
    assert _types(table) == ["IntType", "IntType", "IntType", "IntType", "DoubleType", "BigIntType"]
    grouped = t_env.sql_query("SELECT id, SUM(i) AS si, AVG(i) AS ai FROM t GROUP BY id HAVING SUM(i) < 100 ORDER BY si")
    assert rows(grouped) == [(2, -7, -7), (1, 3, 3)]
    assert _types(grouped) == ["IntType", "IntType", "IntType"]
    small = t_env.sql_query("SELECT AVG(CAST(i AS TINYINT)), SUM(CAST(i AS SMALLINT)), SUM(CAST(d AS FLOAT)),"
                            " SUM(CAST(d AS DECIMAL(5, 2))), AVG(CAST(d AS DECIMAL(5, 2))) FROM t")
    assert rows(small) == [(-2, -4, 2.5, Decimal("2.50"), Decimal("2.500000"))]
    types = small.get_schema().get_field_data_types()
    assert [type(t).__name__ for t in types[:3]] == ["TinyIntType", "SmallIntType", "FloatType"]
    # PyFlink prints DECIMAL without precision; (38, s) for SUM and (38, max(6, s)) for AVG is Flink's rule.
    assert (types[3].precision, types[3].scale, types[4].precision, types[4].scale) == (38, 2, 38, 6)
    parts = t_env.sql_query("SELECT i / 2, YEAR(ts), HOUR(ts), EXTRACT(SECOND FROM ts), DAYOFWEEK(ts) FROM t"
                            " ORDER BY id")
    assert rows(parts) == [(1, 2024, 10, 45, 2), (-3, 2024, 0, 0, 6)]
    assert _types(parts) == ["IntType", "BigIntType", "BigIntType", "BigIntType", "BigIntType"]
    # A division inside an expression truncates as Flink's (values 2 and -2) but stays DOUBLE.
    nested = t_env.sql_query("SELECT i / 2 + 1 FROM t ORDER BY id")
    assert rows(nested) == [(2,), (-2,)]
    # SUM over INT wraps around on overflow as Flink's does (measured: -294967296).
    overflow = t_env.sql_query("SELECT SUM(v) FROM (VALUES (2000000000), (2000000000)) AS x(v)")
    assert rows(overflow) == [(-294967296,)] and _types(overflow) == ["IntType"]
    # A UNION's column keeps Spark's widening, as Flink's does here (BIGINT).
    union = t_env.sql_query("SELECT SUM(i) FROM t UNION ALL SELECT CAST(1 AS BIGINT)")
    assert sorted(rows(union)) == [(-4,), (1,)] and _types(union) == ["BigIntType"]


def test_views_defined_in_flink_sql_read_it_as_flink(t_env) -> None:  # type: ignore[no-untyped-def]
    # Hand-computed: Flink arrays are 1-based and CAST to TIMESTAMP(3) keeps milliseconds.
    import datetime

    t_env.create_temporary_view("src_v", t_env.from_elements([(1, [10, 20])], ["i", "arr"]))
    t_env.execute_sql("CREATE VIEW flink_v AS SELECT i, arr[1] AS first, "
                      "CAST('2020-01-01 10:00:00.123456' AS TIMESTAMP(3)) AS ts FROM src_v")
    got = [tuple(r) for r in t_env.sql_query("SELECT * FROM flink_v").execute().collect()]
    assert got == [(1, 10, datetime.datetime(2020, 1, 1, 10, 0, 0, 123000))]


def test_cast_type_spellings_of_flink_sql(t_env: Any) -> None:
    # Measured on PyFlink 2.3: CAST AS VARCHAR is unbounded, CHAR is CHAR(1), CHARACTER VARYING(2)
    # keeps two characters, and TIME is TIME(0) (seconds only).
    table = t_env.sql_query(
        "SELECT CAST('abc' AS VARCHAR), CAST('abc' AS CHAR), CAST('abc' AS CHARACTER VARYING(2)),"
        " CAST(TIMESTAMP '2020-01-01 12:34:56.789' AS TIME)")
    assert rows(table) == [("abc", "a", "ab", datetime.time(12, 34, 56))]


def test_listagg_separator_defaults_to_a_comma(t_env: Any) -> None:
    # Flink's LISTAGG(x) joins with ',' (measured on PyFlink 2.3: 'a,b,a'); Spark's listagg with ''.
    t_env.create_temporary_view("la", t_env.from_elements([(1, "a"), (1, "a"), (2, "c")], ["g", "s"]))
    result = t_env.sql_query("SELECT g, LISTAGG(s), LISTAGG(s, '|'), LISTAGG(DISTINCT s) FROM la GROUP BY g")
    assert sorted(rows(result)) == [(1, "a,a", "a|a", "a"), (2, "c", "c", "c")]


def test_array_index_is_one_based_and_null_out_of_range_else_refused_when_constant(t_env: Any) -> None:
    # Measured on PyFlink 2.3: an index computed per row that is 0, negative or past the end gives NULL
    # (Spark's element_at fails on 0 and counts negative indices from the end); a constant index below
    # 1 is refused when the query is planned, in SQL and in the Table API (each in its own words).
    from pyflink_table.errors import ValidationException
    from pyflink_table.expressions import col

    t = t_env.from_elements([(["a", "b"], 0), (["a", "b"], -1), (["a", "b"], 3), (["a", "b"], 2)], ["c", "i"])
    t_env.create_temporary_view("arr_t", t)
    assert rows(t_env.sql_query("SELECT c[CAST(i AS INT)] FROM arr_t")) == [(None,), (None,), (None,), ("b",)]
    assert rows(t.select(col("c").at(col("i").cast(DataTypes.INT())))) == [(None,), (None,), (None,), ("b",)]
    assert rows(t.select(col("c").at(3))) == [(None,)] * 4
    for index in (0, -1):
        with pytest.raises(ValidationException,
                           match=rf"^Array element access needs an index starting at 1 but was {index}\.$"):
            t_env.sql_query(f"SELECT c[{index}] FROM arr_t")
        with pytest.raises(ValidationException, match=rf"^The provided index must be a valid SQL index starting "
                                                      rf"from 1, but was '{index}'$"):
            t.select(col("c").at(index))


def test_cardinality_of_a_multiset_counts_every_occurrence(t_env: Any) -> None:
    # PyFlink 2.3 fails on CARDINALITY of a MULTISET in SQL (CodeGenException: Expect an array or a
    # map., measured); ours counts every occurrence, as Flink's Table API (collect.cardinality), also
    # through a subquery's column and a Table API COLLECT's: hand-computed, g 1 holds 1, 1, 2, NULL
    # (COLLECT skips NULLs: 3; DISTINCT: 2), g 2 only NULL (an empty multiset: 0).
    from pyflink_table.expressions import col
    t = t_env.from_elements([(1, 1), (1, 1), (1, 2), (1, None), (2, None)],
                            DataTypes.ROW([DataTypes.FIELD("g", DataTypes.INT()), DataTypes.FIELD("v", DataTypes.INT())]))
    t_env.create_temporary_view("ms", t)
    direct = t_env.sql_query("SELECT g, CARDINALITY(COLLECT(v)), CARDINALITY(COLLECT(DISTINCT v)), "
                             "CARDINALITY(COLLECT(v) FILTER (WHERE v > 1)) FROM ms GROUP BY g")
    assert sorted(rows(direct)) == [(1, 3, 2, 1), (2, 0, 0, 0)]
    nested = t_env.sql_query("SELECT g, CARDINALITY(c) + 1 FROM (SELECT g, COLLECT(v) AS c FROM ms GROUP BY g)")
    assert sorted(rows(nested)) == [(1, 4), (2, 1)]
    t_env.create_temporary_view("ms_api", t.group_by(col("g")).select(col("g"), col("v").collect.alias("c")))
    assert sorted(rows(t_env.sql_query("SELECT g, CARDINALITY(c) FROM ms_api"))) == [(1, 3), (2, 0)]
