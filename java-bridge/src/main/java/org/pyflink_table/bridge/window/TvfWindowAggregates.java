package org.pyflink_table.bridge.window;

import static org.apache.spark.sql.functions.struct;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.GetStructField;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.PythonUDAF;
import org.apache.spark.sql.catalyst.expressions.PythonUDF;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateFunction;
import org.apache.spark.sql.catalyst.expressions.aggregate.Average;
import org.apache.spark.sql.catalyst.expressions.aggregate.CollectSet;
import org.apache.spark.sql.catalyst.expressions.aggregate.Count;
import org.apache.spark.sql.catalyst.expressions.aggregate.Max;
import org.apache.spark.sql.catalyst.expressions.aggregate.Min;
import org.apache.spark.sql.catalyst.expressions.aggregate.Sum;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.classic.ExpressionColumnNode;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructType;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.protocol.Protocol;
import org.pyflink_table.bridge.udf.PythonAggregateFunction;

/**
 * Aggregations grouped by a window table function's {@code window_start} and {@code window_end}
 * over an unbounded source ({@code FROM TABLE(TUMBLE|HOP|CUMULATE(...)) GROUP BY k, window_start,
 * window_end}), planned as group windows: the aggregation also groups by a struct
 * {@code (start, end)} of those two columns, the shape of Spark's {@code window()} column, so the
 * streaming package places the watermark below it and groups by the window's last instant as for
 * {@code GROUP BY TUMBLE(...)}. Each window then fires once, when the watermark passes its end,
 * and a row is dropped from each of its windows that has already fired (Flink's window
 * aggregation: a HOP or CUMULATE row late for one window still counts in its later ones).
 * Grouping by only one of the two columns, or by an expression of them, is refused by name.
 * DISTINCT aggregates (with FILTER too) are computed from {@code collect_set} of their argument. A SESSION table
 * function's aggregation (over bounded sources too) is replanned as Spark's session window
 * aggregation over the rows' own windows, grouped by its PARTITION BY keys (with Python aggregates,
 * over the rowtime, for the window processor of {@link StreamWindowSql}); read otherwise, its rows
 * are each session's rows, collected by that aggregation and exploded when the session fires.
 */
public final class TvfWindowAggregates {
  private TvfWindowAggregates() {}

  /** The hidden grouping column: Spark's window struct of a table function's window. */
  private static final String WINDOW = "__pft_tvf_window";
  /** Whether {@code window} is the window struct this class groups a table function's aggregation by. */
  public static boolean isWindow(Attribute window) {
    return window.name().equals(WINDOW);
  }

  /** The constant key of a session aggregation without keys over a stream. */
  private static final String GLOBAL = "__pft_tvf_global";

  /**
   * {@code rows} (a SQL query's) with its window table function aggregations over a stream planned
   * as group windows; in streaming mode over bounded input too, so that each window is emitted
   * once and late rows are dropped (BoundedEventTime), as Flink's window aggregation does.
   */
  public static Dataset<Row> of(Dataset<Row> rows, boolean streamingMode) {
    LogicalPlan plan = rows.queryExecution().analyzed();
    // SESSION table functions are planned over bounded sources too (their rows are per-row windows).
    if (!streamingMode && !plan.isStreaming() && !hasSession(plan)) return rows;
    SparkSession spark = (SparkSession) rows.sparkSession();
    Planner planner = new Planner(spark, Set.of(), streamingMode);
    LogicalPlan out = planner.plan(plan);
    Set<String> read = new HashSet<>(planner.sessions);
    read.removeAll(planner.consumed);
    if (!read.isEmpty()) {
      if (!planner.consumed.isEmpty()) {
        throw TableException.unsupported("the rows of a SESSION window table function read both through an aggregation "
            + "grouped by window_start and window_end and otherwise in one query (use two queries)");
      }
      // The function's rows themselves (Flink emits each once its session closes): planned again, each
      // such function as its sessions' rows.
      out = new Planner(spark, read, streamingMode).plan(plan);
    }
    return out == plan ? rows : org.apache.spark.sql.classic.Dataset.ofRows(spark, out);
  }

