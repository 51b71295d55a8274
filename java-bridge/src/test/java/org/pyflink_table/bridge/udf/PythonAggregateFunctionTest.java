package org.pyflink_table.bridge.udf;

import java.lang.ref.Reference;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.python.PythonFunction;
import org.apache.spark.api.python.SimplePythonFunction;
import org.apache.spark.sql.execution.python.UserDefinedPythonFunction;
import org.apache.spark.sql.types.DataTypes;
import org.pyflink_table.bridge.Checks;

/**
 * Self-checking test of {@link PythonAggregateFunction}'s lookup from a Spark function to its
 * evaluator: a function nothing holds any more leaves it (the lookup's values once held their weak
 * keys, so no registered aggregate function was ever collected), one still held stays found.
 */
public final class PythonAggregateFunctionTest {
  private static final Checks CHECKS = new Checks("PythonAggregateFunctionTest");

  /** A function as Python registers one (the command's bytes stand for the pickled Python function). */
  private static PythonAggregateFunction function(String name, byte command, byte evaluator) {
    PythonFunction func = new SimplePythonFunction(new byte[] {command}, Map.of(), List.of(), "python3", "3.11",
        List.of(), null);
    UserDefinedPythonFunction udf = new UserDefinedPythonFunction(name, func, DataTypes.LongType, 200, true,
        List.of(), List.of());
    return new PythonAggregateFunction(name, udf, false, false, new byte[] {evaluator}, "BIGINT", true);
  }

  /** Registers a function and lets go of it at once. */
  private static void registerAndDrop() {
    function("dropped", (byte) 2, (byte) 20);
  }

  public static void main(String[] args) throws InterruptedException {
    int before = PythonAggregateFunction.known();
    PythonAggregateFunction kept = function("kept", (byte) 1, (byte) 10);
    registerAndDrop();
    CHECKS.check("both registered", Integer.toString(before + 2), () -> Integer.toString(PythonAggregateFunction.known()));
    for (int i = 0; i < 200 && PythonAggregateFunction.known() > before + 1; i++) {
      System.gc();
      Thread.sleep(10);
    }
    CHECKS.check("the dropped function's entry is gone", Integer.toString(before + 1),
        () -> Integer.toString(PythonAggregateFunction.known()));
    Object sparkFunction = kept.pythonFunction();
    CHECKS.check("the kept function is found by its Spark function", "[10] same environment", () -> {
      Object[] found = PythonAggregateFunction.evaluatorAndEnvironment(sparkFunction);
      return Arrays.toString((byte[]) found[0]) + (found[1] == sparkFunction ? " same environment" : " other");
    });
    CHECKS.check("an unknown Spark function is not found", "null", () -> String.valueOf(
        PythonAggregateFunction.evaluatorAndEnvironment(new SimplePythonFunction(new byte[] {3}, Map.of(), List.of(),
            "python3", "3.11", List.of(), null))));
    Reference.reachabilityFence(kept);
    CHECKS.finish();
  }
}
