"""Probe: conditional expressions and casts (see _probe_lib for how to run)."""
import os
import sys
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _probe_lib import main  # noqa: E402

DATA = [
    (1, 5, "12", 1.75, True),
    (2, None, "x", None, False),
    (3, -3, None, -2.5, None),
]


def schema(T):
    return T.ROW([T.FIELD("id", T.INT()), T.FIELD("a", T.INT()), T.FIELD("s", T.STRING()),
                  T.FIELD("c", T.DOUBLE()), T.FIELD("bo", T.BOOLEAN())])


def cases(E, X):
    from decimal import Decimal as D
    a, s, c, bo = E.col("a"), E.col("s"), E.col("c"), E.col("bo")
    T = sys.modules[E.__name__.rsplit(".", 1)[0]].DataTypes
    return [
        ("then", lambda: (a > 0).then("pos", "neg")),
        ("then_num", lambda: (a > 0).then(a, 0)),
        ("then_null_cond", lambda: bo.then(1, 2)),
        ("if_then_else", lambda: E.if_then_else(a > 0, a, -a)),
        ("if_then_else_mixed", lambda: E.if_then_else(bo, c, a)),
        ("if_null", lambda: a.if_null(0)),
        ("if_null_str", lambda: s.if_null("none")),
        ("nested_then", lambda: (a > 0).then("p", (a < 0).then("n", "z"))),
        ("cast_str_int", lambda: s.cast(T.INT())),
        ("try_cast_str_int", lambda: s.try_cast(T.INT())),
        ("cast_double_int", lambda: c.cast(T.INT())),
        ("cast_double_bigint", lambda: c.cast(T.BIGINT())),
        ("cast_int_str", lambda: a.cast(T.STRING())),
        ("cast_double_str", lambda: c.cast(T.STRING())),
        ("cast_bool_str", lambda: bo.cast(T.STRING())),
        ("cast_int_bool", lambda: a.cast(T.BOOLEAN())),
        ("cast_double_dec", lambda: c.cast(T.DECIMAL(4, 1))),
        ("cast_str_double", lambda: E.lit("1.5e2").cast(T.DOUBLE())),
        ("cast_str_date", lambda: E.lit("2024-01-31").cast(T.DATE())),
        ("cast_str_ts", lambda: E.lit("2024-01-31 10:20:30.5").cast(T.TIMESTAMP(3))),
        ("cast_int_varchar", lambda: a.cast(T.VARCHAR(10))),
        ("cast_int_char", lambda: a.cast(T.CHAR(3))),
        ("cast_dec_lit", lambda: E.lit(D("12.345")).cast(T.DECIMAL(5, 1))),
        ("lit_dec", lambda: E.lit(D("12.345"))),
        ("lit_typed", lambda: E.lit(3, T.BIGINT())),
        ("lit_double", lambda: E.lit(1.5)),
        ("lit_bool", lambda: E.lit(True)),
        ("lit_bigint", lambda: E.lit(3000000000)),
        ("null_of", lambda: E.null_of(T.INT())),
        ("null_of_plus", lambda: E.null_of(T.INT()) + a),
        ("call_sql", lambda: E.call_sql("a * 2 + 1")),
        ("call_builtin_name", lambda: E.call("upper", s)),
        ("coalesce_call", lambda: E.call("COALESCE", a, 9)),
    ]


if __name__ == "__main__":
    main(sys.modules[__name__])
