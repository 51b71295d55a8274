package org.pyflink_table.bridge.connectors;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.raise_error;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.streaming.DataStreamReader;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimeType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.VarcharType;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.Expr;
import org.pyflink_table.bridge.expressions.ExprCompiler;
import org.pyflink_table.bridge.expressions.FunctionCatalog;
import org.pyflink_table.bridge.expressions.Scope;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.expressions.ToTimestampLtz;
import org.pyflink_table.bridge.protocol.Protocol;
import org.pyflink_table.bridge.types.FlinkTypes;

/**
 * Flink's connectors and formats on Spark's data sources: option validation (at CREATE time),
 * reading a definition into a Dataset, and writing a Dataset through it.
 *
 * <p>CSV is parsed as text columns and converted here, so that empty fields, parse errors (file,
 * line and row in the message, or NULL fields and dropped rows, counted, with ignore-parse-errors;
 * see {@link ParseErrors}) and quoting on write follow Flink's CSV format rather than Spark's.
 */
public final class Connectors {
  private Connectors() {}

  public static final List<String> CONNECTORS = List.of("blackhole", "datagen", "filesystem", "print");
  public static final List<String> FORMATS = List.of("csv", "json", "orc", "parquet", "raw");
  /** Internal option set by the FLIP-38 descriptors: the path names one file, not a directory. */
  public static final String SINGLE_FILE = "pyflink-table.single-file";
  /** Internal option of FLIP-38's CsvTableSink(write_mode=OVERWRITE): every insert replaces the file. */
  public static final String OVERWRITE = "pyflink-table.overwrite";
  /** Internal option of FLIP-38's CsvTableSource(ignore_first_line=True): skip each file's header. */
  public static final String SKIP_FIRST_LINE = "pyflink-table.skip-first-line";
  /**
   * Internal option of FLIP-38's sinks (CsvTableSink, connect().register_table_sink): an append sink
   * that, in streaming mode, receives the final result of an updating query over bounded input.
   */
  public static final String LEGACY_SINK = "pyflink-table.legacy-sink";
  /** Column metadata key (true) of a computed column declared {@code AS PROCTIME()}: a processing-time attribute. */
  public static final String PROCTIME_MARK = "pyflink_table.proctime";
  /**
   * Internal option of FLIP-38's legacy csv format ({@code 'format.type' = 'csv'}): like Flink's
   * legacy csv source, a record with more fields than the table reads its first fields.
   */
  public static final String LEGACY_CSV = "pyflink-table.legacy-csv";

  private static final Set<String> FILESYSTEM_OPTIONS = new TreeSet<>(List.of(
      "connector", "path", "format", "partition.default-name", "source.monitor-interval",
      "source.path.regex-pattern", "source.report-statistics", "sink.rolling-policy.file-size",
      "sink.rolling-policy.rollover-interval", "sink.rolling-policy.check-interval",
      "sink.rolling-policy.inactivity-interval", "sink.parallelism", "sink.shuffle-by-partition.enable",
      "sink.partition-commit.trigger", "sink.partition-commit.delay", "sink.partition-commit.policy.kind",
      "sink.partition-commit.success-file.name", "sink.partition-commit.watermark-time-zone",
      "auto-compaction", "compaction.file-size", "partition.time-extractor.kind",
      "partition.time-extractor.timestamp-pattern", "partition.time-extractor.timestamp-formatter"));
  private static final Set<String> CSV_OPTIONS = new TreeSet<>(List.of(
      "csv.field-delimiter", "csv.disable-quote-character", "csv.quote-character", "csv.allow-comments",
      "csv.ignore-parse-errors", "csv.array-element-delimiter", "csv.escape-character", "csv.null-literal",
      "csv.write-bigdecimal-in-scientific-notation"));
  private static final Set<String> JSON_OPTIONS = new TreeSet<>(List.of(
      "json.fail-on-missing-field", "json.ignore-parse-errors", "json.timestamp-format.standard",
      "json.map-null-key.mode", "json.map-null-key.literal", "json.encode.decimal-as-plain-number",
      "json.encode.ignore-null-fields", "json.decode.json-parser.enabled"));
  private static final Set<String> RAW_OPTIONS = new TreeSet<>(List.of("raw.charset", "raw.endianness"));
  private static final Set<String> PRINT_OPTIONS = new TreeSet<>(List.of(
      "connector", "print-identifier", "standard-error", "sink.parallelism"));
  private static final Set<String> BLACKHOLE_OPTIONS = new TreeSet<>(List.of("connector", "sink.parallelism"));
  private static final Set<String> DATAGEN_OPTIONS = new TreeSet<>(List.of(
      "connector", "number-of-rows", "rows-per-second", "scan.parallelism"));
  private static final Set<String> DATAGEN_FIELD_OPTIONS = new TreeSet<>(List.of(
      "kind", "start", "end", "min", "max", "length", "null-rate", "max-past", "var-len"));

