"""Probe: arithmetic, math, comparison and logic expressions (see _probe_lib for how to run)."""
import os
import sys
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _probe_lib import main  # noqa: E402

DATA = [
    (1, 7, 2, 2.5, Decimal("3.14"), None, True),
    (2, -7, 3, -0.5, Decimal("-1.50"), 4, False),
    (3, 0, -4, 10.0, Decimal("0.00"), None, None),
]


def schema(T):
    return T.ROW([T.FIELD("id", T.INT()), T.FIELD("a", T.INT()), T.FIELD("b", T.BIGINT()),
                  T.FIELD("c", T.DOUBLE()), T.FIELD("d", T.DECIMAL(5, 2)), T.FIELD("n", T.INT()),
                  T.FIELD("bo", T.BOOLEAN())])


def cases(E, X):
    a, b, c, d, n, bo = (E.col(x) for x in ("a", "b", "c", "d", "n", "bo"))
    return [
        ("plus_int_lit", lambda: a + 1),
        ("plus_int_bigint", lambda: a + b),
        ("plus_int_double", lambda: a + c),
        ("plus_int_decimal", lambda: a + d),
        ("plus_null", lambda: a + n),
        ("minus", lambda: a - b),
        ("rminus", lambda: 10 - a),
        ("times_int_bigint", lambda: a * b),
        ("times_dec_dec", lambda: d * d),
        ("div_int_lit", lambda: a / 2),
        ("div_int_bigint", lambda: a / b),
        ("div_int_double", lambda: a / c),
        ("div_dec_bigint", lambda: d / b),
        ("mod_int_bigint", lambda: a % b),
        ("mod_lit", lambda: a % 3),
        ("neg", lambda: -a),
        ("negative_fn", lambda: E.negative(b)),
        ("pow", lambda: a ** 2),
        ("power_double", lambda: c ** 2),
        ("abs_int", lambda: a.abs),
        ("abs_dec", lambda: d.abs),
        ("sqrt", lambda: c.abs.sqrt),
        ("exp", lambda: c.exp),
        ("ln", lambda: c.abs.ln),
        ("log10", lambda: c.abs.log10),
        ("log2", lambda: c.abs.log2),
        ("log_base_method", lambda: E.lit(8).log(2)),
        ("log_fn", lambda: E.log(c.abs)),
        ("log_fn_base", lambda: E.log(2, E.lit(8))),
        ("round_double_0", lambda: c.round(0)),
        ("round_double_1", lambda: (c / 3).round(1)),
        ("round_dec_1", lambda: d.round(1)),
        ("round_int_neg", lambda: (a * 13).round(-1)),
        ("truncate_double", lambda: (c / 3).truncate(2)),
        ("truncate_default", lambda: c.truncate()),
        ("truncate_dec", lambda: d.truncate(1)),
        ("sign_int", lambda: a.sign),
        ("sign_double", lambda: c.sign),
        ("sign_dec", lambda: d.sign),
        ("sin", lambda: c.sin),
        ("cos", lambda: c.cos),
        ("tan", lambda: c.tan),
        ("cot", lambda: c.cot),
        ("asin", lambda: E.lit(0.5).asin),
        ("acos", lambda: E.lit(0.5).acos),
        ("atan", lambda: c.atan),
        ("atan2", lambda: E.atan2(c, a)),
        ("sinh", lambda: c.sinh),
        ("cosh", lambda: c.cosh),
        ("tanh", lambda: c.tanh),
        ("degrees", lambda: c.degrees),
        ("radians", lambda: c.radians),
        ("pi", lambda: E.pi()),
        ("e", lambda: E.e()),
        ("bin", lambda: a.bin),
        ("hex_int", lambda: a.hex),
        ("unhex", lambda: E.lit("466C696E6B").unhex),
        ("ceil_double", lambda: c.ceil()),
        ("floor_double", lambda: c.floor()),
        ("ceil_dec", lambda: d.ceil()),
        ("floor_dec", lambda: d.floor()),
        ("floor_int", lambda: a.floor()),
        ("eq", lambda: a == b),
        ("eq_null", lambda: a == n),
        ("ne", lambda: a != 7),
        ("lt", lambda: a < b),
        ("le_double", lambda: a <= c),
        ("gt_dec", lambda: a > d),
        ("ge", lambda: a >= 0),
        ("between", lambda: a.between(-1, 8)),
        ("not_between", lambda: a.not_between(-1, 1)),
        ("in", lambda: a.in_(7, 0)),
        ("in_null", lambda: n.in_(4, 5)),
        ("and", lambda: (a > 0) & bo),
        ("or", lambda: (a > 0) | bo),
        ("not", lambda: ~bo),
        ("and_fn", lambda: E.and_(a >= 0, bo, b > 0)),
        ("or_fn", lambda: E.or_(a > 0, bo, b > 0)),
        ("not_fn", lambda: E.not_(bo)),
        ("is_true", lambda: bo.is_true),
        ("is_false", lambda: bo.is_false),
        ("is_not_true", lambda: bo.is_not_true),
        ("is_not_false", lambda: bo.is_not_false),
        ("is_null", lambda: n.is_null),
        ("is_not_null", lambda: n.is_not_null),
        ("rand_integer_type", lambda: E.rand_integer(10) < 10),
        ("rand_type", lambda: E.rand(3) < 1),
    ]


if __name__ == "__main__":
    main(sys.modules[__name__])
