"""Modules: unload_module('core') and use_modules() leave an environment without Flink's built-ins.

Every expected value and message was measured on PyFlink 2.3 (batch mode) with the same programs.
"""

from __future__ import annotations

from typing import Callable

import pytest

from pyflink_table import DataTypes, EnvironmentSettings, Module, ModuleEntry, Table, TableEnvironment, TableException, ValidationException
from pyflink_table.expressions import col, lit
from pyflink_table.udf import udaf, udf

from conftest import rows, sorted_rows


def _missing(name: str) -> str:
    return f"^Required built-in function \\[{name}\\] could not be found in any catalog\\.$"


@pytest.fixture()
def t(t_env: TableEnvironment) -> Table:
    table = t_env.from_elements([(1, "a"), (2, "b"), (2, "c")], ["a", "b"])
    t_env.create_temporary_view("t", table)
    return table


def test_unloading_core_empties_the_module_lists(t_env: TableEnvironment) -> None:
    t_env.unload_module("core")
    assert t_env.list_modules() == []
    assert t_env.list_full_modules() == []
    with pytest.raises(ValidationException, match="^No module with name 'core' exists$"):
        t_env.unload_module("core")
    with pytest.raises(ValidationException, match="^No module with name 'core' exists$"):
        t_env.use_modules("core")
    t_env.use_modules()  # PyFlink: no modules is allowed
    assert t_env.list_modules() == []
    # PyFlink reloads core from Flink's Java CoreModule, which does not exist here.
    with pytest.raises(TableException, match="load_module\\('core'\\)"):
        t_env.load_module("core", Module())


_plus_one = udf(lambda x: x + 1, result_type=DataTypes.BIGINT())
_largest = udaf(lambda s: s.max(), result_type=DataTypes.BIGINT(), func_type="pandas")

# What fails in the Table API without core, and the function PyFlink names.
FAILING: list[tuple[str, Callable[[Table], object], str]] = [
    ("plus", lambda t: t.select(col("a") + 1), "plus"),
    ("literal", lambda t: t.select(lit(1)), "as"),
    ("upper", lambda t: t.select(col("b").upper_case), "upper"),
    ("python function", lambda t: t.select(_plus_one(col("a"))), "as"),
    ("aliased python function", lambda t: t.select(_plus_one(col("a")).alias("x")), "as"),
    ("alias of a field", lambda t: t.select(col("a").alias("x")), "as"),
    ("cast", lambda t: t.select(col("a").cast(DataTypes.STRING())), "cast"),
    ("count", lambda t: t.group_by(col("a")).select(col("a"), col("b").count), "count"),
    ("aliased count", lambda t: t.group_by(col("a")).select(col("a"), col("b").count.alias("c")), "count"),
    ("python aggregate", lambda t: t.group_by(col("b")).select(col("b"), _largest(col("a"))), "as"),
    ("filter", lambda t: t.filter(col("a") > 1), "greaterThan"),
    ("filter on a python function", lambda t: t.filter(_plus_one(col("a")) > 1), "greaterThan"),
    ("where", lambda t: t.where(col("a") == 1), "equals"),
    ("order_by", lambda t: t.order_by(col("a")), "asc"),
    ("order_by desc", lambda t: t.order_by(col("a").desc), "desc"),
    ("rename_columns", lambda t: t.rename_columns(col("a").alias("z")), "as"),
    ("add_columns", lambda t: t.add_columns(col("a").alias("z")), "as"),
]


@pytest.mark.parametrize("build,name", [f[1:] for f in FAILING], ids=[f[0] for f in FAILING])
def test_table_api_without_core_fails_on_built_ins(
        t_env: TableEnvironment, t: Table, build: Callable[[Table], object], name: str) -> None:
    t_env.unload_module("core")
    with pytest.raises(TableException, match=_missing(name)):
        build(t)


def test_table_api_without_core_keeps_column_references(t_env: TableEnvironment, t: Table) -> None:
    t_env.unload_module("core")
    assert sorted_rows(t.select(col("*"))) == [(1, "a"), (2, "b"), (2, "c")]
    assert sorted_rows(t.select(col("a")).distinct()) == [(1,), (2,)]
    assert sorted_rows(t.group_by(col("a")).select(col("a"))) == [(1,), (2,)]
    assert sorted_rows(t.drop_columns(col("b"))) == [(1,), (2,), (2,)]
    assert sorted_rows(t.union_all(t)) == [(1, "a"), (1, "a"), (2, "b"), (2, "b"), (2, "c"), (2, "c")]


def test_sql_without_core_keeps_scalar_built_ins_but_no_aggregate(t_env: TableEnvironment, t: Table) -> None:
    t_env.unload_module("core")
    assert sorted_rows(t_env.sql_query("SELECT UPPER(b), a + 1 FROM t")) == [("A", 2), ("B", 3), ("C", 3)]
    assert sorted_rows(t_env.sql_query("SELECT a FROM t WHERE a > 1")) == [(2,), (2,)]
    assert rows(t_env.sql_query("SELECT a FROM t ORDER BY a DESC")) == [(2,), (2,), (1,)]
    assert sorted_rows(t_env.sql_query("SELECT a FROM t GROUP BY a")) == [(1,), (2,)]
    assert sorted_rows(t_env.sql_query("SELECT DISTINCT a FROM t")) == [(1,), (2,)]
    with pytest.raises(TableException, match=_missing("plus")):
        t_env.sql_query("SELECT COUNT(*) FROM t")
    for query in ("SELECT COUNT(a) FROM t", "SELECT SUM(a) FROM t", "SELECT AVG(a) FROM t",
                  "SELECT COUNT(DISTINCT a) FROM t", "SELECT MIN(a) FROM t", "SELECT b, MAX(a) FROM t GROUP BY b"):
        with pytest.raises(TableException, match=_missing("isNull")):
            t_env.sql_query(query)


def test_sql_without_core_keeps_python_functions(t_env: TableEnvironment, t: Table) -> None:
    t_env.create_temporary_function("plus_one", _plus_one)
    t_env.create_temporary_function("largest", _largest)
    t_env.unload_module("core")
    assert sorted_rows(t_env.sql_query("SELECT plus_one(a) FROM t")) == [(2,), (3,), (3,)]
    assert sorted_rows(t_env.sql_query("SELECT b, largest(a) FROM t GROUP BY b")) == [("a", 1), ("b", 2), ("c", 2)]


def test_use_modules_without_core_and_back(t_env: TableEnvironment, t: Table) -> None:
    t_env.use_modules()
    assert t_env.list_modules() == []
    assert t_env.list_full_modules() == [ModuleEntry("core", False)]
    with pytest.raises(TableException, match=_missing("plus")):
        t.select(col("a") + 1)
    with pytest.raises(TableException, match=_missing("plus")):
        t_env.sql_query("SELECT COUNT(*) FROM t")
    t_env.use_modules("core")
    assert sorted_rows(t.select(col("a") + 1)) == [(2,), (3,), (3,)]
    assert rows(t_env.sql_query("SELECT COUNT(*) FROM t")) == [(3,)]


def test_unloading_core_leaves_other_environments_alone(t_env: TableEnvironment) -> None:
    other = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.unload_module("core")
    assert other.list_modules() == ["core"]
    assert rows(other.from_elements([(1,)], ["a"]).select(col("a") + 1)) == [(2,)]

