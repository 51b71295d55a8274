package org.pyflink_table.bridge.expressions;

/** Reading SQL text where the bridge scans it by hand (DDL, the Flink dialect, window rewrites). */
public final class SqlText {
  private SqlText() {}

  /**
   * End (exclusive) of the quoted token whose opening quote stands at {@code open}, or -1 when it
   * is never closed. A doubled quote is an escaped quote; with {@code backslashEscapes}, so is a
   * backslash outside backticks (Spark SQL's string literals).
   */
  public static int quotedEnd(String sql, int open, boolean backslashEscapes) {
    char q = sql.charAt(open);
    int i = open + 1;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      if (c == q) {
        if (i + 1 < sql.length() && sql.charAt(i + 1) == q) {
          i += 2;
          continue;
        }
        return i + 1;
      }
      if (backslashEscapes && c == '\\' && q != '`') i++;
      i++;
    }
    return -1;
  }
}
