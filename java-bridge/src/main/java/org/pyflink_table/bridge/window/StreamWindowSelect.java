package org.pyflink_table.bridge.window;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.Expr;
import org.pyflink_table.bridge.expressions.ExprCompiler;
import org.pyflink_table.bridge.expressions.FunctionCatalog;
import org.pyflink_table.bridge.expressions.Scope;
import org.pyflink_table.bridge.table.JTable;
import org.pyflink_table.bridge.table.PythonAggregateSelect;
import org.pyflink_table.bridge.table.RowBasedOperations;
import org.pyflink_table.bridge.udf.PythonAggregateFunction;
import org.pyflink_table.bridge.udf.StreamWindowAggregation;

/**
 * A group-window select over an unbounded stream whose items call Python aggregate functions
 * (FLIP-137): the windows are computed by {@link StreamWindowAggregation} from the un-windowed
 * rows (a sliding window's row is stored once), then each item is computed over the fired
 * window's row, its aggregate calls read from the columns that hold them. A row-count window's
 * select always takes this path ({@link CountWindows}), built-in aggregates included, and so do the
 * row-based {@code aggregate}/{@code flat_aggregate} of a Python function ({@link #rowBased}).
 */
final class StreamWindowSelect {
  private StreamWindowSelect() {}


  /** The select's rows, or null when no item calls a Python aggregate function and the window counts time. */
  static Dataset<Row> select(WindowGroupedJTable grouped, List<Expr> expanded, Scope windowScope) {
    Map<String, Expr.Call> calls = new LinkedHashMap<>();
    Map<String, Expr.Call> builtIns = new LinkedHashMap<>();
    for (Expr e : expanded) PythonAggregateSelect.collectCalls(e, windowScope, calls, builtIns);
    // Row-count windows always run on the processor, which counts the rows of each key.
    boolean counted = grouped.isCountWindow();
    if (!counted) refuseJsonAggregates(builtIns);
    // A session of built-ins runs here too when the processor computes them all: Spark's session
    // aggregation drops a row whose own window has ended before it meets the key's open sessions,
    // where Flink merges it into an open session it touches (the processor merges first).
    boolean session = grouped.window.kind == GroupWindowSpec.Kind.SESSION && !builtIns.isEmpty()
        && processorComputes(builtIns, grouped.table, grouped.table.scope());
    if (calls.isEmpty() && !counted && !session) return null;
    if (!counted) {
      requireWatermark(grouped);
      Dataset<Row> collected = CollectedWindowSelect.select(grouped, expanded, windowScope, calls, builtIns);
      if (collected != null) return collected;
    }
    Scope scope = grouped.table.scope();
    Map<String, Expr> replacements = new HashMap<>();
    Dataset<Row> rows = fired(grouped, calls, builtIns, scope, replacements);

    Scope fired = new Scope(rows, scope.functions);
    fired.windowProperties.putAll(windowScope.windowProperties);
    List<String> names = ExprCompiler.outputNames(expanded, windowScope);
    List<Column> out = new ArrayList<>();
    for (int i = 0; i < expanded.size(); i++) {
      out.add(ExprCompiler.compile(PythonAggregateSelect.replace(expanded.get(i), replacements), fired).as(names.get(i)));
    }
    return rows.select(out.toArray(new Column[0]));
  }

  private static void requireWatermark(WindowGroupedJTable grouped) {
    StructField time = grouped.table.df.schema().apply(((Expr.FieldRef) grouped.window.timeField).name);
    if (!time.metadata().contains(TimeAttributes.WATERMARK_DELAY_MS)) {
      throw new TableException("A group window over an unbounded source needs a time attribute with a watermark: "
          + "declare WATERMARK FOR <column> AS <column> - INTERVAL '...' SECOND on the source table and window on "
          + "that column.");
    }
  }

