package org.pyflink_table.bridge.window;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Ascending$;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.CurrentRow$;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.PythonFuncExpression;
import org.apache.spark.sql.catalyst.expressions.RowFrame$;
import org.apache.spark.sql.catalyst.expressions.SortOrder;
import org.apache.spark.sql.catalyst.expressions.SpecifiedWindowFrame;
import org.apache.spark.sql.catalyst.expressions.UnboundedPreceding$;
import org.apache.spark.sql.catalyst.expressions.WindowExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateFunction;
import org.apache.spark.sql.catalyst.expressions.aggregate.Average;
import org.apache.spark.sql.catalyst.expressions.aggregate.Count;
import org.apache.spark.sql.catalyst.expressions.aggregate.Max;
import org.apache.spark.sql.catalyst.expressions.aggregate.Min;
import org.apache.spark.sql.catalyst.expressions.aggregate.Sum;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.Window;
import org.apache.spark.sql.classic.ExpressionColumnNode;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.unsafe.types.CalendarInterval;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.expressions.UserFunction;
import org.pyflink_table.bridge.table.StateTtl;
import org.pyflink_table.bridge.table.TableContext;
import org.pyflink_table.bridge.udf.PythonAggregateFunction;
import org.pyflink_table.bridge.udf.StreamWindowAggregation;

/**
 * SQL {@code OVER} windows over an unbounded stream. Spark has no streaming over windows
 * ({@code NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING}): the analyzed plan's aggregate {@code Window}
 * node is replaced by the over processor the Table API's over windows run on
 * ({@link StreamWindowAggregation#over}: ROWS or RANGE PRECEDING and UNBOUNDED PRECEDING ordered by
 * the rowtime or a processing-time attribute, built-in and Python aggregates),
 * under the node's own output attributes so the plan above still resolves.
 * The Window nodes Spark stacks for one window (Python aggregates apart from built-ins) become one.
 * The shapes Flink refuses get Flink's messages; the others we cannot run are refused by name.
 */
public final class StreamOverSql {
  private StreamOverSql() {}

  /** {@code rows} (a SQL query's) with its over window over an unbounded source replaced; itself when it has none. */
  public static Dataset<Row> of(TableContext env, Dataset<Row> rows) {
    LogicalPlan plan = rows.queryExecution().analyzed();
    // Over bounded input the changelog paths plan the non-time UNBOUNDED PRECEDING window (streaming.Changelog).
    if (!plan.isStreaming()) return rows;
    List<Window> windows = new ArrayList<>();
    collect(plan, windows);
    if (windows.isEmpty()) return rows;
    // Spark puts Python and built-in aggregates over one window into two stacked Window nodes.
    Collections.reverse(windows);
    for (int i = 1; i < windows.size(); i++) {
      Window below = windows.get(i - 1);
      Window w = windows.get(i);
      if (w.child() != below || !w.partitionSpec().equals(below.partitionSpec())
          || !w.orderSpec().equals(below.orderSpec())) {
        throw refused("over windows that differ in PARTITION BY or ORDER BY in one query");
      }
    }
    Window top = windows.get(windows.size() - 1);
    LogicalPlan rewritten = replace(plan, top, over(env, windows));
    return org.apache.spark.sql.classic.Dataset.ofRows((SparkSession) env.spark, rewritten);
  }

  private static void collect(LogicalPlan p, List<Window> out) {
    // An UNBOUNDED PRECEDING window ordered by a non-time column is an updating node: the changelog
    // paths plan it (streaming.NonTimeOver), as Flink plans it with an updating result.
    if (p instanceof Window && p.isStreaming() && aggregatesOnly((Window) p) && !isNonTimeUnbounded((Window) p)) {
      out.add((Window) p);
    }
    for (LogicalPlan c : ScalaInterop.list(p.children())) collect(c, out);
  }

  /** Whether every expression of {@code w} is an aggregate over it (ranking functions are Top-N's). */
  private static boolean aggregatesOnly(Window w) {
    for (NamedExpression e : ScalaInterop.list(w.windowExpressions())) {
      if (!(e instanceof Alias) || !(((Alias) e).child() instanceof WindowExpression)) return false;
      if (!(((WindowExpression) ((Alias) e).child()).windowFunction() instanceof AggregateExpression)) return false;
    }
    return true;
  }

