package org.pyflink_table.bridge.udf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.apache.spark.api.python.SimplePythonFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.python.UserDefinedPythonFunction;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.ColumnStat;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.Statistics;
import org.apache.spark.sql.execution.columnar.InMemoryRelation;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.expressions.ExprIdMemo;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.protocol.Protocol;
import scala.Option;
import scala.math.BigInt;

/**
 * Python aggregate functions evaluated over key-sorted Arrow batches that each carry many groups.
 *
 * <p>The rows are hash-partitioned by the keys and sorted by them within each partition, then
 * streamed through Spark's {@code mapInArrow} into {@code pyflink_table._worker.packed_aggregation},
 * which finds the group boundaries inside each batch. Spark's own grouped-aggregate UDFs send every
 * group as its own Arrow stream message and call back per group; packing many groups per batch
 * makes a tiny group cost a slice instead, and a group larger than a batch is read in chunks. All
 * functions of one select share one pass, and any result type works, including ROW results and the
 * rows a table aggregate emits.
 */
public final class PackedAggregation {
  private PackedAggregation() {}

  /**
   * Average rows per group from which Spark's grouped-aggregate UDF beats packing. Packing costs
   * more per row (the keys travel to Python and back inside {@code mapInArrow}'s struct), Spark's
   * per-group path more per group (an Arrow stream and a call per group), so the crossover is a
   * number of rows per group, whatever the total. Measured 2026-11-24 (pandas mean, cached LONG
   * key, CPU of the process tree, medians of interleaved rounds, {@code benchmarks/
   * bench_udaf_crossover.py}), packed / per-group CPU at 3M rows: 0.34 at 300 rows per group, 0.74
   * at 1,000, 0.90 at 3,000, 1.13 at 10,000; at 10M rows and 10,000 per group 1.15 (1.18 vs 1.03
   * PySpark's time, quiet). Equal cost lies near 5,000 at both sizes (as at 5M rows earlier).
   */
  static final double PER_GROUP_MIN_ROWS = 5_000;

  /**
   * {@link #PER_GROUP_MIN_ROWS} for an input the query reads from its source (no cached data in
   * the plan): there packing loses sooner. Measured 2026-11-25 (uncached Parquet, 3M rows, pandas
   * mean, CPU medians of 3 interleaved rounds, {@code bench_udaf_crossover.py ... parquet}), packed
   * / per-group: LONG key 0.75 at 1,000 rows per group, 0.96 at 2,000, 1.21 at 3,000; STRING key
   * (wider keys to carry) 1.10 at 2,000 and 1.12 at 3,000. From 2,000 the per-group path's worst
   * case (LONG, 1.04x packing) is smaller than packing's (STRING, 1.10x).
   */
  static final double SCANNED_PER_GROUP_MIN_ROWS = 2_000;

  /**
   * Whether scalar-result aggregates over {@code df} grouped by {@code keyCols} take this path
   * rather than Spark's grouped-aggregate UDFs (ROW-result and table aggregates always do).
   * {@code pyflink_table.aggregate.packing}: {@code true} or {@code false} decide; {@code auto}
   * (the default) packs unless Spark's statistics of {@code df} bound the number of groups well
   * below its rows (see {@link #fewLargeGroups}).
   */
  public static boolean enabled(Dataset<Row> df, List<Column> keyCols) {
    String mode = df.sparkSession().conf().get(Protocol.CONF_AGGREGATE_PACKING, "auto").trim().toLowerCase(Locale.ROOT);
    switch (mode) {
      case "true":
        return true;
      case "false":
        return false;
      case "auto":
        return !fewLargeGroups(df, keyCols);
      default:
        throw new TableException("Unsupported value '" + mode + "' of pyflink_table.aggregate.packing; expected auto, "
            + "true or false.");
    }
  }

