package org.pyflink_table.bridge.window;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.expressions.WindowSpec;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.Expr;
import org.pyflink_table.bridge.expressions.ExprCompiler;
import org.pyflink_table.bridge.expressions.FunctionCatalog;
import org.pyflink_table.bridge.expressions.Scope;
import org.pyflink_table.bridge.table.GroupedJTable;
import org.pyflink_table.bridge.table.JTable;
import org.pyflink_table.bridge.table.PythonAggregateSelect;
import org.pyflink_table.bridge.types.FlinkTypes;

/**
 * {@code table.window(w).group_by(w, keys)}: rows are assigned to time windows with Spark's
 * {@code window} (epoch-aligned, end exclusive, exactly as Flink's assigners) or to merged sessions
 * (see {@link #withSessions}), carried in one struct column, and aggregated per window
 * and key through {@link GroupedJTable#aggregate} so that user-defined aggregates take the same path
 * as in {@code group_by(...).select(...)}.
 *
 * <p>A TIMESTAMP_LTZ time field is windowed on its wall-clock time in the session time zone, as
 * Flink does: start and end are TIMESTAMP(3), rowtime is TIMESTAMP_LTZ(3).
 */
public final class WindowGroupedJTable {
  /** The struct column (start, end) holding each row's window. */
  public static final String WINDOW_COLUMN = "__pft_window";

  public final JTable table;
  public final GroupWindowSpec window;
  public final List<Expr> keys;
  private final boolean localTimeZone;
  private final boolean countWindow;
  private final Dataset<Row> windowed;

  WindowGroupedJTable(JTable table, GroupWindowSpec window, List<Expr> keys) {
    this.table = table;
    this.window = window;
    this.keys = keys;
    Scope scope = table.scope();
    String timeField = timeFieldName(window);
    scope.field(timeField);
    StructField time = table.df.schema().apply(timeField);
    DataType timeType = time.dataType();
    if (!(timeType instanceof TimestampNTZType) && !(timeType instanceof TimestampType)) {
      throw new ValidationException("A group window expects a time attribute for grouping in a "
          + (table.env.isStreaming() ? "stream" : "batch") + " environment: "
          + "field '" + timeField + "' of " + window + " is " + FlinkTypes.fromSpark(timeType)
          + "; use a TIMESTAMP or TIMESTAMP_LTZ column.");
    }
    this.localTimeZone = timeType instanceof TimestampType;
    this.countWindow = CountWindows.isCountWindow(window);
    if (countWindow) {
      CountWindows.check(table, window, time);
      // An unbounded stream's rows are counted by the window processor (StreamWindowSelect).
      this.windowed = table.df.isStreaming() ? table.df : CountWindows.assign(table, window, keys, WINDOW_COLUMN);
    } else {
      this.windowed = assignWindows(table.df, functions.col(Scope.quote(timeField)));
    }
  }

  /** Whether the window counts rows ({@code row_interval} size) rather than time. */
  public boolean isCountWindow() {
    return countWindow;
  }


  private static String timeFieldName(GroupWindowSpec window) {
    if (!(window.timeField instanceof Expr.FieldRef)) {
      throw new ValidationException("A group window's on(...) must name a time field, e.g. on(col('ts')), got "
          + window.timeField + ".");
    }
    return ((Expr.FieldRef) window.timeField).name;
  }

  private static WindowInterval timeInterval(Expr e, String role) {
    WindowInterval i = WindowInterval.parse(e, role);
    if (i.kind == WindowInterval.Kind.ROWS) {
      // Tumbling and sliding row-count windows are CountWindows; a session has no row-count form.
      throw TableException.unsupported("A row-count session gap (" + role + " " + e + ")");
    }
    if (i.kind != WindowInterval.Kind.TIME) {
      throw new ValidationException(role + " expects a time interval, got " + e + ".");
    }
    if (i.value <= 0) {
      throw new ValidationException(role + " must be positive, got " + e + ".");
    }
    return i;
  }

