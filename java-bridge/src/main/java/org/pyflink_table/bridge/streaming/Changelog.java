package org.pyflink_table.bridge.streaming;

import org.apache.spark.sql.catalyst.expressions.NamedExpression$;
import org.apache.spark.sql.catalyst.expressions.PythonUDAF;
import org.apache.spark.sql.catalyst.expressions.PythonUDF;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.floor;
import static org.apache.spark.sql.functions.lag;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.monotonically_increasing_id;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.row_number;
import static org.apache.spark.sql.functions.when;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Ascending$;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.CurrentRow$;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.MonotonicallyIncreasingID;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.NullsFirst$;
import org.apache.spark.sql.catalyst.expressions.RangeFrame$;
import org.apache.spark.sql.catalyst.expressions.RowFrame$;
import org.apache.spark.sql.catalyst.expressions.RowNumber;
import org.apache.spark.sql.catalyst.expressions.SortOrder;
import org.apache.spark.sql.catalyst.expressions.SpecifiedWindowFrame;
import org.apache.spark.sql.catalyst.expressions.UnboundedPreceding$;
import org.apache.spark.sql.catalyst.expressions.WindowExpression;
import org.apache.spark.sql.catalyst.expressions.WindowSpecDefinition;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.Join;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.plans.logical.Union;
import org.apache.spark.sql.catalyst.plans.logical.View;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.expressions.WindowSpec;
import org.apache.spark.sql.types.StructType;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.protocol.Protocol;
import org.pyflink_table.bridge.udf.PythonAggregateFunction;
import org.pyflink_table.bridge.table.JTable;
import org.pyflink_table.bridge.table.PythonAggregateSelect;
import org.pyflink_table.bridge.table.StateTtl;
import org.pyflink_table.bridge.udf.PackedAggregation;
import org.pyflink_table.bridge.window.StreamOverSql;
import scala.Option;

/**
 * Flink's changelog of a bounded table in streaming mode, computed in one Spark batch job.
 *
 * <p>Flink processes a bounded stream row by row; at parallelism 1 an unbounded aggregation
 * (group_by without a window, a global aggregate) emits {@code +I} for a key's first row and
 * {@code -U old, +U new} for each later row that changes the result (an unchanged result emits
 * nothing). The same sequence follows from the input in arrival order: each aggregate becomes a
 * running window aggregate (ROWS UNBOUNDED PRECEDING ordered by arrival) and each row is compared
 * with its key's previous result. Projections and filters above the aggregation apply to every
 * change record, as Flink's Calc does. Group-window aggregates and plain queries are insert-only.
 */
public final class Changelog {
  private Changelog() {}

  /** Hidden columns: the change kind ({@code +I/-U/+U/-D}), arrival order, and order within one arrival. */
  public static final String OP = "__pft_op";
  static final String SEQ = "__pft_seq";
  static final String SUB = "__pft_sub";
  private static final String BUNDLE = "__pft_bundle";

  /** The table's rows plus the {@link #OP} column, in changelog order. */
  public static Dataset<Row> of(JTable table) {
    LogicalPlan analyzed = table.df.queryExecution().analyzed();
    // Event time first: late rows never reach the windows (BoundedEventTime).
    LogicalPlan plan = TemporalSort.bounded(table.env, BoundedEventTime.dropLateRows(session(table),
        CurrentWatermark.perRow(session(table), analyzed)));
    LogicalPlan rewritten = rewrite(table, plan);
    if (rewritten == null) {
      Dataset<Row> rows = plan == analyzed ? table.df : org.apache.spark.sql.classic.Dataset.ofRows(session(table), plan);
      return rows.withColumn(OP, lit("+I"));
    }
    Dataset<Row> changes = org.apache.spark.sql.classic.Dataset.ofRows(session(table), rewritten);
    // Output columns by position of the rewritten plan (names may repeat in Flink results).
    String[] cols = changes.columns();
    List<Column> keep = new ArrayList<>();
    for (int i = 0; i < plan.output().size(); i++) keep.add(changes.col("`" + cols[i] + "`"));
    keep.add(changes.col(OP));
    return changes.orderBy(changes.col(SEQ), changes.col(SUB)).select(keep.toArray(new Column[0]));
  }

