"""Filesystem, print, blackhole and datagen connectors: real files in and out, nothing lost.

Expected file contents marked "PyFlink 2.3" were measured by running the same INSERT on
apache-flink 2.3.0 (batch mode, parallelism 1); the rest are hand-computed.
"""

from __future__ import annotations

import glob
import json
import os
from pathlib import Path
from typing import List

import pandas as pd
import pytest

from pyflink_table import TableException, ValidationException

from conftest import sorted_rows
from pyflink_table.expressions import col


def data_files(directory: Path) -> List[str]:
    """Visible data files (Flink and Spark ignore names starting with '.' or '_')."""
    out = []
    for f in glob.glob(str(directory) + "/**", recursive=True):
        rel = os.path.relpath(f, directory)
        if os.path.isfile(f) and not any(p.startswith((".", "_")) for p in rel.split(os.sep)):
            out.append(f)
    return sorted(out)


def read_all(directory: Path) -> str:
    return "".join(open(f).read() for f in data_files(directory))


ROW_SQL = """SELECT * FROM VALUES (1, 'Hi', CAST(1.5 AS DOUBLE), TRUE, TIMESTAMP_NTZ '2020-01-02 03:04:05.123',
  DATE '2020-01-02', 'a,b', 'q"x', '', CAST(NULL AS STRING), CAST(1e20 AS DOUBLE), CAST(0.1 AS FLOAT), ARRAY(1, 2), ' sp ')"""
COLUMNS = """(a INT, b STRING, c DOUBLE, d BOOLEAN, ts TIMESTAMP(3), dt DATE, s1 STRING, s2 STRING, s3 STRING,
  s4 STRING, big DOUBLE, f FLOAT, arr ARRAY<INT>, sp STRING)"""


def test_csv_and_json_written_as_flink_writes_them(t_env, tmp_path):
    for fmt in ("csv", "json"):
        t_env.execute_sql(f"CREATE TABLE out_{fmt} {COLUMNS} WITH ('connector'='filesystem', "
                          f"'path'='{tmp_path}/{fmt}', 'format'='{fmt}')")
        t_env.execute_sql(f"INSERT INTO out_{fmt} {ROW_SQL}").wait()
    # PyFlink 2.3: no header, Jackson quoting (any character up to ',' forces quotes), '' for NULL,
    # arrays joined with ';', doubles in Java notation.
    assert read_all(tmp_path / "csv") == \
        '1,Hi,1.5,true,"2020-01-02 03:04:05.123",2020-01-02,"a,b","q""x",,,1.0E20,0.1,1;2," sp "\n'
    # PyFlink 2.3: nulls written as null, SQL timestamp format (the same line byte for byte).
    assert json.loads(read_all(tmp_path / "json")) == {
        "a": 1, "b": "Hi", "c": 1.5, "d": True, "ts": "2020-01-02 03:04:05.123", "dt": "2020-01-02", "s1": "a,b",
        "s2": 'q"x', "s3": "", "s4": None, "big": 1.0e20, "f": 0.1, "arr": [1, 2], "sp": " sp "}
    assert read_all(tmp_path / "json") == ('{"a":1,"b":"Hi","c":1.5,"d":true,"ts":"2020-01-02 03:04:05.123",'
                                           '"dt":"2020-01-02","s1":"a,b","s2":"q\\"x","s3":"","s4":null,"big":1.0E20,'
                                           '"f":0.1,"arr":[1,2],"sp":" sp "}\n')
    # Both read back to the same row (FLOAT 0.1 comes back as the float32 value).
    for fmt in ("csv", "json"):
        (row,) = [tuple(r) for r in t_env.execute_sql(f"SELECT a, b, ts, s3, s4, arr, sp FROM out_{fmt}").collect()]
        assert row[:2] == (1, "Hi") and str(row[2]) == "2020-01-02 03:04:05.123000"
        assert row[3:] == ("", "" if fmt == "csv" else None, [1, 2], " sp ")


