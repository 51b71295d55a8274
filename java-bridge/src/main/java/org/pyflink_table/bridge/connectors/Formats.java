package org.pyflink_table.bridge.connectors;

import static org.apache.spark.sql.functions.base64;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.concat_ws;
import static org.apache.spark.sql.functions.exists;
import static org.apache.spark.sql.functions.from_json;
import static org.apache.spark.sql.functions.input_file_name;
import static org.apache.spark.sql.functions.length;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.parse_url;
import static org.apache.spark.sql.functions.raise_error;
import static org.apache.spark.sql.functions.regexp_extract;
import static org.apache.spark.sql.functions.regexp_replace;
import static org.apache.spark.sql.functions.split;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.to_json;
import static org.apache.spark.sql.functions.transform;
import static org.apache.spark.sql.functions.trim;
import static org.apache.spark.sql.functions.udf;
import static org.apache.spark.sql.functions.unbase64;
import static org.apache.spark.sql.functions.when;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.util.LongAccumulator;
import org.pyflink_table.bridge.errors.TableException;
import scala.Tuple2;
import scala.collection.Iterator;

/** Flink's csv, json and print layouts expressed as Spark column expressions. */
public final class Formats {
  private Formats() {}

  static final String CORRUPT = "__pyflink_table_corrupt_record";

  // --- CSV ---------------------------------------------------------------------------------------

  static Dataset<Row> readCsv(SparkSession spark, String location, String table, TableDefinition d, StructType schema,
      Configuration hadoop) {
    return readCsv(spark, location, table, d, schema, hadoop, false);
  }

