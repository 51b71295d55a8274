package org.pyflink_table.bridge.expressions;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.expressions.WindowSpec;
import org.apache.spark.sql.internal.Cast;
import org.apache.spark.sql.internal.ColumnNode;
import org.apache.spark.sql.internal.Literal;
import org.apache.spark.sql.internal.UnresolvedAttribute;
import org.apache.spark.sql.internal.UnresolvedFunction;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.expressions.ScalaInterop;

/**
 * Applies an over window to a compiled aggregate. Built-ins compile to more than the bare Spark
 * aggregate (AVG of INT is {@code CAST(avg(x) AS INT)} to keep Flink's type), and Spark only
 * windows the aggregate itself, so the window is pushed down to each aggregate call inside casts
 * and scalar functions. Ranking and offset functions take the window without its frame, as Spark
 * requires.
 */
public final class OverAggregates {
  private OverAggregates() {}

  private static final Set<String> UNFRAMED = Set.of(
      "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead");

  private static final Set<String> AGGREGATES = Set.of(
      "count", "sum", "avg", "mean", "min", "max", "stddev_pop", "stddev_samp", "stddev", "std", "var_pop",
      "var_samp", "variance", "first", "last", "first_value", "last_value", "any_value", "collect_list",
      "collect_set", "array_agg", "listagg", "string_agg", "bool_and", "bool_or", "every", "some", "any",
      "count_if", "median", "mode", "percentile", "percentile_approx", "approx_count_distinct", "max_by",
      "min_by", "product", "corr", "covar_pop", "covar_samp", "skewness", "kurtosis", "bit_and", "bit_or",
      "bit_xor", "try_sum", "try_avg", "nth_value", "regr_count", "histogram_numeric");

  public static Column windowed(Column aggregate, WindowSpec framed, WindowSpec unframed) {
    ColumnNode rewritten = rewrite(aggregate.node(), framed, unframed);
    return rewritten == null ? aggregate.over(framed) : new Column(rewritten);
  }

  /** The node with every aggregate call windowed, or null when it contains no aggregate. */
  private static ColumnNode rewrite(ColumnNode n, WindowSpec framed, WindowSpec unframed) {
    if (n instanceof Cast) {
      Cast c = (Cast) n;
      ColumnNode child = rewrite(c.child(), framed, unframed);
      return child == null ? null : c.copy(child, c.dataType(), c.evalMode(), c.origin());
    }
    if (n instanceof UnresolvedFunction) {
      UnresolvedFunction f = (UnresolvedFunction) n;
      String name = f.functionName().toLowerCase(Locale.ROOT);
      if (UNFRAMED.contains(name)) return new Column(n).over(unframed).node();
      if (AGGREGATES.contains(name) && !f.isUserDefinedFunction()) {
        if (f.isDistinct()) {
          // Spark has no DISTINCT window aggregates (DISTINCT_WINDOW_FUNCTION_UNSUPPORTED).
          throw TableException.unsupported("DISTINCT aggregates over windows (" + name + "(DISTINCT ...) OVER w)");
        }
        return new Column(n).over(framed).node();
      }
      List<ColumnNode> args = ScalaInterop.list(f.arguments());
      boolean changed = false;
      for (int i = 0; i < args.size(); i++) {
        ColumnNode r = rewrite(args.get(i), framed, unframed);
        if (r != null) {
          args.set(i, r);
          changed = true;
        }
      }
      return changed ? f.copy(f.functionName(), ScalaInterop.seq(args), f.isDistinct(), f.isUserDefinedFunction(),
          f.isInternal(), f.origin()) : null;
    }
    if (n instanceof Literal || n instanceof UnresolvedAttribute) return null;
    // Anything else (a user-defined aggregate, for instance) is taken to be the aggregate itself.
    return new Column(n).over(framed).node();
  }
}
