package org.pyflink_table.bridge.window;

import java.util.ArrayList;
import java.util.List;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.Expr;
import org.pyflink_table.bridge.table.JTable;

/** {@code table.window(w)}: waits for {@code group_by}, which must name the window's alias once. */
public final class GroupWindowedJTable {
  public final JTable table;
  public final GroupWindowSpec window;

  public GroupWindowedJTable(JTable table, GroupWindowSpec window) {
    this.table = table;
    this.window = window;
  }

  public WindowGroupedJTable groupBy(Expr[] fields) {
    List<Expr> keys = new ArrayList<>();
    int aliases = 0;
    for (Expr e : fields) {
      if (e instanceof Expr.FieldRef && ((Expr.FieldRef) e).name.equals(window.alias)) {
        aliases++;
      } else {
        keys.add(e);
      }
    }
    if (aliases != 1) {
      throw new ValidationException("GroupBy must contain exactly one window alias: group_by(col('"
          + window.alias + "'), ...) for the window " + window + ".");
    }
    return new WindowGroupedJTable(table, window, keys);
  }
}
