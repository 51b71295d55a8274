package org.pyflink_table.bridge.streaming;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.api.python.SimplePythonFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.PythonUDAF;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateFunction;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.classic.RelationalGroupedDataset;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.execution.python.UserDefinedPythonFunction;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructType;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.expressions.JsonAggregates;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.protocol.Protocol;
import org.pyflink_table.bridge.table.StateTtl;
import org.pyflink_table.bridge.table.TableContext;
import org.pyflink_table.bridge.udf.PackedAggregation;
import org.pyflink_table.bridge.udf.PythonAggregateFunction;
import org.pyflink_table.bridge.udf.PythonCommand;
import scala.Option;

/**
 * An aggregation (group_by without a window, a global aggregate, SQL GROUP BY) of an updating
 * table: each input change is accumulated ({@code +I}, {@code +U}) or retracted ({@code -U},
 * {@code -D}) by Flink's retractable accumulators in {@code pyflink_table._worker.retracting_aggregation},
 * which emits Flink's changes ({@code +I}, {@code -U}/{@code +U}, {@code -D} when a key's last row
 * is retracted). Spark's own aggregations cannot retract, so the aggregate functions run in
 * Python; the expressions around them (casts, arithmetic over results) stay Spark's. Keys,
 * arguments and results cross as JSON text, exact for every type. Over bounded input the changes
 * are computed in one batch job ({@code mapInArrow} over the input changes sorted by key and
 * arrival), over unbounded input in a {@code transformWithStateInPandas} processor keyed by the
 * group keys.
 */
public final class RetractingAggregates {
  private RetractingAggregates() {}

  private static final String ROCKSDB = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";
  /** Microseconds kept when timestamps cross as JSON text (Spark's default keeps milliseconds). */
  private static final Map<String, String> JSON_OPTIONS = Map.of("timestampFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSSSS",
      "timestampNTZFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSSSS");
  /** Spark's aggregate functions evaluated here, by their SQL name, as the worker names them. */
  private static final Map<String, String> BUILT_INS = Map.ofEntries(Map.entry("count", "count"),
      Map.entry("sum", "sum"), Map.entry("avg", "avg"), Map.entry("min", "min"), Map.entry("max", "max"),
      Map.entry("first_value", "first_value"), Map.entry("first", "first_value"),
      Map.entry("last_value", "last_value"), Map.entry("last", "last_value"), Map.entry("listagg", "listagg"),
      Map.entry("stddev_pop", "stddev_pop"), Map.entry("stddev_samp", "stddev_samp"),
      Map.entry("stddev", "stddev_samp"), Map.entry("var_pop", "var_pop"), Map.entry("var_samp", "var_samp"),
      Map.entry("variance", "var_samp"));

  /**
   * The Python worker of {@code env} (its interpreter and shipped files): the stateful operators
   * without a Python function of their own run there. The driver hands it to the environment
   * ({@link TableContext#useWorkerTemplate}) before planning a streaming query and before each job.
   */
  static SimplePythonFunction worker(TableContext env) {
    Object template = env.workerTemplate();
    if (template == null) throw new TableException("No Python worker environment is set for a stateful operator.");
    return (SimplePythonFunction) ((UserDefinedPythonFunction) template).func();
  }

  /** The aggregate calls of one select and what the worker needs for each. */
  private static final class Calls {
    final List<Expression> calls = new ArrayList<>();
    final List<Map<String, Object>> specs = new ArrayList<>();
    final List<Column> arguments = new ArrayList<>();
    final List<byte[]> evaluators = new ArrayList<>();
    SimplePythonFunction environment;

    int indexOf(Expression call) {
      for (int i = 0; i < calls.size(); i++) if (calls.get(i).semanticEquals(call)) return i;
      return -1;
    }
  }

  /** The changes of {@code a} over bounded {@code input} (its changes with OP, SEQ and SUB), with OP, SEQ and SUB. */
  static LogicalPlan bounded(TableContext env, Aggregate a, LogicalPlan input, long bundleSize) {
    Calls calls = collect(a);
    Dataset<Row> changes = boundedChanges(env, input, ScalaInterop.list(a.groupingExpressions()), calls, bundleSize);
    return restore(a, calls, changes, List.of(changes.col("op").as(Changelog.OP), changes.col("pos").as(Changelog.SEQ),
        changes.col("sub").as(Changelog.SUB)));
  }