  /**
   * The fired windows of {@code grouped}'s Python aggregate {@code calls} and {@code builtIns} from
   * the window processor: for a time window the window struct ({@link WindowGroupedJTable#WINDOW_COLUMN}),
   * then the keys, then one column per call and built-in (named in {@code replacements}).
   */
  private static Dataset<Row> fired(WindowGroupedJTable grouped, Map<String, Expr.Call> calls,
      Map<String, Expr.Call> builtIns, Scope scope, Map<String, Expr> replacements) {
    GroupWindowSpec window = grouped.window;
    JTable table = grouped.table;
    boolean counted = grouped.isCountWindow();
    String timeField = ((Expr.FieldRef) window.timeField).name;
    StructField time = table.df.schema().apply(timeField);
    long size = WindowInterval.parse(window.size, "Group window size").value;
    // A session window's size is its gap; slide 0 tells the processor to merge sessions.
    long slide = window.kind == GroupWindowSpec.Kind.SLIDE ? WindowInterval.parse(window.slide, "Sliding window slide").value
        : window.kind == GroupWindowSpec.Kind.SESSION ? 0 : size;

    List<Expr> keyExprs = ExprCompiler.expand(grouped.keys, scope);
    List<String> keyNames = PythonAggregateSelect.keyNames(keyExprs, replacements);
    PythonAggregateSelect.Calls run = PythonAggregateSelect.calls(calls, scope, replacements);
    List<PythonAggregateFunction> functions = run.functions();
    List<List<Column>> args = run.args();
    List<String> resultNames = run.resultNames();
    List<StreamWindowAggregation.BuiltIn> others = builtIns(builtIns, table, scope, replacements,
        counted ? "in a row-count group window" : "next to Python aggregate functions in one group or over window",
        true);
    Column timeColumn = table.df.col(Scope.quote(timeField));
    List<Column> keyCols = ExprCompiler.compileAll(keyExprs, scope);
    return counted
        ? StreamWindowAggregation.countWindows(table.df, timeColumn, size, slide, keyCols, keyNames, functions, args,
            resultNames, others, table.env.workerTemplate())
        : StreamWindowAggregation.aggregate(table.df, timeColumn, time.metadata().getLong(TimeAttributes.WATERMARK_DELAY_MS),
            size, slide, keyCols, keyNames, functions, args, resultNames, others, WindowGroupedJTable.WINDOW_COLUMN,
            functions.isEmpty() ? table.env.workerTemplate() : null);
  }

  /**
   * {@code window(w).group_by(w, keys).aggregate(f(...))} or {@code flat_aggregate(t(...))} over an
   * unbounded stream with a Python aggregate (table aggregate) function: its windows fire on the
   * window processor, as in a select; the result is the window column (time windows), the keys and
   * the function's fields. Null when the call is not a Python function's.
   */
  static JTable rowBased(WindowGroupedJTable grouped, Expr e, boolean flat) {
    RowBasedOperations.Aliased a = RowBasedOperations.Aliased.of(e);
    Scope scope = grouped.table.scope();
    PythonAggregateFunction python = PythonAggregateSelect.pythonAggregate(a.call(), scope);
    RowBasedOperations.checkFlat(a, python, flat);
    if (python == null) return null;
    if (!grouped.isCountWindow()) requireWatermark(grouped);
    Map<String, Expr.Call> calls = new LinkedHashMap<>();
    calls.put(a.call().toString(), (Expr.Call) a.call());
    Map<String, Expr> replacements = new HashMap<>();
    Dataset<Row> rows = fired(grouped, calls, new LinkedHashMap<>(), scope, replacements);
    String[] columns = rows.columns();
    Dataset<Row> named = rows.withColumnRenamed(columns[columns.length - 1], RowBasedOperations.RESULT);
    List<Column> kept = new ArrayList<>();
    for (int i = 0; i < columns.length - 1; i++) kept.add(named.col(Scope.quote(columns[i])));
    return grouped.table.copyWith(RowBasedOperations.expand(named, kept, a.names(), flat ? "flat_aggregate" : "aggregate"));
  }