  /**
   * Whether {@code w} is an over window over an unbounded source that Flink runs with an updating
   * result: aggregates only, {@code ROWS} or {@code RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW}
   * (one frame for all), ordered ascending by one column that is no time attribute.
   */
  public static boolean isNonTimeUnbounded(Window w) {
    return w.isStreaming() && aggregatesOnly(w) && nonTimeUnbounded(w);
  }

  /**
   * {@link #isNonTimeUnbounded} but for the input being unbounded: over bounded input in streaming
   * mode Flink runs the window with the same updating changelog.
   */
  public static boolean isNonTimeUnboundedShape(Window w) {
    return aggregatesOnly(w) && nonTimeUnbounded(w);
  }

  private static boolean nonTimeUnbounded(Window w) {
    List<SortOrder> order = ScalaInterop.list(w.orderSpec());
    if (order.size() != 1 || order.get(0).direction() != Ascending$.MODULE$) return false;
    Expression by = order.get(0).child();
    if (by instanceof Attribute && (((Attribute) by).metadata().contains(TimeAttributes.PROCTIME)
        || ((Attribute) by).metadata().contains(TimeAttributes.WATERMARK_DELAY_MS))) {
      return false;
    }
    for (NamedExpression e : ScalaInterop.list(w.windowExpressions())) {
      WindowExpression we = (WindowExpression) ((Alias) e).child();
      if (!(we.windowSpec().frameSpecification() instanceof SpecifiedWindowFrame)) return false;
      SpecifiedWindowFrame f = (SpecifiedWindowFrame) we.windowSpec().frameSpecification();
      if (f.lower() != UnboundedPreceding$.MODULE$ || f.upper() != CurrentRow$.MODULE$) return false;
    }
    return true;
  }

  /**
   * Flink's name of the node {@link #isNonTimeUnbounded} accepts, as its sink refusals print it (its
   * aggregates as written; Flink lists the ones it splits them into, SUM as COUNT and $SUM0).
   */
  public static String nonTimeNodeName(Window w) {
    List<String> keys = new ArrayList<>();
    for (Expression k : ScalaInterop.list(w.partitionSpec())) keys.add(plain(k));
    List<String> select = new ArrayList<>();
    for (Attribute a : ScalaInterop.list(w.child().output())) select.add(a.name());
    List<NamedExpression> exprs = ScalaInterop.list(w.windowExpressions());
    String frame = "";
    for (int j = 0; j < exprs.size(); j++) {
      WindowExpression we = (WindowExpression) ((Alias) exprs.get(j)).child();
      frame = ((SpecifiedWindowFrame) we.windowSpec().frameSpecification()).frameType() == RowFrame$.MODULE$
          ? "ROWS" : "RANGE";
      AggregateExpression a = (AggregateExpression) we.windowFunction();
      List<String> args = new ArrayList<>();
      for (Expression c : ScalaInterop.list(a.aggregateFunction().children())) args.add(plain(c));
      select.add(a.aggregateFunction().prettyName().toUpperCase(java.util.Locale.ROOT) + "(" + String.join(", ", args)
          + ") AS w0$o" + j);
    }
    SortOrder order = ScalaInterop.list(w.orderSpec()).get(0);
    return "OverAggregate(" + (keys.isEmpty() ? "" : "partitionBy=[" + String.join(", ", keys) + "], ")
        + "orderBy=[" + plain(order.child()) + " ASC], window=[ " + frame
        + " BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW], select=[" + String.join(", ", select) + "])";
  }

  /** A column by its name, another expression as SQL without quotes, as Flink's plan text shows them. */
  private static String plain(Expression e) {
    return e instanceof Attribute ? ((Attribute) e).name() : e.sql().replace("`", "");
  }

  private static LogicalPlan replace(LogicalPlan p, Window target, LogicalPlan with) {
    if (p == target) return with;
    return ScalaInterop.mapChildren(p, c -> replace(c, target, with));
  }

