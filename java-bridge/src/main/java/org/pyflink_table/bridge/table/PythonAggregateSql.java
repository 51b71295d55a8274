package org.pyflink_table.bridge.table;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal$;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.PythonUDAF;
import org.apache.spark.sql.catalyst.expressions.PythonUDF;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.classic.ExpressionColumnNode;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.protocol.Protocol;
import org.pyflink_table.bridge.udf.PythonAggregateFunction;

/**
 * A batch SQL aggregation that calls Python aggregate functions next to built-in ones
 * ({@code SELECT k, f(v), SUM(v) FROM t GROUP BY k}), planned as {@link PythonAggregateSelect}
 * plans the Table API's {@code group_by(...).select(...)}: Spark's planner cannot run its
 * grouped-aggregate UDFs beside other aggregates in one aggregation, so the Python calls are
 * aggregated alone, the built-in calls alone, both by the same keys, and the two joined on them
 * (NULL-safe; without keys, the built-in row right-joined to the Python one, which zero rows lack). The aggregation's own results are
 * then computed over the joined row under their original ids, so HAVING, ORDER BY and the
 * projections above still resolve. Streaming mode keeps the single aggregation: its changelog
 * runs both kinds in one operator (bridge.streaming.Changelog), as PyFlink does.
 */
public final class PythonAggregateSql {
  private PythonAggregateSql() {}

  private static final String KEY = "__pft_sk";
  private static final String RESULT = "__pft_sr";
  private static final String OTHER_KEY = "__pft_sok";
  private static final String OTHER = "__pft_so";

  /** {@code rows} (a batch SQL query's) with each mixed aggregation split; {@code rows} itself when none is. */
  public static Dataset<Row> of(Dataset<Row> rows) {
    LogicalPlan plan = rows.queryExecution().analyzed();
    SparkSession spark = (SparkSession) rows.sparkSession();
    LogicalPlan out = split(spark, plan);
    return out == plan ? rows : org.apache.spark.sql.classic.Dataset.ofRows(spark, out);
  }

  /**
   * A bounded stream's SQL query (streaming mode) with each mixed group-window aggregation split:
   * a window fires once, so the two sides run as batch aggregations, each of whose late rows
   * bridge.streaming.BoundedEventTime drops below it as PyFlink does (none beside a general Python
   * function, whose Python window operator keeps them). Other aggregations stay whole: their
   * changelog runs both kinds in one operator.
   */
  public static Dataset<Row> ofGroupWindows(Dataset<Row> rows) {
    LogicalPlan plan = rows.queryExecution().analyzed();
    SparkSession spark = (SparkSession) rows.sparkSession();
    LogicalPlan out = split(spark, plan, true);
    return out == plan ? rows : org.apache.spark.sql.classic.Dataset.ofRows(spark, out);
  }

  private static LogicalPlan split(SparkSession spark, LogicalPlan p) {
    return split(spark, p, false);
  }

  private static LogicalPlan split(SparkSession spark, LogicalPlan p, boolean windowsOnly) {
    LogicalPlan q = ScalaInterop.mapChildren(p, c -> split(spark, c, windowsOnly));
    if (!(q instanceof Aggregate)) return q;
    Aggregate a = (Aggregate) q;
    if (windowsOnly && !groupsByWindow(a)) return q;
    List<Expression> python = new ArrayList<>();
    List<Expression> builtIns = new ArrayList<>();
    for (NamedExpression ne : ScalaInterop.list(a.aggregateExpressions())) {
      collect((Expression) (Object) ne, python, builtIns);
    }
    return python.isEmpty() || builtIns.isEmpty() ? q : split(spark, a, python, builtIns);
  }

  private static LogicalPlan split(SparkSession spark, Aggregate a, List<Expression> python, List<Expression> builtIns) {
    List<Expression> keys = ScalaInterop.list(a.groupingExpressions());
    Dataset<Row> in = org.apache.spark.sql.classic.Dataset.ofRows(spark, a.child());
    // Without keys, grouped by a constant: Spark's MergeSubplans merges two global aggregations of
    // one input and fails on a Python one; over no rows this side has no row, the built-in global
    // aggregation still one (SQL's: NULL sums, 0 counts), which the right join keeps (Python results NULL).
    Dataset<Row> pythonSide = keys.isEmpty()
        ? aggregate(in, List.of(Literal$.MODULE$.apply(0)), KEY, python, RESULT).drop(KEY + 0)
        : aggregate(in, keys, KEY, python, RESULT);
    Dataset<Row> builtInSide = aggregate(in, keys, OTHER_KEY, builtIns, OTHER);
    if (groupsByWindow(a) && callsGeneral(python)) PythonAggregateSelect.markCountsLateRows(builtInSide);
    Dataset<Row> joined;
    if (keys.isEmpty()) {
      joined = pythonSide.join(builtInSide, functions.lit(true), "right");
    } else {
      Column on = null;
      for (int k = 0; k < keys.size(); k++) {
        Column eq = pythonSide.col(KEY + k).eqNullSafe(builtInSide.col(OTHER_KEY + k));
        on = on == null ? eq : on.and(eq);
      }
      joined = pythonSide.join(builtInSide, on, "inner");
    }
    LogicalPlan plan = joined.queryExecution().analyzed();
    // Output: keys, Python results, keys again, built-in results.
    List<Attribute> out = ScalaInterop.list(plan.output());
    List<Attribute> keyAttrs = out.subList(0, keys.size());
    List<Attribute> pythonAttrs = out.subList(keys.size(), keys.size() + python.size());
    List<Attribute> builtInAttrs = out.subList(2 * keys.size() + python.size(), out.size());
    List<NamedExpression> restored = new ArrayList<>();
    for (NamedExpression ne : ScalaInterop.list(a.aggregateExpressions())) {
      Expression value = ne instanceof Alias ? ((Alias) ne).child() : (Expression) (Object) ne;
      Expression replaced = replace(value, keys, keyAttrs, python, pythonAttrs, builtIns, builtInAttrs);
      restored.add(new Alias(replaced, ne.name(), ne.exprId(), ne.qualifier(), scala.Option.apply(ne.metadata()),
          ScalaInterop.seq(List.of())));
    }
    return new Project(ScalaInterop.seq(restored), plan);
  }

