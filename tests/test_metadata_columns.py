"""Metadata columns (``METADATA FROM 'key'``): declared in DDL and in ``Schema``, read from the
filesystem connector's files, refused where a connector cannot supply them. Expected values are
hand-computed from the files written here; printed forms and messages were measured on PyFlink 2.3."""

from __future__ import annotations

import datetime
import os
from typing import Any

import pytest

from pyflink_table import DataTypes, Schema, TableDescriptor, TableEnvironment
from pyflink_table.catalog import ObjectPath
from pyflink_table.errors import ValidationException
from pyflink_table.expressions import call_sql, col

from conftest import sorted_rows

MTIME = 1700000000.5  # seconds since the epoch, set on the file below


def _files(tmp_path: Any) -> str:
    directory = os.path.join(str(tmp_path), "data")
    os.makedirs(directory)
    path = os.path.join(directory, "a.csv")
    with open(path, "w") as f:
        f.write("1,x\n2,y\n")
    os.utime(path, (MTIME, MTIME))
    return directory


def test_schema_prints_metadata_columns_as_pyflink() -> None:
    # PyFlink 2.3's str() of the schema of its own test_schema_basic, plus a key with a quote.
    schema = Schema.new_builder() \
        .from_schema(Schema.new_builder().from_fields(["d"], [DataTypes.STRING()]).build()) \
        .primary_key_named("primary_constraint", "id") \
        .column("id", DataTypes.INT().not_null()) \
        .column_by_metadata("topic", DataTypes.STRING(), None, True) \
        .column_by_expression("ts", call_sql("orig_ts - INTERVAL '60' MINUTE")) \
        .column_by_metadata("orig_ts", DataTypes.TIMESTAMP(3), "timestamp") \
        .column_by_metadata("q", "STRING", "it's") \
        .watermark("ts", "ts - INTERVAL '5' SECOND") \
        .build()
    assert str(schema) == """(
  `d` STRING,
  `id` INT NOT NULL,
  `topic` METADATA VIRTUAL,
  `ts` AS [orig_ts - INTERVAL '60' MINUTE],
  `orig_ts` METADATA FROM 'timestamp',
  `q` METADATA FROM 'it''s',
  WATERMARK FOR `ts` AS [ts - INTERVAL '5' SECOND],
  CONSTRAINT `primary_constraint` PRIMARY KEY (`id`) NOT ENFORCED
)"""


def test_filesystem_metadata_in_ddl(t_env: TableEnvironment, tmp_path: Any) -> None:
    directory = _files(tmp_path)
    t_env.execute_sql(f"""CREATE TABLE t (a INT, b STRING,
        `file.path` STRING NOT NULL METADATA VIRTUAL,
        fname STRING METADATA FROM 'file.name' VIRTUAL,
        fsize BIGINT NOT NULL METADATA FROM 'file.size' VIRTUAL,
        mt TIMESTAMP_LTZ(3) NOT NULL METADATA FROM 'file.modification-time' VIRTUAL)
        WITH ('connector' = 'filesystem', 'path' = '{directory}', 'format' = 'csv')""")
    t_env.get_config().set("table.local-time-zone", "UTC")
    path = os.path.join(directory, "a.csv")
    mtime = datetime.datetime(2023, 11, 14, 22, 13, 20, 500000)  # MTIME in UTC
    got = sorted_rows(t_env.sql_query("SELECT * FROM t"))
    assert [r[:5] for r in got] == [(1, "x", path, "a.csv", 8), (2, "y", path, "a.csv", 8)]
    assert [r[5].replace(tzinfo=None) for r in got] == [mtime, mtime]
    # metadata columns feed computed columns and the Table API like any column
    assert sorted_rows(t_env.from_path("t").select(col("fname"), col("a") + col("fsize"))) == \
        [("a.csv", 9), ("a.csv", 10)]


