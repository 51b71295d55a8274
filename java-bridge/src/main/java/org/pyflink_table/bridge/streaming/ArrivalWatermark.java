package org.pyflink_table.bridge.streaming;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.input_file_block_start;
import static org.apache.spark.sql.functions.timestamp_micros;
import static org.apache.spark.sql.functions.unix_micros;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapGroupsWithStateFunction;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.execution.streaming.runtime.StreamingRelation;
import org.apache.spark.sql.streaming.GroupState;
import org.apache.spark.sql.streaming.GroupStateTimeout;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.pyflink_table.bridge.connectors.Connectors;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import scala.Option;

/**
 * Flink's per-row watermark over a monitored directory ({@code pyflink_table.streaming.event-time =
 * flink-exact}), at parallelism 1: each row meets {@code max(rowtime of the rows that arrived before
 * it) - delay}, NULL before the first row. Arrival order is the file order (one file per
 * micro-batch, {@link Connectors#fileStream}) and the row's position in its file (its split's
 * start, then its position in the split, numbered in the scan's task before any shuffle). The rows
 * of a micro-batch are then gathered on one partition by a constant key, sorted, and the largest
 * rowtime so far is carried in that key's state, so it survives a restart from the checkpoint.
 */
public final class ArrivalWatermark {
  private ArrivalWatermark() {}

  /** The per-row watermark column (TIMESTAMP_LTZ), NULL before the first row. */
  static final String ROW_WATERMARK = "__pft_arrival_watermark";
  private static final String BLOCK = "__pft_arrival_block";
  private static final String TS_US = "__pft_arrival_ts";
  private static final String SEQ = "__pft_arrival_seq";
  private static final String WATERMARK_US = "__pft_arrival_wm";

  /** Whether flink-exact event time is on for this session. */
  static boolean on(org.apache.spark.sql.SparkSession spark) {
    return Connectors.flinkExactEventTime(spark);
  }

  /** Refuses, by name, what flink-exact cannot run. */
  public static TableException unsupported(String what) {
    return Connectors.flinkExactUnsupported(what);
  }

