package org.pyflink_table.bridge.streaming;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.when;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.pyflink_table.bridge.table.JTable;

/**
 * {@code to_changelog()} of an updating table in streaming mode: the changelog of {@link Changelog}
 * as an insert-only table whose first column names each row's kind (INSERT, UPDATE_BEFORE,
 * UPDATE_AFTER, DELETE, or the codes of {@code op_mapping}; kinds without a code are dropped).
 */
public final class ChangelogTables {
  private ChangelogTables() {}

  /** Whether {@code to_changelog} of this table needs the streaming changelog. */
  public static boolean appliesTo(JTable table) {
    return table.env.isStreaming() && !table.df.isStreaming() && Changelog.isUpdating(table);
  }

  /**
   * The changelog with the operation column {@code opName} in front.
   *
   * @param mapping kind codes as {@code to_changelog}'s op_mapping ("INSERT, UPDATE_AFTER" -> code), or null
   */
  public static JTable toChangelog(JTable table, String opName, Map<String, String> mapping) {
    Dataset<Row> changes = Changelog.of(table);
    Column kind = when(col(Changelog.OP).equalTo("+I"), lit("INSERT"))
        .when(col(Changelog.OP).equalTo("-U"), lit("UPDATE_BEFORE"))
        .when(col(Changelog.OP).equalTo("+U"), lit("UPDATE_AFTER"))
        .otherwise(lit("DELETE"));
    Column code = kind;
    if (mapping != null) {
      Column mapped = null;
      for (Map.Entry<String, String> m : mapping.entrySet()) {
        for (String k : m.getKey().split(",")) {
          Column c = kind.equalTo(k.strip());
          mapped = mapped == null ? when(c, lit(m.getValue())) : mapped.when(c, lit(m.getValue()));
        }
      }
      code = mapped == null ? lit(null).cast("string") : mapped;
    }
    String[] names = changes.columns();
    List<Column> cols = new ArrayList<>();
    cols.add(code.as(opName));
    for (int i = 0; i < names.length - 1; i++) cols.add(changes.col("`" + names[i].replace("`", "``") + "`"));
    Dataset<Row> out = changes.select(cols.toArray(new Column[0]));
    return table.copyWith(mapping == null ? out : out.filter(col("`" + opName + "`").isNotNull()));
  }
}
