package org.pyflink_table.bridge.streaming;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.timestamp_micros;
import static org.apache.spark.sql.functions.unix_micros;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructType;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.window.StreamWindowSql;
import org.pyflink_table.bridge.window.TimeAttributes;
import scala.Option;

/**
 * Session windows over a bounded stream, formed as Flink's merging window operator forms them at
 * parallelism 1. Per key, in arrival order, each row meets the watermark {@code max(rowtime of the
 * rows before it) - delay}; a session whose last instant ({@code end - 1 ms}) is at or before it
 * has fired and is closed. The row's own window {@code [ts, ts + gap)} merges with the key's open
 * sessions it overlaps or touches; alone and already ended, it is late and dropped. So a late row
 * neither stretches nor bridges a session (it joins one only while that one is open), and a row
 * after a fired session starts a new one, which may overlap it (all measured on PyFlink 2.3).
 * Table API sessions (their own window in {@link TimeAttributes#ROW_WINDOW}) and SQL's
 * {@code session_window} (each row's own window, merged by Spark's aggregation) alike are replaced
 * by the sessions formed here, in one batch job: the watermark needs every row on one partition,
 * the merging then runs per key range.
 */
final class BoundedSessions {
  private BoundedSessions() {}

  private static final String SEQ = "__pft_session_seq";
  private static final String OWN_START = "__pft_own_start_us";
  private static final String OWN_END = "__pft_own_end_us";
  private static final String MET = "__pft_met_watermark_us";
  private static final String KEY = "__pft_session_key";
  private static final String START = "__pft_session_start_us";
  private static final String END = "__pft_session_end_us";
  private static final String SESSION = "__pft_session_window";

  /** Whether {@code a} groups by session windows this class forms. */
  static boolean applies(Aggregate a, Attribute window) {
    return ownWindow(a, window) != null;
  }

  private static Attribute ownWindow(Aggregate a, Attribute window) {
    for (Attribute attr : ScalaInterop.list(a.child().output())) {
      if (attr.name().equals(TimeAttributes.ROW_WINDOW)) return attr;
    }
    return window.metadata().contains(Jobs.SESSION_WINDOW_MARKER) ? window : null;
  }