  /**
   * The changes of {@code node}, the Table API's aggregation of Python functions {@code packed},
   * over bounded {@code input} (the changes of its input), with OP, SEQ and SUB.
   */
  static LogicalPlan boundedPython(TableContext env, LogicalPlan node, PackedAggregation.Aggregation packed,
      LogicalPlan input, long bundleSize) {
    List<Expression> keys = new ArrayList<>();
    Calls calls = pythonCalls(packed, keys);
    Dataset<Row> changes = boundedChanges(env, input, keys, calls, bundleSize);
    return restorePython(node, keys.size(), calls, changes, List.of(changes.col("op"), changes.col("pos"),
        changes.col("sub")), List.of(Changelog.OP, Changelog.SEQ, Changelog.SUB));
  }

  /**
   * The changes of {@code node}, the Table API's aggregation of Python functions {@code packed},
   * over unbounded {@code input} (the changes of its input, OP last), with OP last: as the SQL
   * aggregation of Python functions, once per key and micro-batch.
   */
  static LogicalPlan unboundedPython(TableContext env, LogicalPlan node, PackedAggregation.Aggregation packed,
      LogicalPlan input) {
    for (PythonAggregateFunction f : packed.calls()) {
      if (f.isPandas()) throw PythonAggregateFunction.pandasWithoutWindowRefused(f.name());
    }
    List<Expression> keys = new ArrayList<>();
    Calls calls = pythonCalls(packed, keys);
    Dataset<Row> changes = unboundedChanges(env, input, keys, calls);
    return restorePython(node, keys.size(), calls, changes, List.of(changes.col("op")), List.of(Changelog.OP));
  }

  /** The calls of {@code packed} for the worker; its group keys, resolved against its input, into {@code keys}. */
  private static Calls pythonCalls(PackedAggregation.Aggregation packed, List<Expression> keys) {
    // The key and argument columns, resolved against the aggregation's input (whose ids the changes keep).
    List<Column> columns = new ArrayList<>(packed.keyCols());
    for (List<Column> a : packed.args()) columns.addAll(a);
    List<NamedExpression> resolved = ScalaInterop.list(
        ((Project) packed.df().select(columns.toArray(new Column[0])).queryExecution().analyzed()).projectList());
    for (int i = 0; i < packed.keyCols().size(); i++) keys.add(unalias(resolved.get(i)));
    Calls calls = new Calls();
    int next = keys.size();
    for (int j = 0; j < packed.calls().size(); j++) {
      Object[] found = packed.calls().get(j).evaluatorAndEnvironment();
      Map<String, Object> spec = new LinkedHashMap<>();
      spec.put("function", "python");
      spec.put("evaluator", j);
      calls.evaluators.add((byte[]) found[0]);
      calls.environment = (SimplePythonFunction) found[1];
      List<List<String>> named = new ArrayList<>();
      for (int m = 0; m < packed.args().get(j).size(); m++) {
        Expression arg = unalias(resolved.get(next++));
        String field = "a" + j + "_" + m;
        calls.arguments.add(Jobs.column(arg).as(field));
        named.add(List.of(field, arg.dataType().typeName()));
      }
      spec.put("arguments", named);
      spec.put("result", "python");
      calls.specs.add(spec);
    }
    return calls;
  }

