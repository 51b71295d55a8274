package org.pyflink_table.bridge.streaming;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.python.SimplePythonFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.analysis.MultiInstanceRelation;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression$;
import org.apache.spark.sql.catalyst.expressions.NullsFirst$;
import org.apache.spark.sql.catalyst.expressions.RowFrame$;
import org.apache.spark.sql.catalyst.expressions.PythonUDAF;
import org.apache.spark.sql.catalyst.expressions.SortOrder;
import org.apache.spark.sql.catalyst.expressions.SpecifiedWindowFrame;
import org.apache.spark.sql.catalyst.expressions.WindowExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateFunction;
import org.apache.spark.sql.catalyst.expressions.aggregate.Average;
import org.apache.spark.sql.catalyst.expressions.aggregate.Count;
import org.apache.spark.sql.catalyst.expressions.aggregate.Max;
import org.apache.spark.sql.catalyst.expressions.aggregate.Min;
import org.apache.spark.sql.catalyst.expressions.aggregate.Sum;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.plans.logical.View;
import org.apache.spark.sql.catalyst.plans.logical.Window;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.execution.python.UserDefinedPythonFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructType;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.udf.PythonAggregateFunction;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.protocol.Protocol;
import org.pyflink_table.bridge.table.TableContext;
import org.pyflink_table.bridge.udf.PythonCommand;
import org.pyflink_table.bridge.window.StreamOverSql;

/**
 * An {@code UNBOUNDED PRECEDING} over window ordered by a non-time column over an unbounded source
 * (SQL), which Flink runs with an updating result ({@code NonTimeRowsUnboundedPrecedingFunction},
 * {@code NonTimeRangeUnboundedPrecedingFunction}): the worker's processor
 * ({@code pyflink_table._worker.stream_changelogs.NonTimeOverProcessor}) keeps each partition key's
 * rows sorted by the order column and emits {@code +I} for a new row and {@code -U}/{@code +U} for
 * each later row (and, in a RANGE frame, each earlier peer) whose aggregates change. Built-in
 * SUM, COUNT, MIN, MAX and AVG only; the others are refused by name.
 */
final class NonTimeOver {
  private NonTimeOver() {}

  /** The processor's input rows, its key count, its layout and its output type. */
  record Planned(Dataset<Row> rows, int keys, String layout, StructType output) {}

  /** The processor's input and layout for {@code w} ({@link org.pyflink_table.bridge.window.StreamOverSql#isNonTimeUnbounded}). */
  static Planned plan(TableContext env, Window w) {
    return plan(env, w, false);
  }

