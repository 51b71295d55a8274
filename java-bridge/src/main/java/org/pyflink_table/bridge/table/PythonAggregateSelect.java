package org.pyflink_table.bridge.table;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.expressions.Expr;
import org.pyflink_table.bridge.expressions.ExprCompiler;
import org.pyflink_table.bridge.expressions.ExprIdMemo;
import org.pyflink_table.bridge.expressions.FunctionCatalog;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.expressions.Scope;
import org.pyflink_table.bridge.expressions.UserFunction;
import org.pyflink_table.bridge.udf.PackedAggregation;
import org.pyflink_table.bridge.udf.PythonAggregateFunction;

/**
 * A grouped (or global, or windowed) select whose items call Python aggregate functions.
 *
 * <p>The Python calls are evaluated together in one {@link PackedAggregation} pass; the built-in
 * aggregate calls are aggregated by Spark with the same keys and joined on them (NULL-safe), since
 * Spark cannot mix Python aggregates with its own in one aggregation anyway. Each item is then
 * computed over the joined row, its aggregate calls and grouping expressions read from the
 * columns that hold them, so {@code f(a) + 1}, {@code f(a) / count(a)} or {@code g(a).alias('x')}
 * work.
 */
public final class PythonAggregateSelect {
  private PythonAggregateSelect() {}

  private static final String RESULT = "__pft_r";
  private static final String KEY = "__pft_k";
  private static final String OTHER = "__pft_o";
  private static final String OTHER_KEY = "__pft_ok";

  /** Appends the built-in aggregates to {@code aggs}, each under a column their select reads instead. */
  private static void addBuiltIns(List<Column> aggs, Map<String, Expr.Call> builtIns, Map<String, Expr> replacements,
                                  Scope scope) {
    for (Map.Entry<String, Expr.Call> c : builtIns.entrySet()) {
      String column = OTHER + aggs.size();
      aggs.add(ExprCompiler.compile(c.getValue(), scope).as(column));
      replacements.put(c.getKey(), new Expr.FieldRef(column));
    }
  }

  /** The Python aggregate function {@code e} calls, or null. */
  public static PythonAggregateFunction pythonAggregate(Expr e, Scope scope) {
    if (!(e instanceof Expr.Call)) return null;
    Expr.Call c = (Expr.Call) e;
    UserFunction f = c.function instanceof UserFunction ? (UserFunction) c.function : scope.functions.user(c.name);
    return f instanceof PythonAggregateFunction ? (PythonAggregateFunction) f : null;
  }