  /** CSV rows; {@code streaming} reads the directory as a file stream (new files as they arrive). */
  static Dataset<Row> readCsv(SparkSession spark, String location, String table, TableDefinition d, StructType schema,
      Configuration hadoop, boolean streaming) {
    String delim = Connectors.unescape(d.option("csv.field-delimiter", ","));
    boolean noQuote = d.flag("csv.disable-quote-character");
    String quote = d.option("csv.quote-character", "\"");
    String escape = d.options.get("csv.escape-character");
    String nullLiteral = d.options.get("csv.null-literal");
    boolean ignore = d.flag("csv.ignore-parse-errors");
    boolean header = d.flag(Connectors.SKIP_FIRST_LINE);
    boolean comments = d.flag("csv.allow-comments");
    String arrayDelim = d.option("csv.array-element-delimiter", ";");
    CsvText.Dialect dialect = new CsvText.Dialect(delim.codePointAt(0), noQuote ? -1 : quote.codePointAt(0),
        escape != null && !escape.equals(quote) ? escape.codePointAt(0) : -1, comments, header, nullLiteral, false);
    // Line by line unless a quoted value holds a line break: record-by-record reading (Spark's
    // multiLine) cannot split a file between tasks, so it is used only for files that need it.
    List<Path> unclosedFiles = new ArrayList<>();
    // A stream's files are not there yet: records are read line by line.
    CsvText.Layout layout = streaming ? new CsvText.Layout(false, null, false)
        : csvLayout(location, dialect, hadoop, unclosedFiles);
    dialect = dialect.withMultiLine(layout.quotedLineBreak);
    ParseErrors.registerDialect(table, dialect);
    StructType text = new StructType();
    for (StructField f : schema.fields()) text = text.add(f.name(), DataTypes.StringType, true);
    text = text.add(CORRUPT, DataTypes.StringType, true);
    Map<String, String> options = new LinkedHashMap<>();
    // Spark turns a quoted "\r\n" into "\n" unless it is told the files' line break.
    // (Spark's warning about a two-character separator is silenced in log4j2.properties.)
    if (dialect.multiLine() && layout.separator != null) {
      options.put("lineSep", layout.separator);
    }
    CsvOptions reader = new CsvOptions(options);
    reader
        .option("header", String.valueOf(header))
        .option("multiLine", String.valueOf(dialect.multiLine()))
        .option("sep", delim)
        .option("mode", "PERMISSIVE")
        .option("columnNameOfCorruptRecord", CORRUPT)
        // An unquoted empty field comes back as nullValue: keep it distinguishable from a null literal.
        .option("nullValue", nullLiteral != null ? nullLiteral : "\u0000")
        .option("emptyValue", "")
        .option("ignoreLeadingWhiteSpace", "false")
        .option("ignoreTrailingWhiteSpace", "false")
        .option("comment", comments ? "#" : "\u0000")
        .option("quote", noQuote ? "\u0000" : quote)
        .option("escape", escape != null ? escape : quote);
    Dataset<Row> raw = streaming ? Connectors.fileStream(spark).schema(text).options(options).csv(location)
        : spark.read().schema(text).options(options).csv(location);
    int dataFields = 0;
    for (StructField f : schema.fields()) if (!d.partitionKeys.contains(f.name())) dataFields++;
    // Spark marks a record with too few or too many fields (or an unclosed quote) as corrupt and
    // keeps its text; counting its fields tells which, as Flink treats them differently.
    final CsvText.Dialect recordDialect = dialect;
    Column corrupt = col(CORRUPT).isNotNull();
    Column fieldCount = when(corrupt, udf((UDF1<String, Integer>) s -> CsvText.fieldCount(s, recordDialect),
        DataTypes.IntegerType).apply(col(CORRUPT)));
    if (d.flag(Connectors.LEGACY_CSV)) {
      // Flink's legacy csv source reads a longer record's first fields (Spark fills them the same way).
      corrupt = corrupt.and(not(fieldCount.gt(dataFields)));
    }
    // Flink's ignore-parse-errors drops a record it cannot split into the row's fields (too many,
    // or a quote never closed) and keeps the others with NULL where a field is missing or unparsable.
    Column dropped = corrupt.and(fieldCount.equalTo(-1).or(fieldCount.gt(dataFields)));
    Column shortRow = corrupt.and(not(dropped));
    List<Column> out = new ArrayList<>();
    List<Column> rawFields = new ArrayList<>();
    Column anyBad = corrupt;
    Column anyUnparsable = lit(false);
    Column badField = null;
    int dataIndex = 0;
    for (StructField f : schema.fields()) {
      Column s = col("`" + f.name() + "`");
      DataType t = f.dataType();
      boolean partition = d.partitionKeys.contains(f.name());
      if (!partition) rawFields.add(coalesce(s, lit("")));
      Column converted;
      Column bad = null;
      if (Connectors.isStringLike(t)) {
        // An empty field is '' (no null literal), yet the column stays nullable as declared:
        // coalesce(s, '') would type it NOT NULL.
        converted = (nullLiteral == null && !partition) ? when(s.isNull(), lit("")).otherwise(s) : s;
      } else if (t instanceof ArrayType) {
        DataType element = ((ArrayType) t).elementType();
        Column parts = split(s, Pattern.quote(arrayDelim));
        converted = when(s.isNull().or(s.equalTo("")), lit(null).cast(t))
            .otherwise(transform(parts, x -> Connectors.isStringLike(element) ? x : trim(x).try_cast(element)));
        if (!Connectors.isStringLike(element)) {
          // Flink fails on an element it cannot parse (or reads it as NULL with ignore-parse-errors).
          bad = s.isNotNull().and(s.notEqual("")).and(exists(parts,
              x -> trim(x).notEqual("").and(trim(x).try_cast(element).isNull())));
        }
      } else if (t instanceof MapType || t instanceof StructType) {
        throw TableException.unsupported("CSV format for column '" + f.name() + "' of type " + t.simpleString());
      } else {
        Column v = trim(s);
        Column parsed = t instanceof BinaryType ? unbase64(v) : v.try_cast(t);
        converted = when(s.isNull().or(v.equalTo("")), lit(null).cast(t)).otherwise(parsed);
        bad = s.isNotNull().and(v.notEqual("")).and(parsed.isNull());
      }
      if (bad != null) {
        anyBad = anyBad.or(bad);
        anyUnparsable = anyUnparsable.or(bad);
        Column name = when(bad, lit(f.name() + "' (" + t.sql() + ")"));
        badField = badField == null ? name : coalesce(badField, name);
      }
      if (ignore && !partition) {
        converted = when(shortRow.and(fieldCount.leq(dataIndex)), lit(null).cast(t)).otherwise(converted);
      }
      if (!partition) dataIndex++;
      out.add(converted.cast(t).as(f.name(), f.metadata()));
    }
    Column joinedFields = concat_ws(delim, rawFields.toArray(new Column[0]));
    Column rowText = coalesce(col(CORRUPT), joinedFields);
    // Spark reads a quote left open at the end of a file as a value running to the end; Flink
    // rejects that record. Such files are rare (truncated), so their last record is matched by text.
    Column unclosedTail = lit(false);
    for (Path file : unclosedFiles) {
      String last = lastRecordJoined(file, dialect, hadoop);
      if (last == null) continue;
      // Both sides URI-encoded alike (a space as %20, '+' as it is).
      Column inFile = parse_url(input_file_name(), lit("PATH")).equalTo(file.toUri().getRawPath());
      unclosedTail = unclosedTail.or(not(corrupt).and(inFile).and(joinedFields.equalTo(last)));
    }
    dropped = dropped.or(unclosedTail);
    anyBad = anyBad.or(unclosedTail);
    Dataset<Row> checked;
    if (ignore) {
      checked = raw.filter(countedFilter(spark, table, dropped, shortRow.or(anyUnparsable), schema, d.partitionKeys));
    } else {
      Column arity = when(fieldCount.equalTo(-1), lit("missing closing quote for value"))
          .otherwise(concat(lit("row length mismatch, " + dataFields + " fields expected but was "),
              fieldCount.cast(DataTypes.StringType)));
      Column cause = when(unclosedTail, lit("missing closing quote for value"))
          .otherwise(badField == null ? arity : when(corrupt, arity).otherwise(concat(lit("cannot parse field '"), badField)));
      Column message = concat(lit(ParseErrors.CSV_PREFIX), rowText, lit(ParseErrors.TABLE_MARK + table + ParseErrors.FILE_MARK),
          input_file_name(), lit(": "), cause, lit(". Set 'csv.ignore-parse-errors' = 'true' to skip such rows."));
      checked = raw.filter(when(anyBad, raise_error(message)).otherwise(lit(true)));
    }
    return checked.select(out.toArray(new Column[0]));
  }

