package org.pyflink_table.bridge.udf;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.classic.RelationalGroupedDataset;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.pyflink_table.bridge.connectors.Connectors;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.expressions.Scope;
import org.pyflink_table.bridge.expressions.TimestampPrecision;
import org.pyflink_table.bridge.protocol.Protocol;

/**
 * Python aggregate functions (pandas UDAFs of FLIP-137 and general ones) in a tumbling or sliding
 * group window over an unbounded stream: Spark refuses Python aggregates in streaming
 * aggregations, so the rows go through {@code transformWithStateInPandas}, keyed by the group keys,
 * into {@code pyflink_table._worker.stream_windows}. There each row is stored once in state, an
 * event-time timer fires each window at its last instant and late rows are dropped, as in Flink's
 * window operator. Spark bin-packs many keys per Arrow batch and chunks large groups on the way in.
 */
public final class StreamWindowAggregation {
  private StreamWindowAggregation() {}

  private static final String ROWTIME_LTZ = "__pft_rowtime";
  private static final String LAST_WINDOW_MAX = "__pft_last_window_max";
  private static final String CONSTANT_KEY = "__pft_all";
  /** 2262-01-01T00:00:00Z: late enough never to be at or before a watermark, early enough for pandas. */
  private static final long NEVER_LATE_MS = 9214646400000L;
  private static final String ROCKSDB =
      "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";

  /**
   * A built-in aggregate computed by the processor next to the Python ones: Flink's {@code function}
   * (sum, sum0, count, min, max, avg, and in group windows stddev_pop, stddev_samp, var_pop, var_samp,
   * collect, listagg) of {@code argument}, with Flink's result {@code type} and the result column's
   * {@code metadata} (COLLECT's MULTISET type; empty otherwise), over the rows {@code filter} (a
   * BOOLEAN column, null without FILTER) holds true for; LISTAGG joins with {@code separator}.
   */
  public record BuiltIn(String function, boolean distinct, Column argument, DataType type, String resultName,
      Column filter, String separator, Metadata metadata) {
    public BuiltIn(String function, boolean distinct, Column argument, DataType type, String resultName) {
      this(function, distinct, argument, type, resultName, null, null, Metadata.empty());
    }

    public BuiltIn(String function, boolean distinct, Column argument, DataType type, String resultName,
        Column filter) {
      this(function, distinct, argument, type, resultName, filter, null, Metadata.empty());
    }
  }

  private static boolean integral(DataType t) {
    return t.equals(DataTypes.ByteType) || t.equals(DataTypes.ShortType) || t.equals(DataTypes.IntegerType)
        || t.equals(DataTypes.LongType);
  }

  /**
   * Aggregates {@code input} per window and key.
   *
   * @param time the rowtime column (TIMESTAMP or TIMESTAMP_LTZ; windows on its wall-clock value)
   * @param delayMs the rowtime's watermark delay
   * @param sizeMs window length; {@code slideMs} equal to it for a tumbling window, 0 for a session
   *     window whose gap is {@code sizeMs}
   * @param windowColumn name of the output's (start, end) struct column
   * @return the window struct, the keys named {@code keyNames} (metadata kept), then one column
   *     per function named {@code resultNames}
   */
  public static Dataset<Row> aggregate(Dataset<Row> input, Column time, long delayMs, long sizeMs, long slideMs,
      List<Column> keyCols, List<String> keyNames, List<PythonAggregateFunction> calls, List<List<Column>> args,
      List<String> resultNames, List<BuiltIn> builtIns, String windowColumn) {
    return aggregate(input, time, delayMs, sizeMs, slideMs, keyCols, keyNames, calls, args, resultNames, builtIns,
        windowColumn, null);
  }