  /** {@code node}'s output (same ids) read from the processor's {@code changes}, then {@code hidden} under {@code names}. */
  private static LogicalPlan restorePython(LogicalPlan node, int keyCount, Calls calls, Dataset<Row> changes,
      List<Column> hidden, List<String> names) {
    List<Attribute> outputs = ScalaInterop.list(node.output());
    StructType keySchema = new StructType();
    for (int i = 0; i < keyCount; i++) keySchema = keySchema.add("c" + i, outputs.get(i).dataType(), true);
    StructType valueSchema = new StructType();
    for (int j = 0; j < calls.specs.size(); j++) {
      valueSchema = valueSchema.add("r" + j, outputs.get(keyCount + j).dataType(), true);
    }
    List<Column> cols = new ArrayList<>();
    for (int i = 0; i < keyCount; i++) {
      cols.add(functions.from_json(changes.col("key"), keySchema, JSON_OPTIONS).getField("c" + i));
    }
    for (int j = 0; j < calls.specs.size(); j++) {
      cols.add(functions.from_json(changes.col("values"), valueSchema, JSON_OPTIONS).getField("r" + j));
    }
    cols.addAll(hidden);
    LogicalPlan parsed = changes.select(cols.toArray(new Column[0])).queryExecution().analyzed();
    List<Attribute> out = ScalaInterop.list(parsed.output());
    // The hidden columns first, then reordered above: a Project whose first item is an Alias of the
    // node's first output would be taken for the packed aggregation itself (PackedAggregation.aggregationOf).
    List<NamedExpression> restored = new ArrayList<>();
    for (int k = 0; k < names.size(); k++) restored.add(Changelog.alias(out.get(outputs.size() + k), names.get(k)));
    for (int i = 0; i < outputs.size(); i++) {
      Attribute like = outputs.get(i);
      restored.add(new Alias(out.get(i), like.name(), like.exprId(), like.qualifier(), Option.apply(like.metadata()),
          ScalaInterop.seq(List.of())));
    }
    Project inner = new Project(ScalaInterop.seq(restored), parsed);
    List<Attribute> innerOut = ScalaInterop.list(inner.output());
    List<NamedExpression> ordered = new ArrayList<>(innerOut.subList(names.size(), innerOut.size()));
    ordered.addAll(innerOut.subList(0, names.size()));
    return new Project(ScalaInterop.seq(ordered), inner);
  }

  private static Expression unalias(NamedExpression e) {
    return e instanceof Alias ? ((Alias) e).child() : (Expression) (Object) e;
  }

  /** The processor's changes over bounded {@code input}: key, values, op, pos and sub. */
  private static Dataset<Row> boundedChanges(TableContext env, LogicalPlan input, List<Expression> groupKeys,
      Calls calls, long bundleSize) {
    Dataset<Row> in = org.apache.spark.sql.classic.Dataset.ofRows((SparkSession) env.spark, input);
    List<Column> cols = projection(groupKeys, in, calls);
    Column order = functions.row_number().over(Window.orderBy(in.col(Changelog.SEQ), in.col(Changelog.SUB)));
    cols.add(order.cast(DataTypes.LongType).as("pos"));
    Dataset<Row> rows = in.select(cols.toArray(new Column[0]));
    // Built-in aggregates change per input change; PyFlink's Python group aggregation per bundle.
    Column bundle = calls.environment == null ? rows.col("pos")
        : functions.floor(rows.col("pos").minus(1).divide(functions.lit(Math.max(1, bundleSize)))).cast(DataTypes.LongType);
    rows = rows.withColumn("bundle", bundle);
    int keys = Math.max(1, groupKeys.size());
    Column[] byKey = new Column[keys];
    Column[] sort = new Column[keys + 1];
    for (int i = 0; i < keys; i++) byKey[i] = sort[i] = rows.col("k" + i);
    sort[keys] = rows.col("pos");
    rows = rows.repartition(byKey).sortWithinPartitions(sort)
        .select(rows.col("key"), rows.col("op"), rows.col("args"), rows.col("pos"), rows.col("bundle"));
    StructType output = new StructType().add("key", DataTypes.StringType, true)
        .add("values", DataTypes.StringType, true).add("op", DataTypes.StringType, true)
        .add("pos", DataTypes.LongType, true).add("sub", DataTypes.IntegerType, true);
    String layout = PythonCommand.json(Map.of("aggregates", calls.specs, "per_change", calls.environment == null,
        Protocol.LAYOUT_STATE_TTL_MS, StateTtl.ms((SparkSession) env.spark)));
    UserDefinedPythonFunction udf = function(env, calls, PythonCommand.call(Protocol.RETRACTING_AGGREGATION_MODULE,
        Protocol.RETRACTING_AGGREGATION_BOUNDED, arguments(layout, calls)), output, Protocol.EVAL_MAP_ARROW_ITER_UDF);
    List<Column> all = new ArrayList<>();
    for (String c : rows.columns()) all.add(rows.col(c));
    return ((org.apache.spark.sql.classic.Dataset<Row>) rows).mapInArrow(udf.apply(ScalaInterop.seq(all)), false, null);
  }