  /** Collects reader options, so batch and stream readers get the same ones. */
  private static final class CsvOptions {
    private final Map<String, String> options;

    CsvOptions(Map<String, String> options) {
      this.options = options;
    }

    CsvOptions option(String key, String value) {
      options.put(key, value);
      return this;
    }
  }

  /**
   * Keeps the rows that are not {@code dropped}, counting the dropped ones and those {@code nulled}
   * (kept with NULL fields) in the table's accumulators. The counting functions are called only for
   * such rows, so well-formed input pays one extra condition per row.
   */
  private static Column countedFilter(SparkSession spark, String table, Column dropped, Column nulled, StructType schema,
      List<String> partitionKeys) {
    LongAccumulator skippedCount = ParseErrors.counter(spark, table, ParseErrors.SKIPPED);
    LongAccumulator nulledCount = ParseErrors.counter(spark, table, ParseErrors.NULLED);
    UserDefinedFunction skip = udf((UDF1<Object, Boolean>) b -> {
      skippedCount.add(1L);
      return false;
    }, DataTypes.BooleanType).asNondeterministic();
    UserDefinedFunction keep = udf((UDF1<Object, Boolean>) b -> {
      nulledCount.add(1L);
      return true;
    }, DataTypes.BooleanType).asNondeterministic();
    // Spark refuses a scan whose only column is the corrupt-record one: the functions take a field.
    Column field = null;
    for (StructField f : schema.fields()) if (field == null && !partitionKeys.contains(f.name())) field = col("`" + f.name() + "`");
    return when(dropped, skip.apply(field)).when(nulled, keep.apply(field)).otherwise(lit(true));
  }

