"""The expression DSL makes one Py4J round trip per call (issue 16), counted on the real gateway.

The gateway client's ``send_command`` is wrapped to count the commands that reach the JVM (the
JVM answers them as usual); py4j's deferred deletes of garbage-collected objects are not calls
and are not counted.
"""

from __future__ import annotations

import datetime
import decimal
from typing import Any, Callable, Iterator, List

import pytest

from pyflink_table import DataTypes, TableEnvironment
from pyflink_table.expression import JsonValueOnEmptyOrError, TimeIntervalUnit
from pyflink_table.expressions import (
    and_, array, call, call_sql, col, concat, if_then_else, lit, map_, null_of, or_, row, row_interval,
)
from pyflink_table.java_gateway import get_gateway
from pyflink_table.udf import udf


class _Counter:
    def __init__(self) -> None:
        self.commands: List[str] = []

    def calls(self) -> int:
        return sum(1 for c in self.commands if not c.startswith("m\n"))


@pytest.fixture()
def counter(t_env: TableEnvironment) -> Iterator[_Counter]:
    client = get_gateway()._gateway_client
    original = client.send_command
    counter = _Counter()

    def counting(command: str, *args: Any, **kwargs: Any) -> Any:
        counter.commands.append(command)
        return original(command, *args, **kwargs)

    client.send_command = counting
    try:
        yield counter
    finally:
        del client.send_command


def _trips(counter: _Counter, build: Callable[[], Any]) -> int:
    counter.commands.clear()
    kept = build()  # held until counted, so no delete of it runs in between
    n = counter.calls()
    del kept
    return n


def test_each_dsl_call_is_one_round_trip(counter: _Counter) -> None:
    a, b, c = col("a"), col("b"), col("c")
    total = a.sum
    cond = a > 1
    count, two = a.count, lit(2)
    plus_one = udf(lambda x: x + 1, result_type=DataTypes.BIGINT())
    plus_one(a)  # the function's JVM half is built once, on first use
    cases = {
        "col('a')": lambda: col("a"),
        "a + 1": lambda: a + 1,
        "1 - a": lambda: 1 - a,
        "a == 'x'": lambda: a == "x",
        "a * 2.5": lambda: a * 2.5,
        "lit(1)": lambda: lit(1),
        "lit(2**40)": lambda: lit(2 ** 40),
        "lit(None)": lambda: lit(None),
        "lit(b'x')": lambda: lit(b"x"),
        "lit(Decimal)": lambda: lit(decimal.Decimal("1.50")),
        "lit(date)": lambda: lit(datetime.date(2020, 1, 2)),
        "lit(datetime)": lambda: lit(datetime.datetime(2020, 1, 2, 3, 4, 5)),
        "lit(1, INT)": lambda: lit(1, DataTypes.INT()),
        "lit([1, 2])": lambda: lit([1, 2]),
        "null_of(INT)": lambda: null_of(DataTypes.INT()),
        "a.sum": lambda: a.sum,
        "a.sum.alias('s')": lambda: total.alias("s"),
        "a.alias('x', 'y', 'z')": lambda: a.alias("x", "y", "z"),
        "a.cast(DECIMAL)": lambda: a.cast(DataTypes.DECIMAL(10, 2)),
        "a.in_(50 values)": lambda: a.in_(*range(50)),
        "a.in_(b, c)": lambda: a.in_(b, c),
        "a.between(1, 10)": lambda: a.between(1, 10),
        "a.sum.over('w')": lambda: total.over("w"),
        "and_(a, b, c)": lambda: and_(a, b, c),
        "or_(a, b)": lambda: or_(a, b),
        "~a": lambda: ~a,
        "if_then_else(cond, 'x', 'y')": lambda: if_then_else(cond, "x", "y"),
        "call('f', a, 1, 'x')": lambda: call("f", a, 1, "x"),
        "call(udf, a)": lambda: call(plus_one, a),
        "udf(a, 2)": lambda: plus_one(a),
        "call_sql('a + 1')": lambda: call_sql("a + 1"),
        "concat(30 columns)": lambda: concat(*[a] * 30),
        "row(1, 'x', a)": lambda: row(1, "x", a),
        "array(1, 2, 3)": lambda: array(1, 2, 3),
        "map_('k', 1)": lambda: map_("k", 1),
        "row_interval(5)": lambda: row_interval(5),
        "lit(2).hours": lambda: two.hours,
        "a.extract(YEAR)": lambda: a.extract(TimeIntervalUnit.YEAR),
        "a.json_value(...)": lambda: a.json_value("$.x", DataTypes.INT(), JsonValueOnEmptyOrError.DEFAULT, 42),
        "a.trim('x')": lambda: a.trim("x"),
        "a.get('f')": lambda: a.get("f"),
        "a.count.distinct": lambda: count.distinct,
    }
    trips = {name: _trips(counter, build) for name, build in cases.items()}
    assert trips == {name: 1 for name in cases}
    # A whole expression costs one trip per DSL call in it; its summary string one more.
    assert _trips(counter, lambda: col("a") + 1) == 2
    assert _trips(counter, lambda: (col("a") + 1).cast(DataTypes.BIGINT()).alias("x")) == 4
    assert _trips(counter, lambda: str(a + 1)) == 2


def test_a_select_list_travels_in_one_round_trip(t_env: TableEnvironment, counter: _Counter) -> None:
    table = t_env.from_elements([tuple(range(50)), tuple(range(100, 150))], [f"c{i}" for i in range(50)])
    fields = [col(f"c{i}") + 1 for i in range(50)]
    counter.commands.clear()
    result = table.select(*fields)
    # The Expr[] of 50 expressions is one call, the select another; the rest is the Table's own
    # bookkeeping, which does not grow with the number of fields.
    assert counter.calls() < 10
    assert [tuple(r) for r in result.execute().collect()] == [tuple(range(1, 51)), tuple(range(101, 151))]