  /**
   * Groups {@code df} by {@code keyCols} (compiled from {@code keyExprs}) and computes
   * {@code items}; null when no item calls a Python aggregate function.
   */
  public static Dataset<Row> select(Dataset<Row> df, List<Column> keyCols, List<Expr> keyExprs, List<Expr> items,
      Scope scope) {
    List<Expr> expanded = ExprCompiler.expand(items, scope);
    Map<String, Expr.Call> calls = new LinkedHashMap<>();
    Map<String, Expr.Call> builtIns = new LinkedHashMap<>();
    for (Expr e : expanded) collectCalls(e, scope, calls, builtIns);
    if (calls.isEmpty()) return null;
    List<String> names = ExprCompiler.outputNames(expanded, scope);

    // Grouping expressions other than plain fields are read from their key column.
    Map<String, Expr> replacements = new HashMap<>();
    List<String> keyNames = keyNames(keyExprs, replacements);
    Calls run = calls(calls, scope, replacements);
    List<PythonAggregateFunction> functions = run.functions();
    List<List<Column>> args = run.args();
    List<String> resultNames = run.resultNames();
    if (!builtIns.isEmpty() && isUpdatingStream(df, keyCols)) {
      // Over an unbounded source both kinds share one aggregation, as in SQL: its retracting
      // processor (bridge.streaming.RetractingAggregates) runs them together, as PyFlink's Python
      // group aggregation does; it is never planned by Spark, which could not mix them.
      List<Column> aggs = new ArrayList<>();
      for (int j = 0; j < functions.size(); j++) aggs.add(functions.get(j).apply(args.get(j), scope).as(resultNames.get(j)));
      addBuiltIns(aggs, builtIns, replacements, scope);
      Column first = aggs.get(0);
      Column[] rest = JTable.asArray(aggs.subList(1, aggs.size()));
      List<Column> grouping = new ArrayList<>();
      for (int k = 0; k < keyCols.size(); k++) grouping.add(keyCols.get(k).as(keyNames.get(k)));
      Dataset<Row> shared = keyCols.isEmpty() ? df.agg(first, rest) : df.groupBy(JTable.asArray(grouping)).agg(first, rest);
      return selectOver(shared, expanded, names, replacements, scope);
    }
    boolean packed = PackedAggregation.enabled(df, keyCols);
    for (PythonAggregateFunction f : functions) packed |= f.isPackedOnly();
    Dataset<Row> rows = packed
        ? PackedAggregation.aggregate(df, keyCols, keyNames, functions, args, resultNames)
        : perGroup(df, keyCols, keyNames, functions, args, resultNames, scope);

    if (!builtIns.isEmpty()) {
      // Built-in aggregates are Spark's: one aggregation by the same keys, joined on them.
      List<Column> aggs = new ArrayList<>();
      addBuiltIns(aggs, builtIns, replacements, scope);
      Column first = aggs.get(0);
      Column[] rest = JTable.asArray(aggs.subList(1, aggs.size()));
      boolean windowed = isWindowed(df, keyCols);
      Supplier<LogicalPlan> shared = sharedAggregation(df, keyCols, keyNames, functions, args, resultNames, aggs, scope);
      if (keyCols.isEmpty()) {
        // A global aggregation has one row even over no rows (NULL sums, 0 counts); the Python
        // side has none then, so the built-in row is right-joined (Python results NULL).
        rows = rows.join(df.agg(first, rest), org.apache.spark.sql.functions.lit(true), "right");
      } else {
        List<Column> grouping = new ArrayList<>();
        for (int k = 0; k < keyCols.size(); k++) grouping.add(keyCols.get(k).as(OTHER_KEY + k));
        Dataset<Row> other = df.groupBy(JTable.asArray(grouping)).agg(first, rest);
        long otherId = ScalaInterop.list(other.queryExecution().analyzed().output()).get(0).exprId().id();
        if (windowed && countsLateRows(functions)) LATE_ROWS_COUNTED.put(otherId, true);
        else if (windowed) BESIDE_PANDAS.put(otherId, true);
        Column on = null;
        for (int k = 0; k < keyCols.size(); k++) {
          Column eq = rows.col(Scope.quote(keyNames.get(k))).eqNullSafe(other.col(OTHER_KEY + k));
          on = on == null ? eq : on.and(eq);
        }
        rows = rows.join(other, on, "inner");
      }
      if (!windowed) {
        List<Attribute> joined = ScalaInterop.list(rows.queryExecution().analyzed().output());
        SHARED.put(joined.get(joined.size() - 1).exprId().id(), shared);
      }
    }

    return selectOver(rows, expanded, names, replacements, scope);
  }

  /**
   * Whether {@code items} call Python aggregate functions and all of them are pandas ones: PyFlink
   * runs such a group-window select in its pandas window operator, which drops late rows as its
   * built-in window operator does (a general one keeps them, see {@link #countsLateRows(LogicalPlan)}).
   */
  public static boolean callsPandasOnly(List<Expr> items, Scope scope) {
    Map<String, Expr.Call> calls = new LinkedHashMap<>();
    for (Expr e : items) collectCalls(e, scope, calls, new LinkedHashMap<>());
    for (Expr.Call c : calls.values()) {
      PythonAggregateFunction f = pythonAggregate(c, scope);
      if (f == null && isDistinct(c)) f = pythonAggregate(c.arg(0), scope);
      if (f == null || !f.isPandas()) return false;
    }
    return !calls.isEmpty();
  }