  /** Scans of CSV files by path, length, modification time and dialect. */
  private static final Map<String, CsvText.Layout> LAYOUTS = new ConcurrentHashMap<>();

  /**
   * Whether the visible files under {@code location} must be read record by record, because a
   * quoted value holds a line break, and the line break that separates their records when they all
   * agree (null otherwise). Each file is scanned once while it stays unchanged; the scan of a file
   * stops at its first quoted line break.
   */
  static CsvText.Layout csvLayout(String location, CsvText.Dialect d, Configuration hadoop,
      List<Path> unclosed) {
    if (d.quote() < 0) return new CsvText.Layout(false, null, false);
    try {
      Path root = new Path(location);
      FileSystem fs = root.getFileSystem(hadoop);
      RemoteIterator<LocatedFileStatus> files = fs.listFiles(root, true);
      String rootText = fs.makeQualified(root).toString();
      boolean multiLine = false;
      Set<String> separators = new HashSet<>();
      unclosed.clear();
      while (files.hasNext()) {
        LocatedFileStatus f = files.next();
        String path = f.getPath().toString();
        String rel = path.startsWith(rootText) ? path.substring(rootText.length()) : f.getPath().getName();
        if (!rel.isEmpty() && hidden(rel)) continue;
        String key = path + "|" + f.getLen() + "|" + f.getModificationTime() + "|" + d.delimiter() + "|" + d.quote() + "|"
            + d.escape() + "|" + d.comments();
        CsvText.Layout layout = LAYOUTS.get(key);
        if (layout == null) {
          try (InputStream in = openText(f.getPath(), hadoop)) {
            layout = CsvText.scan(in, d);
          }
          LAYOUTS.put(key, layout);
        }
        multiLine |= layout.quotedLineBreak;
        if (layout.separator != null) separators.add(layout.separator);
        if (layout.unclosedAtEnd) unclosed.add(f.getPath());
      }
      return new CsvText.Layout(multiLine, separators.size() == 1 ? separators.iterator().next() : null, !unclosed.isEmpty());
    } catch (IOException e) {
      throw new TableException("Cannot read '" + location + "': " + e.getMessage(), e);
    }
  }

  /** The last record of a file as the job sees a well-formed row: its fields joined by the delimiter. */
  private static String lastRecordJoined(Path file, CsvText.Dialect d,
      Configuration hadoop) {
    try (Reader in = new BufferedReader(new InputStreamReader(
        openText(file, hadoop), StandardCharsets.UTF_8))) {
      CsvText.RecordReader records = new CsvText.RecordReader(in, d.withMultiLine(true));
      CsvText.Record last = null;
      for (CsvText.Record r = records.next(); r != null; r = records.next()) if (!r.comment()) last = r;
      return last == null ? null : last.joined(d);
    } catch (IOException e) {
      throw new TableException("Cannot read '" + file + "': " + e.getMessage(), e);
    }
  }

  /** A file's text, decompressed when its name says so (.gz, .bz2, ...), as Spark reads it. */
  static InputStream openText(Path file, Configuration hadoop)
      throws IOException {
    InputStream in = file.getFileSystem(hadoop).open(file);
    CompressionCodec codec = codecs(hadoop).getCodec(file);
    return codec == null ? in : codec.createInputStream(in);
  }

  private static Configuration codecsConf;
  private static CompressionCodecFactory codecs;

