package org.pyflink_table.bridge.udf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.api.python.SimplePythonFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.python.UserDefinedPythonFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.expressions.Scope;
import org.pyflink_table.bridge.expressions.UserFunction;

/**
 * A Python aggregate or table aggregate function as Spark evaluates it.
 *
 * <p>Where the bridge plans the aggregation (group_by, global aggregation, tumbling and sliding
 * windows, row-based aggregate and flat_aggregate), every kind runs in {@link PackedAggregation}
 * from {@link #packedEvaluator()}. Where Spark plans it (SQL, over windows, session windows), the
 * Spark UDF below is used: scalar-result aggregates are Spark grouped-aggregate pandas UDFs: the call is the aggregate
 * itself, valid in {@code agg()}, with windows and over windows. ROW-result aggregates and table
 * aggregates are {@code collected}: a row-at-a-time Python UDF over {@code collect_list(struct(args))},
 * which is an ordinary expression over a built-in aggregate (Spark's grouped-aggregate UDFs cannot
 * return structs or arrays of structs).
 */
public final class PythonAggregateFunction implements UserFunction {
  private final String name;
  private final UserDefinedPythonFunction function;
  private final boolean collected;
  private final boolean tableAggregate;
  private final List<String> fieldNames;
  private final byte[] packedEvaluator;
  private final DataType resultSparkType;

  public PythonAggregateFunction(String name, UserDefinedPythonFunction function, boolean collected,
      boolean tableAggregate, String[] fieldNames, byte[] packedEvaluator, String resultSparkJson) {
    this.name = name;
    this.function = function;
    this.collected = collected;
    this.tableAggregate = tableAggregate;
    this.fieldNames = Arrays.asList(fieldNames);
    this.packedEvaluator = packedEvaluator;
    this.resultSparkType = DataType.fromJson(resultSparkJson);
  }

  /** The pickled worker-side evaluator that {@link PackedAggregation} runs. */
  byte[] packedEvaluator() {
    return packedEvaluator;
  }

  /** The Spark type of one result (of one emitted row, a struct, for table aggregates). */
  DataType resultSparkType() {
    return resultSparkType;
  }

  /** The Python environment (interpreter, includes, accumulator) the function was registered with. */
  SimplePythonFunction pythonFunction() {
    return (SimplePythonFunction) function.func();
  }

  boolean deterministic() {
    return function.udfDeterministic();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean isAggregate() {
    return true;
  }

  public boolean isTableAggregate() {
    return tableAggregate;
  }

  /** True when the Spark column is a grouped-aggregate pandas UDF (which cannot share an agg with built-ins). */
  public boolean isGroupedUdf() {
    return !collected;
  }

  /** Names of the result fields: the ROW type's, or f0 for a scalar result. */
  public List<String> fieldNames() {
    return fieldNames;
  }

  @Override
  public Column apply(List<Column> args, Scope scope) {
    if (tableAggregate) {
      throw new ValidationException("Table aggregate function " + name
          + " can only be used in flat_aggregate, not in select.");
    }
    return applyAny(args);
  }

  /** The aggregate column; for table aggregates an array of the emitted rows per group. */
  public Column applyAny(List<Column> args) {
    if (!collected) {
      return function.apply(ScalaInterop.seq(args));
    }
    if (args.isEmpty()) {
      throw new ValidationException("Aggregate function " + name + " needs at least one argument.");
    }
    List<Column> fields = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) fields.add(args.get(i).as("_" + i));
    Column rows = functions.collect_list(functions.struct(fields.toArray(new Column[0])));
    return function.apply(ScalaInterop.seq(List.of(rows)));
  }

  /** Makes the function callable by name in the SQL of {@code session}. */
  public void registerForSql(SparkSession session, String sqlName) {
    if (collected) {
      // Only grouped-aggregate UDFs can be registered in Spark SQL as aggregates; SQL calls of
      // the others fail there with Spark's unknown-function error.
      return;
    }
    ((org.apache.spark.sql.classic.UDFRegistration) session.udf()).registerPython(sqlName, function);
  }

}