  private Dataset<Row> assignWindows(Dataset<Row> df, Column time) {
    // LTZ instants are windowed on their wall-clock time in the session zone, as Flink does.
    Column t = localTimeZone ? time.cast(DataTypes.TimestampNTZType) : time;
    Column w;
    Column keep = null;
    switch (window.kind) {
      case TUMBLE:
        w = functions.window(t, timeInterval(window.size, "Tumbling window size").sparkDuration());
        break;
      case SLIDE: {
        WindowInterval size = timeInterval(window.size, "Sliding window size");
        WindowInterval slide = timeInterval(window.slide, "Sliding window slide");
        if (slide.value <= size.value) {
          w = functions.window(t, size.sparkDuration(), slide.sparkDuration());
        } else {
          // Spark needs slide <= size; with a larger slide each row is in at most one window: the
          // slide-aligned one that starts before it, if the row falls within its length.
          Column start = functions.window(t, slide.sparkDuration()).getField("start");
          Column end = start.plus(functions.lit(Duration.ofMillis(size.value)));
          w = functions.struct(start.as("start"), end.as("end"));
          keep = t.lt(functions.col(WINDOW_COLUMN).getField("end"));
        }
        break;
      }
      default: {
        WindowInterval gap = timeInterval(window.size, "Session window gap");
        // Over a stream, Spark's session_window merges sessions inside its stateful aggregation
        // (touching windows merge, as in Flink); the batch form below needs window functions.
        if (df.isStreaming()) {
          return df.select(functions.col("*"), functions.session_window(t, gap.sparkDuration()).as(WINDOW_COLUMN));
        }
        return withSessions(df, time, t, gap);
      }
    }
    Dataset<Row> out = df.select(functions.col("*"), w.as(WINDOW_COLUMN));
    return keep == null ? out : out.filter(keep);
  }

  /**
   * Each row with its merged session window per key, computed here rather than by Spark's
   * {@code session_window} (whose merging happens only inside a Spark aggregation), so that
   * Python aggregates can group by it too. In time order, a row starts a new session when it comes
   * more than a gap after the previous row (windows whose bounds touch merge, as in Flink); the
   * window spans the session's first row to its last row plus the gap. Rows without a time have no
   * window.
   */
  private Dataset<Row> withSessions(Dataset<Row> df, Column time, Column t, WindowInterval gap) {
    Scope scope = table.scope();
    List<Column> keyCols = new ArrayList<>(ExprCompiler.compileAll(ExprCompiler.expand(keys, scope), scope));
    if (keyCols.isEmpty()) keyCols.add(functions.lit(true)); // one partition, said explicitly
    Column gapLength = functions.lit(Duration.ofMillis(gap.value));
    // Ordered by the time attribute itself (an LTZ one's wall clock t has its order), so that a bounded
    // stream's changelog sees an event-time order, not a window ordered by a computed column.
    WindowSpec inTimeOrder = Window.partitionBy(keyCols.toArray(new Column[0])).orderBy(time);
    Column previous = functions.lag(t, 1).over(inTimeOrder);
    Column starts = functions.when(previous.isNull().or(t.gt(previous.plus(gapLength))), 1).otherwise(0);
    String startsColumn = "__pft_session_starts";
    String sessionColumn = "__pft_session";
    // The window functions below regroup the rows by key: a bounded stream's arrival order, which
    // decides its late rows, is numbered before (streaming.BoundedEventTime).
    boolean arrival = table.env.isStreaming();
    if (arrival) df = df.withColumn(TimeAttributes.ARRIVAL, functions.monotonically_increasing_id());
    Dataset<Row> numbered = df.filter(t.isNotNull())
        .withColumn(startsColumn, starts)
        .withColumn(sessionColumn, functions.sum(functions.col(startsColumn)).over(
            inTimeOrder.rowsBetween(Window.unboundedPreceding(), Window.currentRow())));
    List<Column> bySessionKeys = new ArrayList<>(keyCols);
    bySessionKeys.add(functions.col(sessionColumn));
    WindowSpec bySession = Window.partitionBy(bySessionKeys.toArray(new Column[0]));
    Column w = functions.struct(functions.min(t).over(bySession).as("start"),
        functions.max(t).over(bySession).plus(gapLength).as("end"));
    List<Column> out = new ArrayList<>();
    for (String c : df.columns()) out.add(numbered.col(Scope.quote(c)));
    // A bounded stream's sessions are formed again without its late rows (streaming.BoundedSessions),
    // from each row's own window [t, t + gap), unless PyFlink's Python window operator keeps them.
    if (arrival) out.add(functions.struct(t.as("start"), t.plus(gapLength).as("end")).as(TimeAttributes.ROW_WINDOW));
    out.add(w.as(WINDOW_COLUMN));
    return numbered.select(out.toArray(new Column[0]));
  }

  /** The input rows with their window in {@link #WINDOW_COLUMN} (one row per window for slides). */
  public Dataset<Row> windowedInput() {
    return windowed;
  }

