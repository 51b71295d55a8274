package org.pyflink_table.bridge.connectors;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
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
 * Filesystem sink writes. Spark writes the whole job into a hidden staging directory next to the
 * target; only after the job succeeded are its files moved into the table's directory. A failed
 * job therefore leaves the previous contents untouched and no partial files visible (Spark's own
 * overwrite would delete the old files before the job runs).
 */
final class FileCommitter {
  private FileCommitter() {}

  static void write(SparkSession spark, TableDefinition d, Dataset<Row> rows, boolean overwrite, Configuration hadoop) {
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
        String only = Connectors.dataColumns(d).get(0).name;
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
    try {
      Path target = new Path(d.options.get("path"));
      FileSystem fs = target.getFileSystem(hadoop);
      target = fs.makeQualified(target);
      Path parent = target.getParent();
      fs.mkdirs(parent);
      Path staging = new Path(parent, "." + target.getName() + ".staging-" + UUID.randomUUID());
      DataFrameWriter<Row> w = shaped.write().format(sparkFormat)
          .option("mapreduce.fileoutputcommitter.marksuccessfuljobs", "false");
      // parquet.* / orc.* options are Parquet's and ORC's own Hadoop keys (parquet.compression,
      // orc.compress, ...): Spark passes writer options on to them.
      for (java.util.Map.Entry<String, String> o : d.options.entrySet()) {
        if (o.getKey().startsWith(format + ".") && (format.equals("parquet") || format.equals("orc"))) {
          w = w.option(o.getKey(), o.getValue());
        }
      }
      if (!d.partitionKeys.isEmpty()) w = w.partitionBy(d.partitionKeys.toArray(new String[0]));
      try {
        w.save(staging.toString());
        if (single) {
          commitSingleFile(fs, staging, target, overwrite || d.flag(Connectors.OVERWRITE));
        } else {
          commitDirectory(fs, staging, target, overwrite, !d.partitionKeys.isEmpty());
        }
      } finally {
        fs.delete(staging, true);
      }
    } catch (IOException e) {
      throw new TableException("Writing to '" + d.options.get("path") + "' failed: " + e.getMessage(), e);
    }
  }

  static boolean visible(Path p) {
    String n = p.getName();
    return !n.startsWith(".") && !n.startsWith("_");
  }

  private static void commitDirectory(FileSystem fs, Path staging, Path target, boolean overwrite, boolean partitioned)
      throws IOException {
    if (fs.exists(target) && !fs.getFileStatus(target).isDirectory()) {
      throw new TableException("The filesystem sink path '" + target + "' is a file; Flink's filesystem connector writes a directory.");
    }
    fs.mkdirs(target);
    if (overwrite && !partitioned) deleteVisible(fs, target, true);
    List<Path> leaves = new ArrayList<>();
    collectLeaves(fs, staging, leaves);
    String root = staging.toUri().getPath();
    for (Path leaf : leaves) {
      String rel = leaf.toUri().getPath().substring(root.length());
      Path dest = rel.isEmpty() ? target : new Path(target, rel.startsWith("/") ? rel.substring(1) : rel);
      if (overwrite && partitioned) deleteVisible(fs, dest, false);
      fs.mkdirs(dest);
      for (FileStatus f : fs.listStatus(leaf)) {
        if (f.isFile() && visible(f.getPath())) {
          if (!fs.rename(f.getPath(), new Path(dest, f.getPath().getName()))) {
            throw new IOException("could not move " + f.getPath() + " to " + dest);
          }
        }
      }
    }
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

  private static void deleteVisible(FileSystem fs, Path dir, boolean directoriesToo) throws IOException {
    if (!fs.exists(dir)) return;
    for (FileStatus f : fs.listStatus(dir)) {
      if (visible(f.getPath()) && (directoriesToo || f.isFile())) fs.delete(f.getPath(), true);
    }
  }

  /** FLIP-38 descriptors name one file: the job's single part file becomes (or extends) it. */
  private static void commitSingleFile(FileSystem fs, Path staging, Path target, boolean overwrite) throws IOException {
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
    if (exists) fs.delete(target, false);
    if (!fs.rename(combined, target)) throw new IOException("could not move the result to " + target);
  }

  private static void copy(FileSystem fs, Path from, OutputStream out) throws IOException {
    try (InputStream in = fs.open(from)) {
      in.transferTo(out);
    }
  }
}
