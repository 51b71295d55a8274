package org.pyflink_table.bridge.table;

import org.apache.spark.sql.SparkSession;
import org.pyflink_table.bridge.expressions.FunctionCatalog;

/**
 * What a table needs of the environment it belongs to: its Spark session, its function catalog and
 * its mode. The session layer's {@code TableEnv} is the one implementation; tables, windows and
 * streaming code see only this, so they do not depend on the layer above them.
 */
public abstract class TableContext {
  public final SparkSession spark;
  public final FunctionCatalog functions = new FunctionCatalog();

  protected TableContext(SparkSession spark) {
    this.spark = spark;
  }

  /** Whether the environment runs in streaming mode. */
  public abstract boolean isStreaming();
}