  /** Whether {@code a} groups by a group window's struct (start, end). */
  private static boolean groupsByWindow(Aggregate a) {
    for (Expression g : ScalaInterop.list(a.groupingExpressions())) {
      if (g.dataType() instanceof StructType t && t.fields().length == 2 && t.fields()[0].name().equals("start")
          && t.fields()[1].name().equals("end")) {
        return true;
      }
    }
    return false;
  }

  /** Whether one of the Python calls is a general (not pandas) aggregate function. */
  private static boolean callsGeneral(List<Expression> python) {
    for (Expression e : python) if (!PythonAggregateFunction.isPandas(e)) return true;
    return false;
  }

  /** {@code in} grouped by {@code keys} (named {@code keyPrefix}i) computing {@code calls} (named {@code prefix}j). */
  private static Dataset<Row> aggregate(Dataset<Row> in, List<Expression> keys, String keyPrefix,
      List<Expression> calls, String prefix) {
    List<Column> aggs = new ArrayList<>();
    for (int j = 0; j < calls.size(); j++) aggs.add(column(calls.get(j)).as(prefix + j));
    Column first = aggs.get(0);
    Column[] rest = JTable.asArray(aggs.subList(1, aggs.size()));
    if (keys.isEmpty()) return in.agg(first, rest);
    List<Column> grouping = new ArrayList<>();
    for (int k = 0; k < keys.size(); k++) grouping.add(column(keys.get(k)).as(keyPrefix + k));
    return in.groupBy(JTable.asArray(grouping)).agg(first, rest);
  }

  private static Column column(Expression e) {
    return new Column(ExpressionColumnNode.apply(e, ExpressionColumnNode.apply$default$2()));
  }

  /** Collects the Python aggregate calls and the built-in aggregate calls of {@code e}, each once. */
  private static void collect(Expression e, List<Expression> python, List<Expression> builtIns) {
    if (isPython(e)) {
      if (indexOf(python, e) < 0) python.add(e);
      return;
    }
    if (e instanceof AggregateExpression) {
      if (indexOf(builtIns, e) < 0) builtIns.add(e);
      return;
    }
    for (Expression c : ScalaInterop.list(e.children())) collect(c, python, builtIns);
  }

  /** A Python aggregate call: SQL resolves them as Spark's PythonUDAF (or a grouped-aggregate pandas UDF). */
  private static boolean isPython(Expression e) {
    if (e instanceof AggregateExpression) return ((AggregateExpression) e).aggregateFunction() instanceof PythonUDAF;
    return e instanceof PythonUDAF
        || e instanceof PythonUDF && ((PythonUDF) e).evalType() == Protocol.EVAL_GROUPED_AGG_PANDAS_UDF;
  }

  private static int indexOf(List<Expression> calls, Expression e) {
    for (int i = 0; i < calls.size(); i++) if (calls.get(i).semanticEquals(e)) return i;
    return -1;
  }

  /** {@code e} over the joined row: each call and grouping expression read from the column holding it. */
  private static Expression replace(Expression e, List<Expression> keys, List<Attribute> keyAttrs,
      List<Expression> python, List<Attribute> pythonAttrs, List<Expression> builtIns, List<Attribute> builtInAttrs) {
    int i = isPython(e) ? indexOf(python, e) : -1;
    if (i >= 0) return pythonAttrs.get(i);
    i = e instanceof AggregateExpression ? indexOf(builtIns, e) : -1;
    if (i >= 0) return builtInAttrs.get(i);
    i = indexOf(keys, e);
    if (i >= 0) return keyAttrs.get(i);
    return ScalaInterop.mapChildren(e, c -> replace(c, keys, keyAttrs, python, pythonAttrs, builtIns, builtInAttrs));
  }
}