  /**
   * As above; {@code template} (a Python function of the session) runs the processor when there is
   * no Python function ({@code calls} empty: a session window of built-ins).
   */
  public static Dataset<Row> aggregate(Dataset<Row> input, Column time, long delayMs, long sizeMs, long slideMs,
      List<Column> keyCols, List<String> keyNames, List<PythonAggregateFunction> calls, List<List<Column>> args,
      List<String> resultNames, List<BuiltIn> builtIns, String windowColumn, Object template) {
    // transformWithStateInPandas keeps its state in RocksDB only; users should not have to know.
    if (slideMs == 0 && input.isStreaming() && Connectors.flinkExactEventTime(input.sparkSession())) {
      // Said as for Spark's session aggregation, which sessions of other built-ins run on.
      throw Connectors.flinkExactUnsupported("a session window over an unbounded source");
    }
    input.sparkSession().conf().set("spark.sql.streaming.stateStore.providerClass", ROCKSDB);
    List<Column> projected = keysAndTime(keyCols, time);
    boolean constantKey = keyCols.isEmpty();
    List<Map<String, Object>> others = new ArrayList<>();
    List<List<String>> arguments = projectArguments(projected, args, builtIns, others);
    // Spark drops a stateful operator's input rows at or before the watermark, but Flink keeps a
    // sliding window's row for its windows that have not fired: the operator's event-time column
    // is the last instant of the row's last window (the watermark itself still follows the rowtime).
    // A session row's lateness depends on the sessions it merges with, which only the processor
    // knows: Spark must not drop it.
    Dataset<Row> rows = watermarked(input, projected, time, delayMs, millis -> slideMs == 0
        ? functions.lit(NEVER_LATE_MS)
        : millis.minus(functions.pmod(millis, functions.lit(slideMs))).plus(functions.lit(sizeMs - 1)));
    StructType rowSchema = rows.schema();

    int keyCount = constantKey ? 1 : keyCols.size();
    StructType output = keys(rowSchema, keyCount)
        .add(Protocol.STREAM_WINDOW_START, DataTypes.TimestampNTZType, true)
        .add(Protocol.STREAM_WINDOW_END, DataTypes.TimestampNTZType, true);
    output = withResults(output, calls, builtIns);

    String layout = layout(Protocol.STREAM_WINDOW_KIND_TIME, Map.of(Protocol.LAYOUT_SIZE, sizeMs,
        Protocol.LAYOUT_SLIDE, slideMs), arguments, others, rows, output);
    Dataset<Row> fired = run(rows, keyCount, output, layout, calls, "EventTime", template);

    List<Column> out = new ArrayList<>();
    // Flink's window bounds are TIMESTAMP(3): the precision recorded as on a SQL cast, so that a SQL
    // query's schema reads it (the processor's millisecond bounds keep their value).
    out.add(functions.struct(bound(fired.col(Protocol.STREAM_WINDOW_START)).as("start"),
        bound(fired.col(Protocol.STREAM_WINDOW_END)).as("end")).as(windowColumn));
    for (int i = 0; i < keyCols.size(); i++) {
      Metadata md = rowSchema.fields()[i].metadata();
      out.add(fired.col(Protocol.STREAM_WINDOW_KEY_PREFIX + i).as(keyNames.get(i), md));
    }
    return fired.select(withResults(out, fired, calls, resultNames, builtIns));
  }

  /** A window bound of the processor's output with Flink's precision 3 recorded ({@link TimestampPrecision}). */
  private static Column bound(Column c) {
    return functions.call_function(TimestampPrecision.NAME, c, functions.lit(3));
  }

  /** The processor's output key fields: {@code k<i>} with the types of {@code rowSchema}'s first {@code keyCount} fields. */
  private static StructType keys(StructType rowSchema, int keyCount) {
    StructType output = new StructType();
    for (int i = 0; i < keyCount; i++) {
      output = output.add(Protocol.STREAM_WINDOW_KEY_PREFIX + i, rowSchema.fields()[i].dataType(), true);
    }
    return output;
  }

  /** {@code leading}, then the processor's result fields: {@code r<j>} per Python call, {@code o<j>} per built-in. */
  private static StructType withResults(StructType leading, List<PythonAggregateFunction> calls, List<BuiltIn> builtIns) {
    StructType output = leading;
    for (int j = 0; j < calls.size(); j++) {
      output = output.add(Protocol.STREAM_WINDOW_RESULT_PREFIX + j, calls.get(j).resultSparkType(), true);
    }
    for (int j = 0; j < builtIns.size(); j++) {
      output = output.add(Protocol.STREAM_WINDOW_BUILTIN_PREFIX + j, builtIns.get(j).type(), true);
    }
    return output;
  }

