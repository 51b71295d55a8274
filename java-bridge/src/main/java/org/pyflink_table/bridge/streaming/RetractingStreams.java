package org.pyflink_table.bridge.streaming;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.api.python.SimplePythonFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Ascending$;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Between;
import org.apache.spark.sql.catalyst.expressions.BinaryComparison;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.GreaterThan;
import org.apache.spark.sql.catalyst.expressions.GreaterThanOrEqual;
import org.apache.spark.sql.catalyst.expressions.LessThan;
import org.apache.spark.sql.catalyst.expressions.LessThanOrEqual;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.NullsFirst$;
import org.apache.spark.sql.catalyst.expressions.RowNumber;
import org.apache.spark.sql.catalyst.expressions.SortOrder;
import org.apache.spark.sql.catalyst.expressions.WindowExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateFunction;
import org.apache.spark.sql.catalyst.expressions.aggregate.Count;
import org.apache.spark.sql.catalyst.expressions.aggregate.Max;
import org.apache.spark.sql.catalyst.expressions.aggregate.Min;
import org.apache.spark.sql.catalyst.plans.FullOuter$;
import org.apache.spark.sql.catalyst.plans.JoinType;
import org.apache.spark.sql.catalyst.plans.LeftOuter$;
import org.apache.spark.sql.catalyst.plans.RightOuter$;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.Deduplicate;
import org.apache.spark.sql.catalyst.plans.logical.Distinct;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.GlobalLimit;
import org.apache.spark.sql.catalyst.plans.logical.Join;
import org.apache.spark.sql.catalyst.plans.logical.LocalLimit;
import org.apache.spark.sql.catalyst.plans.logical.Offset;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.Sort;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.plans.logical.Union;
import org.apache.spark.sql.catalyst.plans.logical.View;
import org.apache.spark.sql.catalyst.plans.logical.Window;
import org.apache.spark.sql.classic.RelationalGroupedDataset;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.execution.python.UserDefinedPythonFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.protocol.Protocol;
import org.pyflink_table.bridge.table.JTable;
import org.pyflink_table.bridge.table.StateTtl;
import org.pyflink_table.bridge.table.TableContext;
import org.pyflink_table.bridge.udf.PackedAggregation;
import org.pyflink_table.bridge.udf.PythonCommand;
import org.pyflink_table.bridge.window.StreamOverSql;

/**
 * Regular outer joins and Top-N over unbounded sources, whose changelogs retract rows Flink has
 * already emitted: Spark has no such operators, so each becomes a {@code transformWithStateInPandas}
 * processor ({@code pyflink_table._worker.stream_changelogs}) keyed by the join key or the Top-N
 * partition key, and the stream carries each change's kind in a trailing {@link Changelog#OP}
 * column. Projections and filters above apply to each change, as Flink's Calc does; anything else
 * above, and updating inputs below, are refused by name. Inner joins stay Spark's stream-stream join
 * (append-only: Flink also emits only {@code +I} there). An aggregation of updates (of an updating
 * aggregation, an outer join or a Top-N) and the updating aggregations below it become
 * {@link RetractingAggregates} processors, so the changes flow between them as data.
 */
public final class RetractingStreams {
  private RetractingStreams() {}

  private static final String ROCKSDB = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";

  /**
   * The table's stream of changes with the trailing {@link Changelog#OP} column, for a plan over
   * unbounded sources with a retracting join or Top-N (see {@link #applies}), or any updating plan
   * (an updating aggregation becomes a processor emitting its changes per input row), for sinks
   * that take changelogs. The processors run in the Python worker of the table's environment
   * ({@link org.pyflink_table.bridge.table.TableContext#workerTemplate}).
   */
  public static Dataset<Row> changes(JTable table) {
    return Jobs.streamOf(table.env.spark, changesOf(table), false);
  }

  /**
   * {@link #changes} before the stream's watermarks are placed: an insert-only stream of change
   * rows ({@code to_changelog}), which the job that runs it places as any other stream.
   */
  static Dataset<Row> changesOf(JTable table) {
    LogicalPlan plan = table.df.queryExecution().analyzed();
    Jobs.checkSorts(plan);
    SparkSession spark = (SparkSession) table.env.spark;
    Set<ExprId> needed = new HashSet<>();
    for (Attribute a : ScalaInterop.list(plan.output())) needed.add(a.exprId());
    Context context = new Context(table.env, needed);
    LogicalPlan rewritten = rewrite(plan, context);
    return org.apache.spark.sql.classic.Dataset.ofRows(spark, rewritten);
  }

  /** Whether the plan has a retracting join or Top-N over unbounded sources (whose changes {@link #changes} gives). */
  public static boolean applies(JTable table) {
    LogicalPlan plan = table.df.queryExecution().analyzed();
    return retractingNode(plan) != null || unionOfChanges(plan, new Kinds());
  }

  /**
   * Whether the plan has a union of unbounded inputs of which one is updating: Flink passes each
   * input's changes through, so the updating aggregations below run on the processors that emit
   * their changes as rows (one per input change, as Flink), which the union merges.
   */
  private static boolean unionOfChanges(LogicalPlan p, Kinds kinds) {
    if (p instanceof Union && p.isStreaming()) {
      for (LogicalPlan c : ScalaInterop.list(p.children())) if (kinds.of(c) != Kind.APPEND) return true;
    }
    for (LogicalPlan c : ScalaInterop.list(p.children())) if (unionOfChanges(c, kinds)) return true;
    return false;
  }

