package org.pyflink_table.bridge.window;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.pyflink_table.bridge.expressions.Expr;
import org.pyflink_table.bridge.expressions.ExprCompiler;
import org.pyflink_table.bridge.expressions.FunctionCatalog;
import org.pyflink_table.bridge.expressions.Scope;
import org.pyflink_table.bridge.table.PythonAggregateSelect;
import org.pyflink_table.bridge.udf.CollectedWindowAggregation;
import org.pyflink_table.bridge.udf.PythonAggregateFunction;

/**
 * The fast path of a tumbling or sliding window select over a stream whose Python aggregates are
 * all pandas UDAFs: Spark's own window aggregation (the one built-in windows use, so late rows,
 * firing at {@code end - 1 ms} and the end-of-input flush are the same) collects each window's
 * argument rows and computes the built-in aggregates beside them; the pandas functions then run
 * once per fired window ({@link CollectedWindowAggregation}). Where it does not apply (session
 * windows, general Python aggregates, DISTINCT built-ins, or {@code
 * pyflink_table.streaming.python-window=processor}) {@link StreamWindowSelect} keeps its
 * {@code transformWithStateInPandas} processor.
 */
final class CollectedWindowSelect {
  private CollectedWindowSelect() {}

  private static final String ROWS = "__pft_rows";
  private static final String BUILT_IN = "__pft_b";

  /** The select's rows, or null when this path does not apply. */
  static Dataset<Row> select(WindowGroupedJTable grouped, List<Expr> expanded, Scope windowScope,
      Map<String, Expr.Call> calls, Map<String, Expr.Call> builtIns) {
    if (!applies(grouped, windowScope, calls, builtIns)) return null;
    Dataset<Row> windowed = grouped.windowedInput();
    List<Expr> keyExprs = ExprCompiler.expand(grouped.keys, windowScope);
    Map<String, Expr> replacements = new HashMap<>();
    List<String> keyNames = PythonAggregateSelect.keyNames(keyExprs, replacements);
    List<Column> grouping = new ArrayList<>();
    grouping.add(windowed.col(WindowGroupedJTable.WINDOW_COLUMN));
    List<Column> keyCols = ExprCompiler.compileAll(keyExprs, windowScope);
    for (int i = 0; i < keyCols.size(); i++) {
      grouping.add(keyExprs.get(i) instanceof Expr.FieldRef ? keyCols.get(i) : keyCols.get(i).as(keyNames.get(i)));
    }
    PythonAggregateSelect.Calls run = PythonAggregateSelect.calls(calls, windowScope, replacements);
    List<Column> aggs = new ArrayList<>();
    for (Map.Entry<String, Expr.Call> e : builtIns.entrySet()) {
      String column = BUILT_IN + aggs.size();
      aggs.add(ExprCompiler.compile(e.getValue(), windowScope).as(column));
      replacements.put(e.getKey(), new Expr.FieldRef(column));
    }
    Column rows = CollectedWindowAggregation.collect(run.args()).as(ROWS);
    Dataset<Row> collected = windowed.groupBy(grouping.toArray(new Column[0])).agg(rows, aggs.toArray(new Column[0]));
    Dataset<Row> evaluated = CollectedWindowAggregation.evaluate(collected, ROWS, run.functions(), run.args(),
        run.resultNames());

    Scope fired = new Scope(evaluated, windowScope.functions);
    fired.windowProperties.putAll(windowScope.windowProperties);
    List<String> names = ExprCompiler.outputNames(expanded, windowScope);
    List<Column> out = new ArrayList<>();
    for (int i = 0; i < expanded.size(); i++) {
      out.add(ExprCompiler.compile(PythonAggregateSelect.replace(expanded.get(i), replacements), fired).as(names.get(i)));
    }
    return evaluated.select(out.toArray(new Column[0]));
  }

  private static boolean applies(WindowGroupedJTable grouped, Scope scope, Map<String, Expr.Call> calls,
      Map<String, Expr.Call> builtIns) {
    GroupWindowSpec window = grouped.window;
    if (window.kind == GroupWindowSpec.Kind.SESSION || !time(window.size)) return false;
    if (window.kind == GroupWindowSpec.Kind.SLIDE && !time(window.slide)) return false;
    if (!CollectedWindowAggregation.enabled(grouped.table.df)) return false;
    for (Expr.Call c : calls.values()) {
      PythonAggregateFunction f = PythonAggregateSelect.pythonAggregate(c, scope);
      if (f == null || !f.isPandas()) return false;
    }
    // Spark's streaming aggregation has no DISTINCT aggregates; the processor computes them.
    for (Expr.Call c : builtIns.values()) if (FunctionCatalog.normalize(c.name).equals("distinct")) return false;
    return true;
  }

  private static boolean time(Expr interval) {
    return interval != null && WindowInterval.parse(interval, "Group window size").kind == WindowInterval.Kind.TIME;
  }
}