  /** The built-in aggregations of {@link #countsLateRows(LogicalPlan)}, by their first output's id. */
  private static final ExprIdMemo<Boolean> LATE_ROWS_COUNTED = new ExprIdMemo<>();

  /** Marks {@code builtIns}, a group window's built-in aggregation, as {@link #countsLateRows(LogicalPlan)}. */
  static void markCountsLateRows(Dataset<Row> builtIns) {
    LATE_ROWS_COUNTED.put(ScalaInterop.list(builtIns.queryExecution().analyzed().output()).get(0).exprId().id(), true);
  }

  /** Whether PyFlink's general Python window operator computes these functions' select: any general one. */
  private static boolean countsLateRows(List<PythonAggregateFunction> functions) {
    for (PythonAggregateFunction f : functions) if (!f.isPandas()) return true;
    return false;
  }

  /**
   * Whether {@code node} aggregates the built-ins of a group-window select next to a general Python
   * aggregate function. PyFlink runs such a select in its general Python window operator, which
   * judges lateness in Python once per bundle, so over a bounded input smaller than one bundle it
   * counts the rows a built-in window drops as late (measured on PyFlink 2.3: a late row counted in
   * SUM and in the Python function alike); bounded streaming keeps those rows here too
   * (bridge.streaming.BoundedEventTime), as the Python aggregation beside it does.
   */
  public static boolean countsLateRows(LogicalPlan node) {
    List<Attribute> out = ScalaInterop.list(node.output());
    return !out.isEmpty() && LATE_ROWS_COUNTED.get(out.get(0).exprId().id()) != null;
  }

  /** The built-in aggregations of {@link #besidePandas(LogicalPlan)}, by their first output's id. */
  private static final ExprIdMemo<Boolean> BESIDE_PANDAS = new ExprIdMemo<>();

  /**
   * Whether {@code node} aggregates the built-ins of a group-window select next to pandas aggregate
   * functions, whose aggregation is joined with it on the window: both must group by the same
   * windows, so a bounded stream's late rows are dropped (and its sessions formed) below both, once
   * (bridge.streaming.BoundedEventTime.onTimeRows), and not again below this one.
   */
  public static boolean besidePandas(LogicalPlan node) {
    List<Attribute> out = ScalaInterop.list(node.output());
    return !out.isEmpty() && BESIDE_PANDAS.get(out.get(0).exprId().id()) != null;
  }

  /**
   * The plans of {@link #sharedAggregation(LogicalPlan)}, by the id of the last output of the join
   * they stand for.
   */
  private static final ExprIdMemo<Supplier<LogicalPlan>> SHARED = new ExprIdMemo<>();

  /**
   * For the join of a select's Python and built-in aggregates (no group window), one aggregation of
   * both with the join's columns in the join's order (keys, Python results, keys again, built-in
   * results); null for any other node. Streaming mode computes a bounded table's changelog from it
   * as from SQL's aggregation (bridge.streaming.Changelog), since Flink runs both kinds in one
   * operator whose changes all follow the Python bundle; Spark cannot execute it as a batch plan.
   */
  public static LogicalPlan sharedAggregation(LogicalPlan node) {
    List<Attribute> out = ScalaInterop.list(node.output());
    Supplier<LogicalPlan> shared = out.isEmpty() ? null : SHARED.get(out.get(out.size() - 1).exprId().id());
    return shared == null ? null : shared.get();
  }

