"""Probe: JSON functions (see _probe_lib for how to run)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _probe_lib import main  # noqa: E402

DATA = [
    (1, '{"a": 1, "b": [1, 2], "c": {"d": "x"}, "e": null}', "k1", 5),
    (2, '[1, 2, 3]', "k2", None),
    (3, 'not json', "k3", 7),
    (4, None, "k4", 8),
]


def schema(T):
    return T.ROW([T.FIELD("id", T.INT()), T.FIELD("j", T.STRING()), T.FIELD("k", T.STRING()),
                  T.FIELD("v", T.INT())])


def cases(E, X):
    j, k, v = E.col("j"), E.col("k"), E.col("v")
    T = sys.modules[E.__name__.rsplit(".", 1)[0]].DataTypes
    JT, JQW = X.JsonType, X.JsonQueryWrapper
    on_null = getattr(E, "JsonOnNull", None) or getattr(X, "JsonOnNull")
    return [
        ("is_json", lambda: j.is_json()),
        ("is_json_object", lambda: j.is_json(JT.OBJECT)),
        ("is_json_array", lambda: j.is_json(JT.ARRAY)),
        ("is_json_scalar", lambda: j.is_json(JT.SCALAR)),
        ("json_exists", lambda: j.json_exists("$.a")),
        ("json_exists_missing", lambda: j.json_exists("$.z")),
        ("json_exists_null_value", lambda: j.json_exists("$.e")),
        ("json_value", lambda: j.json_value("$.a")),
        ("json_value_int", lambda: j.json_value("$.a", T.INT())),
        ("json_value_nested", lambda: j.json_value("$.c.d")),
        ("json_value_array_elem", lambda: j.json_value("$.b[1]")),
        ("json_value_nonscalar", lambda: j.json_value("$.b")),
        ("json_value_root_array", lambda: j.json_value("$[0]")),
        ("json_query", lambda: j.json_query("$.b")),
        ("json_query_object", lambda: j.json_query("$.c")),
        ("json_query_scalar", lambda: j.json_query("$.a")),
        ("json_query_cond_wrap", lambda: j.json_query("$.a", JQW.CONDITIONAL_ARRAY)),
        ("json_query_uncond_wrap", lambda: j.json_query("$.b", JQW.UNCONDITIONAL_ARRAY)),
        ("json_quote", lambda: k.json_quote()),
        ("json_unquote", lambda: E.lit('"a\\tb"').json_unquote()),
        ("json_string_int", lambda: E.json_string(v)),
        ("json_string_str", lambda: E.json_string(k)),
        ("json_object", lambda: E.json_object(on_null.NULL, "key", k, "val", v)),
        ("json_object_absent", lambda: E.json_object(on_null.ABSENT, "val", v)),
        ("json_object_nested", lambda: E.json_object(on_null.NULL, "o", E.json_object(on_null.NULL, "v", v))),
        ("json_object_raw", lambda: E.json_object(on_null.NULL, "raw", E.json(E.lit('{"x": 1}')))),
        ("json_array", lambda: E.json_array(on_null.NULL, k, v)),
        ("json_array_absent", lambda: E.json_array(on_null.ABSENT, k, v)),
        ("object_update", lambda: E.lit('{"a": 1}').object_update("b", v)),
    ]


if __name__ == "__main__":
    main(sys.modules[__name__])
