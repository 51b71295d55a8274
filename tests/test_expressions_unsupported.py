"""Built-ins Spark cannot express raise TableException naming the function; bad calls raise
ValidationException naming what is wrong. Expected exception types follow the project rule
(unsupported = TableException), not PyFlink, which supports these."""

import pytest

from pyflink_table import expressions as E
from pyflink_table.errors import TableException, ValidationException


def _table(t_env):
    return t_env.from_elements([(1, "a", b"\x00")], ["id", "s", "b"])


@pytest.mark.parametrize("build, name", [
    (lambda: E.col("b").bitmap_build(), "BITMAP_BUILD"),
    (lambda: E.col("b").bitmap_and(E.col("b")), "BITMAP_AND"),
    (lambda: E.col("b").bitmap_andnot(E.col("b")), "BITMAP_ANDNOT"),
    (lambda: E.col("b").bitmap_or(E.col("b")), "BITMAP_OR"),
    (lambda: E.col("b").bitmap_xor(E.col("b")), "BITMAP_XOR"),
    (lambda: E.col("b").bitmap_cardinality(), "BITMAP_CARDINALITY"),
    (lambda: E.col("b").bitmap_from_bytes(), "BITMAP_FROM_BYTES"),
    (lambda: E.col("b").bitmap_to_array(), "BITMAP_TO_ARRAY"),
    (lambda: E.col("b").bitmap_to_bytes(), "BITMAP_TO_BYTES"),
    (lambda: E.col("b").bitmap_to_string(), "BITMAP_TO_STRING"),
    (lambda: E.col("id").bitmap_build_agg(), "BITMAP_BUILD_AGG"),
    (lambda: E.col("b").bitmap_and_agg(), "BITMAP_AND_AGG"),
    (lambda: E.col("b").bitmap_or_cardinality_agg(), "BITMAP_OR_CARDINALITY_AGG"),
    (lambda: E.col("b").bitmap_xor_cardinality_agg(), "BITMAP_XOR_CARDINALITY_AGG"),
    (lambda: E.lit('{"a": 1}').object_update("b", 2), "OBJECT_UPDATE"),
    (lambda: E.col("s").as_argument("x"), "asArgument"),
])
def test_unsupported_functions_raise_table_exception(t_env, build, name):
    with pytest.raises(TableException, match=name):
        _table(t_env).select(build()).execute()


def test_current_watermark_in_batch_mode_is_a_validation_error(t_env):
    # PyFlink 2.3 batch: no rowtime attributes, so "Invalid function call:" (measured, SQL and Table API).
    with pytest.raises(ValidationException, match=r"^Invalid function call:\nCURRENT_WATERMARK\(BIGINT\)"):
        _table(t_env).select(E.current_watermark(E.col("id")))


def test_flatten_outside_a_select_item_and_unknown_unit_are_validation_errors(t_env):
    t = _table(t_env)
    with pytest.raises(ValidationException, match="flatten"):
        t.select(E.col("s").flatten + 1)
    with pytest.raises(ValidationException, match="time unit"):
        t.select(E.call("extract", E.lit("2024-01-01").to_date, "FORTNIGHT"))
    with pytest.raises(ValidationException, match="DATE_FORMAT"):
        t.select(E.date_format(E.lit("2024-01-01").to_date, "yyyy"))


def test_like_with_escape_character(t_env):
    # Hand-computed: with '!' as escape, '100!%' matches only the literal text '100%'.
    t = t_env.from_elements([(1, "100%"), (2, "1000")], ["id", "s"])
    got = sorted(tuple(r) for r in t.select(E.col("id"), E.col("s").like("100!%", "!")).execute().collect())
    assert got == [(1, True), (2, False)]
