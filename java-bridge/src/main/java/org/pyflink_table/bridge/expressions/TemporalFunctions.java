package org.pyflink_table.bridge.expressions;

import static org.apache.spark.sql.functions.lit;
import static org.pyflink_table.bridge.expressions.FunctionCatalog.scalar;

import java.time.Duration;
import java.time.Period;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.TimeType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.types.FlinkTypes;

/**
 * Date and time built-ins: EXTRACT, FLOOR/CEIL to a unit, TIMESTAMPDIFF, interval literals and
 * the parse/format functions. Time-unit enums arrive as their name (a string literal, or a field
 * reference when written in a FLIP-38 string expression such as {@code extract(a, YEAR)}).
 */
final class TemporalFunctions {
  private TemporalFunctions() {}

  /** Calls whose arguments may name a time unit. */
  static final Set<String> UNIT_CALLS = Set.of("extract", "floor", "ceil", "timestampdiff", "interval");

  static final Set<String> UNITS = Set.of("YEAR", "YEAR_TO_MONTH", "QUARTER", "MONTH", "WEEK", "DAY",
      "DAY_TO_HOUR", "DAY_TO_MINUTE", "DAY_TO_SECOND", "HOUR", "HOUR_TO_MINUTE", "HOUR_TO_SECOND",
      "MINUTE", "MINUTE_TO_SECOND", "SECOND", "MILLISECOND", "MICROSECOND");

  /** A time unit argument: a string literal or a bare name such as YEAR. */
  static String unit(CallContext c, int i) {
    Expr e = c.exprs.get(i);
    String u;
    if (e instanceof Expr.FieldRef) {
      u = ((Expr.FieldRef) e).name;
    } else {
      u = String.valueOf(c.literal(i));
    }
    u = u.toUpperCase(Locale.ROOT);
    if (!UNITS.contains(u)) {
      throw new ValidationException("Unknown time unit '" + u + "' in " + c.name + "; expected one of " + UNITS + ".");
    }
    return u;
  }

  /** Replaces field references that spell a time unit (and are no input field) by string literals. */
  static Expr.Call unitsAsLiterals(Expr.Call call, Scope scope) {
    boolean changed = false;
    List<Expr> args = new ArrayList<>(call.args);
    for (int i = 0; i < args.size(); i++) {
      Expr a = args.get(i);
      if (a instanceof Expr.FieldRef) {
        String n = ((Expr.FieldRef) a).name;
        if (UNITS.contains(n.toUpperCase(Locale.ROOT)) && !scope.hasField(n)) {
          args.set(i, new Expr.Literal(n.toUpperCase(Locale.ROOT), null));
          changed = true;
        }
      }
    }
    return changed ? new Expr.Call(call.name, args, call.function) : call;
  }

  static Column extract(CallContext c) {
    String u = unit(c, 1);
    Column t = c.arg(0);
    Column r;
    switch (u) {
      case "YEAR": r = functions.year(t); break;
      case "QUARTER": r = functions.quarter(t); break;
      case "MONTH": r = functions.month(t); break;
      case "WEEK": r = functions.weekofyear(t); break;
      case "DAY": r = functions.dayofmonth(t); break;
      case "HOUR": r = functions.hour(t); break;
      case "MINUTE": r = functions.minute(t); break;
      case "SECOND": r = functions.second(t); break;
      default: throw TableException.unsupported("EXTRACT of " + u);
    }
    return r.cast(DataTypes.LongType);
  }

  private static String truncUnit(String u) {
    switch (u) {
      case "YEAR": case "QUARTER": case "MONTH": case "WEEK": case "DAY":
      case "HOUR": case "MINUTE": case "SECOND": return u;
      default: throw TableException.unsupported("FLOOR/CEIL to " + u);
    }
  }

  private static Column plusOne(Column t, String u) {
    switch (u) {
      case "YEAR": return t.plus(lit(Period.ofYears(1)));
      case "QUARTER": return t.plus(lit(Period.ofMonths(3)));
      case "MONTH": return t.plus(lit(Period.ofMonths(1)));
      case "WEEK": return t.plus(lit(Duration.ofDays(7)));
      case "DAY": return t.plus(lit(Duration.ofDays(1)));
      case "HOUR": return t.plus(lit(Duration.ofHours(1)));
      case "MINUTE": return t.plus(lit(Duration.ofMinutes(1)));
      default: return t.plus(lit(Duration.ofSeconds(1)));
    }
  }

  /** FLOOR/CEIL of a DATE or TIMESTAMP to a unit, keeping the input's type. */
  static Column ceilOrFloor(CallContext c, boolean ceil) {
    String u = truncUnit(unit(c, 1));
    DataType t = c.type(0);
    Column x = c.arg(0);
    boolean isDate = t instanceof DateType;
    Column asTs = isDate ? x.cast(DataTypes.TimestampNTZType) : x;
    DataType tsType = isDate ? DataTypes.TimestampNTZType : t;
    Column floor;
    if (u.equals("WEEK")) {
      // Flink's weeks start on Sunday (Spark's date_trunc WEEK starts on Monday); dayofweek: Sunday = 1.
      Column day = functions.date_trunc("DAY", asTs).cast(tsType);
      floor = day.minus(functions.make_dt_interval(functions.dayofweek(asTs).minus(lit(1))));
    } else {
      floor = functions.date_trunc(u, asTs).cast(tsType);
    }
    Column r = floor;
    if (ceil) {
      r = functions.when(floor.equalTo(asTs), floor).otherwise(plusOne(floor, u));
    }
    return isDate ? r.cast(DataTypes.DateType) : sameFlinkType(c, 0, r);
  }

