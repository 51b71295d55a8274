package org.pyflink_table.bridge.streaming;


import static org.apache.spark.sql.functions.expr;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.CreateNamedStruct;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.GreaterThanOrEqual;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.PythonUDF;
import org.apache.spark.sql.catalyst.expressions.SortOrder;
import org.apache.spark.sql.catalyst.expressions.SparkPartitionID;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.Deduplicate;
import org.apache.spark.sql.catalyst.plans.logical.Distinct;
import org.apache.spark.sql.catalyst.plans.logical.Expand;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.GlobalLimit;
import org.apache.spark.sql.catalyst.plans.logical.Join;
import org.apache.spark.sql.catalyst.plans.logical.LocalLimit;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Offset;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.Sort;
import org.apache.spark.sql.catalyst.plans.logical.TransformWithStateInPySpark;
import org.apache.spark.sql.classic.ExpressionColumnNode;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.protocol.Protocol;
import org.pyflink_table.bridge.table.JTable;
import org.pyflink_table.bridge.table.StateTtl;
import org.pyflink_table.bridge.table.TableContext;
import org.pyflink_table.bridge.window.TimeAttributes;

/**
 * What the Python side needs to run a table over an unbounded source as a Spark streaming query.
 *
 * <p>Event time: Spark's watermark must be on a TIMESTAMP_LTZ column, Flink's rowtime is usually a
 * TIMESTAMP. For each group-window aggregation over a stream, the rowtime (marked by
 * {@link StreamSources}) is copied as TIMESTAMP_LTZ and watermarked above the source's scan, below
 * the query's filters, as Flink assigns watermarks at the source; the aggregation then also
 * groups by the window's last instant ({@code end - 1 ms}, Flink's {@code maxTimestamp}) carrying
 * the watermark delay. Spark thus emits a window once the watermark reaches its maxTimestamp and
 * drops rows whose window has already fired, Flink's two rules, at micro-batch granularity.
 */
public final class Jobs {
  private Jobs() {}

  private static final String ROWTIME_LTZ = "__pft_rowtime";
  private static final String WINDOW_MAX = "__pft_window_max";
  /** Spark's mark of a {@code session_window} column (SessionWindow.marker). */
  static final String SESSION_WINDOW_MARKER = "spark.sessionWindow";

  /** Whether the table reads an unbounded source (so it runs as a streaming query). */
  public static boolean isUnbounded(JTable table) {
    return table.df.isStreaming();
  }

  /**
   * Refuses what this version cannot run on a stream yet: an unbounded (updating) aggregation,
   * whose retractions need per-key state (group-window aggregations are fine: they only append).
   */
  public static void checkStreamable(Dataset<Row> rows) {
    String retracting = RetractingStreams.retractingNode(rows.queryExecution().analyzed());
    if (retracting != null) {
      // Only collect() and print() of execute() take the changes of RetractingStreams so far.
      throw TableException.unsupported("inserting the changelog of " + retracting + " over unbounded sources into "
          + "a sink in streaming mode (collect() and print() of execute() take it)");
    }
    String node = Changelog.updatingNode(rows.queryExecution().analyzed());
    if (node != null) {
      throw TableException.unsupported("an updating aggregation (" + node + ") over an unbounded source in streaming "
          + "mode; aggregate over a group window (with a WATERMARK), or read a bounded source");
    }
  }

  /** The table's rows as a stream to start, with watermarks placed (after {@link #checkStreamable}). */
  public static Dataset<Row> streamOf(JTable table) {
    return streamOf(table.env, table.df);
  }

  /**
   * {@link #streamOf(JTable)} for a Dataset (the rows of an INSERT) of {@code env}'s, whose worker
   * runs the temporal sort's processor ({@link TemporalSort}).
   */
  public static Dataset<Row> streamOf(TableContext env, Dataset<Row> df) {
    LogicalPlan plan = df.queryExecution().analyzed();
    LogicalPlan sorted = TemporalSort.planned(env, plan);
    if (sorted == plan) return streamOf(env.spark, df, true);
    return streamOf(env.spark, org.apache.spark.sql.classic.Dataset.ofRows((SparkSession) env.spark, sorted), true);
  }

