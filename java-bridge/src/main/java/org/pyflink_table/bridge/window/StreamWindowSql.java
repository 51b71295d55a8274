package org.pyflink_table.bridge.window;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.IsNotNull;
import org.apache.spark.sql.catalyst.expressions.KnownNotNull;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.PythonFuncExpression;
import org.apache.spark.sql.catalyst.expressions.PythonUDAF;
import org.apache.spark.sql.catalyst.expressions.PythonUDF;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateFunction;
import org.apache.spark.sql.catalyst.expressions.aggregate.Average;
import org.apache.spark.sql.catalyst.expressions.aggregate.CollectList;
import org.apache.spark.sql.catalyst.expressions.aggregate.CollectSet;
import org.apache.spark.sql.catalyst.expressions.aggregate.Count;
import org.apache.spark.sql.catalyst.expressions.aggregate.First;
import org.apache.spark.sql.catalyst.expressions.aggregate.Last;
import org.apache.spark.sql.catalyst.expressions.aggregate.ListAgg;
import org.apache.spark.sql.catalyst.expressions.aggregate.Max;
import org.apache.spark.sql.catalyst.expressions.aggregate.Min;
import org.apache.spark.sql.catalyst.expressions.aggregate.StddevPop;
import org.apache.spark.sql.catalyst.expressions.aggregate.StddevSamp;
import org.apache.spark.sql.catalyst.expressions.aggregate.Sum;
import org.apache.spark.sql.catalyst.expressions.aggregate.VariancePop;
import org.apache.spark.sql.catalyst.expressions.aggregate.VarianceSamp;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.Expand;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.classic.ColumnNodeToExpressionConverter$;
import org.apache.spark.sql.classic.ExpressionColumnNode;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.JsonAggregates;
import org.pyflink_table.bridge.expressions.Multisets;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.protocol.Protocol;
import org.pyflink_table.bridge.table.TableContext;
import org.pyflink_table.bridge.types.FlinkTypes;
import org.pyflink_table.bridge.udf.CollectedWindowAggregation;
import org.pyflink_table.bridge.udf.PythonAggregateFunction;
import org.pyflink_table.bridge.udf.StreamWindowAggregation;

/**
 * SQL group windows ({@code GROUP BY TUMBLE/HOP/SESSION(...)}) over an unbounded stream whose
 * select calls Python aggregate functions (general or pandas). Spark's streaming aggregation cannot
 * run them, so the analyzed plan's windowed {@code Aggregate} is replaced by the window processor
 * the Table API's stream windows run on ({@link StreamWindowAggregation#aggregate}), fed with the
 * rows below Spark's window assignment, under the aggregation's own output attributes so the plan
 * above still resolves. The window's size, slide or gap are read by evaluating the window column
 * Spark's analyzer built ({@code window(...)} / {@code session_window(...)} of {@link SqlWindows}'
 * rewrite) at one instant: whatever its expression's shape, the bounds it gives are the window's.
 */
public final class StreamWindowSql {
  private StreamWindowSql() {}

  /** Spark's mark of a {@code session_window} column (SessionWindow.marker). */
  private static final String SESSION_WINDOW_MARKER = "spark.sessionWindow";
  private static final String WINDOW = "__pft_window";
  private static final String ROWS = "__pft_rows";

  /** {@code rows} (a SQL query's) with its windowed Python aggregations over unbounded sources replaced; itself when it has none. */
  public static Dataset<Row> of(TableContext env, Dataset<Row> rows) {
    LogicalPlan plan = rows.queryExecution().analyzed();
    if (!plan.isStreaming()) return rows;
    LogicalPlan rewritten = rewrite(env, plan);
    return rewritten == plan ? rows : org.apache.spark.sql.classic.Dataset.ofRows((SparkSession) env.spark, rewritten);
  }

