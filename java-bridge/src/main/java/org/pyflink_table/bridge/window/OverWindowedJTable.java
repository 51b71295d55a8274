package org.pyflink_table.bridge.window;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.expressions.WindowSpec;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.Expr;
import org.pyflink_table.bridge.expressions.ExprCompiler;
import org.pyflink_table.bridge.expressions.Scope;
import org.pyflink_table.bridge.table.JTable;

/**
 * {@code table.over_window(w1, ...)}: a select in which {@code agg.over(alias)} evaluates per row
 * over its window. Several windows are allowed (PyFlink allows one).
 */
public final class OverWindowedJTable {
  public final JTable table;
  public final List<OverWindowSpec> windows;

  public OverWindowedJTable(JTable table, OverWindowSpec[] windows) {
    this(table, Arrays.asList(windows));
  }

  public OverWindowedJTable(JTable table, List<OverWindowSpec> windows) {
    Set<String> seen = new HashSet<>();
    for (OverWindowSpec w : windows) {
      if (!seen.add(w.alias)) {
        throw new ValidationException("Over window alias '" + w.alias + "' is defined twice.");
      }
    }
    this.table = table;
    this.windows = windows;
  }

  /** A scope over the table in which every window alias resolves. */
  public Scope scope() {
    Scope scope = table.scope();
    for (OverWindowSpec w : windows) {
      WindowSpec[] specs = w.resolve(scope);
      scope.overWindows.put(w.alias, specs[0]);
      scope.overWindowOrders.put(w.alias, specs[1]);
    }
    return scope;
  }

  public JTable select(Expr[] items) {
    Scope scope = scope();
    for (Expr e : items) {
      // Spark would aggregate the whole table instead; Flink wants every aggregate windowed here.
      if (ExprCompiler.containsAggregate(e, scope)) {
        throw new ValidationException("An aggregate in an over-window select needs .over(alias): " + e
            + "; defined windows: " + scope.overWindows.keySet() + ".");
      }
    }
    if (table.df.isStreaming()) {
      JTable fired = StreamOverSelect.select(this, Arrays.asList(items), scope);
      if (fired != null) return fired;
    }
    List<Column> cols = ExprCompiler.compileNamed(Arrays.asList(items), scope);
    return table.copyWith(table.df.select(cols.toArray(new Column[0])));
  }
}