  /**
   * The worker's JSON layout of processor {@code kind} (see {@code pyflink_table._worker.stream_windows}):
   * its own {@code parameters}, then what every processor reads.
   */
  private static String layout(String kind, Map<String, Object> parameters, List<List<String>> arguments,
      List<Map<String, Object>> builtIns, Dataset<Row> rows, StructType output) {
    Map<String, Object> spec = new HashMap<>(parameters);
    spec.put(Protocol.LAYOUT_KIND, kind);
    spec.put(Protocol.LAYOUT_ARGUMENTS, arguments);
    spec.put(Protocol.LAYOUT_BUILTINS, builtIns);
    spec.put(Protocol.LAYOUT_COLUMNS, List.of(rows.columns()));
    spec.put(Protocol.LAYOUT_OUTPUT, output.json());
    return PythonCommand.json(spec);
  }

  /** {@code leading}, then the result fields of {@code fired} under the names the user gave them. */
  private static Column[] withResults(List<Column> leading, Dataset<Row> fired, List<PythonAggregateFunction> calls,
      List<String> resultNames, List<BuiltIn> builtIns) {
    List<Column> out = new ArrayList<>(leading);
    for (int j = 0; j < calls.size(); j++) {
      out.add(fired.col(Protocol.STREAM_WINDOW_RESULT_PREFIX + j).as(resultNames.get(j)));
    }
    for (int j = 0; j < builtIns.size(); j++) {
      out.add(fired.col(Protocol.STREAM_WINDOW_BUILTIN_PREFIX + j).as(builtIns.get(j).resultName(),
          builtIns.get(j).metadata()));
    }
    return out.toArray(new Column[0]);
  }

  /** The operator's first input columns: the keys ({@code k<i>}, a constant one without keys) and the rowtime. */
  private static List<Column> keysAndTime(List<Column> keyCols, Column time) {
    List<Column> projected = new ArrayList<>();
    if (keyCols.isEmpty()) projected.add(functions.lit(0).as(CONSTANT_KEY));
    for (int i = 0; i < keyCols.size(); i++) projected.add(keyCols.get(i).as("k" + i));
    projected.add(time.as(Protocol.STREAM_WINDOW_TIME_COLUMN));
    return projected;
  }

  /**
   * {@code input} projected to {@code projected} under a watermark {@code delayMs} behind the
   * rowtime {@code time}; the operator's event-time column, by which Spark drops late input rows,
   * is {@code lastMax} of the rowtime's epoch milliseconds.
   */
  private static Dataset<Row> watermarked(Dataset<Row> input, List<Column> projected, Column time, long delayMs,
      Function<Column, Column> lastMax) {
    if (input.isStreaming() && Connectors.flinkExactEventTime(input.sparkSession())) {
      // Its processor judges lateness by Spark's watermark, per micro-batch: not Flink's per-row rule.
      throw TableException.unsupported("a window with Python aggregates on the window processor, or an over window, "
          + "over an unbounded source under pyflink_table.streaming.event-time = flink-exact (use micro-batch, the "
          + "default)");
    }
    projected.add(time.cast(DataTypes.TimestampType).as(ROWTIME_LTZ));
    Dataset<Row> marked = input.select(projected.toArray(new Column[0]))
        .withWatermark(ROWTIME_LTZ, delayMs + " milliseconds");
    List<Column> kept = new ArrayList<>();
    for (String c : marked.columns()) if (!c.equals(ROWTIME_LTZ)) kept.add(marked.col(c));
    Column millis = functions.unix_millis(marked.col(ROWTIME_LTZ));
    kept.add(functions.timestamp_millis(lastMax.apply(millis))
        .as(LAST_WINDOW_MAX, new MetadataBuilder().putLong("spark.watermarkDelayMs", delayMs).build()));
    return marked.select(kept.toArray(new Column[0]));
  }

