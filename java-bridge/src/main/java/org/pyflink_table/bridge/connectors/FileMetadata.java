package org.pyflink_table.bridge.connectors;

import static org.apache.spark.sql.functions.input_file_name;
import static org.apache.spark.sql.functions.rpad;
import static org.apache.spark.sql.functions.substring;
import static org.apache.spark.sql.functions.substring_index;
import static org.apache.spark.sql.functions.udf;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.types.FlinkTypes;

/**
 * Metadata columns ({@code METADATA FROM 'key'}) of connector tables. Flink's filesystem source
 * supplies {@code file.path}, {@code file.name}, {@code file.size} and {@code file.modification-time}
 * of the file each row was read from; here they come from the file Spark's scan is reading
 * ({@code input_file_name()}) and its status. No other connector here supplies metadata; as in
 * Flink, a query reading a table whose metadata cannot be read is refused when it is planned.
 */
public final class FileMetadata {
  private FileMetadata() {}

  /** Flink's readable filesystem metadata, in the order its messages list them, with their types. */
  private static final Map<String, String> FILESYSTEM = new LinkedHashMap<>();

  static {
    FILESYSTEM.put("file.path", "STRING NOT NULL");
    FILESYSTEM.put("file.name", "STRING NOT NULL");
    FILESYSTEM.put("file.size", "BIGINT NOT NULL");
    FILESYSTEM.put("file.modification-time", "TIMESTAMP_LTZ(3) NOT NULL");
  }

  /** Flink's source class named in its message about unknown metadata keys. */
  private static final String FILESYSTEM_SOURCE = "org.apache.flink.connector.file.table.FileSystemTableSource";

  /** Flink's refusal of reading the table's metadata columns (table named as Flink's planner names it), or null. */
  public static String readProblem(String table, TableDefinition d) {
    List<TableDefinition.Column> meta = d.metadataColumns();
    if (meta.isEmpty()) return null;
    if (!"filesystem".equals(d.connector())) {
      // Flink names the table by its source's summary here (measured: 'DataGenTableSource').
      String source = "datagen".equals(d.connector()) ? "DataGenTableSource" : table;
      return "Table '" + source + "' declares metadata columns, but the underlying DynamicTableSource doesn't "
          + "implement the SupportsReadingMetadata interface. Therefore, metadata cannot be read from the given source.";
    }
    for (TableDefinition.Column c : meta) {
      String type = FILESYSTEM.get(c.metadataKey());
      if (type == null) {
        return "Invalid metadata key '" + c.metadataKey() + "' in column '" + c.name() + "' of table '" + table
            + "'. The DynamicTableSource class '" + FILESYSTEM_SOURCE
            + "' supports the following metadata keys for reading:\n" + String.join("\n", FILESYSTEM.keySet());
      }
      DataType from = FlinkTypes.parse(type).spark();
      DataType to = FlinkTypes.parse(c.type()).spark();
      if (!Cast.canCast(from, to)) {
        return "Invalid data type for metadata column '" + c.name() + "' of table '" + table + "'. The column cannot "
            + "be declared as '" + c.type() + "' because the type must be castable from metadata type '" + type + "'.";
      }
    }
    return null;
  }

  /** Flink's refusal of writing a table whose metadata columns are persisted (not VIRTUAL), or null. */
  public static String writeProblem(String table, TableDefinition d) {
    for (TableDefinition.Column c : d.metadataColumns()) {
      if (!c.virtual()) {
        return "Table '" + table + "' declares persistable metadata columns, but the underlying DynamicTableSink "
            + "doesn't implement the SupportsWritingMetadata interface. If the column should not be persisted, "
            + "it can be declared with the VIRTUAL keyword.";
      }
    }
    return null;
  }

  /** The rows of a file scan with the table's metadata columns appended (values of each row's file). */
  static Dataset<Row> withColumns(Dataset<Row> files, TableDefinition d) {
    List<TableDefinition.Column> meta = d.metadataColumns();
    if (meta.isEmpty()) return files;
    String problem = readProblem(d.option("path", "?"), d);
    if (problem != null) throw new TableException(problem); // callers check first; kept loud
    List<Column> out = new ArrayList<>();
    for (String name : files.columns()) out.add(files.col("`" + name + "`"));
    Column file = input_file_name();
    Column path = FILE_PATH.apply(file);
    for (TableDefinition.Column c : meta) {
      Column value;
      switch (c.metadataKey()) {
        case "file.path":
          value = path;
          break;
        case "file.name":
          value = substring_index(path, "/", -1);
          break;
        case "file.size":
          value = FILE_SIZE.apply(file);
          break;
        default: // file.modification-time
          value = FILE_MODIFIED.apply(file);
          break;
      }
      FlinkTypes.Parsed type = FlinkTypes.parse(c.type());
      Matcher sized = SIZED_STRING.matcher(type.flink());
      if (sized.matches()) {
        // Flink's cast to VARCHAR(n) cuts the value to n characters, to CHAR(n) also pads it.
        int n = Integer.parseInt(sized.group(2));
        value = substring(value, 1, n);
        if (sized.group(1).equalsIgnoreCase("CHAR")) value = rpad(value, n, " ");
      }
      out.add(value.cast(type.spark()).as(c.name(), FlinkTypes.field(c.name(), type).metadata()));
    }
    return files.select(out.toArray(new Column[0]));
  }

  private static final Pattern SIZED_STRING = Pattern.compile("(?i)^(VARCHAR|CHAR)\\((\\d+)\\)$");

  // Spark names a scanned file by its URI; Flink's file.path is the path of that URI.
  private static final UserDefinedFunction FILE_PATH = udf(
      (UDF1<String, String>) uri -> uri == null || uri.isEmpty() ? null : toPath(uri).toUri().getPath(),
      DataTypes.StringType);
  private static final UserDefinedFunction FILE_SIZE = udf(
      (UDF1<String, Long>) uri -> uri == null || uri.isEmpty() ? null : status(uri).getLen(), DataTypes.LongType);
  private static final UserDefinedFunction FILE_MODIFIED = udf(
      (UDF1<String, Timestamp>) uri -> uri == null || uri.isEmpty() ? null
          : new Timestamp(status(uri).getModificationTime()), DataTypes.TimestampType);

  /** The status of the last file a task thread asked for: a scan reads one file's rows in a row. */
  private static final ThreadLocal<Object[]> LAST = new ThreadLocal<>();

  private static FileStatus status(String uri) {
    Object[] last = LAST.get();
    if (last != null && last[0].equals(uri)) return (FileStatus) last[1];
    try {
      Path p = toPath(uri);
      FileStatus s = p.getFileSystem(new Configuration()).getFileStatus(p);
      LAST.set(new Object[] {uri, s});
      return s;
    } catch (IOException e) {
      throw new TableException("Cannot read the metadata of file '" + uri + "': " + e.getMessage(), e);
    }
  }

  private static Path toPath(String uri) {
    try {
      return new Path(new URI(uri));
    } catch (URISyntaxException e) {
      return new Path(uri);
    }
  }
}
