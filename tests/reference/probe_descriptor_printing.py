"""Probe: how TableDescriptor, FormatDescriptor and Schema print, and in which order options come.

Flink keeps descriptor options in a ``java.util.HashMap``; PyFlink prints them (and returns them
from ``get_options``) in its iteration order. Run with PyFlink 2.3 to write the measured
behaviour to ``descriptor_printing.json`` next to this file (``tests/test_descriptor_printing.py``
compares pyflink_table with it)::

    /work/main/.venv-pyflink/bin/python tests/reference/probe_descriptor_printing.py

and with ``--ours`` to print what pyflink_table gives for the same calls (to stdout).
"""

from __future__ import annotations

import itertools
import json
import random
import sys
from pathlib import Path
from typing import Any, Dict, List

OURS = "--ours" in sys.argv
if OURS:
    from pyflink_table import DataTypes, FormatDescriptor, Schema, TableDescriptor
else:
    from pyflink.table import DataTypes, FormatDescriptor, Schema, TableDescriptor  # type: ignore

WORDS = ["a", "b", "path", "sink.parallelism", "csv.field-delimiter", "fields.a.kind", "rows-per-second",
         "number-of-rows", "fields.b.min", "fields.b.max", "source.monitor-interval", "x", "yy", "zz", "key",
         "value", "scan.startup.mode", "topic", "properties.bootstrap.servers", "Aa", "BB"] + \
        [f"p{i}" for i in range(1, 19)]
FORMAT_WORDS = ["field-delimiter", "a", "ignore-parse-errors", "quote-character", "b", "allow-comments"]
# Keys of one Java hash ("Aa" and "BB" hash alike): a bucket of nine or ten makes the map grow.
COLLIDING = ["".join(p) for p in itertools.product(["Aa", "BB"], repeat=4)]


def option_sets() -> List[Dict[str, Any]]:
    """Option sets of 0 to 38 user options, across the map's growth at 13, 25 and 49 keys."""
    rnd = random.Random(7)
    sets = []
    for n in [0, 1, 2, 3, 5, 8, 10, 11, 12, 13, 14, 20, 23, 24, 25, 30, 38]:
        for _ in range(2):
            fmt = rnd.choice([None, "csv", "json"])
            sets.append({"keys": rnd.sample(WORDS, n), "format": fmt,
                         "format_keys": rnd.sample(FORMAT_WORDS, rnd.randint(0, 4)) if fmt else []})
    for n in (8, 9, 10):
        sets.append({"keys": COLLIDING[:n] + ["path", f"x{n}"], "format": "f", "format_keys": []})
    return sets


def describe(case: Dict[str, Any]) -> Dict[str, Any]:
    builder = TableDescriptor.for_connector("conn").schema(Schema.new_builder().column("f0", DataTypes.STRING()).build())
    for i, key in enumerate(case["keys"]):
        builder = builder.option(key, f"v{i}")
    printed_format = None
    if case["format"]:
        fb = FormatDescriptor.for_format(case["format"])
        for i, key in enumerate(case["format_keys"]):
            fb = fb.option(key, f"w{i}")
        fd = fb.build()
        printed_format = str(fd)
        builder = builder.format(fd)
    d = builder.build()
    return dict(case, printed=str(d), printed_format=printed_format, options=list(d.get_options()))


def printed_cases() -> Dict[str, str]:
    fd = FormatDescriptor.for_format("csv").option("field-delimiter", "|").option("a", "true") \
        .option("quote-character", "'").build()
    schema = Schema.new_builder().column("a", DataTypes.INT(False)).column("b", DataTypes.DECIMAL(10, 2)) \
        .primary_key("a").build()
    odd = Schema.new_builder().column("a`b", DataTypes.INT(False)).column("ts", DataTypes.TIMESTAMP(3)) \
        .column("s", "varchar(3) not null").column_by_expression("c", "`a``b` + 1") \
        .watermark("ts", "ts - INTERVAL '1' SECOND").primary_key_named("pk`1", "a`b").build()
    return {
        "no_schema": str(TableDescriptor.for_connector("datagen").option("number-of-rows", "3").build()),
        "format": str(fd),
        "with_format_and_key": str(TableDescriptor.for_connector("filesystem").schema(schema)
                                   .option("path", "/tmp/x").format(fd).partitioned_by("a").build()),
        "quotes": str(TableDescriptor.for_connector("data'gen")
                      .schema(Schema.new_builder().column("a`b", DataTypes.INT()).build())
                      .option("it's", "x'y").comment("it's").partitioned_by("a`b").build()),
        "format_quotes": str(FormatDescriptor.for_format("c'sv").option("k'", "v'").build()),
        "schema": str(odd),
    }


if __name__ == "__main__":
    result = {"option_sets": [describe(c) for c in option_sets()], "printed": printed_cases()}
    if OURS:
        print(json.dumps(result, indent=1))
    else:
        (Path(__file__).resolve().parent / "descriptor_printing.json").write_text(json.dumps(result, indent=1) + "\n")