  /** The materialised changelog of a bounded table: its final rows (late rows of event-time windows dropped). */
  public static Dataset<Row> finalRows(JTable table) {
    LogicalPlan analyzed = table.df.queryExecution().analyzed();
    LogicalPlan plan = TemporalSort.bounded(table.env, BoundedEventTime.dropLateRows(session(table),
        CurrentWatermark.perRow(session(table), analyzed)));
    return plan == analyzed ? table.df : org.apache.spark.sql.classic.Dataset.ofRows(session(table), plan);
  }

  /** Whether the table's changelog holds updates (so append-only sinks refuse it). */
  public static boolean isUpdating(JTable table) {
    return updatingNode(table.df.queryExecution().analyzed()) != null;
  }

  /** {@link #updatingNode(LogicalPlan)} of a table's plan. */
  public static String updatingNodeOf(JTable table) {
    return updatingNode(table.df.queryExecution().analyzed());
  }

  /** Flink's name of the node that produces updates, e.g. {@code GroupAggregate(groupBy=[k], select=[...])}; null when insert-only. */
  public static String updatingNode(LogicalPlan plan) {
    String own = ownUpdatingNode(plan);
    if (own != null) return own;
    for (LogicalPlan c : ScalaInterop.list(plan.children())) {
      String found = updatingNode(c);
      if (found != null) return found;
    }
    return null;
  }

  /** {@link #updatingNode}'s name of {@code plan} itself (not below it); null when it is no updating aggregation. */
  static String ownUpdatingNode(LogicalPlan plan) {
    String python = PackedAggregation.updatingNode(plan);
    if (python != null) return python;
    if (plan instanceof org.apache.spark.sql.catalyst.plans.logical.Window && !plan.isStreaming()
        && StreamOverSql.isNonTimeUnboundedShape((org.apache.spark.sql.catalyst.plans.logical.Window) plan)) {
      // Over unbounded input RetractingStreams names it (a retracting node there).
      return StreamOverSql.nonTimeNodeName((org.apache.spark.sql.catalyst.plans.logical.Window) plan);
    }
    if (plan instanceof Aggregate && !isWindowed((Aggregate) plan)) {
      Aggregate a = (Aggregate) plan;
      List<String> keys = new ArrayList<>();
      for (Expression g : ScalaInterop.list(a.groupingExpressions())) keys.add(g instanceof NamedExpression ? ((NamedExpression) g).name() : g.sql());
      List<String> select = new ArrayList<>();
      for (NamedExpression e : ScalaInterop.list(a.aggregateExpressions())) {
        select.add(e instanceof Alias ? ((Alias) e).child().sql().replace("`", "") + " AS " + e.name() : e.name());
      }
      return "GroupAggregate(" + (keys.isEmpty() ? "" : "groupBy=[" + String.join(", ", keys) + "], ") + "select=["
          + String.join(", ", select) + "])";
    }
    return null;
  }

  static SparkSession session(JTable table) {
    return (SparkSession) table.env.spark;
  }

  /** Group-window aggregations group by Spark's window struct (start, end): they are insert-only. */
  static boolean isWindowed(Aggregate a) {
    for (Expression g : ScalaInterop.list(a.groupingExpressions())) {
      if (g.dataType() instanceof StructType) {
        StructType s = (StructType) g.dataType();
        if (s.fields().length == 2 && s.fields()[0].name().equals("start") && s.fields()[1].name().equals("end")) return true;
      }
    }
    return false;
  }