  /** Flink's name of the first retracting join or Top-N over unbounded sources in the plan, or null. */
  public static String retractingNode(LogicalPlan p) {
    return new Kinds().retracting(p, false);
  }

  /**
   * As {@link #retractingNode(LogicalPlan)}; with {@code bounded}, over bounded inputs too: a
   * streaming-mode environment plans them with the same operators, whose deletes an append-only
   * sink refuses (measured on PyFlink 2.3).
   */
  public static String retractingNode(LogicalPlan p, boolean bounded) {
    return new Kinds().retracting(p, bounded);
  }

  /** What a node's stream carries: appended rows only, updates (of an aggregation), or retractions. */
  enum Kind { APPEND, UPDATING, RETRACTING }

  /**
   * Per node of a plan: Flink's name of the first retracting node (outer or updating join, Top-N,
   * aggregation of updates) and of the first updating node ({@link Changelog#updatingNode}) at or
   * below it. Each node is decided once, from its children's answers, bottom-up: a node's answer is
   * kept by identity (plans are immutable), so asking about every node of a plan stays linear.
   */
  static final class Kinds {
    private final Map<LogicalPlan, String> retracting = new IdentityHashMap<>();
    private final Map<LogicalPlan, String> retractingBounded = new IdentityHashMap<>();
    private final Map<LogicalPlan, String> updating = new IdentityHashMap<>();

    /** What {@code p}'s stream carries over unbounded sources. */
    Kind of(LogicalPlan p) {
      return retracting(p, false) != null ? Kind.RETRACTING : updating(p) != null ? Kind.UPDATING : Kind.APPEND;
    }

    /** {@link Changelog#updatingNode}, memoised. */
    String updating(LogicalPlan p) {
      if (updating.containsKey(p)) return updating.get(p);
      String found = Changelog.ownUpdatingNode(p);
      for (LogicalPlan c : ScalaInterop.list(p.children())) {
        if (found == null) found = updating(c);
      }
      updating.put(p, found);
      return found;
    }

    /** {@link RetractingStreams#retractingNode(LogicalPlan, boolean)}, memoised. */
    String retracting(LogicalPlan p, boolean bounded) {
      Map<LogicalPlan, String> known = bounded ? retractingBounded : retracting;
      if (known.containsKey(p)) return known.get(p);
      String found = null;
      if (p instanceof Join && (isOuterStreamJoin((Join) p, bounded) || isJoinOfUpdates((Join) p))) {
        found = joinName((Join) p);
      } else if (isAggregationOfUpdates(p, bounded)) {
        found = updating(p);
      } else if (!bounded && p.isStreaming() && sortLimit(p, this) != null) {
        found = sortLimitName(sortLimit(p, this));
      } else if (distinctOf(p) != null && (bounded || p.isStreaming()) && of(distinctOf(p)) != Kind.APPEND) {
        found = distinctName(p);
      } else if (p instanceof Window && (bounded || p.isStreaming()) && rowNumber((Window) p) != null) {
        found = "Rank(" + p.simpleString(50) + ")";
      } else if (p instanceof Window && (bounded || p.isStreaming()) && StreamOverSql.isNonTimeUnboundedShape((Window) p)) {
        found = StreamOverSql.nonTimeNodeName((Window) p);
      }
      for (LogicalPlan c : ScalaInterop.list(p.children())) {
        if (found == null) found = retracting(c, bounded);
      }
      known.put(p, found);
      return found;
    }

    /**
     * An aggregation of an updating stream (it retracts what it emitted before): SQL's and built-in
     * ones are Spark Aggregates, the Table API's of Python functions a packed aggregation.
     */
    private boolean isAggregationOfUpdates(LogicalPlan p, boolean bounded) {
      if (!(bounded || p.isStreaming())) return false;
      PackedAggregation.Aggregation packed = PackedAggregation.aggregationOf(p);
      LogicalPlan child = packed != null ? packed.df().queryExecution().analyzed()
          : p instanceof Aggregate && !Changelog.isWindowed((Aggregate) p) ? ((Aggregate) p).child() : null;
      return child != null && (updating(child) != null || retracting(child, bounded) != null);
    }

    /** A regular join of two streams of which one is updating (an inner join of insert-only streams stays Spark's). */
    private boolean isJoinOfUpdates(Join j) {
      if (!j.left().isStreaming() || !j.right().isStreaming()) return false;
      return of(j.left()) != Kind.APPEND || of(j.right()) != Kind.APPEND;
    }
  }

  /**
   * ORDER BY ... LIMIT n [OFFSET m] (or LIMIT n of an updating input) over a stream: Flink's Top-N
   * without partitions, ranks {@code start} (m + 1) to {@code limit} (m + n).
   */
  record SortLimit(List<SortOrder> sorts, LogicalPlan child, long limit, long start) {}

