"""Probe: CSV values holding line breaks, and how malformed CSV/JSON rows fail or are skipped.

Run with PyFlink 2.3 to print the measured behaviour::

    /work/.venv-pyflink/bin/python tests/reference/probe_csv_multiline.py

and with ``--ours`` to print what pyflink_table does. Each case prints its rows, or the
exception type and the lines of its message that mention the file or the row.
"""

from __future__ import annotations

import os
import sys
import tempfile
from typing import Any, List

OURS = "--ours" in sys.argv
if OURS:
    from pyflink_table import EnvironmentSettings, TableEnvironment
else:
    from pyflink.table import EnvironmentSettings, TableEnvironment  # type: ignore

# (case, file name, file bytes, columns, extra options)
CASES = [
    ("lf_inside_quotes", "lf.csv", b'1,"a\nb",x\n2,plain,y\n', "a INT, b STRING, c STRING", ""),
    ("crlf_inside_quotes", "crlf.csv", b'1,"a\r\nb",x\r\n2,plain,y\r\n', "a INT, b STRING, c STRING", ""),
    ("lf_inside_quotes_ignore", "lfi.csv", b'1,"a\nb",x\nzz,bad,y\n3,"c\n\nd",z\n',
     "a INT, b STRING, c STRING", ", 'csv.ignore-parse-errors'='true'"),
    ("unclosed_quote_ignore", "open.csv", b'1,ok,x\n2,"never closed,y\n3,after,z\n',
     "a INT, b STRING, c STRING", ", 'csv.ignore-parse-errors'='true'"),
    ("unclosed_quote_fail", "open2.csv", b'1,ok,x\n2,"never closed,y\n3,after,z\n',
     "a INT, b STRING, c STRING", ""),
    ("bad_int_fail", "bad.csv", b'1,a\n2,b\nxx,c\n4,d\n', "a INT, b STRING", ""),
    ("bad_int_after_multiline_fail", "bad2.csv", b'1,"a\nb"\nxx,c\n', "a INT, b STRING", ""),
    ("too_few_fields_fail", "few.csv", b'1,a,x\n2\n', "a INT, b STRING, c STRING", ""),
    ("too_many_fields_fail", "many.csv", b'1,a\n2,b,extra\n', "a INT, b STRING", ""),
    ("comment_then_bad", "cmt.csv", b'# note\n1,a\nxx,b\n', "a INT, b STRING", ", 'csv.allow-comments'='true'"),
    ("bad_int_ignore", "badi.csv", b'1,a\nxx,b\n3,c\n,d\nyy,e\n', "a INT, b STRING", ", 'csv.ignore-parse-errors'='true'"),
    ("arity_ignore", "arity.csv", b'1,a\n2\n3,c,extra\n4,d\n', "a INT, b STRING", ", 'csv.ignore-parse-errors'='true'"),
    ("comment_and_bad_ignore", "cb.csv", b'#comment,1\n4|ignored,z,w\n5,ok,v\n', "a INT, b STRING, c STRING",
     ", 'csv.allow-comments'='true', 'csv.ignore-parse-errors'='true'"),
    # PyFlink's Python collect fails on ARRAY columns here: the probe reads the array as text.
    ("bad_array_ignore", "arr.csv", b'1,2;x\n2,3;4\n', "a INT, b ARRAY<INT>", ", 'csv.ignore-parse-errors'='true'",
     "a, CAST(b AS STRING)"),
    ("bad_array_fail", "arr2.csv", b'1,2;x\n2,3;4\n', "a INT, b ARRAY<INT>", "", "a, CAST(b AS STRING)"),
    ("two_bad_fields_ignore", "two.csv", b'x,y,ok\n1,2,fine\n', "a INT, b DOUBLE, c STRING",
     ", 'csv.ignore-parse-errors'='true'"),
    ("multiline_bad_field_fail", "mlb.csv", b'1,"a\nb"\n2,"c\nd"\nxx,"e\nf"\n', "a INT, b STRING", ""),
]
JSON_CASES = [
    ("json_bad_type_fail", "bad.json", b'{"a": 1, "b": "x"}\n{"a": "oops", "b": "y"}\n', "a INT, b STRING", ""),
    ("json_not_json_fail", "bad2.json", b'{"a": 1, "b": "x"}\n\n{not json\n', "a INT, b STRING", ""),
    ("json_ignore", "badi.json", b'{"a": 1, "b": "x"}\n{"a": "oops", "b": "y"}\n{not json\n{"a": 4}\n',
     "a INT, b STRING", ", 'json.ignore-parse-errors'='true'"),
    ("json_non_object_ignore", "nonobj.json", b'{"a": 1, "b": "x"}\n[1, 2]\n5\n{"a": "oops"}\n',
     "a INT, b STRING", ", 'json.ignore-parse-errors'='true'"),
]


def interesting(message: str) -> List[str]:
    lines = [ln.strip() for ln in message.splitlines()]
    keep = [ln for ln in lines if any(w in ln for w in ("Failed", "deserial", "line", ".csv", ".json", "parse", "Caused by"))]
    return [ln[:300] for ln in keep[:12]]


def run(t_env: Any, directory: str, fmt: str, case: str, name: str, data: bytes, cols: str, extra: str,
        select: str = "*") -> None:
    path = os.path.join(directory, name)
    with open(path, "wb") as f:
        f.write(data)
    t_env.execute_sql(f"CREATE TABLE {case} ({cols}) WITH ('connector'='filesystem', 'path'='{path}', "
                      f"'format'='{fmt}'{extra})")
    try:
        with t_env.execute_sql(f"SELECT {select} FROM {case}").collect() as it:
            rows = sorted((tuple(r) for r in it), key=repr)
        print(case, "ROWS", rows)
    except Exception as ex:
        print(case, "ERROR", type(ex).__name__)
        for ln in interesting(str(ex)):
            print("   ", ln)


def main() -> None:
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.get_config().set("parallelism.default", "1")
    with tempfile.TemporaryDirectory() as directory:
        for c in CASES:
            run(t_env, directory, "csv", *c)
        for c in JSON_CASES:
            run(t_env, directory, "json", *c)
        # What the CSV sink writes for values holding line breaks.
        out = os.path.join(directory, "out")
        t_env.execute_sql(f"CREATE TABLE sink (a INT, b STRING) WITH ('connector'='filesystem', 'path'='{out}', "
                          "'format'='csv')")
        t_env.execute_sql("INSERT INTO sink VALUES (1, 'x' || CHR(10) || 'y'), (2, 'p' || CHR(13) || CHR(10) || 'q'),"
                          " (3, 'plain')").wait()
        written = b""
        for root, _, files in os.walk(out):
            for f in sorted(files):
                if not f.startswith((".", "_")):
                    with open(os.path.join(root, f), "rb") as fh:
                        written += fh.read()
        print("sink_bytes", written)
        with t_env.execute_sql("SELECT * FROM sink").collect() as it:
            print("sink_read_back", sorted((tuple(r) for r in it), key=repr))


if __name__ == "__main__":
    main()