  /** The plan with OP, SEQ and SUB columns appended, or null when it is insert-only. */
  private static LogicalPlan rewrite(JTable table, LogicalPlan p) {
    LogicalPlan shared = PythonAggregateSelect.sharedAggregation(p);
    if (shared != null) {
      // The Table API's join of Python and built-in aggregates: one aggregation, as SQL plans it.
      LogicalPlan changes = rewrite(table, shared);
      return changes == null ? null : withOutputOf(ScalaInterop.list(p.output()), changes);
    }
    PackedAggregation.Aggregation packed = PackedAggregation.aggregationOf(p);
    if (packed != null) {
      LogicalPlan changes = rewrite(table, packed.df().queryExecution().analyzed());
      if (changes != null) return RetractingAggregates.boundedPython(table.env, p, packed, changes, bundleSize(table));
    }
    Dataset<Row> python = PackedAggregation.changelog(p, bundleSize(table), OP, SEQ, SUB);
    if (python != null) return withOutputOf(ScalaInterop.list(p.output()), python.queryExecution().analyzed());
    if (p instanceof Aggregate && !isWindowed((Aggregate) p)) {
      Aggregate a = (Aggregate) p;
      LogicalPlan changes = rewrite(table, a.child());
      // An aggregation of an updating table accumulates and retracts its input's changes.
      if (changes != null) return RetractingAggregates.bounded(table.env, a, changes, bundleSize(table));
      return aggregate(table, a);
    }
    if (p instanceof org.apache.spark.sql.catalyst.plans.logical.Window
        && StreamOverSql.isNonTimeUnboundedShape((org.apache.spark.sql.catalyst.plans.logical.Window) p)) {
      // Flink's non-time UNBOUNDED PRECEDING over window: an updating result over insert-only rows.
      org.apache.spark.sql.catalyst.plans.logical.Window w = (org.apache.spark.sql.catalyst.plans.logical.Window) p;
      if (rewrite(table, w.child()) != null) {
        throw unsupported("an over window ordered by a non-time column over an updating table");
      }
      return withOutputOf(ScalaInterop.list(w.output()), NonTimeOver.bounded(table.env, w).queryExecution().analyzed());
    }
    if (p instanceof Union) {
      List<LogicalPlan> inputs = ScalaInterop.list(p.children());
      List<LogicalPlan> changes = new ArrayList<>();
      boolean updating = false;
      for (LogicalPlan c : inputs) {
        LogicalPlan r = rewrite(table, c);
        changes.add(r);
        updating |= r != null;
      }
      return updating ? union(table, (Union) p, inputs, changes) : null;
    }
    if (p instanceof Project || p instanceof Filter || p instanceof SubqueryAlias || p instanceof View) {
      LogicalPlan child = rewrite(table, p.children().head());
      if (child == null) return null;
      if (p instanceof Project) {
        List<NamedExpression> items = new ArrayList<>(ScalaInterop.list(((Project) p).projectList()));
        items.addAll(hidden(child));
        return new Project(ScalaInterop.seq(items), child);
      }
      return p.withNewChildren(ScalaInterop.seq(List.of(child)));
    }
    for (LogicalPlan c : ScalaInterop.list(p.children())) {
      if (PackedAggregation.updatingNode(c) != null && p instanceof Join) {
        throw TableException.unsupported("built-in aggregates next to Python aggregate functions in one group_by "
            + "select in streaming mode (write the query in SQL, where they share one aggregation)");
      }
      if (rewrite(table, c) != null) throw unsupported(p.nodeName() + " over an updating table");
    }
    return null;
  }

  /**
   * A UNION ALL over updating inputs: each input's changes ({@code +I} for an insert-only one), the
   * inputs one after the other, as PyFlink 2.3 emits them at parallelism 1 (measured: the first
   * input's changelog, then the second's), renumbered so that SEQ alone orders them.
   */
  private static LogicalPlan union(JTable table, Union u, List<LogicalPlan> inputs, List<LogicalPlan> changes) {
    String branch = "__pft_branch";
    Dataset<Row> all = null;
    for (int i = 0; i < inputs.size(); i++) {
      LogicalPlan input = inputs.get(i);
      Dataset<Row> d;
      if (changes.get(i) != null) {
        d = org.apache.spark.sql.classic.Dataset.ofRows(session(table), changes.get(i));
      } else {
        d = org.apache.spark.sql.classic.Dataset.ofRows(session(table), input)
            .withColumn(OP, lit("+I")).withColumn(SEQ, monotonically_increasing_id()).withColumn(SUB, lit(0));
      }
      String[] names = d.columns();
      List<Column> cols = new ArrayList<>();
      int width = input.output().size();
      for (int k = 0; k < width; k++) cols.add(d.col("`" + names[k] + "`").as("__pft_u" + k));
      cols.add(d.col(OP));
      cols.add(d.col(SEQ));
      cols.add(d.col(SUB));
      cols.add(lit(i).as(branch));
      Dataset<Row> part = d.select(cols.toArray(new Column[0]));
      all = all == null ? part : all.unionAll(part);
    }
    Dataset<Row> numbered = all.withColumn(SEQ, row_number().over(Window.orderBy(col(branch), col(SEQ), col(SUB)))
        .cast("long")).withColumn(SUB, lit(0)).drop(branch);
    return withOutputOf(ScalaInterop.list(u.output()), numbered.queryExecution().analyzed());
  }

