"""Every name that crosses a language boundary, defined once on the Python side.

The JVM side is ``org.pyflink_table.bridge.protocol.Protocol``: each of its constants has the same
name and value here (``tests/test_protocol.py`` checks it). Names whose both ends are Python (the
driver and Spark's Python workers, with Spark only carrying them) are listed in
:data:`PYTHON_ONLY`. Stdlib only: the Spark workers import it.
"""

from __future__ import annotations

from typing import FrozenSet

# Spark's PythonEvalType codes (pyspark.util.PythonEvalType) of the UDFs the bridge builds.
EVAL_ARROW_BATCHED_UDF = 101
EVAL_GROUPED_AGG_PANDAS_UDF = 202
EVAL_MAP_ARROW_ITER_UDF = 207
EVAL_SCALAR_ARROW_UDF = 250
EVAL_ARROW_TABLE_UDF = 301
EVAL_TRANSFORM_WITH_STATE_PANDAS_UDF = 211

# Error kinds: ErrorTranslator.translate answers one of these; each names a class of pyflink_table.errors.
ERROR_TABLE = "TableException"
ERROR_VALIDATION = "ValidationException"
ERROR_SQL_PARSER = "SqlParserException"
ERROR_PYTHON = "PythonException"

# Spark SQL settings written by the driver and read by the bridge.
CONF_AGGREGATE_PACKING = "spark.sql.pyflink_table.aggregate.packing"
# Whether projections of Python scalar functions run through mapInArrow ("true", the default) or ArrowEvalPython.
CONF_SCALAR_MAP_IN_ARROW = "spark.sql.pyflink_table.python.scalar.map-in-arrow"

# The worker-side factory of such a projection: module.function(layout, *commands), each command a function's
# pickled (evaluator, return type); the layout's keys: the input columns passed through (LAYOUT_PASSED), the calls,
# each a tree {function: command index, args: [{column: input index} or a nested call]}.
SCALAR_PROJECTION_MODULE = "pyflink_table._worker.scalar_projection"
SCALAR_PROJECTION_FUNCTION = "scalar_projection"
LAYOUT_CALLS = "calls"
CALL_FUNCTION = "function"
CALL_COLUMN = "column"
CALL_ARGUMENTS = "args"

# The worker-side factory the bridge calls for packed aggregation: module.function(layout, *evaluators).
PACKED_AGGREGATION_MODULE = "pyflink_table._worker.packed_aggregation"
PACKED_AGGREGATION_FUNCTION = "packed_aggregation"
# Keys of its JSON layout: the number of leading key columns, and each evaluator's argument columns.
LAYOUT_KEYS = "keys"
LAYOUT_ARGUMENTS = "arguments"
# ... and whether to emit Flink's streaming changelog per bundle instead of final results.
LAYOUT_CHANGELOG = "changelog"
# The worker-side factories of DISTINCT/FILTER Python aggregate calls: module.evaluator(evaluator, layout) for
# the packed shapes, module.command(command, layout) for Spark's grouped-aggregate UDFs; the layout's keys.
AGGREGATE_SELECTION_MODULE = "pyflink_table._worker.aggregate_selection"
AGGREGATE_SELECTION_EVALUATOR = "selecting_evaluator"
AGGREGATE_SELECTION_COMMAND = "selecting_command"
SELECTION_DISTINCT = "distinct"
SELECTION_FILTERED = "filtered"
# The rows of one bundle of PyFlink's Python operators (python.fn-execution.bundle.size), for changelogs.
CONF_PYTHON_BUNDLE_SIZE = "spark.sql.pyflink_table.python.bundle-size"

# The worker-side processor of Python aggregates in stream group windows: module.function(layout, *evaluators),
# and its input column holding the rowtime.
STREAM_WINDOW_MODULE = "pyflink_table._worker.stream_windows"
STREAM_WINDOW_FUNCTION = "stream_window_aggregation"
STREAM_WINDOW_TIME_COLUMN = "__pft_t"
# Keys of its JSON layout: the processor (STREAM_WINDOW_KIND_*), a window's size and slide (a session's gap and
# slide 0; row counts for count windows), an over window's preceding rows and range (-1 for the one not used)
# and the input columns it passes through, each evaluator's argument columns (LAYOUT_ARGUMENTS), the built-in
# aggregates, the input's column names and the output struct type as Spark's JSON.
LAYOUT_KIND = "kind"
LAYOUT_SIZE = "size"
LAYOUT_SLIDE = "slide"
LAYOUT_PRECEDING_ROWS = "preceding_rows"
LAYOUT_PRECEDING_RANGE = "preceding_range"
LAYOUT_PASSED = "passed"
LAYOUT_PROCTIME = "proctime"
LAYOUT_BUILTINS = "builtins"
LAYOUT_COLUMNS = "columns"
LAYOUT_OUTPUT = "output"
STREAM_WINDOW_KIND_TIME = "time"
STREAM_WINDOW_KIND_COUNT = "count"
STREAM_WINDOW_KIND_OVER = "over"
# Keys of one built-in aggregate of the layout: Flink's function name, DISTINCT, its argument column, integral result,
# the scale of a DECIMAL result (absent otherwise), its FILTER column (absent without FILTER) and LISTAGG's separator.
BUILTIN_FUNCTION = "function"
BUILTIN_DISTINCT = "distinct"
BUILTIN_ARGUMENT = "argument"
BUILTIN_INTEGRAL = "integral"
BUILTIN_SCALE = "scale"
BUILTIN_FILTER = "filter"
BUILTIN_SEPARATOR = "separator"
# Its output columns: key i is k<i>, a time window's bounds __pft_start and __pft_end, Python aggregate j's
# result r<j>, built-in j's o<j>.
STREAM_WINDOW_KEY_PREFIX = "k"
STREAM_WINDOW_START = "__pft_start"
STREAM_WINDOW_END = "__pft_end"
STREAM_WINDOW_RESULT_PREFIX = "r"
STREAM_WINDOW_BUILTIN_PREFIX = "o"

