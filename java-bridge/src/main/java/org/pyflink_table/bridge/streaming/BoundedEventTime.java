package org.pyflink_table.bridge.streaming;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.monotonically_increasing_id;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.expressions.Window;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.table.PythonAggregateSelect;
import org.pyflink_table.bridge.window.TimeAttributes;

/**
 * Flink's event time over a bounded stream, at parallelism 1: rows arrive in order and the
 * watermark a row meets is {@code max(rowtime of the rows before it) - delay}. A row is late for
 * a group window, and dropped, when the window's last instant ({@code end - 1 ms}) is at or before
 * that watermark. Every other window fires at the end of input (Flink's MAX_WATERMARK), so the
 * remaining rows aggregate as in batch. Applied below each group-window aggregation whose input
 * has a rowtime with a WATERMARK; sliding windows are judged per window, as Flink does, and
 * session windows are formed again without their late rows ({@link BoundedSessions}).
 */
public final class BoundedEventTime {
  private BoundedEventTime() {}

  private static final String SEQ = "__pft_arrival_seq";
  private static final String ROW_WATERMARK = "__pft_row_watermark";

  /** The plan with late rows dropped below its group-window aggregations. */
  static LogicalPlan dropLateRows(SparkSession spark, LogicalPlan p) {
    return Changelog.rewriteWindowedAggregates(p, a -> withoutLateRows(spark, a));
  }

  /**
   * {@code windowed}'s rows (a bounded stream's, each with its group window, grouped by
   * {@code grouping}) without the late ones, under the same columns: a session window's rows with
   * their sessions formed again ({@link BoundedSessions}). For aggregations that Spark does not plan
   * as an {@link Aggregate} below the select (the Table API's pandas aggregate functions, aggregated
   * by {@code udf.PackedAggregation}), so {@link #dropLateRows} cannot reach them.
   */
  public static Dataset<Row> onTimeRows(Dataset<Row> windowed, List<Column> grouping) {
    SparkSession spark = (SparkSession) windowed.sparkSession();
    LogicalPlan probe = windowed.groupBy(grouping.toArray(new Column[0])).agg(count(lit(1))).queryExecution().analyzed();
    if (!(probe instanceof Aggregate a) || !Changelog.isWindowed(a)) return windowed;
    LogicalPlan rewritten = withoutLateRows(spark, a);
    if (rewritten == a) return windowed;
    return org.apache.spark.sql.classic.Dataset.ofRows(spark, ((Aggregate) rewritten).child());
  }

  private static LogicalPlan withoutLateRows(SparkSession spark, Aggregate a) {
    Attribute window = Changelog.windowKey(a);
    Attribute rowtime = Changelog.rowtime(a);
    // PyFlink's general Python window operator judges lateness once per bundle: a bounded input
    // smaller than one bundle has no late rows there (Table API selects and SQL's PythonUDAF alike).
    // Its pandas window operator drops them as the built-in one does. Built-ins beside pandas
    // functions in a Table API select aggregate rows whose late ones are dropped already (onTimeRows).
    if (window == null || rowtime == null || PythonAggregateSelect.countsLateRows(a) || Changelog.callsGeneralPython(a)
        || PythonAggregateSelect.besidePandas(a)) {
      return a;
    }
    long delayMs = rowtime.metadata().getLong(StreamSources.WATERMARK_DELAY_MS);
    // Session windows merge: their late rows are dropped before the sessions form.
    if (BoundedSessions.applies(a, window)) return BoundedSessions.aggregate(spark, a, window, rowtime, delayMs);
    Dataset<Row> child = org.apache.spark.sql.classic.Dataset.ofRows(spark, a.child());
    List<Column> keep = new ArrayList<>();
    for (Attribute attr : ScalaInterop.list(a.child().output())) keep.add(Jobs.column(attr));
    // Arrival order is the scan order (one partition at parallelism 1, files in order), numbered
    // below any reordering of the rows (session windows: TimeAttributes.ARRIVAL).
    Attribute numbered = null;
    for (Attribute attr : ScalaInterop.list(a.child().output())) {
      if (attr.name().equals(TimeAttributes.ARRIVAL)) numbered = attr;
    }
    Dataset<Row> ordered = child.withColumn(SEQ, numbered != null ? Jobs.column(numbered) : monotonically_increasing_id());
    Column seenBefore = max(Jobs.column(rowtime)).over(Window.orderBy(col(SEQ)).rowsBetween(Window.unboundedPreceding(), -1));
    Column interval = expr("INTERVAL '" + delayMs + "' MILLISECOND");
    Column lastInstant = Jobs.column(window).getField("end").minus(expr("INTERVAL 1 MILLISECOND"));
    Dataset<Row> onTime = ordered.withColumn(ROW_WATERMARK, seenBefore.minus(interval))
        .filter(col(ROW_WATERMARK).isNull().or(lastInstant.gt(col(ROW_WATERMARK))))
        .select(keep.toArray(new Column[0]));
    return new Aggregate(a.groupingExpressions(), a.aggregateExpressions(), onTime.queryExecution().analyzed(), a.hint());
  }

}
