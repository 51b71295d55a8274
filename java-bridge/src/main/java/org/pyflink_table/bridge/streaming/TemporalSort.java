package org.pyflink_table.bridge.streaming;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.python.SimplePythonFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.Ascending$;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.NullsFirst$;
import org.apache.spark.sql.catalyst.expressions.SortOrder;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.Sort;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.plans.logical.View;
import org.apache.spark.sql.classic.RelationalGroupedDataset;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.execution.python.UserDefinedPythonFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructType;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.protocol.Protocol;
import org.pyflink_table.bridge.table.TableContext;
import org.pyflink_table.bridge.udf.PythonCommand;
import org.pyflink_table.bridge.window.TimeAttributes;

/**
 * Flink's temporal sort over an unbounded source: {@code ORDER BY rowtime[, more keys]} (the first
 * key the source's rowtime attribute, ascending). Flink's {@code RowTimeSortOperator} buffers the
 * rows and emits them in rowtime order once the watermark passes their time, dropping a row at or
 * before the last rowtime it emitted; Spark has no such operator, so the sort becomes a
 * {@code transformWithStateInPandas} processor with one constant key
 * ({@code pyflink_table._worker.stream_sorts}). The watermark is the source's, placed at its scan
 * as for group windows; Spark's own dropping of late input is turned off (the operator's event-time
 * column never lies at or before a watermark), the processor judging lateness by Flink's rule. Its
 * output, one partition in the processor's order, keeps that order to collect(), print() and sinks.
 */
final class TemporalSort {
  private TemporalSort() {}

  private static final String ROCKSDB = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";
  /** The operator's event-time column: 2262-01-01T00:00:00Z, never at or before a watermark. */
  private static final String NEVER_LATE = "__pft_sort_never_late";
  private static final long NEVER_LATE_MS = 9214646400000L;
  /** Columns of the bounded sort's pass: arrival order, the rowtime and the watermark met (epoch ms). */
  private static final String SEQ = "__pft_sort_seq";
  private static final String TIME = "__pft_sort_t";
  private static final String MET = "__pft_sort_w";

  /** Whether {@code s} is a temporal sort: a sort of a stream whose first key is an ascending rowtime attribute. */
  static boolean isTemporal(Sort s) {
    Attribute rowtime = rowtimeKey(s);
    return rowtime != null && ScalaInterop.list(s.order()).get(0).direction() == Ascending$.MODULE$;
  }

  /** Whether {@code s} sorts by a processing-time attribute ascending only (the rows' arrival order). */
  static boolean byArrival(Sort s) {
    List<SortOrder> order = ScalaInterop.list(s.order());
    if (order.size() != 1 || order.get(0).direction() != Ascending$.MODULE$) return false;
    Expression first = order.get(0).child();
    return first instanceof Attribute && ((Attribute) first).metadata().contains(TimeAttributes.PROCTIME);
  }

  /** The sort's first key if it is a rowtime attribute (with a watermark), or null. */
  static Attribute rowtimeKey(Sort s) {
    List<SortOrder> order = ScalaInterop.list(s.order());
    Expression first = order.isEmpty() ? null : order.get(0).child();
    return first instanceof Attribute && ((Attribute) first).metadata().contains(StreamSources.WATERMARK_DELAY_MS)
        ? (Attribute) first : null;
  }

  /**
   * {@code p} with a temporal sort at its top (under projections and filters only) replaced by the
   * processor, its input read from the rowtime's source through projections and filters only;
   * {@code p} itself otherwise ({@link Jobs#checkSorts} then refuses what is left).
   */
  static LogicalPlan planned(TableContext env, LogicalPlan p) {
    if (p instanceof Sort && ((Sort) p).global() && p.isStreaming() && isTemporal((Sort) p)
        && fromSource(((Sort) p).child(), rowtimeKey((Sort) p))) {
      return processed(env, (Sort) p);
    }
    if (p instanceof Sort && ((Sort) p).global() && p.isStreaming() && byArrival((Sort) p)) {
      // Flink's ProcTimeSortOperator without further keys emits the rows as they arrive.
      return ((Sort) p).child();
    }
    if (p instanceof Project || p instanceof Filter || p instanceof SubqueryAlias || p instanceof View) {
      LogicalPlan child = p.children().head();
      LogicalPlan replaced = planned(env, child);
      return replaced == child ? p : p.withNewChildren(ScalaInterop.seq(List.of(replaced)));
    }
    return p;
  }