  private static LogicalPlan rewrite(TableContext env, LogicalPlan p) {
    LogicalPlan node = ScalaInterop.mapChildren(p, c -> rewrite(env, c));
    if (node instanceof Aggregate a && a.isStreaming()) {
      List<Expression> calls = new ArrayList<>();
      for (NamedExpression e : ScalaInterop.list(a.aggregateExpressions())) collectCalls((Expression) (Object) e, calls);
      // A session of built-ins runs on the processor too when it computes them all: Spark's session
      // aggregation drops a row whose own window has ended before it meets the key's open sessions,
      // where Flink merges it into an open session it touches (the processor merges first).
      Attribute window = windowKey(a);
      if (window != null) refuseJsonAggregates(a, window, calls);
      if (window != null && window.metadata().contains(SESSION_WINDOW_MARKER)) refuseUnmergeable(a);
      if (window != null && window.metadata().contains(SESSION_WINDOW_MARKER) && processorComputes(calls)
          && watermarked(a, window)) {
        return processor(env, a, calls);
      }
      for (Expression c : calls) {
        PythonFuncExpression python = pythonCall(c);
        if (python == null) continue;
        // A window table function's aggregation has its window struct by now (TvfWindowAggregates),
        // unless it calls a general Python aggregate: PyFlink runs that as an updating aggregation.
        if (windowKey(a) != null) return processor(env, a, calls);
      }
    }
    return node;
  }

  /**
   * Whether {@code a}'s aggregate calls are built-ins that the window processor computes all of (a
   * session of them runs there over an unbounded source, {@link #rewrite}).
   */
  static boolean builtInsOnProcessor(Aggregate a) {
    List<Expression> calls = new ArrayList<>();
    for (NamedExpression e : ScalaInterop.list(a.aggregateExpressions())) collectCalls((Expression) (Object) e, calls);
    return processorComputes(calls);
  }

  /**
   * Whether the session's window is assigned on a watermarked rowtime (a SESSION table function's is
   * when {@link TvfWindowAggregates} put it on the rowtime, else on its window_start copy).
   */
  private static boolean watermarked(Aggregate a, Attribute window) {
    if (!TvfWindowAggregates.isWindow(window)) return true;
    try {
      return bounds(a, window).time().metadata().contains(TimeAttributes.WATERMARK_DELAY_MS);
    } catch (TableException e) {
      return false; // a shape the processor cannot read: Spark's session aggregation, as before
    }
  }

  /**
   * Refuses FIRST_VALUE and LAST_VALUE in {@code a}, a session window's aggregation in streaming
   * mode, as PyFlink 2.3 does (over bounded and unbounded sources alike, measured).
   */
  public static void refuseUnmergeable(Aggregate a) {
    List<Expression> calls = new ArrayList<>();
    for (NamedExpression e : ScalaInterop.list(a.aggregateExpressions())) collectCalls((Expression) (Object) e, calls);
    for (Expression call : calls) {
      if (call instanceof AggregateExpression aggregate && (aggregate.aggregateFunction() instanceof First
          || aggregate.aggregateFunction() instanceof Last)) {
        throw ValidationException.unmergeable(aggregate.aggregateFunction() instanceof First ? "FIRST_VALUE"
            : "LAST_VALUE");
      }
    }
  }

  /**
   * Refuses JSON_ARRAYAGG and JSON_OBJECTAGG where PyFlink 2.3 does over an unbounded source
   * (measured): in a group window ({@code GROUP BY TUMBLE/HOP/SESSION(...)}) both, for want of an
   * {@code accumulate} method; JSON_ARRAYAGG in a SESSION window table function, for want of a
   * {@code merge} method (JSON_OBJECTAGG has one; HOP and CUMULATE: {@link #refuseJsonArrayAgg}).
   * A TUMBLE table function runs both.
   */
  private static void refuseJsonAggregates(Aggregate a, Attribute window, List<Expression> calls) {
    for (Expression call : calls) {
      String name = JsonAggregates.nameOf(call);
      if (name == null) continue;
      if (!TvfWindowAggregates.isWindow(window)) throw ValidationException.noAccumulate(name);
      if (window.metadata().contains(SESSION_WINDOW_MARKER)) refuseJsonArrayAgg(a);
    }
  }

  /** Refuses JSON_ARRAYAGG in {@code a}, a window table function's aggregation whose windows merge accumulators. */
  static void refuseJsonArrayAgg(Aggregate a) {
    List<Expression> calls = new ArrayList<>();
    for (NamedExpression e : ScalaInterop.list(a.aggregateExpressions())) collectCalls((Expression) (Object) e, calls);
    for (Expression call : calls) {
      String name = JsonAggregates.nameOf(call);
      if (name != null && name.startsWith("JSON_ARRAYAGG")) throw ValidationException.noMerge(name);
    }
  }

