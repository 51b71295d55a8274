package org.pyflink_table.bridge.table;

import java.util.regex.Pattern;
import org.apache.spark.sql.SparkSession;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.protocol.Protocol;

/**
 * Flink's idle state retention ({@code table.exec.state.ttl}, processing time) for the stateful
 * operators over unbounded sources. Those that run as {@code transformWithStateInPandas} processors
 * keep their state in Spark state variables with Spark's time-to-live (which needs Spark's
 * processing-time mode), so a key not written for the TTL starts afresh, as in Flink. Spark's own
 * stateful operators (stream-stream joins, streaming aggregations, deduplication) have no
 * time-to-live: with a TTL set they are refused, naming the option, rather than keeping state
 * Flink would have dropped.
 */
public final class StateTtl {
  private StateTtl() {}

  /** The option as users set it. */
  public static final String OPTION = "table.exec.state.ttl";

  /** Flink's per-operator TTL hint, {@code /*+ STATE_TTL('t' = '1d') *}{@code /}. */
  private static final Pattern HINT = Pattern.compile("/\\*\\+[^*]*\\bSTATE_TTL\\s*\\(", Pattern.CASE_INSENSITIVE);

  /** The TTL in milliseconds (0: state is kept for ever, Flink's default). */
  public static long ms(SparkSession spark) {
    String text = spark.conf().get(Protocol.CONF_STATE_TTL_MS, "0").trim();
    return text.isEmpty() ? 0 : Long.parseLong(text);
  }

  /** Spark's time mode for a processor whose state takes the TTL (Spark's TTL needs processing time). */
  public static String timeMode(SparkSession spark) {
    return ms(spark) > 0 ? "ProcessingTime" : "None";
  }

  /** Refuses the TTL for {@code what}, an operator whose state Spark keeps without a time-to-live. */
  public static void refuse(SparkSession spark, String what) {
    long ttl = ms(spark);
    if (ttl > 0) {
      throw new TableException("Unsupported: option '" + OPTION + "' = '" + ttl + " ms' cannot be honoured by " + what
          + ": its state is Spark's own, which has no time-to-live, so idle state would never expire as in Flink. "
          + "Remove the option (or set it to 0 ms) or run over bounded input.");
    }
  }

  /** Refuses Flink's {@code STATE_TTL} query hint in a SQL text (Spark would drop an unknown hint silently). */
  public static void checkNoHint(String sql) {
    if (sql != null && HINT.matcher(sql).find()) {
      throw new TableException("Unsupported: the query hint STATE_TTL (a per-operator state TTL) is not supported by "
          + "pyflink_table on Spark; remove the hint and set the option '" + OPTION + "' for the whole job "
          + "instead.");
    }
  }
}
