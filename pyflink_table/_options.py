"""How Flink options map to Spark settings. The configuration docs page is generated from ``OPTIONS``.

An option is either passed to Spark at start-up (``static``: it needs a new JVM or SparkContext)
or applied to the environment's Spark session at once (runtime SQL settings).
"""

from __future__ import annotations

from typing import Callable, Dict, NamedTuple, Optional

from pyflink_table import _protocol


class OptionMapping(NamedTuple):
    """One Flink option and the Spark setting it becomes."""

    flink_key: str
    spark_key: Optional[str]
    static: bool
    description: str
    convert: Callable[[str], str] = str


def _parallelism(value: str) -> str:
    # Refused when set, as Flink's typed option would be when read: a bad value must not be kept.
    if not value.strip().lstrip("-").isdigit() or not (int(value) > 0 or int(value) == -1):
        raise ValueError(f"Could not parse value '{value}' as a parallelism (a positive integer, or -1).")
    return "" if int(value) == -1 else str(int(value))  # -1: the start-up setting


def _time_zone(value: str) -> str:
    # Flink's 'default' means the JVM's own zone; Spark's session default is the same.
    return "" if value == "default" else value


def _true_or_false(value: str) -> str:
    if value.strip().lower() not in ("true", "false"):
        raise ValueError(f"Could not parse value '{value}' as a boolean (true or false).")
    return value.strip().lower()


def _event_time(value: str) -> str:
    modes = (_protocol.EVENT_TIME_MICRO_BATCH, _protocol.EVENT_TIME_FLINK_EXACT)
    if value.strip() not in modes:
        raise ValueError(f"Could not parse value '{value}' of pyflink_table.streaming.event-time "
                         f"(expected {' or '.join(modes)}).")
    return value.strip()


def _state_ttl_ms(value: str) -> str:
    from pyflink_table._streaming import STATE_TTL, duration_ms

    return str(duration_ms(STATE_TTL, value))


OPTIONS: Dict[str, OptionMapping] = {
    o.flink_key: o
    for o in [
        OptionMapping("parallelism.default", "spark.sql.shuffle.partitions", False,
                      "Tasks per shuffle stage (Spark partitions after a shuffle).", _parallelism),
        OptionMapping("table.exec.resource.default-parallelism", "spark.sql.shuffle.partitions", False,
                      "Same as parallelism.default for table operators.", _parallelism),
        OptionMapping("pipeline.name", "spark.app.name", True,
                      "Application name at start-up; later also the Spark job description."),
        OptionMapping("table.local-time-zone", "spark.sql.session.timeZone", False,
                      "Session time zone for TIMESTAMP_LTZ values and current_timestamp.", _time_zone),
        OptionMapping("python.fn-execution.arrow.batch.size", "spark.sql.execution.arrow.maxRecordsPerBatch",
                      False, "Rows per Arrow batch sent to Python workers (default 10000; no byte cap unless "
                      "spark.sql.execution.arrow.maxBytesPerBatch is set, as PyFlink has none)."),
        OptionMapping("pyflink_table.aggregate.packing", _protocol.CONF_AGGREGATE_PACKING, False,
                      "auto (default): Python aggregates in group_by, windows and aggregate() run over "
                      "Arrow batches packing many groups (fast for many small groups) unless Spark's "
                      "statistics (row count against column statistics, BOOLEAN/TINYINT keys or a cached "
                      "integer key's bounds) show at least 5,000 rows per group; true: always packed; "
                      "false: scalar-result ones run as Spark's grouped-aggregate UDFs, one Arrow stream "
                      "per group (faster for groups of more than about 5,000 rows)."),
        OptionMapping("pyflink_table.python.scalar.map-in-arrow", _protocol.CONF_SCALAR_MAP_IN_ARROW, False,
                      "true (default): the Python scalar functions of a projection or filter run in one "
                      "mapInArrow pass that returns the columns needed further on with the results; false: "
                      "Spark's ArrowEvalPython (input rows queued, then joined with the results).",
                      _true_or_false),
        OptionMapping("pyflink_table.streaming.python-window", _protocol.CONF_STREAMING_PYTHON_WINDOW, False,
                      "Streaming mode: auto (default): a tumbling or sliding group window whose Python "
                      "aggregates are all pandas UDAFs (built-ins beside them without DISTINCT) keeps its "
                      "rows in Spark's own window state (collect_list) and calls the functions once per "
                      "fired window through Arrow; processor: always the transformWithStateInPandas "
                      "window processor (a sliding window's row stored once rather than once per window); "
                      "a window table function's aggregation with pandas UDAFs takes only the former, and "
                      "refuses processor."),
        OptionMapping("pyflink_table.streaming.event-time", _protocol.CONF_STREAMING_EVENT_TIME, False,
                      "Streaming mode, unbounded file sources: micro-batch (default): Spark's watermark, "
                      "advanced between micro-batches, so lateness and CURRENT_WATERMARK are decided per "
                      "micro-batch; flink-exact: PyFlink's per-row watermark at parallelism 1 (one file per "
                      "micro-batch, rows in file order, ordered on one partition): CURRENT_WATERMARK and the "
                      "late-row drops of built-in group windows follow each row. Set it before reading the "
                      "tables (see the streaming page).", _event_time),
        OptionMapping("table.exec.state.ttl", _protocol.CONF_STATE_TTL_MS, False,
                      "Streaming mode: Flink's idle state retention (processing time). A key of an updating "
                      "aggregation, or a row of a regular outer join, whose state was not written for that long "
                      "is forgotten, as in Flink; operators whose Spark state has no time-to-live refuse it "
                      "over unbounded sources (see the streaming page).", _state_ttl_ms),
        OptionMapping("python.executable", "spark.pyspark.python", True,
                      "Python interpreter of the Python workers."),
        OptionMapping("python.client.executable", "spark.pyspark.driver.python", True,
                      "Python interpreter of the driver."),
        OptionMapping("python.worker.memory.size", "spark.executor.pyspark.memory", True,
                      "Memory limit of each Python worker, e.g. 512m."),
    ]
}

