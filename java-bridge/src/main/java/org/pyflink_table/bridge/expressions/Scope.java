package org.pyflink_table.bridge.expressions;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.WindowSpec;
import org.apache.spark.sql.types.DataType;
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

  public Scope(Dataset<Row> input, FunctionCatalog functions) {
    this.input = input;
    this.functions = functions;
  }

  public List<String> fieldNames() {
    return Arrays.asList(input.columns());
  }

  public boolean hasField(String name) {
    for (String c : input.columns()) {
      if (c.equals(name)) {
        return true;
      }
    }
    return false;
  }

  /** A reference to an input field; unknown names fail with Flink's message and the field list. */
  public Column field(String name) {
    if (!hasField(name)) {
      throw new ValidationException(
          "Cannot resolve field [" + name + "], input field list:[" + String.join(", ", input.columns()) + "].");
    }
    return org.apache.spark.sql.functions.col(quote(name));
  }

  public static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }

  /** The Spark type of a compiled column, resolved against the input (cheap: analysis only). */
  public DataType typeOf(Column c) {
    return input.select(c).schema().fields()[0].dataType();
  }
}