  /** Built-in aggregates the window processor computes next to the Python ones (Flink's semantics). */
  private static final List<String> PROCESSOR_BUILT_INS = List.of("sum", "sum0", "count", "min", "max", "avg");

  /**
   * Those its group windows compute, the statistical ones, COLLECT, LISTAGG and ARRAY_AGG too (over windows keep
   * running values of the former only): normalized names and the worker's.
   */
  private static final Map<String, String> WINDOW_BUILT_INS = Map.ofEntries(Map.entry("sum", "sum"),
      Map.entry("sum0", "sum0"), Map.entry("count", "count"), Map.entry("min", "min"), Map.entry("max", "max"),
      Map.entry("avg", "avg"), Map.entry("stddevpop", "stddev_pop"), Map.entry("stddevsamp", "stddev_samp"),
      Map.entry("varpop", "var_pop"), Map.entry("varsamp", "var_samp"), Map.entry("collect", "collect"),
      Map.entry("listagg", "listagg"), Map.entry("arrayagg", "array_agg"));

  /** Flink's LISTAGG separator without one. */
  private static final String LISTAGG_SEPARATOR = ",";

  /**
   * The separator of {@code call} (normalized name {@code function}): LISTAGG's string literal or
   * Flink's default; null for other functions, and for LISTAGG's other separators (not computed here).
   */
  private static String separator(String function, Expr.Call call) {
    if (!function.equals("listagg")) return null;
    if (call.args.size() == 1) return LISTAGG_SEPARATOR;
    return call.args.size() == 2 && call.arg(1) instanceof Expr.Literal l && l.value instanceof String text
        ? text : null;
  }

  /** Whether the processor takes {@code call}'s arguments: one at most, LISTAGG's literal separator too. */
  private static boolean arguments(String function, Expr.Call call) {
    return call.args.size() <= 1 || separator(function, call) != null;
  }

  /** Aggregates whose accumulators Flink cannot merge, so that a streaming session window refuses them. */
  private static final Map<String, String> UNMERGEABLE = Map.of("firstvalue", "FIRST_VALUE", "lastvalue", "LAST_VALUE");

  /** The JSON aggregates, by normalized name, and Flink's name of their function without the ON NULL part. */
  private static final Map<String, String> JSON_AGGREGATES = Map.of("jsonarrayagg", "JSON_ARRAYAGG",
      "jsonobjectagg", "JSON_OBJECTAGG");

  /**
   * Refuses JSON_ARRAYAGG and JSON_OBJECTAGG in a time group window over an unbounded source, as
   * PyFlink 2.3 does (Tumble and Session, measured): its group window aggregation finds no
   * {@code accumulate} method of them for its arguments.
   */
  private static void refuseJsonAggregates(Map<String, Expr.Call> builtIns) {
    for (Expr.Call call : builtIns.values()) {
      boolean distinct = FunctionCatalog.normalize(call.name).equals("distinct");
      Expr.Call inner = distinct ? (Expr.Call) call.arg(0) : call;
      String base = JSON_AGGREGATES.get(FunctionCatalog.normalize(inner.name));
      if (base == null) continue;
      // Flink names the function by its ON NULL behaviour: JSON_ARRAYAGG_ABSENT_ON_NULL.
      String onNull = !inner.args.isEmpty() && inner.arg(0) instanceof Expr.Literal l ? String.valueOf(l.value) : "";
      throw ValidationException.noAccumulate(base + "_" + onNull.toUpperCase(Locale.ROOT) + "_ON_NULL");
    }
  }