  // --- validation -------------------------------------------------------------------------------

  /** Checks connector, format, options and column types; throws ValidationException naming the fault. */
  public static void validate(String path, TableDefinition d) {
    validateColumns(path, d);
    validateConnector(path, d);
  }

  /** Checks what Flink checks when a table is created: legacy keys translated, columns declared with known types. */
  public static void validateColumns(String path, TableDefinition d) {
    LegacyOptions.translate(d.options);
    if (d.columns.isEmpty()) {
      throw new ValidationException("Table '" + path + "' declares no columns.");
    }
    List<TableDefinition.Column> typed = new ArrayList<>(d.physicalColumns());
    typed.addAll(d.metadataColumns());
    for (TableDefinition.Column c : typed) {
      try {
        FlinkTypes.parse(c.type());
      } catch (RuntimeException e) {
        throw new ValidationException("Column '" + c.name() + "' of table '" + path + "' has an unknown type '"
            + c.type() + "': " + e.getMessage());
      }
    }
    for (String key : d.partitionKeys) {
      TableDefinition.Column c = d.column(key);
      if (c == null || c.isComputed()) {
        throw new ValidationException("Partition column '" + key + "' is not a physical column of table '" + path
            + "'. Physical columns: " + names(d.physicalColumns()) + ".");
      }
    }
  }

