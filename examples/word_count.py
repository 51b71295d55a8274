"""Word count: FLIP-38's first Python Table API program, in today's API, on embedded Spark.

The text comes from a few built-in lines, or from a file (``--input``, one line per row, read with
the filesystem connector); a Python table function splits the lines into words; the counts go to
the print connector, or to CSV files (``--output``, a directory, filesystem connector).

Run it with ``make example``, ``python examples/word_count.py`` or
``pyflink-table run examples/word_count.py [--input lines.txt] [--output counts/]``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Iterator, List, Optional

from pyflink_table import DataTypes, EnvironmentSettings, Row, Schema, TableDescriptor, TableEnvironment
from pyflink_table.expressions import col, lit
from pyflink_table.udf import udtf

TEXT = [
    "the quick brown fox",
    "jumps over the lazy dog",
    "the dog sleeps",
]


@udtf(result_types=[DataTypes.STRING()])
def split(line: str) -> Iterator[Row]:
    """One row per word of the line (split at white space)."""
    for word in line.split():
        yield Row(word)


def word_count(input_path: Optional[str], output_path: Optional[str]) -> None:
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.get_config().set("parallelism.default", "1")

    if input_path is not None:
        t_env.create_temporary_table(
            "source",
            TableDescriptor.for_connector("filesystem")
            .schema(Schema.new_builder().column("line", DataTypes.STRING()).build())
            .option("path", input_path)
            .format("raw")
            .build())
        tab = t_env.from_path("source")
    else:
        tab = t_env.from_elements([(line,) for line in TEXT],
                                  DataTypes.ROW([DataTypes.FIELD("line", DataTypes.STRING())]))

    sink_schema = (Schema.new_builder()
                   .column("word", DataTypes.STRING())
                   .column("count", DataTypes.BIGINT())
                   .build())
    if output_path is not None:
        sink = (TableDescriptor.for_connector("filesystem").schema(sink_schema)
                .option("path", output_path).format("csv").build())
    else:
        sink = TableDescriptor.for_connector("print").schema(sink_schema).build()
    t_env.create_temporary_table("sink", sink)

    (tab.flat_map(split(col("line"))).alias("word")
        .group_by(col("word"))
        .select(col("word"), lit(1).count)
        .execute_insert("sink")
        .wait())


def main(argv: List[str]) -> None:
    parser = argparse.ArgumentParser(description="Count the words of a text.")
    parser.add_argument("--input", help="a text file (default: a few built-in lines)")
    parser.add_argument("--output", help="a directory for CSV results (default: print them)")
    args = parser.parse_args(argv)
    word_count(args.input, args.output)


if __name__ == "__main__":
    main(sys.argv[1:])
