package org.pyflink_table.bridge.window;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructField;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.expressions.Expr;
import org.pyflink_table.bridge.expressions.ExprCompiler;
import org.pyflink_table.bridge.expressions.FunctionCatalog;
import org.pyflink_table.bridge.expressions.Scope;
import org.pyflink_table.bridge.table.JTable;
import org.pyflink_table.bridge.table.PythonAggregateSelect;
import org.pyflink_table.bridge.table.StateTtl;
import org.pyflink_table.bridge.udf.PythonAggregateFunction;
import org.pyflink_table.bridge.udf.StreamWindowAggregation;

/**
 * An over-window select over an unbounded stream. Spark has no streaming over windows
 * ({@code NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING}): a ROWS or RANGE PRECEDING window ordered by
 * the rowtime, and an UNBOUNDED PRECEDING one ordered by the rowtime or a processing-time
 * attribute, run on {@link StreamWindowAggregation#over}, which computes their Python and built-in
 * aggregates alike; PyFlink's refusals get PyFlink's message; the rest is refused by
 * name before the job starts.
 */
final class StreamOverSelect {
  private StreamOverSelect() {}

  /** The select's rows, or null when no item aggregates over a window. */
  static JTable select(OverWindowedJTable over, List<Expr> items, Scope scope) {
    List<Expr> expanded = ExprCompiler.expand(items, scope);
    Map<String, Expr.Call> overs = new LinkedHashMap<>();
    for (Expr e : expanded) collectOvers(e, overs);
    if (overs.isEmpty()) return null;
    for (Expr.Call c : overs.values()) checkPythonInUnbounded(over, c, scope);
    String alias = null;
    Map<String, Expr.Call> calls = new LinkedHashMap<>();
    Map<String, Expr.Call> builtIns = new LinkedHashMap<>();
    for (Map.Entry<String, Expr.Call> e : overs.entrySet()) {
      String a = aliasOf(e.getValue());
      if (alias != null && !alias.equals(a)) throw refused("aggregates over two different windows in one select");
      alias = a;
      Expr aggregate = e.getValue().arg(0);
      if (PythonAggregateSelect.pythonAggregate(aggregate, scope) != null) {
        calls.put(e.getKey(), (Expr.Call) aggregate);
      } else if (aggregate instanceof Expr.Call && ExprCompiler.isBareAggregate(aggregate, scope)) {
        builtIns.put(e.getKey(), (Expr.Call) aggregate);
      } else {
        throw refused("the over aggregate " + e.getKey());
      }
    }
    OverWindowSpec window = null;
    for (OverWindowSpec w : over.windows) if (w.alias.equals(alias)) window = w;
    if (window == null) return null; // the compiler names the undefined alias
    WindowInterval[] bounds = window.bounds();
    WindowInterval lower = bounds[0];
    boolean unbounded = lower.isUnbounded();
    boolean rowsFrame = lower.kind == WindowInterval.Kind.ROWS || lower.kind == WindowInterval.Kind.UNBOUNDED_ROW;
    if (!rowsFrame && !unbounded && lower.kind != WindowInterval.Kind.TIME) {
      throw refused("a window starting at " + window.preceding);
    }
    if (bounds[1].kind != WindowInterval.Kind.CURRENT_ROW && bounds[1].kind != WindowInterval.Kind.CURRENT_RANGE) {
      throw refused("a window with FOLLOWING rows");
    }
    JTable table = over.table;
    if (!(window.orderBy instanceof Expr.FieldRef)) throw refused("a window ordered by " + window.orderBy);
    String timeField = ((Expr.FieldRef) window.orderBy).name;
    StructField time = table.df.schema().apply(timeField);
    boolean proctime = time.metadata().contains(TimeAttributes.PROCTIME);
    if (proctime && !unbounded) {
      throw refused("a bounded window ordered by the processing-time attribute " + timeField);
    }
    if (!proctime && !time.metadata().contains(TimeAttributes.WATERMARK_DELAY_MS)) {
      throw refused("a window ordered by " + timeField + ", which is not a rowtime attribute with a watermark");
    }
    long delayMs = proctime ? -1 : time.metadata().getLong(TimeAttributes.WATERMARK_DELAY_MS);
    long frameRows = unbounded && rowsFrame ? StreamWindowAggregation.UNBOUNDED : rowsFrame ? lower.value : -1;
    long frameRange = unbounded && !rowsFrame ? StreamWindowAggregation.UNBOUNDED : rowsFrame ? -1 : lower.value;

    Scope tableScope = table.scope();
    Map<String, Expr> replacements = new HashMap<>();
    PythonAggregateSelect.Calls run = PythonAggregateSelect.calls(calls, tableScope, replacements);
    List<StreamWindowAggregation.BuiltIn> others = StreamWindowSelect.builtIns(builtIns, table, tableScope,
        replacements);
    List<Column> keys = ExprCompiler.compileAll(ExprCompiler.expand(window.partitionBy, tableScope), tableScope);
    StateTtl.refuse(table.env.spark, "an over window over an unbounded source (its processor keeps rows without a TTL)");
    Dataset<Row> rows = StreamWindowAggregation.over(table.df, table.df.col(Scope.quote(timeField)), delayMs,
        frameRows, frameRange, keys, run.functions(), run.args(), run.resultNames(), others,
        table.env.workerTemplate());

    Scope fired = new Scope(rows, scope.functions);
    List<String> names = ExprCompiler.outputNames(expanded, scope);
    List<Column> out = new ArrayList<>();
    for (int i = 0; i < expanded.size(); i++) {
      out.add(ExprCompiler.compile(PythonAggregateSelect.replace(expanded.get(i), replacements), fired)
          .as(names.get(i)));
    }
    return table.copyWith(rows.select(out.toArray(new Column[0])));
  }

  private static TableException refused(String what) {
    return TableException.unsupported("over windows over an unbounded source in streaming mode with " + what
        + " (supported: ROWS or RANGE PRECEDING ordered by the rowtime, UNBOUNDED_ROW or UNBOUNDED_RANGE ordered by "
        + "the rowtime or a processing-time attribute)");
  }

  private static void collectOvers(Expr e, Map<String, Expr.Call> overs) {
    if (!(e instanceof Expr.Call)) return;
    Expr.Call c = (Expr.Call) e;
    if (FunctionCatalog.normalize(c.name).equals("over") && c.args.size() == 2) {
      overs.putIfAbsent(e.toString(), c);
      return;
    }
    for (Expr a : c.args) collectOvers(a, overs);
  }

  private static String aliasOf(Expr.Call over) {
    Expr ref = over.arg(1);
    return ref instanceof Expr.FieldRef ? ((Expr.FieldRef) ref).name : String.valueOf(((Expr.Literal) ref).value);
  }

  /** PyFlink's refusal of a pandas aggregate function in an UNBOUNDED PRECEDING over window (FLIP-137). */
  private static void checkPythonInUnbounded(OverWindowedJTable over, Expr.Call c, Scope scope) {
    PythonAggregateFunction f = PythonAggregateSelect.pythonAggregate(c.arg(0), scope);
    if (f == null || !f.isPandas()) return;
    for (OverWindowSpec w : over.windows) {
      if (w.alias.equals(aliasOf(c))) {
        WindowInterval.Kind lower = w.bounds()[0].kind;
        if (lower == WindowInterval.Kind.UNBOUNDED_RANGE || lower == WindowInterval.Kind.UNBOUNDED_ROW) {
          throw new TableException("Python UDAF is not supported to be used in UNBOUNDED PRECEDING OVER windows.");
        }
      }
    }
  }
}
