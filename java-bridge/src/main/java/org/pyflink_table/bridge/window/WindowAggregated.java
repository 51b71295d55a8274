package org.pyflink_table.bridge.window;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.functions;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.expressions.Expr;
import org.pyflink_table.bridge.expressions.ExprCompiler;
import org.pyflink_table.bridge.expressions.Scope;
import org.pyflink_table.bridge.table.JTable;
import org.pyflink_table.bridge.table.RowBasedOperations;

/**
 * The result of {@code window(w).group_by(w, keys).aggregate(...)} or {@code flat_aggregate(...)}:
 * keys and result fields plus the hidden window column, so that the following {@code select}
 * can still name {@code w.start}, {@code w.end} and {@code w.rowtime}.
 */
public record WindowAggregated(JTable result, GroupWindowSpec window) {

  /** Aggregates each window and key of {@code grouped} with {@code call} (a table aggregate when {@code flat}). */
  public static WindowAggregated of(WindowGroupedJTable grouped, Expr call, boolean flat) {
    if (grouped.table.df.isStreaming()) {
      // Over an unbounded stream a Python function's windows fire on the window processor.
      JTable fired = StreamWindowSelect.rowBased(grouped, call, flat);
      if (fired != null) return new WindowAggregated(fired, grouped.window);
    }
    if (grouped.isCountWindow()) {
      throw TableException.unsupported((flat ? "flat_aggregate" : "aggregate") + " over the row-count group window "
          + grouped.window + " with anything but a Python aggregate function (use select with aggregate calls)");
    }
    Scope scope = grouped.scope();
    List<Column> grouping = grouped.groupingColumns(scope);
    List<String> names = new ArrayList<>();
    names.add(WindowGroupedJTable.WINDOW_COLUMN);
    for (Expr k : ExprCompiler.expand(grouped.keys, scope)) {
      names.add(k instanceof Expr.FieldRef ? ((Expr.FieldRef) k).name : "_c" + names.size());
    }
    JTable out = RowBasedOperations.aggregate(grouped.table, grouped.windowedInput(), scope, grouping, names, call, flat);
    return new WindowAggregated(out, grouped.window);
  }

  public JTable select(Expr[] items) {
    String w = WindowGroupedJTable.WINDOW_COLUMN;
    Scope scope = result.scope();
    if (CountWindows.isCountWindow(window)) {
      // A count window has no start, end or rowtime (PyFlink's messages).
      CountWindows.refuseProperties(window, Arrays.asList(items));
      List<Column> cols = ExprCompiler.compileNamed(ExprCompiler.expand(Arrays.asList(items), scope), scope);
      return result.copyWith(result.df.select(cols.toArray(new Column[0])));
    }
    Column column = functions.col(w);
    Map<String, Column> props = new LinkedHashMap<>();
    props.put("start", column.getField("start"));
    props.put("end", column.getField("end"));
    props.put("rowtime", column.getField("end").minus(functions.lit(Duration.ofMillis(1))));
    scope.windowProperties.put(window.alias, props);
    List<Expr> expanded = new ArrayList<>();
    for (Expr e : ExprCompiler.expand(Arrays.asList(items), scope)) {
      if (!(e instanceof Expr.FieldRef && ((Expr.FieldRef) e).name.equals(w))) expanded.add(e);
    }
    List<Column> cols = ExprCompiler.compileNamed(expanded, scope);
    return result.copyWith(result.df.select(cols.toArray(new Column[0])));
  }
}
