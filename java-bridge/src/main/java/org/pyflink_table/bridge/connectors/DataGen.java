package org.pyflink_table.bridge.connectors;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.current_date;
import static org.apache.spark.sql.functions.current_timestamp;
import static org.apache.spark.sql.functions.floor;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.localtimestamp;
import static org.apache.spark.sql.functions.rand;
import static org.apache.spark.sql.functions.sha2;
import static org.apache.spark.sql.functions.substring;
import static org.apache.spark.sql.functions.timestamp_millis;
import static org.apache.spark.sql.functions.unhex;
import static org.apache.spark.sql.functions.unix_millis;
import static org.apache.spark.sql.functions.when;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.errors.ValidationException;

/**
 * Flink's datagen source as a Spark range: sequence fields count up from 'start', random fields
 * draw from Spark's rand(). 'rows-per-second' only throttles streams, so batch ignores it.
 */
final class DataGen {
  private DataGen() {}

  static Dataset<Row> read(SparkSession spark, String table, TableDefinition d) {
    String rowsOption = d.options.get("number-of-rows");
    if (rowsOption == null) {
      throw new ValidationException("Querying an unbounded table '" + table + "' in batch mode is not allowed. "
          + "The datagen source is unbounded: set 'number-of-rows'.");
    }
    long n = parseLong(rowsOption, "number-of-rows");
    for (TableDefinition.Column c : d.physicalColumns()) {
      if (kind(d, c).equals("sequence")) {
        long start = parseLong(required(d, c, "start"), "fields." + c.name() + ".start");
        long end = parseLong(required(d, c, "end"), "fields." + c.name() + ".end");
        n = Math.min(n, Math.max(0, end - start + 1));
      }
    }
    return generated(spark.range(n).toDF("__pyflink_table_seq"), d);
  }

  /** An unbounded datagen table: Spark's rate source paced by 'rows-per-second' (default 10000). */
  static Dataset<Row> readStream(SparkSession spark, TableDefinition d) {
    long rate = parseLong(d.option("rows-per-second", "10000"), "rows-per-second");
    Dataset<Row> base = spark.readStream().format("rate").option("rowsPerSecond", rate).load()
        .select(col("value").as("__pyflink_table_seq"));
    return generated(base, d);
  }

  /** The declared fields computed from the row number column {@code __pyflink_table_seq}. */
  private static Dataset<Row> generated(Dataset<Row> base, TableDefinition d) {
    List<Column> out = new ArrayList<>();
    for (StructField f : Connectors.physicalSchema(d).fields()) {
      TableDefinition.Column c = d.column(f.name());
      Column v = kind(d, c).equals("sequence") ? sequence(d, c, f.dataType()) : random(d, c, f.dataType());
      String nullRate = d.options.get("fields." + c.name() + ".null-rate");
      if (nullRate != null) {
        v = when(rand().lt(Double.parseDouble(nullRate)), lit(null).cast(f.dataType())).otherwise(v);
      }
      out.add(v.cast(f.dataType()).as(f.name(), f.metadata()));
    }
    return base.select(out.toArray(new Column[0]));
  }

  private static String kind(TableDefinition d, TableDefinition.Column c) {
    String k = d.option("fields." + c.name() + ".kind", "random");
    if (!k.equals("random") && !k.equals("sequence")) {
      throw new ValidationException("Option 'fields." + c.name() + ".kind' must be 'random' or 'sequence', but was '" + k + "'.");
    }
    return k;
  }

  private static String required(TableDefinition d, TableDefinition.Column c, String key) {
    String v = d.options.get("fields." + c.name() + "." + key);
    if (v == null) {
      throw new ValidationException("Sequence field '" + c.name() + "' needs the option 'fields." + c.name() + "." + key + "'.");
    }
    return v;
  }

  private static long parseLong(String v, String key) {
    try {
      return Long.parseLong(v.strip());
    } catch (NumberFormatException e) {
      throw new ValidationException("Option '" + key + "' must be an integer, but was '" + v + "'.");
    }
  }

