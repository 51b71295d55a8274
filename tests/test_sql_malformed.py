"""Malformed SQL and string expressions are refused, never rewritten into something that runs.

Expected exception types were measured on PyFlink 2.3 (tests/reference/probe_reliability.py): an
incomplete WHERE, an unterminated string literal, quoted identifier or comment all raise
SqlParserException. The fuzz tests generate inputs with hypothesis: whatever the text, the SQL
dialect rewriter (session/FlinkSqlDialect.java) and the FLIP-38 expression parser either accept it
or raise one of PyFlink's exception types (never a raw Py4J error or a JVM StackOverflowError), and
string literals and quoted names come back exactly as written.
"""

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import rows
from pyflink_table.errors import JavaException, SqlParserException

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


@pytest.fixture()
def t(t_env: Any) -> Any:
    t_env.create_temporary_view("t", t_env.from_elements([(1, "x"), (2, "y")], ["a", "b"]))
    return t_env


@pytest.mark.parametrize("sql", [
    "SELECT * FROM t WHERE",
    "SELECT * FROM t WHERE b = 'x",
    "SELECT * FROM t WHERE b = 'x''",
    "SELECT `a FROM t",
    "SELECT a FROM t /* never closed",
    "SELECT a FROM t GROUP BY",
    "SELECT a FROM t ORDER BY",
    "SELECT U&'\\0041 FROM t",
])
def test_malformed_sql_raises_sql_parser_exception(t: Any, sql: str) -> None:
    with pytest.raises(SqlParserException) as e:
        t.sql_query(sql)
    assert "\n" not in str(e.value).strip() or str(e.value).startswith("SQL parse failed")


def test_unterminated_literal_names_its_position(t: Any) -> None:
    with pytest.raises(SqlParserException, match=r"line 2, column 18: unterminated string literal: 'x"):
        t.sql_query("SELECT *\nFROM t WHERE b = 'x")


def test_deep_nesting_is_a_clear_error_not_a_stack_overflow(t: Any) -> None:
    with pytest.raises(SqlParserException, match="nested deeper than 200 levels"):
        t.sql_query("SELECT " + "(" * 5000 + "a" + ")" * 5000 + " FROM t")
    with pytest.raises(SqlParserException, match="nested deeper than 200 levels"):
        t.from_path("t").select("(" * 5000 + "a" + ")" * 5000)
    with pytest.raises(SqlParserException, match="nested deeper than 200 levels"):
        t.from_path("t").select("-" * 5000 + "a")
    # Nesting a person writes still works, and the environment is fine afterwards.
    assert rows(t.sql_query("SELECT " + "(" * 50 + "a" + ")" * 50 + " FROM t")) == [(1,), (2,)]
    assert rows(t.from_path("t").select("(" * 50 + "a + 1" + ")" * 50)) == [(2,), (3,)]


# Pieces of SQL, valid and broken, glued in random order.
SQL_PIECES = st.sampled_from([
    "SELECT", "*", "a", "b", "FROM", "t", "WHERE", "GROUP BY", "ORDER BY", "(", ")", "[", "]", ",", "'", "''",
    "'x'", "`", "`a`", '"', "--", "/*", "*/", "CAST(", "AS", "INT", "TIMESTAMP(3)", "ARRAY[", "MAP[", "ROW(",
    "U&'", "\\", "=", "+", "1", "1.5", "NULL", "AND", "FETCH FIRST 1 ROWS ONLY", "OFFSET", ";", "\n",
])


@FUZZ
@given(st.lists(SQL_PIECES, max_size=14).map(" ".join))
def test_fuzz_sql_is_accepted_or_refused_cleanly(t: Any, sql: str) -> None:
    try:
        t.sql_query(sql)
    except JavaException:
        pass  # SqlParserException, ValidationException, TableException: the user's error, in PyFlink's words


LITERAL_TEXT = st.text(st.sampled_from(list("ab'\"`\\ \n-/*%$&U[]()0,;")), max_size=12)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(LITERAL_TEXT)
def test_fuzz_string_literals_come_back_as_written(t: Any, text: str) -> None:
    literal = "'" + text.replace("'", "''") + "'"
    assert rows(t.sql_query(f"SELECT {literal} AS s, a FROM t WHERE a = 1")) == [(text, 1)]


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(st.text(st.sampled_from(list("ab'\"\\ -/*$&U[]()0,;")), min_size=1, max_size=10))
def test_fuzz_quoted_names_come_back_as_written(t: Any, name: str) -> None:
    quoted = "`" + name.replace("`", "``") + "`"
    assert t.sql_query(f"SELECT a AS {quoted} FROM t").get_schema().get_field_names() == [name]


@given(st.text(st.sampled_from(list("ab1 .()+-*/!&|=<>'\"`,")), max_size=20))
@FUZZ
def test_fuzz_string_expressions_are_parsed_or_refused_cleanly(t: Any, text: str) -> None:
    try:
        t.from_path("t").select(text)
    except JavaException:
        pass