def test_csv_read_semantics_and_options(t_env, tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "a.csv").write_text('1,,x\n,"",y\n3,"a,b",\n')
    (src / "b.csv").write_text("#comment,1\n4|ignored,z,w\n")
    t_env.execute_sql(f"CREATE TABLE t1 (a INT, b STRING, c STRING) WITH ('connector'='filesystem', "
                      f"'path'='{src}/a.csv', 'format'='csv')")
    # PyFlink 2.3: an empty field is '' for STRING and NULL for INT.
    assert sorted_rows(t_env.from_path("t1")) == [(None, "", "y"), (1, "", "x"), (3, "a,b", "")]
    # A directory reads all its files; comments skipped, and with ignore-parse-errors an unparsable
    # INT field reads as NULL (PyFlink 2.3, case comment_and_bad_ignore of probe_csv_multiline.py).
    t_env.execute_sql(f"CREATE TABLE t2 (a INT, b STRING, c STRING) WITH ('connector'='filesystem', "
                      f"'path'='{src}', 'format'='csv', 'csv.allow-comments'='true', 'csv.ignore-parse-errors'='true')")
    assert sorted_rows(t_env.from_path("t2")) == [(None, "", "y"), (None, "z", "w"), (1, "", "x"), (3, "a,b", "")]
    # Other delimiter, null literal and quote character.
    (tmp_path / "p.txt").write_text("1|N|'x|y'\n")
    t_env.execute_sql(f"CREATE TABLE t3 (a INT, b STRING, c STRING) WITH ('connector'='filesystem', "
                      f"'path'='{tmp_path}/p.txt', 'format'='csv', 'csv.field-delimiter'='|', "
                      f"'csv.null-literal'='N', 'csv.quote-character'='''')")
    assert sorted_rows(t_env.from_path("t3")) == [(1, None, "x|y")]


def test_malformed_rows_fail_naming_file_and_row_or_are_skipped(t_env, tmp_path):
    (tmp_path / "bad.csv").write_text("1,a\nxx,b\n")
    t_env.execute_sql(f"CREATE TABLE bad (a INT, b STRING) WITH ('connector'='filesystem', "
                      f"'path'='{tmp_path}/bad.csv', 'format'='csv')")
    with pytest.raises(TableException) as e:
        t_env.execute_sql("SELECT * FROM bad").collect()
    message = str(e.value)
    assert "bad.csv" in message and "'xx,b'" in message and "'a'" in message
    assert "Traceback" not in message and "py4j" not in message
    t_env.execute_sql(f"CREATE TABLE lenient (a INT, b STRING) WITH ('connector'='filesystem', "
                      f"'path'='{tmp_path}/bad.csv', 'format'='csv', 'csv.ignore-parse-errors'='true')")
    # PyFlink 2.3 keeps the row with NULL in the field it cannot parse (probe_csv_multiline.py).
    assert sorted_rows(t_env.from_path("lenient")) == [(None, "b"), (1, "a")]
    (tmp_path / "bad.json").write_text('{"a": 1, "b": "x"}\n{"a": "oops", "b": "y"}\n{not json\n')
    t_env.execute_sql(f"CREATE TABLE badj (a INT, b STRING) WITH ('connector'='filesystem', "
                      f"'path'='{tmp_path}/bad.json', 'format'='json')")
    with pytest.raises(TableException) as e:
        t_env.execute_sql("SELECT * FROM badj").collect()
    assert "bad.json" in str(e.value) and "JSON" in str(e.value)
    t_env.execute_sql(f"CREATE TABLE lenientj (a INT, b STRING) WITH ('connector'='filesystem', "
                      f"'path'='{tmp_path}/bad.json', 'format'='json', 'json.ignore-parse-errors'='true')")
    # PyFlink 2.3: a mistyped field reads as NULL, a line that is not JSON is dropped.
    assert sorted_rows(t_env.from_path("lenientj")) == [(None, "y"), (1, "x")]


