package org.pyflink_table.bridge.expressions;

import static org.apache.spark.sql.functions.col;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.WindowSpec;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.pyflink_table.bridge.errors.ValidationException;

/**
 * What an expression is compiled against: the input table, the environment's functions, and the
 * window aliases a windowed operation defines. Field names are matched case-sensitively, as Flink
 * does.
 */
public final class Scope {
  public final Dataset<Row> input;
  public final FunctionCatalog functions;
  /** Over-window alias to its Spark window spec. */
  public final Map<String, WindowSpec> overWindows = new HashMap<>();
  /** Over-window alias to its spec without frame, for ranking and offset functions (Spark requires). */
  public final Map<String, WindowSpec> overWindowOrders = new HashMap<>();
  /** Group-window alias to the Spark columns of its properties (start, end, rowtime, proctime). */
  public final Map<String, Map<String, Column>> windowProperties = new HashMap<>();

  /**
   * Types of columns compiled in this scope, keyed by the column (Spark compares columns by their
   * normalised expression tree), so that planning a wide select runs no Spark analysis per field
   * reference or repeated sub-expression.
   */
  private final Map<Column, DataType> types = new HashMap<>();
  /** The input's field names, and the type of each (the input's schema is fixed). */
  private String[] columns;
  private Map<String, DataType> fieldTypes;

  public Scope(Dataset<Row> input, FunctionCatalog functions) {
    this.input = input;
    this.functions = functions;
  }

  private Map<String, DataType> fieldTypes() {
    if (fieldTypes == null) {
      StructField[] fields = input.schema().fields();
      columns = new String[fields.length];
      Map<String, DataType> byName = new HashMap<>();
      for (int i = 0; i < fields.length; i++) {
        columns[i] = fields[i].name();
        // duplicate names (possible after joins) resolve by analysis, which reports the ambiguity
        byName.put(columns[i], byName.containsKey(columns[i]) ? null : fields[i].dataType());
      }
      fieldTypes = byName;
    }
    return fieldTypes;
  }

  public List<String> fieldNames() {
    fieldTypes();
    return Arrays.asList(columns);
  }

  public boolean hasField(String name) {
    return fieldTypes().containsKey(name);
  }

  /** A reference to an input field; unknown names fail with Flink's message and the field list. */
  public Column field(String name) {
    if (!hasField(name)) {
      throw new ValidationException(
          "Cannot resolve field [" + name + "], input field list:[" + String.join(", ", fieldNames()) + "].");
    }
    Column c = col(quote(name));
    DataType t = fieldTypes.get(name);
    if (t != null) {
      types.put(c, t);
    }
    return c;
  }

  public static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }

  /** The Spark type of a compiled column, resolved against the input once per distinct column. */
  public DataType typeOf(Column c) {
    DataType t = types.get(c);
    if (t == null) {
      t = input.select(c).schema().fields()[0].dataType();
      types.put(c, t);
    }
    return t;
  }
}