  /** The exact Flink type of argument i when it is an input field that records one, else null. */
  static String flinkTypeOf(CallContext c, int i) {
    Expr e = c.exprs.get(i);
    if (!(e instanceof Expr.FieldRef) || !c.scope.hasField(((Expr.FieldRef) e).name)) return null;
    for (StructField f : c.scope.input.schema().fields()) {
      if (f.name().equals(((Expr.FieldRef) e).name) && f.metadata().contains(FlinkTypes.METADATA_KEY)) {
        return f.metadata().getString(FlinkTypes.METADATA_KEY);
      }
    }
    return null;
  }

  /** The result recorded with argument i's Flink type (e.g. TIMESTAMP(3) stays TIMESTAMP(3)). */
  static Column sameFlinkType(CallContext c, int i, Column r) {
    String t = flinkTypeOf(c, i);
    return t != null && t.startsWith("TIMESTAMP") ? FunctionCatalog.typed(r, t) : r;
  }

  /** TIMESTAMPDIFF(unit, t1, t2): whole units from t1 to t2, as INT. */
  static Column timestampDiff(CallContext c) {
    String u = unit(c, 0);
    Column a = asTimestamp(c.arg(1), c.type(1));
    Column b = asTimestamp(c.arg(2), c.type(2));
    return functions.timestamp_diff(u, a, b).cast(DataTypes.IntegerType);
  }

  private static Column asTimestamp(Column x, DataType t) {
    return t instanceof DateType ? x.cast(DataTypes.TimestampNTZType) : x;
  }

  /** An interval of a number of units: a Spark interval literal, or make_*_interval for columns. */
  static Column interval(CallContext c) {
    String u = unit(c, 1);
    Expr v = c.exprs.get(0);
    if (v instanceof Expr.Literal && ((Expr.Literal) v).value instanceof Number) {
      long n = ((Number) ((Expr.Literal) v).value).longValue();
      switch (u) {
        case "YEAR": return lit(Period.ofMonths(Math.toIntExact(12 * n)));
        case "QUARTER": return lit(Period.ofMonths(Math.toIntExact(3 * n)));
        case "MONTH": return lit(Period.ofMonths(Math.toIntExact(n)));
        case "WEEK": return lit(Duration.ofDays(7 * n));
        case "DAY": return lit(Duration.ofDays(n));
        case "HOUR": return lit(Duration.ofHours(n));
        case "MINUTE": return lit(Duration.ofMinutes(n));
        case "SECOND": return lit(Duration.ofSeconds(n));
        case "MILLISECOND": return lit(Duration.ofMillis(n));
        default: throw TableException.unsupported("interval of unit " + u);
      }
    }
    Column n = c.arg(0);
    Column zero = lit(0);
    switch (u) {
      case "YEAR": return functions.make_ym_interval(n.cast(DataTypes.IntegerType), zero);
      case "QUARTER": return functions.make_ym_interval(zero, n.multiply(lit(3)).cast(DataTypes.IntegerType));
      case "MONTH": return functions.make_ym_interval(zero, n.cast(DataTypes.IntegerType));
      case "WEEK": return functions.make_dt_interval(n.multiply(lit(7)).cast(DataTypes.IntegerType));
      case "DAY": return functions.make_dt_interval(n.cast(DataTypes.IntegerType));
      case "HOUR": return functions.make_dt_interval(zero, n.cast(DataTypes.IntegerType));
      case "MINUTE": return functions.make_dt_interval(zero, zero, n.cast(DataTypes.IntegerType));
      case "SECOND": return functions.make_dt_interval(zero, zero, zero, n.cast(DataTypes.createDecimalType(18, 6)));
      case "MILLISECOND":
        return functions.make_dt_interval(zero, zero, zero, n.cast(DataTypes.createDecimalType(18, 6)).divide(lit(1000)));
      default: throw TableException.unsupported("interval of unit " + u);
    }
  }

  /** DATE +/- a day-time interval stays a DATE in Flink (Spark would widen to TIMESTAMP). */
  /** TIMESTAMP +/- interval keeps the timestamp's Flink type. */
  static Column timestampArithmetic(CallContext c, Column r) {
    return sameFlinkType(c, 0, r);
  }

  static Column dateArithmetic(CallContext c, boolean plus) {
    Column d = c.arg(0).cast(DataTypes.TimestampNTZType);
    return (plus ? d.plus(c.arg(1)) : d.minus(c.arg(1))).cast(DataTypes.DateType);
  }

  static boolean isDateAndDayTime(CallContext c) {
    return c.size() == 2 && c.type(0) instanceof DateType
        && c.type(1) instanceof DayTimeIntervalType;
  }