  /** A scope over {@link #windowedInput()} in which {@code alias.start/end/rowtime} resolve. */
  public Scope scope() {
    Scope scope = new Scope(windowed, table.env.functions);
    if (countWindow) return scope; // no properties: CountWindows.refuseProperties
    Column w = functions.col(WINDOW_COLUMN);
    Column end = w.getField("end");
    Column rowtime = end.minus(functions.lit(Duration.ofMillis(1)));
    Map<String, Column> props = new LinkedHashMap<>();
    props.put("start", w.getField("start"));
    props.put("end", end);
    props.put("rowtime", localTimeZone ? rowtime.cast(DataTypes.TimestampType) : rowtime);
    scope.windowProperties.put(window.alias, props);
    return scope;
  }

  /** The grouping: the window first, then the keys. */
  public List<Column> groupingColumns(Scope scope) {
    return ExprCompiler.compileAll(groupingExprs(scope), scope);
  }

  /** The grouping as expressions: the window column, then the keys. */
  public List<Expr> groupingExprs(Scope scope) {
    List<Expr> out = new ArrayList<>();
    out.add(new Expr.FieldRef(WINDOW_COLUMN));
    out.addAll(ExprCompiler.expand(keys, scope));
    return out;
  }

  public JTable select(Expr[] items) {
    try {
      if (countWindow) CountWindows.refuseProperties(window, Arrays.asList(items));
      Scope scope = scope();
      List<Expr> expanded = ExprCompiler.expand(Arrays.asList(items), scope);
      if (table.df.isStreaming()) {
        Dataset<Row> fired = StreamWindowSelect.select(this, expanded, scope);
        if (fired != null) return table.copyWith(withPropertyTypes(fired, expanded));
      }
      List<Column> grouping = groupingColumns(scope);
      Dataset<Row> input = windowed;
      // A bounded stream's late rows never reach PyFlink's pandas window operator; ours is no Spark
      // aggregation that streaming.BoundedEventTime could rewrite when the job runs, so drop them here.
      if (table.env.isStreaming() && !windowed.isStreaming() && !countWindow
          && PythonAggregateSelect.callsPandasOnly(expanded, scope)) {
        input = table.env.boundedOnTimeRows(windowed, grouping);
      }
      Dataset<Row> out = PythonAggregateSelect.select(input, grouping, groupingExprs(scope), expanded, scope);
      if (out == null) out = GroupedJTable.aggregate(windowed, grouping, ExprCompiler.compileNamed(expanded, scope));
      return table.copyWith(withPropertyTypes(out, expanded));
    } catch (ValidationException e) {
      throw withoutWindowColumn(e);
    }
  }

  /** Field lists in errors name the user's fields only, not the internal window column. */
  static ValidationException withoutWindowColumn(ValidationException e) {
    String m = e.getMessage();
    if (m == null || !m.contains(WINDOW_COLUMN)) return e;
    return new ValidationException(m.replace(", " + WINDOW_COLUMN, "").replace(WINDOW_COLUMN + ", ", ""));
  }

  /** Window properties are TIMESTAMP(3) in Flink (rowtime of an LTZ window TIMESTAMP_LTZ(3)). */
  private Dataset<Row> withPropertyTypes(Dataset<Row> out, List<Expr> items) {
    String[] names = out.columns();
    String[] tmp = new String[names.length];
    for (int i = 0; i < tmp.length; i++) tmp[i] = "__pft_p" + i;
    Dataset<Row> renamed = out.toDF(tmp);
    List<Column> cols = new ArrayList<>();
    boolean changed = false;
    for (int i = 0; i < names.length; i++) {
      Metadata md = out.schema().fields()[i].metadata();
      String property = i < items.size() ? propertyOf(items.get(i)) : null;
      if (property != null) {
        String type = property.equals("rowtime") && localTimeZone ? "TIMESTAMP_LTZ(3)" : "TIMESTAMP(3)";
        md = new MetadataBuilder().withMetadata(md).putString(FlinkTypes.METADATA_KEY, type).build();
        changed = true;
      }
      cols.add(renamed.col(tmp[i]).as(names[i], md));
    }
    return changed ? renamed.select(cols.toArray(new Column[0])) : out;
  }

  /** The property name when the item is {@code alias.start/end/rowtime}, possibly renamed. */
  private String propertyOf(Expr e) {
    while (e instanceof Expr.Call && FunctionCatalog.normalize(((Expr.Call) e).name).equals("as")) {
      e = ((Expr.Call) e).arg(0);
    }
    if (!(e instanceof Expr.Call)) return null;
    Expr.Call c = (Expr.Call) e;
    String n = FunctionCatalog.normalize(c.name);
    boolean isProperty = n.equals("start") || n.equals("end") || n.equals("rowtime");
    if (isProperty && c.args.size() == 1 && c.arg(0) instanceof Expr.FieldRef
        && ((Expr.FieldRef) c.arg(0)).name.equals(window.alias)) {
      return n;
    }
    return null;
  }
}
