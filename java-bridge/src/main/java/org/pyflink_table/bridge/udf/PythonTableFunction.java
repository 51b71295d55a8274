package org.pyflink_table.bridge.udf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.python.UserDefinedPythonTableFunction;
import org.apache.spark.sql.internal.TableValuedFunctionArgument;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.expressions.Scope;

/**
 * A Python table function as Spark runs it: an Arrow Python UDTF. It comes in two variants built
 * by the Python wrapper: {@code inner} yields the function's rows, {@code outer} additionally
 * yields one all-NULL row for an input that produced none (Spark 4.3's left lateral join drops
 * such rows, so left-outer semantics are produced by the function and joined with an inner join).
 */
public final class PythonTableFunction extends PythonFunction {
  private final UserDefinedPythonTableFunction inner;
  private final UserDefinedPythonTableFunction outer;
  private final List<String> fieldNames;

  public PythonTableFunction(String name, UserDefinedPythonTableFunction inner,
      UserDefinedPythonTableFunction outer, String[] fieldNames) {
    super(name);
    this.inner = inner;
    this.outer = outer;
    this.fieldNames = Arrays.asList(fieldNames);
  }

  @Override
  public boolean isTableFunction() {
    return true;
  }

  /** Flink's default names of the output fields (f0, f1, ... or the ROW type's names). */
  public List<String> fieldNames() {
    return fieldNames;
  }

  @Override
  public Column apply(List<Column> args, Scope scope) {
    throw new ValidationException("Table function " + name
        + " can only be used in join_lateral, left_outer_join_lateral or flat_map, not as a scalar expression.");
  }

  /**
   * The function's rows as a Dataset correlated with an outer query: {@code args} reference the
   * outer side (wrapped in {@code outer()} by the caller).
   */
  public Dataset<Row> rows(SparkSession session, List<Column> args, boolean leftOuter) {
    List<TableValuedFunctionArgument> tvfArgs = new ArrayList<>(args);
    return (leftOuter ? outer : inner).apply((org.apache.spark.sql.classic.SparkSession) session, ScalaInterop.seq(tvfArgs));
  }

  /** Makes the function callable in the SQL of {@code session}: {@code LATERAL TABLE(name(x))}. */
  public void registerForSql(SparkSession session, String sqlName) {
    ((org.apache.spark.sql.classic.SparkSession) session).udtf().registerPython(sqlName, inner);
  }
}
