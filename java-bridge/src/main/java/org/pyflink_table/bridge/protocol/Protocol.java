package org.pyflink_table.bridge.protocol;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every name that crosses the language boundary, defined once on the JVM side. The Python side is
 * {@code pyflink_table/_protocol.py}: each constant here has the same name and value there, which
 * {@code tests/test_protocol.py} checks through {@link #constants()}.
 */
public final class Protocol {
  private Protocol() {}

  /** Spark's PythonEvalType codes of the UDFs the bridge builds. */
  public static final int EVAL_ARROW_BATCHED_UDF = 101;
  public static final int EVAL_GROUPED_AGG_PANDAS_UDF = 202;
  public static final int EVAL_MAP_ARROW_ITER_UDF = 207;
  public static final int EVAL_SCALAR_ARROW_UDF = 250;
  public static final int EVAL_ARROW_TABLE_UDF = 301;
  public static final int EVAL_TRANSFORM_WITH_STATE_PANDAS_UDF = 211;

  /** Error kinds of {@code ErrorTranslator.translate}: class names of {@code pyflink_table.errors}. */
  public static final String ERROR_TABLE = "TableException";
  public static final String ERROR_VALIDATION = "ValidationException";
  public static final String ERROR_SQL_PARSER = "SqlParserException";
  public static final String ERROR_PYTHON = "PythonException";

  /** Spark SQL settings written by the Python driver and read here. */
  public static final String CONF_AGGREGATE_PACKING = "spark.sql.pyflink_table.aggregate.packing";

  /** The worker-side factory of packed aggregation: {@code module.function(layout, *evaluators)}. */
  public static final String PACKED_AGGREGATION_MODULE = "pyflink_table._worker.packed_aggregation";
  public static final String PACKED_AGGREGATION_FUNCTION = "packed_aggregation";
  /** Keys of its JSON layout: leading key columns, and each evaluator's argument columns. */
  public static final String LAYOUT_KEYS = "keys";
  public static final String LAYOUT_ARGUMENTS = "arguments";
  /** ... and whether to emit Flink's streaming changelog per bundle instead of final results. */
  public static final String LAYOUT_CHANGELOG = "changelog";
  /**
   * The worker-side factories of DISTINCT/FILTER Python aggregate calls: {@code module.evaluator(evaluator, layout)}
   * for the packed shapes, {@code module.command(command, layout)} for Spark's grouped-aggregate UDFs; the layout's keys.
   */
  public static final String AGGREGATE_SELECTION_MODULE = "pyflink_table._worker.aggregate_selection";
  public static final String AGGREGATE_SELECTION_EVALUATOR = "selecting_evaluator";
  public static final String AGGREGATE_SELECTION_COMMAND = "selecting_command";
  public static final String SELECTION_DISTINCT = "distinct";
  public static final String SELECTION_FILTERED = "filtered";
  /** The rows of one bundle of PyFlink's Python operators (python.fn-execution.bundle.size), for changelogs. */
  public static final String CONF_PYTHON_BUNDLE_SIZE = "spark.sql.pyflink_table.python.bundle-size";

  /** The worker-side processor of Python aggregates in stream group windows: {@code module.function(layout, *evaluators)}. */
  public static final String STREAM_WINDOW_MODULE = "pyflink_table._worker.stream_windows";
  public static final String STREAM_WINDOW_FUNCTION = "stream_window_aggregation";
  /** Its input column holding the rowtime. */
  public static final String STREAM_WINDOW_TIME_COLUMN = "__pft_t";

  /**
   * Python aggregates over the rows Spark's streaming window aggregation collected per fired window:
   * {@code module.function(layout, *evaluators)}; the layout's keys: the collected rows' column, each
   * evaluator's argument fields of a collected row ({@link #LAYOUT_ARGUMENTS}), the output's column names.
   */
  public static final String COLLECTED_WINDOW_MODULE = "pyflink_table._worker.collected_windows";
  public static final String COLLECTED_WINDOW_FUNCTION = "collected_window_aggregation";
  public static final String LAYOUT_ROWS = "rows";
  public static final String LAYOUT_NAMES = "names";
  /** Which path stream group windows with Python aggregates take: auto (collected rows where they can) or processor. */
  public static final String CONF_STREAMING_PYTHON_WINDOW = "spark.sql.pyflink_table.streaming.python-window";

  /** The worker-side processors of regular joins and Top-N over streams: {@code module.function(layout)}. */
  public static final String STREAM_CHANGELOG_MODULE = "pyflink_table._worker.stream_changelogs";
  public static final String STREAM_JOIN_FUNCTION = "stream_join";
  public static final String STREAM_TOP_N_FUNCTION = "stream_top_n";

  /** The worker-side aggregation of updating input: {@code module.function(layout, *evaluators)}, bounded and unbounded. */
  public static final String RETRACTING_AGGREGATION_MODULE = "pyflink_table._worker.retracting_aggregation";
  public static final String RETRACTING_AGGREGATION_BOUNDED = "bounded_changelog";
  public static final String RETRACTING_AGGREGATION_STREAM = "stream_retracting_aggregate";
  /**
   * Flink's idle state retention ({@code table.exec.state.ttl}) in milliseconds, 0 when off; and the
   * key of the stateful processors' layouts that carries it to the workers.
   */
  public static final String CONF_STATE_TTL_MS = "spark.sql.pyflink_table.state-ttl-ms";
  public static final String LAYOUT_STATE_TTL_MS = "state_ttl_ms";

  /** First word of an INSERT's printed answer when it started a streaming job (its id follows). */
  public static final String STREAM_JOB = "stream-job";

  /** Every constant above by name, for the test that both sides agree. */
  public static Map<String, Object> constants() {
    Map<String, Object> out = new TreeMap<>();
    for (Field f : Protocol.class.getDeclaredFields()) {
      int m = f.getModifiers();
      if (Modifier.isPublic(m) && Modifier.isStatic(m) && Modifier.isFinal(m)) {
        try {
          out.put(f.getName(), f.get(null));
        } catch (IllegalAccessException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    return out;
  }
}
