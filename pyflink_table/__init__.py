"""pyflink_table: Apache Flink's Python Table API (PyFlink) running on Apache Spark.

A PyFlink program runs unchanged once its ``pyflink.table`` and ``pyflink.common`` imports read
``pyflink_table``::

    from pyflink_table import EnvironmentSettings, TableEnvironment, DataTypes
    from pyflink_table.expressions import col, lit

    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.from_elements([(1, 'Hi'), (2, 'Hello')], ['a', 'b']).select(col('a') + 1).execute().print()
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, List

__version__ = "0.1.0"

# The public names are loaded on first use (PEP 562), so that importing the package, as Spark's
# Python workers do to reach pyflink_table._worker, loads no driver-side module and no py4j.
_EXPORTS = {
    "CompletableFuture": "pyflink_table.job_client",
    "JobClient": "pyflink_table.job_client",
    "JobID": "pyflink_table.job_client",
    "JobStatus": "pyflink_table.job_client",
    "ConfigOption": "pyflink_table.config_options",
    "ConfigOptions": "pyflink_table.config_options",
    "Configuration": "pyflink_table.configuration",
    "EnvironmentSettings": "pyflink_table.environment_settings",
    "JavaException": "pyflink_table.errors",
    "PythonException": "pyflink_table.errors",
    "SqlParserException": "pyflink_table.errors",
    "TableException": "pyflink_table.errors",
    "ValidationException": "pyflink_table.errors",
    "Expression": "pyflink_table.expression",
    "Row": "pyflink_table.row",
    "RowKind": "pyflink_table.row",
    "GroupedTable": "pyflink_table.table",
    "GroupWindowedTable": "pyflink_table.table",
    "OverWindowedTable": "pyflink_table.table",
    "Table": "pyflink_table.table",
    "WindowGroupedTable": "pyflink_table.table",
    "TableConfig": "pyflink_table.table_config",
    "TableEnvironment": "pyflink_table.table_environment",
    "ResultKind": "pyflink_table.table_result",
    "TableResult": "pyflink_table.table_result",
    "ResolvedSchema": "pyflink_table.table_schema",
    "TableSchema": "pyflink_table.table_schema",
    "DataTypes": "pyflink_table.types",
    "DataView": "pyflink_table.data_view",
    "ListView": "pyflink_table.data_view",
    "MapView": "pyflink_table.data_view",
    "AggregateFunction": "pyflink_table.udf",
    "FunctionContext": "pyflink_table.udf",
    "ScalarFunction": "pyflink_table.udf",
    "TableAggregateFunction": "pyflink_table.udf",
    "TableFunction": "pyflink_table.udf",
    "Schema": "pyflink_table.schema",
    "CsvTableSink": "pyflink_table.sinks",
    "WriteMode": "pyflink_table.sinks",
    "CsvTableSource": "pyflink_table.sources",
    "StatementSet": "pyflink_table.statement_set",
    "FormatDescriptor": "pyflink_table.table_descriptor",
    "TableDescriptor": "pyflink_table.table_descriptor",
    "UserDefinedType": "pyflink_table.types",
    "ChangelogMode": "pyflink_table.changelog_mode",
    "ExplainDetail": "pyflink_table.explain_detail",
    "Module": "pyflink_table.module",
    "ModuleEntry": "pyflink_table.module",
    "SqlDialect": "pyflink_table.sql_dialect",
    "StreamTableEnvironment": "pyflink_table.table_environment",
}

if TYPE_CHECKING:
    from pyflink_table.job_client import CompletableFuture as CompletableFuture
    from pyflink_table.job_client import JobClient as JobClient
    from pyflink_table.job_client import JobID as JobID
    from pyflink_table.job_client import JobStatus as JobStatus
    from pyflink_table.config_options import ConfigOption as ConfigOption
    from pyflink_table.config_options import ConfigOptions as ConfigOptions
    from pyflink_table.configuration import Configuration as Configuration
    from pyflink_table.environment_settings import EnvironmentSettings as EnvironmentSettings
    from pyflink_table.errors import JavaException as JavaException
    from pyflink_table.errors import PythonException as PythonException
    from pyflink_table.errors import SqlParserException as SqlParserException
    from pyflink_table.errors import TableException as TableException
    from pyflink_table.errors import ValidationException as ValidationException
    from pyflink_table.expression import Expression as Expression
    from pyflink_table.row import Row as Row
    from pyflink_table.row import RowKind as RowKind
    from pyflink_table.table import GroupedTable as GroupedTable
    from pyflink_table.table import GroupWindowedTable as GroupWindowedTable
    from pyflink_table.table import OverWindowedTable as OverWindowedTable
    from pyflink_table.table import Table as Table
    from pyflink_table.table import WindowGroupedTable as WindowGroupedTable
    from pyflink_table.table_config import TableConfig as TableConfig
    from pyflink_table.table_environment import TableEnvironment as TableEnvironment
    from pyflink_table.table_result import ResultKind as ResultKind
    from pyflink_table.table_result import TableResult as TableResult
    from pyflink_table.table_schema import ResolvedSchema as ResolvedSchema
    from pyflink_table.table_schema import TableSchema as TableSchema
    from pyflink_table.types import DataTypes as DataTypes
    from pyflink_table.data_view import DataView as DataView
    from pyflink_table.data_view import ListView as ListView
    from pyflink_table.data_view import MapView as MapView
    from pyflink_table.udf import AggregateFunction as AggregateFunction
    from pyflink_table.udf import FunctionContext as FunctionContext
    from pyflink_table.udf import ScalarFunction as ScalarFunction
    from pyflink_table.udf import TableAggregateFunction as TableAggregateFunction
    from pyflink_table.udf import TableFunction as TableFunction
    from pyflink_table.schema import Schema as Schema
    from pyflink_table.sinks import CsvTableSink as CsvTableSink
    from pyflink_table.sinks import WriteMode as WriteMode
    from pyflink_table.sources import CsvTableSource as CsvTableSource
    from pyflink_table.statement_set import StatementSet as StatementSet
    from pyflink_table.table_descriptor import FormatDescriptor as FormatDescriptor
    from pyflink_table.table_descriptor import TableDescriptor as TableDescriptor
    from pyflink_table.types import UserDefinedType as UserDefinedType
    from pyflink_table.changelog_mode import ChangelogMode as ChangelogMode
    from pyflink_table.explain_detail import ExplainDetail as ExplainDetail
    from pyflink_table.module import Module as Module
    from pyflink_table.module import ModuleEntry as ModuleEntry
    from pyflink_table.sql_dialect import SqlDialect as SqlDialect
    from pyflink_table.table_environment import StreamTableEnvironment as StreamTableEnvironment

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
    "ConfigOption",
    "ConfigOptions",
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



def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'pyflink_table' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(_EXPORTS))
