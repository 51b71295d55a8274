"""Python user-defined functions: scalar (function, class, pandas), table functions, and SQL.

Run it with ``python examples/udfs.py`` or ``pyflink-table run examples/udfs.py``.
"""

from __future__ import annotations

from typing import Iterator

import pandas as pd

from pyflink_table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink_table.expressions import call, col
from pyflink_table.udf import FunctionContext, ScalarFunction, udf, udtf


@udf(result_type=DataTypes.BIGINT())
def add_tax(price: int) -> int:
    """Price including 20 % tax, in cents."""
    return price * 6 // 5


class Discount(ScalarFunction):
    """A price reduced by a percentage taken from the job parameters (default 10)."""

    def __init__(self) -> None:
        self.percent = 10

    def open(self, function_context: FunctionContext) -> None:
        self.percent = int(function_context.get_job_parameter("discount", "10"))

    def eval(self, price: int) -> int:
        return price * (100 - self.percent) // 100


discount = udf(Discount(), result_type=DataTypes.BIGINT())


@udf(result_type=DataTypes.DOUBLE(), func_type="pandas")
def in_euros(cents: pd.Series) -> pd.Series:
    """Cents to euros, a whole column at a time."""
    return cents / 100.0


@udtf(result_types=[DataTypes.STRING(), DataTypes.INT()])
def tags(text: str) -> Iterator[tuple[str, int]]:
    """One row per comma-separated tag: the tag and its length."""
    for tag in text.split(","):
        if tag:
            yield tag, len(tag)


def main() -> None:
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.get_config().set("parallelism.default", "1")
    t_env.get_config().set("pipeline.global-job-parameters", "discount:25")

    products = t_env.from_elements(
        [(1, "apple", 120, "fruit,red"), (2, "kiwi", 45, "fruit"), (3, "soap", 300, "")],
        DataTypes.ROW([DataTypes.FIELD("id", DataTypes.BIGINT()),
                       DataTypes.FIELD("name", DataTypes.STRING()),
                       DataTypes.FIELD("price", DataTypes.BIGINT()),
                       DataTypes.FIELD("tags", DataTypes.STRING())]))

    # Scalar functions: a plain function, a class with open(), a pandas function.
    products.select(col("name"), add_tax(col("price")).alias("with_tax"),
                    discount(col("price")).alias("discounted"),
                    in_euros(col("price")).alias("euros")) \
        .order_by(col("name")).execute().print()

    # A table function joined to the rows it came from; the left outer join keeps 'soap'.
    products.join_lateral(tags(col("tags")).alias("tag", "length")) \
        .select(col("name"), col("tag"), col("length")) \
        .order_by(col("name"), col("tag")).execute().print()
    products.left_outer_join_lateral(tags(col("tags")).alias("tag", "length")) \
        .select(col("name"), col("tag")) \
        .order_by(col("name"), col("tag")).execute().print()

    # Registered functions are callable by name, from the Table API and from SQL.
    t_env.create_temporary_function("add_tax", add_tax)
    t_env.create_temporary_view("products", products)
    products.select(col("name"), call("add_tax", col("price")).alias("with_tax")) \
        .order_by(col("name")).limit(1).execute().print()
    t_env.sql_query("SELECT name, add_tax(price) AS with_tax FROM products WHERE price > 100 ORDER BY name") \
        .execute().print()


if __name__ == "__main__":
    main()