  /** Whether a session table function's helper column is defined in {@code p}. */
  private static boolean hasSession(LogicalPlan p) {
    if (p instanceof Project) {
      for (NamedExpression e : ScalaInterop.list(((Project) p).projectList())) {
        if (e.name().startsWith(SqlWindows.TVF_WINDOW) && isSession(e.name().substring(SqlWindows.TVF_WINDOW.length()))) {
          return true;
        }
      }
    }
    for (LogicalPlan c : ScalaInterop.list(p.children())) {
      if (hasSession(c)) return true;
    }
    return false;
  }

  /** Whether a table function's helper columns' suffix names a SESSION one. */
  private static boolean isSession(String id) {
    return SqlWindows.Session.of(id) != null;
  }

  private static final class Planner {
    private final SparkSession spark;
    /** Columns that are a table function's window_start / window_end, by id, to the function's number. */
    private final Map<ExprId, String> starts = new HashMap<>();
    private final Map<ExprId, String> ends = new HashMap<>();
    /** Columns computed from a table function's window in any other way. */
    private final Set<ExprId> derived = new HashSet<>();
    /** Each window column's expression in the table function's helper columns (__pft_w0, __pft_e0). */
    private final Map<ExprId, Expression> definitions = new HashMap<>();
    /** SESSION table functions seen, and those an aggregation merged into sessions. */
    final Set<String> sessions = new HashSet<>();
    final Set<String> consumed = new HashSet<>();

    /** SESSION table functions whose rows are read (not aggregated): each becomes its sessions' rows. */
    private final Set<String> rowsOf;

    /** Whether the query runs in streaming mode (over bounded input, its plan is a batch one). */
    private final boolean streamingMode;

    Planner(SparkSession spark, Set<String> rowsOf, boolean streamingMode) {
      this.spark = spark;
      this.rowsOf = rowsOf;
      this.streamingMode = streamingMode;
    }

    LogicalPlan plan(LogicalPlan p) {
      LogicalPlan node = ScalaInterop.mapChildren(p, this::plan);
      if (node instanceof Project) {
        collect((Project) node);
        String id = rowsOf.isEmpty() ? null : sessionDefinedBy((Project) node);
        // Bottom-up, the function's own projection comes first; projections above keep its columns.
        if (id != null && !consumed.contains(id)) return sessionRows((Project) node, id);
      }
      if (node instanceof Aggregate) return windowed((Aggregate) node);
      return node;
    }

    /** The SESSION table function (among {@link #rowsOf}) whose window_start {@code p} defines, or null. */
    private String sessionDefinedBy(Project p) {
      for (Attribute o : ScalaInterop.list(p.output())) {
        String id = starts.get(o.exprId());
        if (id != null && rowsOf.contains(id) && o.name().equals("window_start")) {
          for (NamedExpression e : ScalaInterop.list(p.projectList())) {
            if (e.exprId().equals(o.exprId()) && e instanceof Alias) return id;
          }
        }
      }
      return null;
    }