def test_parquet_orc_raw_round_trip_and_schema_mismatch(t_env, tmp_path):
    src = t_env.from_elements([(1, "a", 1.5), (2, None, -2.0)], ["id", "name", "score"])
    for fmt in ("parquet", "orc"):
        codec = "'parquet.compression'='GZIP'" if fmt == "parquet" else "'orc.compress'='ZLIB'"
        t_env.execute_sql(f"CREATE TABLE {fmt}_t (id BIGINT, name STRING, score DOUBLE) WITH ("
                          f"'connector'='filesystem', 'path'='{tmp_path}/{fmt}', 'format'='{fmt}', {codec})")
        src.execute_insert(f"{fmt}_t").wait()
        assert sorted_rows(t_env.from_path(f"{fmt}_t")) == [(1, "a", 1.5), (2, None, -2.0)]
        assert data_files(tmp_path / fmt)
    # pandas reads the parquet files independently.
    frame = pd.concat(pd.read_parquet(f) for f in data_files(tmp_path / "parquet"))
    assert sorted(frame["id"].tolist()) == [1, 2]
    import pyarrow.parquet as pq  # the requested codec is the one in the file
    assert pq.ParquetFile(data_files(tmp_path / "parquet")[0]).metadata.row_group(0).column(0).compression == "GZIP"
    # A DDL type that does not match the file names the column.
    t_env.execute_sql(f"CREATE TABLE wrong (id BIGINT, name INT, score DOUBLE) WITH ("
                      f"'connector'='filesystem', 'path'='{tmp_path}/parquet', 'format'='parquet')")
    with pytest.raises(TableException) as e:
        t_env.execute_sql("SELECT * FROM wrong").collect()
    assert "name" in str(e.value)
    # raw: one line per row.
    (tmp_path / "lines.txt").write_text("first line\nsecond, with comma\n")
    t_env.execute_sql(f"CREATE TABLE raw_in (line STRING) WITH ('connector'='filesystem', "
                      f"'path'='{tmp_path}/lines.txt', 'format'='raw')")
    t_env.execute_sql(f"CREATE TABLE raw_out (line STRING) WITH ('connector'='filesystem', "
                      f"'path'='{tmp_path}/raw_out', 'format'='raw')")
    t_env.execute_sql("INSERT INTO raw_out SELECT UPPER(line) FROM raw_in").wait()
    assert sorted(read_all(tmp_path / "raw_out").splitlines()) == ["FIRST LINE", "SECOND, WITH COMMA"]


def test_partitioned_write_and_read(t_env, tmp_path):
    t_env.execute_sql(f"CREATE TABLE parts (name STRING, n BIGINT, day STRING) PARTITIONED BY (day) WITH ("
                      f"'connector'='filesystem', 'path'='{tmp_path}/parts', 'format'='csv')")
    t_env.from_elements([("a", 1, "d1"), ("b", 2, "d2"), ("c", 3, "d1")], ["name", "n", "day"]) \
        .execute_insert("parts").wait()
    assert sorted(os.listdir(tmp_path / "parts")) == ["day=d1", "day=d2"]
    # Partition values live in the directory names, not in the files.
    assert sorted(read_all(tmp_path / "parts" / "day=d1").splitlines()) == ["a,1", "c,3"]
    assert sorted_rows(t_env.from_path("parts")) == [("a", 1, "d1"), ("b", 2, "d2"), ("c", 3, "d1")]
    # INSERT OVERWRITE replaces only the partitions it writes (Flink's dynamic overwrite).
    t_env.execute_sql("INSERT OVERWRITE parts SELECT 'z', 9, 'd2'").wait()
    assert sorted_rows(t_env.from_path("parts")) == [("a", 1, "d1"), ("c", 3, "d1"), ("z", 9, "d2")]
    # Static partition.
    t_env.execute_sql("INSERT INTO parts PARTITION (day='d3') SELECT 'y', 8").wait()
    assert read_all(tmp_path / "parts" / "day=d3") == "y,8\n"


def test_append_overwrite_and_failed_jobs_lose_nothing(t_env, tmp_path):
    out = tmp_path / "out"
    t_env.execute_sql(f"CREATE TABLE sink (a INT) WITH ('connector'='filesystem', 'path'='{out}', 'format'='csv')")
    t_env.execute_sql("INSERT INTO sink VALUES (1), (2)").wait()
    t_env.execute_sql("INSERT INTO sink VALUES (3)").wait()
    assert sorted(read_all(out).split()) == ["1", "2", "3"]
    before = {f: open(f).read() for f in data_files(out)}
    # The cast fails on the third row, in the middle of the job.
    t_env.create_temporary_view("strings", t_env.from_elements([("7",), ("8",), ("x",)], ["s"]))
    for verb in ("INTO", "OVERWRITE"):
        with pytest.raises(Exception):
            t_env.execute_sql(f"INSERT {verb} sink SELECT CAST(s AS INT) FROM strings").wait()
        assert {f: open(f).read() for f in data_files(out)} == before
        assert [p for p in os.listdir(tmp_path) if p != "out"] == []  # no staging left behind
    t_env.execute_sql("INSERT OVERWRITE sink VALUES (42)").wait()
    assert read_all(out) == "42\n"


