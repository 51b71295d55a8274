package org.pyflink_table.bridge.expressions;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.ArrayDistinct;
import org.apache.spark.sql.catalyst.expressions.ArrayTransform;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.MapFromArrays;
import org.apache.spark.sql.classic.ColumnNodeToExpressionConverter$;
import org.apache.spark.sql.classic.ExpressionUtils;
import org.apache.spark.sql.functions;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.types.FlinkTypes;
import scala.collection.immutable.Seq;

/**
 * Flink's COLLECT, whose MULTISET result Spark holds as a map from each value to its count, for the
 * Table API ({@code collect}) and SQL alike. SQL's {@code COLLECT(v) [FILTER (WHERE c)]} is written
 * {@code pyflink_collect(collect_list(v) [FILTER (WHERE c)])}, so Spark's own aggregate takes the
 * clause, {@code COLLECT(DISTINCT v)} with {@code collect_set(v)} (Spark's streaming aggregations
 * refuse DISTINCT aggregates); the session function counts the list's values.
 */
public final class Multisets {
  private Multisets() {}

  /** The session function's name, as the SQL rewrite calls it. */
  public static final String NAME = "pyflink_collect";

  /** Registers the function on the session (once per session). */
  public static void register(SparkSession spark) {
    spark.sessionState().functionRegistry().createOrReplaceTempFunction(NAME, Multisets::build, "internal");
  }

  private static Expression build(Seq<Expression> args) {
    if (args.size() != 1) {
      throw new ValidationException("COLLECT takes one argument, got " + args.size() + ".");
    }
    return ColumnNodeToExpressionConverter$.MODULE$.apply(counted(ExpressionUtils.column(args.apply(0))).node());
  }

  /** The multiset of {@code values} (an array; collect_list's, which skips NULLs): each value to its count. */
  static Column counted(Column values) {
    Column distinct = functions.array_distinct(values);
    Column counts = functions.transform(distinct,
        v -> functions.size(functions.filter(values, e -> e.equalTo(v))));
    return functions.map_from_arrays(distinct, counts);
  }

  /** A multiset's CARDINALITY: every occurrence counts (its counts' sum), NULL for a NULL multiset. */
  public static Column cardinality(Column multiset) {
    return functions.aggregate(functions.map_values(multiset), functions.lit(0), (acc, n) -> acc.plus(n));
  }

  /** The list a multiset {@link #counted} built (analyzed) counts (SQL's: a collect_list call), else null. */
  public static Expression counts(Expression e) {
    return flinkType(e) == null ? null : ((MapFromArrays) e).left().children().apply(0);
  }

  /** {@code MULTISET<element>} when {@code e} is a multiset {@link #counted} built (analyzed), else null. */
  public static String flinkType(Expression e) {
    if (e instanceof MapFromArrays m && m.left() instanceof ArrayDistinct && m.right() instanceof ArrayTransform) {
      return "MULTISET<" + FlinkTypes.fromSpark(m.dataType().keyType()) + ">";
    }
    return null;
  }
}
