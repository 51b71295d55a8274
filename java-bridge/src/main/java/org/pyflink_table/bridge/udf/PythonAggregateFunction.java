package org.pyflink_table.bridge.udf;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import org.apache.spark.api.python.SimplePythonFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.PythonFuncExpression;
import org.apache.spark.sql.catalyst.expressions.PythonUDAF;
import org.apache.spark.sql.catalyst.expressions.PythonUDF;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.classic.UDFRegistration;
import org.apache.spark.sql.execution.python.UserDefinedPythonFunction;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.expressions.Scope;
import org.pyflink_table.bridge.protocol.Protocol;

/**
 * A Python aggregate or table aggregate function as Spark evaluates it.
 *
 * <p>Where the bridge plans the aggregation (group_by, global aggregation, group windows,
 * row-based aggregate and flat_aggregate), every kind runs in {@link PackedAggregation} from
 * {@link #packedEvaluator()}. Where Spark plans it (over windows, SQL), a scalar-result aggregate is
 * a Spark grouped-aggregate pandas UDF ({@link #apply}). ROW-result and table aggregates
 * ({@code packedOnly}) have no such form, since Spark's grouped-aggregate UDFs cannot return
 * structs; their Spark UDF only carries the Python environment for the packed runner.
 */
public final class PythonAggregateFunction extends PythonFunction {
  private final UserDefinedPythonFunction function;
  private final boolean packedOnly;
  private final boolean tableAggregate;
  private final byte[] packedEvaluator;
  private final DataType resultSparkType;
  private final boolean pandas;

  public PythonAggregateFunction(String name, UserDefinedPythonFunction function, boolean packedOnly,
      boolean tableAggregate, byte[] packedEvaluator, String resultType) {
    this(name, function, packedOnly, tableAggregate, packedEvaluator, resultType, false);
  }

  /**
   * @param resultType the declared result type (of one emitted row, for table aggregates) as a Flink
   *     type string
   * @param pandas whether the function takes pandas Series (FLIP-137) rather than one row at a time
   */
  public PythonAggregateFunction(String name, UserDefinedPythonFunction function, boolean packedOnly,
      boolean tableAggregate, byte[] packedEvaluator, String resultType, boolean pandas) {
    super(name);
    this.pandas = pandas;
    this.function = function;
    this.packedOnly = packedOnly;
    this.tableAggregate = tableAggregate;
    this.packedEvaluator = packedEvaluator;
    DataType result = workerType(resultType);
    // A table aggregate emits rows: a result that is not a ROW is the one field f0 of a row.
    this.resultSparkType = tableAggregate && !(result instanceof StructType)
        ? new StructType().add("f0", result, true) : result;
    EVALUATOR_BY_SPARK_FUNCTION.put(function.func(), packedEvaluator);
    if (pandas) PANDAS_SPARK_FUNCTIONS.add(function.func());
  }

  /**
   * Each function's pickled evaluator by the Python function of its Spark UDF, which SQL plans carry
   * (PythonUDAF.func). Weak keys, and values that do not refer back to them (the evaluator's bytes,
   * not this object, whose Spark UDF holds the key): an entry goes once no plan or registration
   * holds the Spark function.
   */
  private static final Map<Object, byte[]> EVALUATOR_BY_SPARK_FUNCTION =
      Collections.synchronizedMap(new WeakHashMap<>());

  /** The Python functions of pandas aggregate functions' Spark UDFs (weak, as the map above). */
  private static final Set<Object> PANDAS_SPARK_FUNCTIONS = Collections.newSetFromMap(
      Collections.synchronizedMap(new WeakHashMap<>()));

  /**
   * Whether {@code call} calls a pandas aggregate function (FLIP-137), in any form Spark gives the
   * call: a PythonUDF of the grouped-aggregate pandas eval type, or a PythonUDAF of one of ours,
   * bare or in an AggregateExpression. Its {@link PythonFuncExpression#name()} is then the function's.
   */
  public static boolean isPandas(Expression call) {
    Expression f = call instanceof AggregateExpression ae ? ae.aggregateFunction() : call;
    if (f instanceof PythonUDF udf) return udf.evalType() == Protocol.EVAL_GROUPED_AGG_PANDAS_UDF;
    return f instanceof PythonUDAF udaf && PANDAS_SPARK_FUNCTIONS.contains(udaf.func());
  }

  /** The Python function expression {@code call} is or wraps (an AggregateExpression's function). */
  public static PythonFuncExpression pythonCall(Expression call) {
    return (PythonFuncExpression) (call instanceof AggregateExpression ae ? ae.aggregateFunction() : call);
  }

  /** PyFlink's refusal of the pandas aggregate function {@code name} in a streaming aggregation without a window. */
  public static TableException pandasWithoutWindowRefused(String name) {
    return new TableException("Cannot generate a valid execution plan for the given query: the pandas aggregate "
        + "function " + name + " in a group_by without a window is not supported in streaming mode (FLIP-137, "
        + "as PyFlink); use it in a group window or an over window, or in batch mode.");
  }

