package org.pyflink_table.bridge.table;

import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
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

  /** See {@link #useWorkerTemplate}. */
  private Object workerTemplate;

  protected TableContext(SparkSession spark) {
    this.spark = spark;
  }

  /**
   * Keeps {@code template}, a Spark {@code UserDefinedPythonFunction} of the session that the driver
   * hands over before planning a streaming query: stateful Python operators without a Python
   * function of their own (built-in aggregates only) run in its interpreter with its shipped files.
   */
  public void useWorkerTemplate(Object template) {
    this.workerTemplate = template;
  }

  /** The template given to {@link #useWorkerTemplate}, or null. */
  public Object workerTemplate() {
    return workerTemplate;
  }

  /** Whether the environment runs in streaming mode. */
  public abstract boolean isStreaming();

  /**
   * {@code windowed}'s rows (a bounded stream's, grouped by {@code grouping} and a group window)
   * without those late for their window, for aggregations that the streaming layer's rewrite of a
   * job cannot reach; implemented above, where the streaming layer is.
   */
  public abstract Dataset<Row> boundedOnTimeRows(Dataset<Row> windowed, List<Column> grouping);
}
