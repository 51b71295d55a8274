package org.pyflink_table.bridge.connectors;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.DataFrameWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.pyflink_table.bridge.errors.TableException;

/**
 * Filesystem sink writes, crash-safe through a redo journal.
 *
 * <p>Spark writes the whole job into a hidden staging directory next to the target
 * ({@code .<name>.staging-<pid>-<uuid>}); nothing is visible while it runs. The commit then
 * records every change it is about to make (old files to delete, staged files to move in) in a
 * journal file, {@code .<name>.pyflink-commit}, which appears by one atomic rename: before that
 * rename the commit has not happened, after it the commit is decided. The changes are applied
 * (each one idempotent) and the journal is removed. Whoever next reads or writes the table first
 * finishes a journal left by a process that died (roll forward), and writes remove staging
 * directories of dead processes. So the table shows the old or the new data, whole, whatever
 * moment the process dies, and the directory keeps Flink's layout (plain files, partition
 * directories) that PyFlink reads and writes.
 */
final class FileCommitter {
  private FileCommitter() {}

  /**
   * Test hook: the JVM halts (as SIGKILL would: no shutdown hooks, nothing flushed) right before
   * the commit step with this 1-based number; see tests/test_commit_crash.py.
   */
  static final String CRASH_STEP_ENV = "PYFLINK_TABLE_TEST_COMMIT_CRASH_STEP";
  private static final int CRASH_STEP = crashStep();
  private static final java.util.concurrent.atomic.AtomicInteger STEPS = new java.util.concurrent.atomic.AtomicInteger();
  /** One commit (or recovery) at a time per target within this JVM. */
  private static final java.util.concurrent.ConcurrentHashMap<String, Object> LOCKS = new java.util.concurrent.ConcurrentHashMap<>();
  private static final long PID = ProcessHandle.current().pid();
  /** Bumped by Ctrl-C in the driver: a write that began before it does not commit. */
  private static final java.util.concurrent.atomic.AtomicLong INTERRUPTS = new java.util.concurrent.atomic.AtomicLong();

  static void interrupted() {
    INTERRUPTS.incrementAndGet();
  }

