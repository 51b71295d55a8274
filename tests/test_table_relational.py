"""Relational operations whose behaviour is not covered by (or deliberately differs from) the
differential tests: expected values are hand-computed from the five-row table below."""

import datetime
import decimal

import pandas as pd
import pytest

from conftest import rows, sorted_rows
from pyflink_table import DataTypes, Row
from pyflink_table.errors import ValidationException
from pyflink_table.expressions import call, col, lit
from pyflink_table.types import to_type_string

DATA = [(1, "a", 10, 1.5), (2, "b", 20, 2.5), (3, "a", None, 3.5), (4, None, 40, None), (5, "b", 50, 0.5)]
SCHEMA = DataTypes.ROW([DataTypes.FIELD("id", DataTypes.INT()), DataTypes.FIELD("k", DataTypes.STRING()),
                        DataTypes.FIELD("v", DataTypes.BIGINT()), DataTypes.FIELD("d", DataTypes.DOUBLE())])


@pytest.fixture()
def src(t_env):  # type: ignore[no-untyped-def]
    return t_env.from_elements(DATA, SCHEMA)


def test_paging(src) -> None:  # type: ignore[no-untyped-def]
    by_id = src.order_by(col("id"))
    # offset without fetch: PyFlink 2.3 refuses ("Not support limitEnd is max value now!"); we support it.
    assert [r[0] for r in rows(by_id.offset(3))] == [4, 5]
    assert [r[0] for r in rows(by_id.offset(1).fetch(2))] == [2, 3]
    assert [r[0] for r in rows(by_id.limit(2))] == [1, 2]
    assert [r[0] for r in rows(by_id.limit(2, 3))] == [4, 5]
    assert rows(by_id.fetch(0)) == []


def test_null_ordering(src) -> None:  # type: ignore[no-untyped-def]
    # Flink (measured on PyFlink 2.3): ascending puts NULLs last, descending first.
    assert [r[2] for r in rows(src.order_by(col("v")))] == [10, 20, 40, 50, None]
    assert [r[2] for r in rows(src.order_by(col("v").desc))] == [None, 50, 40, 20, 10]
    assert [r[3] for r in rows(src.order_by(col("d").asc))] == [0.5, 1.5, 2.5, 3.5, None]
    assert [(r[1], r[0]) for r in rows(src.order_by(col("k").desc, col("id").desc))] == [
        (None, 4), ("b", 5), ("b", 2), ("a", 3), ("a", 1)]


def test_grouped_aggregates(src) -> None:  # type: ignore[no-untyped-def]
    result = src.group_by(col("k")).select(
        col("k"), col("id").count.alias("c"), col("k").distinct.count.alias("dk"),
        col("v").sum.alias("s"), col("v").sum0.alias("s0"), col("d").avg.alias("a"),
        col("id").min.alias("mn"), col("id").max.alias("mx"))
    # k=a: ids 1,3; v 10,NULL; d 1.5,3.5.  k=b: ids 2,5; v 20,50; d 2.5,0.5.  k=NULL: id 4; v 40.
    assert sorted_rows(result) == [
        (None, 1, 0, 40, 40, None, 4, 4),
        ("a", 2, 1, 10, 10, 2.5, 1, 3),
        ("b", 2, 1, 70, 70, 1.5, 2, 5),
    ]


def test_group_by_expression_and_first_last(src) -> None:  # type: ignore[no-untyped-def]
    parity = src.group_by(col("id") % 2).select((col("id") % 2).alias("p"), col("v").sum.alias("s"))
    assert sorted_rows(parity) == [(0, 60), (1, 60)]  # even: 20+40, odd: 10+NULL+50
    # An aliased key is selected by its alias (PyFlink 2.3 gives the same rows for this program).
    by_alias = src.group_by((col("id") % 2).alias("p")).select(col("p"), col("v").sum.alias("s"))
    assert sorted_rows(by_alias) == [(0, 60), (1, 60)]
    # One row per group keeps FIRST_VALUE/LAST_VALUE independent of the input order.
    firsts = src.group_by(col("id")).select(col("id"), call("FIRST_VALUE", col("k")).alias("f"),
                                            call("LAST_VALUE", col("v")).alias("l"))
    assert sorted_rows(firsts) == [(1, "a", 10), (2, "b", 20), (3, "a", None), (4, None, 40), (5, "b", 50)]


def test_global_and_empty_aggregates(src) -> None:  # type: ignore[no-untyped-def]
    assert rows(src.select(col("v").sum, col("id").count, col("v").max, col("d").min)) == [(120, 5, 50, 0.5)]
    empty = src.where(col("id") > 100)
    # SQL semantics: SUM of nothing is NULL, COUNT 0, SUM0 0.
    assert rows(empty.select(col("v").sum, col("id").count, col("v").sum0)) == [(None, 0, 0)]
    assert rows(empty.group_by(col("k")).select(col("k"), col("v").sum)) == []


def test_statistics(t_env) -> None:  # type: ignore[no-untyped-def]
    t = t_env.from_elements([(1.0,), (2.0,), (3.0,), (4.0,)], ["x"])
    # mean 2.5; squared deviations 2.25+0.25+0.25+2.25 = 5: var_pop 1.25, var_samp 5/3.
    (sp, ss, vp, vs), = rows(t.select(col("x").stddev_pop, col("x").stddev_samp, col("x").var_pop, col("x").var_samp))
    assert (vp, round(vs, 12)) == (1.25, round(5 / 3, 12))
    assert (round(sp, 12), round(ss, 12)) == (round(1.25 ** 0.5, 12), round((5 / 3) ** 0.5, 12))
    collected = rows(t.select(col("x").collect))
    assert collected == [({1.0: 1, 2.0: 1, 3.0: 1, 4.0: 1},)]


