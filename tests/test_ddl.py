"""SQL DDL: CREATE [TEMPORARY] TABLE ... WITH, computed columns, watermarks, views, DROP, INSERT forms.

Expected values are hand-computed from the rows each test writes.
"""

from __future__ import annotations

import datetime

import pytest

from pyflink_table import (EnvironmentSettings, SqlParserException, TableEnvironment, TableException,
                           ValidationException)

from conftest import rows, sorted_rows


def test_create_table_with_computed_columns_watermark_and_key(t_env, tmp_path):
    (tmp_path / "in.csv").write_text("1,2020-01-01 00:00:01,x\n2,2020-01-01 00:00:02,y\n")
    t_env.execute_sql(f"""
        CREATE TEMPORARY TABLE IF NOT EXISTS `src` (
          `id` INT NOT NULL,
          ts TIMESTAMP(3) COMMENT 'event time',
          name VARCHAR(10),
          id2 AS id * 10,
          up AS UPPER(name) COMMENT 'computed',
          WATERMARK FOR ts AS ts - INTERVAL '5' SECOND,
          PRIMARY KEY (id) NOT ENFORCED
        ) COMMENT 'a table' WITH (
          'connector' = 'filesystem',
          'path' = '{tmp_path}/in.csv',
          'format' = 'csv'
        );""")
    table = t_env.from_path("src")
    assert table.get_schema().get_field_names() == ["id", "ts", "name", "id2", "up"]
    assert sorted_rows(t_env.sql_query("SELECT id, name, id2, up FROM src")) == [(1, "x", 10, "X"), (2, "y", 20, "Y")]
    described = [tuple(r)[:2] for r in t_env.execute_sql("DESCRIBE src").collect()]
    assert described[:3] == [("id", "INT"), ("ts", "TIMESTAMP(3)"), ("name", "VARCHAR(10)")]
    # IF NOT EXISTS is quiet; a second CREATE is not.
    t_env.execute_sql(f"CREATE TEMPORARY TABLE IF NOT EXISTS src (a INT) WITH ('connector'='datagen')")
    with pytest.raises(ValidationException, match="already exists"):
        t_env.execute_sql(f"CREATE TEMPORARY TABLE src (a INT) WITH ('connector'='blackhole')")
    with pytest.raises(ValidationException, match="Computed column 'bad'"):
        t_env.execute_sql("CREATE TABLE c (a INT, bad AS nope + 1) WITH ('connector'='datagen', 'number-of-rows'='1')")
    with pytest.raises(ValidationException, match="Partition column 'zz'"):
        t_env.execute_sql(f"CREATE TABLE p (a INT) PARTITIONED BY (zz) WITH ('connector'='filesystem', "
                          f"'path'='{tmp_path}/p', 'format'='csv')")
    # a metadata column is declared as in Flink; print cannot persist it (tests/test_metadata_columns.py)
    t_env.execute_sql("CREATE TABLE m (a INT, t TIMESTAMP_LTZ(3) METADATA FROM 'timestamp') WITH ('connector'='print')")
    with pytest.raises(ValidationException, match="declares persistable metadata columns"):
        t_env.execute_sql("INSERT INTO m SELECT 1, CURRENT_TIMESTAMP")
    with pytest.raises(SqlParserException):
        t_env.execute_sql("CREATE TABLE broken (a INT WITH ('connector'='print')")


def test_views_drop_show(t_env, tmp_path):
    t_env.execute_sql(f"CREATE TABLE nums (n INT) WITH ('connector'='filesystem', 'path'='{tmp_path}/nums', "
                      "'format'='json')")
    t_env.execute_sql("CREATE VIEW big AS SELECT n FROM nums WHERE n > 1")
    t_env.execute_sql("CREATE TEMPORARY VIEW small AS SELECT n FROM nums WHERE n <= 1")
    t_env.execute_sql("INSERT INTO nums VALUES (1), (2), (3)").wait()
    # Views see what the INSERT wrote after they were created.
    assert sorted_rows(t_env.from_path("big")) == [(2,), (3,)]
    assert sorted_rows(t_env.sql_query("SELECT * FROM small")) == [(1,)]
    assert [r[0] for r in t_env.execute_sql("SHOW TABLES").collect()] == ["big", "nums", "small"]
    assert t_env.list_temporary_views() == ["small"]
    assert [r[0] for r in t_env.execute_sql("SHOW VIEWS").collect()] == ["big", "small"]
    assert sorted(t_env.list_views()) == ["big", "small"]
    with pytest.raises(ValidationException, match="DROP TEMPORARY"):
        t_env.execute_sql("DROP VIEW small")
    with pytest.raises(ValidationException, match="is a view"):
        t_env.execute_sql("DROP TABLE big")
    t_env.execute_sql("DROP TEMPORARY VIEW small")
    t_env.execute_sql("DROP VIEW big")
    t_env.execute_sql("DROP TABLE nums")
    t_env.execute_sql("DROP TABLE IF EXISTS nums")
    with pytest.raises(ValidationException, match="does not exist"):
        t_env.execute_sql("DROP TABLE nums")
    assert t_env.list_tables() == []
    # The files stay: DROP removes the table, not its data (as in Flink).
    assert (tmp_path / "nums").is_dir()


