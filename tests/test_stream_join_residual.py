"""The join processor's evaluation of a join condition's part combining both inputs
(:func:`pyflink_table._worker.stream_changelogs._evaluate`), on trees as the bridge's
``JoinResidual`` writes them. Expected decimals are PyFlink 2.3's (measured: ``m / m2`` of
DECIMAL(10, 2) columns is DECIMAL(23, 13), a product beyond DECIMAL(38, 4) is NULL); the rest is
Java's arithmetic, computed by hand. The differential joins run such conditions end to end."""

from __future__ import annotations

import decimal
import math
from typing import Any, Dict

import pytest

from pyflink_table._worker.scalar import UserFunctionError
from pyflink_table._worker.stream_changelogs import _evaluate


def _op(op: str, a: Any, b: Any, type_name: str, precision: int = 0, scale: int = 0) -> Any:
    node: Dict[str, Any] = {"op": op, "args": [{"col": [0, 0]}, {"col": [1, 0]}], "type": type_name}
    if type_name == "decimal":
        node.update(precision=precision, scale=scale)
        for leaf in node["args"]:
            leaf["type"] = "decimal"
    return _evaluate(node, ({"c0": a}, {"c0": b}))


@pytest.mark.parametrize("a, b, quotient", [("1.50", "1.5", "1.0000000000000"), ("0.10", "1.50", "0.0666666666667"),
                                            ("3.33", "0.07", "47.5714285714286")])
def test_decimal_division_rounds_half_up_to_its_scale(a: str, b: str, quotient: str) -> None:
    assert str(_op("/", a, b, "decimal", 23, 13)) == quotient


def test_decimal_product_beyond_its_precision_is_null() -> None:
    assert str(_op("*", "1.50", "1.50", "decimal", 21, 4)) == "2.2500"
    assert _op("*", "33300000000000000000.00", "700000000000000000.00", "decimal", 38, 4) is None


def test_integer_division_truncates_and_wraps_as_java() -> None:
    assert _op("/", -7, 2, "integer") == -3
    assert _op("/", 7, -2, "integer") == -3
    assert _op("/", -2147483648, -1, "integer") == -2147483648


def test_division_by_zero_fails_for_integers_and_decimals_only() -> None:
    with pytest.raises(UserFunctionError, match="java.lang.ArithmeticException: / by zero"):
        _op("/", 1, 0, "integer")
    with pytest.raises(UserFunctionError, match="java.lang.ArithmeticException: Division by zero"):
        _op("/", "1.00", "0.00", "decimal", 23, 13)
    assert _op("/", 5.0, 0.0, "double") == math.inf
    assert _op("/", -5.0, 0.0, "double") == -math.inf
    assert math.isnan(_op("/", 0.0, 0.0, "double"))
    assert _op("/", None, 0, "integer") is None


def test_decimal_leaves_keep_their_digits() -> None:
    # 0.1 + 0.2 as doubles would be 0.30000000000000004.
    assert _op("+", "0.10", "0.20", "decimal", 11, 2) == decimal.Decimal("0.30")
    assert _evaluate({"op": "=", "args": [{"col": [0, 0], "type": "decimal"}, {"lit": "0.30", "type": "decimal"}]},
                     ({"c0": "0.3"}, {})) is True


def test_logic_stops_at_its_deciding_operand() -> None:
    # Flink's generated AND/OR skip the right operand once the left decides (no division by zero).
    divided = {"op": ">", "args": [{"op": "/", "args": [{"col": [0, 0]}, {"col": [1, 0]}], "type": "integer"},
                                   {"lit": 1}]}
    false, true = {"lit": False}, {"lit": True}
    rows = ({"c0": 1}, {"c0": 0})
    assert _evaluate({"op": "and", "args": [false, divided]}, rows) is False
    assert _evaluate({"op": "or", "args": [true, divided]}, rows) is True
    assert _evaluate({"op": "and", "args": [{"lit": None}, false]}, rows) is False
    assert _evaluate({"op": "and", "args": [{"lit": None}, true]}, rows) is None


def test_double_columns_read_nan_from_its_text() -> None:
    nan = {"op": "<", "args": [{"col": [0, 0], "type": "double"}, {"col": [1, 0], "type": "double"}]}
    assert _evaluate(nan, ({"c0": "NaN"}, {"c0": 1.5})) is False
    assert _evaluate(nan, ({"c0": 1}, {"c0": "Infinity"})) is True


def test_integer_remainder_has_the_dividends_sign() -> None:
    # PyFlink 2.3: MOD(-7, 2) = MOD(-7, -2) = -1, MOD(v, 0) fails with / by zero (measured).
    assert _op("%", -7, 2, "integer") == -1
    assert _op("%", -7, -2, "integer") == -1
    assert _op("%", 7, -2, "integer") == 1
    with pytest.raises(UserFunctionError, match="/ by zero"):
        _op("%", 7, 0, "integer")
