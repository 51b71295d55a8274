package org.pyflink_table.bridge.connectors;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.types.FlinkTypes;

/**
 * {@code SHOW CREATE TABLE}'s text of a table declared by DDL or a descriptor, laid out as Flink
 * 2.3 prints it: types in their serializable form ({@code VARCHAR(2147483647)} for STRING), the
 * primary key's columns NOT NULL, the options sorted by key.
 */
public final class TableDdl {
  private TableDdl() {}

  /** Flink's summary type names and their serializable spelling (outside back-quoted names). */
  private static final Pattern SUMMARY = Pattern.compile("`(?:[^`]|``)*`|\\bSTRING\\b|\\bBYTES\\b|\\bTIMESTAMP_LTZ\\((\\d+)\\)");

  /**
   * The statement that creates {@code def} as {@code identifier} (catalog, database and name,
   * back-quoted). Computed columns and watermarks are refused: Flink prints their expressions as
   * its planner rewrote them, which this version does not reproduce.
   */
  public static String of(String identifier, TableDefinition def, boolean temporary) {
    List<String> items = new ArrayList<>();
    for (TableDefinition.Column c : def.columns) {
      if (c.isComputed()) {
        throw refused(identifier, "the computed column `" + c.name() + "`");
      }
      String type = serializable(FlinkTypes.parseSql(c.type()).fullFlinkType());
      if (def.primaryKey.contains(c.name()) && !type.endsWith(" NOT NULL")) type += " NOT NULL";
      String item = "  " + quote(c.name()) + " " + type;
      if (c.isMetadata()) {
        item += " METADATA" + (c.declaredKey() != null ? " FROM '" + c.declaredKey().replace("'", "''") + "'" : "")
            + (c.virtual() ? " VIRTUAL" : "");
      }
      items.add(item);
    }
    if (def.watermark != null) throw refused(identifier, "a WATERMARK");
    if (!def.primaryKey.isEmpty()) {
      List<String> keys = new ArrayList<>();
      for (String k : def.primaryKey) keys.add(quote(k));
      items.add("  CONSTRAINT " + quote("PK_" + String.join("_", def.primaryKey)) + " PRIMARY KEY ("
          + String.join(", ", keys) + ") NOT ENFORCED");
    }
    StringBuilder out = new StringBuilder("CREATE ").append(temporary ? "TEMPORARY " : "").append("TABLE ")
        .append(identifier).append(" (\n").append(String.join(",\n", items)).append("\n)\n");
    if (def.comment != null) out.append("COMMENT '").append(def.comment.replace("'", "''")).append("'\n");
    if (!def.partitionKeys.isEmpty()) {
      List<String> keys = new ArrayList<>();
      for (String k : def.partitionKeys) keys.add(quote(k));
      out.append("PARTITIONED BY (").append(String.join(", ", keys)).append(")\n");
    }
    List<String> options = new ArrayList<>();
    for (var o : new TreeMap<>(def.options).entrySet()) {
      options.add("  '" + o.getKey().replace("'", "''") + "' = '" + o.getValue().replace("'", "''") + "'");
    }
    return out.append("WITH (\n").append(String.join(",\n", options)).append("\n)\n").toString();
  }

  /** Flink's serializable form of a type string in its summary form. */
  static String serializable(String type) {
    Matcher m = SUMMARY.matcher(type);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String found = m.group();
      String replacement = found.startsWith("`") ? found
          : found.equals("STRING") ? "VARCHAR(2147483647)"
          : found.equals("BYTES") ? "VARBINARY(2147483647)"
          : "TIMESTAMP(" + m.group(1) + ") WITH LOCAL TIME ZONE";
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }

  private static TableException refused(String identifier, String what) {
    return TableException.unsupported("SHOW CREATE TABLE of a table with " + what + " (" + identifier + ")");
  }
}