def test_insert_forms(t_env, tmp_path):
    t_env.execute_sql(f"CREATE TABLE dst (a INT, b STRING, c DOUBLE) WITH ('connector'='filesystem', "
                      f"'path'='{tmp_path}/dst', 'format'='csv')")
    t_env.execute_sql("INSERT INTO dst (b, a) SELECT 'x', 1").wait()
    t_env.execute_sql("INSERT INTO default_catalog.default_database.dst VALUES (2, 'y', 0.5)").wait()
    t_env.sql_update("INSERT INTO `dst` SELECT a + 10, b, c FROM dst WHERE a = 2")
    assert sorted_rows(t_env.from_path("dst")) == [(1, "x", None), (2, "y", 0.5), (12, "y", 0.5)]
    t_env.execute_sql("INSERT OVERWRITE dst SELECT 7, 'z', 1.0").wait()
    assert sorted_rows(t_env.from_path("dst")) == [(7, "z", 1.0)]
    with pytest.raises(ValidationException, match="Unknown target column 'zz'"):
        t_env.execute_sql("INSERT INTO dst (zz) SELECT 1")
    # CREATE TABLE ... AS SELECT creates the table from the query's columns and writes it.
    t_env.execute_sql(f"CREATE TABLE copy WITH ('connector'='filesystem', 'path'='{tmp_path}/copy', 'format'='json') "
                      "AS SELECT a, b FROM dst")
    assert sorted_rows(t_env.from_path("copy")) == [(7, "z")]
    # A statement set in SQL.
    t_env.execute_sql("""EXECUTE STATEMENT SET BEGIN
        INSERT INTO dst VALUES (8, 'p', 2.0);
        INSERT INTO copy VALUES (9, 'q');
      END;""")
    assert sorted_rows(t_env.from_path("dst")) == [(7, "z", 1.0), (8, "p", 2.0)]
    assert sorted_rows(t_env.from_path("copy")) == [(7, "z"), (9, "q")]