    /**
     * The table function's output {@code p} as its sessions' rows: Spark's session window
     * aggregation (that of {@link #sessions}) keeps each session's rows as a list, which is
     * exploded when the session fires; window_start, window_end and window_time read the merged
     * session. Under {@code p}'s own output attributes, so the plan above still resolves.
     */
    private LogicalPlan sessionRows(Project p, String id) {
      Attribute start = null;
      Attribute end = null;
      List<Attribute> columns = new ArrayList<>();
      List<Attribute> windowColumns = new ArrayList<>();
      Set<String> partition = SqlWindows.Session.of(id).partitionKeys();
      List<Expression> grouping = new ArrayList<>();
      for (Attribute o : ScalaInterop.list(p.output())) {
        if (id.equals(starts.get(o.exprId())) && o.name().equals("window_start")) start = o;
        else if (id.equals(ends.get(o.exprId())) && o.name().equals("window_end")) end = o;
        else if (definitions.containsKey(o.exprId())) windowColumns.add(o);
        else columns.add(o);
      }
      if (start == null || end == null) {
        throw TableException.unsupported("the rows of a SESSION window table function without its window_start and "
            + "window_end columns");
      }
      grouping.add(start);
      grouping.add(end);
      for (Attribute c : columns) {
        if (partition.contains(c.name().toLowerCase(java.util.Locale.ROOT))) grouping.add(c);
      }
      if (grouping.size() != 2 + partition.size()) {
        throw TableException.unsupported("the rows of a SESSION window table function without its PARTITION BY keys "
            + new java.util.TreeSet<>(partition));
      }
      List<Expression> fields = new ArrayList<>();
      for (int i = 0; i < columns.size(); i++) {
        fields.add(org.apache.spark.sql.catalyst.expressions.Literal.create("c" + i,
            org.apache.spark.sql.types.DataTypes.StringType));
        fields.add(columns.get(i));
      }
      Expression rowStruct = new org.apache.spark.sql.catalyst.expressions.CreateNamedStruct(ScalaInterop.seq(fields));
      Expression list = new AggregateExpression(new org.apache.spark.sql.catalyst.expressions.aggregate.CollectList(
          rowStruct), org.apache.spark.sql.catalyst.expressions.aggregate.Complete$.MODULE$, false,
          scala.Option.empty(), NamedExpression.newExprId());
      List<NamedExpression> results = new ArrayList<>();
      results.add(start);
      results.add(end);
      Alias rowsAlias = new Alias(list, SESSION_ROWS, NamedExpression.newExprId(), ScalaInterop.seq(List.of()),
          scala.Option.empty(), ScalaInterop.seq(List.of()));
      results.add(rowsAlias);
      Aggregate merged = sessions(new Aggregate(ScalaInterop.seq(grouping), ScalaInterop.seq(results), p,
          scala.Option.empty()), start, id);
      List<Attribute> out = ScalaInterop.list(merged.output());
      Dataset<Row> exploded = org.apache.spark.sql.classic.Dataset.ofRows(spark, merged)
          .select(column(out.get(0)), column(out.get(1)),
              org.apache.spark.sql.functions.explode(column(out.get(2))).as(SESSION_ROWS));
      LogicalPlan generated = exploded.queryExecution().analyzed();
      List<Attribute> g = ScalaInterop.list(generated.output());
      Attribute sessionStart = g.get(0);
      Attribute sessionEnd = g.get(1);
      Attribute row = g.get(2);
      List<NamedExpression> projected = new ArrayList<>();
      for (Attribute o : ScalaInterop.list(p.output())) {
        Expression value;
        if (o.exprId().equals(start.exprId())) value = sessionStart;
        else if (o.exprId().equals(end.exprId())) value = sessionEnd;
        else if (windowColumns.contains(o)) value = overSession(definitions.get(o.exprId()), sessionStart, sessionEnd);
        else value = new GetStructField(row, columns.indexOf(o), scala.Option.apply("c" + columns.indexOf(o)));
        projected.add(new Alias(value, o.name(), o.exprId(), ScalaInterop.seq(List.of()), scala.Option.apply(o.metadata()),
            ScalaInterop.seq(List.of())));
      }
      consumed.add(id);
      return new Project(ScalaInterop.seq(projected), generated);
    }

    /** The hidden list of a session's rows. */
    private static final String SESSION_ROWS = "__pft_session_rows";

