"""Probe: aggregate functions, per group and global (see _probe_lib for how to run)."""
import os
import sys
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _probe_lib import main  # noqa: E402

GROUP_BY = "k"

DATA = [
    (1, "x", 1, 1.5, Decimal("1.10"), "p"),
    (2, "x", 2, 2.5, Decimal("2.20"), None),
    (3, "x", None, None, None, "q"),
    (4, "y", 5, -1.0, Decimal("0.50"), "r"),
    (5, "y", 5, 3.0, Decimal("1.00"), "r"),
]


def schema(T):
    return T.ROW([T.FIELD("id", T.INT()), T.FIELD("k", T.STRING()), T.FIELD("a", T.INT()),
                  T.FIELD("c", T.DOUBLE()), T.FIELD("d", T.DECIMAL(5, 2)), T.FIELD("s", T.STRING())])


def cases(E, X):
    a, c, d, s = E.col("a"), E.col("c"), E.col("d"), E.col("s")
    on_null = getattr(E, "JsonOnNull", None) or getattr(X, "JsonOnNull")
    return [
        ("sum_int", lambda: a.sum),
        ("sum0_int", lambda: a.sum0),
        ("sum_double", lambda: c.sum),
        ("sum_dec", lambda: d.sum),
        ("min", lambda: a.min),
        ("max_str", lambda: s.max),
        ("count", lambda: a.count),
        ("count_lit", lambda: E.lit(1).count),
        ("avg_int", lambda: a.avg),
        ("avg_double", lambda: c.avg),
        ("avg_dec", lambda: d.avg),
        ("stddev_pop_int", lambda: a.stddev_pop),
        ("stddev_samp_double", lambda: c.stddev_samp),
        ("var_pop_double", lambda: c.var_pop),
        ("var_samp_int", lambda: a.var_samp),
        ("first_value", lambda: s.first_value),
        ("last_value", lambda: s.last_value),
        ("collect", lambda: s.collect),
        ("array_agg", lambda: a.array_agg),
        ("list_agg", lambda: s.list_agg()),
        ("list_agg_sep", lambda: s.list_agg("|")),
        ("distinct_count", lambda: a.distinct.count),
        ("distinct_sum", lambda: a.distinct.sum),
        ("percentile", lambda: c.percentile(0.5)),
        ("agg_expr", lambda: a.sum + a.count),
        ("json_array_agg", lambda: E.json_array_agg(on_null.ABSENT, s)),
        ("json_object_agg", lambda: E.json_object_agg(on_null.NULL, E.col("id").cast(
            sys.modules[E.__name__.rsplit(".", 1)[0]].DataTypes.STRING()), a)),
    ]


if __name__ == "__main__":
    main(sys.modules[__name__])
