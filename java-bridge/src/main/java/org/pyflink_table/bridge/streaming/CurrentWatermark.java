package org.pyflink_table.bridge.streaming;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.Union;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal$;
import org.apache.spark.sql.catalyst.expressions.NamedExpression$;
import org.apache.spark.sql.catalyst.expressions.ScalaUDF;
import org.apache.spark.sql.catalyst.plans.logical.EventTimeWatermark;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.execution.streaming.runtime.StreamExecution;
import org.apache.spark.sql.execution.streaming.runtime.StreamExecutionContext;
import org.apache.spark.sql.execution.streaming.runtime.StreamingQueryWrapper;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.expressions.FunctionCatalog;
import org.pyflink_table.bridge.types.FlinkTypes;
import scala.Function1;
import scala.Option;
import scala.collection.immutable.Seq;

/**
 * Flink's {@code CURRENT_WATERMARK(rowtime)} over an unbounded source: Spark's watermark as of the
 * start of the running micro-batch (the value every row of that batch sees), NULL while there is
 * none (Spark starts at the epoch; Flink gives NULL there too, measured).
 *
 * <p>Spark has no expression that reads the watermark. The call is planned as a placeholder, a
 * non-deterministic Java UDF named {@link #PLACEHOLDER} over the rowtime column (so {@link Jobs}
 * can place Spark's watermark above that column's source), and this optimizer rule replaces it
 * with a literal while Spark plans each micro-batch: the rule runs on the stream's thread, whose
 * local property names the query, whose latest execution context holds the batch's watermark.
 */
public final class CurrentWatermark extends Rule<LogicalPlan> {
  /** The SQL function the Flink dialect calls for {@code CURRENT_WATERMARK} (registered per session). */
  public static final String SQL_NAME = "__pft_current_watermark";
  /** The same function for the Table API (its errors without SQL's "SQL validation failed." prefix). */
  public static final String TABLE_API_NAME = FunctionCatalog.CURRENT_WATERMARK_FUNCTION;
  private static final String PLACEHOLDER = "__pft_current_watermark_placeholder";
  private static final String SEQ = "__pft_cwm_arrival";
  private static final String ROW_WATERMARK = "__pft_row_watermark";