  /**
   * Adds each Python call's arguments ({@code a<j>_<m>}) and each built-in's ({@code b<j>}) to
   * {@code projected}, describes the built-ins for the worker in {@code others}, and returns the
   * argument column names per call.
   */
  private static List<List<String>> projectArguments(List<Column> projected, List<List<Column>> args,
      List<BuiltIn> builtIns, List<Map<String, Object>> others) {
    List<List<String>> arguments = new ArrayList<>();
    for (int j = 0; j < args.size(); j++) {
      List<String> names = new ArrayList<>();
      for (int m = 0; m < args.get(j).size(); m++) {
        String name = "a" + j + "_" + m;
        projected.add(args.get(j).get(m).as(name));
        names.add(name);
      }
      arguments.add(names);
    }
    for (int j = 0; j < builtIns.size(); j++) {
      BuiltIn b = builtIns.get(j);
      projected.add(b.argument().as("b" + j));
      Map<String, Object> spec = new HashMap<>(Map.of(Protocol.BUILTIN_FUNCTION, b.function(),
          Protocol.BUILTIN_DISTINCT, b.distinct(), Protocol.BUILTIN_ARGUMENT, "b" + j,
          Protocol.BUILTIN_INTEGRAL, integral(b.type())));
      // The worker rounds a DECIMAL result half up to its scale (Arrow takes no more digits).
      if (b.type() instanceof DecimalType d) spec.put(Protocol.BUILTIN_SCALE, d.scale());
      if (b.filter() != null) {
        projected.add(functions.coalesce(b.filter(), functions.lit(false)).as("f" + j));
        spec.put(Protocol.BUILTIN_FILTER, "f" + j);
      }
      if (b.separator() != null) spec.put(Protocol.BUILTIN_SEPARATOR, b.separator());
      others.add(spec);
    }
    return arguments;
  }

  /**
   * Row-count windows over an unbounded stream, per key in arrival order: window {@code k} holds
   * the key's rows {@code k*slide .. k*slide+size-1} and is emitted when its last row arrives
   * (Flink's count windows; an incomplete window never fires). No timers, no watermark.
   *
   * @param time the counted processing-time column (stored with the rows, not read)
   * @param template a Python function of the session (Spark's UserDefinedPythonFunction) whose
   *     interpreter runs the processor when there is no Python aggregate call
   * @return the keys named {@code keyNames} (metadata kept), then one column per Python function
   *     named {@code resultNames}, then one per built-in
   */
  public static Dataset<Row> countWindows(Dataset<Row> input, Column time, long size, long slide,
      List<Column> keyCols, List<String> keyNames, List<PythonAggregateFunction> calls, List<List<Column>> args,
      List<String> resultNames, List<BuiltIn> builtIns, Object template) {
    if (calls.isEmpty() && template == null) {
      throw new IllegalStateException("a row-count window without Python aggregates needs the session's worker template");
    }
    input.sparkSession().conf().set("spark.sql.streaming.stateStore.providerClass", ROCKSDB);
    List<Column> projected = keysAndTime(keyCols, time);
    List<Map<String, Object>> others = new ArrayList<>();
    List<List<String>> arguments = projectArguments(projected, args, builtIns, others);
    Dataset<Row> rows = input.select(projected.toArray(new Column[0]));
    StructType rowSchema = rows.schema();
    int keyCount = keyCols.isEmpty() ? 1 : keyCols.size();
    StructType output = withResults(keys(rowSchema, keyCount), calls, builtIns);
    String layout = layout(Protocol.STREAM_WINDOW_KIND_COUNT, Map.of(Protocol.LAYOUT_SIZE, size,
        Protocol.LAYOUT_SLIDE, slide), arguments, others, rows, output);
    Dataset<Row> fired = run(rows, keyCount, output, layout, calls, "None", template);

    List<Column> out = new ArrayList<>();
    for (int i = 0; i < keyCols.size(); i++) {
      out.add(fired.col(Protocol.STREAM_WINDOW_KEY_PREFIX + i).as(keyNames.get(i), rowSchema.fields()[i].metadata()));
    }
    return fired.select(withResults(out, fired, calls, resultNames, builtIns));
  }

  /** {@code rows} grouped by their first {@code keyCount} columns through the worker's event-time processor. */
  private static Dataset<Row> run(Dataset<Row> rows, int keyCount, StructType output, String layout,
      List<PythonAggregateFunction> calls) {
    return run(rows, keyCount, output, layout, calls, "EventTime", null);
  }

