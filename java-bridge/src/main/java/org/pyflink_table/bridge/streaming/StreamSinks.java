package org.pyflink_table.bridge.streaming;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.pyflink_table.bridge.connectors.Connectors;
import org.pyflink_table.bridge.connectors.Formats;
import org.pyflink_table.bridge.connectors.TableDefinition;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.session.TableEnv;
import org.pyflink_table.bridge.table.JTable;

/**
 * Sinks in streaming mode. The print sink shows each change with its kind ({@code +I[...]},
 * {@code -U[...]}); append-only sinks (filesystem, blackhole) refuse updating input with Flink's
 * message, as Flink's planner does.
 */
public final class StreamSinks {
  private StreamSinks() {}

  /** Writes the (bounded) rows of {@code rows}; returns the print sink's lines or null. */
  public static String[] write(TableEnv env, String sink, TableDefinition def, Dataset<Row> rows, boolean overwrite,
      org.apache.hadoop.conf.Configuration hadoop) {
    JTable table = new JTable(env, rows);
    if (def.connector().equals("print")) {
      return printLines(def, Changelog.of(table).collectAsList());
    }
    checkAppendOnly(sink, rows);
    return Connectors.write(env.spark, sink, def, rows, overwrite, hadoop);
  }

  /** Flink's refusal of updates by a sink that only appends. */
  public static void checkAppendOnly(String sink, Dataset<Row> rows) {
    String node = Changelog.updatingNode(rows.queryExecution().analyzed());
    if (node != null) {
      throw new TableException("Table sink '" + sink + "' doesn't support consuming update changes which is produced by node "
          + node);
    }
  }

  /** The print sink's lines for change rows whose last column is the kind: first the stream's name. */
  public static String[] printLines(TableDefinition def, List<Row> changes) {
    String id = def.options.get("print-identifier");
    String prefix = id == null ? "" : id + "> ";
    String[] lines = new String[changes.size() + 1];
    lines[0] = def.flag("standard-error") ? "stderr" : "stdout";
    for (int i = 0; i < changes.size(); i++) {
      Row r = changes.get(i);
      Object[] values = new Object[r.length() - 1];
      for (int j = 0; j < values.length; j++) values[j] = r.get(j);
      lines[i + 1] = prefix + r.getString(r.length() - 1) + Formats.printRow(org.apache.spark.sql.RowFactory.create(values));
    }
    return lines;
  }
}
