package org.pyflink_table.bridge.udf;

import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.rdd.RDD;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.columnar.CachedBatch;
import org.apache.spark.sql.execution.columnar.DefaultCachedBatch;
import org.apache.spark.sql.execution.columnar.InMemoryRelation;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.pyflink_table.bridge.expressions.ScalaInterop;

/**
 * The number of values an integral key can take when it is a column of an input Spark has already
 * cached: Spark's in-memory cache records each column's lower and upper bound and null count per
 * cached batch, so {@code max - min + 1} (plus one for NULL) bounds the key's distinct values
 * without decoding any data. Reading the bounds is one small job over the cached batches' statistics,
 * once per cache and column.
 */
final class CachedKeyDomain {
  private CachedKeyDomain() {}

  /**
   * The ranges already read, per cached batches' RDD (its identity: a cache rebuilt after
   * unpersisting is a new RDD) and column: cached batches never change, so each column's range is
   * read by one job per cache, not one per query. Weak keys: a dropped cache takes its entry along.
   */
  private static final Map<RDD<CachedBatch>, Map<Integer, long[]>> RANGES = new WeakHashMap<>();
  /** The recorded range of a column whose batches are not of Spark's default form. */
  private static final long[] UNKNOWN = new long[0];

  /** Statistics fields per column of a cached batch: lower bound, upper bound, null count, count, size. */
  private static final int STATS_PER_COLUMN = 5;

  /**
   * The bound for the attribute {@code id} of {@code plan}'s output, or infinity when it is not an
   * integral column of a loaded cached relation reached through projections and filters.
   */
  static double of(LogicalPlan plan, ExprId id, DataType type) {
    if (!integral(type)) return Double.POSITIVE_INFINITY;
    LogicalPlan node = plan;
    while (true) {
      if (node instanceof InMemoryRelation) return bound((InMemoryRelation) node, id, type);
      if (node instanceof Project) {
        ExprId source = null;
        for (NamedExpression e : ScalaInterop.list(((Project) node).projectList())) {
          if (!e.exprId().equals(id)) continue;
          if (e instanceof Attribute) source = id;
          else if (e instanceof Alias && ((Alias) e).child() instanceof Attribute) {
            source = ((Attribute) ((Alias) e).child()).exprId();
          }
        }
        if (source == null) return Double.POSITIVE_INFINITY;
        id = source;
        node = ((Project) node).child();
      } else if (node instanceof Filter) {
        node = ((Filter) node).child();
      } else {
        return Double.POSITIVE_INFINITY;
      }
    }
  }

  private static boolean integral(DataType t) {
    return t instanceof ByteType || t instanceof ShortType || t instanceof IntegerType || t instanceof LongType
        || t instanceof DateType;
  }

  private static double bound(InMemoryRelation relation, ExprId id, DataType type) {
    if (!relation.cacheBuilder().isCachedColumnBuffersLoaded()) return Double.POSITIVE_INFINITY;
    int index = 0;
    for (Attribute a : ScalaInterop.list(relation.output())) {
      if (a.exprId().equals(id)) break;
      index++;
    }
    if (index == relation.output().size()) return Double.POSITIVE_INFINITY;
    RDD<CachedBatch> batches = relation.cacheBuilder().cachedColumnBuffers();
    Map<Integer, long[]> known;
    synchronized (RANGES) {
      known = RANGES.computeIfAbsent(batches, b -> new HashMap<>());
    }
    long[] range;
    synchronized (known) {
      range = known.get(index);
      if (range == null) {
        try {
          range = batches.toJavaRDD().map(new Bounds(index * STATS_PER_COLUMN, type)).reduce(new Widest());
        } catch (UnsupportedOperationException e) { // no cached batch at all
          range = new long[] {Long.MAX_VALUE, Long.MIN_VALUE, 0};
        }
        known.put(index, range == null ? UNKNOWN : range);
      } else if (range == UNKNOWN) {
        range = null;
      }
    }
    if (range == null) return Double.POSITIVE_INFINITY;
    if (range[0] > range[1]) return range[2] > 0 ? 1 : 0; // no value: only NULLs, or nothing
    return (double) range[1] - range[0] + 1 + (range[2] > 0 ? 1 : 0);
  }

  /** One cached batch's (min, max, null count) of a column; null for a batch not of Spark's default form. */
  private static final class Bounds implements Function<CachedBatch, long[]> {
    private final int field;
    private final DataType type;

    Bounds(int field, DataType type) {
      this.field = field;
      this.type = type;
    }

    @Override
    public long[] call(CachedBatch batch) {
      if (!(batch instanceof DefaultCachedBatch)) return null;
      InternalRow stats = ((DefaultCachedBatch) batch).stats();
      long nulls = stats.getInt(field + 2);
      if (stats.isNullAt(field) || stats.isNullAt(field + 1)) return new long[] {Long.MAX_VALUE, Long.MIN_VALUE, nulls};
      return new long[] {((Number) stats.get(field, type)).longValue(), ((Number) stats.get(field + 1, type)).longValue(),
          nulls};
    }
  }

  /** The union of two batches' ranges (null when either is unknown). */
  private static final class Widest implements Function2<long[], long[], long[]> {
    @Override
    public long[] call(long[] a, long[] b) {
      if (a == null || b == null) return null;
      return new long[] {Math.min(a[0], b[0]), Math.max(a[1], b[1]), a[2] + b[2]};
    }
  }
}