  /** Building the codec table loads the codec classes: once per configuration. */
  private static synchronized CompressionCodecFactory codecs(
      Configuration hadoop) {
    if (codecs == null || codecsConf != hadoop) {
      codecs = new CompressionCodecFactory(hadoop);
      codecsConf = hadoop;
    }
    return codecs;
  }

  /** Flink and Spark skip files and directories whose names start with '.' or '_'. */
  private static boolean hidden(String relativePath) {
    for (String part : relativePath.split("/")) {
      if (part.startsWith(".") || part.startsWith("_")) return true;
    }
    return false;
  }

  /** One text column "value" with Flink's CSV line per row, plus the partition columns. */
  static Dataset<Row> csvForWrite(TableDefinition d, Dataset<Row> rows) {
    String delim = Connectors.unescape(d.option("csv.field-delimiter", ","));
    boolean noQuote = d.flag("csv.disable-quote-character");
    String quote = d.option("csv.quote-character", "\"");
    String escape = d.options.get("csv.escape-character");
    String nullLiteral = d.option("csv.null-literal", "");
    String arrayDelim = d.option("csv.array-element-delimiter", ";");
    // Jackson's CSV writer (used by Flink) quotes a text value holding any character up to the
    // highest of separator, quote and newline, or a leading '#' in the first column.
    char maxUnsafe = (char) Math.max(Math.max(delim.charAt(0), quote.charAt(0)), '\n');
    String unsafe = String.format("[\\x{0}-\\x{%x}]", (int) maxUnsafe) + (escape != null ? "|" + Pattern.quote(escape) : "");
    String doubled = escape != null ? escape + quote : quote + quote;
    List<Column> fields = new ArrayList<>();
    boolean first = true;
    for (StructField f : rows.schema().fields()) {
      if (d.partitionKeys.contains(f.name())) continue;
      Column c = col("`" + f.name() + "`");
      DataType t = f.dataType();
      Column text;
      boolean quotable = false;
      if (Connectors.isStringLike(t) || Connectors.isTemporal(t)) {
        text = c.cast(DataTypes.StringType);
        quotable = true;
      } else if (t instanceof BinaryType) {
        text = base64(c);
        quotable = true;
      } else if (t instanceof DecimalType) {
        text = flinkDecimal(c, !"false".equals(d.option("csv.write-bigdecimal-in-scientific-notation", "true")));
      } else if (t instanceof ArrayType) {
        text = concat_ws(arrayDelim, transform(c, x -> x.cast(DataTypes.StringType)));
      } else if (t instanceof MapType || t instanceof StructType) {
        throw TableException.unsupported("CSV format for column '" + f.name() + "' of type " + t.simpleString());
      } else {
        text = c.cast(DataTypes.StringType);
      }
      if (quotable && !noQuote) {
        String pattern = first ? "^#|" + unsafe : unsafe;
        text = when(text.rlike(pattern),
            concat(lit(quote), regexp_replace(text, Pattern.quote(quote), Matcher.quoteReplacement(doubled)), lit(quote)))
            .otherwise(text);
      }
      fields.add(coalesce(text, lit(nullLiteral)));
      first = false;
    }
    List<Column> out = new ArrayList<>();
    out.add(concat_ws(delim, fields.toArray(new Column[0])).as("value"));
    for (String p : d.partitionKeys) out.add(col("`" + p + "`"));
    return rows.select(out.toArray(new Column[0]));
  }

  // --- JSON --------------------------------------------------------------------------------------

  static Dataset<Row> readJson(SparkSession spark, String location, String table, TableDefinition d, StructType schema) {
    return readJson(spark, location, table, d, schema, false);
  }