def test_projections(src) -> None:  # type: ignore[no-untyped-def]
    assert src.alias("x", "y").get_schema().get_field_names() == ["x", "y", "v", "d"]
    added = src.add_or_replace_columns((col("id") * 10).alias("v")).add_columns(lit("z").alias("z"))
    assert rows(added.where(col("id") == 1)) == [(1, "a", 10, 1.5, "z")]
    renamed = src.rename_columns(col("k").alias("key")).drop_columns(col("d"), col("v"))
    assert renamed.get_schema().get_field_names() == ["id", "key"]
    assert sorted_rows(src.select(col("k")).distinct()) == [(None,), ("a",), ("b",)]
    assert rows(src.select("id, k").where("id = 2")) == [(2, "b")]  # FLIP-38 string expressions


def test_joins(t_env, src) -> None:  # type: ignore[no-untyped-def]
    right = t_env.from_elements([("a", "A"), ("c", "C")], ["rk", "name"])
    assert sorted_rows(src.join(right, col("k") == col("rk")).select(col("id"), col("name"))) == [(1, "A"), (3, "A")]
    assert sorted_rows(src.join(right).where(col("k") == col("rk")).select(col("id"))) == [(1,), (3,)]
    left = src.left_outer_join(right, col("k") == col("rk")).select(col("id"), col("name"))
    assert sorted_rows(left) == [(1, "A"), (2, None), (3, "A"), (4, None), (5, None)]
    full = src.full_outer_join(right, col("k") == col("rk")).select(col("id"), col("rk"))
    assert sorted_rows(full) == [(None, "c"), (1, "a"), (2, None), (3, "a"), (4, None), (5, None)]
    with pytest.raises(ValidationException, match="^Ambiguous column name: id"):
        src.join(src, col("id") == col("id"))


def test_set_operations(t_env) -> None:  # type: ignore[no-untyped-def]
    left = t_env.from_elements([(1,), (1,), (1,), (2,), (3,)], ["x"])
    right = t_env.from_elements([(1,), (3,), (3,), (4,)], ["x"])
    assert sorted_rows(left.union(right)) == [(1,), (2,), (3,), (4,)]
    assert len(rows(left.union_all(right))) == 9
    assert sorted_rows(left.intersect(right)) == [(1,), (3,)]
    assert sorted_rows(left.intersect_all(right)) == [(1,), (3,)]
    assert sorted_rows(left.minus(right)) == [(2,)]
    assert sorted_rows(left.minus_all(right)) == [(1,), (1,), (2,)]
    # Numeric columns widen to the common type (INT with DOUBLE gives DOUBLE), as in Flink.
    ints = t_env.from_elements([(1,)], DataTypes.ROW([DataTypes.FIELD("x", DataTypes.INT())]))
    doubles = t_env.from_elements([(2.5,)], DataTypes.ROW([DataTypes.FIELD("x", DataTypes.DOUBLE())]))
    widened = ints.union_all(doubles)
    assert to_type_string(widened.get_schema().get_field_data_type("x")) == "DOUBLE"
    assert sorted_rows(widened) == [(1.0,), (2.5,)]
    strings = t_env.from_elements([("x",)], ["x"])
    with pytest.raises(ValidationException, match="Could not find a common type at position 0 for 'INT' and 'STRING'"):
        ints.minus(strings)


def test_from_elements_and_pandas(t_env) -> None:  # type: ignore[no-untyped-def]
    t = t_env.from_elements([(1, "x", [1, 2], {"a": 1}, Row(1, "r"), decimal.Decimal("1.50"),
                              datetime.date(2020, 1, 2), bytearray(b"ab"))])
    assert t.get_schema().get_field_names() == ["_1", "_2", "_3", "_4", "_5", "_6", "_7", "_8"]
    (r,) = rows(t)
    assert r[:4] == (1, "x", [1, 2], {"a": 1})
    assert tuple(r[4]) == (1, "r")
    assert r[5] == decimal.Decimal("1.500000000000000000")  # inferred DECIMAL(38, 18) keeps its scale
    assert r[6:] == (datetime.date(2020, 1, 2), bytearray(b"ab"))
    atomic = t_env.from_elements([1, 2], DataTypes.INT())  # PyFlink refuses an atomic schema; we name it f0
    assert rows(atomic) == [(1,), (2,)] and atomic.get_schema().get_field_names() == ["f0"]
    pdf = pd.DataFrame({"a": [1, 2], "b": ["x", None], "t": pd.to_datetime(["2024-01-02 03:04:05.5", None])})
    p = t_env.from_pandas(pdf)
    # Inferred from the Arrow schema, as PyFlink does (measured: BIGINT, STRING, TIMESTAMP(9)).
    assert [to_type_string(x) for x in p.get_schema().get_field_data_types()] == ["BIGINT", "STRING", "TIMESTAMP(9)"]
    back = p.to_pandas()
    assert [str(x) for x in back.dtypes] == ["int64", "object", "datetime64[ns]"]
    assert back["b"].tolist() == ["x", None]
