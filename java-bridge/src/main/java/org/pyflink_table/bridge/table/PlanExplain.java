package org.pyflink_table.bridge.table;

import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.CostMode$;
import org.apache.spark.sql.execution.ExtendedMode$;
import org.apache.spark.sql.execution.QueryExecution;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.ScalaInterop;

/**
 * Table.explain / EXPLAIN with Flink's ExplainDetail: Spark's plans, with Spark's statistics for
 * ESTIMATED_COST and the physical plan as JSON for JSON_EXECUTION_PLAN.
 */
public final class PlanExplain {
  private PlanExplain() {}

  /** Flink's advice for a group aggregation over a stream without mini-batch (measured on PyFlink 2.3). */
  static final String TWO_PHASE_ADVICE = "advice[1]: [ADVICE] You might want to enable local-global two-phase"
      + " optimization by configuring ('table.exec.mini-batch.enabled' to 'true', 'table.exec.mini-batch.allow-latency'"
      + " to a positive long value, 'table.exec.mini-batch.size' to a positive long value).";

  /** SQL {@code EXPLAIN}: the statement carries no table config, so PLAN_ADVICE is refused there. */
  public static String explain(JTable table, String[] details) {
    for (String d : details) {
      if (d.equals("PLAN_ADVICE")) {
        throw TableException.unsupported("EXPLAIN PLAN_ADVICE in SQL; use Table.explain(ExplainDetail.PLAN_ADVICE)"
            + " or TableEnvironment.explain_sql, which read the environment's mini-batch options");
      }
    }
    return explain(table, details, false);
  }

  /**
   * {@code details} are ExplainDetail names (ESTIMATED_COST, CHANGELOG_MODE, JSON_EXECUTION_PLAN, PLAN_ADVICE);
   * {@code miniBatch} says whether the environment configures Flink's mini-batch (enabled, positive latency
   * and size), the one condition of the advice given here.
   */
  public static String explain(JTable table, String[] details, boolean miniBatch) {
    boolean cost = false;
    boolean json = false;
    boolean advice = false;
    for (String d : details) {
      switch (d) {
        case "ESTIMATED_COST":
          cost = true;
          break;
        case "CHANGELOG_MODE":
          // Batch operators only insert; Flink's batch plans carry no changelog annotations either.
          break;
        case "JSON_EXECUTION_PLAN":
          json = true;
          break;
        case "PLAN_ADVICE":
          if (!table.env.isStreaming()) {
            throw new TableException("EXPLAIN PLAN_ADVICE is not supported under batch mode.");
          }
          advice = true;
          break;
        default:
          throw new ValidationException("Unknown explain detail '" + d
              + "'. Use ESTIMATED_COST, CHANGELOG_MODE, JSON_EXECUTION_PLAN or PLAN_ADVICE.");
      }
    }
    QueryExecution qe = table.df.queryExecution();
    StringBuilder out = new StringBuilder(qe.explainString(ExtendedMode$.MODULE$));
    if (advice) {
      out.append("\n== Optimized Physical Plan With Advice ==\n").append(qe.executedPlan().treeString())
          .append('\n').append(!miniBatch && hasGroupAggregation(qe.analyzed()) ? TWO_PHASE_ADVICE
              : "No available advice...").append('\n');
    }
    if (cost) {
      out.append("\n== Estimated Cost ==\n").append(qe.explainString(CostMode$.MODULE$));
    }
    if (json) {
      out.append("\n== Physical Execution Plan ==\n").append(qe.executedPlan().prettyJson()).append('\n');
    }
    return out.toString();
  }

  /**
   * Whether the plan aggregates by group without a time window, what Flink's GroupAggregationAnalyzer
   * advises on. Plans that could hide advice of Flink's other analyzer (non-deterministic updates) are refused.
   */
  static boolean hasGroupAggregation(LogicalPlan plan) {
    boolean grouped = !plan.collectFirst(ScalaInterop.where(PlanExplain::isGroupAggregate)).isEmpty();
    if (grouped && !plan.collectFirst(ScalaInterop.where(PlanExplain::isNonDeterministic)).isEmpty()) {
      throw TableException.unsupported("ExplainDetail.PLAN_ADVICE for an updating query with non-deterministic"
          + " functions (Flink's non-deterministic-update advice is not derived here)");
    }
    return grouped;
  }

  private static boolean isGroupAggregate(LogicalPlan p) {
    if (!(p instanceof Aggregate)) return false;
    for (Expression g : ScalaInterop.list(((Aggregate) p).groupingExpressions())) {
      if (!g.collectFirst(ScalaInterop.where(PlanExplain::isWindowColumn)).isEmpty()) return false;
    }
    return true;
  }

  /** The window column Spark's time and session windows group by carries their marker in its metadata. */
  private static boolean isWindowColumn(Expression e) {
    return e instanceof Attribute && (((Attribute) e).metadata().contains("spark.timeWindow")
        || ((Attribute) e).metadata().contains("spark.sessionWindow"));
  }

  private static boolean isNonDeterministic(LogicalPlan p) {
    for (Expression e : ScalaInterop.list(p.expressions())) {
      if (!e.deterministic()) return true;
    }
    return false;
  }
}