  /**
   * As above, in Spark's {@code timeMode} ("EventTime", "None"); the processor runs in
   * {@code template}'s interpreter when given, else in the first call's.
   */
  private static Dataset<Row> run(Dataset<Row> rows, int keyCount, StructType output, String layout,
      List<PythonAggregateFunction> calls, String timeMode, Object template) {
    Column call = PackedAggregation.evaluatorCall(rows, calls, template, layout,
        a -> PythonCommand.command(Protocol.STREAM_WINDOW_MODULE, Protocol.STREAM_WINDOW_FUNCTION, a),
        Protocol.STREAM_WINDOW_FUNCTION, output, Protocol.EVAL_TRANSFORM_WITH_STATE_PANDAS_UDF);
    Column[] keys = new Column[keyCount];
    for (int i = 0; i < keyCount; i++) keys[i] = rows.col(rows.schema().fields()[i].name());
    RelationalGroupedDataset grouped = (RelationalGroupedDataset) rows.groupBy(keys);
    return grouped.transformWithStateInPandas(call, output, "Append",
        timeMode, null, "");
  }

  /** The frame bound ({@code rows} or {@code rangeMs} of {@link #over}) of an UNBOUNDED PRECEDING window. */
  public static final long UNBOUNDED = Long.MAX_VALUE;

  /**
   * Over windows over an unbounded stream, ordered by the rowtime {@code time}: each row
   * is emitted, with its aggregates over the {@code rows} preceding rows ({@code rangeMs < 0}) or
   * the rows within {@code rangeMs} before it, once the watermark reaches its time, as Flink's
   * row-time over functions do; a row at or before its key's last emitted time is dropped
   * (Flink's rule for late rows). With {@code rows} or {@code rangeMs} {@link #UNBOUNDED} the
   * frame starts at the key's first row (UNBOUNDED PRECEDING): the processor keeps accumulators,
   * and a row at or before the watermark is late (Flink's rule there). With {@code delayMs < 0}
   * {@code time} is a processing-time attribute: each row is emitted on arrival with the aggregates
   * over its frame of its key's rows so far.
   *
   * @param template a Spark {@code UserDefinedPythonFunction} of the session, whose interpreter and
   *     shipped files run the processor when there is no Python function ({@code calls} empty)
   * @return the input's columns, then one column per Python function named {@code resultNames},
   *     then one per built-in
   */
  public static Dataset<Row> over(Dataset<Row> input, Column time, long delayMs, long rows, long rangeMs,
      List<Column> keyCols, List<PythonAggregateFunction> calls, List<List<Column>> args, List<String> resultNames,
      List<BuiltIn> builtIns, Object template) {
    input.sparkSession().conf().set("spark.sql.streaming.stateStore.providerClass", ROCKSDB);
    List<Column> projected = keysAndTime(keyCols, time);
    boolean constantKey = keyCols.isEmpty();
    StructType inputSchema = input.schema();
    List<String> passed = new ArrayList<>();
    for (int i = 0; i < inputSchema.size(); i++) {
      projected.add(input.col(Scope.quote(inputSchema.fields()[i].name())).as("c" + i));
      passed.add("c" + i);
    }
    List<Map<String, Object>> others = new ArrayList<>();
    List<List<String>> arguments = projectArguments(projected, args, builtIns, others);
    // Whether a row is late depends on its key's last emitted time, which only the processor knows.
    // A processing-time window has no watermark: its rows are taken in arrival order.
    boolean proctime = delayMs < 0;
    Dataset<Row> stored = proctime ? input.select(projected.toArray(new Column[0]))
        : watermarked(input, projected, time, delayMs, millis -> functions.lit(NEVER_LATE_MS));

    StructType output = new StructType();
    for (int i = 0; i < inputSchema.size(); i++) output = output.add("c" + i, inputSchema.fields()[i].dataType(), true);
    output = withResults(output, calls, builtIns);
    Map<String, Object> parameters = new HashMap<>(Map.of(Protocol.LAYOUT_PRECEDING_ROWS, rows,
        Protocol.LAYOUT_PRECEDING_RANGE, rangeMs, Protocol.LAYOUT_PASSED, passed));
    if (proctime) parameters.put(Protocol.LAYOUT_PROCTIME, true);
    String layout = layout(Protocol.STREAM_WINDOW_KIND_OVER, parameters, arguments, others, stored, output);
    Dataset<Row> fired = run(stored, constantKey ? 1 : keyCols.size(), output, layout, calls,
        proctime ? "None" : "EventTime", template);

    List<Column> out = new ArrayList<>();
    for (int i = 0; i < inputSchema.size(); i++) {
      StructField f = inputSchema.fields()[i];
      out.add(fired.col("c" + i).as(f.name(), f.metadata()));
    }
    return fired.select(withResults(out, fired, calls, resultNames, builtIns));
  }
}
