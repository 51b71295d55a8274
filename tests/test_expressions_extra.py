"""Expression forms the PyFlink probes do not cover; expected values are computed by hand from
the functions' definitions in PyFlink's documentation."""

import datetime

import pytest

from pyflink_table import DataTypes
from pyflink_table import expression as X
from pyflink_table import expressions as E
from pyflink_table.errors import TableException


def test_json_value_defaults_on_empty_and_error(t_env):
    t = t_env.from_elements([(1, '{"a": 1, "b": [1]}'), (2, "not json"), (3, None)], ["id", "j"])
    on = X.JsonValueOnEmptyOrError
    j = E.col("j")
    r = t.select(E.col("id"),
                 j.json_value("$.z", DataTypes.INT(), on.DEFAULT, 42, on.NULL, None),
                 j.json_value("$.a", DataTypes.INT(), on.NULL, None, on.DEFAULT, 7),
                 j.json_value("$.b", DataTypes.INT(), on.NULL, None, on.DEFAULT, -1))
    got = sorted(tuple(x) for x in r.execute().collect())
    # Row 1: '$.z' is missing (empty -> 42), '$.a' is 1, '$.b' is an array (error -> -1).
    # Row 2: not JSON, so every call is an error: NULL, 7, -1. Row 3: NULL input gives NULL.
    assert got == [(1, 42, 1, -1), (2, None, 7, -1), (3, None, None, None)]


def test_intervals_from_columns(t_env):
    schema = DataTypes.ROW([DataTypes.FIELD("id", DataTypes.INT()), DataTypes.FIELD("n", DataTypes.INT()),
                            DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3))])
    t = t_env.from_elements([(1, 2, datetime.datetime(2024, 1, 31, 12, 0))], schema)
    ts, n = E.col("ts"), E.col("n")
    r = t.select(ts + n.days, ts - n.hours, ts + n.minutes, ts + n.months)
    assert [tuple(x) for x in r.execute().collect()] == [(
        datetime.datetime(2024, 2, 2, 12, 0), datetime.datetime(2024, 1, 31, 10, 0),
        datetime.datetime(2024, 1, 31, 12, 2), datetime.datetime(2024, 3, 31, 12, 0))]


def test_in_with_a_table_is_unsupported(t_env):
    t = t_env.from_elements([(1,)], ["id"])
    with pytest.raises(TableException, match="sub-query"):
        E.col("id").in_(t)


def test_distinct_aggregate_is_named_like_a_bare_aggregate(t_env):
    # Hand-computed: a = 1, 1, 2 has two distinct values; bare aggregates are named EXPR$<k>.
    t = t_env.from_elements([(1,), (1,), (2,)], ["a"]).select(E.col("a").count.distinct)
    assert t.get_schema().get_field_names() == ["EXPR$0"]
    assert [tuple(r) for r in t.execute().collect()] == [(2,)]
