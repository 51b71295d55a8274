"""Error paths: PyFlink's exception kinds with one-line messages naming what is wrong (and what
exists instead), never a Py4J trace. Kinds follow PyFlink 2.3 (measured); messages are ours."""

from typing import Any, Callable, Type

import pytest

from pyflink_table import DataTypes
from pyflink_table.errors import SqlParserException, TableException, ValidationException
from pyflink_table.expressions import call, col


def _raises(kind: Type[Exception], action: Callable[[], Any], *fragments: str) -> str:
    with pytest.raises(kind) as info:
        action()
    text = str(info.value)
    first = text.splitlines()[0]
    assert "py4j" not in text.lower() and "Traceback" not in text, text
    for fragment in fragments:
        assert fragment in first, first
    return first


def test_table_api_errors(t_env) -> None:  # type: ignore[no-untyped-def]
    src = t_env.from_elements([(1, "a", 10)], ["id", "k", "v"])
    _raises(ValidationException, lambda: src.select(col("nope")), "Cannot resolve field [nope]", "[id, k, v]")
    _raises(ValidationException, lambda: src.select(call("no_such_fn", col("id"))), "no_such_fn")
    _raises(ValidationException, lambda: src.select(col("k") * 2), "times(STRING, INT", "STRING")
    _raises(ValidationException, lambda: src.where(col("k")), "k", "boolean")
    _raises(ValidationException, lambda: src.join(src, col("id") == col("id")), "Ambiguous column name: id")
    _raises(ValidationException, lambda: src.union_all(src.select(col("id"))), "column sizes: 3 and 1")
    _raises(ValidationException, lambda: src.select(col("id")).minus(src.select(col("k"))),
            "Could not find a common type at position 0 for 'BIGINT' and 'STRING'")
    _raises(ValidationException, lambda: src.alias("a", "b", "c", "d"), "Aliasing more fields")
    _raises(ValidationException, lambda: src.add_columns(col("id").alias("k")), "k")
    _raises(ValidationException, lambda: src.drop_columns(col("nope")), "nope")
    _raises(ValidationException, lambda: t_env.from_path("nowhere"), "nowhere", "Existing tables")


def test_sql_errors(t_env) -> None:  # type: ignore[no-untyped-def]
    src = t_env.from_elements([(1, "a")], ["id", "k"])
    t_env.create_temporary_view("src", src)
    _raises(SqlParserException, lambda: t_env.sql_query("SELEC 1"), "SQL parse failed", "SELEC")
    _raises(ValidationException, lambda: t_env.sql_query("SELECT * FROM nowhere"),
            "SQL validation failed", "Object 'nowhere' not found", "Existing tables: [src]")
    _raises(ValidationException, lambda: t_env.sql_query("SELECT nope FROM src"),
            "Column 'nope' not found", "id", "k")
    _raises(ValidationException, lambda: t_env.sql_query("SELECT no_such_fn(id) FROM src"),
            "No match found for function signature no_such_fn")
    _raises(ValidationException, lambda: t_env.execute_sql("SELECT nope FROM src"), "Column 'nope' not found")
    _raises(ValidationException, lambda: t_env.create_temporary_view("src", src), "src", "already exists")


def test_runtime_failure_is_table_exception(t_env) -> None:  # type: ignore[no-untyped-def]
    t = t_env.from_elements([("a",)], DataTypes.ROW([DataTypes.FIELD("s", DataTypes.STRING())]))
    bad = t.select(col("s").cast(DataTypes.INT()))
    # Spark fails while running (ANSI cast); the first line carries the root cause.
    _raises(TableException, lambda: list(bad.execute().collect()), "Job failed", "'a'")
