"""SQL function DDL for Python functions: CREATE/ALTER/DROP [TEMPORARY [SYSTEM]] FUNCTION ... LANGUAGE PYTHON.

Expected values and messages were measured on PyFlink 2.3 (batch and streaming mode) with the same
module and statements: (a, b) = (1, 2), (3, 4); add(a, b) gives 3, 7; times10(a) 10, 30; repeat(a, 2)
yields a twice; total(a) sums to 4.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import pytest

from pyflink_table import EnvironmentSettings, SqlParserException, TableEnvironment, TableException, ValidationException
from pyflink_table.expressions import call, col

from differential.harness import TOTAL_CLASS

MODULE = """
from pyflink_table import DataTypes
from pyflink_table.udf import udf, udtf, udaf, AggregateFunction

add = udf(lambda a, b: a + b, result_type=DataTypes.BIGINT())
times10 = udf(lambda a: a * 10, result_type=DataTypes.BIGINT())

@udtf(result_types=[DataTypes.BIGINT()])
def repeat(a, n):
    for _ in range(n):
        yield a

""" + TOTAL_CLASS + """    def get_result_type(self):
        return DataTypes.BIGINT()
    def get_accumulator_type(self):
        return DataTypes.ARRAY(DataTypes.BIGINT())

total = udaf(Total())
not_a_function = 42
def plain(a):
    return a