  /** Whether the window processor computes every one of {@code builtIns} in a group window ({@link #builtIns}). */
  private static boolean processorComputes(Map<String, Expr.Call> builtIns, JTable table, Scope scope) {
    for (Expr.Call call : builtIns.values()) {
      boolean distinct = FunctionCatalog.normalize(call.name).equals("distinct");
      Expr.Call inner = distinct ? (Expr.Call) call.arg(0) : call;
      String function = FunctionCatalog.normalize(inner.name);
      if (UNMERGEABLE.containsKey(function)) throw ValidationException.unmergeable(UNMERGEABLE.get(function));
      if (!WINDOW_BUILT_INS.containsKey(function) || !arguments(function, inner)) return false;
    }
    return true;
  }

  /**
   * The built-in aggregate calls of a select that also calls Python aggregate functions: Spark
   * cannot run both in one streaming aggregation, so the window processor computes them from the
   * same stored rows; each call's expression is replaced by its result column in {@code replacements}.
   */
  static List<StreamWindowAggregation.BuiltIn> builtIns(Map<String, Expr.Call> builtIns, JTable table,
      Scope scope, Map<String, Expr> replacements) {
    return builtIns(builtIns, table, scope, replacements, "next to Python aggregate functions in one group or over window",
        false);
  }

  /**
   * As above; {@code where} names the place in errors, e.g. "in a row-count group window"; a group
   * {@code window}'s processor computes more of them than an over window's.
   */
  static List<StreamWindowAggregation.BuiltIn> builtIns(Map<String, Expr.Call> builtIns, JTable table,
      Scope scope, Map<String, Expr> replacements, String where, boolean window) {
    // Only beside Python aggregates does a separate select help: a row-count window always runs here.
    String instead = where.startsWith("next to") ? "; compute it in a separate select" : "";
    List<StreamWindowAggregation.BuiltIn> out = new ArrayList<>();
    for (Map.Entry<String, Expr.Call> e : builtIns.entrySet()) {
      Expr.Call call = e.getValue();
      boolean distinct = FunctionCatalog.normalize(call.name).equals("distinct");
      Expr.Call inner = distinct ? (Expr.Call) call.arg(0) : call;
      String normalized = FunctionCatalog.normalize(inner.name);
      String function = window ? WINDOW_BUILT_INS.get(normalized)
          : PROCESSOR_BUILT_INS.contains(normalized) ? normalized : null;
      if (function == null || !arguments(normalized, inner)) {
        throw TableException.unsupported("the built-in aggregate " + e.getKey() + " " + where
            + " over an unbounded source (supported there: " + String.join(", ",
            window ? List.of("SUM", "SUM0", "COUNT", "MIN", "MAX", "AVG", "STDDEV_POP", "STDDEV_SAMP", "VAR_POP",
                "VAR_SAMP", "COLLECT", "LISTAGG with a literal separator", "ARRAY_AGG") : PROCESSOR_BUILT_INS) + ")" + instead);
      }
      // Named: Spark cannot name a LISTAGG itself (an unresolved alias); a name keeps the metadata.
      StructField result = table.df.select(ExprCompiler.compile(call, scope).as("__pft_result")).schema().fields()[0];
      DataType type = result.dataType();
      // Over windows keep a running sum, whose DECIMAL average is not rounded as Flink's yet.
      if (!window && function.equals("avg") && type instanceof DecimalType) {
        throw TableException.unsupported("AVG of a DECIMAL (" + e.getKey() + ") " + where
            + " over an unbounded source" + instead);
      }
      Column arg = inner.args.isEmpty() ? functions.lit(1) : ExprCompiler.compile(inner.arg(0), scope);
      String column = "__pft_builtin" + out.size();
      // The result's metadata keeps COLLECT's MULTISET type (the map Spark holds it in).
      out.add(new StreamWindowAggregation.BuiltIn(function, distinct, arg, type, column, null,
          separator(normalized, inner), function.equals("collect") ? result.metadata() : Metadata.empty()));
      replacements.put(e.getKey(), new Expr.FieldRef(column));
    }
    return out;
  }
}