  static Column toDate(CallContext c) {
    if (c.type(0) instanceof DateType) return c.arg(0);
    if (c.size() == 1) return functions.try_to_date(c.arg(0));
    return functions.try_to_date(c.arg(0), String.valueOf(c.literal(1)));
  }

  static Column toTimestamp(CallContext c) {
    Column r = c.size() == 1 ? functions.try_to_timestamp(c.arg(0))
        : functions.try_to_timestamp(c.arg(0), c.arg(1));
    return FunctionCatalog.typed(r.cast(DataTypes.TimestampNTZType), "TIMESTAMP(3)");
  }

  static Column toTimestampLtz(CallContext c) {
    boolean numeric = !(c.type(0) instanceof StringType);
    Integer precision = numeric && c.size() > 1 ? ((Number) c.literal(1)).intValue() : null;
    return ToTimestampLtz.of(c.args, c.type(0), precision);
  }

  /** CONVERT_TZ(string, from, to): a 'yyyy-MM-dd HH:mm:ss' string moved between time zones. */
  static Column convertTz(CallContext c) {
    Column ts = functions.try_to_timestamp(c.arg(0)).cast(DataTypes.TimestampNTZType);
    Column moved = functions.convert_timezone(c.arg(1), c.arg(2), ts);
    return functions.date_format(moved, "yyyy-MM-dd HH:mm:ss");
  }

  private static Column endPoint(Column start, Column temporal, DataType temporalType) {
    if (temporalType instanceof TimestampType || temporalType instanceof TimestampNTZType
        || temporalType instanceof DateType || temporalType instanceof TimeType) {
      return temporal;
    }
    return start.plus(temporal);
  }

  /** TEMPORAL_OVERLAPS: the two closed ranges [start, start + temporal] share a point. */
  static Column temporalOverlaps(CallContext c) {
    Column l1 = c.arg(0);
    Column l2 = endPoint(l1, c.arg(1), c.type(1));
    Column r1 = c.arg(2);
    Column r2 = endPoint(r1, c.arg(3), c.type(3));
    Column ls = functions.least(l1, l2), le = functions.greatest(l1, l2);
    Column rs = functions.least(r1, r2), re = functions.greatest(r1, r2);
    return ls.leq(re).and(rs.leq(le));
  }

  static void register() {
    scalar(TemporalFunctions::extract, "extract");
    scalar(TemporalFunctions::timestampDiff, "timestampDiff");
    scalar(TemporalFunctions::interval, "interval");
    scalar(TemporalFunctions::toDate, "toDate");
    scalar(c -> functions.try_to_time(c.arg(0)).cast(TimeType.apply(0)), "toTime");
    scalar(TemporalFunctions::toTimestamp, "toTimestamp");
    scalar(TemporalFunctions::toTimestampLtz, "toTimestampLtz");
    scalar(c -> {
      if (c.type(0) instanceof DateType) {
        throw new ValidationException("DATE_FORMAT takes a TIMESTAMP or a STRING, got DATE; cast it to TIMESTAMP first.");
      }
      return functions.date_format(c.arg(0), String.valueOf(c.literal(1)));
    }, "dateFormat");
    scalar(c -> c.size() == 1 ? functions.from_unixtime(c.arg(0))
        : functions.from_unixtime(c.arg(0), String.valueOf(c.literal(1))), "fromUnixtime");
    scalar(c -> {
      if (c.size() == 0) return functions.unix_timestamp();
      Column ts = c.size() == 1 ? functions.try_to_timestamp(c.arg(0), lit("yyyy-MM-dd HH:mm:ss"))
          : functions.try_to_timestamp(c.arg(0), c.arg(1));
      return functions.unix_seconds(ts);
    }, "unixTimestamp");
    scalar(TemporalFunctions::convertTz, "convertTz");
    scalar(TemporalFunctions::temporalOverlaps, "temporalOverlaps");
    scalar(c -> functions.current_date(), "currentDate");
    // Milliseconds, as Flink's TIMESTAMP(3) values (Spark's current time holds microseconds).
    scalar(c -> FunctionCatalog.typed(functions.timestamp_millis(functions.unix_millis(functions.current_timestamp())),
        "TIMESTAMP_LTZ(3)"), "currentTimestamp", "now");
    scalar(c -> FunctionCatalog.typed(functions.timestamp_millis(functions.unix_millis(
        functions.localtimestamp().cast(DataTypes.TimestampType))).cast(DataTypes.TimestampNTZType), "TIMESTAMP(3)"),
        "localTimestamp");
    scalar(c -> functions.current_time().cast(TimeType.apply(0)), "currentTime", "localTime");
    scalar(c -> functions.current_database(), "currentDatabase");
    // The session's function (streaming.CurrentWatermark registers it), which checks the rowtime argument.
    scalar(c -> functions.call_function(FunctionCatalog.CURRENT_WATERMARK_FUNCTION, c.arg(0)), "currentWatermark");
    scalar(c -> {
      throw TableException.unsupported("SOURCE_WATERMARK (watermarks exist only in streaming mode)");
    }, "sourceWatermark");
  }
}