  static Dataset<Row> streamOf(org.apache.spark.sql.SparkSession spark, Dataset<Row> df, boolean insertOnly) {
    LogicalPlan plan = df.queryExecution().analyzed();
    checkSorts(plan);
    if (insertOnly) checkStreamable(df);
    LogicalPlan placed = placeWatermarks((SparkSession) spark, deduplicated(plan));
    if (StateTtl.ms(spark) > 0) checkStateTtl(spark, placed);
    return placed == plan ? df : org.apache.spark.sql.classic.Dataset.ofRows((SparkSession) spark, placed);
  }

  /**
   * With a state TTL, refuses the stateful operators whose state cannot expire: Spark's own
   * (stream-stream joins, streaming aggregations, deduplication) and the Top-N processor. Updating
   * aggregations and outer joins run on processors that expire idle state; windows hold no idle
   * state in Flink either (their state goes when they fire), nor does a temporal sort (its waiting
   * rows outlived a TTL of 1 ms, measured on PyFlink 2.3).
   */
  private static void checkStateTtl(org.apache.spark.sql.SparkSession spark, LogicalPlan p) {
    if (p instanceof Join && ((Join) p).left().isStreaming() && ((Join) p).right().isStreaming()) {
      StateTtl.refuse(spark, "a regular join of unbounded inputs (" + ((Join) p).joinType().sql().toLowerCase(Locale.ROOT)
          + " join, Spark's stream-stream join)");
    }
    if (p instanceof Aggregate && p.isStreaming() && !Changelog.isWindowed((Aggregate) p)) {
      StateTtl.refuse(spark, "an aggregation over an unbounded source run as Spark's streaming aggregation");
    }
    if ((p instanceof Deduplicate || p instanceof Distinct) && p.isStreaming()) {
      StateTtl.refuse(spark, "a deduplication (DISTINCT) over an unbounded source");
    }
    if (p instanceof TransformWithStateInPySpark) {
      Expression f = ((TransformWithStateInPySpark) p).functionExpr();
      if (f instanceof PythonUDF && ((PythonUDF) f).name().equals(Protocol.STREAM_TOP_N_FUNCTION)) {
        StateTtl.refuse(spark, "a Top-N over an unbounded source");
      }
    }
    for (LogicalPlan c : ScalaInterop.list(p.children())) checkStateTtl(spark, c);
  }

  /**
   * Refuses the sorts of a stream that are no Top-N (ORDER BY ... LIMIT n) and that {@link
   * TemporalSort} did not plan: with Flink's message when the first key is no ascending time
   * attribute, by name otherwise (a temporal sort elsewhere than over the source's rows through
   * projections and filters, at the query's top), and an OFFSET other than of a Top-N's sort.
   */
  static void checkSorts(LogicalPlan p) {
    if (!p.isStreaming()) return;
    if (p instanceof Offset) {
      throw TableException.unsupported("an OFFSET over an unbounded source in streaming mode other than ORDER BY ... "
          + "LIMIT n OFFSET m (a Top-N)");
    }
    LogicalPlan next = p;
    if (p instanceof GlobalLimit && ((GlobalLimit) p).child() instanceof LocalLimit
        && ((LocalLimit) ((GlobalLimit) p).child()).child() instanceof Sort) {
      next = ((LocalLimit) ((GlobalLimit) p).child()).child(); // a Top-N: its sort is fine
    } else if (p instanceof GlobalLimit && ((GlobalLimit) p).child() instanceof LocalLimit
        && offsetSort(((LocalLimit) ((GlobalLimit) p).child()).child()) != null) {
      next = offsetSort(((LocalLimit) ((GlobalLimit) p).child()).child()); // a Top-N from rank m + 1
    } else if (p instanceof Sort && ((Sort) p).global()) {
      List<SortOrder> order = ScalaInterop.list(((Sort) p).order());
      Expression first = order.isEmpty() ? null : order.get(0).child();
      // Flink sorts a stream by an ascending rowtime first only (its message otherwise, measured for DESC).
      if (TemporalSort.isTemporal((Sort) p)) {
        // Flink's temporal sort takes inserts only: its message for a Top-N below it, which keeps the
        // rowtime a time attribute; aggregations and outer joins make it a plain timestamp (both
        // measured on PyFlink 2.3).
        LogicalPlan input = ((Sort) p).child();
        String retracting = RetractingStreams.retractingNode(input);
        String node = retracting != null ? retracting : Changelog.updatingNode(input);
        if (node != null && (node.startsWith("Rank(") || node.startsWith("SortLimit("))
            && !TemporalSort.ranksByRowtime(input)) {
          throw new TableException("StreamPhysicalTemporalSort doesn't support consuming update " + (retracting != null
              ? "and delete " : "") + "changes which is produced by node " + node);
        }
        if (node != null && !TemporalSort.ranksByRowtime(input)) {
          throw new TableException("Sort on a non-time-attribute field is not supported.");
        }
        throw TableException.unsupported("a sort by the time attribute " + ((Attribute) first).name() + " over an "
            + "unbounded source other than of the source's rows (or a UNION ALL of sources' rows) through projections "
            + "and filters, at the top of the query, in streaming mode (ORDER BY the rowtime over such rows is "
            + "supported)");
      }
      if (first instanceof Attribute && ((Attribute) first).metadata().contains(TimeAttributes.PROCTIME)
          && order.get(0).direction() == org.apache.spark.sql.catalyst.expressions.Ascending$.MODULE$) {
        throw TableException.unsupported("a sort by the processing-time attribute " + ((Attribute) first).name()
            + " below other operators than projections and filters over an unbounded source in streaming mode "
            + "(ORDER BY it at the top of the query is supported)");
      }
      throw new TableException("Sort on a non-time-attribute field is not supported.");
    }
    for (LogicalPlan c : ScalaInterop.list(next.children())) checkSorts(c);
  }

