package org.pyflink_table.bridge.expressions;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.aggregate.CollectList;
import org.apache.spark.sql.classic.ColumnNodeToExpressionConverter$;
import org.apache.spark.sql.classic.ExpressionUtils;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.pyflink_table.bridge.errors.ValidationException;
import scala.collection.immutable.Seq;

/**
 * SQL's ARRAY_AGG as Flink computes it (measured on PyFlink 2.3): NULL values kept unless IGNORE
 * NULLS, NULL when no value is aggregated (a FILTER of no row, IGNORE NULLS of only NULLs), DISTINCT
 * keeping one NULL and each value's first place, elements as nullable as the argument. The SQL
 * rewrite writes {@code pyflink_array_agg(array_agg(v) [FILTER (..)] RESPECT|IGNORE NULLS [OVER ..])}
 * so Spark's collect_list takes the clauses, DISTINCT as the array_distinct of all values (which
 * Spark's streaming aggregations also take, unlike a DISTINCT aggregate).
 */
public final class ArrayAggregates {
  private ArrayAggregates() {}

  /** The session functions' names, as the SQL rewrite calls them. */
  public static final String NAME = "pyflink_array_agg";
  public static final String DISTINCT_NAME = "pyflink_array_agg_distinct";

  /** Registers the functions on the session (once per session). */
  public static void register(SparkSession spark) {
    spark.sessionState().functionRegistry().createOrReplaceTempFunction(NAME, args -> build(args, false), "internal");
    spark.sessionState().functionRegistry().createOrReplaceTempFunction(
        DISTINCT_NAME, args -> build(args, true), "internal");
  }

  private static Expression build(Seq<Expression> args, boolean distinct) {
    if (args.size() != 1) {
      throw new ValidationException("ARRAY_AGG takes one argument, got " + args.size() + ".");
    }
    Expression list = args.apply(0);
    CollectList collected = collectList(list);
    if (collected != null && !collected.child().nullable() && !collected.ignoreNulls()) {
      // A NOT NULL argument's elements are NOT NULL in Flink (RESPECT NULLS types them nullable).
      CollectList notNull = new CollectList(collected.child(), collected.mutableAggBufferOffset(),
          collected.inputAggBufferOffset(), true);
      notNull.copyTagsFrom(collected);
      list = list.transformUp(ScalaInterop.everywhere((Expression e) -> e == collected ? notNull : e));
    }
    // IGNORE NULLS types Spark's elements NOT NULL; Flink keeps the argument's nullability.
    DataType element = ((ArrayType) list.dataType()).elementType();
    ArrayType type = new ArrayType(element, collected == null || collected.child().nullable());
    Column values = ExpressionUtils.column(list);
    Column result = orNull(distinct ? functions.array_distinct(values) : values, values).cast(type);
    return ColumnNodeToExpressionConverter$.MODULE$.apply(result.node());
  }

  /** {@code result}, or NULL when no value was aggregated into {@code values} (Flink's ARRAY_AGG of no value). */
  static Column orNull(Column result, Column values) {
    return functions.when(functions.size(values).equalTo(0), functions.lit(null)).otherwise(result);
  }

  /** The collect_list below {@code e} (its aggregate, maybe in a window), else null. */
  private static CollectList collectList(Expression e) {
    if (e instanceof CollectList c) return c;
    for (Expression child : ScalaInterop.list(e.children())) {
      CollectList c = collectList(child);
      if (c != null) return c;
    }
    return null;
  }
}
