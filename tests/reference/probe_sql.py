"""Probe: Flink SQL syntax and functions that Spark SQL reads differently.

Run with PyFlink 2.3 to print the measured expectations, with ``--ours`` for pyflink_table::

    /work/.venv-pyflink/bin/python tests/reference/probe_sql.py
    .venv/bin/python tests/reference/probe_sql.py --ours

Each case is one SELECT over the view ``t``; the output is label -> (rows, result type) or
('ERROR', first line of the message). tests/test_sql_dialect.py pastes the PyFlink answers.
"""
import pprint
import sys

DATA = [
    (1, "hello", 3, 2.5, "2024-01-15 10:30:45.123"),
    (2, "xxabxx", -7, None, "2024-03-01 00:00:00.000"),
]

# (label, SELECT list expression(s) or full query when starting with SELECT)
CASES = [
    ("cast_ts3", "CAST('2024-01-15 10:30:45.123456' AS TIMESTAMP(3))"),
    ("cast_ts0", "CAST('2024-01-15 10:30:45.9' AS TIMESTAMP(0))"),
    ("cast_ts", "CAST(ts AS TIMESTAMP)"),
    ("cast_ltz3", "CAST(ts AS TIMESTAMP_LTZ(3))"),
    ("cast_ltz_long", "CAST(ts AS TIMESTAMP(3) WITH LOCAL TIME ZONE)"),
    ("cast_varchar", "CAST(i AS VARCHAR(10))"),
    ("cast_char", "CAST(i AS CHAR(3))"),
    ("cast_bytes", "CAST(s AS BYTES)"),
    ("cast_varbinary", "CAST(s AS VARBINARY(10))"),
    ("cast_tinyint", "CAST(i AS TINYINT)"),
    ("cast_smallint", "CAST(i AS SMALLINT)"),
    ("cast_decimal", "CAST(d AS DECIMAL(10, 2))"),
    ("cast_double", "CAST(i AS DOUBLE)"),
    ("cast_float", "CAST(i AS FLOAT)"),
    ("cast_string", "CAST(i AS STRING)"),
    ("cast_time", "CAST('10:30:45' AS TIME)"),
    ("cast_time0", "CAST('10:30:45' AS TIME(0))"),
    ("cast_row", "CAST(ROW(i, s) AS ROW<a INT, b STRING>)"),
    ("cast_array", "CAST(ARRAY[i, 1] AS ARRAY<BIGINT>)"),
    ("try_cast_int", "TRY_CAST(s AS INT)"),
    ("try_cast_ts3", "TRY_CAST(s AS TIMESTAMP(3))"),
    ("sum_int", "SELECT SUM(i) FROM t"),
    ("avg_int", "SELECT AVG(i) FROM t"),
    ("min_max_int", "SELECT MIN(i), MAX(i) FROM t"),
    ("avg_double", "SELECT AVG(d) FROM t"),
    ("count", "SELECT COUNT(*), COUNT(d) FROM t"),
    ("sum_group", "SELECT id, SUM(i) AS si, AVG(i) AS ai FROM t GROUP BY id"),
    ("sum_expr", "SELECT SUM(i + 1) FROM t"),
    ("char_length", "CHAR_LENGTH(s)"),
    ("character_length", "CHARACTER_LENGTH(s)"),
    ("substring_from_for", "SUBSTRING(s FROM 2 FOR 3)"),
    ("substring_from", "SUBSTRING(s FROM 2)"),
    ("substring_args", "SUBSTRING(s, 2, 3)"),
    ("overlay", "OVERLAY(s PLACING 'ZZ' FROM 2 FOR 1)"),
    ("position", "POSITION('l' IN s)"),
    ("locate", "LOCATE('l', s)"),
    ("trim_both", "TRIM(BOTH 'x' FROM s)"),
    ("trim_leading", "TRIM(LEADING 'x' FROM s)"),
    ("trim_trailing", "TRIM(TRAILING 'x' FROM s)"),
    ("trim_plain", "TRIM('  a  ')"),
    ("concat_op", "s || '!' || CAST(id AS STRING)"),
    ("if", "IF(i > 0, 'pos', 'neg')"),
    ("if_null", "IFNULL(d, 0.0)"),
    ("timestampadd", "TIMESTAMPADD(DAY, 2, ts)"),
    ("timestampadd_hour", "TIMESTAMPADD(HOUR, 1, ts)"),
    ("timestampdiff", "TIMESTAMPDIFF(DAY, ts, TIMESTAMP '2024-03-01 00:00:00')"),
    ("timestampdiff_month", "TIMESTAMPDIFF(MONTH, ts, TIMESTAMP '2024-03-01 00:00:00')"),
    ("to_timestamp", "TO_TIMESTAMP('2024-01-15 10:30:45')"),
    ("to_timestamp_fmt", "TO_TIMESTAMP('15/01/2024', 'dd/MM/yyyy')"),
    ("to_date", "TO_DATE('2024-01-15')"),
    ("date_format", "DATE_FORMAT(ts, 'yyyy-MM-dd')"),
    ("date_format_str", "DATE_FORMAT('2024-01-15 10:30:45', 'yyyy/MM/dd HH')"),
    ("escape_quote", "'it''s'"),
    ("escape_backslash", "'a\\b'"),
    ("unicode_escape", "U&'\\0041B'"),
    ("extract", "EXTRACT(YEAR FROM ts)"),
    ("interval_add", "ts + INTERVAL '1' DAY"),
    ("interval_hour", "ts - INTERVAL '2' HOUR"),
    ("floor_ts", "FLOOR(ts TO HOUR)"),
    ("ceil_ts", "CEIL(ts TO DAY)"),
    ("mod", "MOD(i, 2)"),
    ("power", "POWER(i, 2)"),
    ("int_div", "i / 2"),
    ("truncate", "TRUNCATE(d, 0)"),
    ("from_unixtime", "FROM_UNIXTIME(0)"),
    ("unix_timestamp", "UNIX_TIMESTAMP('1970-01-01 00:00:10')"),
    ("year_fn", "YEAR(ts)"),
    ("dayofweek", "DAYOFWEEK(ts)"),
    ("current_ts_type", "CURRENT_TIMESTAMP IS NOT NULL"),
    ("current_date", "CURRENT_DATE IS NOT NULL"),
    ("localtimestamp", "LOCALTIMESTAMP IS NOT NULL"),
    ("now", "NOW() IS NOT NULL"),
    ("case_simple", "CASE id WHEN 1 THEN 'one' ELSE 'other' END"),
    ("coalesce", "COALESCE(d, 1)"),
    ("nullif", "NULLIF(i, 3)"),
    ("is_distinct", "i IS DISTINCT FROM 3"),
    ("between", "i BETWEEN -10 AND 0"),
    ("similar", "s SIMILAR TO 'h%'"),
    ("like", "s LIKE 'h%'"),
    ("regexp_replace", "REGEXP_REPLACE(s, 'l+', 'L')"),
    ("regexp_extract", "REGEXP_EXTRACT(s, 'h(e)', 1)"),
    ("split_index", "SPLIT_INDEX('a,b,c', ',', 1)"),
    ("str_to_map", "STR_TO_MAP('a=1,b=2')['b']"),
    ("repeat", "REPEAT(s, 2)"),
    ("lpad", "LPAD(s, 7, '*')"),
    ("initcap", "INITCAP(s)"),
    ("md5", "MD5('a')"),
    ("hash_code", "HASH_CODE('a')"),
    ("concat_null", "CONCAT(s, CAST(NULL AS STRING))"),
    ("values", "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v(x, y)"),
    ("ts_literal", "TIMESTAMP '2024-01-15 10:30:45.5'"),
    ("date_literal", "DATE '2024-01-15' + INTERVAL '1' MONTH"),
    ("backtick", "SELECT `s` FROM t"),
    ("limit", "SELECT id FROM t ORDER BY id DESC LIMIT 1"),
    ("extract_more", "HOUR(ts), MINUTE(ts), SECOND(ts), MONTH(ts), DAYOFMONTH(ts), QUARTER(ts), DAYOFYEAR(ts), "
                     "WEEK(ts), EXTRACT(SECOND FROM ts), EXTRACT(DAY FROM ts)"),
    ("regexp_extract_2", "REGEXP_EXTRACT(s, 'l+'), REGEXP_EXTRACT(s, 'q(x)?', 1)"),
    ("array_index", "ARRAY[i, 10, 20][1], ARRAY[i, 10][3], MAP['a', i]['a'], MAP['a', i]['b']"),
    ("array_index_col", "SELECT x[2], m['k'] FROM (SELECT ARRAY[id, 5] AS x, MAP['k', s] AS m FROM t)"),
    ("row_ctor", "ROW(i, s)"),
    ("row_field", "SELECT r.a FROM (SELECT CAST(ROW(i, s) AS ROW<a INT, b STRING>) AS r FROM t)"),
    ("char_trunc", "CAST(s AS CHAR(2)), CAST(s AS VARCHAR(2))"),
    ("literal_mix", "'FETCH FIRST 1 ROWS ONLY', 'x''\\y', 'CAST(a AS TIMESTAMP(3))'"),
    ("floor_month", "FLOOR(ts TO MONTH), CEIL(ts TO MONTH), CEIL(ts TO HOUR), FLOOR(ts TO MINUTE)"),
    ("sum_having", "SELECT id, SUM(i) AS si FROM t GROUP BY id HAVING SUM(i) < 100 ORDER BY si"),
    ("sum_nested", "SELECT si + 1, si FROM (SELECT SUM(i) AS si FROM t)"),
    ("avg_small", "SELECT AVG(CAST(i AS TINYINT)), SUM(CAST(i AS SMALLINT)), SUM(CAST(d AS FLOAT)) FROM t"),
    ("sum_decimal", "SELECT SUM(CAST(d AS DECIMAL(5, 2))), AVG(CAST(d AS DECIMAL(5, 2))) FROM t"),
    ("int_div_nested", "i / 2 + 1, i / 2"),
    ("split_index_more", "SPLIT_INDEX(s, 'l', 1), SPLIT_INDEX(s, 'l', 5)"),
    ("ts_precision", "CAST(TIMESTAMP '2024-01-15 10:30:45.123456' AS TIMESTAMP(3)), TRY_CAST('2024-01-15 10:30:45.98' AS TIMESTAMP(0))"),
    ("union_sum", "SELECT SUM(i) FROM t UNION ALL SELECT CAST(1 AS BIGINT)"),
    ("fetch_first", "SELECT id FROM t ORDER BY id FETCH FIRST 1 ROWS ONLY"),
    ("offset_fetch", "SELECT id FROM t ORDER BY id OFFSET 1 ROWS FETCH NEXT 1 ROWS ONLY"),
]