  /** Flink's name of a non-time UNBOUNDED PRECEDING over window at or below {@code p}, or null. */
  private static String nonTimeOverBelow(LogicalPlan p) {
    if (p instanceof org.apache.spark.sql.catalyst.plans.logical.Window
        && StreamOverSql.isNonTimeUnboundedShape((org.apache.spark.sql.catalyst.plans.logical.Window) p)) {
      return StreamOverSql.nonTimeNodeName((org.apache.spark.sql.catalyst.plans.logical.Window) p);
    }
    for (LogicalPlan c : ScalaInterop.list(p.children())) {
      String found = nonTimeOverBelow(c);
      if (found != null) return found;
    }
    PackedAggregation.Aggregation packed = PackedAggregation.aggregationOf(p);
    return packed == null ? null : nonTimeOverBelow(packed.df().queryExecution().analyzed());
  }

  private static TableException unsupported(String what) {
    return TableException.unsupported(what + " in streaming mode (only projections and filters may follow an "
        + "unbounded aggregation for now)");
  }

  private static List<NamedExpression> hidden(LogicalPlan p) {
    List<NamedExpression> out = new ArrayList<>();
    for (String name : List.of(OP, SEQ, SUB)) {
      for (Attribute a : ScalaInterop.list(p.output())) if (a.name().equals(name)) out.add(a);
    }
    return out;
  }

  static Alias alias(Expression e, String name) {
    return new Alias(e, name, NamedExpression$.MODULE$.newExprId(),
        ScalaInterop.seq(List.of()), Option.empty(), ScalaInterop.seq(List.of()));
  }

  /** The window struct a group-window aggregation groups by, or null. */
  static Attribute windowKey(Aggregate a) {
    for (Expression g : ScalaInterop.list(a.groupingExpressions())) {
      if (g instanceof Attribute && g.dataType() instanceof StructType) return (Attribute) g;
    }
    return null;
  }

  /** The aggregation input's rowtime column (the one carrying a watermark delay), or null. */
  static Attribute rowtime(Aggregate a) {
    for (Attribute attr : ScalaInterop.list(a.child().output())) {
      if (attr.metadata().contains(StreamSources.WATERMARK_DELAY_MS)) return attr;
    }
    return null;
  }

  /** {@code p} with each group-window aggregation replaced by {@code rewrite}'s plan, bottom-up. */
  static LogicalPlan rewriteWindowedAggregates(LogicalPlan p, Function<Aggregate, LogicalPlan> rewrite) {
    LogicalPlan node = ScalaInterop.mapChildren(p, c -> rewriteWindowedAggregates(c, rewrite));
    return node instanceof Aggregate && isWindowed((Aggregate) node) ? rewrite.apply((Aggregate) node) : node;
  }

  /** Each aggregate as a running aggregate over its key's rows in arrival order. */
  private static Expression running(Expression e, WindowSpecDefinition spec) {
    if (e instanceof AggregateExpression) return new WindowExpression(e, spec);
    return ScalaInterop.mapChildren(e, c -> running(c, spec));
  }