def test_insert_validation_happens_before_anything_runs(t_env, tmp_path):
    t_env.execute_sql(f"CREATE TABLE sink2 (a INT, b STRING) WITH ('connector'='filesystem', "
                      f"'path'='{tmp_path}/s2', 'format'='csv')")
    with pytest.raises(ValidationException, match="nope"):
        t_env.execute_sql("INSERT INTO nope VALUES (1)")
    with pytest.raises(ValidationException, match="the sink has 2"):
        t_env.execute_sql("INSERT INTO sink2 VALUES (1, 'a', 'extra')")
    with pytest.raises(ValidationException, match="'a'"):
        t_env.execute_sql("INSERT INTO sink2 VALUES ('not an int', 'a')")
    with pytest.raises(ValidationException, match="sink2"):
        t_env.from_elements([(1,)], ["a"]).execute_insert("sink2")
    assert not (tmp_path / "s2").exists()


def test_unknown_connector_format_option_fail_when_used(t_env, tmp_path):
    # PyFlink 2.3 (measured): CREATE TABLE with an unknown connector, format or option succeeds, and
    # so do from_path(...) and select(...) on it; planning a query that reads the table (sql_query,
    # explain, execute, an INSERT's query, explain_sql of an INSERT) raises a ValidationException
    # "Unable to create a source for reading table ...", writing it "Unable to create a sink for
    # writing table ...", each naming the connector's complaint.
    bad = {
        "u1": ("'connector'='nope'", "Known connectors: blackhole, datagen, filesystem, print"),
        "u2": (f"'connector'='filesystem', 'path'='{tmp_path}', 'format'='x'", "Known formats: csv, json, orc, parquet, raw"),
        "u3": (f"'connector'='filesystem', 'path'='{tmp_path}', 'format'='csv', 'csv.bogus'='1'",
               "'csv.bogus'.*csv.field-delimiter"),
        "u4": ("'connector'='filesystem', 'format'='csv'", "'path'"),
        # Options we accept by name but cannot honour with other values are refused, not ignored.
        "u5": (f"'connector'='filesystem', 'path'='{tmp_path}', 'format'='json', 'json.fail-on-missing-field'='true'",
               "json.fail-on-missing-field"),
        "u6": (f"'connector'='filesystem', 'path'='{tmp_path}', 'format'='csv', 'partition.default-name'='x'",
               "partition.default-name"),
    }
    for name, (options, _) in bad.items():
        t_env.execute_sql(f"CREATE TABLE {name} (a INT) WITH ({options})")
    assert sorted(t_env.list_tables()) == sorted(bad)
    t_env.execute_sql(f"CREATE TABLE ok_sink (a INT) WITH ('connector'='filesystem', 'path'='{tmp_path / 'ok'}', "
                      "'format'='csv')")
    for name, (_, complaint) in bad.items():
        source = f"^Unable to create a source for reading table .*{name}.*{complaint}"
        sink = f"^Unable to create a sink for writing table .*{name}.*{complaint}"
        table = t_env.from_path(name).select(col("a"))  # not planned yet
        for plan in (lambda: t_env.sql_query(f"SELECT * FROM {name}"), table.explain,
                     lambda: table.execute().collect(), table.to_pandas,
                     lambda: t_env.execute_sql(f"SELECT COUNT(*) FROM {name}").collect(),  # reads no column
                     lambda: t_env.execute_sql(f"INSERT INTO ok_sink SELECT a FROM {name}").wait(),
                     lambda: t_env.explain_sql(f"INSERT INTO ok_sink SELECT a FROM {name}")):
            with pytest.raises(ValidationException, match=source):
                plan()
        for insert in (lambda: t_env.execute_sql(f"INSERT INTO {name} VALUES (1)"),
                       lambda: t_env.explain_sql(f"INSERT INTO {name} VALUES (1)")):
            with pytest.raises(ValidationException, match=sink):
                insert()
    assert not (tmp_path / "ok").exists() or not any((tmp_path / "ok").iterdir())
    # The sink's own plans are unaffected (explain_sql of an INSERT explains its query).
    assert "Project" in t_env.explain_sql("INSERT INTO ok_sink SELECT 1")
    # An unknown column type is still refused when the table is created, as in Flink.
    with pytest.raises(ValidationException, match="FOO"):
        t_env.execute_sql("CREATE TABLE u7 (a FOO) WITH ('connector'='print')")