  /** {@code a} over its rows without the late ones, each with its session as Flink forms it. */
  static LogicalPlan aggregate(SparkSession spark, Aggregate a, Attribute window, Attribute rowtime, long delayMs) {
    StreamWindowSql.refuseUnmergeable(a);
    Attribute own = ownWindow(a, window);
    List<Attribute> inputs = ScalaInterop.list(a.child().output());
    // Table API rows pass the merging without their old window, so that its computation is pruned
    // (SQL's is each row's own window).
    boolean formedBefore = own != window;
    List<NamedExpression> items = new ArrayList<>();
    for (Attribute in : inputs) if (!(formedBefore && in.exprId().equals(window.exprId()))) items.add(in);
    int passed = items.size();
    List<Expression> keys = new ArrayList<>();
    for (Expression g : ScalaInterop.list(a.groupingExpressions())) {
      if (!(g instanceof Attribute && ((Attribute) g).exprId().equals(window.exprId()))) keys.add(g);
    }
    for (int i = 0; i < keys.size(); i++) items.add(Changelog.alias(keys.get(i), KEY + i));
    Dataset<Row> rows = org.apache.spark.sql.classic.Dataset.ofRows(spark, new Project(ScalaInterop.seq(items), a.child()));
    // Arrival order is the scan order, numbered below any reordering (TimeAttributes.ARRIVAL).
    Column seq = org.apache.spark.sql.functions.monotonically_increasing_id();
    for (Attribute attr : inputs) if (attr.name().equals(TimeAttributes.ARRIVAL)) seq = Jobs.column(attr);
    Column ownWindow = Jobs.column(own);
    Dataset<Row> prepared = rows.withColumn(SEQ, seq)
        .withColumn(OWN_START, unix_micros(ownWindow.getField("start").cast(DataTypes.TimestampType)))
        .withColumn(OWN_END, unix_micros(ownWindow.getField("end").cast(DataTypes.TimestampType)))
        .withColumn(MET, max(unix_micros(Jobs.column(rowtime).cast(DataTypes.TimestampType)))
            .over(Window.orderBy(col(SEQ)).rowsBetween(Window.unboundedPreceding(), -1)).minus(lit(delayMs * 1000)));
    List<Column> byKey = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) byKey.add(col(KEY + i));
    List<Column> order = new ArrayList<>(byKey);
    order.add(col(SEQ));
    Dataset<Row> keyed = byKey.isEmpty() ? prepared.repartition(1) : prepared.repartition(byKey.toArray(new Column[0]));
    Dataset<Row> sorted = keyed.sortWithinPartitions(order.toArray(new Column[0]));
    StructType schema = sorted.schema();
    StructType outSchema = schema.add(START, DataTypes.LongType, false).add(END, DataTypes.LongType, false);
    Dataset<Row> merged = sorted.mapPartitions(
        new Merging(passed, keys.size(), schema.fieldIndex(OWN_START), schema.fieldIndex(OWN_END),
            schema.fieldIndex(MET)),
        Encoders.row(outSchema));
    StructType windowType = (StructType) own.dataType();
    Dataset<Row> sessions = merged.withColumn(SESSION, struct(
        timestamp_micros(col(START)).cast(windowType.apply("start").dataType()).as("start"),
        timestamp_micros(col(END)).cast(windowType.apply("end").dataType()).as("end")));
    LogicalPlan plan = sessions.queryExecution().analyzed();
    List<Attribute> produced = ScalaInterop.list(plan.output());
    // The input's columns under their ids again; the window is the formed session, without Spark's
    // session mark, whose aggregation would merge the sessions again.
    List<NamedExpression> restored = new ArrayList<>();
    Attribute session = produced.get(produced.size() - 1);
    Attribute windowAgain = null;
    int next = 0;
    for (Attribute in : inputs) {
      boolean isWindow = in.exprId().equals(window.exprId());
      Metadata md = isWindow ? new MetadataBuilder().withMetadata(in.metadata()).remove(Jobs.SESSION_WINDOW_MARKER).build()
          : in.metadata();
      Attribute value = isWindow && formedBefore ? session : produced.get(next++);
      Alias restoredColumn = new Alias(isWindow ? session : value, in.name(), in.exprId(), in.qualifier(),
          Option.apply(md), ScalaInterop.seq(List.of()));
      if (isWindow) windowAgain = restoredColumn.toAttribute();
      restored.add(restoredColumn);
    }
    Attribute replacement = windowAgain;
    LogicalPlan child = new Project(ScalaInterop.seq(restored), plan);
    Aggregate rebuilt = new Aggregate(a.groupingExpressions(), a.aggregateExpressions(), child, a.hint());
    return (LogicalPlan) rebuilt.transformExpressions(ScalaInterop.everywhere((Expression e) ->
        e instanceof AttributeReference && ((AttributeReference) e).exprId().equals(window.exprId()) ? replacement : e));
  }

  /**
   * The merging, over a partition's rows sorted by key and arrival: emits each kept row with its
   * session's bounds (microseconds) once the session has fired or the key's rows end.
   */
  private static final class Merging implements MapPartitionsFunction<Row, Row> {
    private static final long serialVersionUID = 1L;
    private static final long MILLISECOND_US = 1000;
    private final int keyStart;
    private final int keyCount;
    private final int ownStart;
    private final int ownEnd;
    private final int met;

    Merging(int keyStart, int keyCount, int ownStart, int ownEnd, int met) {
      this.keyStart = keyStart;
      this.keyCount = keyCount;
      this.ownStart = ownStart;
      this.ownEnd = ownEnd;
      this.met = met;
    }

    /** An open session of the current key and its rows. */
    private static final class Session {
      long start;
      long end;
      final List<Row> rows = new ArrayList<>();

      Session(long start, long end) {
        this.start = start;
        this.end = end;
      }
    }

    @Override
    public Iterator<Row> call(Iterator<Row> rows) {
      return new Iterator<>() {
        private final ArrayDeque<Row> ready = new ArrayDeque<>();
        private final List<Session> open = new ArrayList<>();
        private Row currentKey;

        @Override
        public boolean hasNext() {
          while (ready.isEmpty() && rows.hasNext()) take(rows.next());
          if (ready.isEmpty()) {
            for (Session s : open) emit(s, ready);
            open.clear();
          }
          return !ready.isEmpty();
        }

        @Override
        public Row next() {
          if (!hasNext()) throw new NoSuchElementException();
          return ready.poll();
        }

        private void take(Row r) {
          Object[] k = new Object[keyCount];
          for (int i = 0; i < keyCount; i++) k[i] = r.get(keyStart + i);
          Row key = RowFactory.create(k);
          if (!key.equals(currentKey)) {
            for (Session s : open) emit(s, ready);
            open.clear();
            currentKey = key;
          }
          if (r.isNullAt(ownStart) || r.isNullAt(ownEnd)) return; // no time, no window
          long watermark = r.isNullAt(met) ? Long.MIN_VALUE : r.getLong(met);
          // Timers at a session's last instant fire before the row that meets a watermark past it.
          for (Iterator<Session> it = open.iterator(); it.hasNext();) {
            Session s = it.next();
            if (s.end - MILLISECOND_US <= watermark) {
              emit(s, ready);
              it.remove();
            }
          }
          long start = r.getLong(ownStart);
          long end = r.getLong(ownEnd);
          Session merged = new Session(start, end);
          boolean joined = false;
          for (Iterator<Session> it = open.iterator(); it.hasNext();) {
            Session s = it.next();
            if (s.start <= end && s.end >= start) { // overlapping or touching windows merge (TimeWindow.intersects)
              merged.start = Math.min(merged.start, s.start);
              merged.end = Math.max(merged.end, s.end);
              merged.rows.addAll(s.rows);
              it.remove();
              joined = true;
            }
          }
          // Alone and ended: late (a session it joins is open, so never late).
          if (!joined && end - MILLISECOND_US <= watermark) return;
          merged.rows.add(r);
          open.add(merged);
        }
      };
    }

    private static void emit(Session s, Collection<Row> out) {
      for (Row r : s.rows) {
        Object[] v = new Object[r.length() + 2];
        for (int i = 0; i < r.length(); i++) v[i] = r.get(i);
        v[r.length()] = s.start;
        v[r.length() + 1] = s.end;
        out.add(RowFactory.create(v));
      }
    }
  }
}