  /** Whether {@code calls} are built-in aggregates, all of which the window processor computes. */
  private static boolean processorComputes(List<Expression> calls) {
    if (calls.isEmpty()) return false;
    for (Expression call : calls) {
      if (collectList(call) != null) continue;
      if (!(call instanceof AggregateExpression aggregate) || pythonCall(call) != null) return false;
      AggregateFunction f = aggregate.aggregateFunction();
      if (workerName(f) == null) return false;
    }
    return true;
  }

  /**
   * The worker's name of the built-in aggregate {@code f} the window processor computes (of one
   * argument, LISTAGG's literal separator aside), else null. ARRAY_AGG is Spark's collect_list (of
   * no ROW: those stay on Spark's aggregation).
   */
  private static String workerName(AggregateFunction f) {
    if (f instanceof ListAgg) return separator(f) != null ? "listagg" : null;
    if (f.children().size() != 1) return null;
    // Not of a struct: the SESSION table function's rows (TvfWindowAggregates) are a collect_list of them.
    if (f instanceof CollectList list) return list.child().dataType() instanceof StructType ? null : "array_agg";
    return f instanceof Sum ? "sum" : f instanceof Count ? "count" : f instanceof Min ? "min"
        : f instanceof Max ? "max" : f instanceof Average ? "avg" : f instanceof StddevPop ? "stddev_pop"
        : f instanceof StddevSamp ? "stddev_samp" : f instanceof VariancePop ? "var_pop"
        : f instanceof VarianceSamp ? "var_samp" : null;
  }

  /**
   * The rows {@code aggregate} takes (a BOOLEAN column), null for all: its FILTER, and for a
   * collect_list that ignores nulls the rows whose value is not null (the worker's ARRAY_AGG keeps
   * nulls, as the Table API's does).
   */
  private static Column filter(AggregateExpression aggregate) {
    Expression filter = aggregate.filter().isDefined() ? aggregate.filter().get() : null;
    if (aggregate.aggregateFunction() instanceof CollectList list && list.ignoreNulls()) {
      Expression notNull = new IsNotNull(list.child());
      filter = filter == null ? notNull : new And(filter, notNull);
    }
    return filter == null ? null : column(filter);
  }

  /** LISTAGG's separator when it is a literal and there is no WITHIN GROUP order, else null. */
  private static String separator(AggregateFunction f) {
    if (!(f instanceof ListAgg l) || !l.orderExpressions().isEmpty() || !(l.delimiter() instanceof Literal d)) {
      return null;
    }
    // A string literal's value is a UTF8String; its type is not named here, since its interfaces
    // (Kryo's) are not on the Maven build's class path.
    Object value = d.value();
    return d.dataType() instanceof org.apache.spark.sql.types.StringType && value != null ? value.toString() : null;
  }

  /** The collect_list (collect_set: DISTINCT) call SQL's COLLECT {@code call} counts ({@link Multisets}), else null. */
  private static AggregateExpression collectList(Expression call) {
    Expression list = Multisets.counts(call);
    return list instanceof AggregateExpression a && (a.aggregateFunction() instanceof CollectList
        || a.aggregateFunction() instanceof CollectSet) ? a : null;
  }

  /** The window struct (start, end) an aggregation groups by, or null. */
  private static Attribute windowKey(Aggregate a) {
    for (Expression g : ScalaInterop.list(a.groupingExpressions())) {
      if (g instanceof Attribute && g.dataType() instanceof StructType s && s.fields().length == 2
          && s.fields()[0].name().equals("start") && s.fields()[1].name().equals("end")) {
        return (Attribute) g;
      }
    }
    return null;
  }

  /** Each aggregate call of {@code e} (built-in or Python), once per semantically equal call. */
  private static void collectCalls(Expression e, List<Expression> out) {
    // SQL's COLLECT is one call (the processor's collect), not its collect_list.
    if (collectList(e) != null || e instanceof AggregateExpression || e instanceof PythonUDAF || isPandasAggregate(e)) {
      if (indexOf(out, e) < 0) out.add(e);
      return;
    }
    for (Expression c : ScalaInterop.list(e.children())) collectCalls(c, out);
  }