  /** The sort under {@code p} when {@code p} is an OFFSET m (a constant) of a sort, else null. */
  static Sort offsetSort(LogicalPlan p) {
    if (!(p instanceof Offset) || !(((Offset) p).child() instanceof Sort) || !((Offset) p).offsetExpr().foldable()
        || !(((Offset) p).offsetExpr().eval(null) instanceof Number)) return null;
    return (Sort) ((Offset) p).child();
  }

  /**
   * {@code p} with each DISTINCT of an insert-only stream (SQL UNION, SELECT DISTINCT) as Spark's
   * streaming deduplication, which emits a row the first time it is seen, as Flink's aggregation
   * without aggregates does over inserts (Spark would plan the DISTINCT as an aggregation, which it
   * refuses in Append mode). DISTINCTs of updating streams are processors by now (RetractingStreams).
   */
  private static LogicalPlan deduplicated(LogicalPlan p) {
    LogicalPlan node = ScalaInterop.mapChildren(p, Jobs::deduplicated);
    if (node instanceof Distinct && node.isStreaming()) {
      return new Deduplicate(((Distinct) node).child().output(), ((Distinct) node).child(), scala.Option.empty());
    }
    return node;
  }

  private static LogicalPlan placeWatermarks(SparkSession spark, LogicalPlan p) {
    LogicalPlan placed = Changelog.rewriteWindowedAggregates(p, a -> a.isStreaming() ? watermarked(spark, a) : a);
    // CURRENT_WATERMARK reads Spark's watermark, which needs a watermark in the plan: the source's,
    // unless a group window has placed it already.
    if (ArrivalWatermark.on(spark)) return CurrentWatermark.perRowStream(spark, placed);
    Attribute rowtime = CurrentWatermark.rowtime(placed);
    if (rowtime == null || !placed.isStreaming()) return placed;
    // Over several sources, Spark's global watermark is the minimum of theirs (0, NULL, for one
    // without rows yet), Flink's above a join.
    List<Attribute> rowtimes = CurrentWatermark.sourceRowtimes(placed);
    if (CurrentWatermark.hasWatermark(placed)) {
      if (rowtimes.size() > 1) {
        throw TableException.unsupported("CURRENT_WATERMARK in a query with a group window reading two or more "
            + "watermarked unbounded sources");
      }
      return placed;
    }
    if (rowtimes.size() < 2) rowtimes = List.of(rowtime);
    for (Attribute r : rowtimes) {
      placed = watermarkedAtSource(spark, placed, r, r.metadata().getLong(StreamSources.WATERMARK_DELAY_MS));
    }
    return placed;
  }

