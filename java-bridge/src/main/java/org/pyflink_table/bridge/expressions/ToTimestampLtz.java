package org.pyflink_table.bridge.expressions;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.MicrosToTimestamp;
import org.apache.spark.sql.catalyst.expressions.MillisToTimestamp;
import org.apache.spark.sql.catalyst.expressions.Multiply;
import org.apache.spark.sql.catalyst.expressions.ParseToTimestamp;
import org.apache.spark.sql.catalyst.expressions.SecondsToTimestamp;
import org.apache.spark.sql.classic.ColumnNodeToExpressionConverter$;
import org.apache.spark.sql.classic.ExpressionUtils;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.TimestampType;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.errors.ValidationException;
import scala.collection.immutable.Seq;

/**
 * Flink's TO_TIMESTAMP_LTZ: epoch seconds (precision 0) or milliseconds (precision 3, the default)
 * as a TIMESTAMP_LTZ, or a date-time string read in the session's (or the given) time zone.
 *
 * <p>One translation for the Table API and SQL. In SQL text it is a session function (as
 * {@link ItemAccess}): which Spark function it is depends on the argument's type, which the text
 * rewrite does not know; Spark's own {@code to_timestamp_ltz} only parses strings.
 */
public final class ToTimestampLtz {
  private ToTimestampLtz() {}

  /** The session function's name, as the SQL rewrite calls it. */
  public static final String NAME = "pyflink_to_timestamp_ltz";

  /** Registers the function on the session (once per session). */
  public static void register(SparkSession spark) {
    spark.sessionState().functionRegistry().createOrReplaceTempFunction(NAME, ToTimestampLtz::build, "internal");
  }

  private static Expression build(Seq<Expression> args) {
    List<Column> columns = new ArrayList<>();
    for (Expression e : ScalaInterop.list(args)) columns.add(ExpressionUtils.column(e));
    if (columns.isEmpty() || columns.size() > 3) {
      throw new ValidationException("TO_TIMESTAMP_LTZ takes 1 to 3 arguments, got " + columns.size() + ".");
    }
    Expression first = args.apply(0);
    Integer precision = null;
    if (!(first.dataType() instanceof StringType) && columns.size() > 1) {
      Expression p = args.apply(1);
      Object value = p.foldable() ? p.eval(null) : null;
      if (!(value instanceof Number)) {
        throw new ValidationException("The precision of TO_TIMESTAMP_LTZ must be an integer literal, got " + p.sql() + ".");
      }
      precision = ((Number) value).intValue();
    }
    Expression result = ColumnNodeToExpressionConverter$.MODULE$.apply(of(columns, first.dataType(), precision).node());
    // the Table API's record of the Flink type is an alias, which has no place inside an expression
    return result instanceof Alias ? ((Alias) result).child() : result;
  }

  /**
   * The Flink type of {@code e} (resolved) when it is the numeric form {@link #build} gives in SQL
   * text, which keeps no type record: {@code TIMESTAMP_LTZ(3)} for precision 0 to 3 and
   * {@code TIMESTAMP_LTZ(p)} for 4 and 5 (precision 6 is Spark's own type), the string form's
   * {@code TIMESTAMP_LTZ(3)} (measured on PyFlink 2.3); else null.
   */
  public static String flinkType(Expression e) {
    if (e instanceof SecondsToTimestamp || e instanceof MillisToTimestamp) return "TIMESTAMP_LTZ(3)";
    // The string form: Spark's try_to_timestamp typed TIMESTAMP_LTZ (TO_TIMESTAMP's is TIMESTAMP).
    if (e instanceof ParseToTimestamp && e.dataType() instanceof TimestampType) return "TIMESTAMP_LTZ(3)";
    if (e instanceof MicrosToTimestamp && ((MicrosToTimestamp) e).child() instanceof Multiply m
        && m.right() instanceof Literal l && l.value() instanceof Long factor) {
      for (int p = 1; p < 6; p++) {
        if (factor == (long) Math.pow(10, 6 - p)) return "TIMESTAMP_LTZ(" + Math.max(p, 3) + ")";
      }
    }
    return null;
  }

  /** The call on {@code args}; {@code precision} is the numeric form's (null: the default, 3). */
  static Column of(List<Column> args, DataType firstType, Integer precision) {
    if (firstType instanceof StringType) {
      // TO_TIMESTAMP_LTZ(string [, format [, time zone]]): the local time read in that zone.
      Column format = args.size() > 1 ? args.get(1) : functions.lit("yyyy-MM-dd HH:mm:ss");
      Column parsed = args.size() > 2
          ? functions.try_to_timestamp(functions.concat(args.get(0), functions.lit(" "), args.get(2)),
              functions.concat(format, functions.lit(" VV")))
          : functions.try_to_timestamp(args.get(0), format);
      return FunctionCatalog.typed(parsed, "TIMESTAMP_LTZ(3)");
    }
    // Whole units: Flink drops the fraction of a DOUBLE or DECIMAL (measured: 1.5 at precision 0 is 00:00:01).
    Column n = args.get(0).cast(DataTypes.LongType);
    // The number counts units of 10^-precision seconds (measured on PyFlink 2.3: 1500 at precision 2
    // is 00:00:15); the result is TIMESTAMP_LTZ(max(precision, 3)).
    int p = precision == null ? 3 : precision;
    if (p == 0) return FunctionCatalog.typed(functions.timestamp_seconds(n), "TIMESTAMP_LTZ(3)");
    if (p == 3) return FunctionCatalog.typed(functions.timestamp_millis(n), "TIMESTAMP_LTZ(3)");
    if (p == 6) return functions.timestamp_micros(n);
    if (p > 0 && p < 6) {
      Column micros = functions.timestamp_micros(n.multiply(functions.lit((long) Math.pow(10, 6 - p))));
      return FunctionCatalog.typed(micros, "TIMESTAMP_LTZ(" + Math.max(p, 3) + ")");
    }
    if (p > 6 && p <= 9) {
      throw TableException.unsupported("TO_TIMESTAMP_LTZ with precision " + p + " (Spark's timestamps hold"
          + " microseconds; precision 0 to 6 works)");
    }
    throw new ValidationException("TO_TIMESTAMP_LTZ's precision must be between 0 and 9, got " + p + ".");
  }
}
