"""Bad input in CSV and JSON files: failures name the file and line, ignore-parse-errors counts
what it skips, and quoted CSV values holding line breaks read back intact.

Rows marked "PyFlink 2.3" were measured with tests/reference/probe_csv_multiline.py on
apache-flink 2.3.0 (batch mode); line numbers and counts are hand-counted from the files below.
"""

from __future__ import annotations

import glob
import os
from pathlib import Path

import pytest

from pyflink_table import DataTypes, TableException
from pyflink_table.sources import CsvTableSource

from conftest import sorted_rows


def _create(t_env, name: str, path: Path, columns: str, fmt: str = "csv", extra: str = "") -> None:
    t_env.execute_sql(f"CREATE TABLE {name} ({columns}) WITH ('connector'='filesystem', 'path'='{path}', "
                      f"'format'='{fmt}'{extra})")


def _failure(t_env, name: str) -> str:
    with pytest.raises(TableException) as e:
        t_env.execute_sql(f"SELECT * FROM {name}").collect()
    return str(e.value)


# --- failures name the file and the line ----------------------------------------------------------

def test_csv_failure_names_file_line_row_and_field(t_env, tmp_path):
    # Line 1 is a comment and lines 3-4 hold one record (a quoted line break): the bad row is line 5.
    (tmp_path / "bad.csv").write_text('# header comment\n1,a\n2,"multi\nline"\nxx,"c,d"\n6,e\n')
    _create(t_env, "bad_line", tmp_path / "bad.csv", "a INT, b STRING", extra=", 'csv.allow-comments'='true'")
    message = _failure(t_env, "bad_line")
    assert message == (f"Failed to deserialize CSV row 'xx,\"c,d\"' of table 'bad_line' in file {tmp_path}/bad.csv, "
                       "line 5: cannot parse field 'a' (INT). Set 'csv.ignore-parse-errors' = 'true' to skip such rows.")


def test_csv_failure_for_wrong_field_counts_and_open_quote(t_env, tmp_path):
    (tmp_path / "few.csv").write_text("1,a,x\n2,b,y\n3\n")
    _create(t_env, "few", tmp_path / "few.csv", "a INT, b STRING, c STRING")
    message = _failure(t_env, "few")
    assert "'3'" in message and "few.csv, line 3:" in message
    assert "row length mismatch, 3 fields expected but was 1" in message
    (tmp_path / "many.csv").write_text("1,a\n2,b,extra\n")
    _create(t_env, "many", tmp_path / "many.csv", "a INT, b STRING")
    assert "many.csv, line 2: row length mismatch, 2 fields expected but was 3" in _failure(t_env, "many")
    # A quote never closed runs to the end of the file; the row starts on line 2.
    (tmp_path / "open.csv").write_text('1,ok,x\n2,"never closed,y\n3,after,z\n')
    _create(t_env, "open_quote", tmp_path / "open.csv", "a INT, b STRING, c STRING")
    message = _failure(t_env, "open_quote")
    assert "open.csv, line 2: missing closing quote for value" in message
    assert "'2,\"never closed,y\\n3,after,z'" in message and "\n" not in message


def test_insert_reading_a_malformed_row_fails_with_the_line_and_writes_nothing(t_env, tmp_path):
    (tmp_path / "in.csv").write_text("1,a\n2,b\n3,c,d\n")
    _create(t_env, "ins_src", tmp_path / "in.csv", "a INT, b STRING")
    _create(t_env, "ins_sink", tmp_path / "out", "a INT, b STRING")
    with pytest.raises(TableException) as e:
        t_env.execute_sql("INSERT INTO ins_sink SELECT * FROM ins_src").wait()
    assert "in.csv, line 3: row length mismatch, 2 fields expected but was 3" in str(e.value)
    assert not [f for f in glob.glob(f"{tmp_path}/out/**", recursive=True)
                if os.path.isfile(f) and not os.path.basename(f).startswith((".", "_"))]


def test_compressed_csv_multi_line_values_and_failure_line(t_env, tmp_path):
    import gzip

    # Read as the uncompressed text would be (hand-computed): the scan and the line search decompress too.
    with gzip.open(tmp_path / "z.csv.gz", "wb") as f:
        f.write(b'1,"a\nb"\n2,c\nxx,d\n')
    _create(t_env, "gz_csv", tmp_path / "z.csv.gz", "a INT, b STRING")
    assert "z.csv.gz, line 4: cannot parse field 'a' (INT)" in _failure(t_env, "gz_csv")
    _create(t_env, "gz_lenient", tmp_path / "z.csv.gz", "a INT, b STRING", extra=", 'csv.ignore-parse-errors'='true'")
    assert sorted_rows(t_env.from_path("gz_lenient")) == [(None, "d"), (1, "a\nb"), (2, "c")]