  /** {@link #sharedAggregation(LogicalPlan)}'s plan, built when asked for. */
  private static Supplier<LogicalPlan> sharedAggregation(Dataset<Row> df, List<Column> keyCols, List<String> keyNames,
      List<PythonAggregateFunction> functions, List<List<Column>> args, List<String> resultNames,
      List<Column> builtIns, Scope scope) {
    return () -> {
      List<Column> aggs = new ArrayList<>();
      for (int j = 0; j < functions.size(); j++) {
        PythonAggregateFunction f = functions.get(j);
        if (f.isPandas()) throw PythonAggregateFunction.pandasWithoutWindowRefused(f.name());
        if (f.isPackedOnly()) {
          throw TableException.unsupported("the Python aggregate function " + f.name() + " with a ROW result next to "
              + "built-in aggregates in a group_by select in streaming mode");
        }
        aggs.add(f.apply(args.get(j), scope).as(resultNames.get(j)));
      }
      aggs.addAll(builtIns);
      List<Column> grouping = new ArrayList<>();
      for (int k = 0; k < keyCols.size(); k++) grouping.add(keyCols.get(k).as(keyNames.get(k)));
      Dataset<Row> agg = df.groupBy(JTable.asArray(grouping)).agg(aggs.get(0), JTable.asArray(aggs.subList(1, aggs.size())));
      // Positional names: keys and results may share names; the join repeats the keys after the Python results.
      String[] tmp = new String[agg.columns().length];
      for (int i = 0; i < tmp.length; i++) tmp[i] = "__pft_s" + i;
      Dataset<Row> renamed = JTable.renameAll(agg, tmp);
      int keys = keyCols.size();
      List<Column> order = new ArrayList<>();
      for (int i = 0; i < keys + functions.size(); i++) order.add(renamed.col(tmp[i]));
      for (int i = 0; i < keys; i++) order.add(renamed.col(tmp[i]));
      for (int i = keys + functions.size(); i < tmp.length; i++) order.add(renamed.col(tmp[i]));
      return renamed.select(JTable.asArray(order)).queryExecution().analyzed();
    };
  }

  /** Each item over the aggregated (joined) row: its aggregates and grouping expressions read from columns. */
  private static Dataset<Row> selectOver(Dataset<Row> rows, List<Expr> expanded, List<String> names,
      Map<String, Expr> replacements, Scope scope) {
    Scope joined = new Scope(rows, scope.functions);
    joined.windowProperties.putAll(scope.windowProperties);
    List<Column> out = new ArrayList<>();
    for (int i = 0; i < expanded.size(); i++) {
      out.add(ExprCompiler.compile(replace(expanded.get(i), replacements), joined).as(names.get(i)));
    }
    return rows.select(JTable.asArray(out));
  }

  /** Whether {@code df} is unbounded and grouped without a window (its keys have no window struct). */
  private static boolean isUpdatingStream(Dataset<Row> df, List<Column> keyCols) {
    return df.isStreaming() && !isWindowed(df, keyCols);
  }

  /** Whether one of the keys is a group window's struct (start, end). */
  private static boolean isWindowed(Dataset<Row> df, List<Column> keyCols) {
    if (keyCols.isEmpty()) return false;
    for (StructField f : df.select(JTable.asArray(keyCols)).schema().fields()) {
      if (f.dataType() instanceof StructType t && t.fields().length == 2 && t.fields()[0].name().equals("start")) {
        return true;
      }
    }
    return false;
  }

  /** The same shape as {@link PackedAggregation#aggregate}, from Spark's grouped-aggregate UDFs. */
  private static Dataset<Row> perGroup(Dataset<Row> df, List<Column> keyCols, List<String> keyNames,
      List<PythonAggregateFunction> functions, List<List<Column>> args, List<String> resultNames, Scope scope) {
    List<Column> aggs = new ArrayList<>();
    for (int j = 0; j < functions.size(); j++) aggs.add(functions.get(j).apply(args.get(j), scope).as(resultNames.get(j)));
    Column first = aggs.get(0);
    Column[] rest = JTable.asArray(aggs.subList(1, aggs.size()));
    if (keyCols.isEmpty()) return df.agg(first, rest);
    List<Column> grouping = new ArrayList<>();
    for (int k = 0; k < keyCols.size(); k++) grouping.add(keyCols.get(k).as(keyNames.get(k)));
    return df.groupBy(JTable.asArray(grouping)).agg(first, rest);
  }

