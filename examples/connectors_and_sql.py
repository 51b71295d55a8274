"""Connectors and SQL: CSV and JSON files through the filesystem connector, SQL DDL and queries,
the print connector, and a StatementSet writing two sinks in one job.

Run it with ``python examples/connectors_and_sql.py`` or
``pyflink-table run examples/connectors_and_sql.py``.
"""

from __future__ import annotations

import tempfile
from decimal import Decimal

from pyflink_table import DataTypes, EnvironmentSettings, Schema, TableDescriptor, TableEnvironment
from pyflink_table.expressions import col


def main() -> None:
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.get_config().set("parallelism.default", "1")

    with tempfile.TemporaryDirectory() as folder:
        # A CSV table declared in SQL, filled from Python values.
        t_env.execute_sql(f"""
            CREATE TABLE orders (
                id BIGINT,
                customer STRING,
                amount DECIMAL(10, 2)
            ) WITH (
                'connector' = 'filesystem',
                'path' = '{folder}/orders',
                'format' = 'csv'
            )
        """)
        orders = t_env.from_elements(
            [(1, "ana", Decimal("30.50")), (2, "bo", Decimal("120.00")), (3, "ana", Decimal("99.99")),
             (4, "cy", Decimal("250.25")), (5, "bo", Decimal("5.00"))],
            DataTypes.ROW([DataTypes.FIELD("id", DataTypes.BIGINT()),
                           DataTypes.FIELD("customer", DataTypes.STRING()),
                           DataTypes.FIELD("amount", DataTypes.DECIMAL(10, 2))]))
        orders.execute_insert("orders").wait()

        # Two sinks: JSON files declared with a TableDescriptor, and the print connector.
        t_env.create_temporary_table(
            "totals",
            TableDescriptor.for_connector("filesystem")
            .schema(Schema.new_builder()
                    .column("customer", DataTypes.STRING())
                    .column("total", DataTypes.DECIMAL(38, 2))
                    .column("n", DataTypes.BIGINT())
                    .build())
            .option("path", f"{folder}/totals")
            .format("json")
            .build())
        t_env.execute_sql("""
            CREATE TEMPORARY TABLE big_orders (id BIGINT, customer STRING, amount DECIMAL(10, 2))
            WITH ('connector' = 'print')
        """)

        # One job, two inserts: SQL for the totals, the Table API for the big orders.
        statements = t_env.create_statement_set()
        statements.add_insert_sql(
            "INSERT INTO totals SELECT customer, SUM(amount), COUNT(*) FROM orders GROUP BY customer")
        statements.add_insert("big_orders", t_env.from_path("orders").where(col("amount") > 100))
        statements.execute().wait()

        # Read the JSON files back.
        t_env.sql_query("SELECT customer, total, n FROM totals ORDER BY total DESC").execute().print()


if __name__ == "__main__":
    main()
