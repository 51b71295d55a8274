package org.pyflink_table.bridge.streaming;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.CreateStruct;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.table.JTable;
import org.pyflink_table.bridge.udf.PackedAggregation;

/**
 * An updating aggregation over an unbounded source: Spark's streaming aggregation in Update mode
 * (its state in the checkpoint) emits, per micro-batch, the new result of each key it touched. The
 * changelog needs the previous result too: each output row carries three hidden columns, the group
 * key ({@link #KEY}), the aggregate results ({@link #VALUE}) and whether the row passes the filters
 * above the aggregation ({@link #KEEP}); the driver keeps each key's last row and emits {@code +I},
 * or {@code -U} old / {@code +U} new when the results changed (a filter above applies to each change,
 * as Flink's Calc does). Projections and filters may follow the aggregation; nothing else may.
 */
public final class UpdatingStreams {
  private UpdatingStreams() {}

  /** Hidden trailing columns of {@link #of}, in this order. */
  public static final String KEY = "__pft_ukey";
  public static final String VALUE = "__pft_uvalue";
  public static final String KEEP = "__pft_ukeep";

  /** The table's stream with the hidden columns, or null when it is insert-only. */
  public static Dataset<Row> of(JTable table) {
    return of(table.env.spark, table.df);
  }

  /** The stream with the hidden columns, or null when it is insert-only. */
  public static Dataset<Row> of(org.apache.spark.sql.SparkSession spark, Dataset<Row> df) {
    LogicalPlan plan = df.queryExecution().analyzed();
    if (Changelog.updatingNode(plan) == null) return null;
    Jobs.checkSorts(plan);
    if (needsProcessor(plan)) {
      // Every path sends these to the processor first (execute(); inserts into print and blackhole
      // take RetractingStreams.changes for any updating stream; other sinks refuse updates as Flink).
      throw TableException.unsupported("a Python or DISTINCT aggregate in Spark's Update-mode aggregation (such an "
          + "updating aggregation runs on the retracting-aggregation processor, RetractingStreams.changes)");
    }
    LogicalPlan rewritten = rewrite(plan);
    SparkSession session = (SparkSession) spark;
    Dataset<Row> out = org.apache.spark.sql.classic.Dataset.ofRows(session, rewritten);
    return Jobs.streamOf(spark, out, false);
  }

  /**
   * Whether the table's updating aggregation over an unbounded source is one Spark's Update-mode
   * aggregation cannot compute: a Python aggregate function (general or pandas), a DISTINCT
   * aggregate. It then runs on the retracting-aggregation processor ({@link RetractingStreams#changes}),
   * which emits Flink's changes (pandas aggregate functions are refused there, as PyFlink does).
   */
  public static boolean needsProcessor(JTable table) {
    return needsProcessor(table.df.queryExecution().analyzed());
  }

  private static boolean needsProcessor(LogicalPlan p) {
    if (!p.isStreaming()) return false;
    if (PackedAggregation.aggregationOf(p) != null) return true;
    if (p instanceof Aggregate && !Changelog.isWindowed((Aggregate) p)) {
      Aggregate a = (Aggregate) p;
      if (Changelog.pythonAggregate(a) != null) return true;
      for (NamedExpression e : ScalaInterop.list(a.aggregateExpressions())) if (distinct((Expression) (Object) e)) return true;
    }
    for (LogicalPlan c : ScalaInterop.list(p.children())) if (needsProcessor(c)) return true;
    return false;
  }

  /** {@code p} with the hidden columns; Python and DISTINCT aggregates are not here ({@link #of} checked). */
  private static LogicalPlan rewrite(LogicalPlan p) {
    if (p instanceof Aggregate && !Changelog.isWindowed((Aggregate) p)) {
      Aggregate a = (Aggregate) p;
      String below = Changelog.updatingNode(a.child());
      if (below != null) throw unsupported("an aggregation of the updating " + below);
      List<NamedExpression> items = new ArrayList<>(ScalaInterop.list(a.aggregateExpressions()));
      List<Expression> keys = ScalaInterop.list(a.groupingExpressions());
      List<Expression> values = new ArrayList<>();
      for (NamedExpression e : ScalaInterop.list(a.aggregateExpressions())) {
        values.add(e instanceof Alias ? ((Alias) e).child() : (Expression) (Object) e);
      }
      Expression key = keys.isEmpty() ? (Expression) Literal.create(0, DataTypes.IntegerType)
          : (Expression) CreateStruct.apply(ScalaInterop.seq(keys));
      items.add(Changelog.alias(key, KEY));
      items.add(Changelog.alias(CreateStruct.apply(ScalaInterop.seq(values)), VALUE));
      items.add(Changelog.alias(Literal.create(true, DataTypes.BooleanType), KEEP));
      return new Aggregate(a.groupingExpressions(), ScalaInterop.seq(items), a.child(), a.hint());
    }
    if (p instanceof Project || p instanceof Filter || p instanceof SubqueryAlias) {
      if (Changelog.updatingNode(p.children().head()) == null) return p;
      LogicalPlan child = rewrite(p.children().head());
      List<Attribute> hidden = hidden(child);
      if (p instanceof Project) {
        List<NamedExpression> items = new ArrayList<>(ScalaInterop.list(((Project) p).projectList()));
        items.addAll(hidden);
        return new Project(ScalaInterop.seq(items), child);
      }
      if (p instanceof Filter) {
        // The filter decides per change whether it is emitted; every row stays for the driver.
        List<NamedExpression> items = new ArrayList<>();
        for (Attribute a : ScalaInterop.list(child.output())) if (!a.exprId().equals(hidden.get(2).exprId())) items.add(a);
        items.add(Changelog.alias(new And(hidden.get(2), ((Filter) p).condition()), KEEP));
        return new Project(ScalaInterop.seq(items), child);
      }
      return p.withNewChildren(ScalaInterop.seq(List.of(child)));
    }
    String node = Changelog.updatingNode(p);
    throw unsupported(p.nodeName() + " over the updating " + node);
  }

  private static boolean distinct(Expression e) {
    if (e instanceof AggregateExpression && ((AggregateExpression) e).isDistinct()) return true;
    for (Expression c : ScalaInterop.list(e.children())) if (distinct(c)) return true;
    return false;
  }

  private static List<Attribute> hidden(LogicalPlan p) {
    List<Attribute> out = new ArrayList<>();
    for (String name : List.of(KEY, VALUE, KEEP)) {
      for (Attribute a : ScalaInterop.list(p.output())) if (a.name().equals(name)) out.add(a);
    }
    return out;
  }

  private static TableException unsupported(String what) {
    return TableException.unsupported(what + " over an unbounded source in streaming mode (an updating aggregation "
        + "of built-in aggregates, followed by projections and filters, is supported)");
  }
}
