"""SQL entry points and the catalog of temporary views. Expected values are hand-computed; the
SHOW/DESCRIBE layouts were measured on PyFlink 2.3."""

from conftest import rows, sorted_rows
from pyflink_table import DataTypes
from pyflink_table.expressions import col
from pyflink_table.table_result import ResultKind


def test_views_and_queries(t_env, capsys) -> None:  # type: ignore[no-untyped-def]
    src = t_env.from_elements([(1, "a", 10), (2, "b", 20), (3, "a", None)], ["id", "k", "v"])
    t_env.create_temporary_view("src", src)
    assert sorted_rows(t_env.sql_query("SELECT k, SUM(v) AS s, COUNT(*) AS c FROM src GROUP BY k")) == [
        ("a", 10, 2), ("b", 20, 1)]
    assert rows(t_env.from_path("src").select(col("id")).order_by(col("id"))) == [(1,), (2,), (3,)]
    assert rows(t_env.from_path("default_catalog.default_database.src").where(col("id") == 2)) == [(2, "b", 20)]
    query = t_env.execute_sql("SELECT id FROM src WHERE v IS NULL")
    assert query.get_result_kind() == ResultKind.SUCCESS_WITH_CONTENT and [tuple(r) for r in query.collect()] == [(3,)]
    t_env.create_temporary_view("other", src)
    assert [tuple(r) for r in t_env.execute_sql("SHOW VIEWS").collect()] == [("other",), ("src",)]
    views = sorted(t_env.list_temporary_views())
    assert "other" in views and "src" in views
    assert set(t_env.list_tables()) >= {"other", "src"}
    t_env.execute_sql("DESCRIBE src").print()
    assert capsys.readouterr().out == (
        "+------+--------+------+-----+--------+-----------+\n"
        "| name |   type | null | key | extras | watermark |\n"
        "+------+--------+------+-----+--------+-----------+\n"
        "|   id | BIGINT | TRUE |     |        |           |\n"
        "|    k | STRING | TRUE |     |        |           |\n"
        "|    v | BIGINT | TRUE |     |        |           |\n"
        "+------+--------+------+-----+--------+-----------+\n"
        "3 rows in set\n")
    # str(table) registers the table under a generated name, as PyFlink does.
    name = str(src.where(col("id") > 1))
    assert name.startswith("UnnamedTable$") and str(src.where(col("id") > 1)) != name
    assert sorted_rows(t_env.sql_query(f"SELECT id FROM {name}")) == [(2,), (3,)]
    dropped = t_env.execute_sql("DROP TEMPORARY VIEW other")
    assert dropped.get_result_kind() == ResultKind.SUCCESS
    dropped.print()
    assert capsys.readouterr().out == "OK\n"
    assert "other" not in t_env.list_temporary_views()
    assert t_env.drop_temporary_view("src") is True and t_env.drop_temporary_view("src") is False


def test_show_tables_layout(t_env, capsys) -> None:  # type: ignore[no-untyped-def]
    t = t_env.from_elements([(1,)], DataTypes.ROW([DataTypes.FIELD("x", DataTypes.INT(False))]))
    t_env.create_temporary_view("src", t)
    t_env.create_temporary_view("a_view_with_a_long_name", t)
    assert [tuple(r) for r in t_env.execute_sql("SHOW TABLES").collect()] == [("a_view_with_a_long_name",), ("src",)]
    t_env.execute_sql("SHOW VIEWS").print()
    t_env.execute_sql("DESCRIBE a_view_with_a_long_name").print()
    # Measured on PyFlink 2.3: SHOW/DESCRIBE columns are as wide as their content, NULL is empty.
    assert capsys.readouterr().out == (
        "+-------------------------+\n"
        "|               view name |\n"
        "+-------------------------+\n"
        "| a_view_with_a_long_name |\n"
        "|                     src |\n"
        "+-------------------------+\n"
        "2 rows in set\n"
        "+------+------+-------+-----+--------+-----------+\n"
        "| name | type |  null | key | extras | watermark |\n"
        "+------+------+-------+-----+--------+-----------+\n"
        "|    x |  INT | FALSE |     |        |           |\n"
        "+------+------+-------+-----+--------+-----------+\n"
        "1 row in set\n")


def test_unnamed_select_items_are_named_as_flink_names_them(t_env) -> None:
    # Measured on PyFlink 2.3 (batch) with these queries over this view plus a fourth (ROW) column r, where
    # '*, a * 2' gave a, c, d, r, EXPR$4: Flink names an unnamed expression EXPR$<position>, '*' expanded first.
    t_env.execute_sql("CREATE TEMPORARY VIEW s AS SELECT * FROM (VALUES (1, ARRAY[10, 20], 'x')) AS v(a, c, d)")
    expected = {
        "SELECT c[1] FROM s": ["EXPR$0"],
        "SELECT a, c[1], a + 1 FROM s": ["a", "EXPR$1", "EXPR$2"],
        "SELECT a + 1, COUNT(*) FROM s GROUP BY a": ["EXPR$0", "EXPR$1"],
        "SELECT *, a * 2 FROM s": ["a", "c", "d", "EXPR$3"],
        "SELECT CAST(a AS BIGINT), UPPER(d), d FROM s": ["EXPR$0", "EXPR$1", "d"],
        "SELECT a + 1 FROM s ORDER BY 1 LIMIT 1": ["EXPR$0"],
        "SELECT a + 1 FROM s UNION ALL SELECT a FROM s": ["EXPR$0"],
        "SELECT s.a, 1 FROM s": ["a", "EXPR$1"],
        "SELECT DISTINCT a + 1 FROM s": ["EXPR$0"],
        "WITH w AS (SELECT a FROM s) SELECT a + 1 FROM w": ["EXPR$0"],
        "SELECT * FROM (SELECT a + 1, a FROM s)": ["EXPR$0", "a"],
    }
    for query, names in expected.items():
        assert t_env.sql_query(query).get_schema().get_field_names() == names, query
    assert [tuple(r) for r in t_env.execute_sql("SELECT c[1] FROM s").collect()] == [(10,)]