#: Options read by pyflink_table itself rather than handed to Spark.
OWN_OPTIONS: Dict[str, str] = {
    "execution.runtime-mode": "batch or streaming (bounded input gives final results in both).",
    "pipeline.global-job-parameters": "key:value,key:value pairs readable with FunctionContext.get_job_parameter.",
    "pyflink_table.log.level": "Log level of the JVM (default WARN).",
    "python.fn-execution.bundle.size": "Most rows a Python worker buffers; caps python.fn-execution.arrow.batch.size.",
    "python.files": "Comma-separated Python files, zips or directories shipped to the workers' sys.path.",
    "python.requirements": "requirements.txt[#cache_dir] installed with pip and shipped to the workers.",
    "python.archives": "Comma-separated archive[#target_dir] extracted in the workers' working directory.",
    "python.metric.enabled": "Accepted for compatibility; UDF metrics are always collected.",
    "python.logging.default.level": "Level of the Python workers' root logger, which decides what "
                                    "user functions log (default INFO; OFF, CRITICAL, ERROR, WARN, INFO, "
                                    "DEBUG, TRACE or a number). See the Logging and metrics page.",
    "python.logging.level.overrides": "Levels of named loggers in the Python workers, e.g. "
                                      "'my.module:DEBUG,noisy.lib:ERROR'.",
    "execution.checkpointing.interval": "Streaming mode: the micro-batch trigger interval of jobs over unbounded "
                                        "sources (default 200 ms).",
    "execution.checkpointing.dir": "Streaming mode: the directory of the jobs' checkpoints (query N of a program in "
                                   "<dir>/query-N); a restarted program resumes from them.",
    "state.checkpoints.dir": "Flink's older name of execution.checkpointing.dir.",
}


#: Flink's job restart options: Spark retries tasks instead (spark.task.maxFailures, local[N,F]).
RESTART_PREFIX = "restart-strategy."


def spark_setting(key: str, value: str) -> Optional[tuple[str, str, bool]]:
    """(spark key, spark value, static) for a Flink option, ``spark.*`` keys passed through.

    Raises ValueError for a value the option cannot take, and NotImplementedError for Flink's
    ``restart-strategy.*`` options (Spark retries failed tasks, it does not restart jobs).
    """
    if key.startswith(RESTART_PREFIX):
        raise NotImplementedError(
            f"Unsupported option '{key}': Spark retries failed tasks rather than restarting the job; "
            "set 'spark.task.maxFailures' (or spark.master 'local[N,F]' in local mode) when the "
            "environment is first created instead.")
    if key.startswith("spark."):
        return key, value, _is_static_spark_key(key)
    mapping = OPTIONS.get(key)
    if mapping is None or mapping.spark_key is None:
        return None
    return mapping.spark_key, mapping.convert(value), mapping.static


def _is_static_spark_key(key: str) -> bool:
    # SQL settings can change on a running session; everything else is fixed at start-up.
    return not key.startswith("spark.sql.")