  /**
   * {@code p} as a {@link SortLimit}: a LIMIT of a sort, or of an updating input (Flink ranks it
   * too, its rows all equal), or null. A LIMIT of an insert-only stream stays Spark's (the first n
   * rows, as Flink emits them).
   */
  static SortLimit sortLimit(LogicalPlan p, Kinds kinds) {
    if (!(p instanceof GlobalLimit) || !(((GlobalLimit) p).child() instanceof LocalLimit)) return null;
    Expression n = ((GlobalLimit) p).limitExpr();
    if (!n.foldable() || !(n.eval(null) instanceof Number)) return null;
    LogicalPlan below = ((LocalLimit) ((GlobalLimit) p).child()).child();
    long limit = ((Number) n.eval(null)).longValue();
    long offset = 0;
    Sort sort = Jobs.offsetSort(below);
    if (sort != null) {
      // LIMIT n OFFSET m: Spark's Limit(n) of an Offset(m) of the sort, Flink's ranks m + 1 to m + n.
      offset = ((Number) ((Offset) below).offsetExpr().eval(null)).longValue();
      below = sort;
    }
    if (below instanceof Sort) {
      return new SortLimit(ScalaInterop.list(((Sort) below).order()), ((Sort) below).child(), offset + limit, offset + 1);
    }
    return kinds.of(below) != Kind.APPEND ? new SortLimit(List.of(), below, limit, 1) : null;
  }

  private static String sortLimitName(SortLimit s) {
    List<String> order = new ArrayList<>();
    for (SortOrder o : s.sorts()) order.add(o.child().sql().replace("`", "") + (o.direction() == Ascending$.MODULE$ ? " ASC" : " DESC"));
    return "SortLimit(orderBy=[" + String.join(", ", order) + "], offset=[" + (s.start() - 1) + "], fetch=["
        + (s.limit() - s.start() + 1) + "])";
  }

  /**
   * The input of a DISTINCT ({@code p}: SQL's UNION or SELECT DISTINCT, the Table API's
   * {@code distinct()}, a deduplication by every column), or null.
   */
  static LogicalPlan distinctOf(LogicalPlan p) {
    if (p instanceof Distinct) return ((Distinct) p).child();
    if (p instanceof Deduplicate && ((Deduplicate) p).keys().size() == ((Deduplicate) p).child().output().size()) {
      return ((Deduplicate) p).child();
    }
    return null;
  }

  /** Flink's name of a DISTINCT of an updating input: an aggregation grouped by every column, without aggregates. */
  private static String distinctName(LogicalPlan d) {
    List<String> names = new ArrayList<>();
    for (Attribute a : ScalaInterop.list(d.output())) names.add(a.name());
    String columns = String.join(", ", names);
    return "GroupAggregate(groupBy=[" + columns + "], select=[" + columns + "])";
  }

  /** A DISTINCT of {@code input} as the aggregation Flink plans it: grouped by every column, without aggregates. */
  private static Aggregate asAggregate(LogicalPlan input) {
    List<Attribute> columns = ScalaInterop.list(input.output());
    return new Aggregate(ScalaInterop.seq(new ArrayList<Expression>(columns)),
        ScalaInterop.seq(new ArrayList<NamedExpression>(columns)), input, scala.Option.empty());
  }

  private static boolean isOuterStreamJoin(Join j, boolean bounded) {
    JoinType t = j.joinType();
    boolean outer = t == LeftOuter$.MODULE$ || t == RightOuter$.MODULE$ || t == FullOuter$.MODULE$;
    return outer && (bounded || j.left().isStreaming() && j.right().isStreaming());
  }

  private static String joinName(Join j) {
    String cond = j.condition().isDefined() ? j.condition().get().sql().replace("`", "") : "true";
    JoinType t = j.joinType();
    // Flink's names of the join types (LeftOuterJoin, ...), as its sink refusals print them.
    String type = t == LeftOuter$.MODULE$ ? "LeftOuterJoin" : t == RightOuter$.MODULE$ ? "RightOuterJoin"
        : t == FullOuter$.MODULE$ ? "FullOuterJoin" : j.joinType().sql().replace(" ", "");
    return "Join(joinType=[" + type + "], where=[" + cond + "])";
  }

  private static final class Context {
    final TableContext env;
    final SparkSession spark;
    /** Attributes the result depends on (decides whether the Top-N emits its row number). */
    final Set<ExprId> needed;
    /** What each node of the plan carries, decided once per node. */
    final Kinds kinds = new Kinds();
    /** The Top-N being rewritten: its row number's id and its rank range, start to limit (N). */
    ExprId rankId;
    long start;
    long limit;

    Context(TableContext env, Set<ExprId> needed) {
      this.env = env;
      this.spark = (SparkSession) env.spark;
      this.needed = needed;
    }
  }