    /** A window column's definition over a merged session's bounds instead of the row's own window. */
    private static Expression overSession(Expression e, Attribute start, Attribute end) {
      if (e instanceof GetStructField && ((GetStructField) e).child() instanceof Attribute
          && ((Attribute) ((GetStructField) e).child()).name().startsWith(SqlWindows.TVF_WINDOW)) {
        return ((GetStructField) e).ordinal() == 0 ? start : end;
      }
      if (e instanceof Attribute && ((Attribute) e).name().startsWith(SqlWindows.TVF_END)) return end;
      if (e instanceof Attribute && ((Attribute) e).name().startsWith(SqlWindows.TVF_WINDOW)) {
        throw TableException.unsupported("the window struct of a SESSION window table function outside its aggregation");
      }
      return ScalaInterop.mapChildren(e, c -> overSession(c, start, end));
    }

    /** {@code e} with the window columns replaced by their definitions. */
    private Expression defined(Expression e) {
      if (e instanceof Attribute && definitions.containsKey(((Attribute) e).exprId())) {
        return definitions.get(((Attribute) e).exprId());
      }
      return ScalaInterop.mapChildren(e, this::defined);
    }

    /** Records the window columns a projection defines or renames. */
    private void collect(Project p) {
      for (NamedExpression e : ScalaInterop.list(p.projectList())) {
        // The table function's own helper columns (__pft_w0, __pft_e0) are not results.
        if (!(e instanceof Alias) || e.name().startsWith(SqlWindows.TVF_WINDOW) || e.name().startsWith(SqlWindows.TVF_END)) {
          continue;
        }
        Expression child = ((Alias) e).child();
        Expression definition = defined(child);
        for (Attribute r : ScalaInterop.list(definition.references().toSeq())) {
          if (r.name().startsWith(SqlWindows.TVF_WINDOW) || r.name().startsWith(SqlWindows.TVF_END)) {
            definitions.put(e.exprId(), definition);
          }
        }
        if (child instanceof Attribute) {
          ExprId id = ((Attribute) child).exprId();
          if (starts.containsKey(id)) starts.put(e.exprId(), starts.get(id));
          if (ends.containsKey(id)) ends.put(e.exprId(), ends.get(id));
          if (derived.contains(id)) derived.add(e.exprId());
          if (starts.containsKey(id) || ends.containsKey(id) || derived.contains(id)) continue;
        }
        for (Attribute r : ScalaInterop.list(child.references().toSeq())) {
          String name = r.name();
          if (e.name().equals("window_start") && name.startsWith(SqlWindows.TVF_WINDOW)) {
            starts.put(e.exprId(), name.substring(SqlWindows.TVF_WINDOW.length()));
            if (isSession(starts.get(e.exprId()))) sessions.add(starts.get(e.exprId()));
          } else if (e.name().equals("window_end") && name.startsWith(SqlWindows.TVF_END) && child instanceof Attribute) {
            ends.put(e.exprId(), name.substring(SqlWindows.TVF_END.length()));
          } else if (name.startsWith(SqlWindows.TVF_WINDOW) || name.startsWith(SqlWindows.TVF_END)
              || starts.containsKey(r.exprId()) || ends.containsKey(r.exprId()) || derived.contains(r.exprId())) {
            derived.add(e.exprId());
          }
        }
      }
    }

