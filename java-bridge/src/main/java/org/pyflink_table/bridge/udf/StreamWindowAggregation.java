package org.pyflink_table.bridge.udf;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.classic.RelationalGroupedDataset;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructType;
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
  private static final String ROCKSDB =
      "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";

  /**
   * Aggregates {@code input} per window and key.
   *
   * @param time the rowtime column (TIMESTAMP or TIMESTAMP_LTZ; windows on its wall-clock value)
   * @param delayMs the rowtime's watermark delay
   * @param sizeMs window length; {@code slideMs} equal to it for a tumbling window
   * @param windowColumn name of the output's (start, end) struct column
   * @return the window struct, the keys named {@code keyNames} (metadata kept), then one column
   *     per function named {@code resultNames}
   */
  public static Dataset<Row> aggregate(Dataset<Row> input, Column time, long delayMs, long sizeMs, long slideMs,
      List<Column> keyCols, List<String> keyNames, List<PythonAggregateFunction> calls, List<List<Column>> args,
      List<String> resultNames, String windowColumn) {
    // transformWithStateInPandas keeps its state in RocksDB only; users should not have to know.
    input.sparkSession().conf().set("spark.sql.streaming.stateStore.providerClass", ROCKSDB);
    List<Column> projected = new ArrayList<>();
    boolean constantKey = keyCols.isEmpty();
    if (constantKey) projected.add(functions.lit(0).as(CONSTANT_KEY));
    for (int i = 0; i < keyCols.size(); i++) projected.add(keyCols.get(i).as("k" + i));
    projected.add(time.as(Protocol.STREAM_WINDOW_TIME_COLUMN));
    List<List<String>> arguments = new ArrayList<>();
    for (int j = 0; j < calls.size(); j++) {
      List<String> names = new ArrayList<>();
      for (int m = 0; m < args.get(j).size(); m++) {
        String name = "a" + j + "_" + m;
        projected.add(args.get(j).get(m).as(name));
        names.add(name);
      }
      arguments.add(names);
    }
    projected.add(time.cast(DataTypes.TimestampType).as(ROWTIME_LTZ));
    Dataset<Row> marked = input.select(projected.toArray(new Column[0])).withWatermark(ROWTIME_LTZ, delayMs + " milliseconds");
    // Spark drops a stateful operator's input rows at or before the watermark, but Flink keeps a
    // sliding window's row for its windows that have not fired: the operator's event-time column
    // is the last instant of the row's last window (the watermark itself still follows the rowtime).
    List<Column> kept = new ArrayList<>();
    for (String c : marked.columns()) if (!c.equals(ROWTIME_LTZ)) kept.add(marked.col(c));
    Column millis = functions.unix_millis(marked.col(ROWTIME_LTZ));
    Column lastMax = functions.timestamp_millis(millis.minus(functions.pmod(millis, functions.lit(slideMs)))
        .plus(functions.lit(sizeMs - 1)));
    kept.add(lastMax.as(LAST_WINDOW_MAX, new MetadataBuilder().putLong("spark.watermarkDelayMs", delayMs).build()));
    Dataset<Row> rows = marked.select(kept.toArray(new Column[0]));
    StructType rowSchema = rows.schema();

    int keyCount = constantKey ? 1 : keyCols.size();
    StructType output = new StructType();
    for (int i = 0; i < keyCount; i++) output = output.add("k" + i, rowSchema.fields()[i].dataType(), true);
    output = output.add("__pft_start", DataTypes.TimestampNTZType, true).add("__pft_end", DataTypes.TimestampNTZType, true);
    for (int j = 0; j < calls.size(); j++) output = output.add("r" + j, calls.get(j).resultSparkType(), true);

    String layout = PythonCommand.json(Map.of("size", sizeMs, "slide", slideMs, "arguments", arguments,
        "columns", List.of(rows.columns()),
        "output", output.json()));
    Column call = PackedAggregation.evaluatorCall(rows, calls, layout,
        a -> PythonCommand.command(Protocol.STREAM_WINDOW_MODULE, Protocol.STREAM_WINDOW_FUNCTION, a),
        Protocol.STREAM_WINDOW_FUNCTION, output, Protocol.EVAL_TRANSFORM_WITH_STATE_PANDAS_UDF);
    Column[] keys = new Column[keyCount];
    for (int i = 0; i < keyCount; i++) keys[i] = rows.col(rowSchema.fields()[i].name());
    RelationalGroupedDataset grouped =
        (RelationalGroupedDataset) rows.groupBy(keys);
    Dataset<Row> fired = grouped.transformWithStateInPandas(call, output, "Append",
        "EventTime", null, "");

    List<Column> out = new ArrayList<>();
    out.add(functions.struct(fired.col("__pft_start").as("start"), fired.col("__pft_end").as("end")).as(windowColumn));
    for (int i = 0; i < keyCols.size(); i++) {
      Metadata md = rowSchema.fields()[i].metadata();
      out.add(fired.col("k" + i).as(keyNames.get(i), md));
    }
    for (int j = 0; j < calls.size(); j++) out.add(fired.col("r" + j).as(resultNames.get(j)));
    return fired.select(out.toArray(new Column[0]));
  }
}