  /** {@link #plan(TableContext, Window)}; with {@code position}, a last column {@code pos}: each row's arrival position. */
  private static Planned plan(TableContext env, Window w, boolean position) {
    Dataset<Row> in = org.apache.spark.sql.classic.Dataset.ofRows((SparkSession) env.spark, w.child());
    List<Column> cols = new ArrayList<>();
    List<Expression> partition = ScalaInterop.list(w.partitionSpec());
    if (partition.isEmpty()) cols.add(functions.lit(0).as("k0"));
    for (int i = 0; i < partition.size(); i++) cols.add(Jobs.column(partition.get(i)).as("k" + i));
    SortOrder order = ScalaInterop.list(w.orderSpec()).get(0);
    cols.add(Jobs.column(order.child()).as("s0"));
    List<Map<String, Object>> aggregates = new ArrayList<>();
    List<Column> arguments = new ArrayList<>();
    boolean rows = false;
    List<NamedExpression> exprs = ScalaInterop.list(w.windowExpressions());
    for (int j = 0; j < exprs.size(); j++) {
      WindowExpression we = (WindowExpression) ((Alias) exprs.get(j)).child();
      rows = ((SpecifiedWindowFrame) we.windowSpec().frameSpecification()).frameType() == RowFrame$.MODULE$;
      AggregateExpression ae = (AggregateExpression) we.windowFunction();
      AggregateFunction f = ae.aggregateFunction();
      String function = f instanceof Sum ? "sum" : f instanceof Count ? "count" : f instanceof Min ? "min"
          : f instanceof Max ? "max" : f instanceof Average ? "avg" : null;
      List<Expression> children = ScalaInterop.list(f.children());
      // Python aggregates: PyFlink 2.3 refuses both kinds here too, with these first lines (measured
      // in streaming mode over from_elements, ROWS and RANGE frames).
      if (PythonAggregateFunction.isPandas(ae)) {
        throw new TableException("OVER windows' ordering in stream mode must be defined on a time attribute.\n"
            + "The pandas aggregate " + ae.sql().replace("`", "") + " in an over window ordered by the non-time column "
            + order.child().sql().replace("`", "") + ".");
      }
      if (f instanceof PythonUDAF) {
        throw new TableException("Cannot generate a valid execution plan for the given query: \n"
            + "The Python aggregate " + ae.sql().replace("`", "") + " in an over window ordered by the non-time column "
            + order.child().sql().replace("`", "") + " in streaming mode.");
      }
      if (function == null || children.size() != 1 || ae.filter().isDefined()) {
        throw refused("the aggregate " + ae.sql().replace("`", ""));
      }
      if (children.get(0).dataType() instanceof DecimalType) {
        throw refused("the aggregate " + ae.sql().replace("`", "") + " of a DECIMAL");
      }
      Map<String, Object> spec = new LinkedHashMap<>();
      spec.put("function", function);
      spec.put("distinct", ae.isDistinct());
      spec.put("integral", integral(f.dataType()));
      aggregates.add(spec);
      arguments.add(Jobs.column(children.get(0)).as("a" + j));
    }
    cols.add(functions.to_json(functions.struct(arguments.toArray(new Column[0]))).as("args"));
    cols.add(RetractingStreams.asJson(ScalaInterop.list(w.child().output())).as("row"));
    // Arrival order, as Changelog numbers the rows of bounded input (a bounded source emits them in it).
    if (position) cols.add(functions.monotonically_increasing_id().as("pos"));
    StructType output = new StructType().add("row", DataTypes.StringType, true)
        .add("values", DataTypes.StringType, true).add("op", DataTypes.StringType, true);
    Map<String, Object> layout = new LinkedHashMap<>();
    layout.put("keys", Math.max(partition.size(), 1));
    layout.put("ascending", true);
    layout.put("nulls_first", order.nullOrdering() == NullsFirst$.MODULE$);
    layout.put("rows", rows);
    layout.put("aggregates", aggregates);
    layout.put("output", output.json());
    return new Planned(in.select(cols.toArray(new Column[0])), Math.max(partition.size(), 1),
        PythonCommand.json(layout), output);
  }

  /**
   * The changes of {@code w} over bounded input in streaming mode, as Flink's operator makes them
   * from a bounded source (every row in arrival order, then the end of input): the worker's
   * {@code BoundedNonTimeOver} (the processor's logic without Spark state) over each key's rows in
   * arrival order. Columns: the Window's output, then {@link Changelog#OP}, {@link Changelog#SEQ}
   * (the arrival position of the row that made the change) and {@link Changelog#SUB} (the change's
   * place among that row's changes).
   */
  static Dataset<Row> bounded(TableContext env, Window w) {
    // Its changes re-enter the plan under the window's own output ids (Changelog.withOutputOf); read
    // below them under the same ids, the source's columns would clash with them (Spark's analyzer then
    // renews the ids above, and the nodes reading them, e.g. an aggregation, miss their columns).
    Planned planned = plan(env, (Window) freshIds(w, new HashMap<>()), true);
    Dataset<Row> rows = planned.rows();
    Column[] byKey = new Column[planned.keys()];
    Column[] sort = new Column[planned.keys() + 1];
    for (int i = 0; i < planned.keys(); i++) byKey[i] = sort[i] = rows.col("k" + i);
    sort[planned.keys()] = rows.col("pos");
    rows = rows.repartition(byKey).sortWithinPartitions(sort);
    StructType output = new StructType().add("row", DataTypes.StringType, true)
        .add("values", DataTypes.StringType, true).add("op", DataTypes.StringType, true)
        .add("pos", DataTypes.LongType, true).add("sub", DataTypes.IntegerType, true);
    SimplePythonFunction t = RetractingAggregates.worker(env);
    SimplePythonFunction runner = new SimplePythonFunction(PythonCommand.call(Protocol.STREAM_CHANGELOG_MODULE,
        Protocol.BOUNDED_NON_TIME_OVER_FUNCTION, planned.layout()), t.envVars(), t.pythonIncludes(), t.pythonExec(),
        t.pythonVer(), t.broadcastVars(), t.accumulator());
    UserDefinedPythonFunction udf = new UserDefinedPythonFunction(Protocol.BOUNDED_NON_TIME_OVER_FUNCTION, runner,
        output, Protocol.EVAL_MAP_ARROW_ITER_UDF, true, List.of(), List.of());
    List<Column> all = new ArrayList<>();
    for (String c : rows.columns()) all.add(rows.col(c));
    Dataset<Row> changes = ((org.apache.spark.sql.classic.Dataset<Row>) rows)
        .mapInArrow(udf.apply(ScalaInterop.seq(all)), false, null);
    List<Column> out = values(changes, w);
    out.set(out.size() - 1, changes.col("op").as(Changelog.OP));
    out.add(changes.col("pos").as(Changelog.SEQ));
    out.add(changes.col("sub").as(Changelog.SUB));
    return changes.select(out.toArray(new Column[0]));
  }