  /**
   * Whether the optimizer's statistics of {@code df} show at least {@link #PER_GROUP_MIN_ROWS} rows
   * per group on average when it reads cached data, {@link #SCANNED_PER_GROUP_MIN_ROWS} otherwise:
   * its row count (or size over row width) against an upper bound of the distinct keys, from
   * column statistics ({@code ANALYZE TABLE ... FOR COLUMNS} with
   * {@code spark.sql.cbo.enabled}), the key types (BOOLEAN, TINYINT) or, for an integral key of an
   * input Spark has cached, the cache's bounds of the column ({@link CachedKeyDomain}: one small job
   * over the cached batches' statistics, no data decoded) or, for a Parquet or ORC file source, its
   * files' footers (row counts, key ranges, Parquet's dictionaries: {@link FooterKeyDomain}).
   * Without such a bound the answer is false
   * (packing, which loses at most about a fifth when groups are large and wins several times when
   * they are small).
   */
  static boolean fewLargeGroups(Dataset<Row> df, List<Column> keyCols) {
    if (keyCols.isEmpty() || df.isStreaming()) return false;
    LogicalPlan plan = df.queryExecution().optimizedPlan();
    Statistics stats = plan.stats();
    // The analyzed plan: its attributes are the keys' (the optimizer may replace a view's columns).
    LogicalPlan analyzed = df.queryExecution().analyzed();
    // Footers are read only when Spark has no row count of its own.
    double rows = stats.rowCount().isDefined() ? stats.rowCount().get().doubleValue() : FooterKeyDomain.rows(analyzed);
    if (Double.isNaN(rows)) {
      BigInt unknown = BigInt.apply(df.sparkSession().sessionState().conf().defaultSizeInBytes());
      if (stats.sizeInBytes().$greater$eq(unknown)) return false; // a source of unknown size
      double width = 8;
      for (StructField f : df.schema().fields()) width += f.dataType().defaultSize();
      rows = stats.sizeInBytes().doubleValue() / width;
    }
    double minRows = cached(plan) ? PER_GROUP_MIN_ROWS : SCANNED_PER_GROUP_MIN_ROWS;
    if (rows < minRows) return false;
    double groups = 1;
    LogicalPlan keys = df.select(keyCols.toArray(new Column[0])).queryExecution().analyzed();
    if (!(keys instanceof Project)) return false; // e.g. a sliding window's key: no bound known
    scala.collection.Iterator<Attribute> out = keys.output().iterator();
    int i = 0;
    while (out.hasNext()) {
      Attribute key = out.next();
      Object column = ((Project) keys).projectList().apply(i++);
      double distinct = typeBound(key.dataType());
      if (column instanceof Attribute && stats.attributeStats().get((Attribute) column).isEmpty()) {
        distinct = Math.min(distinct, CachedKeyDomain.of(plan, ((Attribute) column).exprId(), key.dataType()));
        distinct = Math.min(distinct, FooterKeyDomain.distinct(analyzed, ((Attribute) column).exprId(), key.dataType()));
      }
      if (column instanceof Attribute) {
        Option<ColumnStat> stat = stats.attributeStats().get((Attribute) column);
        if (stat.isDefined() && stat.get().distinctCount().isDefined()) {
          Option<BigInt> nulls = stat.get().nullCount();
          boolean noNull = nulls.isDefined() && nulls.get().signum() == 0;
          distinct = Math.min(distinct, stat.get().distinctCount().get().doubleValue() + (noNull ? 0 : 1));
        }
      }
      groups *= distinct;
    }
    return rows >= groups * minRows;
  }

  /** Whether {@code plan} reads data Spark has cached (which the optimized plan shows as its in-memory relation). */
  private static boolean cached(LogicalPlan plan) {
    for (LogicalPlan leaf : ScalaInterop.list(plan.collectLeaves())) {
      if (leaf instanceof InMemoryRelation) return true;
    }
    return false;
  }

