package org.pyflink_table.bridge.streaming;

import static org.apache.spark.sql.functions.col;

import java.util.Arrays;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.pyflink_table.bridge.window.TimeAttributes;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.pyflink_table.bridge.connectors.Connectors;
import org.pyflink_table.bridge.connectors.TableDefinition;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.FunctionCatalog;
import org.pyflink_table.bridge.types.FlinkTypes;

/**
 * Source tables in streaming mode. Unbounded sources (a monitored directory, datagen without a row
 * count) are Spark streams; bounded ones stay batch scans, whose changelog {@link Changelog}
 * computes. A DDL {@code WATERMARK FOR ts AS ts [- INTERVAL 'n' unit]} marks the rowtime column
 * with its delay ({@link #WATERMARK_DELAY_MS}); {@link Jobs} turns it into Spark's watermark.
 */
public final class StreamSources {
  private StreamSources() {}

  private static final Pattern WATERMARK = Pattern.compile("(?is)^WATERMARK\\s+FOR\\s+(`[^`]+`|\\S+)\\s+AS\\s+(.+)$");
  private static final Pattern BOUNDED_DELAY = Pattern.compile(
      "(?is)^(`[^`]+`|\\S+)\\s*(?:-\\s*INTERVAL\\s+'\\s*(\\d+)\\s*'\\s+(MILLISECOND|SECOND|MINUTE|HOUR|DAY)S?)?$");

  /** The rows of a source table in streaming mode, with its watermark. */
  public static Dataset<Row> read(SparkSession spark, String path, TableDefinition d,
      Configuration hadoop, FunctionCatalog functions) {
    Dataset<Row> df = Connectors.isUnbounded(d) ? Connectors.readUnbounded(spark, path, d, hadoop, functions)
        : Connectors.read(spark, path, d, hadoop, functions);
    return withWatermark(df, d, path);
  }

  /** Spark's watermark for the table's WATERMARK clause (the table unchanged without one). */
  static Dataset<Row> withWatermark(Dataset<Row> df, TableDefinition d, String path) {
    if (d.watermark == null) return df;
    validateWatermark(df, d, path);
    Matcher m = WATERMARK.matcher(d.watermark.strip());
    m.matches(); // validated above
    String column = unquote(m.group(1));
    StructField f = df.schema().apply(column);
    String expression = m.group(2).strip();
    Matcher e = BOUNDED_DELAY.matcher(expression);
    if (!e.matches() || !unquote(e.group(1)).equals(column)) {
      throw TableException.unsupported("watermark expression '" + expression + "' of table '" + path
          + "' in streaming mode (supported: " + column + " and " + column + " - INTERVAL 'n' SECOND/MINUTE/...)");
    }
    long delayMs = e.group(2) == null ? 0 : Long.parseLong(e.group(2)) * UNIT_MS.get(e.group(3).toUpperCase(Locale.ROOT));
    // Spark's watermark needs a TIMESTAMP_LTZ column, Flink's rowtime is usually TIMESTAMP: the
    // delay travels as column metadata to the window aggregation, where Jobs places the watermark.
    Metadata marked = new MetadataBuilder()
        .withMetadata(f.metadata()).putLong(WATERMARK_DELAY_MS, delayMs).build();
    return df.withColumn(column, col("`" + column + "`").as(column, marked));
  }

  /**
   * Flink's checks of a WATERMARK clause, in either mode (Flink resolves it when the table is
   * created): its rowtime column exists and is a TIMESTAMP(p)/TIMESTAMP_LTZ(p), p at most 3; an
   * expression reading another column names an existing one of such a type.
   */
  public static void validateWatermark(Dataset<Row> df, TableDefinition d, String path) {
    if (d.watermark == null) return;
    Matcher m = WATERMARK.matcher(d.watermark.strip());
    if (!m.matches()) throw new ValidationException("Invalid watermark of table '" + path + "': " + d.watermark);
    String column = unquote(m.group(1));
    if (d.column(column) == null) {
      throw new ValidationException("The rowtime attribute field '" + column + "' is not defined in the table schema of '"
          + path + "'. Fields: " + String.join(", ", d.columnNames()) + ".");
    }
    String timeType = flinkType(df, d, column);
    if (!isEventTimeType(timeType, d.column(column).type() != null)) {
      throw new ValidationException("Invalid data type of time field for watermark definition. " + EVENT_TIME_TYPES
          + ", but the time field type is " + timeType);
    }
    String expression = m.group(2).strip();
    Matcher e = BOUNDED_DELAY.matcher(expression);
    if (e.matches() && !unquote(e.group(1)).equals(column)) {
      // Flink's errors where the expression reads another column: unknown, or not a time.
      String other = unquote(e.group(1));
      if (!Arrays.asList(df.columns()).contains(other)) {
        throw new ValidationException("Unknown identifier '" + other + "' in the watermark expression '" + expression
            + "' of table '" + path + "'.");
      }
      String otherType = flinkType(df, d, other);
      if (e.group(2) == null && !isEventTimeType(otherType, d.column(other) != null && d.column(other).type() != null)) {
        throw new ValidationException("Invalid data type of expression for watermark definition. " + EVENT_TIME_TYPES
            + ", but the watermark expression type is " + otherType);
      }
    }
  }

  /** The Flink types an event-time attribute may have (Flink's DefaultSchemaResolver's rule). */
  private static final Pattern EVENT_TIME_TYPE = Pattern.compile("^TIMESTAMP(_LTZ)?\\(([0-9])\\)( NOT NULL)?$");
  private static final String EVENT_TIME_TYPES = "The field must be of type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the "
      + "supported precision 'p' is from 0 to 3";

  /** A column's Flink type: as declared for a physical column, else as Spark computes it. */
  private static String flinkType(Dataset<Row> df, TableDefinition d, String column) {
    TableDefinition.Column declared = d.column(column);
    if (declared != null && declared.type() != null) {
      try {
        return FlinkTypes.parseSql(declared.type()).fullFlinkType();
      } catch (RuntimeException e) {
        return declared.type();
      }
    }
    return FlinkTypes.fromSparkField(df.schema().apply(column));
  }

  /**
   * Whether a column of Flink type {@code flinkType} can be an event-time attribute. A computed
   * column's precision is Spark's (microseconds) rather than Flink's, so only a declared type's is
   * checked.
   */
  private static boolean isEventTimeType(String flinkType, boolean declared) {
    Matcher m = EVENT_TIME_TYPE.matcher(flinkType);
    return m.matches() && (!declared || Integer.parseInt(m.group(2)) <= 3);
  }

  /** Column metadata on a rowtime attribute: its watermark delay in milliseconds. */
  public static final String WATERMARK_DELAY_MS = TimeAttributes.WATERMARK_DELAY_MS;

  private static final Map<String, Long> UNIT_MS = Map.of(
      "MILLISECOND", 1L, "SECOND", 1000L, "MINUTE", 60_000L, "HOUR", 3_600_000L, "DAY", 86_400_000L);

  private static String unquote(String s) {
    return s.startsWith("`") ? s.substring(1, s.length() - 1) : s;
  }
}
