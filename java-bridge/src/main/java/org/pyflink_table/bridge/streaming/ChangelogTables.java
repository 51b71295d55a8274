package org.pyflink_table.bridge.streaming;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.nullif;
import static org.apache.spark.sql.functions.when;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.KnownNotNull;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.Distinct;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.Sort;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.classic.ColumnNodeToExpressionConverter$;
import org.apache.spark.sql.classic.ExpressionColumnNode;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.table.JTable;

/**
 * {@code to_changelog()} of an updating table in streaming mode: the changelog of {@link Changelog}
 * as an insert-only table whose first column names each row's kind (INSERT, UPDATE_BEFORE,
 * UPDATE_AFTER, DELETE, or the codes of {@code op_mapping}; kinds without a code are dropped), over
 * bounded input (computed in one job) and over unbounded sources (a stream of change rows).
 */
public final class ChangelogTables {
  private ChangelogTables() {}

  /** Whether {@code to_changelog} of this table needs the streaming changelog. */
  public static boolean appliesTo(JTable table) {
    return table.env.isStreaming() && !table.df.isStreaming() && Changelog.isUpdating(table);
  }

  /** Whether {@code to_changelog} of this table over unbounded sources needs the stream of its changes. */
  public static boolean appliesToStream(JTable table) {
    if (!table.env.isStreaming() || !table.df.isStreaming()) return false;
    LogicalPlan plan = table.df.queryExecution().analyzed();
    return RetractingStreams.retractingNode(plan) != null || Changelog.updatingNode(plan) != null;
  }

  /**
   * The changelog with the operation column {@code opName} in front.
   *
   * @param mapping kind codes as {@code to_changelog}'s op_mapping ("INSERT, UPDATE_AFTER" -> code), or null
   */
  public static JTable toChangelog(JTable table, String opName, Map<String, String> mapping) {
    return table.copyWith(withOperation(Changelog.of(table), table, opName, mapping));
  }

  /**
   * {@link #toChangelog} of a table over unbounded sources: its stream of changes (the processors of
   * {@link RetractingStreams}, which emit each change as a row) as an insert-only stream, the
   * kind's code in front, as Flink's TO_CHANGELOG gives them while the job runs.
   */
  public static JTable toChangelogOfStream(JTable table, String opName, Map<String, String> mapping) {
    return table.copyWith(withOperation(RetractingStreams.changesOf(table), table, opName, mapping));
  }

  /**
   * Which outputs of {@code plan} are never NULL, each traced through the aliases that define it:
   * Spark types a streaming aggregation's outputs nullable (its COUNT too), Flink keeps COUNT NOT NULL.
   */
  static boolean[] notNull(LogicalPlan plan) {
    // Only down the nodes that keep their input's NULLs as they are (not through an outer join's padding).
    Map<ExprId, Expression> defined = new HashMap<>();
    for (LogicalPlan p = plan; p != null; ) {
      List<NamedExpression> named = p instanceof Project pr ? ScalaInterop.list(pr.projectList())
          : p instanceof Aggregate a ? ScalaInterop.list(a.aggregateExpressions()) : List.of();
      for (NamedExpression e : named) if (e instanceof Alias al) defined.putIfAbsent(al.exprId(), al.child());
      boolean passThrough = p instanceof Project || p instanceof Aggregate || p instanceof Filter
          || p instanceof SubqueryAlias || p instanceof Sort || p instanceof Distinct;
      p = passThrough && p.children().size() == 1 ? p.children().apply(0) : null;
    }
    List<Attribute> output = ScalaInterop.list(plan.output());
    boolean[] out = new boolean[output.size()];
    for (int i = 0; i < out.length; i++) {
      Expression e = output.get(i);
      for (int hops = 0; hops < 64 && e instanceof AttributeReference r && defined.containsKey(r.exprId()); hops++) {
        e = defined.get(((AttributeReference) e).exprId());
      }
      out[i] = !output.get(i).nullable() || !e.nullable();
    }
    return out;
  }

  /**
   * {@code changes} (OP last) with the kind's name or code first, kinds without a code dropped;
   * each column as nullable as {@code table}'s (a COUNT stays NOT NULL, as in Flink's TO_CHANGELOG).
   */
  private static Dataset<Row> withOperation(Dataset<Row> changes, JTable table, String opName,
      Map<String, String> mapping) {
    Column kind = when(col(Changelog.OP).equalTo("+I"), lit("INSERT"))
        .when(col(Changelog.OP).equalTo("-U"), lit("UPDATE_BEFORE"))
        .when(col(Changelog.OP).equalTo("+U"), lit("UPDATE_AFTER"))
        .otherwise(lit("DELETE"));
    Column code = kind;
    if (mapping != null) {
      Column mapped = null;
      for (Map.Entry<String, String> m : mapping.entrySet()) {
        for (String k : m.getKey().split(",")) {
          Column c = kind.equalTo(k.strip());
          mapped = mapped == null ? when(c, lit(m.getValue())) : mapped.when(c, lit(m.getValue()));
        }
      }
      code = mapped == null ? lit(null).cast("string") : mapped;
    }
    String[] names = changes.columns();
    List<Column> cols = new ArrayList<>();
    // NULLIF(code, NULL): the code typed nullable, as Flink types the column (STRING).
    cols.add(nullif(code, lit(null).cast("string")).as(opName));
    boolean[] notNull = notNull(table.df.queryExecution().analyzed());
    for (int i = 0; i < names.length - 1; i++) {
      Column c = changes.col("`" + names[i].replace("`", "``") + "`");
      // The change rows are computed by processors whose output Spark types nullable.
      cols.add(i < notNull.length && notNull[i] ? new Column(ExpressionColumnNode.apply(new KnownNotNull(ColumnNodeToExpressionConverter$.MODULE$.apply(c.node())),
          ExpressionColumnNode.apply$default$2())).as(names[i]) : c);
    }
    Dataset<Row> out = changes.select(cols.toArray(new Column[0]));
    return mapping == null ? out : out.filter(col("`" + opName + "`").isNotNull());
  }
}
