package org.pyflink_table.bridge.session;

import org.pyflink_table.bridge.Checks;

/**
 * Self-checking test of {@link FlinkSqlDialect#rewrite}: Flink SQL text to the Spark SQL text that
 * means the same. Run main; it exits non-zero on a failure.
 */
public final class FlinkSqlDialectTest {
  private static final Checks CHECKS = new Checks("FlinkSqlDialectTest");

  public static void main(String[] args) {
    // CAST types read by FlinkTypes.parseSql, spelled in Spark's words.
    rewrites("SELECT CAST(a AS INT) FROM t", "SELECT CAST(a AS INT) FROM t");
    rewrites("SELECT CAST(a AS BIGINT NOT NULL) FROM t", "SELECT CAST(a AS BIGINT) FROM t");
    rewrites("SELECT CAST(a AS STRING) FROM t", "SELECT CAST(a AS STRING) FROM t");
    rewrites("SELECT CAST(a AS VARCHAR) FROM t", "SELECT CAST(a AS STRING) FROM t");
    rewrites("SELECT CAST(a AS VARCHAR(2)) FROM t", "SELECT substring(CAST(a AS STRING), 1, 2) FROM t");
    rewrites("SELECT CAST(a AS CHARACTER VARYING(2)) FROM t", "SELECT substring(CAST(a AS STRING), 1, 2) FROM t");
    rewrites("SELECT CAST(a AS CHAR(3)) FROM t", "SELECT rpad(CAST(a AS STRING), 3, ' ') FROM t");
    rewrites("SELECT CAST(a AS CHAR) FROM t", "SELECT rpad(CAST(a AS STRING), 1, ' ') FROM t");
    rewrites("SELECT CAST(a AS DECIMAL(10, 2)) FROM t", "SELECT CAST(a AS DECIMAL(10,2)) FROM t");
    rewrites("SELECT CAST(a AS DECIMAL) FROM t", "SELECT CAST(a AS DECIMAL(10,0)) FROM t");
    rewrites("SELECT CAST(a AS BYTES) FROM t", "SELECT CAST(a AS BINARY) FROM t");
    rewrites("SELECT CAST(a AS DOUBLE PRECISION) FROM t", "SELECT CAST(a AS DOUBLE) FROM t");
    rewrites("SELECT CAST(a AS TIMESTAMP) FROM t", "SELECT CAST(a AS TIMESTAMP_NTZ) FROM t");
    // The unit in lower case marks a cast's precision for the STRING cast pass (FLOOR(.. TO SECOND) is upper case).
    rewrites("SELECT CAST(a AS TIMESTAMP(3)) FROM t",
        "SELECT CAST(date_trunc('millisecond', CAST(a AS TIMESTAMP_NTZ)) AS TIMESTAMP_NTZ) FROM t");
    // Other precisions than 0, 3 and 6: the session function that truncates and records p.
    rewrites("SELECT CAST(a AS TIMESTAMP(2)), CAST(a AS TIMESTAMP_LTZ(9)) FROM t",
        "SELECT pyflink_timestamp_precision(CAST(a AS TIMESTAMP_NTZ), 2), "
            + "pyflink_timestamp_precision(CAST(a AS TIMESTAMP_LTZ), 9) FROM t");
    // A literal is TIMESTAMP(digits written): recorded where its value's digits say less.
    rewrites("SELECT TIMESTAMP '2024-01-01 00:00:01.500', TIMESTAMP '2024-01-01 00:00:01.5', TIMESTAMP '2024-01-01 00:00:01'",
        "SELECT pyflink_timestamp_precision(TIMESTAMP_NTZ '2024-01-01 00:00:01.500', 3), "
            + "TIMESTAMP_NTZ '2024-01-01 00:00:01.5', TIMESTAMP_NTZ '2024-01-01 00:00:01'");
    rewrites("SELECT TRY_CAST(a AS TIMESTAMP(0) WITH LOCAL TIME ZONE) FROM t",
        "SELECT CAST(date_trunc('second', TRY_CAST(a AS TIMESTAMP_LTZ)) AS TIMESTAMP_LTZ) FROM t");
    rewrites("SELECT CAST(a AS TIME) FROM t", "SELECT CAST(a AS TIME(0)) FROM t");
    rewrites("SELECT CAST(a AS ARRAY<INT>) FROM t", "SELECT CAST(a AS ARRAY<INT>) FROM t");
    rewrites("SELECT CAST(a AS INT ARRAY) FROM t", "SELECT CAST(a AS ARRAY<INT>) FROM t");
    rewrites("SELECT CAST(a AS MULTISET<STRING>) FROM t", "SELECT CAST(a AS MAP<STRING, INT>) FROM t");
    rewrites("SELECT CAST(a AS MAP<STRING, TIMESTAMP_LTZ(3)>) FROM t",
        "SELECT CAST(a AS MAP<STRING, TIMESTAMP_LTZ>) FROM t");
    rewrites("SELECT CAST(a AS ROW<x INT, `y z` STRING>) FROM t",
        "SELECT CAST(a AS STRUCT<`x`: INT, `y z`: STRING>) FROM t");
    // Types FlinkTypes does not read reach Spark as written, so Spark's error names them.
    rewrites("SELECT CAST(a AS INTERVAL DAY) FROM t", "SELECT CAST(a AS INTERVAL DAY) FROM t");
    rewrites("SELECT CAST(a AS VARIANT) FROM t", "SELECT CAST(a AS VARIANT) FROM t");
    // LISTAGG's separator defaults to Flink's ','.
    rewrites("SELECT LISTAGG(s) FROM t", "SELECT listagg(s, ',') FROM t");
    rewrites("SELECT LISTAGG(DISTINCT s, '|') FROM t", "SELECT listagg(DISTINCT s, '|') FROM t");
    // COLLECT: the multiset session function over collect_list (collect_set for DISTINCT), FILTER inside.
    rewrites("SELECT COLLECT(v) FROM t", "SELECT pyflink_collect(collect_list(v)) FROM t");
    rewrites("SELECT COLLECT( DISTINCT v + 1) AS c FROM t", "SELECT pyflink_collect(collect_set(v + 1)) AS c FROM t");
    rewrites("SELECT COLLECT(v) FILTER (WHERE v > 1), COUNT(*) FROM t",
        "SELECT pyflink_collect(collect_list(v) FILTER (WHERE v > 1)), COUNT(*) FROM t");
    rewrites("SELECT collect FROM t", "SELECT collect FROM t");
    // JSON_ARRAYAGG/JSON_OBJECTAGG: JsonAggregates' session functions over collect_list of the row's
    // struct, whose value field names the ON NULL behaviour (ABSENT is JSON_ARRAYAGG's default, NULL JSON_OBJECTAGG's).
    rewrites("SELECT JSON_ARRAYAGG(v + 1), JSON_ARRAYAGG(v NULL ON NULL) FROM t",
        "SELECT pyflink_json_arrayagg(collect_list(named_struct('__pft_json_ABSENT_ON_NULL', v + 1)), 'ABSENT'), "
            + "pyflink_json_arrayagg(collect_list(named_struct('__pft_json_NULL_ON_NULL', v)), 'NULL') FROM t");
    rewrites("SELECT JSON_OBJECTAGG(KEY k VALUE v), JSON_OBJECTAGG(k : v ABSENT ON NULL) FROM t",
        "SELECT pyflink_json_objectagg(collect_list(named_struct('__pft_json_key', k, '__pft_json_NULL_ON_NULL', v)), "
            + "'NULL'), pyflink_json_objectagg(collect_list(named_struct('__pft_json_key', k, "
            + "'__pft_json_ABSENT_ON_NULL', v)), 'ABSENT') FROM t");
    // The current times hold Flink's precisions (3, TIME 0); NOW() keeps its parentheses' meaning.
    rewrites("SELECT CURRENT_TIMESTAMP, NOW(), CURRENT_TIME, LOCALTIME FROM t",
        "SELECT timestamp_millis(unix_millis(CURRENT_TIMESTAMP)), timestamp_millis(unix_millis(now())), `current_time`(0), "
            + "`localtime`(0) FROM t");
    rewrites("SELECT LOCALTIMESTAMP",
        "SELECT CAST(timestamp_millis(unix_millis(CAST(localtimestamp() AS TIMESTAMP_LTZ))) AS TIMESTAMP_NTZ)");
    // CURRENT_WATERMARK calls the session's function, which checks its rowtime argument.
    rewrites("SELECT k FROM t WHERE ts > CURRENT_WATERMARK(ts)", "SELECT k FROM t WHERE ts > __pft_current_watermark(ts)");
    // The user's calls of a name a built-in also has reach the session's function; nothing else
    // (qualified names, an alias's column list, literals, comments) is touched.
    qualifies("SELECT upper(k), UPPER (k), `upper`(k), x.upper(k), 'upper(k)' FROM t -- upper(k)",
        "SELECT system.session.`upper`(k), system.session.`UPPER` (k), system.session.`upper`(k), x.upper(k),"
            + " 'upper(k)' FROM t -- upper(k)");
    qualifies("SELECT w FROM t, LATERAL TABLE(split(c)) AS split(w)",
        "SELECT w FROM t, LATERAL TABLE(system.session.`split`(c)) AS split(w)");
    qualifies("SELECT concat FROM concat", "SELECT concat FROM concat");
    CHECKS.finish();
  }

  private static void qualifies(String sql, String expected) {
    CHECKS.check(sql, expected, () -> FlinkSqlDialect.qualifyUserCalls(sql, java.util.Set.of("upper", "split", "concat")));
  }

  private static void rewrites(String flink, String spark) {
    CHECKS.check(flink, spark, () -> FlinkSqlDialect.rewrite(flink));
  }
}