  /** The changes of {@code a} over unbounded {@code input} (its changes with OP last), with OP last. */
  static LogicalPlan unbounded(TableContext env, Aggregate a, LogicalPlan input) {
    Calls calls = collect(a);
    Dataset<Row> changes = unboundedChanges(env, input, ScalaInterop.list(a.groupingExpressions()), calls);
    return restore(a, calls, changes, List.of(changes.col("op").as(Changelog.OP)));
  }

  /** The processor's changes over unbounded {@code input}: key, values and op. */
  private static Dataset<Row> unboundedChanges(TableContext env, LogicalPlan input, List<Expression> groupKeys,
      Calls calls) {
    SparkSession spark = (SparkSession) env.spark;
    Dataset<Row> in = org.apache.spark.sql.classic.Dataset.ofRows(spark, input);
    Dataset<Row> rows = in.select(projection(groupKeys, in, calls).toArray(new Column[0]));
    int keys = Math.max(1, groupKeys.size());
    StructType output = new StructType().add("key", DataTypes.StringType, true)
        .add("values", DataTypes.StringType, true).add("op", DataTypes.StringType, true);
    // Flink's table.exec.state.ttl: a key whose accumulators were not written for that long starts afresh.
    long ttl = StateTtl.ms(spark);
    String layout = PythonCommand.json(Map.of("aggregates", calls.specs, "keys", keys,
        "per_change", calls.environment == null, "output", output.json(), Protocol.LAYOUT_STATE_TTL_MS, ttl));
    // transformWithStateInPandas keeps its state in RocksDB only; users should not have to know.
    spark.conf().set("spark.sql.streaming.stateStore.providerClass", ROCKSDB);
    UserDefinedPythonFunction udf = function(env, calls, PythonCommand.command(Protocol.RETRACTING_AGGREGATION_MODULE,
        Protocol.RETRACTING_AGGREGATION_STREAM, arguments(layout, calls)), output,
        Protocol.EVAL_TRANSFORM_WITH_STATE_PANDAS_UDF);
    List<Column> all = new ArrayList<>();
    for (String c : rows.columns()) all.add(rows.col(c));
    Column[] byKey = new Column[keys];
    for (int i = 0; i < keys; i++) byKey[i] = rows.col("k" + i);
    return ((RelationalGroupedDataset) rows.groupBy(byKey))
        .transformWithStateInPandas(udf.apply(ScalaInterop.seq(all)), output, "Append", StateTtl.timeMode(spark),
            null, "");
  }

  private static Object[] arguments(String layout, Calls calls) {
    Object[] out = new Object[calls.evaluators.size() + 1];
    out[0] = layout;
    for (int i = 0; i < calls.evaluators.size(); i++) out[i + 1] = calls.evaluators.get(i);
    return out;
  }

  private static UserDefinedPythonFunction function(TableContext env, Calls calls, byte[] command, StructType output,
      int evalType) {
    SimplePythonFunction t = calls.environment != null ? calls.environment : worker(env);
    SimplePythonFunction runner = new SimplePythonFunction(command, t.envVars(), t.pythonIncludes(), t.pythonExec(),
        t.pythonVer(), t.broadcastVars(), t.accumulator());
    return new UserDefinedPythonFunction(Protocol.RETRACTING_AGGREGATION_MODULE, runner, output, evalType, true,
        List.of(), List.of());
  }

