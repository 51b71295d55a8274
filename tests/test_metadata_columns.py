"""Metadata columns (``METADATA FROM 'key'``): declared in DDL and in ``Schema``, read from the
filesystem connector's files, refused where a connector cannot supply them. Expected values are
hand-computed from the files written here; printed forms and messages were measured on PyFlink 2.3."""

from __future__ import annotations

import datetime
import os
from typing import Any

import pytest

from pyflink_table import DataTypes, Schema, TableDescriptor, TableEnvironment
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
