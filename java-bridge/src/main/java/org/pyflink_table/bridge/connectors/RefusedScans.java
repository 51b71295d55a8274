package org.pyflink_table.bridge.connectors;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.RaiseError;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.ScalaInterop;

/**
 * Tables whose definition Flink's planner refuses (unknown connector or format, a missing or
 * unsupported option, a sink-only connector read): creating them and building queries on them
 * succeeds, as in Flink, and planning a query that reads one raises Flink's ValidationException.
 *
 * <p>Such a table is a {@link Connectors#failingScan} whose message this session records. The check
 * runs on the analyzed plan where Flink plans a SQL query ({@code sql_query}), and, as an optimizer
 * rule of the session, wherever a query is optimized: explain, execute, collect, to_pandas, inserts.
 * The failing scan's filter survives column pruning, so {@code SELECT COUNT(*)} is refused too.
 */
public final class RefusedScans extends Rule<LogicalPlan> {
  private final Set<String> messages = ConcurrentHashMap.newKeySet();

  /** A scan of a table the planner refuses with {@code message}. */
  public Dataset<Row> scan(SparkSession spark, StructType schema, String message) {
    messages.add(message);
    return Connectors.failingScan(spark, schema, message);
  }

  /** Raises the refusal of the first refused table the plan reads, if any. */
  public void check(LogicalPlan plan) {
    String refusal = refusal(plan);
    if (refusal != null) throw new ValidationException(refusal);
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    check(plan);
    return plan;
  }

  private String refusal(LogicalPlan plan) {
    for (Expression e : ScalaInterop.list(plan.expressions())) {
      String m = refusal(e, false);
      if (m != null) return m;
    }
    for (LogicalPlan p : ScalaInterop.list(plan.children())) {
      String m = refusal(p);
      if (m != null) return m;
    }
    for (LogicalPlan p : ScalaInterop.list(plan.subqueries())) {
      String m = refusal(p);
      if (m != null) return m;
    }
    return null;
  }

  private String refusal(Expression e, boolean inRaise) {
    if (inRaise && e instanceof Literal && ((Literal) e).value() != null) {
      // The message, or (once the optimizer has folded raise_error's parameter map) the map's values.
      Object value = ((Literal) e).value();
      Object[] texts = value instanceof MapData
          ? ((MapData) value).valueArray().toObjectArray(DataTypes.StringType) : new Object[] {value};
      for (Object text : texts) {
        if (text != null && messages.contains(text.toString())) return text.toString();
      }
    }
    for (Expression c : ScalaInterop.list(e.children())) {
      String m = refusal(c, inRaise || e instanceof RaiseError);
      if (m != null) return m;
    }
    return null;
  }
}
