package org.pyflink_table.bridge.streaming;

import static org.apache.spark.sql.functions.lit;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.pyflink_table.bridge.connectors.Connectors;
import org.pyflink_table.bridge.connectors.Formats;
import org.pyflink_table.bridge.connectors.TableDefinition;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.protocol.Protocol;
import org.pyflink_table.bridge.table.JTable;
import org.pyflink_table.bridge.table.TableContext;

/**
 * Sinks in streaming mode. The print sink shows each change with its kind ({@code +I[...]},
 * {@code -U[...]}); append-only sinks (filesystem, blackhole) refuse updating input with Flink's
 * message, as Flink's planner does, except FLIP-38's legacy sinks, which receive the final result
 * of an updating query over bounded input, and blackhole, which drops any changelog.
 */
public final class StreamSinks {
  private StreamSinks() {}

  /** First line of {@link #write}'s answer for an insert whose input is a stream; the second is its id. */
  public static final String STREAM_JOB = Protocol.STREAM_JOB;

  private static final Map<String, StreamInsert> PENDING = new ConcurrentHashMap<>();
  private static final AtomicLong IDS = new AtomicLong();

  /** An INSERT of a stream into a sink, run by the Python side one micro-batch at a time ({@link #writeBatch}). */
  public static final class StreamInsert {
    final TableContext env;
    final String sink;
    final TableDefinition def;
    final Dataset<Row> rows;
    final Configuration hadoop;
    /** Whether {@link #rows} are changes, each with its kind in a last {@link Changelog#OP} column. */
    final boolean changes;

    StreamInsert(TableContext env, String sink, TableDefinition def, Dataset<Row> rows, Configuration hadoop,
        boolean changes) {
      this.env = env;
      this.sink = sink;
      this.def = def;
      this.rows = rows;
      this.hadoop = hadoop;
      this.changes = changes;
    }

    /** The rows to write, a Spark stream. */
    public Dataset<Row> rows() {
      return rows;
    }

    /** The sink's full name. */
    public String sink() {
      return sink;
    }
  }

  /** The insert registered under {@code id} by {@link #write} (once). */
  public static StreamInsert take(String id) {
    return PENDING.remove(id);
  }

  /**
   * Test hook: the JVM halts (as SIGKILL would) right after micro-batch N of a stream insert was
   * written, before Spark records the batch as done; see tests/test_stream_exactly_once.py.
   */
  static final String CRASH_AFTER_BATCH_ENV = "PYFLINK_TABLE_TEST_STREAM_CRASH_AFTER_BATCH";

  /**
   * Writes micro-batch {@code batchId} of a stream insert; returns the print sink's lines or null.
   * With {@code commitMarker} (a file in the query's checkpoint directory), a filesystem sink is
   * written exactly once: a batch that Spark runs again after a crash, whose files were already
   * committed, is skipped.
   */
  public static String[] writeBatch(StreamInsert insert, Dataset<Row> batch, long batchId, String commitMarker) {
    if (insert.def.connector().equals("print")) {
      return printLines(insert.def, (insert.changes ? batch : batch.withColumn(Changelog.OP, lit("+I"))).collectAsList());
    }
    if (insert.changes) return null; // blackhole: the changes were computed, and are dropped
    String[] out = null;
    if (commitMarker != null && insert.def.connector().equals("filesystem")) {
      Connectors.writeStreamBatch(insert.env.spark, insert.def, batch, insert.hadoop, commitMarker, batchId);
    } else {
      out = Connectors.write(insert.env.spark, insert.sink, insert.def, batch, false, insert.hadoop);
    }
    String crash = System.getenv(CRASH_AFTER_BATCH_ENV);
    if (crash != null && crash.trim().equals(Long.toString(batchId))) {
      System.err.println(CRASH_AFTER_BATCH_ENV + ": halting after batch " + batchId);
      System.err.flush();
      Runtime.getRuntime().halt(137);
    }
    return out;
  }