  /** {@code p} with OP appended to its output, the retracting nodes replaced by processors. */
  private static LogicalPlan rewrite(LogicalPlan p, Context cx) {
    PackedAggregation.Aggregation packed = PackedAggregation.aggregationOf(p);
    if (packed != null) {
      // The Table API's aggregation of Python functions, over its input's changes.
      return RetractingAggregates.unboundedPython(cx.env, p, packed, rewrite(packed.df().queryExecution().analyzed(), cx));
    }
    if (p instanceof Aggregate && !Changelog.isWindowed((Aggregate) p)) {
      // An aggregation of updates, and the updating aggregations below it, emit their changes as data.
      return RetractingAggregates.unbounded(cx.env, (Aggregate) p, rewrite(((Aggregate) p).child(), cx));
    }
    if (p instanceof Window && StreamOverSql.isNonTimeUnbounded((Window) p)) {
      // Flink's non-time UNBOUNDED PRECEDING over window: an updating result over insert-only rows.
      if (cx.kinds.of(((Window) p).child()) != Kind.APPEND) {
        LogicalPlan below = ((Window) p).child();
        throw unsupported("an over window ordered by a non-time column over the changes of "
            + (cx.kinds.retracting(below, false) != null ? cx.kinds.retracting(below, false) : cx.kinds.updating(below)));
      }
      NonTimeOver.Planned planned = NonTimeOver.plan(cx.env, (Window) p);
      Dataset<Row> changes = process(planned.rows(), planned.keys(), Protocol.STREAM_NON_TIME_OVER_FUNCTION,
          planned.layout(), planned.output(), cx);
      return asOutputOf(changes, NonTimeOver.values(changes, (Window) p), p);
    }
    if (cx.kinds.of(p) == Kind.APPEND) {
      List<NamedExpression> items = new ArrayList<>(ScalaInterop.list(p.output()));
      items.add(Changelog.alias(Literal.create("+I", DataTypes.StringType), Changelog.OP));
      return new Project(ScalaInterop.seq(items), p);
    }
    if (p instanceof Join && (isOuterStreamJoin((Join) p, false) || cx.kinds.isJoinOfUpdates((Join) p))) {
      return join((Join) p, cx);
    }
    SortLimit sortLimit = sortLimit(p, cx.kinds);
    if (sortLimit != null) {
      // Flink's Top-N without partitions and without the row number.
      if (sortLimit.limit() < 1) throw unsupported("a LIMIT " + sortLimit.limit() + " over an unbounded source");
      for (Attribute a : ScalaInterop.list(sortLimit.child().output())) cx.needed.add(a.exprId());
      return topN(p, List.of(), sortLimit.sorts(), sortLimit.child(), sortLimit.start(), sortLimit.limit(), false, cx);
    }
    if (p instanceof Union) {
      // Flink's union merges its inputs' changes as they are: each input's changes, OP last.
      List<LogicalPlan> children = new ArrayList<>();
      for (LogicalPlan c : ScalaInterop.list(p.children())) {
        for (Attribute a : ScalaInterop.list(c.output())) cx.needed.add(a.exprId());
        children.add(rewrite(c, cx));
      }
      return p.withNewChildren(ScalaInterop.seq(children));
    }
    if (distinctOf(p) != null) {
      // An aggregation without aggregates: +I of a new row, -D once its last copy is retracted.
      LogicalPlan input = distinctOf(p);
      for (Attribute a : ScalaInterop.list(input.output())) cx.needed.add(a.exprId());
      return RetractingAggregates.unbounded(cx.env, asAggregate(input), rewrite(input, cx));
    }
    if (p instanceof Window && cx.rankId != null && rowNumber((Window) p) != null
        && rowNumber((Window) p).exprId().equals(cx.rankId)) {
      return topN((Window) p, cx);
    }
    if (p instanceof Filter) {
      Filter f = (Filter) p;
      List<Expression> rest = new ArrayList<>();
      // The bounds of one row number make its rank range (rn <= N, rn BETWEEN a AND b, rn = n);
      // Flink ranks without an upper bound nowhere, so a lower bound alone stays a plain filter.
      ExprId rank = null;
      long start = 1;
      Long end = null;
      List<Expression> bounds = new ArrayList<>();
      for (Expression c : conjuncts(f.condition())) {
        List<Object[]> found = new ArrayList<>();
        for (Expression b : c instanceof Between ? List.of(new GreaterThanOrEqual(((Between) c).input(),
            ((Between) c).lower()), new LessThanOrEqual(((Between) c).input(), ((Between) c).upper())) : List.of(c)) {
          Object[] bound = cx.rankId == null ? rankBound(b, f.child()) : null;
          if (bound != null && (rank == null || rank.equals(bound[0]))) found.add(bound);
        }
        if (found.isEmpty() || (c instanceof Between && found.size() < 2)) {
          rest.add(c);
          continue;
        }
        for (Object[] bound : found) {
          rank = (ExprId) bound[0];
          if (bound[1] != null) start = Math.max(start, (Long) bound[1]);
          if (bound[2] != null) end = end == null ? (Long) bound[2] : Math.min(end, (Long) bound[2]);
        }
        bounds.add(c);
      }
      if (rank != null && end == null) {
        rest.addAll(bounds);
      } else if (rank != null) {
        if (end < start) throw unsupported("a Top-N filter with no row (" + f.condition().sql() + ")");
        cx.rankId = rank;
        cx.start = start;
        cx.limit = end;
      }
      for (Expression c : rest) {
        for (Attribute a : ScalaInterop.list(c.references().toSeq())) cx.needed.add(a.exprId());
      }
      LogicalPlan child = rewrite(f.child(), cx);
      if (rest.isEmpty()) return child;
      Expression condition = rest.get(0);
      for (int i = 1; i < rest.size(); i++) condition = new And(condition, rest.get(i));
      return new Filter(condition, child);
    }
    if (p instanceof Project) {
      for (NamedExpression e : ScalaInterop.list(((Project) p).projectList())) {
        if (cx.needed.contains(e.exprId())) {
          for (Attribute a : ScalaInterop.list(((Expression) (Object) e).references().toSeq())) cx.needed.add(a.exprId());
        }
      }
      LogicalPlan child = rewrite(p.children().head(), cx);
      List<NamedExpression> items = new ArrayList<>(ScalaInterop.list(((Project) p).projectList()));
      items.add(op(child));
      return new Project(ScalaInterop.seq(items), child);
    }
    if (p instanceof SubqueryAlias || p instanceof View) {
      return p.withNewChildren(ScalaInterop.seq(List.of(rewrite(p.children().head(), cx))));
    }
    if (p instanceof Window && rowNumber((Window) p) != null) {
      throw unsupported("ROW_NUMBER() without a filter rn <= N (a Top-N) over an unbounded source");
    }
    String below = cx.kinds.retracting(p, false) != null ? cx.kinds.retracting(p, false) : cx.kinds.updating(p);
    throw unsupported(p.nodeName() + " over the " + below);
  }