  /** JSON rows; {@code streaming} reads the directory as a file stream. */
  static Dataset<Row> readJson(SparkSession spark, String location, String table, TableDefinition d, StructType schema,
      boolean streaming) {
    boolean iso = "ISO-8601".equals(d.option("json.timestamp-format.standard", "SQL"));
    String ts = iso ? "yyyy-MM-dd'T'HH:mm:ss[.SSSSSSSSS]" : "yyyy-MM-dd HH:mm:ss[.SSSSSSSSS]";
    StructType js = Connectors.nullable(schema).add(CORRUPT, DataTypes.StringType, true);
    Map<String, String> options = Map.of("mode", "PERMISSIVE", "columnNameOfCorruptRecord", CORRUPT,
        "timestampNTZFormat", ts, "timestampFormat", ts + "['Z'][XXX]");
    Dataset<Row> raw = streaming ? Connectors.fileStream(spark).schema(js).options(options).json(location)
        : spark.read().schema(js).options(options).json(location);
    // Spark keeps the fields it could read of a record with a mistyped field and its text; the
    // text read as a generic object tells those (Flink: the field is NULL) from non-objects (dropped).
    Column corrupt = col(CORRUPT).isNotNull();
    Column generic = from_json(col(CORRUPT),
        DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType));
    Column notAnObject = corrupt.and(generic.isNull());
    Dataset<Row> checked;
    if (d.flag("json.ignore-parse-errors")) {
      checked = raw.filter(countedFilter(spark, table, notAnObject, corrupt.and(generic.isNotNull()), schema, d.partitionKeys));
    } else {
      Column badField = null;
      for (StructField f : schema.fields()) {
        if (d.partitionKeys.contains(f.name())) continue;
        Column name = when(generic.getItem(f.name()).isNotNull().and(col("`" + f.name() + "`").isNull()),
            lit(f.name() + "' (" + f.dataType().sql() + ")"));
        badField = badField == null ? name : coalesce(badField, name);
      }
      Column cause = when(notAnObject, lit("not a JSON object"))
          .otherwise(coalesce(concat(lit("cannot parse field '"), badField), lit("cannot parse the record")));
      Column message = concat(lit(ParseErrors.JSON_PREFIX), col(CORRUPT), lit(ParseErrors.TABLE_MARK + table + ParseErrors.FILE_MARK),
          input_file_name(), lit(": "), cause, lit(". Set 'json.ignore-parse-errors' = 'true' to skip such rows."));
      checked = raw.filter(when(corrupt, raise_error(message)).otherwise(lit(true)));
    }
    return Connectors.reorder(checked, schema);
  }

  /**
   * One text column "value" with Flink's JSON line per row, plus the partition columns. Built per
   * field so that decimals can be written as Flink normalises them (12.30 -> 12.3, 100 -> 1E+2).
   */
  static Dataset<Row> jsonForWrite(TableDefinition d, Dataset<Row> rows) {
    boolean iso = "ISO-8601".equals(d.option("json.timestamp-format.standard", "SQL"));
    boolean ignoreNulls = d.flag("json.encode.ignore-null-fields");
    boolean plainDecimals = d.flag("json.encode.decimal-as-plain-number");
    Map<String, String> options = Map.of("ignoreNullFields", "false");
    List<Column> fields = new ArrayList<>();
    for (StructField f : rows.schema().fields()) {
      if (d.partitionKeys.contains(f.name())) continue;
      Column c = col("`" + f.name() + "`");
      DataType t = f.dataType();
      String key = "\"" + f.name().replace("\\", "\\\\").replace("\"", "\\\"") + "\":";
      Column field;
      if (t instanceof DecimalType) {
        field = concat(lit(key), coalesce(flinkDecimal(c, !plainDecimals), lit("null")));
      } else {
        if (Connectors.isTemporal(t)) {
          Column text = c.cast(DataTypes.StringType);
          if (iso) text = regexp_replace(text, " ", "T");
          if (t instanceof TimestampType) text = concat(text, lit("Z"));
          c = text;
        }
        Column json = to_json(struct(c.as(f.name())), options);
        field = json.substr(lit(2), length(json).minus(2));
      }
      if (ignoreNulls) field = when(col("`" + f.name() + "`").isNull(), lit(null).cast(DataTypes.StringType)).otherwise(field);
      fields.add(field);
    }
    List<Column> out = new ArrayList<>();
    out.add(concat(lit("{"), concat_ws(",", fields.toArray(new Column[0])), lit("}")).as("value"));
    for (String p : d.partitionKeys) out.add(col("`" + p + "`"));
    return rows.select(out.toArray(new Column[0]));
  }

  /**
   * A decimal as Flink's CSV and JSON formats write it: Java's BigDecimal with trailing zeros
   * stripped, so 12.30 is 12.3 and, in scientific notation, 100.00 is 1E+2.
   */
  static Column flinkDecimal(Column c, boolean scientific) {
    Column stripped = regexp_replace(regexp_replace(c.cast(DataTypes.StringType), "(\\.[0-9]*?)0+$", "$1"), "\\.$", "");
    if (!scientific) return stripped;
    String integral = "^-?([1-9][0-9]*?)(0+)$";
    Column digits = regexp_extract(stripped, integral, 1);
    Column zeros = regexp_extract(stripped, integral, 2);
    Column len = length(digits);
    Column mantissa = when(len.gt(1), concat(digits.substr(1, 1), lit("."), digits.substr(lit(2), len))).otherwise(digits);
    Column sign = when(stripped.startsWith("-"), lit("-")).otherwise(lit(""));
    Column sci = concat(sign, mantissa, lit("E+"), len.minus(1).plus(length(zeros)).cast(DataTypes.StringType));
    return when(stripped.rlike("^-?[1-9][0-9]*0$"), sci).otherwise(stripped);
  }

  // --- print -------------------------------------------------------------------------------------

  /** Rows as Flink's print connector shows them: {@code +I[1, Hi]}; first element names the stream. */
  static String[] printLines(TableDefinition d, Dataset<Row> rows) {
    String id = d.options.get("print-identifier");
    String prefix = id == null ? "" : id + "> ";
    List<Row> all = rows.collectAsList();
    String[] lines = new String[all.size() + 1];
    lines[0] = d.flag("standard-error") ? "stderr" : "stdout";
    for (int i = 0; i < all.size(); i++) {
      lines[i + 1] = prefix + "+I" + printRow(all.get(i));
    }
    return lines;
  }

  public static String printRow(Row r) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < r.length(); i++) {
      if (i > 0) sb.append(", ");
      sb.append(printValue(r.get(i)));
    }
    return sb.append("]").toString();
  }

  static String printValue(Object v) {
    if (v == null) return "null";
    if (v instanceof BigDecimal) return ((BigDecimal) v).toPlainString();
    // TIMESTAMP_LTZ (Spark's TimestampType): Flink prints the instant, in UTC with a 'Z'
    if (v instanceof Timestamp) return ((Timestamp) v).toInstant().toString();
    if (v instanceof Instant) return v.toString();
    if (v instanceof byte[]) return Arrays.toString((byte[]) v);
    if (v instanceof Row) return "+I" + printRow((Row) v);
    if (v instanceof scala.collection.Map) {
      StringBuilder sb = new StringBuilder("{");
      Iterator<?> it = ((scala.collection.Map<?, ?>) v).iterator();
      boolean first = true;
      while (it.hasNext()) {
        Tuple2<?, ?> e = (Tuple2<?, ?>) it.next();
        if (!first) sb.append(", ");
        sb.append(printValue(e._1())).append("=").append(printValue(e._2()));
        first = false;
      }
      return sb.append("}").toString();
    }
    if (v instanceof scala.collection.Iterable) {
      StringBuilder sb = new StringBuilder("[");
      Iterator<?> it = ((scala.collection.Iterable<?>) v).iterator();
      boolean first = true;
      while (it.hasNext()) {
        if (!first) sb.append(", ");
        sb.append(printValue(it.next()));
        first = false;
      }
      return sb.append("]").toString();
    }
    return v.toString();
  }
}
