package org.pyflink_table.bridge.connectors;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.concat_ws;
import static org.apache.spark.sql.functions.input_file_name;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.raise_error;
import static org.apache.spark.sql.functions.regexp_replace;
import static org.apache.spark.sql.functions.split;
import static org.apache.spark.sql.functions.transform;
import static org.apache.spark.sql.functions.trim;
import static org.apache.spark.sql.functions.when;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampType;
import org.pyflink_table.bridge.errors.TableException;

/** Flink's csv, json and print layouts expressed as Spark column expressions. */
final class Formats {
  private Formats() {}

  static final String CORRUPT = "__pyflink_table_corrupt_record";

  // --- CSV ---------------------------------------------------------------------------------------

  static Dataset<Row> readCsv(SparkSession spark, String location, String table, TableDefinition d, StructType schema) {
    String delim = Connectors.unescape(d.option("csv.field-delimiter", ","));
    boolean noQuote = d.flag("csv.disable-quote-character");
    String quote = d.option("csv.quote-character", "\"");
    String escape = d.options.get("csv.escape-character");
    String nullLiteral = d.options.get("csv.null-literal");
    boolean ignore = d.flag("csv.ignore-parse-errors");
    String arrayDelim = d.option("csv.array-element-delimiter", ";");
    StructType text = new StructType();
    for (StructField f : schema.fields()) text = text.add(f.name(), DataTypes.StringType, true);
    text = text.add(CORRUPT, DataTypes.StringType, true);
    Dataset<Row> raw = spark.read().schema(text)
        .option("header", String.valueOf(d.flag(Connectors.SKIP_FIRST_LINE)))
        .option("sep", delim)
        .option("mode", "PERMISSIVE")
        .option("columnNameOfCorruptRecord", CORRUPT)
        // An unquoted empty field comes back as nullValue: keep it distinguishable from a null literal.
        .option("nullValue", nullLiteral != null ? nullLiteral : "\u0000")
        .option("emptyValue", "")
        .option("ignoreLeadingWhiteSpace", "false")
        .option("ignoreTrailingWhiteSpace", "false")
        .option("comment", d.flag("csv.allow-comments") ? "#" : "\u0000")
        .option("quote", noQuote ? "\u0000" : quote)
        .option("escape", escape != null ? escape : quote)
        .csv(location);
    List<Column> out = new ArrayList<>();
    List<Column> rawFields = new ArrayList<>();
    Column anyBad = col(CORRUPT).isNotNull();
    Column badField = null;
    for (StructField f : schema.fields()) {
      Column s = col("`" + f.name() + "`");
      DataType t = f.dataType();
      boolean partition = d.partitionKeys.contains(f.name());
      if (!partition) rawFields.add(coalesce(s, lit("")));
      Column converted;
      Column bad = null;
      if (Connectors.isStringLike(t)) {
        converted = (nullLiteral == null && !partition) ? coalesce(s, lit("")) : s;
      } else if (t instanceof ArrayType) {
        DataType element = ((ArrayType) t).elementType();
        Column parts = split(s, Pattern.quote(arrayDelim));
        converted = when(s.isNull().or(s.equalTo("")), lit(null).cast(t))
            .otherwise(transform(parts, x -> Connectors.isStringLike(element) ? x : trim(x).try_cast(element)));
      } else if (t instanceof MapType || t instanceof StructType) {
        throw TableException.unsupported("CSV format for column '" + f.name() + "' of type " + t.simpleString());
      } else {
        Column v = trim(s);
        Column parsed = t instanceof BinaryType ? org.apache.spark.sql.functions.unbase64(v) : v.try_cast(t);
        converted = when(s.isNull().or(v.equalTo("")), lit(null).cast(t)).otherwise(parsed);
        bad = s.isNotNull().and(v.notEqual("")).and(parsed.isNull());
      }
      if (bad != null) {
        anyBad = anyBad.or(bad);
        Column name = when(bad, lit(f.name() + "' (" + t.sql() + ")"));
        badField = badField == null ? name : coalesce(badField, name);
      }
      out.add(converted.cast(t).as(f.name(), f.metadata()));
    }
    Column rowText = coalesce(col(CORRUPT), concat_ws(delim, rawFields.toArray(new Column[0])));
    Dataset<Row> checked;
    if (ignore) {
      checked = raw.filter(not(anyBad));
    } else {
      Column cause = badField == null ? lit("the row does not have " + rawFields.size() + " fields")
          : coalesce(concat(lit("cannot parse field '"), badField), lit("the row does not have " + rawFields.size() + " fields"));
      Column message = concat(lit("Failed to deserialize CSV row '"), rowText, lit("' of table '" + table + "' in file "),
          input_file_name(), lit(": "), cause, lit(". Set 'csv.ignore-parse-errors' = 'true' to skip such rows."));
      checked = raw.filter(when(anyBad, raise_error(message)).otherwise(lit(true)));
    }
    return checked.select(out.toArray(new Column[0]));
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
        text = org.apache.spark.sql.functions.base64(c);
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
    boolean iso = "ISO-8601".equals(d.option("json.timestamp-format.standard", "SQL"));
    String ts = iso ? "yyyy-MM-dd'T'HH:mm:ss[.SSSSSSSSS]" : "yyyy-MM-dd HH:mm:ss[.SSSSSSSSS]";
    StructType js = Connectors.nullable(schema).add(CORRUPT, DataTypes.StringType, true);
    Dataset<Row> raw = spark.read().schema(js)
        .option("mode", "PERMISSIVE")
        .option("columnNameOfCorruptRecord", CORRUPT)
        .option("timestampNTZFormat", ts)
        .option("timestampFormat", ts + "['Z'][XXX]")
        .json(location);
    Dataset<Row> checked;
    if (d.flag("json.ignore-parse-errors")) {
      checked = raw.filter(col(CORRUPT).isNull());
    } else {
      // The first column is named in the message so the scan never reads the corrupt-record column alone.
      String firstCol = schema.fields()[0].name();
      Column message = concat(lit("Failed to deserialize JSON '"), col(CORRUPT), lit("' of table '" + table + "' in file "),
          input_file_name(), lit(" (column '" + firstCol + "' = "), coalesce(col("`" + firstCol + "`").cast(DataTypes.StringType), lit("null")),
          lit("). Set 'json.ignore-parse-errors' = 'true' to skip such rows."));
      checked = raw.filter(when(col(CORRUPT).isNotNull(), raise_error(message)).otherwise(lit(true)));
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
    java.util.Map<String, String> options = java.util.Map.of("ignoreNullFields", "false");
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
        Column json = org.apache.spark.sql.functions.to_json(org.apache.spark.sql.functions.struct(c.as(f.name())), options);
        field = json.substr(lit(2), org.apache.spark.sql.functions.length(json).minus(2));
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
    Column digits = org.apache.spark.sql.functions.regexp_extract(stripped, integral, 1);
    Column zeros = org.apache.spark.sql.functions.regexp_extract(stripped, integral, 2);
    Column len = org.apache.spark.sql.functions.length(digits);
    Column mantissa = when(len.gt(1), concat(digits.substr(1, 1), lit("."), digits.substr(lit(2), len))).otherwise(digits);
    Column sign = when(stripped.startsWith("-"), lit("-")).otherwise(lit(""));
    Column sci = concat(sign, mantissa, lit("E+"), len.minus(1).plus(org.apache.spark.sql.functions.length(zeros)).cast(DataTypes.StringType));
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

  private static String printRow(Row r) {
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
    if (v instanceof java.sql.Timestamp) {
      return java.time.LocalDateTime.ofInstant(((java.sql.Timestamp) v).toInstant(), java.time.ZoneOffset.UTC).toString();
    }
    if (v instanceof java.time.Instant) {
      return java.time.LocalDateTime.ofInstant((java.time.Instant) v, java.time.ZoneOffset.UTC).toString();
    }
    if (v instanceof byte[]) return java.util.Arrays.toString((byte[]) v);
    if (v instanceof Row) return "+I" + printRow((Row) v);
    if (v instanceof scala.collection.Map) {
      StringBuilder sb = new StringBuilder("{");
      scala.collection.Iterator<?> it = ((scala.collection.Map<?, ?>) v).iterator();
      boolean first = true;
      while (it.hasNext()) {
        scala.Tuple2<?, ?> e = (scala.Tuple2<?, ?>) it.next();
        if (!first) sb.append(", ");
        sb.append(printValue(e._1())).append("=").append(printValue(e._2()));
        first = false;
      }
      return sb.append("}").toString();
    }
    if (v instanceof scala.collection.Iterable) {
      StringBuilder sb = new StringBuilder("[");
      scala.collection.Iterator<?> it = ((scala.collection.Iterable<?>) v).iterator();
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