  private static Attribute op(LogicalPlan p) {
    List<Attribute> out = ScalaInterop.list(p.output());
    return out.get(out.size() - 1);
  }

  private static List<Expression> conjuncts(Expression e) {
    List<Expression> out = new ArrayList<>();
    if (e instanceof And) {
      out.addAll(conjuncts(((And) e).left()));
      out.addAll(conjuncts(((And) e).right()));
    } else {
      out.add(e);
    }
    return out;
  }

  /** The row number of a Window computing only ROW_NUMBER(), or null. */
  private static NamedExpression rowNumber(Window w) {
    List<NamedExpression> exprs = ScalaInterop.list(w.windowExpressions());
    if (exprs.size() != 1 || !(exprs.get(0) instanceof Alias)) return null;
    Expression e = ((Alias) exprs.get(0)).child();
    if (e instanceof WindowExpression && ((WindowExpression) e).windowFunction() instanceof RowNumber) return exprs.get(0);
    return null;
  }

  /**
   * [row number id, lowest rank or null, highest rank or null] when {@code c} compares a
   * ROW_NUMBER() computed below with a constant (rn <= N, rn < N + 1, rn >= a, rn > a - 1, rn = n,
   * either side), or null.
   */
  private static Object[] rankBound(Expression c, LogicalPlan below) {
    if (!(c instanceof LessThanOrEqual || c instanceof LessThan || c instanceof EqualTo
        || c instanceof GreaterThanOrEqual || c instanceof GreaterThan)) return null;
    BinaryComparison comparison = (BinaryComparison) c;
    Expression left = comparison.left() instanceof Cast ? ((Cast) comparison.left()).child() : comparison.left();
    Expression right = comparison.right() instanceof Cast ? ((Cast) comparison.right()).child() : comparison.right();
    boolean rankLeft = left instanceof Attribute && producesRowNumber(below, ((Attribute) left).exprId());
    Expression rank = rankLeft ? left : right;
    Expression bound = rankLeft ? comparison.right() : comparison.left();
    if (!(rank instanceof Attribute) || !bound.foldable()) return null;
    if (!rankLeft && !producesRowNumber(below, ((Attribute) rank).exprId())) return null;
    Object value = bound.eval(null);
    if (!(value instanceof Number)) return null;
    long n = ((Number) value).longValue();
    // As rn OP n: a bound on the right flips the comparison.
    boolean upper = rankLeft ? c instanceof LessThanOrEqual || c instanceof LessThan
        : c instanceof GreaterThanOrEqual || c instanceof GreaterThan;
    boolean strict = c instanceof LessThan || c instanceof GreaterThan;
    if (c instanceof EqualTo) return new Object[] {((Attribute) rank).exprId(), n, n};
    if (upper) return new Object[] {((Attribute) rank).exprId(), null, strict ? n - 1 : n};
    return new Object[] {((Attribute) rank).exprId(), strict ? n + 1 : n, null};
  }

  private static boolean producesRowNumber(LogicalPlan p, ExprId id) {
    if (p instanceof Window) {
      NamedExpression rn = rowNumber((Window) p);
      if (rn != null && rn.exprId().equals(id)) return true;
    }
    if (p instanceof Project || p instanceof SubqueryAlias || p instanceof Filter || p instanceof Window) {
      return producesRowNumber(p.children().head(), id);
    }
    return false;
  }

  // --- Top-N ----------------------------------------------------------------------------------

  private static LogicalPlan topN(Window w, Context cx) {
    boolean withRowNumber = cx.needed.contains(cx.rankId);
    long start = cx.start;
    long limit = cx.limit;
    cx.rankId = null;
    return topN(w, ScalaInterop.list(w.partitionSpec()), ScalaInterop.list(w.orderSpec()), w.child(), start, limit,
        withRowNumber, cx);
  }

