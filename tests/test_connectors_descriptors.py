"""TableDescriptor / Schema / FormatDescriptor, FLIP-38 descriptors, CsvTableSource/Sink, StatementSet,
and FLIP-38's word count program. Expected rows are hand-computed from the inputs each test writes.
"""

from __future__ import annotations

import glob
import os
import tempfile

import pytest

from pyflink_table import (CsvTableSink, CsvTableSource, DataTypes, FormatDescriptor, Schema, TableConfig,
                           TableDescriptor, TableEnvironment, TableException, ValidationException)
from pyflink_table.descriptors import Csv, FileSystem, Json, OldCsv
from pyflink_table.descriptors import Schema as LegacySchema
from pyflink_table.expressions import col

from conftest import sorted_rows


def read_dir(path: str) -> list:
    lines = []
    for f in sorted(glob.glob(path + "/**", recursive=True)):
        if os.path.isfile(f) and not os.path.basename(f).startswith((".", "_")):
            lines += open(f).read().splitlines()
    return sorted(lines)


def test_table_descriptor_create_read_write(t_env, tmp_path):
    schema = Schema.new_builder() \
        .column("id", DataTypes.BIGINT()) \
        .column("name", "STRING") \
        .column_by_expression("id10", col("id") * 10) \
        .column_by_expression("upper_name", "UPPER(name)") \
        .primary_key("id") \
        .build()
    descriptor = TableDescriptor.for_connector("filesystem") \
        .schema(schema) \
        .option("path", str(tmp_path / "people")) \
        .format(FormatDescriptor.for_format("csv").option("field-delimiter", "|").build()) \
        .comment("people") \
        .build()
    assert descriptor.get_options() == {"connector": "filesystem", "path": str(tmp_path / "people"), "format": "csv",
                                        "csv.field-delimiter": "|"}
    assert descriptor.get_comment() == "people" and descriptor.get_schema() == schema
    t_env.create_temporary_table("people", descriptor)
    t_env.from_elements([(1, "ann"), (2, "bob")], ["id", "name"]).execute_insert("people").wait()
    # PyFlink 2.3 quotes text holding any character below the delimiter '|' (measured: 1|"ann").
    assert read_dir(str(tmp_path / "people")) == ['1|"ann"', '2|"bob"']
    assert sorted_rows(t_env.from_path("people")) == [(1, "ann", 10, "ANN"), (2, "bob", 20, "BOB")]
    # from_descriptor reads without registering; create_table registers a permanent table.
    assert sorted_rows(t_env.from_descriptor(descriptor).select(col("name"))) == [("ann",), ("bob",)]
    t_env.create_table("people_perm", descriptor)
    assert "people_perm" in t_env.list_tables() and "people_perm" not in t_env.list_temporary_tables()
    # execute_insert(descriptor) with the columns derived from the table; partitioned JSON.
    sink = TableDescriptor.for_connector("filesystem").option("path", str(tmp_path / "by_city")) \
        .format("json").partitioned_by("city").build()
    t_env.from_elements([(1, "x", "rome"), (2, "y", "oslo")], ["id", "name", "city"]).execute_insert(sink).wait()
    assert sorted(os.listdir(tmp_path / "by_city")) == ["city=oslo", "city=rome"]
    assert read_dir(str(tmp_path / "by_city" / "city=rome")) == ['{"id":1,"name":"x"}']
    with pytest.raises(ValidationException, match="no physical columns"):
        t_env.from_descriptor(TableDescriptor.for_connector("datagen").build())
    # metadata columns are declared as in PyFlink (reading them: tests/test_metadata_columns.py)
    assert "`m` METADATA" in str(Schema.new_builder().column_by_metadata("m", DataTypes.INT()).build())


def test_datagen_and_print_descriptors(t_env, capsys):
    source = TableDescriptor.for_connector("datagen") \
        .schema(Schema.new_builder().column("n", DataTypes.INT()).build()) \
        .option("number-of-rows", 3).option("fields.n.kind", "sequence") \
        .option("fields.n.start", 1).option("fields.n.end", 3).build()
    sink = TableDescriptor.for_connector("print").schema(Schema.new_builder().column("n", DataTypes.INT()).build()) \
        .build()
    t_env.from_descriptor(source).order_by(col("n")).execute_insert(sink).wait()
    assert capsys.readouterr().out == "+I[1]\n+I[2]\n+I[3]\n"