  /** The number of distinct values (NULL included) a key of type {@code t} can have; infinity if large. */
  private static double typeBound(DataType t) {
    if (t instanceof BooleanType) return 3;
    if (t instanceof ByteType) return 257;
    return Double.POSITIVE_INFINITY;
  }

  /**
   * Groups {@code df} by {@code keyCols} and evaluates each function over its group's rows.
   *
   * @param keyCols the grouping columns; none for one group of all rows (which, as in PyFlink,
   *     gives no row when the input is empty)
   * @param keyNames output names of the keys (their metadata is kept)
   * @param calls the functions, in output order
   * @param args each function's argument columns
   * @param resultNames output names of the functions' results
   * @return the keys, then one column per function; for a table aggregate (then the only
   *     function) one row per emitted row, its result a struct
   */
  public static Dataset<Row> aggregate(Dataset<Row> df, List<Column> keyCols, List<String> keyNames,
      List<PythonAggregateFunction> calls, List<List<Column>> args, List<String> resultNames) {
    Dataset<Row> out = build(df, keyCols, keyNames, calls, args, resultNames, 0, null);
    StructField[] fields = out.schema().fields();
    boolean windowed = false;
    for (int i = 0; i < keyCols.size(); i++) windowed |= isWindow(fields[i].dataType());
    if (!windowed) {
      LogicalPlan plan = out.queryExecution().analyzed();
      REGISTERED.put(((Alias) ((Project) plan).projectList().head()).exprId().id(),
          new Aggregation(df, keyCols, keyNames, calls, args, resultNames));
    }
    return out;
  }

  /** What {@link #changelog} needs to compute an aggregation again as a changelog. */
  public record Aggregation(Dataset<Row> df, List<Column> keyCols, List<String> keyNames,
      List<PythonAggregateFunction> calls, List<List<Column>> args, List<String> resultNames) {}

  /** The non-window aggregations built by {@link #aggregate}, by the id of their first output (the latest kept). */
  private static final ExprIdMemo<Aggregation> REGISTERED = new ExprIdMemo<>();

  /** The aggregation a node built by {@link #aggregate} (without a group window) computes, or null. */
  public static Aggregation aggregationOf(LogicalPlan node) {
    return registered(node);
  }

  private static Aggregation registered(LogicalPlan node) {
    if (!(node instanceof Project)) return null;
    NamedExpression first = ((Project) node).projectList().head();
    return first instanceof Alias ? REGISTERED.get(first.exprId().id()) : null;
  }

  /** Group windows group by Spark's window struct (start, end). */
  private static boolean isWindow(DataType t) {
    if (!(t instanceof StructType)) return false;
    StructField[] f = ((StructType) t).fields();
    return f.length == 2 && f[0].name().equals("start") && f[1].name().equals("end");
  }

  /**
   * Flink's name of a node built by {@link #aggregate} without a group window, e.g.
   * {@code PythonGroupAggregate(groupBy=[k], select=[k, f(v)])}; null for any other node.
   */
  public static String updatingNode(LogicalPlan node) {
    Aggregation a = registered(node);
    if (a == null) return null;
    List<String> select = new ArrayList<>(a.keyNames);
    for (int j = 0; j < a.calls.size(); j++) {
      List<String> argText = new ArrayList<>();
      for (Column c : a.args.get(j)) argText.add(c.toString());
      select.add(a.calls.get(j).name() + "(" + String.join(", ", argText) + ")");
    }
    return "PythonGroupAggregate(" + (a.keyNames.isEmpty() ? "" : "groupBy=[" + String.join(", ", a.keyNames) + "], ")
        + "select=[" + String.join(", ", select) + "])";
  }

