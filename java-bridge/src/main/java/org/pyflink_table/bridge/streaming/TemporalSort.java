package org.pyflink_table.bridge.streaming;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.python.SimplePythonFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.Alias;
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
import org.apache.spark.sql.catalyst.plans.logical.Union;
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
 * as for group windows (over a {@code UNION ALL} of sources, each input's at its own scan: Spark's
 * global watermark is then their minimum, as Flink's union forwards); Spark's own dropping of late
 * input is turned off (the operator's event-time column never lies at or before a watermark), the
 * processor judging lateness by Flink's rule. Its
 * output, one partition in the processor's order, keeps that order to collect(), print() and sinks.
 * A sort by a processing-time attribute and further keys runs on the same processor without time:
 * Flink's {@code ProcTimeSortOperator} sorts the rows buffered until its next processing-time timer
 * (a file's rows, measured on PyFlink 2.3), here a micro-batch's.
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

  /** Whether {@code s} sorts by a processing-time attribute ascending first (the rows' arrival order). */
  static boolean byArrival(Sort s) {
    List<SortOrder> order = ScalaInterop.list(s.order());
    if (order.isEmpty() || order.get(0).direction() != Ascending$.MODULE$) return false;
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
   * Whether {@code input} numbers rows by a rowtime ascending (ROW_NUMBER() OVER (... ORDER BY ts)):
   * with {@code rn = 1} Flink plans an insert-only Deduplicate, which it sorts (measured on PyFlink
   * 2.3), where ours is a Top-N: refused by name then.
   */
  static boolean ranksByRowtime(LogicalPlan input) {
    return input.exists(n -> n instanceof org.apache.spark.sql.catalyst.plans.logical.Window
        && !((org.apache.spark.sql.catalyst.plans.logical.Window) n).orderSpec().isEmpty()
        && isRowtimeAscending(((org.apache.spark.sql.catalyst.plans.logical.Window) n).orderSpec().head()));
  }

  private static boolean isRowtimeAscending(SortOrder o) {
    return o.direction() == Ascending$.MODULE$ && o.child() instanceof Attribute
        && ((Attribute) o.child()).metadata().contains(StreamSources.WATERMARK_DELAY_MS);
  }

  /**
   * {@code p} with a temporal sort at its top (under projections and filters only) replaced by the
   * processor, its input read from the rowtime's source through projections and filters only (or
   * from a union of such inputs);
   * {@code p} itself otherwise ({@link Jobs#checkSorts} then refuses what is left).
   */
  static LogicalPlan planned(TableContext env, LogicalPlan p) {
    if (p instanceof Sort && ((Sort) p).global() && p.isStreaming() && isTemporal((Sort) p)
        && fromSource(((Sort) p).child(), rowtimeKey((Sort) p), true)) {
      return processed(env, (Sort) p, false);
    }
    if (p instanceof Sort && ((Sort) p).global() && p.isStreaming() && byArrival((Sort) p)) {
      // Flink's ProcTimeSortOperator without further keys emits the rows as they arrive; with them,
      // the rows buffered until its next processing-time timer sorted by them: a micro-batch's.
      return ((Sort) p).order().size() == 1 ? ((Sort) p).child() : processed(env, (Sort) p, true);
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
        && fromSource(((Sort) p).child(), rowtimeKey((Sort) p), false)) {
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

  /**
   * Whether {@code rowtime} reaches {@code p}'s output from its source through projections and
   * filters only; with {@code unions}, also from a {@code UNION ALL} whose every input's column at
   * its position is a rowtime that reaches it so (a projection renaming the rowtime is followed).
   */
  private static boolean fromSource(LogicalPlan p, Attribute rowtime, boolean unions) {
    if (unions && p instanceof Union) {
      int at = position(p, rowtime);
      for (LogicalPlan c : ScalaInterop.list(p.children())) {
        Attribute input = ScalaInterop.list(c.output()).get(at);
        if (!input.metadata().contains(StreamSources.WATERMARK_DELAY_MS) || !fromSource(c, input, true)) return false;
      }
      return true;
    }
    boolean below = false;
    for (LogicalPlan c : ScalaInterop.list(p.children())) below |= c.outputSet().contains(rowtime);
    if (!(p instanceof Project || p instanceof Filter || p instanceof SubqueryAlias || p instanceof View)) return !below;
    if (below) return fromSource(p.children().head(), rowtime, unions);
    if (!unions) return true; // p first outputs it: the source's scan or its projection
    // A renamed column is followed (to a union's, say); one computed from a union's columns is refused.
    Attribute renamed = p instanceof Project ? renamed((Project) p, rowtime) : null;
    return renamed != null ? fromSource(p.children().head(), renamed, true) : !containsUnion(p);
  }

  /**
   * {@code p} with Spark's watermark at the scan of each source {@code rowtime} comes from ({@link
   * #fromSource}): over a union, each input's own (Spark's global watermark is then their minimum),
   * the filters above the union kept above them as {@link Jobs#watermarkedAtSource} keeps its own.
   */
  private static LogicalPlan watermarked(SparkSession spark, LogicalPlan p, Attribute rowtime, boolean perRow) {
    if (!containsUnion(p)) {
      return Jobs.watermarkedAtSource(spark, p, rowtime, rowtime.metadata().getLong(StreamSources.WATERMARK_DELAY_MS),
          perRow);
    }
    if (p instanceof Union) {
      int at = position(p, rowtime);
      return ScalaInterop.mapChildren(p, c -> watermarked(spark, c, ScalaInterop.list(c.output()).get(at), false));
    }
    Attribute renamed = p instanceof Project ? renamed((Project) p, rowtime) : null;
    Attribute below = renamed != null ? renamed : rowtime;
    return Jobs.keptAbove(ScalaInterop.mapChildren(p, c -> watermarked(spark, c, below, false)));
  }

  private static boolean containsUnion(LogicalPlan p) {
    return p.exists(n -> n instanceof Union);
  }

  /** The attribute {@code p} renames to {@code rowtime} ({@code x AS rowtime}), or null. */
  private static Attribute renamed(Project p, Attribute rowtime) {
    for (NamedExpression e : ScalaInterop.list(p.projectList())) {
      if (e instanceof Alias && e.exprId().equals(rowtime.exprId()) && ((Alias) e).child() instanceof Attribute) {
        return (Attribute) ((Alias) e).child();
      }
    }
    return null;
  }

  private static int position(LogicalPlan p, Attribute a) {
    List<Attribute> out = ScalaInterop.list(p.output());
    for (int i = 0; i < out.size(); i++) if (out.get(i).exprId().equals(a.exprId())) return i;
    throw new IllegalStateException("no column " + a + " in " + p.nodeName());
  }

  /**
   * The processor sorting {@code s}'s rows: by the rowtime as the watermark passes it, or, {@code
   * byArrival} (a processing-time attribute first), each micro-batch's rows by the further keys.
   */
  private static LogicalPlan processed(TableContext env, Sort s, boolean byArrival) {
    SparkSession spark = (SparkSession) env.spark;
    List<Column> cols = new ArrayList<>();
    cols.add(functions.lit(0).as("k0"));
    boolean perRow = false;
    LogicalPlan input = s.child();
    long delayMs = 0;
    if (!byArrival) {
      Attribute rowtime = rowtimeKey(s);
      delayMs = rowtime.metadata().getLong(StreamSources.WATERMARK_DELAY_MS);
      perRow = ArrivalWatermark.on(spark);
      if (perRow && containsUnion(s.child())) {
        throw ArrivalWatermark.unsupported("a sort by the time attribute " + rowtime.name() + " over a union");
      }
      input = watermarked(spark, s.child(), rowtime, perRow);
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
    }
    Dataset<Row> in = org.apache.spark.sql.classic.Dataset.ofRows(spark, input);
    List<SortOrder> order = ScalaInterop.list(s.order());
    List<List<Boolean>> further = new ArrayList<>();
    for (int i = 1; i < order.size(); i++) {
      SortOrder o = order.get(i);
      cols.add(Jobs.column(o.child()).as("s" + i));
      further.add(List.of(o.direction() == Ascending$.MODULE$, o.nullOrdering() == NullsFirst$.MODULE$));
    }
    List<Attribute> attrs = ScalaInterop.list(s.child().output());
    cols.add(RetractingStreams.asJson(attrs).as("row"));
    if (!byArrival) {
      cols.add(functions.timestamp_millis(functions.lit(NEVER_LATE_MS))
          .as(NEVER_LATE, new MetadataBuilder().putLong("spark.watermarkDelayMs", delayMs).build()));
    }
    Dataset<Row> rows = in.select(cols.toArray(new Column[0]));

    StructType output = new StructType().add("row", DataTypes.StringType, true);
    String layout = PythonCommand.json(Map.of("order", further, "per_row", perRow, "by_arrival", byArrival,
        "output", output.json()));
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
        byArrival ? "None" : "EventTime", null, "");

    // The sort's output: the rows' columns under their ids, metadata (the rowtime's mark) kept.
    List<Column> values = RetractingStreams.fromJson(sorted.col("row"), attrs);
    LogicalPlan selected = sorted.select(values.toArray(new Column[0])).queryExecution().analyzed();
    List<Attribute> out = ScalaInterop.list(selected.output());
    List<NamedExpression> restored = new ArrayList<>();
    for (int i = 0; i < attrs.size(); i++) restored.add(RetractingStreams.restore(out.get(i), attrs.get(i)));
    return new Project(ScalaInterop.seq(restored), selected);
  }
}
