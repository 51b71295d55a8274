"""pyflink_table: Apache Flink's Python Table API (PyFlink) running on Apache Spark.

A PyFlink program runs unchanged once its ``pyflink.table`` and ``pyflink.common`` imports read
``pyflink_table``::

    from pyflink_table import EnvironmentSettings, TableEnvironment, DataTypes
    from pyflink_table.expressions import col, lit

    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.from_elements([(1, 'Hi'), (2, 'Hello')], ['a', 'b']).select(col('a') + 1).execute().print()
"""

from pyflink_table.configuration import Configuration
from pyflink_table.environment_settings import EnvironmentSettings
from pyflink_table.errors import (
    JavaException,
    PythonException,
    SqlParserException,
    TableException,
    ValidationException,
)
from pyflink_table.expression import Expression
from pyflink_table.row import Row, RowKind
from pyflink_table.table import (
    GroupedTable,
    GroupWindowedTable,
    OverWindowedTable,
    Table,
    WindowGroupedTable,
)
from pyflink_table.table_config import TableConfig
from pyflink_table.table_environment import TableEnvironment
from pyflink_table.table_result import ResultKind, TableResult
from pyflink_table.table_schema import ResolvedSchema, TableSchema
from pyflink_table.types import DataTypes

# Functions and data views as pyflink.table exports them; importing udf here also keeps the
# modules of table and aggregate functions (imported by udf.py) from being loaded first.
from pyflink_table.data_view import DataView, ListView, MapView  # noqa: E402
from pyflink_table.udf import (  # noqa: E402
    AggregateFunction,
    FunctionContext,
    ScalarFunction,
    TableAggregateFunction,
    TableFunction,
)

# --- connector and statement names pyflink.table exports (porting: `from pyflink.table import Schema`)
from pyflink_table.schema import Schema  # noqa: E402
from pyflink_table.sinks import CsvTableSink, WriteMode  # noqa: E402
from pyflink_table.sources import CsvTableSource  # noqa: E402
from pyflink_table.statement_set import StatementSet  # noqa: E402
from pyflink_table.table_descriptor import FormatDescriptor, TableDescriptor  # noqa: E402
from pyflink_table.types import UserDefinedType  # noqa: E402

# --- remaining pyflink.table names: changelog modes, explain details, dialects, modules, stream env
from pyflink_table.changelog_mode import ChangelogMode  # noqa: E402
from pyflink_table.explain_detail import ExplainDetail  # noqa: E402
from pyflink_table.module import Module, ModuleEntry  # noqa: E402
from pyflink_table.sql_dialect import SqlDialect  # noqa: E402
from pyflink_table.table_environment import StreamTableEnvironment  # noqa: E402
# --- job handles, as pyflink.common exports them (streaming jobs run in the background)
from pyflink_table.job_client import CompletableFuture, JobClient, JobID, JobStatus  # noqa: E402

__version__ = "0.1.0"

__all__ = [
    "CompletableFuture",
    "JobClient",
    "JobID",
    "JobStatus",
    "AggregateFunction",
    "DataView",
    "FunctionContext",
    "ListView",
    "MapView",
    "ScalarFunction",
    "TableAggregateFunction",
    "TableFunction",
    "Configuration",
    "DataTypes",
    "EnvironmentSettings",
    "Expression",
    "GroupWindowedTable",
    "GroupedTable",
    "JavaException",
    "OverWindowedTable",
    "PythonException",
    "ResolvedSchema",
    "ResultKind",
    "Row",
    "RowKind",
    "SqlParserException",
    "Table",
    "TableConfig",
    "TableEnvironment",
    "TableException",
    "TableResult",
    "TableSchema",
    "ValidationException",
    "WindowGroupedTable",
    # connector and statement names (see the import block above)
    "CsvTableSink",
    "CsvTableSource",
    "FormatDescriptor",
    "WriteMode",
    "Schema",
    "StatementSet",
    "TableDescriptor",
    "UserDefinedType",
    # changelog modes, explain details, dialects, modules, stream env (see the import block above)
    "ChangelogMode",
    "ExplainDetail",
    "Module",
    "ModuleEntry",
    "SqlDialect",
    "StreamTableEnvironment",
]
