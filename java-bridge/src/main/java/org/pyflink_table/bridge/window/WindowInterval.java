package org.pyflink_table.bridge.window;

import java.util.Locale;
import java.util.Map;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.Expr;
import org.pyflink_table.bridge.expressions.FunctionCatalog;

/**
 * A window size, slide, gap or over-window bound read from its expression: a day-time interval in
 * milliseconds ({@code lit(10).minutes}, {@code "10.minutes"}), a row count ({@code row_interval(3)},
 * {@code "3.rows"}) or one of the four over-window constants.
 */
public final class WindowInterval {
  public enum Kind { TIME, ROWS, UNBOUNDED_ROW, UNBOUNDED_RANGE, CURRENT_ROW, CURRENT_RANGE }

  private static final Map<String, Long> MILLIS_PER_UNIT = Map.of(
      "MILLISECOND", 1L, "SECOND", 1_000L, "MINUTE", 60_000L, "HOUR", 3_600_000L,
      "DAY", 86_400_000L, "WEEK", 604_800_000L);

  public final Kind kind;
  /** Milliseconds for TIME, the count for ROWS, 0 otherwise. */
  public final long value;

  private WindowInterval(Kind kind, long value) {
    this.kind = kind;
    this.value = value;
  }

  /** True for the bounds that count rows (ROWS frames) rather than order-key values (RANGE). */
  public boolean isRowBased() {
    return kind == Kind.ROWS || kind == Kind.UNBOUNDED_ROW || kind == Kind.CURRENT_ROW;
  }

  public boolean isUnbounded() {
    return kind == Kind.UNBOUNDED_ROW || kind == Kind.UNBOUNDED_RANGE;
  }

  public boolean isCurrent() {
    return kind == Kind.CURRENT_ROW || kind == Kind.CURRENT_RANGE;
  }

  static WindowInterval of(Kind kind) {
    return new WindowInterval(kind, 0);
  }

  /**
   * Reads an interval expression; {@code role} (e.g. "Tumbling window size") names it in errors.
   * Month and year intervals are refused as Flink does: windows need a fixed length.
   */
  public static WindowInterval parse(Expr e, String role) {
    if (e instanceof Expr.Call) {
      Expr.Call c = (Expr.Call) e;
      String n = FunctionCatalog.normalize(c.name);
      switch (n) {
        case "unboundedrow": return of(Kind.UNBOUNDED_ROW);
        case "unboundedrange": return of(Kind.UNBOUNDED_RANGE);
        case "currentrow": return of(Kind.CURRENT_ROW);
        case "currentrange": return of(Kind.CURRENT_RANGE);
        case "interval": {
          long count = count(c.arg(0), role, e);
          String unit = String.valueOf(((Expr.Literal) c.arg(1)).value).toUpperCase(Locale.ROOT);
          Long millis = MILLIS_PER_UNIT.get(unit);
          if (millis == null) throw notDayTime(role, e);
          return new WindowInterval(Kind.TIME, Math.multiplyExact(count, millis));
        }
        default:
          break;
      }
    }
    if (e instanceof Expr.Literal) {
      Expr.Literal l = (Expr.Literal) e;
      String type = l.flinkType == null ? "" : l.flinkType.toUpperCase(Locale.ROOT);
      if (type.equals("ROW_INTERVAL")) {
        return new WindowInterval(Kind.ROWS, count(l, role, e));
      }
      if (type.startsWith("INTERVAL")) {
        if (type.contains("YEAR") || type.contains("MONTH")) throw notDayTime(role, e);
        return new WindowInterval(Kind.TIME, Long.parseLong(String.valueOf(l.value)));
      }
    }
    throw new ValidationException(role + " expects a time interval such as lit(10).minutes or '10.minutes', "
        + "or a row count such as row_interval(3) or '3.rows', got " + e + ".");
  }

  private static long count(Expr e, String role, Expr whole) {
    if (e instanceof Expr.Literal && ((Expr.Literal) e).value != null) {
      Object v = ((Expr.Literal) e).value;
      if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
        return ((Number) v).longValue();
      }
      try {
        return Long.parseLong(String.valueOf(v));
      } catch (NumberFormatException ignored) {
        // fall through to the error below
      }
    }
    throw new ValidationException(role + " expects an integer literal count, got " + whole + ".");
  }

  private static ValidationException notDayTime(String role, Expr e) {
    return new ValidationException(role + " expects a day-time interval (milliseconds to weeks) or a row count, "
        + "got the year-month interval " + e + ".");
  }

  /** The interval as a Spark duration string, e.g. "600000 milliseconds". */
  String sparkDuration() {
    return value + " milliseconds";
  }
}