def test_to_timestamp_ltz_computed_column_and_watermark(t_env, tmp_path):
    # Issue 15: Spark's own to_timestamp_ltz parses strings only ("gettimestamp" unresolved). Values
    # measured on PyFlink 2.3 (local time zone UTC) with CAST(ts AS STRING): 1970-01-01 00:00:01.000, ...
    (tmp_path / "in.csv").write_text("1,10\n2,20\n5,30\n")
    for vt in ("BIGINT", "INT"):
        t_env.execute_sql(f"""
            CREATE TEMPORARY TABLE s_{vt} (v {vt}, x INT, ts AS TO_TIMESTAMP_LTZ(v * 1000, 3),
              WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
            WITH ('connector' = 'filesystem', 'path' = '{tmp_path}/in.csv', 'format' = 'csv')""")
        assert sorted_rows(t_env.from_path(f"s_{vt}")) == [
            (1, 10, datetime.datetime(1970, 1, 1, 0, 0, 1)), (2, 20, datetime.datetime(1970, 1, 1, 0, 0, 2)),
            (5, 30, datetime.datetime(1970, 1, 1, 0, 0, 5))]
    t_env.execute_sql("CREATE TEMPORARY TABLE g (v BIGINT, ts AS TO_TIMESTAMP_LTZ(v, 0)) WITH ('connector' = 'datagen', "
                      "'number-of-rows' = '2', 'fields.v.kind' = 'sequence', 'fields.v.start' = '1', 'fields.v.end' = '2')")
    assert sorted_rows(t_env.from_path("g")) == [(1, datetime.datetime(1970, 1, 1, 0, 0, 1)),
                                                 (2, datetime.datetime(1970, 1, 1, 0, 0, 2))]
    # SQL (measured on PyFlink 2.3): the number counts units of 10^-precision seconds, a fraction is dropped.
    row = rows(t_env.sql_query(
        "SELECT TO_TIMESTAMP_LTZ(v, 0), TO_TIMESTAMP_LTZ(v * 1.5e0, 3), "
        "TO_TIMESTAMP_LTZ(CAST(v AS DECIMAL(10, 2)) + 0.5, 0), TO_TIMESTAMP_LTZ(v), TO_TIMESTAMP_LTZ(v, 6), "
        "TO_TIMESTAMP_LTZ(1500, 2), TO_TIMESTAMP_LTZ('2020-01-02 03:04:05', 'yyyy-MM-dd HH:mm:ss', 'Asia/Shanghai') "
        "FROM s_INT WHERE v = 5"))
    assert row == [(datetime.datetime(1970, 1, 1, 0, 0, 5), datetime.datetime(1970, 1, 1, 0, 0, 0, 7000),
                    datetime.datetime(1970, 1, 1, 0, 0, 5), datetime.datetime(1970, 1, 1, 0, 0, 0, 5000),
                    datetime.datetime(1970, 1, 1, 0, 0, 0, 5), datetime.datetime(1970, 1, 1, 0, 0, 15),
                    datetime.datetime(2020, 1, 1, 19, 4, 5))]
    # The result types outside the Table API (measured on PyFlink 2.3): TIMESTAMP_LTZ(3) up to
    # precision 3 and for strings, TIMESTAMP_LTZ(p) above; a computed column's as well.
    typed = t_env.sql_query(
        "SELECT TO_TIMESTAMP_LTZ(v, 0) AS a, TO_TIMESTAMP_LTZ(v * 1.5e0, 3) AS b, TO_TIMESTAMP_LTZ(v) AS c, "
        "TO_TIMESTAMP_LTZ(v, 6) AS d, TO_TIMESTAMP_LTZ(1500, 2) AS e, TO_TIMESTAMP_LTZ(v, 4) AS f, "
        "TO_TIMESTAMP_LTZ('2020-01-02 03:04:05', 'yyyy-MM-dd HH:mm:ss', 'Asia/Shanghai') AS g, "
        "TO_TIMESTAMP_LTZ('2020-01-02 03:04:05') AS h FROM s_INT")
    assert [t.precision for t in typed.get_schema().get_field_data_types()] == [3, 3, 3, 6, 3, 4, 3, 3]
    assert t_env.from_path("s_INT").get_schema().get_field_data_types()[2].precision == 3
    assert t_env.from_path("g").get_schema().get_field_data_types()[1].precision == 3
    # PyFlink 2.3 gives nanoseconds at precision 9; Spark's timestamps stop at microseconds.
    with pytest.raises(TableException, match="TO_TIMESTAMP_LTZ with precision 9"):
        rows(t_env.sql_query("SELECT TO_TIMESTAMP_LTZ(v, 9) FROM s_INT"))
    with pytest.raises(ValidationException, match="must be an integer literal"):
        rows(t_env.sql_query("SELECT TO_TIMESTAMP_LTZ(v, x) FROM s_INT"))


def test_to_timestamp_ltz_rowtime_in_streaming(_spark_started, tmp_path):
    # The computed rowtime drives a streaming window; measured on PyFlink 2.3 (local time zone UTC):
    # windows [00:00, 00:02) 10, [00:02, 00:04) 20, [00:04, 00:06) 30.
    (tmp_path / "in.csv").write_text("1,10\n2,20\n5,30\n")
    env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    env.get_config().set("parallelism.default", "1")
    env.execute_sql(f"""
        CREATE TEMPORARY TABLE s (v BIGINT, x INT, ts AS TO_TIMESTAMP_LTZ(v * 1000, 3),
          WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
        WITH ('connector' = 'filesystem', 'path' = '{tmp_path}/in.csv', 'format' = 'csv')""")
    result = env.sql_query("SELECT window_start, window_end, SUM(x) FROM TABLE(TUMBLE(TABLE s, DESCRIPTOR(ts), "
                           "INTERVAL '2' SECOND)) GROUP BY window_start, window_end")
    assert sorted_rows(result) == [(datetime.datetime(1970, 1, 1, 0, 0, s), datetime.datetime(1970, 1, 1, 0, 0, s + 2), x)
                                   for s, x in ((0, 10), (2, 20), (4, 30))]


def test_to_timestamp_of_malformed_string_is_null(t_env, tmp_path):
    # Measured on PyFlink 2.3: a computed TO_TIMESTAMP(s[, fmt]) is NULL for 'bad' (here the job failed).
    (tmp_path / "in.csv").write_text("2020-01-02 03:04:05\nbad\n")
    t_env.execute_sql(f"""
        CREATE TEMPORARY TABLE t (s STRING, a AS TO_TIMESTAMP(s), b AS TO_TIMESTAMP(s, 'yyyy-MM-dd HH:mm:ss'))
        WITH ('connector' = 'filesystem', 'path' = '{tmp_path}/in.csv', 'format' = 'csv')""")
    ts = datetime.datetime(2020, 1, 2, 3, 4, 5)
    assert sorted_rows(t_env.from_path("t")) == [("2020-01-02 03:04:05", ts, ts), ("bad", None, None)]