  /** The placeholder's body, evaluated only if a plan escaped the rule: a bug, said as such rather than a wrong value. */
  private static final class Unreplaced extends scala.runtime.AbstractFunction1<Object, Object>
      implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public Object apply(Object ts) {
      throw new IllegalStateException("Internal error: CURRENT_WATERMARK was evaluated outside a micro-batch");
    }
  }

  private final SparkSession spark;

  private CurrentWatermark(SparkSession spark) {
    this.spark = spark;
  }

  /** Registers the functions of {@code CURRENT_WATERMARK} with the session; returns the optimizer rule. */
  public static CurrentWatermark register(SparkSession spark, boolean streaming) {
    spark.sessionState().functionRegistry().createOrReplaceTempFunction(
        SQL_NAME, args -> build(args, streaming, "SQL validation failed. "), "internal");
    spark.sessionState().functionRegistry().createOrReplaceTempFunction(
        TABLE_API_NAME, args -> build(args, streaming, ""), "internal");
    return new CurrentWatermark(spark);
  }

  private static Expression build(Seq<Expression> args, boolean streaming, String prefix) {
    List<String> types = new ArrayList<>();
    for (Expression a : ScalaInterop.list(args)) types.add(FlinkTypes.fromSpark(a.dataType()));
    String call = "CURRENT_WATERMARK(" + String.join(", ", types) + ")";
    if (args.size() != 1) {
      throw new ValidationException(prefix + "Invalid function call:\n" + call
          + "\nCURRENT_WATERMARK takes one argument, a rowtime attribute.");
    }
    Expression rowtime = args.apply(0);
    // Flink: only a column declared by a WATERMARK clause, and only in streaming mode, is a rowtime attribute.
    boolean isRowtime = rowtime instanceof Attribute && streaming
        && ((Attribute) rowtime).metadata().contains(StreamSources.WATERMARK_DELAY_MS)
        && (rowtime.dataType() instanceof TimestampType || rowtime.dataType() instanceof TimestampNTZType);
    if (!isRowtime) {
      throw new ValidationException(prefix + "Invalid function call:\n" + call + "\nThe argument of "
          + "CURRENT_WATERMARK must be a rowtime attribute (a column with a WATERMARK, in streaming mode), but was "
          + types.get(0) + ".");
    }
    // Deterministic, as its value is within one micro-batch (aggregate arguments must be); never
    // foldable (its argument is a column), so it survives the optimizer until the rule replaces it.
    Expression placeholder = new ScalaUDF(new Unreplaced(), DataTypes.TimestampType, ScalaInterop.seq(List.of(rowtime)),
        ScalaInterop.seq(List.of(Option.empty())), Option.empty(), Option.apply(PLACEHOLDER), true, true);
    // Flink's result has the rowtime's type with precision 3: TIMESTAMP(3) for a TIMESTAMP rowtime.
    boolean ltz = rowtime.dataType() instanceof TimestampType;
    Expression typed = ltz ? placeholder
        : new Cast(placeholder, DataTypes.TimestampNTZType, Option.empty(), Cast.apply$default$4());
    Metadata md = new MetadataBuilder()
        .putString(FlinkTypes.METADATA_KEY, ltz ? "TIMESTAMP_LTZ(3)" : "TIMESTAMP(3)").build();
    return new Alias(typed, "_typed", NamedExpression$.MODULE$.newExprId(), ScalaInterop.seq(List.of()),
        Option.apply(md), ScalaInterop.seq(List.of()));
  }

  /** Whether {@code e} is a placeholder of {@code CURRENT_WATERMARK}. */
  private static boolean isPlaceholder(Expression e) {
    return e instanceof ScalaUDF && ((ScalaUDF) e).udfName().contains(PLACEHOLDER);
  }

  /** The rowtime column of the first {@code CURRENT_WATERMARK} call in {@code plan}, or null. */
  static Attribute rowtime(LogicalPlan plan) {
    // The builder's argument is an attribute; the optimizer may have substituted it since (skipped then).
    for (Expression e : ScalaInterop.list(plan.flatMap(p -> p.expressions()))) {
      Option<Expression> call = e.find(x -> isPlaceholder(x) && x.children().apply(0) instanceof Attribute);
      if (call.isDefined()) return (Attribute) call.get().children().apply(0);
    }
    return null;
  }

  private static boolean hasPlaceholder(LogicalPlan plan) {
    return plan.exists(p -> p.expressions().exists(e -> e.exists(CurrentWatermark::isPlaceholder)));
  }

  /**
   * The rowtime of each watermarked unbounded source {@code plan} reads (the attribute where it first
   * appears, one per source), after refusing by name the calls whose value would not be Flink's. Over
   * several sources Flink's value is the watermark where the call is evaluated: above a join the
   * minimum of the inputs' watermarks (Spark's global watermark, measured on PyFlink 2.3), but
   * Flink evaluates a call above a union in each of its inputs (it pushes the projection below the
   * union: each row sees its own source's watermark, measured) and a call below a join on one input's,
   * neither of which Spark has.
   */
  static List<Attribute> sourceRowtimes(LogicalPlan plan) {
    List<Attribute> all = new ArrayList<>();
    origins(plan, all);
    if (all.size() < 2 || !hasPlaceholder(plan)) return all;
    if (plan.exists(p -> p instanceof Union && countOrigins(p) > 1)) {
      throw TableException.unsupported("CURRENT_WATERMARK in a query with a union of two or more watermarked "
          + "unbounded sources (Flink gives each input's rows that input's own watermark)");
    }
    if (plan.exists(p -> p.expressions().exists(e -> e.exists(CurrentWatermark::isPlaceholder))
        && countOrigins(p) < all.size())) {
      throw TableException.unsupported("CURRENT_WATERMARK below the join of two or more watermarked unbounded "
          + "sources (Flink gives it the watermark of the sources below the call only)");
    }
    return all;
  }

  private static int countOrigins(LogicalPlan plan) {
    List<Attribute> found = new ArrayList<>();
    origins(plan, found);
    return found.size();
  }

  /** Adds the rowtime of each streaming node that outputs one while none of its children does. */
  private static void origins(LogicalPlan node, List<Attribute> out) {
    boolean below = false;
    for (LogicalPlan c : ScalaInterop.list(node.children())) {
      origins(c, out);
      below |= rowtimeOf(c) != null;
    }
    Attribute own = rowtimeOf(node);
    if (!below && own != null && node.isStreaming()) out.add(own);
  }

  private static Attribute rowtimeOf(LogicalPlan node) {
    for (Attribute a : ScalaInterop.list(node.output())) {
      if (a.metadata().contains(StreamSources.WATERMARK_DELAY_MS)) return a;
    }
    return null;
  }

  /** Whether {@code plan} already has a watermark (one placed for a group window). */
  static boolean hasWatermark(LogicalPlan plan) {
    return plan.exists(p -> p instanceof EventTimeWatermark);
  }

  /**
   * A bounded input's plan with each {@code CURRENT_WATERMARK} call replaced by Flink's per-row value
   * at parallelism 1: rows arrive in scan order and each sees the largest rowtime before it minus
   * the delay, NULL while that is at or before the epoch (measured on PyFlink 2.3). The value is
   * computed at the rowtime's source, as Flink's watermark assigner does there, and carried up
   * through projections and filters (calls in the node above them, an aggregation say, read it);
   * a call higher up stays a placeholder, which the rule refuses by name.
   */
  static LogicalPlan perRow(SparkSession spark, LogicalPlan plan) {
    Attribute rowtime = rowtime(plan);
    if (rowtime == null || plan.isStreaming()) return plan;
    LogicalPlan source = source(plan, rowtime);
    long delayMs = rowtime.metadata().getLong(StreamSources.WATERMARK_DELAY_MS);
    Dataset<Row> rows = org.apache.spark.sql.classic.Dataset.ofRows(spark, source)
        .withColumn(SEQ, functions.monotonically_increasing_id());
    Column before = functions.max(Jobs.column(rowtime).cast(DataTypes.TimestampType))
        .over(Window.orderBy(functions.col(SEQ)).rowsBetween(Window.unboundedPreceding(), -1))
        .minus(functions.expr("INTERVAL '" + delayMs + "' MILLISECOND"));
    Column value = functions.when(before.gt(functions.timestamp_micros(functions.lit(0))), before);
    List<Column> keep = new ArrayList<>();
    for (Attribute a : ScalaInterop.list(source.output())) keep.add(Jobs.column(a));
    keep.add(value.as(ROW_WATERMARK));
    LogicalPlan withValue = rows.select(keep.toArray(new Column[0])).queryExecution().analyzed();
    List<Attribute> out = ScalaInterop.list(withValue.output());
    Attribute carried = out.get(out.size() - 1);
    LogicalPlan carriedPlan = carry(plan, source, withValue, carried);
    List<NamedExpression> same = new ArrayList<>(ScalaInterop.list(plan.output()));
    return new Project(ScalaInterop.seq(same), carriedPlan);
  }

  /**
   * An unbounded input's plan under flink-exact event time: each {@code CURRENT_WATERMARK} call
   * replaced by the per-row watermark {@link ArrivalWatermark} assigns at the rowtime's source
   * (NULL at or before the epoch, as over bounded input), carried up through projections and
   * filters. A call it cannot reach (above an aggregation, a join, a union), or next to a group
   * window (which places its own), is refused by name.
   */
  static LogicalPlan perRowStream(SparkSession spark, LogicalPlan plan) {
    Attribute rowtime = rowtime(plan);
    if (rowtime == null || !plan.isStreaming()) return plan;
    if (hasWatermark(plan)) {
      throw ArrivalWatermark.unsupported("CURRENT_WATERMARK in a query with a group window");
    }
    if (countOrigins(plan) > 1) {
      throw ArrivalWatermark.unsupported("CURRENT_WATERMARK in a query reading two or more watermarked unbounded "
          + "sources");
    }
    LogicalPlan source = source(plan, rowtime);
    long delayMs = rowtime.metadata().getLong(StreamSources.WATERMARK_DELAY_MS);
    LogicalPlan assigned = ArrivalWatermark.assign(spark, source, rowtime, delayMs);
    Column wm = Jobs.column(ArrivalWatermark.rowWatermark(assigned));
    Column value = functions.when(wm.gt(functions.timestamp_micros(functions.lit(0))), wm);
    List<Column> keep = new ArrayList<>();
    for (Attribute a : ScalaInterop.list(source.output())) keep.add(Jobs.column(a));
    keep.add(value.as(ROW_WATERMARK));
    LogicalPlan withValue = org.apache.spark.sql.classic.Dataset.ofRows(spark, assigned)
        .select(keep.toArray(new Column[0])).queryExecution().analyzed();
    List<Attribute> out = ScalaInterop.list(withValue.output());
    LogicalPlan carried = carry(plan, source, withValue, out.get(out.size() - 1));
    if (hasPlaceholder(carried)) {
      throw ArrivalWatermark.unsupported("CURRENT_WATERMARK above an aggregation, a join or a union (it is computed "
          + "over projections and filters of the rowtime's source and the node right above them)");
    }
    return new Project(ScalaInterop.seq(new ArrayList<NamedExpression>(ScalaInterop.list(plan.output()))), carried);
  }

  /** The node that first outputs {@code rowtime} (the source's scan or its projection). */
  private static LogicalPlan source(LogicalPlan plan, Attribute rowtime) {
    // Down through nodes that do not output it too (an INSERT's projection to the sink's columns).
    for (LogicalPlan c : ScalaInterop.list(plan.children())) {
      if (c.exists(p -> p.outputSet().contains(rowtime))) return source(c, rowtime);
    }
    return plan;
  }


  private static LogicalPlan carry(LogicalPlan node, LogicalPlan source, LogicalPlan withValue, Attribute value) {
    if (node == source) return withValue;
    if (!node.exists(p -> p == source)) return node;
    LogicalPlan n = ScalaInterop.mapChildren(node, c -> carry(c, source, withValue, value));
    boolean available = false;
    for (LogicalPlan c : ScalaInterop.list(n.children())) available |= c.outputSet().contains(value);
    if (!available) return n;
    Function1<Expression, Expression> replace = new Function1<>() {
      @Override
      public Expression apply(Expression e) {
        return isPlaceholder(e) ? value : e.mapChildren(this);
      }
    };
    n = n.mapExpressions(replace);
    if (n instanceof Project) {
      List<NamedExpression> items = new ArrayList<>(ScalaInterop.list(((Project) n).projectList()));
      items.add(value);
      n = new Project(ScalaInterop.seq(items), ((Project) n).child());
    }
    return n;
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (!hasPlaceholder(plan)) return plan;
    if (!plan.isStreaming()) {
      // perRow carries the value through projections and filters only.
      throw TableException.unsupported("CURRENT_WATERMARK over a bounded source in streaming mode here (it is "
          + "computed for execute(), collect(), print() and INSERT, over projections and filters of the rowtime's "
          + "source and the node right above them; not for to_pandas(), nor above an aggregation, a join or a "
          + "union)");
    }
    Long watermarkMs = batchWatermarkMs();
    if (watermarkMs == null) return plan; // not a micro-batch (EXPLAIN of the stream): left as planned
    Expression value = Literal$.MODULE$.create(watermarkMs > 0 ? watermarkMs * 1000 : null, DataTypes.TimestampType);
    Function1<Expression, Expression> replace = new Function1<>() {
      @Override
      public Expression apply(Expression e) {
        return isPlaceholder(e) ? value : e.mapChildren(this);
      }
    };
    return plan.transformUpWithSubqueries(ScalaInterop.everywhere((LogicalPlan p) -> p.mapExpressions(replace)));
  }

  /** The watermark (ms) of the micro-batch this thread is planning, or null outside one. */
  private Long batchWatermarkMs() {
    SparkContext sc = spark.sparkContext();
    String id = sc.getLocalProperty(StreamExecution.QUERY_ID_KEY());
    if (id == null) return null;
    StreamingQuery query = spark.streams().get(id);
    if (!(query instanceof StreamingQueryWrapper)) return null;
    StreamExecutionContext context = ((StreamingQueryWrapper) query).streamingQuery().getLatestExecutionContext();
    return context == null || context.offsetSeqMetadata() == null ? null : context.offsetSeqMetadata().batchWatermarkMs();
  }
}