  /**
   * The streaming changelog of a node built by {@link #aggregate} (null for any other node): its
   * output columns, then the change kind, the arrival number of the key's first row in the bundle
   * and the change's position there (named {@code names}), as PyFlink's Python group aggregation
   * emits them per bundle of {@code bundleSize} rows in arrival order (see the worker's
   * {@code ChangelogAggregation}).
   */
  public static Dataset<Row> changelog(LogicalPlan node, long bundleSize, String... names) {
    Aggregation a = registered(node);
    if (a == null) return null;
    for (PythonAggregateFunction f : a.calls) {
      if (f.isPandas()) throw PythonAggregateFunction.pandasWithoutWindowRefused(f.name());
    }
    return build(a.df, a.keyCols, a.keyNames, a.calls, a.args, a.resultNames, Math.max(1, bundleSize), names);
  }


  /** {@link #aggregate}, or with {@code bundleSize > 0} its changelog with the extra columns {@code changeNames}. */
  private static Dataset<Row> build(Dataset<Row> df, List<Column> keyCols, List<String> keyNames,
      List<PythonAggregateFunction> calls, List<List<Column>> args, List<String> resultNames, long bundleSize,
      String[] changeNames) {
    int keyCount = keyCols.size();
    List<Column> projected = new ArrayList<>();
    for (int i = 0; i < keyCount; i++) projected.add(keyCols.get(i).as("k" + i));
    List<List<Integer>> arguments = new ArrayList<>();
    int column = keyCount;
    for (int j = 0; j < calls.size(); j++) {
      List<Integer> columns = new ArrayList<>();
      List<Column> a = args.get(j);
      for (int m = 0; m < a.size(); m++) {
        projected.add(a.get(m).as("a" + j + "_" + m));
        columns.add(column++);
      }
      arguments.add(columns);
    }
    boolean changes = bundleSize > 0;
    if (changes) projected.add(functions.monotonically_increasing_id().as("s")); // arrival order (scan order)
    Dataset<Row> input = withNormalizedKeys(df.select(projected.toArray(new Column[0])), keyCount);
    if (changes) {
      // The bundle of each row: PyFlink's Python operator at parallelism 1 sees the rows in arrival order.
      Column bundle = functions.floor(functions.row_number().over(Window.orderBy(input.col("s"))).minus(1)
          .divide(functions.lit(bundleSize)));
      List<Column> reordered = new ArrayList<>();
      for (String c : input.columns()) if (!c.equals("s")) reordered.add(input.col(c));
      reordered.add(bundle.cast(DataTypes.LongType).as("b"));
      reordered.add(input.col("s"));
      input = input.select(reordered.toArray(new Column[0]));
    }
    StructType inputSchema = input.schema();
    Column[] order = new Column[keyCount + (changes ? 1 : 0)];
    for (int i = 0; i < keyCount; i++) order[i] = input.col("k" + i);
    if (changes) order[keyCount] = input.col("s");
    if (keyCount > 0) {
      input = input.repartition(Arrays.copyOf(order, keyCount)).sortWithinPartitions(order);
    } else {
      input = input.repartition(1);
      if (changes) input = input.sortWithinPartitions(order);
    }

    String layout = PythonCommand.json(Map.of(Protocol.LAYOUT_KEYS, keyCount, Protocol.LAYOUT_ARGUMENTS, arguments,
        Protocol.LAYOUT_CHANGELOG, changes));
    StructType output = new StructType();
    for (int i = 0; i < keyCount; i++) output = output.add("k" + i, inputSchema.fields()[i].dataType(), true);
    for (int j = 0; j < calls.size(); j++) output = output.add("r" + j, calls.get(j).resultSparkType(), true);
    if (changes) output = output.add("op", DataTypes.StringType, false).add("seq", DataTypes.LongType, false)
        .add("sub", DataTypes.IntegerType, false);
    Column call = evaluatorCall(input, calls, layout,
        a -> PythonCommand.call(Protocol.PACKED_AGGREGATION_MODULE, Protocol.PACKED_AGGREGATION_FUNCTION, a),
        Protocol.PACKED_AGGREGATION_FUNCTION, output, Protocol.EVAL_MAP_ARROW_ITER_UDF);
    Dataset<Row> evaluated = ((org.apache.spark.sql.classic.Dataset<Row>) input).mapInArrow(call, false, null);

    List<Column> out = new ArrayList<>();
    for (int i = 0; i < keyCount; i++) {
      Metadata md = inputSchema.fields()[i].metadata();
      out.add(evaluated.col("k" + i).as(keyNames.get(i), md));
    }
    for (int j = 0; j < calls.size(); j++) out.add(evaluated.col("r" + j).as(resultNames.get(j)));
    if (changes) {
      out.add(evaluated.col("op").as(changeNames[0]));
      out.add(evaluated.col("seq").as(changeNames[1]));
      out.add(evaluated.col("sub").as(changeNames[2]));
    }
    return evaluated.select(out.toArray(new Column[0]));
  }