  private static Column sequence(TableDefinition d, TableDefinition.Column c, DataType t) {
    long start = Long.parseLong(required(d, c, "start").strip());
    if (!(t instanceof ByteType || t instanceof ShortType || t instanceof IntegerType || t instanceof LongType
        || t instanceof DecimalType || t instanceof FloatType || t instanceof DoubleType || Connectors.isStringLike(t))) {
      throw TableException.unsupported("datagen sequence for type " + t.sql() + " (field '" + c.name() + "')");
    }
    return col("__pyflink_table_seq").plus(start).cast(t);
  }

  private static Column random(TableDefinition d, TableDefinition.Column c, DataType t) {
    String min = d.options.get("fields." + c.name() + ".min");
    String max = d.options.get("fields." + c.name() + ".max");
    if (t instanceof ByteType || t instanceof ShortType || t instanceof IntegerType || t instanceof LongType) {
      double lo = min != null ? Double.parseDouble(min) : lowest(t);
      double hi = max != null ? Double.parseDouble(max) : highest(t);
      return floor(rand().multiply(hi - lo + 1).plus(lo)).cast(t);
    }
    if (t instanceof FloatType || t instanceof DoubleType || t instanceof DecimalType) {
      double lo = min != null ? Double.parseDouble(min) : 0.0;
      double hi = max != null ? Double.parseDouble(max)
          : t instanceof DecimalType ? Math.pow(10, ((DecimalType) t).precision() - ((DecimalType) t).scale()) - 1
          : t instanceof FloatType ? Float.MAX_VALUE : Double.MAX_VALUE;
      return rand().multiply(hi - lo).plus(lo).cast(t);
    }
    if (t instanceof BooleanType) return rand().lt(0.5);
    if (Connectors.isStringLike(t) || t instanceof BinaryType) {
      int length = Integer.parseInt(d.option("fields." + c.name() + ".length", "100").strip());
      // Random hexadecimal text, as Flink's datagen produces; sha2 gives 64 characters per draw.
      List<Column> chunks = new ArrayList<>();
      for (int i = 0; i * 64 < Math.max(length, 1); i++) chunks.add(sha2(rand().cast(DataTypes.StringType), 256));
      Column hex = substring(concat(chunks.toArray(new Column[0])), 1, length);
      if (d.flag("fields." + c.name() + ".var-len")) {
        hex = hex.substr(lit(1), floor(rand().multiply(length)).plus(1).cast(DataTypes.IntegerType));
      }
      return t instanceof BinaryType ? unhex(hex) : hex;
    }
    // 'max-past' is a duration; plain milliseconds or a number with a unit suffix are accepted.
    String maxPast = d.option("fields." + c.name() + ".max-past", "0").strip();
    long maxPastMs = maxPast.replaceAll("[^0-9]", "").isEmpty() ? 0 : Long.parseLong(maxPast.replaceAll("[^0-9]", ""));
    if (maxPast.endsWith("s") && !maxPast.endsWith("ms")) maxPastMs *= 1000;
    if (maxPast.endsWith("min")) maxPastMs *= 60_000;
    Column past = floor(rand().multiply(maxPastMs)).cast(DataTypes.LongType);
    if (t instanceof TimestampNTZType || t instanceof TimestampType) {
      return timestamp_millis(
          unix_millis(current_timestamp()).minus(past)).cast(t);
    }
    if (t instanceof DateType) return current_date();
    if (t.typeName().startsWith("time")) return localtimestamp().cast(t);
    throw TableException.unsupported("datagen random values for type " + t.sql() + " (field '" + c.name() + "')");
  }

  private static double lowest(DataType t) {
    if (t instanceof ByteType) return Byte.MIN_VALUE;
    if (t instanceof ShortType) return Short.MIN_VALUE;
    if (t instanceof IntegerType) return Integer.MIN_VALUE;
    return Long.MIN_VALUE;
  }

  private static double highest(DataType t) {
    if (t instanceof ByteType) return Byte.MAX_VALUE;
    if (t instanceof ShortType) return Short.MAX_VALUE;
    if (t instanceof IntegerType) return Integer.MAX_VALUE;
    return Long.MAX_VALUE;
  }
}