"""

SRC = ("CREATE TEMPORARY VIEW src AS SELECT * FROM (VALUES (CAST(1 AS BIGINT), CAST(2 AS BIGINT)), "
       "(CAST(3 AS BIGINT), CAST(4 AS BIGINT))) AS v(a, b)")


def _env(streaming: bool, tmp_path: Path, module: str) -> TableEnvironment:
    settings = EnvironmentSettings.in_streaming_mode() if streaming else EnvironmentSettings.in_batch_mode()
    env = TableEnvironment.create(settings)
    env.get_config().set("parallelism.default", "1")
    # The module reaches the driver and the workers only through add_python_file.
    path = tmp_path / f"{module}.py"
    path.write_text(MODULE)
    env.add_python_file(str(path))
    env.execute_sql(SRC)
    return env


@pytest.fixture(params=["batch", "streaming"])
def env(request: Any, _spark_started: None, tmp_path: Path) -> Iterator[Any]:
    streaming = request.param == "streaming"
    module = f"ddl_fns_{request.node.name.split('[')[0][5:]}_{request.param}"
    yield _env(streaming, tmp_path, module), module


def _values(result: Any) -> list:
    return sorted(tuple(r) for r in result.collect())


def test_create_temporary_function_is_called_from_sql_and_the_table_api(env: Any) -> None:
    t_env, m = env
    result = t_env.execute_sql(f"CREATE TEMPORARY FUNCTION f1 AS '{m}.add' LANGUAGE PYTHON")
    assert [tuple(r) for r in result.collect()] == [("OK",)]
    assert _values(t_env.execute_sql("SELECT f1(a, b) FROM src")) == [(3,), (7,)]
    assert t_env.sql_query("SELECT f1(a, b) FROM src").get_schema().get_field_names() == ["EXPR$0"]
    table = t_env.from_path("src").select(call("f1", col("a"), col("b")))
    assert table.get_schema().get_field_names() == ["_c0"]
    assert _values(table.execute()) == [(3,), (7,)]
    assert t_env.list_user_defined_functions() == ["f1"]
    shown = t_env.execute_sql("SHOW USER FUNCTIONS")
    assert shown.get_table_schema().get_field_names() == ["function name"]
    assert [tuple(r) for r in shown.collect()] == [("f1",)]
    everything = [r[0] for r in t_env.execute_sql("SHOW FUNCTIONS").collect()]
    assert "f1" in everything and "upper" in [n.lower() for n in everything]


def test_system_catalog_table_and_aggregate_functions(env: Any) -> None:
    t_env, m = env
    t_env.execute_sql(f"CREATE TEMPORARY SYSTEM FUNCTION s1 AS '{m}.times10' LANGUAGE PYTHON")
    assert _values(t_env.execute_sql("SELECT s1(a) FROM src")) == [(10,), (30,)]
    t_env.execute_sql(f"CREATE FUNCTION default_catalog.default_database.c2 AS '{m}.add' LANGUAGE PYTHON")
    assert _values(t_env.execute_sql("SELECT c2(a, b) FROM src")) == [(3,), (7,)]
    t_env.execute_sql(f"CREATE TEMPORARY SYSTEM FUNCTION rep AS '{m}.repeat' LANGUAGE PYTHON")
    assert _values(t_env.execute_sql("SELECT a, x FROM src, LATERAL TABLE(rep(a, 2)) AS T(x)")) == [
        (1, 1), (1, 1), (3, 3), (3, 3)]
    # Mixed case is listed lower case, as Flink lists it.
    t_env.execute_sql(f"CREATE TEMPORARY FUNCTION MixedCase AS '{m}.times10' LANGUAGE PYTHON")
    assert _values(t_env.execute_sql("SELECT mixedcase(a) FROM src")) == [(10,), (30,)]
    assert t_env.list_user_defined_functions() == ["c2", "mixedcase", "rep", "s1"]


def test_python_aggregate_function_in_streaming_sql(_spark_started: None, tmp_path: Path) -> None:
    # PyFlink 2.3 plans general Python aggregates in streaming mode only.
    t_env = _env(True, tmp_path, "ddl_fns_aggregate")
    t_env.execute_sql("CREATE FUNCTION tot AS 'ddl_fns_aggregate.total' LANGUAGE PYTHON")
    assert [tuple(r) for r in t_env.from_path("src").select(call("tot", col("a"))).execute().collect()][-1] == (4,)
    grouped = t_env.sql_query("SELECT b, tot(a) AS s FROM src GROUP BY b").execute().collect()
    assert sorted(tuple(r) for r in grouped) == [(2, 1), (4, 3)]


def test_if_not_exists_duplicates_and_drop(env: Any) -> None:
    t_env, m = env
    t_env.execute_sql(f"CREATE TEMPORARY FUNCTION f1 AS '{m}.add' LANGUAGE PYTHON")
    with pytest.raises(ValidationException, match=re.escape(
            "Could not register temporary catalog function. A function 'default_catalog.default_database.f1' does "
            "already exist.")):
        t_env.execute_sql(f"CREATE TEMPORARY FUNCTION f1 AS '{m}.add' LANGUAGE PYTHON")
    # IF NOT EXISTS keeps the first function.
    t_env.execute_sql(f"CREATE TEMPORARY FUNCTION IF NOT EXISTS f1 AS '{m}.times10' LANGUAGE PYTHON")
    assert _values(t_env.execute_sql("SELECT f1(a, b) FROM src")) == [(3,), (7,)]
    t_env.execute_sql(f"CREATE TEMPORARY SYSTEM FUNCTION s1 AS '{m}.times10' LANGUAGE PYTHON")
    with pytest.raises(TableException, match="Could not execute CREATE TEMPORARY SYSTEM FUNCTION"):
        t_env.execute_sql(f"CREATE TEMPORARY SYSTEM FUNCTION s1 AS '{m}.times10' LANGUAGE PYTHON")
    t_env.execute_sql(f"CREATE FUNCTION c1 AS '{m}.add' LANGUAGE PYTHON")
    with pytest.raises(ValidationException, match=re.escape(
            "Function default_database.c1 already exists in Catalog default_catalog.")):
        t_env.execute_sql(f"CREATE FUNCTION c1 AS '{m}.add' LANGUAGE PYTHON")
    # A temporary function is not dropped as a catalog one, nor as a system one, and the other way round.
    with pytest.raises(ValidationException, match=re.escape(
            "Function default_database.f1 does not exist in Catalog default_catalog.")):
        t_env.execute_sql("DROP FUNCTION f1")
    with pytest.raises(ValidationException, match=re.escape(
            "Could not drop temporary system function. A function named 'f1' doesn't exist.")):
        t_env.execute_sql("DROP TEMPORARY SYSTEM FUNCTION f1")
    with pytest.raises(ValidationException, match=re.escape(
            "Temporary catalog function `default_catalog`.`default_database`.`c1` doesn't exist")):
        t_env.execute_sql("DROP TEMPORARY FUNCTION c1")
    for statement in ("DROP TEMPORARY FUNCTION f1", "DROP TEMPORARY SYSTEM FUNCTION s1", "DROP FUNCTION c1"):
        t_env.execute_sql(statement)
        t_env.execute_sql(statement.replace("FUNCTION", "FUNCTION IF EXISTS"))
    assert t_env.list_user_defined_functions() == []
    with pytest.raises(ValidationException, match="f1"):
        t_env.execute_sql("SELECT f1(a, b) FROM src").collect()


def test_alter_function(env: Any) -> None:
    t_env, m = env
    t_env.execute_sql(f"CREATE FUNCTION c1 AS '{m}.add' LANGUAGE PYTHON")
    t_env.execute_sql(f"ALTER FUNCTION c1 AS '{m}.times10' LANGUAGE PYTHON")
    assert _values(t_env.execute_sql("SELECT c1(a) FROM src")) == [(10,), (30,)]
    t_env.execute_sql(f"CREATE TEMPORARY FUNCTION f1 AS '{m}.add' LANGUAGE PYTHON")
    with pytest.raises(ValidationException, match="^Alter temporary catalog function is not supported$"):
        t_env.execute_sql(f"ALTER TEMPORARY FUNCTION f1 AS '{m}.times10' LANGUAGE PYTHON")
    with pytest.raises(ValidationException, match="^Alter temporary system function is not supported$"):
        t_env.execute_sql(f"ALTER TEMPORARY SYSTEM FUNCTION f1 AS '{m}.times10' LANGUAGE PYTHON")
    with pytest.raises(ValidationException, match=re.escape(
            "Function default_database.nope does not exist in Catalog default_catalog.")):
        t_env.execute_sql(f"ALTER FUNCTION nope AS '{m}.times10' LANGUAGE PYTHON")
    t_env.execute_sql(f"ALTER FUNCTION IF EXISTS nope AS '{m}.times10' LANGUAGE PYTHON")


def test_what_cannot_be_instantiated_and_other_languages(env: Any) -> None:
    t_env, m = env
    # PyFlink 2.3 raises these at the function's first use; here the statement raises them.
    for identifier, cause in ((f"{m}.not_a_function", "int"), (f"{m}.plain", "function"),
                              (f"{m}.nope", f"module '{m}' has no attribute 'nope'"),
                              ("no_such_mod.add", "No module named 'no_such_mod'"),
                              ("add", "The fully qualified name is invalid: 'add'")):
        with pytest.raises(ValidationException, match=re.escape("Cannot instantiate user-defined function 'bad'.")
                           + ".*" + re.escape(cause)):
            t_env.execute_sql(f"CREATE TEMPORARY FUNCTION bad AS '{identifier}' LANGUAGE PYTHON")
    for language in ("JAVA", "SCALA"):
        with pytest.raises(TableException, match=f"LANGUAGE {language} \\('com.example.Foo'\\)"):
            t_env.execute_sql(f"CREATE TEMPORARY FUNCTION j AS 'com.example.Foo' LANGUAGE {language}")
    # Flink's default language is JAVA.
    with pytest.raises(TableException, match="LANGUAGE JAVA"):
        t_env.execute_sql("CREATE FUNCTION j AS 'com.example.Foo'")
    with pytest.raises(ValidationException, match="Unrecognized function language string SQL"):
        t_env.execute_sql(f"CREATE FUNCTION j AS '{m}.add' LANGUAGE SQL")
    with pytest.raises(SqlParserException, match="USING JAR"):
        t_env.execute_sql("CREATE FUNCTION j AS 'com.example.Foo' USING JAR '/tmp/x.jar'")
    assert t_env.list_user_defined_functions() == []