  /** The processor's input: grouping keys {@code k<i>}, the key as JSON, the kind, the arguments as JSON. */
  private static List<Column> projection(List<Expression> keys, Dataset<Row> in, Calls calls) {
    List<Column> cols = new ArrayList<>();
    List<Column> keyFields = new ArrayList<>();
    if (keys.isEmpty()) cols.add(functions.lit(0).as("k0"));
    for (int i = 0; i < keys.size(); i++) {
      cols.add(Jobs.column(keys.get(i)).as("k" + i));
      keyFields.add(Jobs.column(keys.get(i)).as("c" + i));
    }
    cols.add(keyFields.isEmpty() ? functions.lit("{}").as("key")
        : functions.to_json(functions.struct(keyFields.toArray(new Column[0])), JSON_OPTIONS).as("key"));
    cols.add(in.col(Changelog.OP).as("op"));
    cols.add(calls.arguments.isEmpty() ? functions.lit("{}").as("args")
        : functions.to_json(functions.struct(calls.arguments.toArray(new Column[0])), JSON_OPTIONS).as("args"));
    return cols;
  }

  /** Every aggregate call of {@code a}'s select, each described for the worker; unsupported ones refused. */
  private static Calls collect(Aggregate a) {
    Calls calls = new Calls();
    for (NamedExpression e : ScalaInterop.list(a.aggregateExpressions())) collect((Expression) (Object) e, calls);
    if (NonTimeOver.feeds(a.child())) {
      // Flink's planner takes a non-time over window's columns as never updated (modified
      // monotonicity CONSTANT), so MIN and MAX above it skip retractions (measured: MAX(s) keeps a
      // retracted maximum, MIN(s) a retracted minimum); COUNT, SUM and AVG retract.
      for (Map<String, Object> spec : calls.specs) {
        if ("min".equals(spec.get("function")) || "max".equals(spec.get("function"))) spec.put("retract", false);
      }
    }
    return calls;
  }

  private static void collect(Expression e, Calls calls) {
    if (PythonAggregateFunction.isPandas(e)) {
      throw PythonAggregateFunction.pandasWithoutWindowRefused(PythonAggregateFunction.pythonCall(e).name());
    }
    AggregateFunction f = e instanceof AggregateExpression ? ((AggregateExpression) e).aggregateFunction()
        : e instanceof PythonUDAF ? (PythonUDAF) e : null;
    if (f == null) {
      for (Expression c : ScalaInterop.list(e.children())) collect(c, calls);
      return;
    }
    if (calls.indexOf(e) >= 0) return;
    if (e instanceof AggregateExpression) {
      AggregateExpression ae = (AggregateExpression) e;
      if (ae.filter().isDefined()) throw unsupported("an aggregate with a FILTER clause (" + text(e) + ")");
    }
    int index = calls.calls.size();
    Map<String, Object> spec = new LinkedHashMap<>();
    List<Expression> args = ScalaInterop.list(f.children());
    if (f instanceof PythonUDAF) {
      Object[] found = PythonAggregateFunction.evaluatorAndEnvironment(((PythonUDAF) f).func());
      if (found == null) throw unsupported("the Python aggregate function " + ((PythonUDAF) f).name());
      spec.put("function", "python");
      spec.put("evaluator", calls.evaluators.size());
      calls.evaluators.add((byte[]) found[0]);
      calls.environment = (SimplePythonFunction) found[1];
    } else {
      String name = BUILT_INS.get(f.prettyName());
      if (name == null) {
        // SQL's COLLECT is Spark's collect_list or collect_set below the counting (expressions.Multisets),
        // JSON_ARRAYAGG/JSON_OBJECTAGG a collect_list below the serialisation (expressions.JsonAggregates).
        String json = JsonAggregates.nameOf(e);
        String shown = json != null ? json
            : Set.of("collect_list", "collect_set").contains(f.prettyName()) ? "COLLECT" : f.prettyName();
        throw unsupported("the aggregate function " + shown + " (" + text(e) + ")");
      }
      spec.put("function", name);
      if (name.equals("listagg")) {
        if (args.size() > 2) throw unsupported("LISTAGG with an order (" + text(e) + ")");
        Expression separator = args.size() > 1 ? args.get(1) : null;
        Object value = separator == null ? null : separator.eval(null);
        spec.put("separator", value == null ? "" : value.toString());
        args = args.subList(0, 1);
      } else if (!name.equals("count")) {
        args = args.subList(0, 1);
      }
    }
    // DISTINCT: the worker counts each key's argument values in state, as Flink's DistinctAggregate does.
    if (e instanceof AggregateExpression && ((AggregateExpression) e).isDistinct()) spec.put("distinct", true);
    DataType result = f.dataType();
    spec.put("result", result.typeName());
    if (result instanceof DecimalType) spec.put("scale", ((DecimalType) result).scale());
    List<List<String>> named = new ArrayList<>();
    for (int m = 0; m < args.size(); m++) {
      String field = "a" + index + "_" + m;
      calls.arguments.add(Jobs.column(args.get(m)).as(field));
      named.add(List.of(field, args.get(m).dataType().typeName()));
    }
    spec.put("arguments", named);
    calls.calls.add(e);
    calls.specs.add(spec);
  }

