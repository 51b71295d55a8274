package org.pyflink_table.bridge.table;

import org.apache.spark.sql.execution.CostMode$;
import org.apache.spark.sql.execution.ExtendedMode$;
import org.apache.spark.sql.execution.QueryExecution;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.errors.ValidationException;

/**
 * Table.explain / EXPLAIN with Flink's ExplainDetail: Spark's plans, with Spark's statistics for
 * ESTIMATED_COST and the physical plan as JSON for JSON_EXECUTION_PLAN.
 */
public final class PlanExplain {
  private PlanExplain() {}

  /** {@code details} are ExplainDetail names (ESTIMATED_COST, CHANGELOG_MODE, JSON_EXECUTION_PLAN, PLAN_ADVICE). */
  public static String explain(JTable table, String[] details) {
    boolean cost = false;
    boolean json = false;
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
          throw TableException.unsupported("ExplainDetail.PLAN_ADVICE (Flink's plan advice; Flink refuses it in batch mode too)");
        default:
          throw new ValidationException("Unknown explain detail '" + d
              + "'. Use ESTIMATED_COST, CHANGELOG_MODE, JSON_EXECUTION_PLAN or PLAN_ADVICE.");
      }
    }
    QueryExecution qe = table.df.queryExecution();
    StringBuilder out = new StringBuilder(qe.explainString(ExtendedMode$.MODULE$));
    if (cost) {
      out.append("\n== Estimated Cost ==\n").append(qe.explainString(CostMode$.MODULE$));
    }
    if (json) {
      out.append("\n== Physical Execution Plan ==\n").append(qe.executedPlan().prettyJson()).append('\n');
    }
    return out.toString();
  }
}
