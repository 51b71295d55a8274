package org.pyflink_table.bridge.table;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.CoreModule;
import org.pyflink_table.bridge.expressions.Expr;
import org.pyflink_table.bridge.expressions.ExprCompiler;
import org.pyflink_table.bridge.expressions.FunctionCatalog;
import org.pyflink_table.bridge.expressions.Scope;

/** {@code table.group_by(keys)}: selects over it aggregate per key. */
public final class GroupedJTable {
  public final JTable table;
  public final List<Expr> keys;

  GroupedJTable(JTable table, List<Expr> keys) {
    this.table = table;
    this.keys = keys;
  }

  public JTable select(Expr[] items) {
    // An aliased key (group_by((col('a') % 2).alias('p'))) is selected by its alias, as in Flink:
    // compute it as a column first and group by that column.
    List<Expr> aliased = new ArrayList<>();
    List<Expr> groupKeys = new ArrayList<>();
    for (Expr k : keys) {
      if (k instanceof Expr.Call && FunctionCatalog.normalize(((Expr.Call) k).name).equals("as")) {
        aliased.add(k);
        groupKeys.add(new Expr.FieldRef(ExprCompiler.aliasNames((Expr.Call) k).get(0)));
      } else {
        groupKeys.add(k);
      }
    }
    JTable input = aliased.isEmpty() ? table : table.addOrReplaceColumns(aliased.toArray(new Expr[0]));
    Scope scope = input.scope();
    List<Expr> keyExprs = ExprCompiler.expand(groupKeys, scope);
    List<Column> keyCols = ExprCompiler.compileAll(keyExprs, scope);
    if (!scope.functions.coreInUse()) {
      // Checked before the Python aggregates take their own path: Flink fails there too ([as]).
      for (Expr item : ExprCompiler.expand(Arrays.asList(items), scope)) CoreModule.checkSelectItem(item, scope.functions);
    }
    Dataset<Row> python = PythonAggregateSelect.select(input.df, keyCols, keyExprs, Arrays.asList(items), scope);
    if (python != null) return input.copyWith(python);
    List<Column> cols = ExprCompiler.compileNamed(Arrays.asList(items), scope);
    return input.copyWith(aggregate(input.df, keyCols, cols));
  }

  /**
   * Groups by the keys and computes exactly {@code cols}: Spark's agg() prepends the key columns,
   * which are cut off again by position so that duplicate names cannot confuse the projection.
   */
  public static Dataset<Row> aggregate(Dataset<Row> df, List<Column> keyCols, List<Column> cols) {
    if (cols.isEmpty()) {
      throw new ValidationException("A grouped select needs at least one expression.");
    }
    Dataset<Row> agg = df.groupBy(JTable.asArray(keyCols))
        .agg(cols.get(0), JTable.asArray(cols.subList(1, cols.size())));
    int nKeys = agg.columns().length - cols.size();
    String[] tmp = new String[agg.columns().length];
    for (int i = 0; i < tmp.length; i++) tmp[i] = "__pft_" + i;
    String[] finalNames = new String[cols.size()];
    System.arraycopy(agg.columns(), nKeys, finalNames, 0, cols.size());
    Dataset<Row> renamed = JTable.renameAll(agg, tmp);
    List<Column> out = new ArrayList<>();
    for (int i = 0; i < cols.size(); i++) {
      out.add(renamed.col(tmp[nKeys + i]).as(finalNames[i], agg.schema().fields()[nKeys + i].metadata()));
    }
    return renamed.select(JTable.asArray(out));
  }
}