  /**
   * The aggregation's output over the processor's {@code changes}: each output expression with its
   * aggregate calls read from the results and its grouping expressions from the key, under the
   * original attribute ids, then {@code hidden}.
   */
  private static LogicalPlan restore(Aggregate a, Calls calls, Dataset<Row> changes, List<Column> hidden) {
    List<Expression> keys = ScalaInterop.list(a.groupingExpressions());
    StructType keySchema = new StructType();
    for (int i = 0; i < keys.size(); i++) keySchema = keySchema.add("c" + i, keys.get(i).dataType(), true);
    StructType valueSchema = new StructType();
    for (int i = 0; i < calls.calls.size(); i++) valueSchema = valueSchema.add("r" + i, calls.calls.get(i).dataType(), true);
    List<Column> cols = new ArrayList<>();
    Column parsedKey = functions.from_json(changes.col("key"), keySchema, JSON_OPTIONS);
    Column parsedValues = functions.from_json(changes.col("values"), valueSchema, JSON_OPTIONS);
    for (int i = 0; i < keys.size(); i++) cols.add(parsedKey.getField("c" + i).as("__pft_g" + i));
    for (int i = 0; i < calls.calls.size(); i++) cols.add(parsedValues.getField("r" + i).as("__pft_r" + i));
    cols.addAll(hidden);
    LogicalPlan parsed = changes.select(cols.toArray(new Column[0])).queryExecution().analyzed();
    List<Attribute> out = ScalaInterop.list(parsed.output());
    Map<Integer, Attribute> byCall = new HashMap<>();
    for (int i = 0; i < calls.calls.size(); i++) byCall.put(i, out.get(keys.size() + i));
    List<NamedExpression> restored = new ArrayList<>();
    for (NamedExpression ne : ScalaInterop.list(a.aggregateExpressions())) {
      Expression value = ne instanceof Alias ? ((Alias) ne).child() : (Expression) (Object) ne;
      Expression replaced = replace(value, keys, out, calls, byCall);
      restored.add(new Alias(replaced, ne.name(), ne.exprId(), ne.qualifier(), Option.apply(ne.metadata()),
          ScalaInterop.seq(List.of())));
    }
    for (int k = keys.size() + calls.calls.size(); k < out.size(); k++) restored.add(out.get(k));
    return new Project(ScalaInterop.seq(restored), parsed);
  }

  private static Expression replace(Expression e, List<Expression> keys, List<Attribute> out, Calls calls,
      Map<Integer, Attribute> byCall) {
    int call = calls.indexOf(e);
    if (call >= 0 && (e instanceof AggregateExpression || e instanceof PythonUDAF)) return byCall.get(call);
    for (int i = 0; i < keys.size(); i++) if (keys.get(i).semanticEquals(e)) return out.get(i);
    return ScalaInterop.mapChildren(e, c -> replace(c, keys, out, calls, byCall));
  }

  private static String text(Expression e) {
    return e.sql().replace("`", "");
  }

  private static TableException unsupported(String what) {
    return TableException.unsupported(what + " in an aggregation of an updating table in streaming mode (COUNT, SUM, "
        + "AVG, MIN, MAX, FIRST_VALUE, LAST_VALUE, LISTAGG, STDDEV/VAR, also DISTINCT, and Python aggregate functions "
        + "with retract are supported)");
  }
}
