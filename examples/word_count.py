"""Word count: FLIP-38's first Python Table API program, in today's API, on embedded Spark.

Run it with ``make example``, ``python examples/word_count.py`` or
``pyflink-table run examples/word_count.py [--input lines.txt]``.
"""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional

from pyflink_table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink_table.expressions import col, lit

TEXT = [
    "the quick brown fox",
    "jumps over the lazy dog",
    "the dog sleeps",
]


def word_count(input_path: Optional[str]) -> None:
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.get_config().set("parallelism.default", "1")

    lines = TEXT
    if input_path is not None:
        with open(input_path, encoding="utf-8") as f:
            lines = [line.rstrip("\n") for line in f]
    # Until table functions land, the lines are split here; the counting is the Table API's.
    words = [(word,) for line in lines for word in line.split()]
    tab = t_env.from_elements(words, DataTypes.ROW([DataTypes.FIELD("word", DataTypes.STRING())]))

    result = tab.group_by(col("word")).select(col("word"), lit(1).count.alias("count"))
    result.order_by(col("count").desc, col("word")).execute().print()


def main(argv: List[str]) -> None:
    parser = argparse.ArgumentParser(description="Count the words of a text.")
    parser.add_argument("--input", help="a text file (default: a few built-in lines)")
    args = parser.parse_args(argv)
    word_count(args.input)


if __name__ == "__main__":
    main(sys.argv[1:])
