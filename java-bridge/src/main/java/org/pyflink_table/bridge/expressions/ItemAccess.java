package org.pyflink_table.bridge.expressions;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.ElementAt;
import org.apache.spark.sql.catalyst.expressions.EvalMode;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.GetArrayItem;
import org.apache.spark.sql.catalyst.expressions.Literal$;
import org.apache.spark.sql.catalyst.expressions.NumericEvalContext;
import org.apache.spark.sql.catalyst.expressions.Subtract;
import org.apache.spark.sql.types.ArrayType;
import org.pyflink_table.bridge.errors.ValidationException;
import scala.Option;
import scala.collection.immutable.Seq;

/**
 * Flink's ITEM ({@code x[i]} in SQL, {@code at} in the Table API) as a session function: the i-th
 * element of an array (1-based; NULL when out of range, 0 and negative indices included), or the
 * value of a map key (NULL when absent).
 *
 * <p>Not Spark's {@code try_element_at}: it counts negative indices from the end and fails on 0, and
 * its generated code does not compile when Spark decides the result cannot be NULL (a constant index
 * into an {@code ARRAY[...]} of non-null values): Spark logs the compile error on the console and
 * falls back to interpreting. An array goes to {@code GetArrayItem} at {@code i - 1} instead, which
 * the optimizer folds away on a constructed array. The function is a builder so it sees the
 * container's type, which the SQL text rewrite does not know.
 */
public final class ItemAccess {
  private ItemAccess() {}

  /** The session function's name, as the SQL rewrite and the Table API call it. */
  public static final String NAME = "pyflink_item";

  /** Registers the function on the session (once per session). */
  public static void register(SparkSession spark) {
    spark.sessionState().functionRegistry().createOrReplaceTempFunction(NAME, ItemAccess::build, "internal");
  }

  private static Expression build(Seq<Expression> args) {
    if (args.size() != 2) {
      throw new ValidationException("ITEM takes a container and an index, got " + args.size() + " arguments.");
    }
    Expression container = args.apply(0);
    Expression index = args.apply(1);
    if (container.dataType() instanceof ArrayType) {
      if (index.foldable() && index.eval(null) instanceof Number && ((Number) index.eval(null)).longValue() < 1) {
        throw new ValidationException(
            "Array element access needs an index starting at 1 but was " + index.eval(null) + ".");
      }
      // LEGACY arithmetic: i - 1 wraps for the smallest INT (out of range, so NULL) instead of failing.
      Expression zeroBased = new Subtract(index, Literal$.MODULE$.apply(1),
          NumericEvalContext.apply(EvalMode.LEGACY(), NumericEvalContext.apply$default$2()));
      return new GetArrayItem(container, zeroBased, false);
    }
    return new ElementAt(container, index, Option.empty(), false);
  }

  /**
   * Flink's planning-time refusal of a constant array index below 1 in the Table API's wording (SQL's
   * is in the builder).
   */
  static void checkConstantIndex(Object index) {
    if (index instanceof Number && !(index instanceof Double || index instanceof Float)
        && ((Number) index).longValue() < 1) {
      throw new ValidationException(
          "The provided index must be a valid SQL index starting from 1, but was '" + index + "'");
    }
  }
}
