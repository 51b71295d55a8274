package org.pyflink_table.bridge.connectors;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pyflink_table.bridge.expressions.Expr;

/**
 * A table declared by DDL, a TableDescriptor or a FLIP-38 descriptor: its columns, partition keys
 * and connector options. It holds no data; {@link Connectors} turns it into a Spark Dataset (to
 * read) or writes a Dataset through it.
 */
public final class TableDefinition {
  /**
   * One column: physical (type set, expression and metadata key null), computed (expression set)
   * or metadata (type and metadata key set: a value the connector supplies, read only if virtual).
   *
   * @param type Flink type string (with NOT NULL when declared); null for computed columns
   * @param expression Flink SQL expression of a computed column; null for physical columns
   * @param declaredKey the metadata key as declared (null: the column's name is the key)
   */
  public record Column(String name, String type, String expression, boolean isMetadata, String declaredKey,
      boolean virtual) {
    public Column(String name, String type, String expression) {
      this(name, type, expression, false, null, false);
    }

    public boolean isComputed() {
      return expression != null;
    }

    /** The connector's metadata key of a metadata column. */
    public String metadataKey() {
      return declaredKey != null ? declaredKey : name;
    }
  }

  public final List<Column> columns = new ArrayList<>();
  public final List<String> partitionKeys = new ArrayList<>();
  public final List<String> primaryKey = new ArrayList<>();
  public final Map<String, String> options = new LinkedHashMap<>();
  /** Watermark declarations are accepted and ignored: batch jobs see all rows at once. */
  public String watermark;
  /** Computed columns given as Table API expressions (TableDescriptor), by column name. */
  public final Map<String, Expr> expressionColumns = new LinkedHashMap<>();
  public String comment;

  public TableDefinition() {}

  /** Builder entry used by Python descriptors. */
  public static TableDefinition of(String[] names, String[] types, String[] expressions,
      String[] partitionKeys, String[] primaryKey, String[] optionKeys, String[] optionValues) {
    TableDefinition d = new TableDefinition();
    for (int i = 0; i < names.length; i++) {
      String expr = expressions[i];
      d.columns.add(new Column(names[i], expr == null ? types[i] : null, expr));
    }
    for (String p : partitionKeys) d.partitionKeys.add(p);
    for (String p : primaryKey) d.primaryKey.add(p);
    for (int i = 0; i < optionKeys.length; i++) d.options.put(optionKeys[i], optionValues[i]);
    return d;
  }

  /** Adds (or fills in) a computed column given as a Table API expression. */
  public TableDefinition addExpressionColumn(String name, Expr e) {
    Column computed = new Column(name, null, e.toString());
    int at = columnNames().indexOf(name);
    if (at >= 0) {
      columns.set(at, computed); // keeps the declared position
    } else {
      columns.add(computed);
    }
    expressionColumns.put(name, e);
    return this;
  }

  /** Makes a declared column a metadata column ({@code key} null: the column's name is the key). */
  public TableDefinition markMetadata(String name, String key, boolean virtual) {
    int at = columnNames().indexOf(name);
    Column c = columns.get(at);
    columns.set(at, new Column(name, c.type(), null, true, key, virtual));
    return this;
  }

  public List<Column> physicalColumns() {
    List<Column> out = new ArrayList<>();
    for (Column c : columns) if (!c.isComputed() && !c.isMetadata()) out.add(c);
    return out;
  }

  public List<Column> metadataColumns() {
    List<Column> out = new ArrayList<>();
    for (Column c : columns) if (c.isMetadata()) out.add(c);
    return out;
  }

  public String connector() {
    return options.get("connector");
  }

  public String option(String key, String fallback) {
    String v = options.get(key);
    return v == null ? fallback : v;
  }

  public boolean flag(String key) {
    return Boolean.parseBoolean(option(key, "false").strip());
  }

  public Column column(String name) {
    for (Column c : columns) if (c.name.equals(name)) return c;
    return null;
  }

  public List<String> columnNames() {
    List<String> out = new ArrayList<>();
    for (Column c : columns) out.add(c.name);
    return out;
  }
}
