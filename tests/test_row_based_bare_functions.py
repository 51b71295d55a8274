"""PyFlink's row-based forms that pass the function itself: it receives the whole input row as a Row.

Expected values were measured on PyFlink 2.3 with the same program (imports renamed).
"""

from __future__ import annotations

from conftest import sorted_rows

from pyflink_table import DataTypes, Row
from pyflink_table.expressions import col, lit
from pyflink_table.udf import udf, udtf


def test_flat_map_and_map_with_bare_functions(t_env):  # type: ignore[no-untyped-def]
    # Functions are defined inside the test so Spark's workers unpickle them by value.
    @udtf(result_types=[DataTypes.STRING()])
    def split(line: Row):  # type: ignore[no-untyped-def]
        for s in line[0].split():
            yield Row(s)

    @udf(result_type=DataTypes.ROW([DataTypes.FIELD("n", DataTypes.INT()), DataTypes.FIELD("u", DataTypes.STRING())]))
    def measure(r: Row) -> Row:
        return Row(len(r.line), r.line.upper())

    tab = t_env.from_elements([("hi guys",), ("hello guys",)],
                              DataTypes.ROW([DataTypes.FIELD("line", DataTypes.STRING())]))
    # PyFlink's own word_count example spells it exactly like this.
    counts = tab.flat_map(split).alias("word").group_by(col("word")).select(col("word"), lit(1).count)
    assert sorted_rows(counts) == [("guys", 2), ("hello", 1), ("hi", 1)]
    assert sorted_rows(tab.map(measure)) == [(7, "HI GUYS"), (10, "HELLO GUYS")]