  /**
   * Writes the rows of a bounded table and returns the print sink's lines or null; for a stream,
   * registers the insert and returns {@link #STREAM_JOB} and its id.
   */
  public static String[] write(TableContext env, String sink, TableDefinition def, Dataset<Row> rows, boolean overwrite,
      Configuration hadoop) {
    if (rows.isStreaming()) {
      if (overwrite) throw new TableException("Streaming mode not support overwrite.");
      Dataset<Row> changes = streamChanges(env, sink, def, rows);
      if (changes == null) Jobs.checkStreamable(rows);
      String id = String.valueOf(IDS.incrementAndGet());
      PENDING.put(id, new StreamInsert(env, sink, def, changes != null ? changes : rows, hadoop, changes != null));
      return new String[] {STREAM_JOB, id};
    }
    JTable table = new JTable(env, rows);
    if (def.connector().equals("print")) {
      return printLines(def, Changelog.of(table).collectAsList());
    }
    if (def.connector().equals("blackhole")) {
      // Flink's blackhole consumes any changelog (updates too): the changes are computed, then dropped.
      return Connectors.write(env.spark, sink, def, Changelog.of(table), overwrite, hadoop);
    }
    if (def.flag(Connectors.LEGACY_SINK) && Changelog.isUpdating(table)) {
      // FLIP-38's append sinks predate changelogs (the seeds' word count writes an updating count to
      // one): over bounded input they receive the final result once the input has ended.
      return Connectors.write(env.spark, sink, def, Changelog.finalRows(table), overwrite, hadoop);
    }
    checkAppendOnly(sink, rows);
    // Insert-only: the changelog is the rows (late rows of event-time windows dropped) with +I.
    return Connectors.write(env.spark, sink, def, Changelog.of(table).drop(Changelog.OP), overwrite, hadoop);
  }

  /**
   * The changes of an updating stream (updating aggregations, regular outer joins, Top-N) for the
   * sinks that take a changelog (print, blackhole), each with its kind last; null when the stream
   * is insert-only. Other sinks refuse it with Flink's message.
   */
  private static Dataset<Row> streamChanges(TableContext env, String sink, TableDefinition def, Dataset<Row> rows) {
    LogicalPlan plan = rows.queryExecution().analyzed();
    String retracting = RetractingStreams.retractingNode(plan);
    String node = retracting != null ? retracting : Changelog.updatingNode(plan);
    if (node == null) return null;
    if (!def.connector().equals("print") && !def.connector().equals("blackhole")) {
      // Flink names deletes too when the node emits them (outer joins, Top-N, aggregations of updates).
      throw new TableException("Table sink '" + sink + "' doesn't support consuming update " + (retracting != null
          ? "and delete " : "") + "changes which is produced by node " + node);
    }
    return RetractingStreams.changes(new JTable(env, rows));
  }

  /**
   * Flink's refusal of updates by a sink that only appends (the rows of a bounded input in streaming
   * mode): it names deletes too when the node emits them (outer joins, Top-N, aggregations of updates).
   */
  public static void checkAppendOnly(String sink, Dataset<Row> rows) {
    LogicalPlan plan = rows.queryExecution().analyzed();
    String retracting = RetractingStreams.retractingNode(plan, true);
    String node = retracting != null ? retracting : Changelog.updatingNode(plan);
    if (node != null) {
      throw new TableException("Table sink '" + sink + "' doesn't support consuming update " + (retracting != null
          ? "and delete " : "") + "changes which is produced by node " + node);
    }
  }

  /** The print sink's lines for change rows whose last column is the kind: first the stream's name. */
  public static String[] printLines(TableDefinition def, List<Row> changes) {
    String id = def.options.get("print-identifier");
    String prefix = id == null ? "" : id + "> ";
    String[] lines = new String[changes.size() + 1];
    lines[0] = def.flag("standard-error") ? "stderr" : "stdout";
    for (int i = 0; i < changes.size(); i++) {
      Row r = changes.get(i);
      Object[] values = new Object[r.length() - 1];
      for (int j = 0; j < values.length; j++) values[j] = r.get(j);
      lines[i + 1] = prefix + r.getString(r.length() - 1) + Formats.printRow(RowFactory.create(values));
    }
    return lines;
  }
}