  /** Checks what Flink's connector factory checks when a table is used: connector, format, options. */
  private static void validateConnector(String path, TableDefinition d) {
    String connector = d.connector();
    if (connector == null) {
      throw new ValidationException("Table options do not contain an option key 'connector' for table '" + path
          + "'. Known connectors: " + String.join(", ", CONNECTORS) + ".");
    }
    Set<String> allowed = new TreeSet<>();
    switch (connector) {
      case "filesystem": {
        allowed.addAll(FILESYSTEM_OPTIONS);
        if (d.options.get("path") == null) {
          throw new ValidationException("Missing required option 'path' for connector 'filesystem' (table '" + path + "').");
        }
        String format = d.options.get("format");
        if (format == null) {
          throw new ValidationException("Missing required option 'format' for connector 'filesystem' (table '" + path
              + "'). Known formats: " + String.join(", ", FORMATS) + ".");
        }
        if (!FORMATS.contains(format)) {
          throw new ValidationException("Could not find any format factory for identifier '" + format
              + "' (table '" + path + "'). Known formats: " + String.join(", ", FORMATS) + ".");
        }
        allowed.addAll(formatOptions(format));
        if (format.equals("raw")) {
          List<TableDefinition.Column> data = dataColumns(d);
          if (data.size() != 1) {
            throw new ValidationException("The 'raw' format supports exactly one physical column, but table '" + path
                + "' has " + data.size() + ".");
          }
        }
        break;
      }
      case "print":
        allowed.addAll(PRINT_OPTIONS);
        break;
      case "blackhole":
        allowed.addAll(BLACKHOLE_OPTIONS);
        break;
      case "datagen":
        allowed.addAll(DATAGEN_OPTIONS);
        for (TableDefinition.Column c : d.physicalColumns()) {
          for (String o : DATAGEN_FIELD_OPTIONS) allowed.add("fields." + c.name() + "." + o);
        }
        break;
      default:
        throw new ValidationException("Could not find any factory for identifier '" + connector + "' (table '" + path
            + "'). Known connectors: " + String.join(", ", CONNECTORS) + ".");
    }
    for (String key : d.options.keySet()) {
      if (key.equals(SINGLE_FILE) || key.equals(SKIP_FIRST_LINE) || key.equals(OVERWRITE) || key.equals(LEGACY_SINK)
          || key.equals(LEGACY_CSV)) {
        continue;
      }
      boolean passThrough = (key.startsWith("parquet.") && "parquet".equals(d.options.get("format")))
          || (key.startsWith("orc.") && "orc".equals(d.options.get("format")));
      if (!allowed.contains(key) && !passThrough) {
        throw new ValidationException("Unsupported option '" + key + "' for connector '" + connector + "'"
            + (d.options.get("format") != null ? " with format '" + d.options.get("format") + "'" : "")
            + " (table '" + path + "'). Supported options: " + String.join(", ", allowed) + ".");
      }
    }
    for (String key : d.partitionKeys) {
      if (!connector.equals("filesystem")) {
        throw new ValidationException("Connector '" + connector + "' does not support PARTITIONED BY (table '" + path + "').");
      }
    }
    // Accepted option names whose non-default values would change results here: refuse them loudly.
    if (d.flag("json.fail-on-missing-field")) {
      throw TableException.unsupported("'json.fail-on-missing-field' = 'true' (a missing JSON field reads as NULL)");
    }
    String tsStandard = d.option("json.timestamp-format.standard", "SQL");
    if (!tsStandard.equals("SQL") && !tsStandard.equals("ISO-8601")) {
      throw new ValidationException("Option 'json.timestamp-format.standard' must be 'SQL' or 'ISO-8601', but was '"
          + tsStandard + "'.");
    }
    String charset = d.option("raw.charset", "UTF-8");
    if (!charset.equalsIgnoreCase("UTF-8")) throw TableException.unsupported("'raw.charset' = '" + charset + "' (only UTF-8)");
    for (String key : List.of("source.path.regex-pattern", "partition.default-name")) {
      if (d.options.containsKey(key)) throw TableException.unsupported("filesystem option '" + key + "'");
    }
    for (String key : List.of("csv.field-delimiter", "csv.quote-character", "csv.escape-character")) {
      String v = d.options.get(key);
      if (v != null && unescape(v).length() != 1) {
        throw new ValidationException("Option '" + key + "' must be a single character, but was '" + v + "'.");
      }
    }
  }

  private static Set<String> formatOptions(String format) {
    switch (format) {
      case "csv":
        return CSV_OPTIONS;
      case "json":
        return JSON_OPTIONS;
      case "raw":
        return RAW_OPTIONS;
      default:
        return Set.of();
    }
  }

  public static boolean isSourceOnly(TableDefinition d) {
    return "datagen".equals(d.connector());
  }

  public static boolean isSinkOnly(TableDefinition d) {
    return "print".equals(d.connector()) || "blackhole".equals(d.connector());
  }

  public static List<String> names(List<TableDefinition.Column> cols) {
    List<String> out = new ArrayList<>();
    for (TableDefinition.Column c : cols) out.add(c.name());
    return out;
  }

  /** Physical columns stored in the files (partition columns live in directory names). */
  static List<TableDefinition.Column> dataColumns(TableDefinition d) {
    List<TableDefinition.Column> out = new ArrayList<>();
    for (TableDefinition.Column c : d.physicalColumns()) if (!d.partitionKeys.contains(c.name())) out.add(c);
    return out;
  }

  /** The Spark schema of the columns a source reads (physical and metadata), in declaration order. */
  public static StructType readSchema(TableDefinition d) {
    List<String> names = new ArrayList<>();
    List<String> types = new ArrayList<>();
    for (TableDefinition.Column c : d.columns) {
      if (c.isComputed()) continue;
      names.add(c.name());
      types.add(c.type());
    }
    return FlinkTypes.schema(names.toArray(new String[0]), types.toArray(new String[0]));
  }