  /**
   * {@code source} (the node that first outputs the rowtime) with its rows in arrival order and the
   * watermark each met appended as {@link #ROW_WATERMARK}; the source's columns keep their ids.
   */
  static LogicalPlan assign(SparkSession spark, LogicalPlan source, Attribute rowtime, long delayMs) {
    checkFileSources(source);
    Dataset<Row> rows = org.apache.spark.sql.classic.Dataset.ofRows(spark, source);
    List<Attribute> attrs = ScalaInterop.list(source.output());
    int n = attrs.size();
    List<Column> in = new ArrayList<>();
    for (Attribute a : attrs) in.add(Jobs.column(a));
    in.add(input_file_block_start().as(BLOCK));
    in.add(unix_micros(Jobs.column(rowtime).cast(DataTypes.TimestampType)).as(TS_US));
    Dataset<Row> located = rows.select(in.toArray(new Column[0]));
    StructType numberedSchema = located.schema().add(SEQ, DataTypes.LongType, false);
    Dataset<Row> numbered = located.mapPartitions(new Numbering(), Encoders.row(numberedSchema));
    StructType outSchema = new StructType();
    for (int i = 0; i < n; i++) outSchema = outSchema.add(located.schema().fields()[i]);
    outSchema = outSchema.add(WATERMARK_US, DataTypes.LongType, true);
    Dataset<Row> assigned = numbered
        .groupByKey((MapFunction<Row, Integer>) r -> 0, Encoders.INT())
        .flatMapGroupsWithState(new Assigner(n, delayMs * 1000), OutputMode.Append(), Encoders.LONG(),
            Encoders.row(outSchema), GroupStateTimeout.NoTimeout());
    List<Column> out = new ArrayList<>();
    for (int i = 0; i < n; i++) out.add(col("`" + outSchema.fields()[i].name() + "`"));
    out.add(timestamp_micros(col(WATERMARK_US)).as(ROW_WATERMARK));
    LogicalPlan plan = assigned.select(out.toArray(new Column[0])).queryExecution().analyzed();
    // The plan above refers to the source's columns by id: the same ids, names and metadata again.
    List<Attribute> produced = ScalaInterop.list(plan.output());
    List<NamedExpression> items = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Attribute a = attrs.get(i);
      items.add(new Alias(produced.get(i), a.name(), a.exprId(), a.qualifier(), Option.apply(a.metadata()),
          ScalaInterop.seq(List.of())));
    }
    items.add(produced.get(n));
    return new Project(ScalaInterop.seq(items), plan);
  }

  /** The {@link #ROW_WATERMARK} column of {@code plan}'s output, or null. */
  static Attribute rowWatermark(LogicalPlan plan) {
    for (Attribute a : ScalaInterop.list(plan.output())) if (a.name().equals(ROW_WATERMARK)) return a;
    return null;
  }

  /** Only monitored directories read with one file per micro-batch have an arrival order here. */
  private static void checkFileSources(LogicalPlan source) {
    for (LogicalPlan leaf : ScalaInterop.list(source.collectLeaves())) {
      if (!leaf.isStreaming()) continue;
      if (!(leaf instanceof StreamingRelation)) {
        throw unsupported("event time over the unbounded source " + leaf.nodeName()
            + " (only a filesystem table with 'source.monitor-interval' has an arrival order here)");
      }
      Option<String> perTrigger = ((StreamingRelation) leaf).dataSource().options().get(Connectors.MAX_FILES_PER_TRIGGER);
      if (!perTrigger.isDefined() || !perTrigger.get().equals("1")) {
        throw unsupported("a table read before the option was set (set pyflink_table.streaming.event-time before "
            + "from_path or the query reads the table)");
      }
    }
  }

  /** Numbers the rows of a scan task in scan order (one task reads one split of the batch's one file). */
  private static final class Numbering implements MapPartitionsFunction<Row, Row> {
    private static final long serialVersionUID = 1L;

    @Override
    public Iterator<Row> call(Iterator<Row> rows) {
      return new Iterator<>() {
        private long next;

        @Override
        public boolean hasNext() {
          return rows.hasNext();
        }

        @Override
        public Row next() {
          Row r = rows.next();
          Object[] values = new Object[r.length() + 1];
          for (int i = 0; i < r.length(); i++) values[i] = r.get(i);
          values[r.length()] = next++;
          return RowFactory.create(values);
        }
      };
    }
  }

  /**
   * Sorts one micro-batch's rows by arrival and gives each the watermark before it; the largest
   * rowtime so far (microseconds) is the state.
   */
  private static final class Assigner implements FlatMapGroupsWithStateFunction<Integer, Row, Long, Row> {
    private static final long serialVersionUID = 1L;
    private final int columns;
    private final long delayUs;

    Assigner(int columns, long delayUs) {
      this.columns = columns;
      this.delayUs = delayUs;
    }

    @Override
    public Iterator<Row> call(Integer key, Iterator<Row> values, GroupState<Long> state) {
      List<Row> rows = new ArrayList<>();
      values.forEachRemaining(rows::add);
      int block = columns, ts = columns + 1, seq = columns + 2;
      rows.sort(Comparator.<Row>comparingLong(r -> r.isNullAt(block) ? -1 : r.getLong(block))
          .thenComparingLong(r -> r.getLong(seq)));
      boolean seen = state.exists();
      long max = seen ? state.get() : Long.MIN_VALUE;
      List<Row> out = new ArrayList<>(rows.size());
      for (Row r : rows) {
        Object[] v = new Object[columns + 1];
        for (int i = 0; i < columns; i++) v[i] = r.get(i);
        v[columns] = seen ? (Object) (max - delayUs) : null;
        if (!r.isNullAt(ts)) {
          max = seen ? Math.max(max, r.getLong(ts)) : r.getLong(ts);
          seen = true;
        }
        out.add(RowFactory.create(v));
      }
      if (seen) state.update(max);
      return out.iterator();
    }
  }
}