  /** A Column of an analysed expression (its attribute ids kept). */
  static Column column(Expression e) {
    return new Column(ExpressionColumnNode.apply(e,
        ExpressionColumnNode.apply$default$2()));
  }

  private static Aggregate watermarked(SparkSession spark, Aggregate a) {
    Attribute window = Changelog.windowKey(a);
    Attribute rowtime = Changelog.rowtime(a);
    if (window == null || rowtime == null) {
      throw new TableException("A group window over an unbounded source needs a time attribute with a watermark: "
          + "declare WATERMARK FOR <column> AS <column> - INTERVAL '...' SECOND on the source table and window on "
          + "that column.");
    }
    String python = Changelog.pythonAggregate(a);
    if (python != null) {
      // Unreachable as far as known: Spark's streaming aggregation cannot run a Python aggregate, and
      // none gets here. SQL group windows calling one are put on the window processor when the query
      // is planned (window.StreamWindowSql, in sqlQuery, which INSERT and EXPLAIN use too), Table API
      // windows by their select (window.StreamWindowSelect, whatever the packing setting), and window
      // table function aggregations calling a pandas one take the SQL path too (a general one runs as
      // an updating aggregation, without a window). Kept so that a shape missed
      // fails with this message rather than Spark's.
      throw new TableException("Internal error: the Python aggregate function " + python + " in a group window over "
          + "an unbounded source reached Spark's streaming aggregation instead of the window processor; please report "
          + "the query.");
    }
    long delayMs = rowtime.metadata().getLong(StreamSources.WATERMARK_DELAY_MS);
    boolean perRow = ArrivalWatermark.on(spark);
    if (perRow && window.metadata().contains(SESSION_WINDOW_MARKER)) {
      throw ArrivalWatermark.unsupported("a session window over an unbounded source");
    }
    // Spark closes a session, and drops a row whose own window [ts, ts + gap) has closed, when its end
    // is at or before the watermark; Flink when its last instant (end - 1 ms) is: a session query's
    // watermark runs one millisecond ahead of the source's.
    long aheadMs = window.metadata().contains(SESSION_WINDOW_MARKER) ? 1 : 0;
    LogicalPlan source = watermarkedAtSource(spark, a.child(), rowtime, delayMs, perRow, aheadMs);
    Dataset<Row> child = org.apache.spark.sql.classic.Dataset.ofRows(spark, source);
    if (perRow) {
      // Flink drops a row from each window whose last instant is at or before the watermark the row met.
      Attribute met = ArrivalWatermark.rowWatermark(source);
      if (met == null) {
        throw ArrivalWatermark.unsupported("a group window whose rows come from the source through other than "
            + "projections and filters (a join, a union, an aggregation, CUMULATE's rows)");
      }
      child = child.filter(column(met).isNull().or(maxTimestamp(a, window).gt(column(met))));
    }
    List<Column> keep = new ArrayList<>();
    for (Attribute attr : ScalaInterop.list(a.child().output())) keep.add(column(attr));
    Metadata delay = new MetadataBuilder().putLong("spark.watermarkDelayMs", delayMs).build();
    if (window.metadata().contains(SESSION_WINDOW_MARKER)) return watermarkedSessions(a, window, source, delayMs);
    // Flink fires a window when the watermark reaches end - 1 ms and drops rows of fired windows.
    keep.add(maxTimestamp(a, window).as(WINDOW_MAX, delay));
    Dataset<Row> marked = child.select(keep.toArray(new Column[0]));
    LogicalPlan markedPlan = marked.queryExecution().analyzed();
    List<Expression> grouping = new ArrayList<>(ScalaInterop.list(a.groupingExpressions()));
    List<Attribute> out = ScalaInterop.list(markedPlan.output());
    grouping.add(out.get(out.size() - 1));
    return new Aggregate(ScalaInterop.seq(grouping), a.aggregateExpressions(), markedPlan, a.hint());
  }

