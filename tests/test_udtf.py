"""Python table functions: udtf on generators and TableFunction classes, lateral joins, flat_map, SQL.

Expected rows are hand-computed from the inputs; names and the NULL row of the left outer join
were measured on PyFlink 2.3 batch mode (same program, same rows: f0/f1 default names, the
aliases, and the error texts quoted below).
"""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from pyflink_table import DataTypes, Row, TableFunction, ValidationException
from pyflink_table.expressions import col, lit
from pyflink_table.udf import udf, udtf

from conftest import sorted_rows


@udtf(result_types=[DataTypes.STRING(), DataTypes.INT()])
def split_words(s: str) -> Iterator[Any]:
    for w in s.split():
        yield w, len(w)


def _letters() -> Any:
    # Defined in a function so that the class is pickled by value: the test module itself is
    # not importable in Spark's Python workers.
    class Letters(TableFunction):
        """Yields Rows; nothing for empty input."""

        def eval(self, word: str) -> Iterator[Row]:
            for ch in word:
                yield Row(ch)

    return udtf(Letters(), result_types=DataTypes.STRING())


letters = _letters()


@udtf(result_types=DataTypes.BIGINT())
def upto(n: int) -> Any:
    # Returns a list of scalars rather than yielding.
    return list(range(n))


def _source(t_env: Any) -> Any:
    return t_env.from_elements([(1, "a bc"), (2, ""), (3, "d")], ["k", "s"])


def test_join_lateral_forms_and_names(t_env: Any) -> None:
    t = _source(t_env)
    # Default names f0, f1 (PyFlink 2.3: ['k', 's', 'f0', 'f1']); the row with "" yields nothing.
    inner = t.join_lateral(split_words(col("s")))
    assert inner.get_schema().get_field_names() == ["k", "s", "f0", "f1"]
    # Consecutive lateral joins, a TableFunction yielding Rows, and an inner predicate.
    chained = (t.join_lateral(split_words(col("s")).alias("w", "n"))
               .join_lateral(letters(col("w")).alias("ch"), col("ch") != "c")
               .select(col("k"), col("w"), col("n"), col("ch")))
    assert sorted_rows(chained) == [(1, "a", 1, "a"), (1, "bc", 2, "b"), (3, "d", 1, "d")]
    # Left outer keeps k=2 with NULLs (PyFlink 2.3 gives (2, '', None, None) too).
    outer = t.left_outer_join_lateral(split_words(col("s")).alias("w", "n"), lit(True))
    assert sorted_rows(outer) == [(1, "a bc", "a", 1), (1, "a bc", "bc", 2), (2, "", None, None), (3, "d", "d", 1)]
    assert sorted_rows(inner) == [(1, "a bc", "a", 1), (1, "a bc", "bc", 2), (3, "d", "d", 1)]


def test_returned_list_of_scalars_and_zero_rows(t_env: Any) -> None:
    t = t_env.from_elements([(0,), (2,), (3,)], ["n"])
    # n=0 yields nothing: dropped by the inner join, kept with NULL by the outer join.
    both = t.left_outer_join_lateral(upto(col("n")).alias("i"))
    assert sorted_rows(both) == [(0, None), (2, 0), (2, 1), (3, 0), (3, 1), (3, 2)]


def test_string_expressions_and_sql(t_env: Any) -> None:
    t = _source(t_env)
    t_env.create_temporary_function("split_words", split_words)
    t_env.create_temporary_view("src", t)
    # FLIP-38 string form, with the predicate as a string too.
    s = t.join_lateral("split_words(s) as (word, len)", "len > 1")
    assert s.get_schema().get_field_names() == ["k", "s", "word", "len"]
    assert sorted_rows(s) == [(1, "a bc", "bc", 2)]
    # Flink SQL: LATERAL TABLE(...) AS T(...), inner and LEFT JOIN ... ON TRUE (PyFlink 2.3:
    # [(1, 'a'), (1, 'b'), (1, None), (2, 'c')] for the same shape of input).
    q = t_env.sql_query("SELECT k, w, n FROM src, LATERAL TABLE(split_words(s)) AS T(w, n)")
    assert sorted_rows(q) == [(1, "a", 1), (1, "bc", 2), (3, "d", 1)]
    q2 = t_env.sql_query("SELECT k, w FROM src LEFT JOIN LATERAL TABLE(split_words(s)) AS T(w, n) ON TRUE")
    assert sorted_rows(q2) == [(1, "a"), (1, "bc"), (2, None), (3, "d")]


def test_flat_map(t_env: Any) -> None:
    t = _source(t_env)
    # PyFlink 2.3: ['f0', 'f1'] without alias, the aliases with .alias(...).
    plain = t.flat_map(split_words(col("s")))
    assert plain.get_schema().get_field_names() == ["f0", "f1"]
    named = t.flat_map(split_words(col("s"))).alias("x", "y")
    assert sorted_rows(named) == [("a", 1), ("bc", 2), ("d", 1)]


def test_lateral_join_errors(t_env: Any) -> None:
    t = _source(t_env)
    # Flink's messages (PyFlink 2.3).
    with pytest.raises(ValidationException, match="can only be empty or literal true"):
        t.left_outer_join_lateral(split_words(col("s")).alias("w", "n"), col("n") > 0)
    with pytest.raises(ValidationException, match=r"ambiguous names: \[k\]"):
        t.join_lateral(letters(col("s")).alias("k"))
    with pytest.raises(ValidationException, match="number of aliases"):
        t.join_lateral(split_words(col("s")).alias("only_one"))
    plus_one = udf(lambda x: x + 1, result_type=DataTypes.BIGINT())
    with pytest.raises(ValidationException, match="not a table function"):
        t.join_lateral(plus_one(col("k")))
    with pytest.raises(ValidationException, match="can only be used in join_lateral"):
        t.select(split_words(col("s")))


def test_flat_map_refuses_an_aliased_call_as_pyflink(t_env):
    # PyFlink 2.3 (measured): flat_map(split(t.s).alias('w', 'n')) raises "Only a table function can
    # be used in the flatMap operator."; join_lateral accepts the same aliased call.
    @udtf(result_types=[DataTypes.STRING(), DataTypes.INT()])
    def split(s):
        for w in s.split(","):
            yield w, len(w)

    t = t_env.from_elements([(1, "a,b"), (2, "c")], ["id", "s"])
    with pytest.raises(ValidationException, match="Only a table function can be used in the flatMap operator"):
        t.flat_map(split(t.s).alias("w", "n"))
    assert sorted_rows(t.join_lateral(split(t.s).alias("w", "n"))) == [(1, "a,b", "a", 1), (1, "a,b", "b", 1),
                                                                     (2, "c", "c", 1)]
