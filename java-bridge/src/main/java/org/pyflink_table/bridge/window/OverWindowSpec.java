package org.pyflink_table.bridge.window;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.expressions.WindowSpec;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.Expr;
import org.pyflink_table.bridge.expressions.ExprCompiler;
import org.pyflink_table.bridge.expressions.FunctionCatalog;
import org.pyflink_table.bridge.expressions.Scope;
import org.pyflink_table.bridge.types.FlinkTypes;

/**
 * {@code Over.partition_by(...).order_by(...).preceding(...).following(...).alias(w)}. Flink's
 * defaults: without preceding the frame starts at UNBOUNDED_RANGE; without following it ends at
 * CURRENT_ROW for row-count frames and CURRENT_RANGE (the current row and its peers) otherwise.
 * Time-interval bounds are RANGE frames over the order key in microseconds.
 */
public final class OverWindowSpec {
  public final List<Expr> partitionBy;
  public final Expr orderBy;
  /** Null when not given. */
  public final Expr preceding;
  /** Null when not given. */
  public final Expr following;
  public final String alias;

  private OverWindowSpec(List<Expr> partitionBy, Expr orderBy, Expr preceding, Expr following, String alias) {
    this.partitionBy = partitionBy;
    this.orderBy = orderBy;
    this.preceding = preceding;
    this.following = following;
    this.alias = alias;
  }

  public static OverWindowSpec create(Expr[] partitionBy, Expr orderBy, Expr preceding, Expr following, String alias) {
    if (orderBy == null) {
      throw new ValidationException("An over window needs order_by(...) before alias(...).");
    }
    if (alias == null || alias.isBlank()) {
      throw new ValidationException("An over window needs an alias, e.g. .alias('w').");
    }
    List<Expr> parts = partitionBy == null ? List.of() : Arrays.asList(partitionBy);
    return new OverWindowSpec(parts, orderBy, preceding, following, alias);
  }

  /** The bounds after Flink's defaults, checked to be of one kind (rows or range). */
  WindowInterval[] bounds() {
    WindowInterval lower = preceding == null ? WindowInterval.of(WindowInterval.Kind.UNBOUNDED_RANGE)
        : WindowInterval.parse(preceding, "Over window preceding");
    WindowInterval upper = following == null
        ? WindowInterval.of(lower.isRowBased() ? WindowInterval.Kind.CURRENT_ROW : WindowInterval.Kind.CURRENT_RANGE)
        : WindowInterval.parse(following, "Over window following");
    if (lower.isRowBased() != upper.isRowBased()) {
      throw new ValidationException("Preceding and following must be of same interval type (both row counts or both "
          + "time ranges) in over window '" + alias + "': preceding " + preceding + ", following " + following + ".");
    }
    for (WindowInterval b : new WindowInterval[] {lower, upper}) {
      if ((b.kind == WindowInterval.Kind.ROWS || b.kind == WindowInterval.Kind.TIME) && b.value < 0) {
        throw new ValidationException("Over window bounds must not be negative in over window '" + alias + "'.");
      }
    }
    return new WindowInterval[] {lower, upper};
  }

  /** Spark specs for this window: [0] with its frame, [1] without (ranking and offset functions). */
  public WindowSpec[] resolve(Scope scope) {
    WindowInterval[] b = bounds();
    boolean timeRange = b[0].kind == WindowInterval.Kind.TIME || b[1].kind == WindowInterval.Kind.TIME;
    List<Column> parts = ExprCompiler.compileAll(ExprCompiler.expand(partitionBy, scope), scope);
    WindowSpec unframed = Window.partitionBy(parts.toArray(new Column[0])).orderBy(sortKey(scope, false));
    WindowSpec base = timeRange ? Window.partitionBy(parts.toArray(new Column[0])).orderBy(sortKey(scope, true)) : unframed;
    long lo = lowerBound(b[0]);
    long hi = upperBound(b[1]);
    WindowSpec framed = b[0].isRowBased() ? base.rowsBetween(lo, hi) : base.rangeBetween(lo, hi);
    return new WindowSpec[] {framed, unframed};
  }

  private static long lowerBound(WindowInterval b) {
    if (b.isUnbounded()) return Window.unboundedPreceding();
    if (b.isCurrent()) return Window.currentRow();
    return b.kind == WindowInterval.Kind.TIME ? -Math.multiplyExact(b.value, 1000L) : -b.value;
  }

  private static long upperBound(WindowInterval b) {
    if (b.isUnbounded()) return Window.unboundedFollowing();
    if (b.isCurrent()) return Window.currentRow();
    return b.kind == WindowInterval.Kind.TIME ? Math.multiplyExact(b.value, 1000L) : b.value;
  }

  /**
   * The ordering, NULLs first when ascending and last when descending, as in Flink. For a time
   * range the timestamp is ordered by its microseconds since the epoch so that Spark's numeric
   * range frames apply.
   */
  private Column sortKey(Scope scope, boolean micros) {
    Expr e = orderBy;
    boolean desc = false;
    Boolean nullsFirst = null;
    while (e instanceof Expr.Call) {
      String n = FunctionCatalog.normalize(((Expr.Call) e).name);
      if (n.equals("asc") || n.equals("desc")) {
        desc = n.equals("desc");
      } else if (n.equals("nullsfirst") || n.equals("nullslast")) {
        nullsFirst = n.equals("nullsfirst");
      } else {
        break;
      }
      e = ((Expr.Call) e).arg(0);
    }
    Column key = ExprCompiler.compile(e, scope);
    if (micros) {
      DataType t = scope.typeOf(key);
      if (t instanceof TimestampType) {
        key = functions.unix_micros(key);
      } else if (t instanceof TimestampNTZType) {
        key = functions.timestamp_diff("MICROSECOND", functions.lit(LocalDateTime.of(1970, 1, 1, 0, 0)), key);
      } else {
        throw new ValidationException("A time-interval bound in over window '" + alias + "' needs order_by on a "
            + "TIMESTAMP or TIMESTAMP_LTZ column, but " + e + " is " + FlinkTypes.fromSpark(t)
            + "; use row_interval(n) bounds instead.");
      }
    }
    // Flink's over windows treat NULL as the smallest key (PyFlink 2.3 SQL OVER, measured).
    boolean first = nullsFirst != null ? nullsFirst : !desc;
    if (desc) return first ? key.desc_nulls_first() : key.desc_nulls_last();
    return first ? key.asc_nulls_first() : key.asc_nulls_last();
  }

  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    for (Expr p : partitionBy) parts.add(p.toString());
    return "OverWindow(" + alias + ", partitionBy=" + parts + ", orderBy=" + orderBy + ", preceding=" + preceding
        + ", following=" + following + ")";
  }
}