  /**
   * The window's last instant ({@code end - 1 ms}, Flink's {@code maxTimestamp}) for a row of the
   * aggregation's input. Where a projection below builds the window as a struct whose {@code end}
   * is computed from columns the input still has (a tumbling window's, from the rowtime; a window
   * table function's, from its end column), that computation is copied: reading {@code end} out of
   * the struct column instead, in the projection that also passes the struct on, keeps Catalyst's
   * CollapseProject from merging the two projections and makes it retry on every micro-batch.
   * Sliding windows (Spark's Expand) and other shapes read the struct's {@code end}.
   */
  private static Column maxTimestamp(Aggregate a, Attribute window) {
    Expression end = structField(definition(a.child(), window), "end");
    Column e = end != null && end.deterministic() && end.references().subsetOf(a.child().outputSet())
        ? column(end) : column(window).getField("end");
    return e.cast(DataTypes.TimestampType).minus(expr("INTERVAL 1 MILLISECOND"));
  }

  /** The expression a projection in {@code plan} defines {@code attr} as (through renames), or null. */
  private static Expression definition(LogicalPlan plan, Attribute attr) {
    if (plan instanceof Project) {
      for (NamedExpression item : ScalaInterop.list(((Project) plan).projectList())) {
        if (item instanceof Alias && item.exprId().equals(attr.exprId())) {
          Expression e = ((Alias) item).child();
          return e instanceof Attribute ? definition(((Project) plan).child(), (Attribute) e) : e;
        }
      }
    }
    for (LogicalPlan c : ScalaInterop.list(plan.children())) {
      Expression found = definition(c, attr);
      if (found != null) return found;
    }
    return null;
  }

  /** The value of {@code struct}'s field {@code name} if it is a {@code named_struct(...)}, or null. */
  private static Expression structField(Expression struct, String name) {
    if (!(struct instanceof CreateNamedStruct)) return null;
    List<Expression> parts = ScalaInterop.list(struct.children());
    for (int i = 0; i + 1 < parts.size(); i += 2) {
      if (parts.get(i) instanceof Literal && name.equals(String.valueOf(((Literal) parts.get(i)).value()))) {
        Expression value = parts.get(i + 1);
        return value instanceof Alias ? ((Alias) value).child() : value;
      }
    }
    return null;
  }

  /**
   * {@code plan} with Spark's watermark placed right above the node that first outputs
   * {@code rowtime} (the source's scan, where Flink assigns watermarks), so that rows a later
   * {@code WHERE} drops still advance it. Spark pushes deterministic filters that do not read the
   * event-time column below a watermark; the filters above it are made non-deterministic (same
   * rows) so that they stay above. The plan's output is unchanged.
   */
  static LogicalPlan watermarkedAtSource(SparkSession spark, LogicalPlan plan, Attribute rowtime, long delayMs) {
    return watermarkedAtSource(spark, plan, rowtime, delayMs, false);
  }

  /**
   * With {@code perRow} (flink-exact), the source's rows also get the watermark each met
   * ({@link ArrivalWatermark}), carried up through projections, filters and a sliding window's
   * expansion as the output's extra column {@link ArrivalWatermark#ROW_WATERMARK} where it can be.
   */
  static LogicalPlan watermarkedAtSource(SparkSession spark, LogicalPlan plan, Attribute rowtime, long delayMs,
      boolean perRow) {
    return watermarkedAtSource(spark, plan, rowtime, delayMs, perRow, 0);
  }

  /** With the watermark {@code aheadMs} milliseconds ahead of the source's ({@code max(rowtime) - delay}). */
  private static LogicalPlan watermarkedAtSource(SparkSession spark, LogicalPlan plan, Attribute rowtime, long delayMs,
      boolean perRow, long aheadMs) {
    boolean below = false;
    for (LogicalPlan c : ScalaInterop.list(plan.children())) below |= c.outputSet().contains(rowtime);
    if (!below) {
      LogicalPlan base = perRow ? ArrivalWatermark.assign(spark, plan, rowtime, delayMs) : plan;
      List<Column> keep = new ArrayList<>();
      for (Attribute attr : ScalaInterop.list(base.output())) keep.add(column(attr));
      return org.apache.spark.sql.classic.Dataset.ofRows(spark, base)
          .withColumn(ROWTIME_LTZ, column(rowtime).cast(DataTypes.TimestampType)
              .plus(expr("INTERVAL '" + aheadMs + "' MILLISECOND")))
          .withWatermark(ROWTIME_LTZ, delayMs + " milliseconds")
          .select(keep.toArray(new Column[0])).queryExecution().analyzed();
    }
    LogicalPlan node = ScalaInterop.mapChildren(plan,
        c -> c.outputSet().contains(rowtime) ? watermarkedAtSource(spark, c, rowtime, delayMs, perRow, aheadMs) : c);
    if (perRow) node = withRowWatermark(node);
    return keptAbove(node);
  }