  private static boolean isPandasAggregate(Expression e) {
    return e instanceof PythonUDF && ((PythonUDF) e).evalType() == Protocol.EVAL_GROUPED_AGG_PANDAS_UDF;
  }

  private static int indexOf(List<Expression> calls, Expression e) {
    for (int i = 0; i < calls.size(); i++) if (calls.get(i).semanticEquals(e)) return i;
    return -1;
  }

  /** The Python function a call runs, or null for a built-in aggregate. */
  private static PythonFuncExpression pythonCall(Expression call) {
    if (collectList(call) != null) return null;
    if (!(call instanceof AggregateExpression)) return (PythonFuncExpression) call;
    AggregateFunction f = ((AggregateExpression) call).aggregateFunction();
    return f instanceof PythonFuncExpression ? (PythonFuncExpression) f : null;
  }

  private static Column column(Expression e) {
    return new Column(ExpressionColumnNode.apply(e, ExpressionColumnNode.apply$default$2()));
  }

  /** A window's kind and bounds as the processor takes them: size and slide (a session: gap and 0), in ms. */
  private record Bounds(long sizeMs, long slideMs, long offsetMs, Attribute time, LogicalPlan input) {}

  private static LogicalPlan processor(TableContext env, Aggregate a, List<Expression> calls) {
    Attribute window = windowKey(a);
    List<Expression> grouping = new ArrayList<>();
    for (Expression g : ScalaInterop.list(a.groupingExpressions())) if (g != window) grouping.add(g);
    List<Column> keyCols = new ArrayList<>();
    List<String> keyNames = new ArrayList<>();
    for (int i = 0; i < grouping.size(); i++) {
      keyCols.add(column(grouping.get(i)));
      keyNames.add("__pft_key" + i);
    }
    List<PythonAggregateFunction> functions = new ArrayList<>();
    List<List<Column>> args = new ArrayList<>();
    List<String> resultNames = new ArrayList<>();
    List<StreamWindowAggregation.BuiltIn> builtIns = new ArrayList<>();
    List<Expression> builtInCalls = new ArrayList<>();
    // Per call: its Python function's index (>= 0), or -1 - its built-in's index.
    int[] slot = new int[calls.size()];
    for (int c = 0; c < calls.size(); c++) {
      Expression call = calls.get(c);
      PythonFuncExpression python = pythonCall(call);
      AggregateExpression aggregate = call instanceof AggregateExpression ? (AggregateExpression) call : null;
      if (aggregate != null && python != null && (aggregate.filter().isDefined() || aggregate.isDistinct())) {
        throw refused("the aggregate " + call.sql() + " (FILTER or DISTINCT of a Python aggregate function)");
      }
      if (python != null) {
        PythonAggregateFunction function = StreamOverSql.registered(env, python);
        if (function == null) {
          throw refused("the Python aggregate function " + python.name() + ", which is not registered in this "
              + "environment or is called with DISTINCT or FILTER");
        }
        slot[c] = functions.size();
        functions.add(function);
        List<Column> arguments = new ArrayList<>();
        for (Expression e : ScalaInterop.list(((Expression) python).children())) arguments.add(column(e));
        args.add(arguments);
        resultNames.add("__pft_python" + slot[c]);
        continue;
      }
      AggregateExpression collected = collectList(call);
      if (collected != null) {
        slot[c] = -1 - builtIns.size();
        // The result's metadata keeps COLLECT's MULTISET type, as the Table API's collect.
        builtIns.add(new StreamWindowAggregation.BuiltIn("collect",
            collected.isDistinct() || collected.aggregateFunction() instanceof CollectSet,
            column(collected.aggregateFunction().children().apply(0)), call.dataType(),
            "__pft_builtin" + builtIns.size(),
            collected.filter().isDefined() ? column(collected.filter().get()) : null, null,
            new MetadataBuilder().putString(FlinkTypes.METADATA_KEY, Multisets.flinkType(call)).build()));
        builtInCalls.add(call);
        continue;
      }
      AggregateFunction f = aggregate.aggregateFunction();
      List<Expression> children = ScalaInterop.list(f.children());
      String function = workerName(f);
      if (function == null) {
        throw refused("the built-in aggregate " + call.sql() + " next to Python aggregate functions");
      }
      slot[c] = -1 - builtIns.size();
      // Spark's type (Flink's is a cast above): the worker rounds a DECIMAL result to its scale, as Spark would.
      builtIns.add(new StreamWindowAggregation.BuiltIn(function, aggregate.isDistinct(), column(children.get(0)),
          f.dataType(), "__pft_builtin" + builtIns.size(), filter(aggregate), separator(f), Metadata.empty()));
      builtInCalls.add(call);
    }

    int keys = grouping.size();
    int[] positions = new int[calls.size()];
    Dataset<Row> fired;
    if (collectable(env, window, functions, builtIns)) {
      // Spark's own window aggregation collects each window's arguments (its window assignment,
      // watermark, firing and late rows are those of built-in windows); the functions run per fired window.
      Dataset<Row> windowed = org.apache.spark.sql.classic.Dataset.ofRows((SparkSession) env.spark, a.child());
      List<Column> groupBy = new ArrayList<>();
      groupBy.add(column(window));
      for (int i = 0; i < keys; i++) {
        Expression g = grouping.get(i);
        groupBy.add(g instanceof Attribute ? column(g) : column(g).as(keyNames.get(i)));
      }
      List<Column> aggs = new ArrayList<>();
      for (int j = 0; j < builtInCalls.size(); j++) aggs.add(column(builtInCalls.get(j)).as("__pft_b" + j));
      Dataset<Row> collected = windowed.groupBy(groupBy.toArray(new Column[0]))
          .agg(CollectedWindowAggregation.collect(args).as(ROWS), aggs.toArray(new Column[0]));
      fired = CollectedWindowAggregation.evaluate(collected, ROWS, functions, args, resultNames);
      // The window, the keys, the built-ins, then the Python results.
      for (int c = 0; c < calls.size(); c++) {
        positions[c] = slot[c] >= 0 ? 1 + keys + builtIns.size() + slot[c] : 1 + keys + (-1 - slot[c]);
      }
    } else {
      if (TvfWindowAggregates.isWindow(window) && !window.metadata().contains(SESSION_WINDOW_MARKER)) {
        // A window table function's window has no window assignment to read its bounds from.
        throw TableException.unsupported("a general Python aggregate function, a DISTINCT built-in aggregate, or "
            + "pyflink_table.streaming.python-window = processor, next to a pandas aggregate function in a window "
            + "table function aggregation over an unbounded source (pandas aggregate functions run there alone or "
            + "with SUM, COUNT, MIN, MAX, AVG)");
      }
      Bounds bounds = bounds(a, window);
      if (!bounds.time().metadata().contains(TimeAttributes.WATERMARK_DELAY_MS)) {
        throw new TableException("A group window over an unbounded source needs a time attribute with a watermark: "
            + "declare WATERMARK FOR <column> AS <column> - INTERVAL '...' SECOND on the source table and window on "
            + "that column.");
      }
      long delayMs = bounds.time().metadata().getLong(TimeAttributes.WATERMARK_DELAY_MS);
      // The processor aligns windows on the epoch.
      if (bounds.offsetMs() != 0) throw refused("a window offset (on the window processor)");
      Dataset<Row> input = org.apache.spark.sql.classic.Dataset.ofRows((SparkSession) env.spark, bounds.input());
      fired = StreamWindowAggregation.aggregate(input, column(bounds.time()), delayMs, bounds.sizeMs(),
          bounds.slideMs(), keyCols, keyNames, functions, args, resultNames, builtIns, WINDOW,
          functions.isEmpty() ? env.workerTemplate() : null);
      // The window, the keys, the Python results, then the built-ins.
      for (int c = 0; c < calls.size(); c++) {
        positions[c] = slot[c] >= 0 ? 1 + keys + slot[c] : 1 + keys + functions.size() + (-1 - slot[c]);
      }
    }
    return restored(a, window, grouping, calls, fired, positions);
  }

