"""str() of TableDescriptor, FormatDescriptor and Schema, and the order of their options, as PyFlink 2.3.

Expected values were measured on PyFlink 2.3 by tests/reference/probe_descriptor_printing.py
(written to tests/reference/descriptor_printing.json) or are pasted from its output.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict

import pytest

from pyflink_table import DataTypes, FormatDescriptor, Schema, TableDescriptor
from pyflink_table.catalog import ObjectPath

MEASURED = json.loads((Path(__file__).resolve().parent / "reference" / "descriptor_printing.json").read_text())


@pytest.mark.parametrize("case", MEASURED["option_sets"], ids=lambda c: f"{len(c['keys'])}-{c['format']}")
def test_options_print_in_the_order_of_flinks_hash_map(case: Dict[str, Any]) -> None:
    builder = TableDescriptor.for_connector("conn").schema(Schema.new_builder().column("f0", DataTypes.STRING()).build())
    for i, key in enumerate(case["keys"]):
        builder = builder.option(key, f"v{i}")
    if case["format"]:
        fb = FormatDescriptor.for_format(case["format"])
        for i, key in enumerate(case["format_keys"]):
            fb = fb.option(key, f"w{i}")
        fd = fb.build()
        assert str(fd) == case["printed_format"]
        builder = builder.format(fd)
    d = builder.build()
    assert str(d) == case["printed"]
    assert list(d.get_options()) == case["options"]


def test_upstream_to_string_example() -> None:
    # PyFlink's own test_table_descriptor.py::test_to_string, with its expected text.
    fd = FormatDescriptor.for_format("test-format").option("a", "false").build()
    d = TableDescriptor.for_connector("test-connector") \
        .schema(Schema.new_builder().column("f0", DataTypes.STRING()).build()) \
        .partitioned_by("f0").option("a", "true").format(fd).comment("Test Comment").build()
    assert str(fd) == "test-format[{a=false}]"
    assert str(d) == ("(\n  `f0` STRING\n)\nCOMMENT 'Test Comment'\nPARTITIONED BY (`f0`)\nWITH (\n"
                      "  'a' = 'true',\n  'connector' = 'test-connector',\n  'test-format.a' = 'false',\n"
                      "  'format' = 'test-format'\n)")


def test_descriptors_without_schema_quotes_and_names_print_as_flink() -> None:
    printed = MEASURED["printed"]
    fd = FormatDescriptor.for_format("csv").option("field-delimiter", "|").option("a", "true") \
        .option("quote-character", "'").build()
    schema = Schema.new_builder().column("a", DataTypes.INT(False)).column("b", DataTypes.DECIMAL(10, 2)) \
        .primary_key("a").build()
    assert str(TableDescriptor.for_connector("datagen").option("number-of-rows", "3").build()) == printed["no_schema"]
    assert printed["no_schema"].startswith("\nWITH (")
    assert str(fd) == printed["format"]
    assert str(TableDescriptor.for_connector("filesystem").schema(schema).option("path", "/tmp/x").format(fd)
               .partitioned_by("a").build()) == printed["with_format_and_key"]
    # Option keys and values double their quotes; the comment is printed as given.
    assert str(TableDescriptor.for_connector("data'gen")
               .schema(Schema.new_builder().column("a`b", DataTypes.INT()).build())
               .option("it's", "x'y").comment("it's").partitioned_by("a`b").build()) == printed["quotes"]
    assert str(FormatDescriptor.for_format("c'sv").option("k'", "v'").build()) == printed["format_quotes"]


def test_schema_prints_sql_text_in_brackets_and_quotes_names() -> None:
    odd = Schema.new_builder().column("a`b", DataTypes.INT(False)).column("ts", DataTypes.TIMESTAMP(3)) \
        .column("s", "varchar(3) not null").column_by_expression("c", "`a``b` + 1") \
        .watermark("ts", "ts - INTERVAL '1' SECOND").primary_key_named("pk`1", "a`b").build()
    assert str(odd) == MEASURED["printed"]["schema"]
    assert "`s` [varchar(3) not null]" in str(odd)


def test_catalog_table_prints_resolved_types_and_options_in_map_order(t_env: Any) -> None:
    # Measured on PyFlink 2.3 with the same DDL: types resolved (no brackets), options in the
    # HashMap's order. (Flink also expands identifiers in the computed column: [`a` + 1].)
    t_env.execute_sql("CREATE TABLE printed_s (a INT NOT NULL, b STRING, ts TIMESTAMP(3)) "
                      "WITH ('connector'='datagen', 'number-of-rows'='1')")
    table = t_env.get_catalog(t_env.get_current_catalog()).get_table(
        ObjectPath(t_env.get_current_database(), "printed_s"))
    assert str(table.get_unresolved_schema()) == "(\n  `a` INT NOT NULL,\n  `b` STRING,\n  `ts` TIMESTAMP(3)\n)"
    assert list(table.get_options()) == ["number-of-rows", "connector"]