def test_csv_failure_line_counts_the_skipped_header(t_env, tmp_path):
    # FLIP-38's CsvTableSource(ignore_first_line=True): the header is line 1, the bad row line 3.
    (tmp_path / "h.csv").write_text("id,name\n1,a\nnope,b\n")
    t_env.register_table_source("with_header", CsvTableSource(
        str(tmp_path / "h.csv"), ["id", "name"], [DataTypes.INT(), DataTypes.STRING()], ignore_first_line=True))
    message = _failure(t_env, "with_header")
    assert "h.csv, line 3: cannot parse field 'id' (INT)" in message and "'nope,b'" in message


def test_csv_array_element_that_cannot_be_parsed(t_env, tmp_path):
    # PyFlink 2.3 (measured): the job fails at field b; with ignore-parse-errors the element is NULL.
    (tmp_path / "arr.csv").write_text("1,2;x\n2,3;4\n")
    _create(t_env, "bad_array", tmp_path / "arr.csv", "a INT, b ARRAY<INT>")
    assert "arr.csv, line 1: cannot parse field 'b' (ARRAY<INT>)" in _failure(t_env, "bad_array")
    _create(t_env, "lenient_array", tmp_path / "arr.csv", "a INT, b ARRAY<INT>", extra=", 'csv.ignore-parse-errors'='true'")
    assert sorted_rows(t_env.from_path("lenient_array")) == [(1, [2, None]), (2, [3, 4])]
    assert t_env.get_metrics()["lenient_array.nulled-parse-errors"] == 1


def test_json_failure_names_file_line_and_field(t_env, tmp_path):
    # Blank lines count as lines: the mistyped record is on line 4, the broken one on line 2.
    (tmp_path / "a.json").write_text('{"a": 1, "b": "x"}\n\n\n{"a": "oops", "b": "y"}\n')
    _create(t_env, "bad_json", tmp_path / "a.json", "a INT, b STRING", fmt="json")
    assert _failure(t_env, "bad_json") == (
        f"Failed to deserialize JSON '{{\"a\": \"oops\", \"b\": \"y\"}}' of table 'bad_json' in file {tmp_path}/a.json, "
        "line 4: cannot parse field 'a' (INT). Set 'json.ignore-parse-errors' = 'true' to skip such rows.")
    (tmp_path / "b.json").write_text('{"a": 1}\n{not json\n')
    _create(t_env, "broken_json", tmp_path / "b.json", "a INT, b STRING", fmt="json")
    assert "b.json, line 2: not a JSON object" in _failure(t_env, "broken_json")


# --- ignore-parse-errors: skipped and counted -----------------------------------------------------

def test_csv_ignore_parse_errors_counts_skipped_and_nulled_rows(t_env, tmp_path):
    src = tmp_path / "dir x+y"  # a name that URI encoding changes
    src.mkdir()
    # Hand count: 'xx,b' (unparsable INT) and '4' (missing field) are kept with NULL: 2 nulled;
    # '3,c,extra' (too many fields) and the record opened by '8,"never closed' (it swallows line 9)
    # are dropped: 2 skipped. PyFlink 2.3 gives the same rows (cases bad_int_ignore, arity_ignore,
    # unclosed_quote_ignore).
    (src / "f1.csv").write_text("1,a\nxx,b\n3,c,extra\n4\n5,e\n")
    (src / "f2.csv").write_text('7,g\n8,"never closed\n9,i\n')
    _create(t_env, "lenient_counted", src, "a INT, b STRING", extra=", 'csv.ignore-parse-errors'='true'")
    assert sorted_rows(t_env.from_path("lenient_counted")) == [(None, "b"), (1, "a"), (4, None), (5, "e"), (7, "g")]
    metrics = t_env.get_metrics()
    assert metrics["lenient_counted.skipped-parse-errors"] == 2
    assert metrics["lenient_counted.nulled-parse-errors"] == 2
    # Counts are totals of the process: a second read adds the same again; COUNT(*) scans count too.
    assert [tuple(r) for r in t_env.execute_sql("SELECT COUNT(*) FROM lenient_counted").collect()] == [(5,)]
    assert t_env.get_metrics()["lenient_counted.skipped-parse-errors"] == 4