  /**
   * {@code p} (a bounded plan in streaming mode) with a temporal sort at its top (under projections
   * and filters only) of the rowtime's source rows dropping the rows Flink's operator drops: the rows
   * arrive in scan order, each meeting {@code max(rowtime of the rows before it) - delay} (as
   * {@link BoundedEventTime}), and a row at or before the last rowtime the watermark had emitted is
   * late; the others are emitted sorted at the end of input (MAX_WATERMARK), ties in arrival order.
   * The late rows are found in one pass over the input on one partition
   * ({@code pyflink_table._worker.stream_sorts.bounded_temporal_sort}).
   */
  static LogicalPlan bounded(TableContext env, LogicalPlan p) {
    if (p instanceof Sort && ((Sort) p).global() && !p.isStreaming() && isTemporal((Sort) p)
        && fromSource(((Sort) p).child(), rowtimeKey((Sort) p))) {
      return boundedSort(env, (Sort) p);
    }
    if (p instanceof Project || p instanceof Filter || p instanceof SubqueryAlias || p instanceof View) {
      LogicalPlan child = p.children().head();
      LogicalPlan replaced = bounded(env, child);
      return replaced == child ? p : p.withNewChildren(ScalaInterop.seq(List.of(replaced)));
    }
    return p;
  }

  private static LogicalPlan boundedSort(TableContext env, Sort s) {
    SparkSession spark = (SparkSession) env.spark;
    Attribute rowtime = rowtimeKey(s);
    long delayMs = rowtime.metadata().getLong(StreamSources.WATERMARK_DELAY_MS);
    List<Attribute> attrs = ScalaInterop.list(s.child().output());
    Dataset<Row> child = org.apache.spark.sql.classic.Dataset.ofRows(spark, s.child());
    List<Column> cols = new ArrayList<>();
    for (Attribute a : attrs) cols.add(Jobs.column(a));
    Column seq = functions.monotonically_increasing_id();
    for (Attribute a : attrs) if (a.name().equals(TimeAttributes.ARRIVAL)) seq = Jobs.column(a);
    Dataset<Row> numbered = child.select(cols.toArray(new Column[0])).withColumn(SEQ, seq);
    Column millis = functions.unix_millis(Jobs.column(rowtime).cast(DataTypes.TimestampType));
    Column seenBefore = functions.max(millis).over(
        org.apache.spark.sql.expressions.Window.orderBy(functions.col(SEQ)).rowsBetween(
            org.apache.spark.sql.expressions.Window.unboundedPreceding(), -1));
    Dataset<Row> rows = numbered.withColumn(TIME, millis).withColumn(MET, seenBefore.minus(functions.lit(delayMs)))
        .repartition(1).sortWithinPartitions(functions.col(SEQ));
    StructType schema = rows.schema();
    String layout = PythonCommand.json(Map.of("time", TIME, "watermark", MET));
    SimplePythonFunction t = RetractingAggregates.worker(env);
    SimplePythonFunction runner = new SimplePythonFunction(PythonCommand.call(Protocol.STREAM_SORT_MODULE,
        Protocol.BOUNDED_TEMPORAL_SORT_FUNCTION, layout), t.envVars(), t.pythonIncludes(), t.pythonExec(),
        t.pythonVer(), t.broadcastVars(), t.accumulator());
    UserDefinedPythonFunction udf = new UserDefinedPythonFunction(Protocol.BOUNDED_TEMPORAL_SORT_FUNCTION, runner,
        schema, Protocol.EVAL_MAP_ARROW_ITER_UDF, true, List.of(), List.of());
    List<Column> all = new ArrayList<>();
    for (String c : rows.columns()) all.add(rows.col(c));
    Dataset<Row> kept = ((org.apache.spark.sql.classic.Dataset<Row>) rows).mapInArrow(udf.apply(ScalaInterop.seq(all)),
        false, null);
    // The sort's keys over the kept rows' columns (by position), then arrival for ties.
    LogicalPlan keptPlan = kept.queryExecution().analyzed();
    List<Attribute> out = ScalaInterop.list(keptPlan.output());
    Map<ExprId, Attribute> byId = new HashMap<>();
    for (int i = 0; i < attrs.size(); i++) byId.put(attrs.get(i).exprId(), out.get(i));
    List<SortOrder> order = new ArrayList<>();
    for (SortOrder o : ScalaInterop.list(s.order())) {
      order.add((SortOrder) o.transform(ScalaInterop.everywhere((Expression e) ->
          e instanceof Attribute && byId.containsKey(((Attribute) e).exprId()) ? byId.get(((Attribute) e).exprId()) : e)));
    }
    order.add(new SortOrder(out.get(attrs.size()), Ascending$.MODULE$, NullsFirst$.MODULE$, ScalaInterop.seq(List.of())));
    LogicalPlan sorted = new Sort(ScalaInterop.seq(order), true, keptPlan, s.hint());
    List<NamedExpression> restored = new ArrayList<>();
    for (int i = 0; i < attrs.size(); i++) restored.add(RetractingStreams.restore(out.get(i), attrs.get(i)));
    return new Project(ScalaInterop.seq(restored), sorted);
  }

