package org.pyflink_table.bridge.udf;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.python.SimplePythonFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.python.UserDefinedPythonFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.protocol.Protocol;

/**
 * Python aggregate functions evaluated over key-sorted Arrow batches that each carry many groups.
 *
 * <p>The rows are hash-partitioned by the keys and sorted by them within each partition, then
 * streamed through Spark's {@code mapInArrow} into {@code pyflink_table._worker.packed_aggregation},
 * which finds the group boundaries inside each batch. Spark's own grouped-aggregate UDFs send every
 * group as its own Arrow stream message and call back per group; packing many groups per batch
 * makes a tiny group cost a slice instead, and a group larger than a batch is read in chunks. All
 * functions of one select share one pass, and any result type works, including ROW results and the
 * rows a table aggregate emits.
 */
public final class PackedAggregation {
  private PackedAggregation() {}

  /**
   * Whether scalar-result aggregates over {@code df} take this path (the default) rather than
   * Spark's grouped-aggregate UDFs; ROW-result and table aggregates always do.
   */
  public static boolean enabled(Dataset<Row> df) {
    return !"false".equalsIgnoreCase(df.sparkSession().conf().get(Protocol.CONF_AGGREGATE_PACKING, "true").trim());
  }

  /**
   * Groups {@code df} by {@code keyCols} and evaluates each function over its group's rows.
   *
   * @param keyCols the grouping columns; none for one group of all rows (which, as in PyFlink,
   *     gives no row when the input is empty)
   * @param keyNames output names of the keys (their metadata is kept)
   * @param calls the functions, in output order
   * @param args each function's argument columns
   * @param resultNames output names of the functions' results
   * @return the keys, then one column per function; for a table aggregate (then the only
   *     function) one row per emitted row, its result a struct
   */
  public static Dataset<Row> aggregate(Dataset<Row> df, List<Column> keyCols, List<String> keyNames,
      List<PythonAggregateFunction> calls, List<List<Column>> args, List<String> resultNames) {
    int keyCount = keyCols.size();
    List<Column> projected = new ArrayList<>();
    for (int i = 0; i < keyCount; i++) projected.add(keyCols.get(i).as("k" + i));
    List<List<Integer>> arguments = new ArrayList<>();
    int column = keyCount;
    for (int j = 0; j < calls.size(); j++) {
      List<Integer> columns = new ArrayList<>();
      List<Column> a = args.get(j);
      for (int m = 0; m < a.size(); m++) {
        projected.add(a.get(m).as("a" + j + "_" + m));
        columns.add(column++);
      }
      arguments.add(columns);
    }
    Dataset<Row> input = withNormalizedKeys(df.select(projected.toArray(new Column[0])), keyCount);
    StructType inputSchema = input.schema();
    if (keyCount > 0) {
      Column[] keys = new Column[keyCount];
      for (int i = 0; i < keyCount; i++) keys[i] = input.col("k" + i);
      input = input.repartition(keys).sortWithinPartitions(keys);
    } else {
      input = input.repartition(1);
    }

    String layout = PythonCommand.json(Map.of(Protocol.LAYOUT_KEYS, keyCount, Protocol.LAYOUT_ARGUMENTS, arguments));
    Object[] commandArgs = new Object[calls.size() + 1];
    commandArgs[0] = layout;
    for (int j = 0; j < calls.size(); j++) commandArgs[j + 1] = calls.get(j).packedEvaluator();
    SimplePythonFunction template = calls.get(0).pythonFunction();
    SimplePythonFunction runner = new SimplePythonFunction(
        PythonCommand.call(Protocol.PACKED_AGGREGATION_MODULE, Protocol.PACKED_AGGREGATION_FUNCTION, commandArgs), template.envVars(),
        template.pythonIncludes(), template.pythonExec(), template.pythonVer(), template.broadcastVars(),
        template.accumulator());

    StructType output = new StructType();
    for (int i = 0; i < keyCount; i++) output = output.add("k" + i, inputSchema.fields()[i].dataType(), true);
    for (int j = 0; j < calls.size(); j++) output = output.add("r" + j, calls.get(j).resultSparkType(), true);
    boolean deterministic = true;
    for (PythonAggregateFunction f : calls) deterministic &= f.deterministic();
    UserDefinedPythonFunction udf = new UserDefinedPythonFunction(Protocol.PACKED_AGGREGATION_FUNCTION, runner, output,
        Protocol.EVAL_MAP_ARROW_ITER_UDF, deterministic, List.of(), List.of());
    List<Column> all = new ArrayList<>();
    for (String c : input.columns()) all.add(input.col(c));
    Dataset<Row> evaluated = ((org.apache.spark.sql.classic.Dataset<Row>) input)
        .mapInArrow(udf.apply(ScalaInterop.seq(all)), false, null);

    List<Column> out = new ArrayList<>();
    for (int i = 0; i < keyCount; i++) {
      Metadata md = inputSchema.fields()[i].metadata();
      out.add(evaluated.col("k" + i).as(keyNames.get(i), md));
    }
    for (int j = 0; j < calls.size(); j++) out.add(evaluated.col("r" + j).as(resultNames.get(j)));
    return evaluated.select(out.toArray(new Column[0]));
  }

  /**
   * FLOAT/DOUBLE keys with every NaN made one NaN and -0.0 made 0.0, so that hash partitioning
   * and sorting put the rows of one group (as grouping compares them) next to each other.
   */
  private static Dataset<Row> withNormalizedKeys(Dataset<Row> input, int keyCount) {
    StructField[] fields = input.schema().fields();
    boolean any = false;
    List<Column> cols = new ArrayList<>();
    for (int i = 0; i < fields.length; i++) {
      Column c = input.col(fields[i].name());
      DataType t = fields[i].dataType();
      if (i < keyCount && (t instanceof FloatType || t instanceof DoubleType)) {
        Column zero = functions.lit(0.0).cast(t);
        c = functions.when(functions.isnan(c), functions.lit(Double.NaN).cast(t))
            .when(c.equalTo(zero), zero).otherwise(c).as(fields[i].name(), fields[i].metadata());
        any = true;
      }
      cols.add(c);
    }
    return any ? input.select(cols.toArray(new Column[0])) : input;
  }
}