  /** {@code node}, a filter made to stay above the watermark below it (any other node unchanged). */
  static LogicalPlan keptAbove(LogicalPlan node) {
    if (!(node instanceof Filter)) return node;
    Expression condition = ((Filter) node).condition();
    // condition = (spark_partition_id() >= 0), always true: the same rows, one non-deterministic
    // conjunct the optimizer can neither split nor push nor fold (it folds rand() < 2).
    Expression always = new GreaterThanOrEqual(new SparkPartitionID(), Literal.create(0, DataTypes.IntegerType));
    return new Filter(new EqualTo(condition, always), ((Filter) node).child());
  }

  /** {@code node} passing its child's per-row watermark column on (a projection or an expansion). */
  private static LogicalPlan withRowWatermark(LogicalPlan node) {
    if (ArrivalWatermark.rowWatermark(node) != null || node.children().size() != 1) return node;
    Attribute met = ArrivalWatermark.rowWatermark(node.children().apply(0));
    if (met == null) return node;
    if (node instanceof Project) {
      List<NamedExpression> items = new ArrayList<>(ScalaInterop.list(((Project) node).projectList()));
      items.add(met);
      return new Project(ScalaInterop.seq(items), ((Project) node).child());
    }
    if (node instanceof Expand) {
      Expand e = (Expand) node;
      List<scala.collection.immutable.Seq<Expression>> projections = new ArrayList<>();
      for (scala.collection.Seq<Expression> p : ScalaInterop.list(e.projections())) {
        List<Expression> items = new ArrayList<>(ScalaInterop.list(p));
        items.add(met);
        projections.add(ScalaInterop.seq(items));
      }
      List<Attribute> output = new ArrayList<>(ScalaInterop.list(e.output()));
      output.add(met);
      return new Expand(ScalaInterop.seq(projections), ScalaInterop.seq(output), e.child());
    }
    return node;
  }

  /**
   * A session-window aggregation: Spark merges sessions only when the session column itself is the
   * watermarked grouping key, so the session column is re-declared (same attribute id, so the
   * aggregation still refers to it) with the watermark delay above the source's watermark. A row
   * is dropped when its own session {@code [ts, ts + gap)} ended at or before the watermark.
   */
  private static Aggregate watermarkedSessions(Aggregate a, Attribute window, LogicalPlan markedPlan, long delayMs) {
    List<NamedExpression> items = new ArrayList<>();
    Attribute marked = null;
    Metadata md = new MetadataBuilder().withMetadata(window.metadata()).putLong("spark.watermarkDelayMs", delayMs)
        .build();
    for (Attribute attr : ScalaInterop.list(markedPlan.output())) {
      if (attr.exprId().equals(window.exprId())) {
        Alias session = new Alias(
            attr, attr.name(), attr.exprId(), ScalaInterop.seq(List.of()), scala.Option.apply(md),
            ScalaInterop.seq(List.of()));
        items.add(session);
        marked = session.toAttribute();
      } else if (!attr.name().equals(ROWTIME_LTZ)) {
        items.add(attr);
      }
    }
    LogicalPlan project = new Project(ScalaInterop.seq(items), markedPlan);
    // The grouping key must carry the delay too: Spark looks for it on the key's attribute.
    List<Expression> grouping = new ArrayList<>();
    for (Expression g : ScalaInterop.list(a.groupingExpressions())) grouping.add(g == window ? marked : g);
    return new Aggregate(ScalaInterop.seq(grouping), a.aggregateExpressions(), project, a.hint());
  }
}