def test_flip38_connect_sources_sinks_and_execute(t_env, tmp_path):
    src = tmp_path / "in.csv"
    src.write_text("a;1\nb;2\n")
    t_env.connect(FileSystem().path(str(src))) \
        .with_format(OldCsv().field_delimiter(";").field("w", DataTypes.STRING()).field("n", DataTypes.INT())) \
        .with_schema(LegacySchema().field("w", DataTypes.STRING()).field("n", DataTypes.INT())) \
        .in_append_mode() \
        .register_table_source("src")
    out_file = str(tmp_path / "out.csv")
    t_env.connect(FileSystem().path(out_file)) \
        .with_format(Csv().field_delimiter(",")) \
        .with_schema(LegacySchema().field("w", DataTypes.STRING).field("n", DataTypes.INT)) \
        .in_append_mode() \
        .register_table_sink("dst")
    t_env.scan("src").select(col("w"), col("n") + 1).insert_into("dst")
    t_env.execute("copy job")
    # FLIP-38 sinks write one file at the path.
    assert os.path.isfile(out_file) and sorted(open(out_file).read().splitlines()) == ["a,2", "b,3"]
    t_env.sql_update("INSERT INTO dst SELECT w, n FROM src WHERE n = 1")
    assert sorted(open(out_file).read().splitlines()) == ["a,1", "a,2", "b,3"]
    # Json descriptor and create_temporary_table.
    t_env.connect(FileSystem().path(str(tmp_path / "j"))) \
        .with_format(Json().ignore_parse_errors()) \
        .with_schema(LegacySchema().field("w", "STRING")) \
        .create_temporary_table("j")
    t_env.from_path("src").select(col("w")).execute_insert("j").wait()
    assert sorted_rows(t_env.from_path("j")) == [("a",), ("b",)]
    # CsvTableSource / CsvTableSink.
    (tmp_path / "h.csv").write_text("word,count\nx,5\n")
    t_env.register_table_source("h", CsvTableSource(str(tmp_path / "h.csv"), ["word", "count"],
                                                    [DataTypes.STRING(), DataTypes.BIGINT()], ignore_first_line=True))
    t_env.register_table_sink("hs", CsvTableSink(["word", "count"], [DataTypes.STRING(), DataTypes.BIGINT()],
                                                 str(tmp_path / "hs.csv"), field_delimiter="|"))
    t_env.from_path("h").execute_insert("hs").wait()
    assert open(tmp_path / "hs.csv").read() == '"x"|5\n'  # quoting as PyFlink 2.3 with '|' (measured)
    with pytest.raises(TableException, match="in_upsert_mode"):
        t_env.connect(FileSystem().path(out_file)).in_upsert_mode()


def test_statement_set(t_env, tmp_path):
    t_env.execute_sql(f"CREATE TABLE s1 (a BIGINT) WITH ('connector'='filesystem', 'path'='{tmp_path}/s1', "
                      "'format'='csv')")
    t_env.execute_sql(f"CREATE TABLE s2 (a BIGINT, b STRING) WITH ('connector'='filesystem', 'path'='{tmp_path}/s2', "
                      "'format'='csv')")
    source = t_env.from_elements([(1, "x"), (2, "y")], ["a", "b"])
    t_env.create_temporary_view("source", source)
    stmt_set = t_env.create_statement_set()
    stmt_set.add_insert("s1", source.select(col("a"))) \
        .add_insert_sql("INSERT INTO s2 SELECT a * 10, b FROM source")
    explained = stmt_set.explain()
    assert "INSERT INTO s1" in explained and "INSERT INTO s2" in explained
    # Invalid inserts are refused when added, before anything runs.
    with pytest.raises(ValidationException):
        stmt_set.add_insert("s1", source)
    with pytest.raises(ValidationException):
        stmt_set.add_insert_sql("INSERT INTO nope SELECT 1")
    stmt_set.execute().wait()
    assert read_dir(str(tmp_path / "s1")) == ["1", "2"]
    assert read_dir(str(tmp_path / "s2")) == ["10,x", "20,y"]


# --- FLIP-38's word count (seed 002, "WordCount"): the functions behind its `from ... import`
# line are elided in the seed, so they are written here with the current UDF API.

def _word_count_functions():  # type: ignore[no-untyped-def]
    from pyflink_table.udf import AggregateFunction, ScalarFunction, TableFunction, udaf, udf, udtf

    class _Trim(ScalarFunction):
        def eval(self, s):  # type: ignore[no-untyped-def]
            return s.strip()

    class _Split(TableFunction):
        def eval(self, s):  # type: ignore[no-untyped-def]
            for w in s.split(" "):
                yield w

    class _Count(AggregateFunction):
        def create_accumulator(self):  # type: ignore[no-untyped-def]
            return [0]

        def accumulate(self, acc, param):  # type: ignore[no-untyped-def]
            if param is not None:
                acc[0] += 1

        def get_value(self, acc):  # type: ignore[no-untyped-def]
            return acc[0]

    return (lambda: udf(_Trim(), result_type=DataTypes.STRING()),
            lambda: udaf(_Count(), result_type=DataTypes.INT(), accumulator_type=DataTypes.ARRAY(DataTypes.INT())),
            lambda: udtf(_Split(), result_types=[DataTypes.STRING()]))