def test_print_blackhole_datagen(t_env, capsys):
    t_env.execute_sql("CREATE TABLE pr (a INT, b STRING, ts TIMESTAMP(3), d DOUBLE, n STRING, arr ARRAY<INT>, "
                      "dcm DECIMAL(10, 2), bo BOOLEAN, dt DATE) WITH ('connector'='print')")
    t_env.execute_sql("INSERT INTO pr SELECT * FROM VALUES (1, 'Hi', TIMESTAMP_NTZ '2020-01-02 03:04:05.123', 1.5D, "
                      "CAST(NULL AS STRING), ARRAY(1, 2), CAST(12.30 AS DECIMAL(10, 2)), TRUE, DATE '2020-01-02')").wait()
    t_env.execute_sql("CREATE TABLE pr2 (a INT) WITH ('connector'='print', 'print-identifier'='ID')")
    t_env.execute_sql("INSERT INTO pr2 VALUES (7)").wait()
    # PyFlink 2.3 print connector output for the same rows.
    assert capsys.readouterr().out == "+I[1, Hi, 2020-01-02T03:04:05.123, 1.5, null, [1, 2], 12.30, true, 2020-01-02]\n" \
        "ID> +I[7]\n"
    t_env.execute_sql("CREATE TABLE bh (a INT) WITH ('connector'='blackhole')")
    t_env.execute_sql("INSERT INTO bh VALUES (1)").wait()
    assert capsys.readouterr().out == ""
    t_env.execute_sql("CREATE TABLE dg (id BIGINT, s STRING, r INT, x DOUBLE) WITH ('connector'='datagen', "
                      "'number-of-rows'='3', 'rows-per-second'='1', 'fields.id.kind'='sequence', 'fields.id.start'='5', "
                      "'fields.id.end'='100', 'fields.s.length'='4', 'fields.r.min'='1', 'fields.r.max'='3', "
                      "'fields.x.min'='0', 'fields.x.max'='1')")
    got = sorted_rows(t_env.from_path("dg"))
    assert [r[0] for r in got] == [5, 6, 7]
    assert all(len(r[1]) == 4 and all(c in "0123456789abcdef" for c in r[1]) for r in got)
    assert all(1 <= r[2] <= 3 and 0.0 <= r[3] <= 1.0 for r in got)
    # Sequence shorter than number-of-rows ends the source.
    t_env.execute_sql("CREATE TABLE dg2 (id INT) WITH ('connector'='datagen', 'number-of-rows'='10', "
                      "'fields.id.kind'='sequence', 'fields.id.start'='1', 'fields.id.end'='3')")
    assert sorted_rows(t_env.from_path("dg2")) == [(1,), (2,), (3,)]
    with pytest.raises(ValidationException, match="unbounded"):
        t_env.execute_sql("CREATE TABLE dg3 (id INT) WITH ('connector'='datagen')")
    with pytest.raises(ValidationException, match="source"):
        t_env.execute_sql("INSERT INTO dg2 VALUES (1)")


def test_decimals_written_as_flink_normalises_them(t_env, tmp_path):
    values = ["12.30", "100.00", "0.00", "-50.00", "120.00", "1000.50", "0.05"]
    rows = ", ".join(f"(CAST({v} AS DECIMAL(10, 2)), {i})" for i, v in enumerate(values))
    for fmt in ("csv", "json"):
        t_env.execute_sql(f"CREATE TABLE d_{fmt} (x DECIMAL(10, 2), i INT) WITH ('connector'='filesystem', "
                          f"'path'='{tmp_path}/{fmt}', 'format'='{fmt}')")
        t_env.execute_sql(f"INSERT INTO d_{fmt} SELECT * FROM VALUES {rows}").wait()
    # PyFlink 2.3 output for the same INSERT (BigDecimal with trailing zeros stripped).
    assert sorted(read_all(tmp_path / "csv").splitlines(), key=lambda l: int(l.split(",")[1])) == \
        ["12.3,0", "1E+2,1", "0,2", "-5E+1,3", "1.2E+2,4", "1000.5,5", "0.05,6"]
    assert sorted(read_all(tmp_path / "json").splitlines(), key=lambda l: int(l.split(":")[-1][:-1])) == \
        ['{"x":12.3,"i":0}', '{"x":1E+2,"i":1}', '{"x":0,"i":2}', '{"x":-5E+1,"i":3}', '{"x":1.2E+2,"i":4}',
         '{"x":1000.5,"i":5}', '{"x":0.05,"i":6}']
    # Both read back to the same decimals.
    for fmt in ("csv", "json"):
        got = sorted_rows(t_env.from_path(f"d_{fmt}"))
        assert [str(r[0]) for r in got][:2] == ["-50.00", "0.00"]
