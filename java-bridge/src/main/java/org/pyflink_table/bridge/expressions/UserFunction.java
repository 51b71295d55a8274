package org.pyflink_table.bridge.expressions;

import java.util.List;
import org.apache.spark.sql.Column;

/** A function registered in a table environment (a Python UDF, UDTF or UDAF). */
public interface UserFunction {
  /** The name it was registered under, or the function's own name. */
  String name();

  /** True for aggregate functions, which make a select an aggregation. */
  default boolean isAggregate() {
    return false;
  }

  /** True for table functions, which are only valid in lateral joins and flat_map. */
  default boolean isTableFunction() {
    return false;
  }

  /** The Spark column computing this function over compiled argument columns. */
  Column apply(List<Column> args, Scope scope);
}