  /** The Spark schema of the physical columns, in declaration order. */
  public static StructType physicalSchema(TableDefinition d) {
    List<TableDefinition.Column> cols = d.physicalColumns();
    String[] names = new String[cols.size()];
    String[] types = new String[cols.size()];
    for (int i = 0; i < names.length; i++) {
      names[i] = cols.get(i).name();
      types[i] = cols.get(i).type();
    }
    return FlinkTypes.schema(names, types);
  }

  static String unescape(String s) {
    return s.replace("\\t", "\t").replace("\\n", "\n");
  }

  // --- reading -----------------------------------------------------------------------------------

  /** The rows of a source table, computed columns included, in declaration order. */
  public static Dataset<Row> read(SparkSession spark, String path, TableDefinition d, Configuration hadoop,
      FunctionCatalog functions) {
    String connector = d.connector();
    if (isSinkOnly(d)) {
      throw new ValidationException("Connector '" + connector + "' can only be used as a sink; table '" + path
          + "' cannot be read.");
    }
    Dataset<Row> physical = connector.equals("datagen") ? DataGen.read(spark, path, d)
        : FileMetadata.withColumns(readFiles(spark, path, d, hadoop), d);
    return withComputedColumns(physical, d, path, functions);
  }

  /**
   * Whether a source never ends in streaming mode: a filesystem table with
   * 'source.monitor-interval', or datagen without 'number-of-rows' and without sequence fields.
   */
  public static boolean isUnbounded(TableDefinition d) {
    if (d.connector().equals("filesystem")) return d.options.containsKey("source.monitor-interval");
    if (!d.connector().equals("datagen") || d.options.containsKey("number-of-rows")) return false;
    for (TableDefinition.Column c : d.physicalColumns()) {
      if ("sequence".equals(d.options.get("fields." + c.name() + ".kind"))) return false;
    }
    return true;
  }

  /** The rows of an unbounded source as a Spark stream (see {@link #isUnbounded}). */
  public static Dataset<Row> readUnbounded(SparkSession spark, String path, TableDefinition d,
      Configuration hadoop, FunctionCatalog functions) {
    Dataset<Row> physical = d.connector().equals("datagen") ? DataGen.readStream(spark, d)
        : FileMetadata.withColumns(readFiles(spark, path, d, hadoop, true), d);
    return withComputedColumns(physical, d, path, functions);
  }

  /** {@code what} refused under flink-exact event time, which cannot run it. */
  public static TableException flinkExactUnsupported(String what) {
    return TableException.unsupported(what + " under pyflink_table.streaming.event-time = flink-exact (use "
        + "micro-batch, the default)");
  }

  /**
   * Whether unbounded sources follow Flink's per-row watermark ({@code pyflink_table.streaming.event-time
   * = flink-exact}) rather than Spark's per-micro-batch one (micro-batch, the default).
   */
  public static boolean flinkExactEventTime(SparkSession spark) {
    String mode = spark.conf().get(Protocol.CONF_STREAMING_EVENT_TIME, Protocol.EVENT_TIME_MICRO_BATCH).trim();
    if (mode.equals(Protocol.EVENT_TIME_MICRO_BATCH)) return false;
    if (mode.equals(Protocol.EVENT_TIME_FLINK_EXACT)) return true;
    throw new TableException("Unsupported value '" + mode + "' of pyflink_table.streaming.event-time; expected "
        + Protocol.EVENT_TIME_MICRO_BATCH + " or " + Protocol.EVENT_TIME_FLINK_EXACT + ".");
  }

  /**
   * Spark's reader of a monitored directory. Under flink-exact, one file per micro-batch: files are
   * taken in modification-time order, so a row's file and its position there are its arrival order.
   */
  static DataStreamReader fileStream(SparkSession spark) {
    DataStreamReader reader = spark.readStream();
    return flinkExactEventTime(spark) ? reader.option(MAX_FILES_PER_TRIGGER, "1") : reader;
  }

  /** Spark's file-source option naming how many new files a micro-batch takes at most. */
  public static final String MAX_FILES_PER_TRIGGER = "maxFilesPerTrigger";

