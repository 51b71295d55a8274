package org.pyflink_table.bridge.udf;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.classic.UDFRegistration;
import org.apache.spark.sql.execution.python.UserDefinedPythonFunction;
import org.apache.spark.sql.types.DataType;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.expressions.Scope;
import org.pyflink_table.bridge.types.FlinkTypes;

/**
 * A Python scalar function (general or pandas) as Spark evaluates it: a call of the PySpark-built
 * {@link UserDefinedPythonFunction} (a scalar Arrow UDF), which the planner turns into an
 * ArrowEvalPython step shared by all Python calls of a projection or filter.
 */
public final class PythonScalarFunction extends PythonFunction {
  private final UserDefinedPythonFunction function;
  private final UserDefinedPythonFunction perRow;
  private final boolean pandas;
  private final DataType declared;
  /** FLIP-58 input types, when declared: arguments are cast to them. */
  private DataType[] inputTypes;

  /**
   * @param declaredType the declared result type as a Flink type string; the Python side may
   *     produce a wider type (TIME(6) for TIME(0)), which is cast back to it
   */
  public PythonScalarFunction(String name, UserDefinedPythonFunction function,
      UserDefinedPythonFunction perRow, boolean pandas, String declaredType) {
    super(name);
    this.function = function;
    this.perRow = perRow;
    this.pandas = pandas;
    this.declared = FlinkTypes.toSpark(declaredType);
    ScalarProjections.register(function.func());
  }

  public boolean isPandas() {
    return pandas;
  }

  /** The Spark function, for registering it in SQL under a name. */
  public UserDefinedPythonFunction sparkFunction() {
    return function;
  }

  /** Declares the argument types (Flink type strings, one per argument). */
  public void setInputTypes(String[] flinkTypes) {
    inputTypes = new DataType[flinkTypes.length];
    for (int i = 0; i < flinkTypes.length; i++) {
      inputTypes[i] = FlinkTypes.toSpark(flinkTypes[i]);
    }
  }

  @Override
  public Column apply(List<Column> args, Scope scope) {
    if (inputTypes != null) {
      if (inputTypes.length != args.size()) {
        throw new ValidationException("Python function '" + name + "' declares " + inputTypes.length
            + " input types but is called with " + args.size() + " arguments.");
      }
      List<Column> cast = new ArrayList<>();
      for (int i = 0; i < inputTypes.length; i++) {
        cast.add(args.get(i).cast(inputTypes[i]));
      }
      args = cast;
    }
    // A call without arguments gets no Arrow batch length: it runs per row instead.
    Column result = (args.isEmpty() ? perRow : function).apply(ScalaInterop.seq(args));
    // TIME(p < 6) comes back as TIME(6): Spark cannot cast TIME values, so the wider type stays.
    return function.dataType().sameType(declared) || mentionsTime(declared) ? result : result.cast(declared);
  }

  private static boolean mentionsTime(DataType t) {
    return t.json().contains("time(");
  }

  /** Makes the function callable by name in the SQL of {@code session}. */
  public void registerForSql(SparkSession session, String sqlName) {
    ((UDFRegistration) session.udf()).registerPython(sqlName, function);
  }
}