  /**
   * Whether the pandas-only fast path of the Table API's stream windows ({@link CollectedWindowSelect})
   * applies: a tumbling or sliding window, only pandas UDAFs, no DISTINCT built-in nor LISTAGG, and not switched
   * off ({@code pyflink_table.streaming.python-window = processor}).
   */
  private static boolean collectable(TableContext env, Attribute window, List<PythonAggregateFunction> functions,
      List<StreamWindowAggregation.BuiltIn> builtIns) {
    if (window.metadata().contains(SESSION_WINDOW_MARKER)) return false;
    for (PythonAggregateFunction f : functions) if (!f.isPandas()) return false;
    // LISTAGG's order is the arrival order the processor keeps, not a streaming aggregation's merges.
    for (StreamWindowAggregation.BuiltIn b : builtIns) if (b.distinct() || b.separator() != null) return false;
    return CollectedWindowAggregation.enabled(env.spark.emptyDataFrame());
  }

  /**
   * The aggregation {@code a} over {@code fired}, whose columns are the window, the keys, and each
   * call's result at {@code positions}: its output attributes (same ids, names and metadata) over
   * its expressions with those replaced, typed as the aggregation typed them.
   */
  private static LogicalPlan restored(Aggregate a, Attribute window, List<Expression> grouping, List<Expression> calls,
      Dataset<Row> fired, int[] positions) {
    // Positional names: the processor's and the collected path's columns may repeat user names.
    String[] names = new String[fired.columns().length];
    for (int i = 0; i < names.length; i++) names[i] = "__pft_c" + i;
    Dataset<Row> renamed = fired.toDF(names);
    List<Column> values = new ArrayList<>();
    // Under the window's name and marks, so that the schema types its bounds as Flink's window bounds
    // (FlinkSqlDialect.withFlinkTimestampTypes: NOT NULL, and the processor's precision).
    values.add(renamed.col(names[0]).cast(window.dataType()).as(window.name(), window.metadata()));
    for (int i = 0; i < grouping.size(); i++) values.add(renamed.col(names[1 + i]).cast(grouping.get(i).dataType()));
    for (int c = 0; c < calls.size(); c++) {
      Column value = renamed.col(names[positions[c]]);
      // The processor's COLLECT counts may be NULL in their type (never in value): no cast makes them NOT NULL.
      if (collectList(calls.get(c)) != null) {
        value = functions.transform_values(value, (k, v) -> functions.coalesce(v, functions.lit(0)));
      }
      values.add(typed(value, calls.get(c).dataType()));
    }
    LogicalPlan selected = renamed.select(values.toArray(new Column[0])).queryExecution().analyzed();
    List<Attribute> out = ScalaInterop.list(selected.output());
    Replacer replacer = new Replacer(window, out.get(0), grouping, out.subList(1, 1 + grouping.size()), calls,
        out.subList(1 + grouping.size(), out.size()));
    List<NamedExpression> restored = new ArrayList<>();
    for (NamedExpression ne : ScalaInterop.list(a.aggregateExpressions())) {
      Expression value = ne instanceof Alias ? ((Alias) ne).child() : (Expression) (Object) ne;
      restored.add(new Alias(replacer.apply(value), ne.name(), ne.exprId(), ne.qualifier(),
          scala.Option.apply(ne.metadata()), ScalaInterop.seq(List.of())));
    }
    return new Project(ScalaInterop.seq(restored), selected);
  }