    private Aggregate windowed(Aggregate a) {
      Attribute start = null;
      Attribute end = null;
      boolean byWindow = false;
      for (Expression g : ScalaInterop.list(a.groupingExpressions())) {
        for (Attribute r : ScalaInterop.list(g.references().toSeq())) {
          ExprId id = r.exprId();
          boolean plain = g instanceof Attribute;
          if (plain && starts.containsKey(id)) start = r;
          else if (plain && ends.containsKey(id)) end = r;
          byWindow |= starts.containsKey(id) || ends.containsKey(id) || derived.contains(id);
        }
      }
      if (!byWindow) return a;
      String session = sessionOf(a);
      if (session == null && !a.isStreaming() && !streamingMode) return a;
      boolean bothColumns = start != null && end != null && starts.get(start.exprId()).equals(ends.get(end.exprId()));
      // Over bounded input in streaming mode, what is not a window aggregation stays the updating one.
      if (!a.isStreaming() && session == null && (!bothColumns || rowtimeOf(a) == null)) return a;
      if (!bothColumns) {
        throw TableException.unsupported("an aggregation over an unbounded source in streaming mode grouped by a "
            + "window table function's columns other than both window_start and window_end (group by window_start, "
            + "window_end and other keys, as Flink's window aggregation requires)");
      }
      // PyFlink 2.3 finds no 'merge' method of JSON_ARRAYAGG for a HOP's or CUMULATE's slices (measured).
      if (a.isStreaming() && SqlWindows.slides(starts.get(start.exprId()))) StreamWindowSql.refuseJsonArrayAgg(a);
      String python = pythonAggregate(a);
      if (session != null && !groupedByPartition(a, session)) {
        // Flink plans an updating group aggregation of the sessions' rows (each emitted when its
        // session closes) then: left as it is, it reads the function's rows and runs as one. Over a
        // stream that would chain Spark's session aggregation and an updating one, which Spark refuses.
        if (a.isStreaming()) {
          throw TableException.unsupported("a SESSION window table function aggregation over an unbounded source whose "
              + "keys besides window_start and window_end " + new java.util.TreeSet<>(keyNames(a)) + " differ from its "
              + "PARTITION BY keys " + new java.util.TreeSet<>(SqlWindows.Session.of(session).partitionKeys())
              + " (Flink plans an updating aggregation of the sessions' rows there; partition by the grouping keys)");
        }
        return a;
      }
      if (session != null) {
        // Python aggregates, and built-ins the processor computes all of, run on the window processor
        // of GROUP BY SESSION, which reads the sessions from a session window on the rowtime.
        Attribute time = python != null && a.isStreaming() ? rowtime(a, python) : start;
        if (python == null && a.isStreaming() && StreamWindowSql.builtInsOnProcessor(a)) {
          Attribute rowtime = soleRowtime(a);
          if (rowtime != null) time = rowtime;
        }
        return sessions(a, time, session);
      }
      // A general Python aggregate: PyFlink 2.3 plans an updating group aggregation of the windowed
      // rows (keys window_start, window_end, ...), late rows included, its changes per bundle of its
      // Python operator (measured); the changelog path runs the plain aggregation as that.
      if (python != null && !pandas(a)) return a;
      // Spark's streaming aggregation refuses distinct aggregates: each becomes a set of the window's values.
      if (distinct(a)) a = withoutDistinct(spark, a);
      if (rowtimeOf(a) == null) {
        // The watermark is placed below the aggregation, on the event-time column.
        throw TableException.unsupported("a window table function aggregation over an unbounded source whose input "
            + "does not carry the table function's time column with its WATERMARK (keep that column in the "
            + "subquery's select list)");
      }
      Dataset<Row> child = org.apache.spark.sql.classic.Dataset.ofRows(spark, a.child());
      LogicalPlan withWindow = child.withColumn(WINDOW, struct(column(start).as("start"), column(end).as("end")))
          .queryExecution().analyzed();
      List<Attribute> out = ScalaInterop.list(withWindow.output());
      Attribute window = out.get(out.size() - 1);
      List<Expression> grouping = new ArrayList<>();
      grouping.add(window); // first: the streaming package takes the first struct key as the window
      grouping.addAll(ScalaInterop.list(a.groupingExpressions()));
      return new Aggregate(ScalaInterop.seq(grouping), a.aggregateExpressions(), withWindow, a.hint());
    }