  /**
   * The pickled worker-side evaluator and the Python environment of the function whose Spark UDF
   * runs {@code sparkFunction} (a PythonUDAF's func), for operators outside this package; null for
   * a function that is not one of ours.
   */
  public static Object[] evaluatorAndEnvironment(Object sparkFunction) {
    byte[] evaluator = EVALUATOR_BY_SPARK_FUNCTION.get(sparkFunction);
    return evaluator == null ? null : new Object[] {evaluator, sparkFunction};
  }

  /** This function's pickled worker-side evaluator and Python environment, for operators outside this package. */
  public Object[] evaluatorAndEnvironment() {
    return new Object[] {packedEvaluator, pythonFunction()};
  }

  /** How many Spark functions the lookup of {@link #evaluatorAndEnvironment(Object)} knows (for tests). */
  static int known() {
    return EVALUATOR_BY_SPARK_FUNCTION.size();
  }

  private PythonAggregateFunction(PythonAggregateFunction of, UserDefinedPythonFunction function, byte[] packedEvaluator) {
    super(of.name);
    this.pandas = of.pandas;
    this.function = function;
    this.packedOnly = of.packedOnly;
    this.tableAggregate = of.tableAggregate;
    this.packedEvaluator = packedEvaluator;
    this.resultSparkType = of.resultSparkType;
  }

  /**
   * This function called with DISTINCT arguments and/or a FILTER: only the rows whose filter is true
   * (with {@code filtered}, its value is one more argument column after the function's own, true
   * or false, never NULL) and of those the first of each distinct argument tuple reach the function
   * (see {@code pyflink_table._worker.aggregate_selection}). Spark's Python aggregates take neither.
   */
  public PythonAggregateFunction selecting(boolean distinct, boolean filtered) {
    if (!distinct && !filtered) return this;
    String layout = PythonCommand.json(Map.of(Protocol.SELECTION_DISTINCT, distinct, Protocol.SELECTION_FILTERED, filtered));
    byte[] evaluator = PythonCommand.command(Protocol.AGGREGATE_SELECTION_MODULE, Protocol.AGGREGATE_SELECTION_EVALUATOR,
        packedEvaluator, layout);
    SimplePythonFunction own = pythonFunction();
    scala.collection.Seq<Object> commandBytes = own.command();
    byte[] command = new byte[commandBytes.size()];
    for (int i = 0; i < command.length; i++) command[i] = (Byte) commandBytes.apply(i);
    SimplePythonFunction selected = new SimplePythonFunction(PythonCommand.command(Protocol.AGGREGATE_SELECTION_MODULE,
        Protocol.AGGREGATE_SELECTION_COMMAND, command, layout), own.envVars(), own.pythonIncludes(), own.pythonExec(),
        own.pythonVer(), own.broadcastVars(), own.accumulator());
    UserDefinedPythonFunction udf = new UserDefinedPythonFunction(function.name(), selected, function.dataType(),
        function.pythonEvalType(), function.udfDeterministic(), List.of(), List.of());
    return new PythonAggregateFunction(this, udf, evaluator);
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
  public boolean isAggregate() {
    return true;
  }

  /** True for ROW-result and table aggregates, which have no Spark grouped-aggregate form. */
  public boolean isPackedOnly() {
    return packedOnly;
  }

  /** Whether the function is a pandas UDAF (FLIP-137). */
  public boolean isPandas() {
    return pandas;
  }

  public boolean isTableAggregate() {
    return tableAggregate;
  }

  @Override
  public Column apply(List<Column> args, Scope scope) {
    if (tableAggregate) {
      throw new ValidationException("Table aggregate function " + name
          + " can only be used in flat_aggregate, not in select.");
    }
    if (packedOnly) {
      // Spark's grouped-aggregate UDFs cannot return structs; the packed path (group_by, windows,
      // aggregate) is the only one for ROW results.
      throw TableException.unsupported("the Python aggregate function " + name
          + " with a ROW result in an over window or in SQL; use it in group_by/window selects or aggregate()");
    }
    return function.apply(ScalaInterop.seq(args));
  }

  /** Whether Spark's call of {@code pythonFunction} (a SQL call's {@code PythonUDAF.func()}) runs this function. */
  public boolean runs(Object pythonFunction) {
    return function.func() == pythonFunction;
  }

  /** Makes the function callable by name in the SQL of {@code session}. */
  public void registerForSql(SparkSession session, String sqlName) {
    if (packedOnly) {
      // Only grouped-aggregate UDFs can be registered in Spark SQL as aggregates; SQL calls of
      // the others fail there with Spark's unknown-function error.
      return;
    }
    ((UDFRegistration) session.udf()).registerPython(sqlName, function);
  }

}
