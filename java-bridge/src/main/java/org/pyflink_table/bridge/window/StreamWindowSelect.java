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
import org.pyflink_table.bridge.expressions.Scope;
import org.pyflink_table.bridge.table.JTable;
import org.pyflink_table.bridge.table.PythonAggregateSelect;
import org.pyflink_table.bridge.udf.PythonAggregateFunction;
import org.pyflink_table.bridge.udf.StreamWindowAggregation;

/**
 * A group-window select over an unbounded stream whose items call Python aggregate functions
 * (FLIP-137): the windows are computed by {@link StreamWindowAggregation} from the un-windowed
 * rows (a sliding window's row is stored once), then each item is computed over the fired
 * window's row, its aggregate calls read from the columns that hold them.
 */
final class StreamWindowSelect {
  private StreamWindowSelect() {}


  /** The select's rows, or null when no item calls a Python aggregate function. */
  static Dataset<Row> select(WindowGroupedJTable grouped, List<Expr> expanded, Scope windowScope) {
    Map<String, Expr.Call> calls = new LinkedHashMap<>();
    Map<String, Expr.Call> builtIns = new LinkedHashMap<>();
    for (Expr e : expanded) PythonAggregateSelect.collectCalls(e, windowScope, calls, builtIns);
    if (calls.isEmpty()) return null;
    GroupWindowSpec window = grouped.window;
    if (window.kind == GroupWindowSpec.Kind.SESSION) {
      throw TableException.unsupported("Python aggregate functions in a session window over an unbounded source");
    }
    if (!builtIns.isEmpty()) {
      throw TableException.unsupported("built-in aggregates (" + String.join(", ", builtIns.keySet())
          + ") next to Python aggregate functions in one group window over an unbounded source; compute them in "
          + "separate selects");
    }
    JTable table = grouped.table;
    String timeField = ((Expr.FieldRef) window.timeField).name;
    StructField time = table.df.schema().apply(timeField);
    if (!time.metadata().contains(TimeAttributes.WATERMARK_DELAY_MS)) {
      throw new TableException("A group window over an unbounded source needs a time attribute with a watermark: "
          + "declare WATERMARK FOR <column> AS <column> - INTERVAL '...' SECOND on the source table and window on "
          + "that column.");
    }
    long delayMs = time.metadata().getLong(TimeAttributes.WATERMARK_DELAY_MS);
    long size = WindowInterval.parse(window.size, "Group window size").value;
    long slide = window.kind == GroupWindowSpec.Kind.SLIDE ? WindowInterval.parse(window.slide, "Sliding window slide").value : size;

    Scope scope = table.scope();
    List<Expr> keyExprs = ExprCompiler.expand(grouped.keys, scope);
    Map<String, Expr> replacements = new HashMap<>();
    List<String> keyNames = PythonAggregateSelect.keyNames(keyExprs, replacements);
    PythonAggregateSelect.Calls run = PythonAggregateSelect.calls(calls, scope, replacements);
    List<PythonAggregateFunction> functions = run.functions();
    List<List<Column>> args = run.args();
    List<String> resultNames = run.resultNames();
    Dataset<Row> rows = StreamWindowAggregation.aggregate(table.df, table.df.col(Scope.quote(timeField)), delayMs, size,
        slide, ExprCompiler.compileAll(keyExprs, scope), keyNames, functions, args, resultNames,
        WindowGroupedJTable.WINDOW_COLUMN);

    Scope fired = new Scope(rows, scope.functions);
    fired.windowProperties.putAll(windowScope.windowProperties);
    List<String> names = ExprCompiler.outputNames(expanded, windowScope);
    List<Column> out = new ArrayList<>();
    for (int i = 0; i < expanded.size(); i++) {
      out.add(ExprCompiler.compile(PythonAggregateSelect.replace(expanded.get(i), replacements), fired).as(names.get(i)));
    }
    return rows.select(out.toArray(new Column[0]));
  }
}
