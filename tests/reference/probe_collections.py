"""Probe: arrays, maps, rows and their functions (see _probe_lib for how to run)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _probe_lib import main  # noqa: E402

try:
    from pyflink.common import Row
except ImportError:  # run by pyflink_table's tests
    from pyflink_table import Row

# PyFlink 2.3 cannot ship NULL elements inside arrays or maps from Python, so the data has none.
DATA = [
    (1, [3, 1, 2, 1], {"a": 1, "b": 2}, Row(10, "u"), [2, 5], ["x", "y"]),
    (2, [5, 4], {"c": 3}, Row(20, "v"), [], ["z"]),
    (3, None, None, None, None, None),
]


def schema(T):
    return T.ROW([T.FIELD("id", T.INT()), T.FIELD("arr", T.ARRAY(T.INT())),
                  T.FIELD("m", T.MAP(T.STRING(), T.INT())),
                  T.FIELD("r", T.ROW([T.FIELD("x", T.INT()), T.FIELD("y", T.STRING())])),
                  T.FIELD("arr2", T.ARRAY(T.INT())), T.FIELD("sa", T.ARRAY(T.STRING()))])


def cases(E, X):
    arr, m, r, arr2, sa, i = (E.col(x) for x in ("arr", "m", "r", "arr2", "sa", "id"))
    return [
        ("at", lambda: arr.at(1)),
        ("getitem", lambda: arr[2]),
        ("at_out_of_range", lambda: arr.at(9)),
        ("cardinality_arr", lambda: arr.cardinality),
        ("cardinality_map", lambda: m.cardinality),
        ("element", lambda: E.array(i).element),
        ("map_at", lambda: m.at("a")),
        ("map_getitem", lambda: m["b"]),
        ("row_get_name", lambda: r.get("x")),
        ("row_get_index", lambda: r.get(1)),
        ("row_getattr", lambda: r.y),
        ("array_append", lambda: arr.array_append(9)),
        ("array_prepend", lambda: arr.array_prepend(0)),
        ("array_contains", lambda: arr.array_contains(1)),
        ("array_distinct", lambda: arr.array_distinct()),
        ("array_position", lambda: arr.array_position(1)),
        ("array_remove", lambda: arr.array_remove(1)),
        ("array_reverse", lambda: arr.array_reverse()),
        ("array_slice", lambda: arr.array_slice(2, 3)),
        ("array_slice_from", lambda: arr.array_slice(2)),
        ("array_sort", lambda: arr.array_sort()),
        ("array_sort_desc", lambda: arr.array_sort(False)),
        ("array_sort_desc_nulls_last", lambda: arr.array_sort(False, False)),
        ("array_union", lambda: arr.array_union(arr2)),
        ("array_concat", lambda: arr.array_concat(arr2)),
        ("array_concat_two", lambda: arr.array_concat(arr2, arr)),
        ("array_max", lambda: arr.array_max()),
        ("array_min", lambda: arr.array_min()),
        ("array_join", lambda: sa.array_join(",")),
        ("array_join_null", lambda: sa.array_join(",", "N")),
        ("array_except", lambda: arr.array_except(arr2)),
        ("array_intersect", lambda: arr.array_intersect(E.array(1, 4, 7))),
        ("map_keys", lambda: m.map_keys),
        ("map_values", lambda: m.map_values),
        ("map_entries", lambda: m.map_entries),
        ("map_union", lambda: m.map_union(E.map_("a", 100, "z", 26))),
        ("array_fn", lambda: E.array(1, 2, i)),
        ("array_str", lambda: E.array("a", "bc")),
        ("map_fn", lambda: E.map_("k", i, "j", 2)),
        ("row_fn", lambda: E.row(i, "a")),
        ("row_fn_get", lambda: E.row(i, "a").get(1)),
        ("lit_list", lambda: E.lit([1, 2])),
        ("array_agg_is_aggregate_check", lambda: E.array(i).cardinality),
    ]


if __name__ == "__main__":
    main(sys.modules[__name__])