  /**
   * FLOAT/DOUBLE keys with every NaN made one NaN and -0.0 made 0.0, so that hash partitioning
   * and sorting put the rows of one group (as grouping compares them) next to each other.
   */
  private static Dataset<Row> withNormalizedKeys(Dataset<Row> input, int keyCount) {
    StructField[] fields = input.schema().fields();
    boolean any = false;
    List<Column> cols = new ArrayList<>();
    for (int i = 0; i < fields.length; i++) {
      Column c = input.col(fields[i].name());
      DataType t = fields[i].dataType();
      if (i < keyCount && (t instanceof FloatType || t instanceof DoubleType)) {
        Column zero = functions.lit(0.0).cast(t);
        c = functions.when(functions.isnan(c), functions.lit(Double.NaN).cast(t))
            .when(c.equalTo(zero), zero).otherwise(c).as(fields[i].name(), fields[i].metadata());
        any = true;
      }
      cols.add(c);
    }
    return any ? input.select(cols.toArray(new Column[0])) : input;
  }

  /**
   * The Spark call, over all columns of {@code input}, of the Python command that {@code command}
   * pickles from its arguments (the layout, then each function's pickled evaluator), run in the
   * Python environment the functions were registered with (interpreter, shipped files, metrics).
   */
  static Column evaluatorCall(Dataset<Row> input, List<PythonAggregateFunction> calls, String layout,
      Function<Object[], byte[]> command, String name, StructType output, int evalType) {
    return evaluatorCall(input, calls, null, layout, command, name, output, evalType);
  }

  /** As above, run in {@code session}'s interpreter (a SimplePythonFunction) when given, else in the first call's. */
  static Column evaluatorCall(Dataset<Row> input, List<PythonAggregateFunction> calls, Object session, String layout,
      Function<Object[], byte[]> command, String name, StructType output, int evalType) {
    Object[] commandArgs = new Object[calls.size() + 1];
    commandArgs[0] = layout;
    for (int j = 0; j < calls.size(); j++) commandArgs[j + 1] = calls.get(j).packedEvaluator();
    // The session's template arrives as Spark's UserDefinedPythonFunction or as its SimplePythonFunction.
    SimplePythonFunction template = session instanceof UserDefinedPythonFunction u ? (SimplePythonFunction) u.func()
        : session != null ? (SimplePythonFunction) session : calls.get(0).pythonFunction();
    SimplePythonFunction runner = new SimplePythonFunction(command.apply(commandArgs), template.envVars(),
        template.pythonIncludes(), template.pythonExec(), template.pythonVer(), template.broadcastVars(),
        template.accumulator());
    boolean deterministic = true;
    for (PythonAggregateFunction f : calls) deterministic &= f.deterministic();
    UserDefinedPythonFunction udf = new UserDefinedPythonFunction(name, runner, output, evalType, deterministic,
        List.of(), List.of());
    List<Column> all = new ArrayList<>();
    for (String c : input.columns()) all.add(input.col(c));
    return udf.apply(ScalaInterop.seq(all));
  }
}