  private static Column column(Expression e) {
    return new Column(ExpressionColumnNode.apply(e, ExpressionColumnNode.apply$default$2()));
  }

  /** The processor for the stacked Window nodes {@code chain} (bottom first), under the top one's output. */
  private static LogicalPlan over(TableContext env, List<Window> chain) {
    Window w = chain.get(0);
    List<NamedExpression> exprs = new ArrayList<>();
    for (Window c : chain) exprs.addAll(ScalaInterop.list(c.windowExpressions()));
    SpecifiedWindowFrame frame = null;
    for (NamedExpression e : exprs) {
      WindowExpression we = (WindowExpression) ((Alias) e).child();
      if (!(we.windowSpec().frameSpecification() instanceof SpecifiedWindowFrame)) {
        throw refused("the over window of " + we.sql());
      }
      SpecifiedWindowFrame f = (SpecifiedWindowFrame) we.windowSpec().frameSpecification();
      if (frame != null && !frame.equals(f)) throw refused("over windows with different frames in one query");
      frame = f;
    }
    List<SortOrder> order = ScalaInterop.list(w.orderSpec());
    if (order.size() != 1) throw new TableException("The window can only be ordered by a single time column.");
    if (order.get(0).direction() != Ascending$.MODULE$) {
      throw new TableException("The window can only be ordered in ASCENDING mode.");
    }
    Expression time = order.get(0).child();
    boolean unbounded = frame.lower() == UnboundedPreceding$.MODULE$;
    boolean proctime = time instanceof Attribute && ((Attribute) time).metadata().contains(TimeAttributes.PROCTIME);
    if (!(time instanceof Attribute) || !proctime
        && !((Attribute) time).metadata().contains(TimeAttributes.WATERMARK_DELAY_MS)) {
      // The ascending unbounded one runs on the changelog paths (isNonTimeUnbounded); this is another shape.
      if (unbounded) throw refused("an UNBOUNDED PRECEDING window ordered by the non-time column " + time.sql());
      throw new TableException("Non-time attribute sort is not supported for bounded OVER window.");
    }
    if (frame.upper() != CurrentRow$.MODULE$) {
      throw new TableException("OVER RANGE FOLLOWING windows are not supported yet.");
    }
    long delayMs = proctime ? -1 : ((Attribute) time).metadata().getLong(TimeAttributes.WATERMARK_DELAY_MS);

    LogicalPlan child = w.child();
    Dataset<Row> input = org.apache.spark.sql.classic.Dataset.ofRows((SparkSession) env.spark, child);
    List<PythonAggregateFunction> calls = new ArrayList<>();
    List<List<Column>> args = new ArrayList<>();
    List<String> resultNames = new ArrayList<>();
    List<StreamWindowAggregation.BuiltIn> builtIns = new ArrayList<>();
    List<String> columnOf = new ArrayList<>();
    for (NamedExpression e : exprs) {
      AggregateExpression aggregate = (AggregateExpression) ((WindowExpression) ((Alias) e).child()).windowFunction();
      AggregateFunction f = aggregate.aggregateFunction();
      List<Expression> children = ScalaInterop.list(f.children());
      if (f instanceof PythonFuncExpression) {
        PythonAggregateFunction python = python(env, (PythonFuncExpression) f);
        if (frame.lower() == UnboundedPreceding$.MODULE$ && python.isPandas()) {
          throw new TableException("Python UDAF is not supported to be used in UNBOUNDED PRECEDING OVER windows.");
        }
        List<Column> a = new ArrayList<>();
        for (Expression c : children) a.add(column(c));
        String name = "__pft_python" + calls.size();
        calls.add(python);
        args.add(a);
        resultNames.add(name);
        columnOf.add(name);
        continue;
      }
      String function = f instanceof Sum ? "sum" : f instanceof Count ? "count" : f instanceof Min ? "min"
          : f instanceof Max ? "max" : f instanceof Average ? "avg" : null;
      if (function == null || children.size() != 1 || aggregate.filter().isDefined()) {
        throw refused("the over aggregate " + aggregate.sql());
      }
      String name = "__pft_builtin" + builtIns.size();
      builtIns.add(new StreamWindowAggregation.BuiltIn(function, aggregate.isDistinct(), column(children.get(0)),
          f.dataType(), name));
      columnOf.add(name);
    }
    boolean rowsFrame = frame.frameType() == RowFrame$.MODULE$;
    long lower = unbounded ? StreamWindowAggregation.UNBOUNDED : lowerBound(frame.lower(), rowsFrame);
    List<Column> keys = new ArrayList<>();
    for (Expression k : ScalaInterop.list(w.partitionSpec())) keys.add(column(k));
    StateTtl.refuse(env.spark, "an over window over an unbounded source (its processor keeps rows without a TTL)");
    Dataset<Row> fired = StreamWindowAggregation.over(input, column(time), delayMs, rowsFrame ? lower : -1,
        rowsFrame ? -1 : lower, keys, calls, args, resultNames, builtIns, env.workerTemplate());

    // The Window's output: its child's columns, then one per window expression, same ids and types.
    List<Attribute> childOut = ScalaInterop.list(child.output());
    List<Column> values = new ArrayList<>();
    for (int i = 0; i < childOut.size(); i++) values.add(fired.col(fired.columns()[i]));
    for (int j = 0; j < exprs.size(); j++) {
      values.add(fired.col(columnOf.get(j)).cast(((Alias) exprs.get(j)).dataType()));
    }
    LogicalPlan selected = fired.select(values.toArray(new Column[0])).queryExecution().analyzed();
    List<Attribute> out = ScalaInterop.list(selected.output());
    List<Attribute> original = ScalaInterop.list(chain.get(chain.size() - 1).output());
    List<NamedExpression> restored = new ArrayList<>();
    for (int i = 0; i < original.size(); i++) {
      Attribute like = original.get(i);
      restored.add(new Alias(out.get(i), like.name(), like.exprId(), like.qualifier(),
          scala.Option.apply(like.metadata()), ScalaInterop.seq(List.of())));
    }
    return new Project(ScalaInterop.seq(restored), selected);
  }