  static Dataset<Row> withComputedColumns(Dataset<Row> physical, TableDefinition d, String path,
      FunctionCatalog functions) {
    Dataset<Row> df = physical;
    List<Column> out = new ArrayList<>();
    for (TableDefinition.Column c : d.columns) {
      if (c.isComputed()) {
        String sql = c.expression().replaceAll("(?i)\\bPROCTIME\\s*\\(\\s*\\)", "CURRENT_TIMESTAMP");
        try {
          Expr ast = d.expressionColumns.get(c.name());
          Column value = ast != null ? ExprCompiler.compile(ast, new Scope(df, functions)) : functions.sqlExpression(sql);
          // Over windows ordered by it need to tell a processing-time attribute from a plain timestamp.
          boolean proctime = c.expression().strip().matches("(?i)PROCTIME\\s*\\(\\s*\\)");
          if (proctime) value = value.as(c.name(), new MetadataBuilder().putBoolean(PROCTIME_MARK, true).build());
          df = df.withColumn(c.name(), value);
          df.schema();
          String ltz = sqlTimestampLtz(df, c.name());
          if (ltz != null) {
            // Keeps the column's marks (a PROCTIME() column's is TIMESTAMP_LTZ(3) too).
            df = df.withColumn(c.name(), col("`" + c.name().replace("`", "``") + "`").as(c.name(),
                new MetadataBuilder().withMetadata(df.schema().apply(c.name()).metadata())
                    .putString(FlinkTypes.METADATA_KEY, ltz).build()));
          }
        } catch (Exception e) { // Spark's AnalysisException is a checked exception
          throw new ValidationException("Computed column '" + c.name() + "' of table '" + path + "' is invalid: "
              + firstLine(e.getMessage()));
        }
      }
      out.add(col("`" + c.name() + "`"));
    }
    return df.select(out.toArray(new Column[0]));
  }

  /**
   * The Flink type of computed column {@code name} of {@code df} when it is SQL text's
   * TO_TIMESTAMP_LTZ, whose TIMESTAMP_LTZ(3) Spark's type does not hold (the Table API's
   * expressions record it themselves); else null.
   */
  private static String sqlTimestampLtz(Dataset<Row> df, String name) {
    if (!(df.queryExecution().analyzed() instanceof org.apache.spark.sql.catalyst.plans.logical.Project p)) return null;
    for (org.apache.spark.sql.catalyst.expressions.NamedExpression ne : ScalaInterop.list(p.projectList())) {
      if (ne instanceof org.apache.spark.sql.catalyst.expressions.Alias a && a.name().equals(name)
          && !a.metadata().contains(FlinkTypes.METADATA_KEY)) {
        return ToTimestampLtz.flinkType(a.child());
      }
    }
    return null;
  }

  static String firstLine(String s) {
    if (s == null) return "";
    String t = s.replaceAll(" SQLSTATE: [0-9A-Z]+", "");
    int nl = t.indexOf('\n');
    return (nl > 0 ? t.substring(0, nl) : t).strip();
  }

  private static Dataset<Row> readFiles(SparkSession spark, String path, TableDefinition d, Configuration hadoop) {
    return readFiles(spark, path, d, hadoop, false);
  }

  private static Dataset<Row> readFiles(SparkSession spark, String path, TableDefinition d, Configuration hadoop,
      boolean streaming) {
    String location = d.options.get("path");
    StructType schema = physicalSchema(d);
    FileCommitter.recover(hadoop, location); // a commit a dead process left half done is finished first
    try {
      Path p = new Path(location);
      if (!p.getFileSystem(hadoop).exists(p)) {
        if (streaming) {
          throw new ValidationException("Directory '" + location + "' monitored by table '" + path + "' does not exist.");
        }
        return failingScan(spark, schema, "File or directory '" + location + "' of table '" + path + "' does not exist.");
      }
    } catch (IOException e) {
      throw new TableException("Cannot access '" + location + "': " + e.getMessage(), e);
    }
    String format = d.options.get("format");
    switch (format) {
      case "csv":
        return Formats.readCsv(spark, location, path, d, schema, hadoop, streaming);
      case "json":
        return Formats.readJson(spark, location, path, d, schema, streaming);
      case "parquet":
      case "orc":
        return reorder(streaming ? fileStream(spark).schema(nullable(schema)).format(format).load(location)
            : spark.read().schema(nullable(schema)).format(format).load(location), schema);
      case "raw": {
        TableDefinition.Column only = dataColumns(d).get(0);
        StructType textSchema = new StructType().add("value", DataTypes.StringType);
        for (StructField f : schema.fields()) {
          if (d.partitionKeys.contains(f.name())) textSchema = textSchema.add(f.name(), f.dataType());
        }
        Dataset<Row> text = (streaming ? fileStream(spark).schema(textSchema).text(location)
            : spark.read().schema(textSchema).text(location)).withColumnRenamed("value", only.name());
        return reorder(text, schema);
      }
      default:
        throw TableException.unsupported("format '" + format + "'");
    }
  }