  /**
   * The Top-N {@code node} of {@code child}'s rows, ranks {@code start} to {@code limit}: its output
   * is {@code child}'s, then the row number when {@code node} computes one (a ROW_NUMBER window; not
   * a SortLimit).
   */
  private static LogicalPlan topN(LogicalPlan node, List<Expression> partition, List<SortOrder> sorts,
      LogicalPlan child, long start, long limit, boolean withRowNumber, Context cx) {
    // An updating input (an aggregation, a join of changes) brings its changes, each with its kind.
    boolean changelog = cx.kinds.of(child) != Kind.APPEND;
    if (changelog && start > 1) {
      throw unsupported("a Top-N whose rank range starts after 1 (an OFFSET, rn >= n) over the changes of "
          + (cx.kinds.retracting(child, false) != null ? cx.kinds.retracting(child, false) : cx.kinds.updating(child)));
    }
    List<Attribute> uniqueKey = changelog ? upsertKey(partition, sorts, child, cx.kinds) : null;
    LogicalPlan input = changelog ? rewrite(child, cx) : child;
    Dataset<Row> in = org.apache.spark.sql.classic.Dataset.ofRows(cx.spark, input);
    List<Column> cols = new ArrayList<>();
    if (partition.isEmpty()) cols.add(functions.lit(0).as("k0"));
    for (int i = 0; i < partition.size(); i++) cols.add(Jobs.column(partition.get(i)).as("k" + i));
    int keyCount = Math.max(partition.size(), 1);
    List<List<Boolean>> order = new ArrayList<>();
    for (int i = 0; i < sorts.size(); i++) {
      SortOrder s = sorts.get(i);
      cols.add(Jobs.column(s.child()).as("s" + i));
      order.add(List.of(s.direction() == Ascending$.MODULE$, s.nullOrdering() == NullsFirst$.MODULE$));
    }
    List<Attribute> attrs = ScalaInterop.list(child.output());
    if (uniqueKey != null) cols.add(asJson(uniqueKey).as("unique"));
    cols.add(asJson(attrs).as("row"));
    if (changelog) cols.add(Jobs.column(op(input)).as("op"));
    StructType output = new StructType().add("row", DataTypes.StringType, true).add("rn", DataTypes.LongType, true)
        .add("op", DataTypes.StringType, true);
    String layout = PythonCommand.json(Map.of("keys", keyCount, "order", order, "start", start, "limit", limit,
        "row_number", withRowNumber, "input", uniqueKey != null ? "upsert" : changelog ? "retract" : "append",
        "output", output.json()));
    Dataset<Row> changes = process(in.select(cols.toArray(new Column[0])), keyCount, Protocol.STREAM_TOP_N_FUNCTION,
        layout, output, cx);
    List<Column> values = fromJson(changes.col("row"), attrs);
    if (node instanceof Window) values.add(changes.col("rn"));
    values.add(changes.col("op"));
    return asOutputOf(changes, values, node);
  }

  /**
   * The unique key (the columns of the aggregation's group keys) when Flink plans this Top-N of an
   * updating input with its UpdatableTopNFunction rather than its RetractableTopNFunction, or null:
   * the input is an aggregation of insert-only rows whose group keys are among the Top-N's input
   * columns and include its partition keys, and every sort key only moves up (COUNT or MAX
   * descending, MIN ascending, a group key), so the aggregation's new rows are enough.
   */
  private static List<Attribute> upsertKey(List<Expression> partition, List<SortOrder> sorts, LogicalPlan child,
      Kinds kinds) {
    Aggregate source = null;
    if (sorts.isEmpty()) return null;
    for (SortOrder s : sorts) {
      Object[] found = s.child() instanceof Attribute ? origin(child, ((Attribute) s.child()).exprId()) : null;
      if (found == null || (source != null && source != found[0])) return null;
      source = (Aggregate) found[0];
      Expression value = (Expression) found[1];
      boolean ascending = s.direction() == Ascending$.MODULE$;
      boolean grows = false;
      if (value instanceof AggregateExpression) {
        AggregateFunction f = ((AggregateExpression) value).aggregateFunction();
        grows = f instanceof Count || f instanceof Max ? !ascending : f instanceof Min && ascending;
      }
      if (!grows && !isGroupKey(source, value)) return null;
    }
    LogicalPlan input = source.child();
    if (kinds.of(input) != Kind.APPEND) return null;
    for (Expression e : partition) {
      Object[] found = e instanceof Attribute ? origin(child, ((Attribute) e).exprId()) : null;
      if (found == null || found[0] != source || !isGroupKey(source, (Expression) found[1])) return null;
    }
    // The group keys among the Top-N's input columns (Flink's unique key of that input).
    if (source.groupingExpressions().isEmpty()) return null;
    List<Attribute> key = new ArrayList<>();
    for (Expression g : ScalaInterop.list(source.groupingExpressions())) {
      Attribute column = null;
      for (Attribute a : ScalaInterop.list(child.output())) {
        Object[] found = origin(child, a.exprId());
        if (found != null && found[0] == source && g.semanticEquals((Expression) found[1])) column = a;
      }
      if (column == null) return null;
      key.add(column);
    }
    return key;
  }

