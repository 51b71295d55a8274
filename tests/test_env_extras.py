"""Permanent views, drops, catalogs, modules, EXPLAIN with details, to/from_changelog.

Expected behaviour was measured on PyFlink 2.3 (batch mode) unless a comment says otherwise.
"""

from __future__ import annotations

import json

import pytest

from pyflink_table import (
    Configuration,
    ExplainDetail,
    Module,
    ModuleEntry,
    TableEnvironment,
    TableException,
    ValidationException,
)
from pyflink_table.catalog import CatalogDescriptor, ObjectPath
from pyflink_table.expressions import descriptor, map_
from pyflink_table.types import to_type_string

from conftest import rows


def test_create_view_and_drops(t_env: TableEnvironment) -> None:
    t = t_env.from_elements([(1, "a"), (2, "b")], ["x", "y"])
    t_env.create_view("v1", t)
    # PyFlink: a second create_view fails, with ignore_if_exists it is a no-op.
    with pytest.raises(ValidationException, match="Could not execute CreateTable in path `default_catalog`"):
        t_env.create_view("v1", t)
    t_env.create_view("v1", t, True)
    # PyFlink: a permanent view is listed by list_views/list_tables, not by list_temporary_views.
    assert (t_env.list_views(), t_env.list_tables(), t_env.list_temporary_views()) == (["v1"], ["v1"], [])
    assert rows(t_env.from_path("v1")) == [(1, "a"), (2, "b")]
    assert rows(t_env.sql_query("SELECT SUM(x) FROM v1")) == [(3,)]  # 1 + 2
    catalog = t_env.get_catalog("default_catalog")
    assert catalog is not None
    assert catalog.list_tables("default_database") == ["v1"]
    assert catalog.table_exists(ObjectPath("default_database", "v1"))

    # drop_table does not see views; drop_view drops once (PyFlink: False, error, True, False, error).
    assert t_env.drop_table("v1") is False
    with pytest.raises(ValidationException,
                       match=r"^Table with identifier 'default_catalog.default_database.v1' does not exist\.$"):
        t_env.drop_table("v1", False)
    assert t_env.drop_view("v1") is True
    assert t_env.drop_view("v1") is False
    with pytest.raises(ValidationException,
                       match=r"^View with identifier 'default_catalog.default_database.v1' does not exist\.$"):
        t_env.drop_view("v1", False)
    assert t_env.list_views() == []

    # Temporary objects must be dropped with the temporary calls (PyFlink's messages).
    t_env.create_temporary_view("tv", t)
    with pytest.raises(ValidationException, match="^Temporary view with identifier "
                       "'`default_catalog`.`default_database`.`tv`' exists. Drop it first before removing "
                       "the permanent view.$"):
        t_env.drop_view("tv")
    assert t_env.drop_table("tv") is False
    t_env.execute_sql("CREATE TEMPORARY TABLE tt (a INT) WITH ('connector'='blackhole')")
    with pytest.raises(ValidationException, match="Temporary table with identifier "
                       "'`default_catalog`.`default_database`.`tt`' exists"):
        t_env.drop_table("tt", False)
    t_env.execute_sql("CREATE TABLE pt (a INT) WITH ('connector'='blackhole')")
    with pytest.raises(ValidationException, match="View with identifier 'default_catalog.default_database.pt'"):
        t_env.drop_view("pt", False)
    assert t_env.drop_table("pt") is True
    assert t_env.list_tables() == ["tt", "tv"]


def test_catalogs_and_modules(t_env: TableEnvironment) -> None:
    catalog = t_env.get_catalog("default_catalog")
    assert catalog is not None and t_env.get_catalog("nope") is None
    assert catalog.get_default_database() == "default_database"
    assert catalog.database_exists("default_database") and not catalog.database_exists("nope")
    in_memory = CatalogDescriptor.of("mem", Configuration().set_string("type", "generic_in_memory"))
    with pytest.raises(TableException, match="create_catalog\\('mem'\\) of type 'generic_in_memory'"):
        t_env.create_catalog("mem", in_memory)
    with pytest.raises(TableException, match="register_catalog\\('alias'\\)"):
        t_env.register_catalog("alias", catalog)
    assert t_env.list_catalogs() == ["default_catalog"]

    # PyFlink: ['core'], [ModuleEntry{name='core', used=true}], and these ValidationException texts.
    assert t_env.list_modules() == ["core"]
    assert t_env.list_full_modules() == [ModuleEntry("core", True)]
    with pytest.raises(ValidationException, match="^No module with name 'nope' exists$"):
        t_env.use_modules("nope")
    with pytest.raises(ValidationException, match="^Module 'core' appears more than once$"):
        t_env.use_modules("core", "core")
    with pytest.raises(ValidationException, match="^No module with name 'nope' exists$"):
        t_env.unload_module("nope")
    t_env.use_modules("core")
    with pytest.raises(TableException, match="load_module\\('hive'\\)"):
        t_env.load_module("hive", Module())
    assert t_env.list_modules() == ["core"]


