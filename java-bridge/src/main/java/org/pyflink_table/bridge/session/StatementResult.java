package org.pyflink_table.bridge.session;

import org.pyflink_table.bridge.table.JTable;

/** What {@code execute_sql} returns: rows to show (queries, SHOW, DESCRIBE) or plain success. */
public final class StatementResult {
  /** The rows, or null for statements that only succeed (DDL, DROP, INSERT). */
  public final JTable rows;
  /** True when the rows are the statement's content (Flink's SUCCESS_WITH_CONTENT). */
  public final boolean withContent;
  /** Lines the print connector produced (first element "stdout" or "stderr"), else null. */
  public String[] printed;

  public StatementResult(JTable rows, boolean withContent) {
    this.rows = rows;
    this.withContent = withContent;
  }

  /** Plain success (DDL, DROP, USE). */
  public static StatementResult ok() {
    return new StatementResult(null, false);
  }

  /** Success with the lines the print connector produced (null for none). */
  public static StatementResult printed(String[] lines) {
    StatementResult r = ok();
    r.printed = lines;
    return r;
  }

  public JTable rows() {
    return rows;
  }

  public String[] printed() {
    return printed;
  }

  public boolean isWithContent() {
    return withContent;
  }
}