  /** The frame's preceding rows (ROWS) or milliseconds (RANGE) from its lower bound expression. */
  private static long lowerBound(Expression lower, boolean rowsFrame) {
    Object value = lower.foldable() ? lower.eval(null) : null;
    if (rowsFrame && value instanceof Number) return -((Number) value).longValue();
    if (!rowsFrame && value instanceof Long && lower.dataType() instanceof DayTimeIntervalType) {
      return -((Long) value) / 1000; // microseconds
    }
    if (!rowsFrame && value instanceof CalendarInterval && ((CalendarInterval) value).months == 0) {
      CalendarInterval i = (CalendarInterval) value;
      return -(i.days * 86_400_000L + i.microseconds / 1000);
    }
    throw refused("the frame bound " + lower.sql());
  }

  /** The Python aggregate function Spark's call {@code f} runs (a SQL call of a registered function). */
  private static PythonAggregateFunction python(TableContext env, PythonFuncExpression f) {
    PythonAggregateFunction found = registered(env, f);
    if (found != null) return found;
    throw refused("the Python aggregate function " + f.name() + ", which is not registered in this environment");
  }

  /** {@link #python}, or null when no function registered in {@code env} runs {@code f}. */
  static PythonAggregateFunction registered(TableContext env, PythonFuncExpression f) {
    for (String name : env.functions.userFunctionNames()) {
      UserFunction u = env.functions.user(name);
      if (u instanceof PythonAggregateFunction && ((PythonAggregateFunction) u).runs(f.func())) {
        return (PythonAggregateFunction) u;
      }
    }
    return null;
  }

  private static TableException refused(String what) {
    return TableException.unsupported("SQL over windows over an unbounded source in streaming mode with " + what
        + " (supported: ROWS or RANGE BETWEEN ... PRECEDING AND CURRENT ROW ordered by the rowtime or a "
        + "processing-time attribute, with SUM, COUNT, MIN, MAX, AVG and Python aggregate functions; UNBOUNDED "
        + "PRECEDING AND CURRENT ROW ordered ascending by another column, with SUM, COUNT, MIN, MAX, AVG)");
  }
}