def test_json_ignore_parse_errors_counts_skipped_and_nulled_rows(t_env, tmp_path):
    # Hand count: a mistyped field keeps the row with NULL (1 nulled); '{not json' and '[1, 2]' are
    # not objects and are dropped (2 skipped). PyFlink 2.3: cases json_ignore, json_non_object_ignore.
    (tmp_path / "j.json").write_text('{"a": 1, "b": "x"}\n{"a": "oops", "b": "y"}\n{not json\n[1, 2]\n{"a": 4}\n')
    _create(t_env, "lenient_json", tmp_path / "j.json", "a INT, b STRING", fmt="json",
            extra=", 'json.ignore-parse-errors'='true'")
    assert sorted_rows(t_env.from_path("lenient_json")) == [(None, "y"), (1, "x"), (4, None)]
    metrics = t_env.get_metrics()
    assert metrics["lenient_json.skipped-parse-errors"] == 2 and metrics["lenient_json.nulled-parse-errors"] == 1


def test_good_input_counts_nothing(t_env, tmp_path):
    (tmp_path / "ok.csv").write_text('1,"a\nb"\n2,c\n')
    _create(t_env, "clean_csv", tmp_path / "ok.csv", "a INT, b STRING", extra=", 'csv.ignore-parse-errors'='true'")
    assert sorted_rows(t_env.from_path("clean_csv")) == [(1, "a\nb"), (2, "c")]
    metrics = t_env.get_metrics()
    assert metrics.get("clean_csv.skipped-parse-errors", 0) == 0 and metrics.get("clean_csv.nulled-parse-errors", 0) == 0


# --- quoted values holding line breaks -------------------------------------------------------------

def test_multi_line_values_round_trip_through_the_csv_sink(t_env, tmp_path):
    out = tmp_path / "out"
    _create(t_env, "ml_sink", out, "a INT, b STRING")
    t_env.execute_sql("INSERT INTO ml_sink VALUES (1, 'x' || CHR(10) || 'y'), (2, 'p' || CHR(13) || CHR(10) || 'q'), "
                      "(3, 'plain')").wait()
    files = [f for f in glob.glob(f"{out}/**", recursive=True)
             if os.path.isfile(f) and not os.path.basename(f).startswith((".", "_"))]
    # PyFlink 2.3 writes these records (probe_csv_multiline.py, sink_bytes); files may split them.
    data = b"".join(open(f, "rb").read() for f in files)
    records = [b'1,"x\ny"\n', b'2,"p\r\nq"\n', b"3,plain\n"]
    assert len(data) == sum(len(r) for r in records) and all(r in data for r in records)
    assert sorted_rows(t_env.from_path("ml_sink")) == [(1, "x\ny"), (2, "p\r\nq"), (3, "plain")]
    assert sorted(tuple(r) for r in t_env.execute_sql("SELECT * FROM ml_sink").collect()) == \
        [(1, "x\ny"), (2, "p\r\nq"), (3, "plain")]


def test_hand_written_multi_line_values_lf_and_crlf(t_env, tmp_path):
    # PyFlink 2.3: cases lf_inside_quotes, crlf_inside_quotes, lf_inside_quotes_ignore.
    (tmp_path / "lf.csv").write_bytes(b'1,"a\nb",x\n2,plain,y\n')
    (tmp_path / "crlf.csv").write_bytes(b'1,"a\r\nb",x\r\n2,plain,y\r\n')
    (tmp_path / "mixed.csv").write_bytes(b'1,"a\nb",x\nzz,bad,y\n3,"c\n\nd",z\n')
    for name, extra in (("lf", ""), ("crlf", ""), ("mixed", ", 'csv.ignore-parse-errors'='true'")):
        _create(t_env, f"ml_{name}", tmp_path / f"{name}.csv", "a INT, b STRING, c STRING", extra=extra)
    assert sorted_rows(t_env.from_path("ml_lf")) == [(1, "a\nb", "x"), (2, "plain", "y")]
    assert sorted_rows(t_env.from_path("ml_crlf")) == [(1, "a\r\nb", "x"), (2, "plain", "y")]
    # No half of a multi-line value is dropped or read as a row of its own.
    assert sorted_rows(t_env.from_path("ml_mixed")) == [(None, "bad", "y"), (1, "a\nb", "x"), (3, "c\n\nd", "z")]
    assert t_env.get_metrics().get("ml_mixed.skipped-parse-errors", 0) == 0