    /**
     * The rowtime column below {@code a}: Python aggregates in a SESSION table function's
     * aggregation run on the window processor of {@code GROUP BY SESSION(ts, gap)}, whose sessions
     * are read from a session window over the watermarked time column (PyFlink 2.3 emits each
     * session once as {@code +I} there for a general one, measured).
     */
    private Attribute rowtime(Aggregate a, String python) {
      Attribute found = soleRowtime(a);
      if (found == null) {
        throw TableException.unsupported("the Python aggregate function " + python + " in a SESSION window table "
            + "function aggregation over an unbounded source whose input does not carry exactly one TIMESTAMP "
            + "column with a WATERMARK; use GROUP BY SESSION(ts, gap)");
      }
      return found;
    }

    /** A column with a watermark below {@code a}, or null. */
    private static Attribute rowtimeOf(Aggregate a) {
      for (Attribute c : ScalaInterop.list(a.child().output())) {
        if (c.metadata().contains(TimeAttributes.WATERMARK_DELAY_MS)) return c;
      }
      return null;
    }

    /** The one TIMESTAMP column with a watermark below {@code a}, or null. */
    private Attribute soleRowtime(Aggregate a) {
      Attribute found = null;
      for (Attribute c : ScalaInterop.list(a.child().output())) {
        if (!c.metadata().contains(TimeAttributes.WATERMARK_DELAY_MS)) continue;
        if (found != null || !(c.dataType() instanceof org.apache.spark.sql.types.TimestampNTZType)) {
          found = null;
          break;
        }
        found = c;
      }
      return found;
    }

    /** {@code a}'s grouping keys other than a table function's window columns. */
    private List<Expression> keys(Aggregate a) {
      List<Expression> keys = new ArrayList<>();
      for (Expression g : ScalaInterop.list(a.groupingExpressions())) {
        if (definitions.containsKey(g instanceof Attribute ? ((Attribute) g).exprId() : null) || !defined(g).equals(g)) continue;
        keys.add(g);
      }
      return keys;
    }

    /** The names of {@code a}'s keys besides the window columns, as PARTITION BY keys are named. */
    private Set<String> keyNames(Aggregate a) {
      Set<String> names = new HashSet<>();
      for (Expression g : keys(a)) {
        names.add(g instanceof Attribute ? ((Attribute) g).name().toLowerCase(java.util.Locale.ROOT) : g.sql());
      }
      return names;
    }

    /** Whether {@code a}'s keys besides the window columns are the SESSION function {@code id}'s PARTITION BY keys. */
    private boolean groupedByPartition(Aggregate a, String id) {
      return keyNames(a).equals(SqlWindows.Session.of(id).partitionKeys());
    }

    /** The SESSION table function {@code a} groups by, or null. */
    private String sessionOf(Aggregate a) {
      for (Expression g : ScalaInterop.list(a.groupingExpressions())) {
        for (Attribute r : ScalaInterop.list(defined(g).references().toSeq())) {
          String name = r.name();
          String id = name.startsWith(SqlWindows.TVF_WINDOW) ? name.substring(SqlWindows.TVF_WINDOW.length())
              : name.startsWith(SqlWindows.TVF_END) ? name.substring(SqlWindows.TVF_END.length()) : null;
          if (id != null && isSession(id)) return id;
        }
      }
      return null;
    }