# Python aggregates over the rows Spark's streaming window aggregation collected per fired window:
# module.function(layout, *evaluators); the layout's keys: the collected rows' column, each
# evaluator's argument fields of a collected row (LAYOUT_ARGUMENTS), and the output's column names.
COLLECTED_WINDOW_MODULE = "pyflink_table._worker.collected_windows"
COLLECTED_WINDOW_FUNCTION = "collected_window_aggregation"
LAYOUT_ROWS = "rows"
LAYOUT_NAMES = "names"
# Which path stream group windows with Python aggregates take: auto (collected rows where they can) or processor.
CONF_STREAMING_PYTHON_WINDOW = "spark.sql.pyflink_table.streaming.python-window"
# Event-time fidelity over unbounded sources: micro-batch (Spark's watermark, default) or flink-exact (per row).
CONF_STREAMING_EVENT_TIME = "spark.sql.pyflink_table.streaming.event-time"
EVENT_TIME_MICRO_BATCH = "micro-batch"
EVENT_TIME_FLINK_EXACT = "flink-exact"

# The worker-side processors of regular joins, Top-N and non-time over windows over streams: module.function(layout).
STREAM_CHANGELOG_MODULE = "pyflink_table._worker.stream_changelogs"
STREAM_JOIN_FUNCTION = "stream_join"
STREAM_TOP_N_FUNCTION = "stream_top_n"
STREAM_NON_TIME_OVER_FUNCTION = "stream_non_time_over"
# The same over window over bounded input in streaming mode (mapInArrow): module.function(layout).
BOUNDED_NON_TIME_OVER_FUNCTION = "bounded_non_time_over"

# The worker-side processor of Flink's temporal sort (ORDER BY rowtime) over streams: module.function(layout).
STREAM_SORT_MODULE = "pyflink_table._worker.stream_sorts"
STREAM_TEMPORAL_SORT_FUNCTION = "stream_temporal_sort"
# The same sort's late rows over bounded input in streaming mode (mapInArrow): module.function(layout).
BOUNDED_TEMPORAL_SORT_FUNCTION = "bounded_temporal_sort"

# The worker-side aggregation of updating input: module.function(layout, *evaluators), bounded and unbounded.
RETRACTING_AGGREGATION_MODULE = "pyflink_table._worker.retracting_aggregation"
RETRACTING_AGGREGATION_BOUNDED = "bounded_changelog"
RETRACTING_AGGREGATION_STREAM = "stream_retracting_aggregate"
# Flink's idle state retention (table.exec.state.ttl) in milliseconds, 0 when off; and the key of the
# stateful processors' layouts that carries it to the workers.
CONF_STATE_TTL_MS = "spark.sql.pyflink_table.state-ttl-ms"
LAYOUT_STATE_TTL_MS = "state_ttl_ms"

# First word of an INSERT's printed answer when it started a streaming job (its id follows).
STREAM_JOB = "stream-job"

# Spark local properties set by the driver per job and read by the workers' TaskContext.
PROPERTY_JOB_PARAMETERS = "pyflink_table.job-parameters"
PROPERTY_PARALLELISM = "pyflink_table.parallelism"
PROPERTY_ARCHIVES = "pyflink_table.archives"
# Where the workers send what UDFs log (the driver's receiver in local mode), and at which levels.
PROPERTY_UDF_LOG_TARGET = "pyflink_table.udf-log.target"
PROPERTY_UDF_LOG_LEVELS = "pyflink_table.udf-log.levels"

# A result type reaches a worker as its Flink type string only: the worker derives the Arrow type
# from it (pyflink_table._worker.spark_types), so no Spark JSON travels beside it.

# What a worker puts before a user function's failure, so the driver can cut Spark's text there.
USER_FUNCTION_ERROR = "UserFunctionError"

#: Names whose both ends are Python: the JVM passes them through without reading them.
PYTHON_ONLY: FrozenSet[str] = frozenset({
    "PROPERTY_JOB_PARAMETERS", "PROPERTY_PARALLELISM", "PROPERTY_ARCHIVES", "PROPERTY_UDF_LOG_TARGET",
    "PROPERTY_UDF_LOG_LEVELS", "USER_FUNCTION_ERROR",
})