  private static LogicalPlan aggregate(JTable table, Aggregate a) {
    Alias seqAlias = alias(new MonotonicallyIncreasingID(), SEQ);
    List<NamedExpression> withSeqItems = new ArrayList<>(ScalaInterop.list(a.child().output()));
    withSeqItems.add(seqAlias);
    LogicalPlan withSeq = new Project(ScalaInterop.seq(withSeqItems), a.child());
    Attribute seqAttr = seqAlias.toAttribute();
    List<Expression> keys = ScalaInterop.list(a.groupingExpressions());
    SortOrder bySeq = new SortOrder(seqAttr, Ascending$.MODULE$, NullsFirst$.MODULE$, ScalaInterop.seq(List.of()));
    WindowSpecDefinition spec = new WindowSpecDefinition(ScalaInterop.seq(keys), ScalaInterop.seq(List.of(bySeq)),
        new SpecifiedWindowFrame(RowFrame$.MODULE$, UnboundedPreceding$.MODULE$, CurrentRow$.MODULE$));
    WindowSpecDefinition cumulative = spec;
    Expression firstOfBundle = null;
    if (callsPython(a)) {
      // PyFlink's Python group aggregation emits once per key and bundle (python.fn-execution.bundle.size
      // rows in arrival order, at parallelism 1): the running aggregate at the bundle's end, taken at
      // the key's first row in the bundle.
      Dataset<Row> numbered = org.apache.spark.sql.classic.Dataset.ofRows(session(table), withSeq);
      numbered = numbered.withColumn(BUNDLE, floor(
          row_number().over(Window.orderBy(Jobs.column(seqAttr))).minus(1)
              .divide(bundleSize(table))).cast("long"));
      withSeq = numbered.queryExecution().analyzed();
      List<Attribute> out = ScalaInterop.list(withSeq.output());
      Attribute bundle = out.get(out.size() - 1);
      SortOrder byBundle = new SortOrder(bundle, Ascending$.MODULE$, NullsFirst$.MODULE$, ScalaInterop.seq(List.of()));
      cumulative = new WindowSpecDefinition(ScalaInterop.seq(keys), ScalaInterop.seq(List.of(byBundle)),
          new SpecifiedWindowFrame(RangeFrame$.MODULE$, UnboundedPreceding$.MODULE$, CurrentRow$.MODULE$));
      List<Expression> keysAndBundle = new ArrayList<>(keys);
      keysAndBundle.add(bundle);
      firstOfBundle = new WindowExpression(new RowNumber(), new WindowSpecDefinition(ScalaInterop.seq(keysAndBundle),
          ScalaInterop.seq(List.of(bySeq)), spec.frameSpecification()));
    }
    List<NamedExpression> outputs = ScalaInterop.list(a.aggregateExpressions());
    List<NamedExpression> stage = new ArrayList<>();
    for (int i = 0; i < outputs.size(); i++) {
      NamedExpression ne = outputs.get(i);
      Expression value = ne instanceof Alias ? ((Alias) ne).child() : (Expression) (Object) ne;
      stage.add(alias(running(value, cumulative), "__pft_o" + i));
    }
    for (int j = 0; j < keys.size(); j++) stage.add(alias(keys.get(j), "__pft_g" + j));
    stage.add(seqAttr);
    stage.add(alias(new WindowExpression(new RowNumber(), spec), "__pft_rn"));
    if (firstOfBundle != null) stage.add(alias(firstOfBundle, "__pft_fb"));
    Dataset<Row> running = org.apache.spark.sql.classic.Dataset.ofRows(session(table), new Project(ScalaInterop.seq(stage), withSeq));
    if (firstOfBundle != null) running = running.filter(col("__pft_fb").equalTo(1));

    List<Column> keyCols = new ArrayList<>();
    for (int j = 0; j < keys.size(); j++) keyCols.add(col("__pft_g" + j));
    WindowSpec byKey = Window.partitionBy(keyCols.toArray(new Column[0])).orderBy(col(SEQ));
    Column same = lit(true);
    for (int i = 0; i < outputs.size(); i++) {
      running = running.withColumn("__pft_p" + i, lag(col("__pft_o" + i), 1).over(byKey));
      same = same.and(col("__pft_o" + i).eqNullSafe(col("__pft_p" + i)));
    }
    Column first = col("__pft_rn").equalTo(1);
    List<Column> after = new ArrayList<>();
    List<Column> before = new ArrayList<>();
    for (int i = 0; i < outputs.size(); i++) {
      after.add(col("__pft_o" + i));
      before.add(col("__pft_p" + i).as("__pft_o" + i));
    }
    after.add(when(first, lit("+I")).otherwise(lit("+U")).as(OP));
    after.add(col(SEQ));
    after.add(lit(1).as(SUB));
    before.add(lit("-U").as(OP));
    before.add(col(SEQ));
    before.add(lit(0).as(SUB));
    // An unchanged result emits nothing, as Flink's GroupAggFunction, unless a state TTL is set: then
    // it emits -U/+U anyway (measured; PyFlink's Python group aggregation still emits nothing).
    Column changed = firstOfBundle == null && StateTtl.ms(session(table)) > 0 ? lit(true) : not(same);
    Dataset<Row> changes = running.filter(first.or(changed)).select(after.toArray(new Column[0]))
        .unionAll(running.filter(not(first).and(changed)).select(before.toArray(new Column[0])));
    return withOutputOf(outputs, changes.queryExecution().analyzed());
  }