  /** [the unbounded aggregation, the expression] defining attribute {@code id} of {@code p}, or null. */
  private static Object[] origin(LogicalPlan p, ExprId id) {
    if (p instanceof Project) {
      for (NamedExpression e : ScalaInterop.list(((Project) p).projectList())) {
        if (!e.exprId().equals(id)) continue;
        Expression value = e instanceof Alias ? ((Alias) e).child() : (Expression) (Object) e;
        return value instanceof Attribute ? origin(p.children().head(), ((Attribute) value).exprId()) : null;
      }
      return null;
    }
    if (p instanceof Filter || p instanceof SubqueryAlias || p instanceof View) return origin(p.children().head(), id);
    if (p instanceof Aggregate && !Changelog.isWindowed((Aggregate) p)) {
      for (NamedExpression e : ScalaInterop.list(((Aggregate) p).aggregateExpressions())) {
        if (e.exprId().equals(id)) return new Object[] {p, e instanceof Alias ? ((Alias) e).child() : e};
      }
    }
    return null;
  }

  private static boolean isGroupKey(Aggregate a, Expression e) {
    for (Expression g : ScalaInterop.list(a.groupingExpressions())) if (g.semanticEquals(e)) return true;
    return false;
  }

  // --- joins ----------------------------------------------------------------------------------

  private static LogicalPlan join(Join j, Context cx) {
    Set<ExprId> leftIds = ids(j.left());
    Set<ExprId> rightIds = ids(j.right());
    List<Expression> leftKeys = new ArrayList<>();
    List<Expression> rightKeys = new ArrayList<>();
    List<Expression> residual = new ArrayList<>();
    if (j.condition().isDefined()) {
      for (Expression c : conjuncts(j.condition().get())) {
        if (c instanceof EqualTo) {
          Expression a = ((EqualTo) c).left();
          Expression b = ((EqualTo) c).right();
          if (within(a, leftIds) && within(b, rightIds)) {
            leftKeys.add(a);
            rightKeys.add(b);
            continue;
          }
          if (within(b, leftIds) && within(a, rightIds)) {
            leftKeys.add(b);
            rightKeys.add(a);
            continue;
          }
        }
        residual.add(c);
      }
    }
    if (leftKeys.isEmpty()) {
      throw unsupported("a regular " + (isOuterStreamJoin(j, false) ? "outer " : "") + "join without an equality condition "
          + "between its inputs (" + joinName(j) + ") over unbounded sources");
    }
    JoinType t = j.joinType();
    if (isOuterStreamJoin(j, false) && j.condition().isDefined() && JoinResidual.callsPython(j.condition().get())) {
      // PyFlink plans Python functions in inner join conditions only (measured: also of one input).
      throw new TableException("Sql optimization: Cannot generate a valid execution plan for the given query: a "
          + "Python function in the condition of an outer join (" + joinName(j) + "); only inner join conditions "
          + "with equality predicates support Python functions, as in PyFlink.");
    }
    List<Attribute> left = ScalaInterop.list(j.left().output());
    List<Attribute> right = ScalaInterop.list(j.right().output());
    // The rest of the condition decides, per pair of rows with equal keys, whether they match. Its
    // parts of one input first: Flink filters an inner side's rows by them before the join, so a
    // pair they reject never evaluates the rest (say a division by zero; measured).
    residual.sort(java.util.Comparator.comparingInt(c -> within(c, leftIds) || within(c, rightIds) ? 0 : 1));
    List<Object> conditions = new ArrayList<>();
    JoinResidual.Pushed pushed = new JoinResidual.Pushed();
    for (Expression r : residual) conditions.add(JoinResidual.tree(r, left, right, pushed));
    // Each input's changes (an insert-only input's rows as +I), each row with its kind; the rows
    // cross whole, so a Top-N below keeps its row number.
    cx.needed.addAll(leftIds);
    cx.needed.addAll(rightIds);
    Dataset<Row> l = side(cx, rewrite(j.left(), cx), leftKeys, 0, left, pushed.sides.get(0));
    Dataset<Row> r = side(cx, rewrite(j.right(), cx), rightKeys, 1, right, pushed.sides.get(1));
    StructType output = new StructType().add("l", DataTypes.StringType, true).add("r", DataTypes.StringType, true)
        .add("op", DataTypes.StringType, true);
    String layout = PythonCommand.json(Map.of("keys", leftKeys.size(),
        "left_outer", t == LeftOuter$.MODULE$ || t == FullOuter$.MODULE$,
        "right_outer", t == RightOuter$.MODULE$ || t == FullOuter$.MODULE$, "output", output.json(),
        "residual", conditions, Protocol.LAYOUT_STATE_TTL_MS, StateTtl.ms(cx.spark)));
    Dataset<Row> changes = process(l.unionAll(r), leftKeys.size(), Protocol.STREAM_JOIN_FUNCTION, layout, output, cx);
    List<Column> values = fromJson(changes.col("l"), left);
    values.addAll(fromJson(changes.col("r"), right));
    values.add(changes.col("op"));
    return asOutputOf(changes, values, j);
  }

  /**
   * {@code changes} selected to {@code values} (the kind last) under {@code original}'s output
   * attributes (same ids) and the kind, so the plan above the replaced node still resolves.
   */
  static LogicalPlan asOutputOf(Dataset<Row> changes, List<Column> values, LogicalPlan original) {
    LogicalPlan selected = changes.select(values.toArray(new Column[0])).queryExecution().analyzed();
    List<Attribute> out = ScalaInterop.list(selected.output());
    List<Attribute> originalOut = ScalaInterop.list(original.output());
    List<NamedExpression> restored = new ArrayList<>();
    for (int i = 0; i < originalOut.size(); i++) restored.add(restore(out.get(i), originalOut.get(i)));
    restored.add(Changelog.alias(out.get(out.size() - 1), Changelog.OP));
    return new Project(ScalaInterop.seq(restored), selected);
  }