    /**
     * A SESSION table function's aggregation as Spark's session window aggregation (that of
     * {@code GROUP BY SESSION(ts, gap)}): grouped by {@code session_window(window_start, gap)} over
     * the rows' own windows and by the other keys, which must be the function's PARTITION BY keys
     * (Flink plans a window aggregation only then); the window columns read the merged session.
     */
    private Aggregate sessions(Aggregate a, Attribute start, String id) {
      long gapMs = SqlWindows.Session.of(id).gapMs();
      List<Expression> keys = keys(a);
      Dataset<Row> child = org.apache.spark.sql.classic.Dataset.ofRows(spark, a.child());
      if (keys.isEmpty() && a.isStreaming()) {
        // Spark refuses a streaming session aggregation without keys: one constant key for all rows.
        child = child.withColumn(GLOBAL, org.apache.spark.sql.functions.lit(0));
      }
      LogicalPlan withWindow = child.withColumn(WINDOW,
          org.apache.spark.sql.functions.session_window(column(start), gapMs + " milliseconds")).queryExecution().analyzed();
      List<Attribute> out = ScalaInterop.list(withWindow.output());
      Attribute window = out.get(out.size() - 1);
      List<Expression> grouping = new ArrayList<>();
      grouping.add(window); // first: the streaming package takes the first struct key as the window
      grouping.addAll(keys);
      if (keys.isEmpty() && a.isStreaming()) grouping.add(out.get(out.size() - 2));
      List<NamedExpression> results = new ArrayList<>();
      for (NamedExpression e : ScalaInterop.list(a.aggregateExpressions())) {
        if (e instanceof Attribute && definitions.containsKey(e.exprId())) {
          results.add(new Alias(merged(definitions.get(e.exprId()), window), e.name(), e.exprId(),
              ScalaInterop.seq(List.of()), scala.Option.empty(), ScalaInterop.seq(List.of())));
        } else {
          results.add((NamedExpression) merged(ScalaInterop.mapChildren((Expression) (Object) e, this::defined), window));
        }
      }
      consumed.add(id);
      return new Aggregate(ScalaInterop.seq(grouping), ScalaInterop.seq(results), withWindow, a.hint());
    }
  }

  /** A window column's definition over the merged session {@code window} instead of the row's own window. */
  private static Expression merged(Expression e, Attribute window) {
    if (e instanceof Attribute && ((Attribute) e).name().startsWith(SqlWindows.TVF_WINDOW)) return window;
    if (e instanceof Attribute && ((Attribute) e).name().startsWith(SqlWindows.TVF_END)) {
      return new GetStructField(window, 1, scala.Option.apply("end"));
    }
    return ScalaInterop.mapChildren(e, c -> merged(c, window));
  }

  private static Column column(Expression e) {
    return new Column(ExpressionColumnNode.apply(e, ExpressionColumnNode.apply$default$2()));
  }

  /** {@code a} with each DISTINCT aggregate computed from {@code collect_set} of its argument (nulls skipped, as DISTINCT). */
  private static Aggregate withoutDistinct(SparkSession spark, Aggregate a) {
    List<NamedExpression> results = new ArrayList<>();
    for (NamedExpression e : ScalaInterop.list(a.aggregateExpressions())) {
      results.add((NamedExpression) undistinct(spark, (Expression) (Object) e));
    }
    return new Aggregate(a.groupingExpressions(), ScalaInterop.seq(results), a.child(), a.hint());
  }