  /** Declared order and declared (Flink-typed) fields; Spark puts partition columns last. */
  static Dataset<Row> reorder(Dataset<Row> df, StructType schema) {
    Column[] cols = new Column[schema.fields().length];
    for (int i = 0; i < cols.length; i++) {
      StructField f = schema.fields()[i];
      cols[i] = col("`" + f.name() + "`").cast(f.dataType()).as(f.name(), f.metadata());
    }
    return df.select(cols);
  }

  static StructType nullable(StructType schema) {
    StructField[] fs = schema.fields().clone();
    for (int i = 0; i < fs.length; i++) fs[i] = new StructField(fs[i].name(), fs[i].dataType(), true, fs[i].metadata());
    return new StructType(fs);
  }

  /**
   * A scan that fails when (and only when) it runs, for sources whose files are missing. The filter
   * fails it even when no column is read ({@code COUNT(*)}: the optimizer prunes unread columns).
   */
  public static Dataset<Row> failingScan(SparkSession spark, StructType schema, String message) {
    Column[] cols = new Column[schema.fields().length];
    for (int i = 0; i < cols.length; i++) {
      StructField f = schema.fields()[i];
      cols[i] = raise_error(lit(message)).cast(f.dataType()).as(f.name(), f.metadata());
    }
    return spark.range(1).where(raise_error(lit(message)).cast(DataTypes.BooleanType)).select(cols);
  }

  // --- writing -----------------------------------------------------------------------------------

  /** Ctrl-C in the driver: filesystem writes in flight stop before their commit (see FileCommitter). */
  public static void interruptWrites() {
    FileCommitter.interrupted();
  }

  /**
   * Writes {@code rows} (already shaped as the physical columns) into the table. Returns the lines
   * the print connector shows (the caller prints them, so they reach Python's stdout), else null.
   */
  public static String[] write(SparkSession spark, String path, TableDefinition d, Dataset<Row> rows, boolean overwrite,
      Configuration hadoop) {
    switch (d.connector()) {
      case "print":
        return Formats.printLines(d, rows);
      case "blackhole":
        rows.write().format("noop").mode("overwrite").save();
        return null;
      case "filesystem":
        FileCommitter.write(spark, d, rows, overwrite, hadoop);
        return null;
      default:
        throw new ValidationException("Connector '" + d.connector() + "' can only be used as a source; table '" + path
            + "' cannot be written.");
    }
  }

  /**
   * Writes micro-batch {@code batch} of a stream into a filesystem table exactly once, given the file
   * {@code marker} that records the query's last committed batch (see FileCommitter#writeBatch);
   * returns false when the batch had been committed before a crash and was skipped.
   */
  public static boolean writeStreamBatch(SparkSession spark, TableDefinition d, Dataset<Row> rows,
      Configuration hadoop, String marker, long batch) {
    return FileCommitter.writeBatch(spark, d, rows, hadoop, marker, batch);
  }

  public static boolean isStringLike(DataType t) {
    return t instanceof StringType || t instanceof VarcharType
        || t instanceof CharType;
  }

  static boolean isTemporal(DataType t) {
    return t instanceof DateType || t instanceof TimestampType || t instanceof TimestampNTZType || t instanceof TimeType;
  }
}