  /**
   * The processor's column {@code v} as {@code type}: cast, and an array whose elements Spark types
   * not null (collect_list's, which ignores nulls) marked so, since the processor's output is typed
   * nullable throughout and no cast narrows that.
   */
  private static Column typed(Column v, DataType type) {
    if (type instanceof ArrayType t && !t.containsNull()) {
      v = functions.transform(v, x -> column(new KnownNotNull(ColumnNodeToExpressionConverter$.MODULE$.apply(x.node()))));
    }
    return v.cast(type);
  }

  /** The aggregation's expressions over the processor's columns: the window, the keys and each call replaced. */
  private record Replacer(Attribute window, Attribute firedWindow, List<Expression> grouping, List<Attribute> keys,
      List<Expression> calls, List<Attribute> results) {
    Expression apply(Expression e) {
      if (e instanceof Attribute && ((Attribute) e).exprId().equals(window.exprId())) return firedWindow;
      for (int i = 0; i < grouping.size(); i++) if (grouping.get(i).semanticEquals(e)) return keys.get(i);
      int j = indexOf(calls, e);
      if (j >= 0) return results.get(j);
      return ScalaInterop.mapChildren(e, this::apply);
    }
  }

  /**
   * The window's bounds, its rowtime and the rows below Spark's window assignment: the node that
   * adds the window column (a Project, or an Expand for sliding windows) under the aggregation's
   * filters; its child is the aggregation's input as the user wrote it.
   */
  private static Bounds bounds(Aggregate a, Attribute window) {
    LogicalPlan node = a.child();
    while (node instanceof Filter) node = ((Filter) node).child();
    List<Expression> assigned = new ArrayList<>();
    LogicalPlan input = null;
    if (node instanceof Project project) {
      for (NamedExpression e : ScalaInterop.list(project.projectList())) {
        if (e instanceof Alias && e.exprId().equals(window.exprId())) assigned.add(((Alias) e).child());
      }
      input = project.child();
    } else if (node instanceof Expand expand) {
      List<Attribute> output = ScalaInterop.list(expand.output());
      int index = -1;
      for (int i = 0; i < output.size(); i++) if (output.get(i).exprId().equals(window.exprId())) index = i;
      if (index >= 0) {
        for (scala.collection.Seq<Expression> projection : ScalaInterop.list(expand.projections())) {
          assigned.add(ScalaInterop.list(projection).get(index));
        }
      }
      input = expand.child();
    }
    // A window column renamed above its assignment (a SESSION table function's aggregation, whose
    // session_window Spark's analyzer computes in a projection below): its definition is read there.
    while (assigned.size() == 1 && assigned.get(0) instanceof Attribute renamed && input != null) {
      LogicalPlan below = input;
      while (below instanceof Filter) below = ((Filter) below).child();
      if (!(below instanceof Project project)) break;
      Expression definition = null;
      for (NamedExpression e : ScalaInterop.list(project.projectList())) {
        if (e instanceof Alias && e.exprId().equals(renamed.exprId())) definition = ((Alias) e).child();
      }
      if (definition == null) break;
      assigned.set(0, definition);
      input = project.child();
    }
    if (assigned.isEmpty()) throw refused("a group window whose plan has no window assignment below the aggregation");
    List<AttributeReference> times = new ArrayList<>();
    references(assigned.get(0), times);
    if (times.size() != 1 || !(times.get(0).dataType() instanceof TimestampType
        || times.get(0).dataType() instanceof TimestampNTZType)) {
      throw refused("a group window on " + assigned.get(0).sql() + " (window on a time attribute column)");
    }
    long[] first = at(assigned.get(0), 0L);
    long sizeMs = (first[1] - first[0]) / 1000;
    if (window.metadata().contains(SESSION_WINDOW_MARKER)) return new Bounds(sizeMs, 0, 0, times.get(0), input);
    // An Expand's projections hold a row's overlapping windows, a slide apart (in either order).
    long slideMs = assigned.size() > 1 ? Math.abs(first[0] - at(assigned.get(1), 0L)[0]) / 1000 : sizeMs;
    if (slideMs <= 0) throw refused("a group window whose slide could not be read from its plan");
    return new Bounds(sizeMs, slideMs, Math.floorMod(first[0] / 1000, slideMs), times.get(0), input);
  }

  private static void references(Expression e, List<AttributeReference> out) {
    if (e instanceof AttributeReference r) {
      for (AttributeReference seen : out) if (seen.exprId().equals(r.exprId())) return;
      out.add(r);
      return;
    }
    for (Expression c : ScalaInterop.list(e.children())) references(c, out);
  }

  /** The (start, end) in microseconds the window expression {@code e} gives a row at {@code micros}. */
  private static long[] at(Expression e, long micros) {
    InternalRow row = (InternalRow) bind(e, micros).eval(null);
    return new long[] {row.getLong(0), row.getLong(1)};
  }

  private static Expression bind(Expression e, long micros) {
    if (e instanceof AttributeReference) return new Literal(micros, e.dataType());
    return ScalaInterop.mapChildren(e, c -> bind(c, micros));
  }

  private static TableException refused(String what) {
    return TableException.unsupported("Python aggregate functions in a SQL group window over an unbounded source "
        + "with " + what + " (supported: TUMBLE, HOP and SESSION on the rowtime, with Python aggregate functions and "
        + "SUM, COUNT, MIN, MAX, AVG, STDDEV_POP/SAMP, VAR_POP/SAMP, COLLECT, LISTAGG, ARRAY_AGG)");
  }
}