  private static int crashStep() {
    try {
      String v = System.getenv(CRASH_STEP_ENV);
      return v == null ? -1 : Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static void step() {
    if (CRASH_STEP > 0 && STEPS.incrementAndGet() == CRASH_STEP) {
      System.err.println(CRASH_STEP_ENV + ": halting before commit step " + CRASH_STEP);
      System.err.flush();
      Runtime.getRuntime().halt(137);
    }
  }

  static void write(SparkSession spark, TableDefinition d, Dataset<Row> rows, boolean overwrite, Configuration hadoop) {
    write(spark, d, rows, overwrite, hadoop, null, -1);
  }

  /**
   * Writes micro-batch {@code batch} of a stream whose last committed batch id is kept in the file
   * {@code marker} (in the query's checkpoint directory). The marker is replaced by the same journal
   * that publishes the batch's files, so the two change together: a batch that Spark runs again after
   * a crash (its files were committed, Spark's own commit log entry was not) is skipped, and the sink
   * holds every row once. Returns false when the batch was already committed.
   */
  static boolean writeBatch(SparkSession spark, TableDefinition d, Dataset<Row> rows, Configuration hadoop, String marker,
      long batch) {
    return write(spark, d, rows, false, hadoop, marker, batch);
  }

  private static boolean write(SparkSession spark, TableDefinition d, Dataset<Row> rows, boolean overwrite,
      Configuration hadoop, String marker, long batch) {
    String format = d.options.get("format");
    boolean single = d.flag(Connectors.SINGLE_FILE);
    Dataset<Row> shaped;
    String sparkFormat;
    switch (format) {
      case "csv":
        shaped = Formats.csvForWrite(d, rows);
        sparkFormat = "text";
        break;
      case "raw": {
        String only = Connectors.dataColumns(d).get(0).name();
        shaped = rows.withColumn(only, rows.col("`" + only + "`").cast(DataTypes.StringType)).withColumnRenamed(only, "value");
        sparkFormat = "text";
        break;
      }
      case "json":
        shaped = Formats.jsonForWrite(d, rows);
        sparkFormat = "text";
        break;
      default:
        shaped = rows;
        sparkFormat = format;
    }
    if (single) shaped = shaped.coalesce(1);
    long interrupts = INTERRUPTS.get();
    try {
      Path target = new Path(d.options.get("path"));
      FileSystem fs = target.getFileSystem(hadoop);
      target = fs.makeQualified(target);
      Path parent = target.getParent();
      fs.mkdirs(parent);
      Path markerPath = null;
      FileSystem markerFs = null;
      if (marker != null) {
        markerPath = new Path(marker);
        markerFs = markerPath.getFileSystem(hadoop);
        markerPath = markerFs.makeQualified(markerPath);
        markerFs.mkdirs(markerPath.getParent());
      }
      synchronized (lock(target)) {
        recover(fs, target); // a journal left by a crash may still have to move the marker in
        removeDeadStaging(fs, target);
        if (markerPath != null && committedBatch(markerFs, markerPath) >= batch) return false;
      }
      Path staging = new Path(parent, stagingPrefix(target) + PID + "-" + UUID.randomUUID());
      DataFrameWriter<Row> w = shaped.write().format(sparkFormat)
          .option("mapreduce.fileoutputcommitter.marksuccessfuljobs", "false");
      // parquet.* / orc.* options are Parquet's and ORC's own Hadoop keys (parquet.compression,
      // orc.compress, ...): Spark passes writer options on to them.
      for (Map.Entry<String, String> o : d.options.entrySet()) {
        if (o.getKey().startsWith(format + ".") && (format.equals("parquet") || format.equals("orc"))) {
          w = w.option(o.getKey(), o.getValue());
        }
      }
      if (!d.partitionKeys.isEmpty()) w = w.partitionBy(d.partitionKeys.toArray(new String[0]));
      try {
        w.save(staging.toString());
        synchronized (lock(target)) {
          if (INTERRUPTS.get() != interrupts) {
            throw new TableException("The write to '" + d.options.get("path") + "' was interrupted (Ctrl-C); the table is unchanged.");
          }
          recover(fs, target);
          List<String> journal = single
              ? planSingleFile(fs, staging, target, overwrite || d.flag(Connectors.OVERWRITE))
              : planDirectory(fs, staging, target, overwrite, !d.partitionKeys.isEmpty());
          if (markerPath != null) {
            // Staged next to the marker (same filesystem), moved in by the journal before its last line.
            Path staged = new Path(markerPath.getParent(), "." + markerPath.getName() + ".tmp-" + PID + "-" + UUID.randomUUID());
            try (OutputStream out = markerFs.create(staged, true)) {
              out.write(Long.toString(batch).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
            journal.add(journal.size() - 1, "M\t" + enc(staged) + "\t" + enc(markerPath));
          }
          commit(fs, target, journal);
        }
      } finally {
        fs.delete(staging, true);
      }
      return true;
    } catch (IOException e) {
      throw new TableException("Writing to '" + d.options.get("path") + "' failed: " + e.getMessage(), e);
    }
  }

  /** Finishes a commit a dead process left at {@code location}; readers call this before listing files. */
  static void recover(Configuration hadoop, String location) {
    try {
      Path target = new Path(location);
      FileSystem fs = target.getFileSystem(hadoop);
      target = fs.makeQualified(target);
      synchronized (lock(target)) {
        recover(fs, target);
      }
    } catch (IOException e) {
      throw new TableException("Cannot finish the interrupted commit of '" + location + "': " + e.getMessage(), e);
    }
  }

  /** The last batch id a marker records; -1 when no batch was committed. */
  private static long committedBatch(FileSystem fs, Path marker) throws IOException {
    if (!fs.exists(marker)) return -1;
    try (InputStream in = fs.open(marker)) {
      String text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException e) {
        throw new IOException("unreadable stream commit marker " + marker + ": '" + text + "'");
      }
    }
  }

  private static Object lock(Path target) {
    return LOCKS.computeIfAbsent(target.toString(), k -> new Object());
  }

  private static String stagingPrefix(Path target) {
    return "." + target.getName() + ".staging-";
  }

  private static Path journalPath(Path target) {
    return new Path(target.getParent(), "." + target.getName() + ".pyflink-commit");
  }

  // --- the journal -------------------------------------------------------------------------------
  // One change per line: "D\t<path>" deletes (recursively), "M\t<from>\t<to>" moves a staged file
  // in (creating <to>'s directory, replacing a file <to>; done once <from> is gone), "S\t<dir>" removes the staging directory; paths URL-encoded.

  private static String enc(Path p) {
    return java.net.URLEncoder.encode(p.toString(), java.nio.charset.StandardCharsets.UTF_8);
  }

  private static Path dec(String s) {
    return new Path(java.net.URLDecoder.decode(s, java.nio.charset.StandardCharsets.UTF_8));
  }

  private static void commit(FileSystem fs, Path target, List<String> journal) throws IOException {
    Path done = journalPath(target);
    Path tmp = new Path(target.getParent(), "." + target.getName() + ".pyflink-commit.tmp-" + PID + "-" + UUID.randomUUID());
    try (OutputStream out = fs.create(tmp, false)) {
      out.write((String.join("\n", journal) + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    step();
    // The commit point: the journal appears whole, or not at all.
    if (!fs.rename(tmp, done)) {
      fs.delete(tmp, false);
      throw new IOException("could not write the commit journal " + done);
    }
    apply(fs, journal, true);
    step();
    fs.delete(done, false);
  }

  private static void recover(FileSystem fs, Path target) throws IOException {
    Path journal = journalPath(target);
    if (!fs.exists(journal)) return;
    List<String> lines = new ArrayList<>();
    try (java.io.BufferedReader r = new java.io.BufferedReader(
        new java.io.InputStreamReader(fs.open(journal), java.nio.charset.StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (!line.isEmpty()) lines.add(line);
      }
    }
    apply(fs, lines, false);
    fs.delete(journal, false);
  }

  /** Applies journal lines in order; every change is a no-op when already done. */
  private static void apply(FileSystem fs, List<String> journal, boolean hooked) throws IOException {
    for (String line : journal) {
      String[] f = line.split("\t");
      switch (f[0]) {
        case "D":
          if (hooked) step();
          fs.delete(dec(f[1]), true);
          break;
        case "M": {
          Path from = dec(f[1]);
          Path to = dec(f[2]);
          FileSystem mfs = from.getFileSystem(fs.getConf()); // a stream's commit marker may live elsewhere
          if (!mfs.exists(from)) {
            if (mfs.exists(to)) break; // moved before the crash
            throw new IOException("staged file " + from + " of an interrupted commit is missing");
          }
          if (hooked) step();
          mfs.mkdirs(to.getParent());
          if (mfs.exists(to)) mfs.delete(to, false); // a single-file table's old file (or a marker), replaced
          if (hooked) step();
          if (!mfs.rename(from, to)) throw new IOException("could not move " + from + " to " + to);
          break;
        }
        case "S":
          if (hooked) step();
          fs.delete(dec(f[1]), true);
          break;
        default:
          throw new IOException("unreadable commit journal line '" + line + "'");
      }
    }
  }

  /** Staging directories and journal drafts of processes that are gone (their commit never happened). */
  private static void removeDeadStaging(FileSystem fs, Path target) throws IOException {
    String staging = stagingPrefix(target);
    String draft = "." + target.getName() + ".pyflink-commit.tmp-";
    for (FileStatus f : fs.listStatus(target.getParent())) {
      String n = f.getPath().getName();
      String rest = n.startsWith(staging) ? n.substring(staging.length())
          : n.startsWith(draft) ? n.substring(draft.length()) : null;
      if (rest == null) continue;
      int dash = rest.indexOf('-');
      long pid;
      try {
        pid = Long.parseLong(dash < 0 ? rest : rest.substring(0, dash));
      } catch (NumberFormatException e) {
        pid = -1; // written before staging names carried the writer's pid
      }
      boolean alive = pid == PID || (pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
      if (!alive) fs.delete(f.getPath(), true);
    }
  }

  static boolean visible(Path p) {
    String n = p.getName();
    return !n.startsWith(".") && !n.startsWith("_");
  }

  private static List<String> planDirectory(FileSystem fs, Path staging, Path target, boolean overwrite, boolean partitioned)
      throws IOException {
    if (fs.exists(target) && !fs.getFileStatus(target).isDirectory()) {
      throw new TableException("The filesystem sink path '" + target + "' is a file; Flink's filesystem connector writes a directory.");
    }
    fs.mkdirs(target);
    List<String> journal = new ArrayList<>();
    if (overwrite && !partitioned) deleteVisible(fs, target, true, journal);
    List<Path> leaves = new ArrayList<>();
    collectLeaves(fs, staging, leaves);
    String root = staging.toUri().getPath();
    for (Path leaf : leaves) {
      String rel = leaf.toUri().getPath().substring(root.length());
      Path dest = rel.isEmpty() ? target : new Path(target, rel.startsWith("/") ? rel.substring(1) : rel);
      if (overwrite && partitioned) deleteVisible(fs, dest, false, journal);
      for (FileStatus f : fs.listStatus(leaf)) {
        if (f.isFile() && visible(f.getPath())) {
          journal.add("M\t" + enc(f.getPath()) + "\t" + enc(new Path(dest, f.getPath().getName())));
        }
      }
    }
    journal.add("S\t" + enc(staging));
    return journal;
  }

  private static void collectLeaves(FileSystem fs, Path dir, List<Path> leaves) throws IOException {
    boolean hasFiles = false;
    for (FileStatus f : fs.listStatus(dir)) {
      if (!visible(f.getPath())) continue;
      if (f.isDirectory()) {
        collectLeaves(fs, f.getPath(), leaves);
      } else {
        hasFiles = true;
      }
    }
    if (hasFiles) leaves.add(dir);
  }

  private static void deleteVisible(FileSystem fs, Path dir, boolean directoriesToo, List<String> journal) throws IOException {
    if (!fs.exists(dir)) return;
    for (FileStatus f : fs.listStatus(dir)) {
      if (visible(f.getPath()) && (directoriesToo || f.isFile())) journal.add("D\t" + enc(f.getPath()));
    }
  }

  /** FLIP-38 descriptors name one file: the job's single part file becomes (or extends) it. */
  private static List<String> planSingleFile(FileSystem fs, Path staging, Path target, boolean overwrite) throws IOException {
    List<Path> parts = new ArrayList<>();
    for (FileStatus f : fs.listStatus(staging)) {
      if (f.isFile() && visible(f.getPath())) parts.add(f.getPath());
    }
    boolean exists = fs.exists(target);
    if (exists && fs.getFileStatus(target).isDirectory()) {
      throw new TableException("The sink path '" + target + "' is a directory, but this table writes a single file.");
    }
    Path combined = new Path(staging, "combined");
    try (OutputStream out = fs.create(combined, true)) {
      if (exists && !overwrite) copy(fs, target, out);
      for (Path p : parts) copy(fs, p, out);
    }
    List<String> journal = new ArrayList<>();
    journal.add("M\t" + enc(combined) + "\t" + enc(target));
    journal.add("S\t" + enc(staging));
    return journal;
  }

  private static void copy(FileSystem fs, Path from, OutputStream out) throws IOException {
    try (InputStream in = fs.open(from)) {
      in.transferTo(out);
    }
  }
}
