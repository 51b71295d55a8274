package org.pyflink_table.bridge.expressions;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.EvalMode;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.KnownNotNull;
import org.apache.spark.sql.catalyst.trees.TreeNodeTag;
import org.apache.spark.sql.classic.ColumnNodeToExpressionConverter$;
import org.apache.spark.sql.classic.ExpressionUtils;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.pyflink_table.bridge.errors.ValidationException;
import scala.Option;
import scala.collection.immutable.Seq;

/**
 * A timestamp of Flink's TIMESTAMP(p)/TIMESTAMP_LTZ(p) with p other than Spark's 6: its value with
 * the digits p does not keep dropped (measured on PyFlink 2.3: {@code CAST('.. 00:00:01.123456' AS
 * TIMESTAMP(2))} is {@code 00:00:01.12}, truncated; p of 7 to 9 keeps Spark's microseconds), and p
 * recorded on the expression, where the analysed-plan passes of {@code session.FlinkSqlDialect}
 * read it ({@link #of(Expression)}) to type the column and to write it as STRING with p digits.
 *
 * <p>A session function, as the SQL text rewrite calls it ({@code CAST(x AS TIMESTAMP(2))},
 * a {@code TIMESTAMP '...'} literal written with trailing zeros); the Table API's {@code cast} uses
 * {@link #truncated} and records the type on its alias.
 */
public final class TimestampPrecision {
  private TimestampPrecision() {}

  /** The session function's name, as the SQL rewrite calls it: {@code NAME(timestamp, p)}. */
  public static final String NAME = "pyflink_timestamp_precision";

  /** The precision on the function's result; the analyser carries tags over to the nodes it rewrites. */
  private static final TreeNodeTag<Integer> PRECISION = new TreeNodeTag<>("pyflink_timestamp_precision");

  /** Registers the function on the session (once per session). */
  public static void register(SparkSession spark) {
    spark.sessionState().functionRegistry().createOrReplaceTempFunction(NAME, TimestampPrecision::build, "internal");
  }

  private static Expression build(Seq<Expression> args) {
    Expression x = args.apply(0);
    Object p = args.size() == 2 && args.apply(1).foldable() ? args.apply(1).eval(null) : null;
    if (!(p instanceof Number) || !(x.dataType() instanceof TimestampType || x.dataType() instanceof TimestampNTZType)) {
      throw new ValidationException(NAME + " takes a timestamp and a literal precision.");
    }
    int precision = ((Number) p).intValue();
    Expression value = ColumnNodeToExpressionConverter$.MODULE$.apply(
        truncated(ExpressionUtils.column(x), x.dataType(), precision).node());
    // A cast to the type itself, the node the tag is on (the value's own nodes may be shared), as
    // nullable as x (the truncation's arithmetic counts as nullable).
    Expression cast = new Cast(value, x.dataType(), Option.apply("UTC"), EvalMode.LEGACY());
    Expression result = x.nullable() ? cast : new KnownNotNull(cast);
    result.setTagValue(PRECISION, precision);
    return result;
  }

  /** The precision recorded on {@code e} by the session function, null when there is none. */
  public static Integer of(Expression e) {
    Option<Integer> p = e.getTagValue(PRECISION);
    return p.isDefined() ? p.get() : null;
  }

  /**
   * {@code x} (a TIMESTAMP or TIMESTAMP_LTZ of Spark type {@code type}) with the fractional digits
   * beyond {@code p} dropped, toward the past as Flink drops them (before 1970 too); unchanged for p of 6 or more.
   */
  public static Column truncated(Column x, DataType type, int p) {
    if (p >= 6) return x;
    long unit = (long) Math.pow(10, 6 - p);
    // TIMESTAMP's wall-clock microseconds as UTC's, so no time zone shift (a DST gap) can move them.
    Column instant = type instanceof TimestampNTZType
        ? ExpressionUtils.column(new Cast(ExpressionUtils.expression(x), DataTypes.TimestampType, Option.apply("UTC"),
            EvalMode.LEGACY()))
        : x;
    Column micros = functions.unix_micros(instant);
    Column kept = functions.timestamp_micros(micros.minus(functions.pmod(micros, functions.lit(unit))));
    return type instanceof TimestampNTZType
        ? ExpressionUtils.column(new Cast(ExpressionUtils.expression(kept), DataTypes.TimestampNTZType,
            Option.apply("UTC"), EvalMode.LEGACY()))
        : kept;
  }
}
