"""Catalogs and databases: Flink's default_catalog/default_database on Spark's session catalog."""

from __future__ import annotations

import pytest

from pyflink_table import ValidationException


def test_catalogs_databases_and_object_kinds(t_env, tmp_path):
    assert t_env.list_catalogs() == ["default_catalog"]
    assert t_env.get_current_catalog() == "default_catalog"
    assert t_env.get_current_database() == "default_database"
    assert [r[0] for r in t_env.execute_sql("SHOW CATALOGS").collect()] == ["default_catalog"]
    assert [r[0] for r in t_env.execute_sql("SHOW CURRENT DATABASE").collect()] == ["default_database"]
    t_env.execute_sql("CREATE DATABASE IF NOT EXISTS e_db1")
    try:
        assert "e_db1" in t_env.list_databases() and "default_database" in t_env.list_databases()
        assert "e_db1" in [r[0] for r in t_env.execute_sql("SHOW DATABASES").collect()]
        t_env.use_database("e_db1")
        assert t_env.get_current_database() == "e_db1"
        t_env.execute_sql("USE default_database")
        assert t_env.get_current_database() == "default_database"
        t_env.execute_sql("USE CATALOG default_catalog")
        with pytest.raises(ValidationException, match="catalog with name \\[other\\]"):
            t_env.use_catalog("other")
        with pytest.raises(ValidationException, match="database with name \\[missing\\]"):
            t_env.use_database("missing")
        with pytest.raises(ValidationException, match="missing"):
            t_env.execute_sql("CREATE TABLE missing.t (a INT) WITH ('connector'='print')")
    finally:
        t_env.execute_sql("DROP DATABASE IF EXISTS e_db1 CASCADE")
    assert "e_db1" not in t_env.list_databases()
    # Temporary and permanent objects.
    t_env.execute_sql("CREATE TABLE perm (a INT) WITH ('connector'='blackhole')")
    t_env.execute_sql("CREATE TEMPORARY TABLE temp (a INT) WITH ('connector'='blackhole')")
    t_env.create_temporary_view("v", t_env.from_elements([(1,)], ["a"]))
    assert t_env.list_tables() == ["perm", "temp", "v"]
    assert t_env.list_temporary_tables() == ["temp", "v"]
    with pytest.raises(ValidationException, match="DROP TEMPORARY TABLE"):
        t_env.execute_sql("DROP TABLE temp")
    t_env.execute_sql("DROP TEMPORARY TABLE temp")
    t_env.execute_sql("DROP TABLE default_catalog.default_database.perm")
    assert t_env.list_tables() == ["v"]