  /**
   * {@code p} with fresh ids for every column it defines (its leaf relations re-instanced, its
   * aliases renewed; the old ids' new attributes recorded in {@code renewed}) and the references renamed.
   */
  private static LogicalPlan freshIds(LogicalPlan p, Map<ExprId, Attribute> renewed) {
    if (p instanceof MultiInstanceRelation && p.children().isEmpty()) {
      LogicalPlan fresh = ((MultiInstanceRelation) p).newInstance();
      List<Attribute> before = ScalaInterop.list(p.output());
      List<Attribute> after = ScalaInterop.list(fresh.output());
      for (int i = 0; i < before.size(); i++) renewed.put(before.get(i).exprId(), after.get(i));
      return fresh;
    }
    LogicalPlan node = ScalaInterop.mapChildren(p, c -> freshIds(c, renewed));
    return (LogicalPlan) node.transformExpressions(ScalaInterop.everywhere((Expression e) -> {
      if (e instanceof AttributeReference && renewed.containsKey(((Attribute) e).exprId())) {
        return renewed.get(((Attribute) e).exprId()).withNullability(e.nullable());
      }
      if (e instanceof Alias) {
        Alias a = (Alias) e;
        Alias fresh = new Alias(a.child(), a.name(), NamedExpression$.MODULE$.newExprId(), a.qualifier(),
            a.explicitMetadata(), a.nonInheritableMetadataKeys());
        renewed.put(a.exprId(), fresh.toAttribute());
        return fresh;
      }
      return e;
    }));
  }

  /** The Window's output (its input's columns, then one per aggregate) and the kind, from the processor's changes. */
  static List<Column> values(Dataset<Row> changes, Window w) {
    List<Column> out = RetractingStreams.fromJson(changes.col("row"), ScalaInterop.list(w.child().output()));
    List<NamedExpression> exprs = ScalaInterop.list(w.windowExpressions());
    StructType schema = new StructType();
    for (int j = 0; j < exprs.size(); j++) schema = schema.add("r" + j, ((Alias) exprs.get(j)).dataType(), true);
    Column parsed = functions.from_json(changes.col("values"), schema);
    for (int j = 0; j < exprs.size(); j++) out.add(parsed.getField("r" + j));
    out.add(changes.col("op"));
    return out;
  }

  /**
   * Whether {@code p}'s rows are the changes of such a window (bounded or unbounded input) through
   * projections and filters only: the columns Flink's planner takes as never updated.
   */
  static boolean feeds(LogicalPlan p) {
    if (p instanceof Window) return StreamOverSql.isNonTimeUnboundedShape((Window) p);
    if (p instanceof Project || p instanceof Filter || p instanceof SubqueryAlias || p instanceof View) {
      return feeds(p.children().head());
    }
    return false;
  }

  private static boolean integral(DataType t) {
    return t.equals(DataTypes.ByteType) || t.equals(DataTypes.ShortType) || t.equals(DataTypes.IntegerType)
        || t.equals(DataTypes.LongType);
  }

  private static TableException refused(String what) {
    return TableException.unsupported(what + " in an UNBOUNDED PRECEDING over window ordered by a non-time column "
        + "in streaming mode (SUM, COUNT, MIN, MAX and AVG are supported)");
  }
}