def test_explain_details_and_explain_statement(t_env: TableEnvironment, capsys: pytest.CaptureFixture[str]) -> None:
    t = t_env.from_elements([(1, "a"), (2, "b")], ["x", "y"])
    plain = t.explain()
    assert "== Physical Plan ==" in plain
    assert "Statistics(sizeInBytes=" in t.explain(ExplainDetail.ESTIMATED_COST)
    assert t.explain(ExplainDetail.CHANGELOG_MODE) == plain  # Flink's batch plans add nothing either
    with_json = t.explain(ExplainDetail.JSON_EXECUTION_PLAN)
    parsed = json.loads(with_json.split("== Physical Execution Plan ==\n", 1)[1])
    assert isinstance(parsed, list) and parsed[0]["class"].startswith("org.apache.spark.sql.execution.")
    with pytest.raises(TableException, match="PLAN_ADVICE"):
        t.explain(ExplainDetail.PLAN_ADVICE)
    with pytest.raises(TypeError, match="Unknown explain detail 7"):
        t.explain(7)  # type: ignore[arg-type]
    t.print_explain(ExplainDetail.ESTIMATED_COST)
    assert "== Estimated Cost ==" in capsys.readouterr().out
    assert "== Physical Plan ==" in t_env.explain_sql(f"SELECT x FROM {t}", ExplainDetail.CHANGELOG_MODE)

    # PyFlink: EXPLAIN returns one row in one STRING column named result, with content.
    for statement in (f"EXPLAIN SELECT x FROM {t}", f"EXPLAIN PLAN FOR SELECT x FROM {t}",
                      f"EXPLAIN ESTIMATED_COST, JSON_EXECUTION_PLAN SELECT x FROM {t}"):
        result = t_env.execute_sql(statement)
        assert result.get_result_kind() == 1
        assert result.get_resolved_schema().get_column_names() == ["result"]
        plans = [r[0] for r in result.collect()]
        assert len(plans) == 1 and "== Physical Plan ==" in plans[0]
    assert "== Physical Execution Plan ==" in plans[0] and "== Estimated Cost ==" in plans[0]
    t_env.execute_sql("CREATE TABLE sink (x BIGINT) WITH ('connector'='blackhole')")
    insert_plan = [r[0] for r in t_env.execute_sql(f"EXPLAIN INSERT INTO sink SELECT x FROM {t}").collect()]
    assert len(insert_plan) == 1 and "== Physical Plan ==" in insert_plan[0]
    # PyFlink prints an EXPLAIN result as the bare plan text, without table borders.
    capsys.readouterr()
    t_env.execute_sql(f"EXPLAIN SELECT x FROM {t}").print()
    printed = capsys.readouterr().out
    assert printed.startswith("== Parsed Logical Plan ==") and "+--" not in printed.splitlines()[0]


def test_to_and_from_changelog(t_env: TableEnvironment) -> None:
    # PyFlink 2.3 refuses both in batch mode ("Cannot generate a valid execution plan"); expected values
    # follow Flink's documentation: to_changelog prepends op STRING holding each row's change kind
    # (every batch row is an INSERT), from_changelog keeps INSERT rows and removes the op column.
    t = t_env.from_elements([(1, "a"), (2, "b")], ["x", "y"])
    out = t.to_changelog()
    assert out.get_schema().get_field_names() == ["op", "x", "y"]
    assert to_type_string(out.get_schema().get_field_data_type("op")) == "STRING"  # nullable, as Flink's plan types it
    assert rows(out) == [("INSERT", 1, "a"), ("INSERT", 2, "b")]
    custom = t.to_changelog(descriptor("op_code").as_argument("op"),
                            map_("INSERT, UPDATE_AFTER", "I", "DELETE", "D").as_argument("op_mapping"))
    assert rows(custom) == [("I", 1, "a"), ("I", 2, "b")]
    assert rows(t.to_changelog(map_("DELETE", "D").as_argument("op_mapping"))) == []  # INSERT not mapped
    with pytest.raises(ValidationException, match="already has a column named 'x'"):
        t.to_changelog(descriptor("x").as_argument("op"))

    cdc = t_env.from_elements([("INSERT", 1, "a"), ("INSERT", 2, "b")], ["op", "x", "y"])
    assert cdc.from_changelog().get_schema().get_field_names() == ["x", "y"]
    assert rows(cdc.from_changelog()) == [(1, "a"), (2, "b")]
    debezium = t_env.from_elements([("c", 1), ("r", 2)], ["o", "x"])
    mapped = debezium.from_changelog(descriptor("o").as_argument("op"),
                                     map_("c, r", "INSERT", "d", "DELETE").as_argument("op_mapping"))
    assert rows(mapped) == [(1,), (2,)]
    with pytest.raises(ValidationException, match="no operation column 'op'"):
        t.from_changelog()
    deleting = t_env.from_elements([("INSERT", 1), ("DELETE", 1)], ["op", "x"])
    with pytest.raises(TableException, match="operation code 'DELETE'"):
        rows(deleting.from_changelog())
