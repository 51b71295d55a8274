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
  /** Whether projections of Python scalar functions run through mapInArrow ({@code true}, default) or ArrowEvalPython. */
  public static final String CONF_SCALAR_MAP_IN_ARROW = "spark.sql.pyflink_table.python.scalar.map-in-arrow";

  /**
   * The worker-side factory of a projection of Python scalar functions run through mapInArrow:
   * {@code module.function(layout, *commands)}, each command a function's pickled (evaluator, type).
   */
  public static final String SCALAR_PROJECTION_MODULE = "pyflink_table._worker.scalar_projection";
  public static final String SCALAR_PROJECTION_FUNCTION = "scalar_projection";
  /** Keys of its JSON layout: the input columns passed through, the calls (trees of functions and argument columns). */
  public static final String LAYOUT_CALLS = "calls";
  public static final String CALL_FUNCTION = "function";
  public static final String CALL_COLUMN = "column";
  public static final String CALL_ARGUMENTS = "args";

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
   * Keys of its JSON layout: the processor ({@link #STREAM_WINDOW_KIND_TIME}, {@code _COUNT} or
   * {@code _OVER}), a window's size and slide (a session's gap and slide 0; row counts for count
   * windows), an over window's preceding rows and range (-1 for the one not used) and the input
   * columns it passes through, each evaluator's argument columns ({@link #LAYOUT_ARGUMENTS}), the
   * built-in aggregates, the input's column names and the output struct type as Spark's JSON.
   */
  public static final String LAYOUT_KIND = "kind";
  public static final String LAYOUT_SIZE = "size";
  public static final String LAYOUT_SLIDE = "slide";
  public static final String LAYOUT_PRECEDING_ROWS = "preceding_rows";
  public static final String LAYOUT_PRECEDING_RANGE = "preceding_range";
  public static final String LAYOUT_PASSED = "passed";
  public static final String LAYOUT_PROCTIME = "proctime";
  public static final String LAYOUT_BUILTINS = "builtins";
  public static final String LAYOUT_COLUMNS = "columns";
  public static final String LAYOUT_OUTPUT = "output";
  public static final String STREAM_WINDOW_KIND_TIME = "time";
  public static final String STREAM_WINDOW_KIND_COUNT = "count";
  public static final String STREAM_WINDOW_KIND_OVER = "over";
  /**
   * Keys of one built-in aggregate of the layout: Flink's function name, DISTINCT, its argument column, integral
   * result, the scale of a DECIMAL result (absent otherwise), its FILTER column (absent without FILTER) and
   * LISTAGG's separator (absent for other functions).
   */
  public static final String BUILTIN_FUNCTION = "function";
  public static final String BUILTIN_DISTINCT = "distinct";
  public static final String BUILTIN_ARGUMENT = "argument";
  public static final String BUILTIN_INTEGRAL = "integral";
  public static final String BUILTIN_SCALE = "scale";
  public static final String BUILTIN_FILTER = "filter";
  public static final String BUILTIN_SEPARATOR = "separator";
  /**
   * Its output columns: key {@code i} is {@code k<i>}, a time window's bounds {@code __pft_start}
   * and {@code __pft_end}, Python aggregate {@code j}'s result {@code r<j>}, built-in {@code j}'s {@code o<j>}.
   */
  public static final String STREAM_WINDOW_KEY_PREFIX = "k";
  public static final String STREAM_WINDOW_START = "__pft_start";
  public static final String STREAM_WINDOW_END = "__pft_end";
  public static final String STREAM_WINDOW_RESULT_PREFIX = "r";
  public static final String STREAM_WINDOW_BUILTIN_PREFIX = "o";

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
  /** Event-time fidelity over unbounded sources: micro-batch (Spark's watermark, default) or flink-exact (per row). */
  public static final String CONF_STREAMING_EVENT_TIME = "spark.sql.pyflink_table.streaming.event-time";
  public static final String EVENT_TIME_MICRO_BATCH = "micro-batch";
  public static final String EVENT_TIME_FLINK_EXACT = "flink-exact";

  /** The worker-side processors of regular joins, Top-N and non-time over windows over streams: {@code module.function(layout)}. */
  public static final String STREAM_CHANGELOG_MODULE = "pyflink_table._worker.stream_changelogs";
  public static final String STREAM_JOIN_FUNCTION = "stream_join";
  public static final String STREAM_TOP_N_FUNCTION = "stream_top_n";
  public static final String STREAM_NON_TIME_OVER_FUNCTION = "stream_non_time_over";
  /** The same over window over bounded input in streaming mode (mapInArrow): {@code module.function(layout)}. */
  public static final String BOUNDED_NON_TIME_OVER_FUNCTION = "bounded_non_time_over";

  /** The worker-side processor of Flink's temporal sort (ORDER BY rowtime) over streams: {@code module.function(layout)}. */
  public static final String STREAM_SORT_MODULE = "pyflink_table._worker.stream_sorts";
  public static final String STREAM_TEMPORAL_SORT_FUNCTION = "stream_temporal_sort";
  /** The same sort's late rows over bounded input in streaming mode (mapInArrow): {@code module.function(layout)}. */
  public static final String BOUNDED_TEMPORAL_SORT_FUNCTION = "bounded_temporal_sort";

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