  /** Whether {@code rowtime} reaches {@code p}'s output from its source through projections and filters only. */
  private static boolean fromSource(LogicalPlan p, Attribute rowtime) {
    boolean below = false;
    for (LogicalPlan c : ScalaInterop.list(p.children())) below |= c.outputSet().contains(rowtime);
    if (!below) return true; // p first outputs it: the source's scan or its projection
    if (!(p instanceof Project || p instanceof Filter || p instanceof SubqueryAlias || p instanceof View)) return false;
    return fromSource(p.children().head(), rowtime);
  }

  private static LogicalPlan processed(TableContext env, Sort s) {
    SparkSession spark = (SparkSession) env.spark;
    Attribute rowtime = rowtimeKey(s);
    long delayMs = rowtime.metadata().getLong(StreamSources.WATERMARK_DELAY_MS);
    boolean perRow = ArrivalWatermark.on(spark);
    LogicalPlan input = Jobs.watermarkedAtSource(spark, s.child(), rowtime, delayMs, perRow);
    Dataset<Row> in = org.apache.spark.sql.classic.Dataset.ofRows(spark, input);
    List<Column> cols = new ArrayList<>();
    cols.add(functions.lit(0).as("k0"));
    // Epoch milliseconds of the rowtime as Spark's watermark reads it (as TIMESTAMP_LTZ).
    cols.add(functions.unix_millis(Jobs.column(rowtime).cast(DataTypes.TimestampType)).as("t"));
    if (perRow) {
      Attribute met = ArrivalWatermark.rowWatermark(input);
      if (met == null) {
        throw ArrivalWatermark.unsupported("a sort by the time attribute " + rowtime.name() + " whose rows come from "
            + "the source through other than projections and filters");
      }
      cols.add(functions.unix_millis(Jobs.column(met)).as("w"));
    }
    List<SortOrder> order = ScalaInterop.list(s.order());
    List<List<Boolean>> further = new ArrayList<>();
    for (int i = 1; i < order.size(); i++) {
      SortOrder o = order.get(i);
      cols.add(Jobs.column(o.child()).as("s" + i));
      further.add(List.of(o.direction() == Ascending$.MODULE$, o.nullOrdering() == NullsFirst$.MODULE$));
    }
    List<Attribute> attrs = ScalaInterop.list(s.child().output());
    cols.add(RetractingStreams.asJson(attrs).as("row"));
    cols.add(functions.timestamp_millis(functions.lit(NEVER_LATE_MS))
        .as(NEVER_LATE, new MetadataBuilder().putLong("spark.watermarkDelayMs", delayMs).build()));
    Dataset<Row> rows = in.select(cols.toArray(new Column[0]));

    StructType output = new StructType().add("row", DataTypes.StringType, true);
    String layout = PythonCommand.json(Map.of("order", further, "per_row", perRow, "output", output.json()));
    // transformWithStateInPandas keeps its state in RocksDB only; users should not have to know.
    rows.sparkSession().conf().set("spark.sql.streaming.stateStore.providerClass", ROCKSDB);
    SimplePythonFunction t = RetractingAggregates.worker(env);
    SimplePythonFunction runner = new SimplePythonFunction(
        PythonCommand.command(Protocol.STREAM_SORT_MODULE, Protocol.STREAM_TEMPORAL_SORT_FUNCTION, layout),
        t.envVars(), t.pythonIncludes(), t.pythonExec(), t.pythonVer(), t.broadcastVars(), t.accumulator());
    UserDefinedPythonFunction udf = new UserDefinedPythonFunction(Protocol.STREAM_TEMPORAL_SORT_FUNCTION, runner,
        output, Protocol.EVAL_TRANSFORM_WITH_STATE_PANDAS_UDF, true, List.of(), List.of());
    List<Column> all = new ArrayList<>();
    for (String c : rows.columns()) all.add(rows.col(c));
    RelationalGroupedDataset grouped = (RelationalGroupedDataset) rows.groupBy(rows.col("k0"));
    Dataset<Row> sorted = grouped.transformWithStateInPandas(udf.apply(ScalaInterop.seq(all)), output, "Append",
        "EventTime", null, "");

    // The sort's output: the rows' columns under their ids, metadata (the rowtime's mark) kept.
    List<Column> values = RetractingStreams.fromJson(sorted.col("row"), attrs);
    LogicalPlan selected = sorted.select(values.toArray(new Column[0])).queryExecution().analyzed();
    List<Attribute> out = ScalaInterop.list(selected.output());
    List<NamedExpression> restored = new ArrayList<>();
    for (int i = 0; i < attrs.size(); i++) restored.add(RetractingStreams.restore(out.get(i), attrs.get(i)));
    return new Project(ScalaInterop.seq(restored), selected);
  }
}