def run(ours: bool) -> None:
    if ours:
        from pyflink_table import DataTypes as T, EnvironmentSettings, TableEnvironment
    else:
        from pyflink.table import DataTypes as T, EnvironmentSettings, TableEnvironment  # type: ignore
    env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    env.get_config().set("table.local-time-zone", "UTC")
    schema = T.ROW([T.FIELD("id", T.INT()), T.FIELD("s", T.STRING()), T.FIELD("i", T.INT()),
                    T.FIELD("d", T.DOUBLE()), T.FIELD("ts_s", T.STRING())])
    base = env.from_elements(DATA, schema)
    env.create_temporary_view("t0", base)
    env.create_temporary_view(
        "t", env.sql_query("SELECT id, s, i, d, CAST(ts_s AS TIMESTAMP(3)) AS ts FROM t0"))
    out = {}
    for label, text in CASES:
        sql = text if text.startswith("SELECT") else f"SELECT id, {text} FROM t"
        try:
            table = env.sql_query(sql)
            rows = [tuple(r) for r in table.execute().collect()]
            rows.sort(key=lambda r: tuple((v is not None, repr(v)) for v in r))
            types = [str(t) for t in table.get_schema().get_field_data_types()]
            out[label] = (rows, types)
        except Exception as ex:
            lines = str(ex).strip().splitlines()
            out[label] = ("ERROR", type(ex).__name__ + ": " + (lines[0][:200] if lines else ""))
    pprint.pprint(out, width=110)


if __name__ == "__main__":
    run("--ours" in sys.argv)
