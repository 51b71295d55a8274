"""One TableEnvironment shared by threads; object names quoted and checked as Flink does.

Expected exceptions and messages were measured on PyFlink 2.3 (tests/reference/probe_reliability.py).
"""

import re
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, List

import pytest

from conftest import rows, sorted_rows
from pyflink_table import DataTypes
from pyflink_table.errors import SqlParserException, TableException, ValidationException
from pyflink_table.expressions import col
from pyflink_table.udf import udf


def test_eight_threads_one_hundred_queries(t_env: Any) -> None:
    t_env.create_temporary_view("base", t_env.from_elements([(i, i % 3) for i in range(30)], ["v", "k"]))

    def query(n: int) -> List[Any]:
        # Each query registers its own view, then reads it through SQL and the Table API.
        t_env.create_temporary_view(f"q{n}", t_env.from_elements([(n, j) for j in range(n % 5 + 1)], ["n", "j"]))
        joined = t_env.sql_query(f"SELECT n, COUNT(*) AS c, SUM(j) AS s FROM q{n} GROUP BY n")
        filtered = t_env.from_path("base").where(col("k") == n % 3).select(col("v"))
        return [rows(joined), sorted_rows(filtered)]

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(query, range(100)))
    for n, (joined, filtered) in enumerate(results):
        m = n % 5 + 1
        assert joined == [(n, m, m * (m - 1) // 2)], n
        assert filtered == [(v,) for v in range(30) if v % 3 == n % 3], n
    assert sum(1 for v in t_env.list_temporary_views() if v.startswith("q")) == 100


def _race(action: Any) -> List[Any]:
    """Runs action in two threads released at once; what each did (None or the exception)."""
    barrier = threading.Barrier(2)
    outcome: List[Any] = [None, None]

    def run(i: int) -> None:
        barrier.wait()
        try:
            action()
        except Exception as e:  # noqa: BLE001 - the outcome is what the test checks
            outcome[i] = e

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return outcome


def test_registering_one_name_from_two_threads_fails_once(t_env: Any) -> None:
    table = t_env.from_elements([(1,)], ["a"])
    for attempt in range(5):
        outcome = _race(lambda: t_env.create_temporary_view(f"same{attempt}", table))
        errors = [e for e in outcome if e is not None]
        assert len(errors) == 1, outcome
        assert isinstance(errors[0], ValidationException) and "already exists" in str(errors[0])
        f = udf(lambda x: x + 1, result_type=DataTypes.BIGINT())
        outcome = _race(lambda: t_env.create_temporary_function(f"fn{attempt}", f))
        errors = [e for e in outcome if e is not None]
        assert len(errors) == 1, outcome
        assert isinstance(errors[0], ValidationException) and "already exist" in str(errors[0])


def test_quoted_name_is_the_same_name(t_env: Any) -> None:
    t_env.create_temporary_view("v", t_env.from_elements([(1,)], ["a"]))
    for name in ("`v`", "default_catalog.default_database.v", "`default_catalog`.`default_database`.`v`"):
        with pytest.raises(ValidationException,
                           match=r"Temporary table '`default_catalog`.`default_database`.`v`' already exists"):
            t_env.create_temporary_view(name, t_env.from_elements([(2,)], ["a"]))
    assert rows(t_env.from_path("`v`")) == [(1,)]


def test_names_that_cannot_be_read_back_are_refused(t_env: Any) -> None:
    table = t_env.from_elements([(1,)], ["a"])
    with pytest.raises(ValidationException, match="Parts of the object identifier are null or whitespace-only"):
        t_env.create_temporary_view("", table)
    with pytest.raises(ValidationException, match="Parts of the object identifier are null or whitespace-only"):
        t_env.create_temporary_view("` `", table)
    for bad in ("sp ace", "a-b", "`open", "a.b.c.d"):
        with pytest.raises(SqlParserException, match="Invalid SQL identifier"):
            t_env.create_temporary_view(bad, table)
        with pytest.raises(SqlParserException, match="Invalid SQL identifier"):
            t_env.from_path(bad)
        with pytest.raises(SqlParserException, match="Invalid SQL identifier"):
            t_env.drop_temporary_view(bad)
    assert "sp ace" not in t_env.list_temporary_views()
    # Quoted, the same name is fine and reads back.
    t_env.create_temporary_view("`sp ace`", table)
    assert rows(t_env.from_path("`sp ace`")) == [(1,)]
    assert "sp ace" in t_env.list_temporary_views()
    assert rows(t_env.sql_query("SELECT a FROM `sp ace`")) == [(1,)]


# Each name created under one spelling and used under others: (created as, read/dropped as, bare name).
# PyFlink 2.3 (measured here) creates, reads, lists and drops each of them; drop_temporary_view is True
# once, then False.
_SPELLINGS = [
    ("`cast`", "default_database.`cast`", "cast"),  # a Spark keyword
    ("`sp ace`", "`default_catalog`.default_database.`sp ace`", "sp ace"),
    ("default_catalog.default_database.`a.b`", "`a.b`", "a.b"),  # a dot inside one part
    ("`x``y`", "`default_catalog`.`default_database`.`x``y`", "x`y"),  # a back quote inside
    ("default_database.`select`", "`select`", "select"),
]


@pytest.mark.parametrize("created, used, name", _SPELLINGS)
def test_one_name_under_every_spelling(t_env: Any, created: str, used: str, name: str) -> None:
    t_env.create_temporary_view(created, t_env.from_elements([(1,)], ["a"]))
    assert t_env.list_temporary_views() == [name]
    with pytest.raises(ValidationException, match="already exists"):
        t_env.create_temporary_view(used, t_env.from_elements([(2,)], ["a"]))
    assert rows(t_env.from_path(used)) == [(1,)]
    quoted = "`" + name.replace("`", "``") + "`"
    assert rows(t_env.sql_query(f"SELECT a + 1 AS b FROM {quoted}")) == [(2,)]
    # SQL reads it under the other spelling and fully qualified too, as PyFlink 2.3 does.
    assert rows(t_env.sql_query(f"SELECT a + 1 AS b FROM {used}")) == [(2,)]
    assert rows(t_env.sql_query(f"SELECT a FROM default_catalog.default_database.{quoted}")) == [(1,)]
    assert t_env.drop_temporary_view(used) is True
    assert t_env.drop_temporary_view(created) is False
    assert t_env.list_temporary_views() == []


def test_qualified_names_in_sql_queries_and_inserts(t_env: Any, tmp_path: Any) -> None:
    # Measured on PyFlink 2.3: each qualified spelling reads the table; a qualified name means the
    # table even where a common table expression has its bare name; other databases and catalogs,
    # and another letter case of the database, are not found.
    t_env.create_temporary_view("src", t_env.from_elements([(1, "a"), (5, "b"), (4, "a")], ["v", "k"]))
    t_env.create_temporary_view("default_catalog.default_database.q", t_env.from_elements([(5, "b")], ["v", "k"]))
    assert sorted_rows(t_env.sql_query("SELECT * FROM default_catalog.default_database.src WHERE v > 3")) == [
        (4, "a"), (5, "b")]
    joined = t_env.sql_query("SELECT s.v, s.k FROM default_database.src AS s "
                             "JOIN default_catalog.default_database.q AS c ON s.v = c.v")
    assert rows(joined) == [(5, "b")]
    assert rows(t_env.sql_query("WITH src AS (SELECT 1 AS v) SELECT * FROM default_database.src WHERE v = 5")) == [
        (5, "b")]
    nested = ("WITH w AS (SELECT * FROM default_database.src) SELECT v FROM w "
              "WHERE k IN (SELECT k FROM default_catalog.default_database.q)")
    assert rows(t_env.sql_query(nested)) == [(5,)]
    for path in ("other_db.src", "default_catalog.src", "DEFAULT_DATABASE.src"):
        with pytest.raises(ValidationException, match=re.escape(f"Object '{path}' not found")):
            t_env.sql_query(f"SELECT * FROM {path}")
    t_env.execute_sql(f"CREATE TABLE snk (v BIGINT, k STRING) WITH ('connector' = 'filesystem', "
                      f"'path' = '{tmp_path}', 'format' = 'csv')")
    t_env.execute_sql("INSERT INTO default_catalog.default_database.snk "
                      "SELECT * FROM default_database.src WHERE k = 'a'").wait()
    assert sorted_rows(t_env.sql_query("SELECT * FROM default_database.snk")) == [(1, "a"), (4, "a")]


def test_temporary_view_outside_the_default_database_is_refused(t_env: Any) -> None:
    # Flink keeps temporary views in any catalog and database (PyFlink 2.3 creates db1.v, measured);
    # Spark's temporary views have no database: refused by name, and nothing is there to drop.
    t_env.execute_sql("CREATE DATABASE tv_db1")
    try:
        for path in ("tv_db1.v", "default_catalog.tv_db1.v", "other.default_database.v"):
            with pytest.raises(TableException, match=re.escape(
                    f"Unsupported: A temporary view outside default_catalog.default_database ('{path}') is not "
                    "supported by pyflink_table on Spark.")):
                t_env.create_temporary_view(path, t_env.from_elements([(1,)], ["a"]))
            assert t_env.drop_temporary_view(path) is False
    finally:
        t_env.execute_sql("DROP DATABASE tv_db1")