def test_filesystem_metadata_in_a_descriptor(t_env: TableEnvironment, tmp_path: Any) -> None:
    directory = _files(tmp_path)
    descriptor = TableDescriptor.for_connector("filesystem") \
        .schema(Schema.new_builder().column("a", DataTypes.INT()).column("b", DataTypes.STRING())
                .column_by_metadata("n", DataTypes.STRING(), "file.name", True)
                .column_by_metadata("file.size", DataTypes.INT(), is_virtual=True).build()) \
        .option("path", directory).format("csv").build()
    assert sorted_rows(t_env.from_descriptor(descriptor)) == [(1, "x", "a.csv", 8), (2, "y", "a.csv", 8)]
    t_env.create_temporary_table("d", descriptor)
    assert sorted_rows(t_env.sql_query("SELECT n, b FROM d")) == [("a.csv", "x"), ("a.csv", "y")]


def test_metadata_refusals_and_casts_as_pyflink(t_env: TableEnvironment, tmp_path: Any) -> None:
    directory = _files(tmp_path)

    def create(name: str, columns: str, options: str) -> None:
        t_env.execute_sql(f"CREATE TABLE {name} ({columns}) WITH ({options})")

    files = f"'connector' = 'filesystem', 'path' = '{directory}', 'format' = 'csv'"
    # declared types are cast from the metadata's own (VARCHAR(3) cuts, as Flink's cast does)
    create("casts", "a INT, b STRING, n VARCHAR(3) METADATA FROM 'file.name' VIRTUAL, "
                   "s DECIMAL(10, 0) METADATA FROM 'file.size' VIRTUAL", files)
    assert sorted_rows(t_env.from_path("casts")) == [(1, "x", "a.c", 8), (2, "y", "a.c", 8)]
    # an unknown key: creating works, planning any query of the table fails (PyFlink's message)
    create("unknown_key", "a INT, b STRING, k STRING METADATA FROM 'nope' VIRTUAL", files)
    for query in ("SELECT a FROM unknown_key", "SELECT k FROM unknown_key"):
        with pytest.raises(ValidationException) as e:
            t_env.sql_query(query)
        assert str(e.value) == (
            "Invalid metadata key 'nope' in column 'k' of table 'default_catalog.default_database.unknown_key'. "
            "The DynamicTableSource class 'org.apache.flink.connector.file.table.FileSystemTableSource' supports "
            "the following metadata keys for reading:\nfile.path\nfile.name\nfile.size\nfile.modification-time")
    create("gen", "a INT, m STRING METADATA FROM 'x' VIRTUAL", "'connector' = 'datagen', 'number-of-rows' = '1'")
    with pytest.raises(ValidationException, match=r"^Table 'DataGenTableSource' declares metadata columns, but the "
                       r"underlying DynamicTableSource doesn't implement the SupportsReadingMetadata interface\. "
                       r"Therefore, metadata cannot be read from the given source\.$"):
        t_env.sql_query("SELECT * FROM gen")
    # a virtual metadata column is not written; a persisted one cannot be
    create("virtual_out", "a INT, m STRING METADATA FROM 'x' VIRTUAL", "'connector' = 'blackhole'")
    t_env.execute_sql("INSERT INTO virtual_out SELECT 1").wait()
    create("persisted_out", "a INT, m STRING METADATA FROM 'x'", "'connector' = 'print'")
    with pytest.raises(ValidationException, match=r"^Table 'default_catalog\.default_database\.persisted_out' declares "
                       r"persistable metadata columns, but the underlying DynamicTableSink doesn't implement the "
                       r"SupportsWritingMetadata interface\. If the column should not be persisted, it can be declared "
                       r"with the VIRTUAL keyword\.$"):
        t_env.execute_sql("INSERT INTO persisted_out SELECT 1, 'x'")


def test_catalog_table_keeps_metadata_columns(t_env: TableEnvironment, tmp_path: Any) -> None:
    directory = _files(tmp_path)
    t_env.execute_sql(f"""CREATE TABLE t (a INT, `file.name` STRING METADATA VIRTUAL,
        s BIGINT METADATA FROM 'file.size') WITH ('connector' = 'filesystem', 'path' = '{directory}',
        'format' = 'csv')""")
    catalog = t_env.get_catalog(t_env.get_current_catalog())
    schema = catalog.get_table(ObjectPath(t_env.get_current_database(), "t")).get_unresolved_schema()
    assert "\n  `file.name` METADATA VIRTUAL,\n  `s` METADATA FROM 'file.size'\n" in str(schema)