  /** Collects the Python aggregate calls and the outermost built-in aggregate calls of {@code e}. */
  public static void collectCalls(Expr e, Scope scope, Map<String, Expr.Call> calls, Map<String, Expr.Call> builtIns) {
    if (!(e instanceof Expr.Call)) return;
    Expr.Call c = (Expr.Call) e;
    PythonAggregateFunction f = pythonAggregate(e, scope);
    if (f == null && isDistinct(c) && !c.args.isEmpty()) f = pythonAggregate(c.arg(0), scope); // f(a).distinct
    if (f != null && !f.isTableAggregate()) {
      calls.putIfAbsent(e.toString(), c);
      return;
    }
    if (ExprCompiler.isBareAggregate(c, scope)) { // count(a), also count(a).distinct as one unit
      builtIns.putIfAbsent(e.toString(), c);
      return;
    }
    if (FunctionCatalog.normalize(c.name).equals("over")) return;
    for (Expr a : c.args) collectCalls(a, scope, calls, builtIns);
  }

  private static boolean isDistinct(Expr.Call c) {
    return FunctionCatalog.normalize(c.name).equals("distinct");
  }

  /** {@code e} with every sub-expression whose text is a key of {@code replacements} replaced. */
  public static Expr replace(Expr e, Map<String, Expr> replacements) {
    Expr r = replacements.get(e.toString());
    if (r != null) return r;
    if (!(e instanceof Expr.Call)) return e;
    Expr.Call c = (Expr.Call) e;
    List<Expr> args = new ArrayList<>();
    for (Expr a : c.args) args.add(replace(a, replacements));
    return new Expr.Call(c.name, args, c.function);
  }

  /**
   * The key column name of each grouping expression: a plain field keeps its name, any other
   * expression is read from a key column, which {@code replacements} records for the select items.
   */
  public static List<String> keyNames(List<Expr> keyExprs, Map<String, Expr> replacements) {
    List<String> keyNames = new ArrayList<>();
    for (int i = 0; i < keyExprs.size(); i++) {
      Expr k = keyExprs.get(i);
      if (k instanceof Expr.FieldRef) {
        keyNames.add(((Expr.FieldRef) k).name);
      } else {
        keyNames.add(KEY + i);
        replacements.put(k.toString(), new Expr.FieldRef(KEY + i));
      }
    }
    return keyNames;
  }

  /** The Python aggregate calls of a select, ready to run, each with the column of its result. */
  public record Calls(List<PythonAggregateFunction> functions, List<List<Column>> args, List<String> resultNames) {}

  /** {@link Calls} of {@code calls}; each call's expression is replaced by its result column in {@code replacements}. */
  public static Calls calls(Map<String, Expr.Call> calls, Scope scope, Map<String, Expr> replacements) {
    Calls out = new Calls(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    for (Map.Entry<String, Expr.Call> c : calls.entrySet()) {
      String column = RESULT + out.resultNames().size();
      // DISTINCT as PyFlink writes it, f(a).distinct, or on the argument, f(a.distinct), as for built-ins.
      Expr.Call call = c.getValue();
      boolean distinct = isDistinct(call);
      if (distinct) call = (Expr.Call) call.arg(0);
      List<Expr> args = new ArrayList<>(call.args);
      if (!args.isEmpty() && args.get(0) instanceof Expr.Call first && isDistinct(first) && !first.args.isEmpty()) {
        args.set(0, first.arg(0));
        distinct = true;
      }
      out.functions().add(pythonAggregate(call, scope).selecting(distinct, false));
      out.args().add(ExprCompiler.compileAll(args, scope));
      out.resultNames().add(column);
      replacements.put(c.getKey(), new Expr.FieldRef(column));
    }
    return out;
  }
}