  /**
   * {@code plan} (the columns of {@code outputs}, then the hidden ones) under the attributes of
   * {@code outputs} (same ids, names and Flink type metadata), so the projections and filters above
   * the replaced node still resolve.
   */
  private static LogicalPlan withOutputOf(List<? extends NamedExpression> outputs, LogicalPlan plan) {
    List<Attribute> attrs = ScalaInterop.list(plan.output());
    List<NamedExpression> restored = new ArrayList<>();
    for (int i = 0; i < outputs.size(); i++) {
      NamedExpression ne = outputs.get(i);
      restored.add(new Alias(attrs.get(i), ne.name(), ne.exprId(), ne.qualifier(), Option.apply(ne.metadata()),
          ScalaInterop.seq(List.of())));
    }
    for (int k = outputs.size(); k < attrs.size(); k++) restored.add(attrs.get(k));
    return new Project(ScalaInterop.seq(restored), plan);
  }

  /** Whether an aggregation calls a Python aggregate function (SQL plans them as Spark's PythonUDAF). */
  static boolean callsPython(Aggregate a) {
    return pythonAggregate(a, false) != null;
  }

  /** Whether an aggregation calls a general (not pandas) Python aggregate function. */
  static boolean callsGeneralPython(Aggregate a) {
    for (NamedExpression e : ScalaInterop.list(a.aggregateExpressions())) {
      if (callsGeneralPython((Expression) (Object) e)) return true;
    }
    return false;
  }

  private static boolean callsGeneralPython(Expression e) {
    if (e instanceof PythonUDAF) return !PythonAggregateFunction.isPandas(e);
    for (Expression c : ScalaInterop.list(e.children())) if (callsGeneralPython(c)) return true;
    return false;
  }

  /** The name of a Python aggregate function (general or pandas) among the aggregation's results, or null. */
  static String pythonAggregate(Aggregate a) {
    return pythonAggregate(a, true);
  }

  /** The first Python aggregate's name; pandas grouped-aggregate UDFs count only with {@code pandasUdfs}. */
  private static String pythonAggregate(Aggregate a, boolean pandasUdfs) {
    for (NamedExpression e : ScalaInterop.list(a.aggregateExpressions())) {
      String name = pythonAggregate((Expression) (Object) e, pandasUdfs);
      if (name != null) return name;
    }
    return null;
  }

  private static String pythonAggregate(Expression e, boolean pandasUdfs) {
    if (e instanceof PythonUDAF) return ((PythonUDAF) e).name();
    if (pandasUdfs && e instanceof PythonUDF && ((PythonUDF) e).evalType() == Protocol.EVAL_GROUPED_AGG_PANDAS_UDF) {
      return ((PythonUDF) e).name();
    }
    for (Expression c : ScalaInterop.list(e.children())) {
      String name = pythonAggregate(c, pandasUdfs);
      if (name != null) return name;
    }
    return null;
  }

  /** PyFlink's bundle of Python operators (python.fn-execution.bundle.size, set by the Python side). */
  private static long bundleSize(JTable table) {
    return Long.parseLong(table.env.spark.conf().get(Protocol.CONF_PYTHON_BUNDLE_SIZE, "100000").trim());
  }
}