def test_flip38_word_count(tmp_path, monkeypatch, _spark_started):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    TrimFunction, CountAggregateFunction, SplitTableFunction = _word_count_functions()
    # ---- the seed's program from here on, unchanged ----
    tmp_dir = tempfile.gettempdir()
    source_path = tmp_dir + '/streaming.csv'
    if os.path.isfile(source_path):
        os.remove(source_path)
    with open(source_path, 'w') as f:
        lines = 'hi guys\n' + 'hello guys\n'
        f.write(lines)
        print(lines)
        f.close()
    t_config = TableConfig.Builder().as_streaming_execution().set_parallelism(1).build()
    t_env = TableEnvironment.get_table_environment(t_config)
    field_names = ["a"]
    field_types = [DataTypes.STRING]
    # register Source table in table environment
    t_env.register_table_source(
        "Source",
        CsvTableSource(source_path, field_names, field_types))
    # register Results table in table environment
    # using connector API
    schema = LegacySchema() \
        .field("a", DataTypes.STRING) \
        .field("b", DataTypes.INT)
    format = Csv() \
        .field_delimiter(",") \
        .field("a", DataTypes.STRING) \
        .field("b", DataTypes.INT)
    tmp_dir = tempfile.gettempdir()
    tmp_csv = tmp_dir + '/streaming2.csv'
    if os.path.isfile(tmp_csv):
        os.remove(tmp_csv)
    connector = FileSystem() \
        .path(tmp_csv)
    t_env.connect(connector) \
        .with_format(format) \
        .with_schema(schema) \
        .in_append_mode() \
        .register_table_sink("Results")
    t = t_env.scan("Source")
    my_udf = TrimFunction()
    t_env.register_function('trim', my_udf)
    my_udtf = SplitTableFunction()
    t_env.register_function('split', my_udtf)
    my_udaf = CountAggregateFunction()
    t_env.register_function('my_count', my_udaf)
    t.join_lateral("split(a) as (word)").select("trim(word) as word")\
        .group_by("word").select("word, my_count(word)")\
        .insert_into("Results")
    t_env.execute()
    with open(tmp_csv, 'r') as f:
        lines = f.read()
        print(lines)
    # ---- end of the seed's program ----
    assert sorted(lines.splitlines()) == ["guys,2", "hello,1", "hi,1"]


def test_unknown_connector_kept_by_catalog_refused_when_used(t_env):
    # PyFlink 2.3 (measured): a table of the unknown connector 'fake' is created, its catalog entry
    # gives back the declared schema and options, a second create names the path, and only reading
    # (or writing) the table fails.
    from pyflink_table.catalog import ObjectPath

    schema = Schema.new_builder().column("f0", DataTypes.INT()).build()
    descriptor = TableDescriptor.for_connector("fake").schema(schema).option("a", "Test").build()
    t_env.create_table("T", descriptor)
    catalog = t_env.get_catalog(t_env.get_current_catalog())
    path = ObjectPath(t_env.get_current_database(), "T")
    assert catalog.table_exists(path)
    entry = catalog.get_table(path)
    assert entry.get_unresolved_schema() == schema
    assert entry.get_options() == {"connector": "fake", "a": "Test"}
    t_env.create_table("T", descriptor, True)
    with pytest.raises(ValidationException,
                       match="Could not execute CreateTable in path `default_catalog`.`default_database`.`T`"):
        t_env.create_table("T", descriptor)
    with pytest.raises(ValidationException, match="does not exist"):
        catalog.get_table(ObjectPath(t_env.get_current_database(), "nope"))
    assert t_env.from_path("T").get_schema().get_field_names() == ["f0"]
    with pytest.raises(ValidationException, match="Unable to create a source for reading table.*'fake'"):
        t_env.from_path("T").execute().collect()
    with pytest.raises(ValidationException, match="Unable to create a source for reading table.*'fake'"):
        t_env.from_descriptor(descriptor).execute().collect()
    with pytest.raises(ValidationException, match="Unable to create a sink for writing table.*'fake'"):
        t_env.from_elements([(1,)], ["f0"]).execute_insert("T")
