"""Probe: string functions (see _probe_lib for how to run)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _probe_lib import main  # noqa: E402

DATA = [
    (1, " Hello World ", "lo", 2),
    (2, "flink,spark,beam", ",", 1),
    (3, None, "x", None),
]


def schema(T):
    return T.ROW([T.FIELD("id", T.INT()), T.FIELD("s", T.STRING()), T.FIELD("t", T.STRING()),
                  T.FIELD("i", T.INT())])


def cases(E, X):
    s, t, i = E.col("s"), E.col("t"), E.col("i")
    url = E.lit("http://user@flink.apache.org:8080/path/p.html?q=1&k=v#frag")
    return [
        ("plus_concat", lambda: s + "!"),
        ("plus_int", lambda: t + i),
        ("concat_method", lambda: s.concat(t)),
        ("concat_fn", lambda: E.concat(s, "-", t)),
        ("concat_ws", lambda: E.concat_ws("-", s, t)),
        ("lit_char", lambda: E.lit("abc")),
        ("upper", lambda: s.upper_case),
        ("lower", lambda: s.lower_case),
        ("init_cap", lambda: s.init_cap),
        ("char_length", lambda: s.char_length),
        ("trim", lambda: s.trim()),
        ("trim_char", lambda: E.lit("xxaxx").trim("x")),
        ("trim_leading", lambda: s.trim_leading()),
        ("trim_trailing", lambda: s.trim_trailing()),
        ("ltrim", lambda: s.ltrim()),
        ("rtrim", lambda: s.rtrim()),
        ("btrim", lambda: s.btrim()),
        ("btrim_chars", lambda: E.lit("xyaxy").btrim("xy")),
        ("substring_from", lambda: s.substring(3)),
        ("substring_len", lambda: s.substring(2, 4)),
        ("substr", lambda: s.substr(2, 3)),
        ("replace", lambda: s.replace("l", "L")),
        ("translate", lambda: s.translate("lo", "01")),
        ("position", lambda: t.position(s)),
        ("locate", lambda: t.locate(s)),
        ("locate_pos", lambda: t.locate(s, 6)),
        ("instr", lambda: s.instr(t)),
        ("like", lambda: s.like("%o W%")),
        ("like_underscore", lambda: s.like("_link%")),
        ("similar", lambda: s.similar("%(spark|World)%")),
        ("regexp", lambda: s.regexp("o W")),
        ("regexp_count", lambda: s.regexp_count("l")),
        ("regexp_replace", lambda: s.regexp_replace("[aeiou]", "*")),
        ("regexp_extract", lambda: s.regexp_extract("(l+)(o)", 1)),
        ("regexp_extract_default", lambda: s.regexp_extract("l+o")),
        ("regexp_extract_all", lambda: s.regexp_extract_all("[a-z]l")),
        ("regexp_instr", lambda: s.regexp_instr("o")),
        ("regexp_substr", lambda: s.regexp_substr("[a-z]+")),
        ("lpad", lambda: s.lpad(15, "*")),
        ("lpad_short", lambda: s.lpad(3, "*")),
        ("rpad", lambda: s.rpad(15, "*")),
        ("repeat", lambda: t.repeat(3)),
        ("reverse", lambda: s.reverse),
        ("left", lambda: s.left(3)),
        ("right", lambda: s.right(3)),
        ("ascii", lambda: s.ascii),
        ("chr", lambda: (i + 64).chr),
        ("md5", lambda: s.md5),
        ("sha1", lambda: t.sha1),
        ("sha224", lambda: t.sha224),
        ("sha256", lambda: t.sha256),
        ("sha384", lambda: t.sha384),
        ("sha512", lambda: t.sha512),
        ("sha2", lambda: t.sha2(256)),
        ("to_base64", lambda: s.to_base64),
        ("from_base64", lambda: s.to_base64.from_base64),
        ("split_index", lambda: s.split_index(",", 1)),
        ("split_index_out", lambda: s.split_index(",", 5)),
        ("split", lambda: s.split(",")),
        ("str_to_map_default", lambda: E.lit("a=1,b=2").str_to_map()),
        ("str_to_map", lambda: E.lit("a:1;b:2").str_to_map(";", ":")),
        ("elt", lambda: i.elt("first", "second")),
        ("encode", lambda: s.encode("UTF-8")),
        ("decode", lambda: s.encode("UTF-8").decode("UTF-8")),
        ("url_encode", lambda: E.lit("a b&c=d/é").url_encode()),
        ("url_decode", lambda: E.lit("a+b%26c%3Dd").url_decode()),
        ("parse_url_host", lambda: url.parse_url("HOST")),
        ("parse_url_query_key", lambda: url.parse_url("QUERY", "k")),
        ("parse_url_path", lambda: url.parse_url("PATH")),
        ("parse_url_protocol", lambda: url.parse_url("PROTOCOL")),
        ("parse_url_ref", lambda: url.parse_url("REF")),
        ("parse_url_authority", lambda: url.parse_url("AUTHORITY")),
        ("parse_url_userinfo", lambda: url.parse_url("USERINFO")),
        ("parse_url_file", lambda: url.parse_url("FILE")),
        ("printf", lambda: E.lit("%s-%d").printf(t, i)),
        ("starts_with", lambda: s.starts_with("fl")),
        ("ends_with", lambda: s.ends_with("beam")),
        ("inet_aton", lambda: E.lit("127.0.0.1").inet_aton()),
        ("inet_ntoa", lambda: E.lit(2130706433).inet_ntoa()),
        ("hex_string", lambda: t.hex),
        ("overlay", lambda: s.overlay("XX", 2)),
        ("overlay_len", lambda: s.overlay("XX", 2, 5)),
        ("uuid_len", lambda: E.uuid().char_length),
    ]


if __name__ == "__main__":
    main(sys.modules[__name__])
