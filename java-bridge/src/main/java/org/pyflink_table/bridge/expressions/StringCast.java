package org.pyflink_table.bridge.expressions;

import static org.apache.spark.sql.functions.lit;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimeType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.YearMonthIntervalType;
import org.pyflink_table.bridge.types.FlinkTypes;

/**
 * A value cast to STRING as Flink writes it, where Spark's cast writes other text (measured on
 * PyFlink 2.3): a TIMESTAMP(p)/TIMESTAMP_LTZ(p) with all its p fractional digits
 * ({@code 00:00:01.000}), a BOOLEAN as {@code TRUE}, a TIME(p > 0) with at least one fractional
 * digit ({@code 12:34:56.0}), an ARRAY as {@code [1, NULL]}, a MAP as {@code {k=1}}, a ROW as
 * {@code (1, a)}, nested values written the same way and NULL inside a collection as {@code NULL},
 * an INTERVAL DAY TO SECOND as {@code +1 02:03:04.500}, an INTERVAL YEAR TO MONTH as {@code -1-02}.
 * Numbers, strings, bytes and dates already read the same.
 *
 * <p>One translation for the Table API's {@code cast} and SQL's {@code CAST} (the analysed-plan
 * pass of {@code session.FlinkSqlDialect}).
 */
public final class StringCast {
  private StringCast() {}

  /** Whether Spark's own cast of a {@code type} value to STRING writes other text than Flink's. */
  public static boolean differs(DataType type) {
    return type instanceof TimestampNTZType || type instanceof TimestampType || type instanceof BooleanType
        || type instanceof TimeType && ((TimeType) type).precision() > 0
        || type instanceof ArrayType || type instanceof MapType || type instanceof StructType
        || type instanceof DayTimeIntervalType || type instanceof YearMonthIntervalType;
  }

  /**
   * {@code x}, of Spark type {@code type}, as Flink's STRING text. {@code flinkType} is its Flink
   * type when known (it carries timestamp and time precisions, also of nested values), else null:
   * a timestamp then has 6 digits, the precision Spark keeps, a TIME the precision of its Spark type.
   */
  public static Column of(Column x, DataType type, String flinkType) {
    if (flinkType == null && type instanceof StructType) flinkType = FlinkTypes.fromSpark(type); // fields' records
    if (type instanceof TimestampNTZType || type instanceof TimestampType) {
      int p = precision(flinkType, 6);
      // date_format writes a TIMESTAMP_LTZ in the session's time zone, as Flink does.
      return functions.date_format(x, "yyyy-MM-dd HH:mm:ss" + (p > 0 ? "." + "S".repeat(p) : ""));
    }
    if (type instanceof BooleanType) return functions.upper(x.cast(DataTypes.StringType));
    if (type instanceof DayTimeIntervalType) {
      // Flink: +D HH:MM:SS.mmm (days unpadded, milliseconds always), its sign in front.
      x = x.cast(DayTimeIntervalType.apply()); // DAY TO SECOND: every field can be extracted
      Column days = field("DAY", x);
      Column hours = field("HOUR", x);
      Column minutes = field("MINUTE", x);
      Column seconds = functions.date_part(lit("SECOND"), x); // DECIMAL with the microseconds
      Column negative = days.lt(0).or(hours.lt(0)).or(minutes.lt(0)).or(seconds.lt(0));
      Column millis = functions.floor(functions.abs(seconds).multiply(lit(1000))).cast(DataTypes.LongType);
      return functions.format_string("%s%d %02d:%02d:%02d.%03d", functions.when(negative, lit("-")).otherwise(lit("+")),
          functions.abs(days), functions.abs(hours), functions.abs(minutes), functions.floor(millis.divide(1000)),
          functions.pmod(millis, lit(1000L)));
    }
    if (type instanceof YearMonthIntervalType) {
      // Flink: +Y-MM, its sign in front.
      x = x.cast(YearMonthIntervalType.apply()); // YEAR TO MONTH: both fields can be extracted
      Column years = field("YEAR", x);
      Column months = field("MONTH", x);
      return functions.format_string("%s%d-%02d", functions.when(years.lt(0).or(months.lt(0)), lit("-")).otherwise(lit("+")),
          functions.abs(years), functions.abs(months));
    }
    if (type instanceof TimeType && precision(flinkType, ((TimeType) type).precision()) > 0) {
      // Flink writes a TIME(p > 0) with its milliseconds' digits up to the last non-zero one, at least one.
      Column s = x.cast(DataTypes.StringType);
      return functions.when(s.contains("."), s).otherwise(functions.concat(s, lit(".0")));
    }
    List<String> parts = flinkType == null ? List.of() : FlinkTypes.components(flinkType);
    if (type instanceof ArrayType) {
      DataType element = ((ArrayType) type).elementType();
      String elementFlink = part(parts, 0);
      Column items = functions.transform(x, e -> of(e, element, elementFlink));
      return functions.concat(lit("["), functions.array_join(items, ", ", "NULL"), lit("]"));
    }
    if (type instanceof MapType) {
      MapType m = (MapType) type;
      String keyFlink = part(parts, 0);
      String valueFlink = part(parts, 1);
      Column entries = functions.transform(functions.map_entries(x), e -> functions.concat(
          orNull(of(e.getField("key"), m.keyType(), keyFlink)), lit("="),
          orNull(of(e.getField("value"), m.valueType(), valueFlink))));
      return functions.concat(lit("{"), functions.array_join(entries, ", "), lit("}"));
    }
    if (type instanceof StructType) {
      StructField[] fields = ((StructType) type).fields();
      List<Column> texts = new ArrayList<>();
      for (int i = 0; i < fields.length; i++) {
        if (i > 0) texts.add(lit(", "));
        texts.add(orNull(of(x.getField(fields[i].name()), fields[i].dataType(), part(parts, i))));
      }
      Column row = functions.concat(lit("("), functions.concat(texts.toArray(new Column[0])), lit(")"));
      return functions.when(x.isNotNull(), row);
    }
    return x.cast(DataTypes.StringType);
  }

  /** A field of an interval as a BIGINT, negative for a negative interval. */
  private static Column field(String name, Column interval) {
    return functions.date_part(lit(name), interval).cast(DataTypes.LongType);
  }

  private static Column orNull(Column text) {
    return functions.coalesce(text, lit("NULL"));
  }

  private static String part(List<String> parts, int i) {
    return i < parts.size() ? parts.get(i) : null;
  }

  /** The p of TIMESTAMP(p), TIMESTAMP_LTZ(p) or TIME(p); {@code otherwise} when unknown. */
  private static int precision(String flinkType, int otherwise) {
    int open = flinkType == null ? -1 : flinkType.indexOf('(');
    return open > 0 && (flinkType.startsWith("TIMESTAMP") || flinkType.startsWith("TIME("))
        ? Integer.parseInt(flinkType.substring(open + 1, flinkType.indexOf(')'))) : otherwise;
  }
}