  private static Expression undistinct(SparkSession spark, Expression e) {
    if (!(e instanceof AggregateExpression) || !((AggregateExpression) e).isDistinct()) {
      return ScalaInterop.mapChildren(e, c -> undistinct(spark, c));
    }
    AggregateExpression ae = (AggregateExpression) e;
    AggregateFunction f = ae.aggregateFunction();
    List<Expression> args = ScalaInterop.list(f.children());
    if (f instanceof Min || f instanceof Max) {
      return new AggregateExpression(f, ae.mode(), false, ae.filter(), ae.resultId());
    }
    boolean numeric = args.size() == 1 && args.get(0).dataType() instanceof NumericType;
    if (args.size() != 1 || (!(f instanceof Count) && !numeric)
        || !(f instanceof Count || f instanceof Sum || f instanceof Average)) {
      throw TableException.unsupported("the DISTINCT aggregate " + f.prettyName().toUpperCase(java.util.Locale.ROOT)
          + " of " + args.size() + " argument(s) of type " + (args.isEmpty() ? "none" : args.get(0).dataType().sql())
          + " in a window table function aggregation over an "
          + "unbounded source in streaming mode (COUNT of any one value, SUM, AVG, MIN and MAX of one number run)");
    }
    // A FILTER clause filters the set's values (an empty set: COUNT 0, SUM and AVG NULL, as Flink's).
    Expression set = new AggregateExpression(new CollectSet(args.get(0)), ae.mode(), false, ae.filter(),
        NamedExpression.newExprId());
    String type = ae.dataType().sql();
    // AVG sums a DECIMAL exactly (Spark's decimal division then rounds half up, as Flink's), others in DOUBLE.
    org.apache.spark.sql.types.DataType in = args.get(0).dataType();
    String acc = in instanceof DecimalType ? "DECIMAL(38, " + ((DecimalType) in).scale() + ")" : "DOUBLE";
    String text = f instanceof Count ? "CAST(size(s) AS " + type + ")"
        : f instanceof Sum ? "aggregate(s, CAST(NULL AS " + type + "), (acc, x) -> CAST(coalesce(acc, CAST(0 AS " + type
            + ")) + CAST(x AS " + type + ") AS " + type + "))" // the CAST keeps a DECIMAL sum's type
        : "CASE WHEN size(s) = 0 THEN CAST(NULL AS " + type + ") ELSE CAST(aggregate(s, CAST(0 AS " + acc
            + "), (acc, x) -> CAST(acc + CAST(x AS " + acc + ") AS " + acc + ")) / size(s) AS " + type + ") END";
    // Resolved by Spark over a one-column relation s, whose attribute is then the set.
    Dataset<Row> over = spark.createDataFrame(new ArrayList<Row>(), new StructType().add("s", set.dataType()));
    LogicalPlan resolved = over.select(org.apache.spark.sql.functions.expr(text)).queryExecution().analyzed();
    Expression value = ((Alias) ScalaInterop.list(((Project) resolved).projectList()).get(0)).child();
    Attribute s = ScalaInterop.list(((Project) resolved).child().output()).get(0);
    return substitute(value, s, set);
  }

  private static Expression substitute(Expression e, Attribute from, Expression to) {
    if (e instanceof Attribute && ((Attribute) e).exprId().equals(from.exprId())) return to;
    return ScalaInterop.mapChildren(e, c -> substitute(c, from, to));
  }

  private static boolean distinct(Aggregate a) {
    for (NamedExpression e : ScalaInterop.list(a.aggregateExpressions())) {
      if (distinct((Expression) (Object) e)) return true;
    }
    return false;
  }

  private static boolean distinct(Expression e) {
    if (e instanceof AggregateExpression && ((AggregateExpression) e).isDistinct()) return true;
    for (Expression c : ScalaInterop.list(e.children())) {
      if (distinct(c)) return true;
    }
    return false;
  }

  /** Whether the aggregation calls a pandas aggregate function. */
  private static boolean pandas(Aggregate a) {
    for (NamedExpression e : ScalaInterop.list(a.aggregateExpressions())) {
      if (pandas((Expression) (Object) e)) return true;
    }
    return false;
  }

  private static boolean pandas(Expression e) {
    if (PythonAggregateFunction.isPandas(e)) return true;
    for (Expression c : ScalaInterop.list(e.children())) {
      if (pandas(c)) return true;
    }
    return false;
  }

  /** The name of the first Python aggregate function (general or pandas) among the aggregation's results, or null. */
  private static String pythonAggregate(Aggregate a) {
    for (NamedExpression e : ScalaInterop.list(a.aggregateExpressions())) {
      String name = pythonAggregate((Expression) (Object) e);
      if (name != null) return name;
    }
    return null;
  }

  private static String pythonAggregate(Expression e) {
    if (e instanceof PythonUDAF) return ((PythonUDAF) e).name();
    if (e instanceof PythonUDF && ((PythonUDF) e).evalType() == Protocol.EVAL_GROUPED_AGG_PANDAS_UDF) {
      return ((PythonUDF) e).name();
    }
    for (Expression c : ScalaInterop.list(e.children())) {
      String name = pythonAggregate(c);
      if (name != null) return name;
    }
    return null;
  }
}
