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


def _col(side: int, type_name: str = "") -> Dict[str, Any]:
    return {"col": [side, 0], "type": type_name} if type_name else {"col": [side, 0]}


def _rows(a: Any, b: Any) -> Any:
    return ({"c0": a}, {"c0": b})


def test_case_takes_the_first_true_branch_and_a_null_condition_is_not_true() -> None:
    # CASE WHEN l.v > r.v THEN 'l' WHEN l.v < r.v THEN 'r' ELSE 'same' END
    case = {"op": "case", "args": [{"op": ">", "args": [_col(0), _col(1)]}, {"lit": "l"},
                                   {"op": "<", "args": [_col(0), _col(1)]}, {"lit": "r"}, {"lit": "same"}]}
    assert _evaluate(case, _rows(2, 1)) == "l"
    assert _evaluate(case, _rows(1, 2)) == "r"
    assert _evaluate(case, _rows(1, 1)) == "same"
    assert _evaluate(case, _rows(None, 1)) == "same"  # both conditions NULL: the ELSE value
    # Without ELSE (a NULL literal), no true branch gives NULL, which as a condition does not match.
    no_else = {"op": "case", "args": [{"op": ">", "args": [_col(0), _col(1)]}, {"lit": True}, {"lit": None}]}
    assert _evaluate(no_else, _rows(1, 2)) is None


def test_case_evaluates_only_the_chosen_value() -> None:
    # IF(r.v <> 0, l.v / r.v, -1): no division by zero when r.v is 0.
    divided = {"op": "/", "args": [_col(0), _col(1)], "type": "integer"}
    guarded = {"op": "case", "args": [{"op": "not", "args": [{"op": "=", "args": [_col(1), {"lit": 0}]}]}, divided,
                                      {"lit": -1}]}
    assert _evaluate(guarded, _rows(7, 0)) == -1
    assert _evaluate(guarded, _rows(7, 2)) == 3


def test_coalesce_is_the_first_non_null_value() -> None:
    coalesce = {"op": "coalesce", "args": [_col(0), _col(1), {"lit": 0}]}
    assert _evaluate(coalesce, _rows(None, 5)) == 5
    assert _evaluate(coalesce, _rows(3, 5)) == 3
    assert _evaluate(coalesce, _rows(None, None)) == 0
    # Its later operands are not evaluated once one is not NULL (no division by zero).
    divided = {"op": "/", "args": [_col(0), {"lit": 0}], "type": "integer"}
    assert _evaluate({"op": "coalesce", "args": [_col(1), divided]}, _rows(1, 4)) == 4


def test_string_functions_of_both_inputs() -> None:
    concat = {"op": "concat", "args": [_col(0), _col(1)]}
    assert _evaluate({"op": "upper", "args": [concat]}, _rows("straße", "x")) == "STRASSEX"  # as Java's
    assert _evaluate({"op": "lower", "args": [concat]}, _rows("AbC", "D")) == "abcd"
    assert _evaluate({"op": "char_length", "args": [concat]}, _rows("é", "ab")) == 3  # characters, not bytes
    assert _evaluate({"op": "upper", "args": [concat]}, _rows(None, "x")) is None
    # TRIM removes spaces only (not tabs) unless told which characters.
    assert _evaluate({"op": "trim", "args": [concat]}, _rows("  a\t", " ")) == "a\t"
    assert _evaluate({"op": "ltrim", "args": [concat]}, _rows("  a ", " ")) == "a  "
    assert _evaluate({"op": "rtrim", "args": [concat]}, _rows("  a ", " ")) == "  a"
    assert _evaluate({"op": "trim", "args": [concat, {"lit": "xy"}]}, _rows("xyaxy", "yx")) == "a"
    assert _evaluate({"op": "trim", "args": [concat, {"lit": None}]}, _rows("a", "b")) is None


def test_timestampdiff_truncates_the_milliseconds_between_them() -> None:
    # Microseconds since the epoch; Flink reads milliseconds (floored), so 0.0009 s to 1.0005 s is
    # 1000 ms, one second, and 59.999 s is 0 minutes; a negative difference is truncated toward zero.
    def diff(unit_ms: int, a: Any, b: Any) -> Any:
        return _evaluate({"op": "timestampdiff", "unit_ms": unit_ms, "args": [_col(0), _col(1)]}, _rows(a, b))
    assert diff(1000, 900, 1_000_500) == 1
    assert diff(60_000, 0, 59_999_000) == 0
    assert diff(60_000, 59_999_000, 0) == 0
    assert diff(60_000, 121_000_000, 0) == -2
    assert diff(86_400_000, -86_400_000_000, 86_400_000_000) == 2
    assert diff(1000, None, 0) is None


def test_timestampadd_adds_whole_units() -> None:
    def add(unit_ms: int, n: Any, ts: Any) -> Any:
        return _evaluate({"op": "timestampadd", "unit_ms": unit_ms, "args": [_col(0), _col(1)]}, _rows(n, ts))
    assert add(1000, 5, 123) == 5_000_123
    assert add(3_600_000, -2, 0) == -7_200_000_000
    assert add(1000, None, 0) is None
    assert add(1000, 1, None) is None


def test_narrowing_integer_cast_wraps_around() -> None:
    # CAST(BIGINT AS INT) keeps the low 32 bits, as Java's (long) -> (int).
    cast = {"op": "cast", "args": [_col(0)], "type": "integer"}
    assert _evaluate(cast, _rows(2 ** 31, 0)) == -(2 ** 31)
    assert _evaluate(cast, _rows(-5, 0)) == -5


def test_float_values_and_arithmetic_are_4_byte_floats() -> None:
    # A FLOAT column's text is its shortest digits: 1.1 is the float 1.10000002384185791015625.
    assert _evaluate(_col(0, "float"), _rows("1.1", None)) == 1.10000002384185791015625
    # 0.1f + 0.2f is 0.3f (Java), not the double 0.30000000000000004.
    total = _op("+", 0.1, 0.2, "double")
    assert total == 0.30000000000000004
    real_total = _evaluate({"op": "+", "args": [_col(0, "float"), _col(1, "float")], "type": "float"},
                           _rows("0.1", "0.2"))
    assert real_total == 0.300000011920928955078125  # the float nearest 0.3
    # 15f * 1677721 = 25165815 has 25 bits: the float rounds it half to even, to 25165816.
    product = {"op": "*", "args": [_col(0, "float"), {"lit": 1677721.0, "type": "float"}], "type": "float"}
    assert _evaluate(product, _rows(15.0, None)) == 25165816.0
    assert _evaluate({"op": "/", "args": [_col(0, "float"), _col(1, "float")], "type": "float"},
                     _rows(1.0, 0.0)) == math.inf
    big = {"op": "*", "args": [_col(0, "float"), _col(1, "float")], "type": "float"}
    assert _evaluate(big, _rows(3e38, 10.0)) == math.inf  # beyond the float's range


def test_integers_as_float_or_double_round_once() -> None:
    # Java: (float) 16777217 = 1.6777216E7, (float) 16777219 = 1.677722E7 (half to even);
    # (double) 9007199254740993L = 9.007199254740992E15.
    as_real = {"op": "cast", "args": [_col(0)], "type": "float"}
    assert _evaluate(as_real, _rows(16777217, None)) == 16777216.0
    assert _evaluate(as_real, _rows(16777219, None)) == 16777220.0
    assert _evaluate(as_real, _rows(-16777219, None)) == -16777220.0
    assert _evaluate({"op": "cast", "args": [_col(0)], "type": "double"}, _rows(2 ** 53 + 1, None)) == 2.0 ** 53