  /**
   * One input's changes ({@code changes}, OP last) as the processor's: keys, side, the row as JSON,
   * the kind. The row's text holds its columns, then the condition's values computed from them
   * ({@code extra}), which the processor compares and the output's parsing leaves out.
   */
  private static Dataset<Row> side(Context cx, LogicalPlan changes, List<Expression> keys, int side,
      List<Attribute> attrs, List<Expression> extra) {
    Dataset<Row> in = org.apache.spark.sql.classic.Dataset.ofRows(cx.spark, changes);
    List<Column> cols = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) cols.add(Jobs.column(keys.get(i)).as("k" + i));
    cols.add(functions.lit(side).as("side"));
    List<Column> fields = new ArrayList<>();
    for (int i = 0; i < attrs.size(); i++) fields.add(Jobs.column(attrs.get(i)).as("c" + i));
    for (int i = 0; i < extra.size(); i++) fields.add(Jobs.column(extra.get(i)).as("c" + (attrs.size() + i)));
    cols.add(functions.to_json(functions.struct(fields.toArray(new Column[0]))).as("row"));
    cols.add(Jobs.column(op(changes)).as("op"));
    return in.select(cols.toArray(new Column[0]));
  }

  /**
   * A row as JSON text: the processors keep and emit rows without looking into them, and the text
   * keeps every value exact (pandas would turn a nullable INT into floats and a NaN into null).
   */
  static Column asJson(List<Attribute> attrs) {
    List<Column> fields = new ArrayList<>();
    for (int i = 0; i < attrs.size(); i++) fields.add(Jobs.column(attrs.get(i)).as("c" + i));
    return functions.to_json(functions.struct(fields.toArray(new Column[0])));
  }

  /** The columns of {@link #asJson}'s text (all null when it is null). */
  static List<Column> fromJson(Column json, List<Attribute> attrs) {
    StructType schema = new StructType();
    for (int i = 0; i < attrs.size(); i++) schema = schema.add("c" + i, attrs.get(i).dataType(), true);
    Column parsed = functions.from_json(json, schema);
    List<Column> out = new ArrayList<>();
    for (int i = 0; i < attrs.size(); i++) out.add(parsed.getField("c" + i));
    return out;
  }

  private static Set<ExprId> ids(LogicalPlan p) {
    Set<ExprId> out = new HashSet<>();
    for (Attribute a : ScalaInterop.list(p.output())) out.add(a.exprId());
    return out;
  }

  private static boolean within(Expression e, Set<ExprId> ids) {
    List<Attribute> refs = ScalaInterop.list(e.references().toSeq());
    if (refs.isEmpty()) return false;
    for (Attribute a : refs) if (!ids.contains(a.exprId())) return false;
    return true;
  }

  // --- the processor ----------------------------------------------------------------------------

  /** {@code rows} grouped by their first {@code keys} columns through the worker's processor {@code function}. */
  private static Dataset<Row> process(Dataset<Row> rows, int keys, String function, String layout, StructType output,
      Context cx) {
    // transformWithStateInPandas keeps its state in RocksDB only; users should not have to know.
    rows.sparkSession().conf().set("spark.sql.streaming.stateStore.providerClass", ROCKSDB);
    SimplePythonFunction t = RetractingAggregates.worker(cx.env);
    SimplePythonFunction runner = new SimplePythonFunction(
        PythonCommand.command(Protocol.STREAM_CHANGELOG_MODULE, function, layout),
        t.envVars(), t.pythonIncludes(), t.pythonExec(), t.pythonVer(), t.broadcastVars(), t.accumulator());
    UserDefinedPythonFunction udf = new UserDefinedPythonFunction(function, runner, output,
        Protocol.EVAL_TRANSFORM_WITH_STATE_PANDAS_UDF, true, List.of(), List.of());
    List<Column> all = new ArrayList<>();
    for (String c : rows.columns()) all.add(rows.col(c));
    Column[] keyCols = new Column[keys];
    for (int i = 0; i < keys; i++) keyCols[i] = rows.col("k" + i);
    RelationalGroupedDataset grouped =
        (RelationalGroupedDataset) rows.groupBy(keyCols);
    return grouped.transformWithStateInPandas(udf.apply(ScalaInterop.seq(all)), output, "Append",
        StateTtl.timeMode(cx.spark), null, "");
  }

  /** {@code value} under {@code like}'s name, id and metadata. */
  static NamedExpression restore(Attribute value, Attribute like) {
    return new Alias(value, like.name(), like.exprId(), like.qualifier(), scala.Option.apply(like.metadata()),
        ScalaInterop.seq(List.of()));
  }

  private static TableException unsupported(String what) {
    return TableException.unsupported(what + " in streaming mode (regular joins and Top-N of insert-only "
        + "unbounded inputs, followed by projections and filters, are supported)");
  }
}
