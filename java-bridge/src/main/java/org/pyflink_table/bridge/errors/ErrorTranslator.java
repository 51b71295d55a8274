package org.pyflink_table.bridge.errors;

import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.catalyst.parser.ParseException;

/**
 * The one place where JVM failures become PyFlink's exception kinds. Python asks it for a
 * {kind, message} pair and raises the matching Python exception, so users never see a Py4J trace.
 */
public final class ErrorTranslator {
  private ErrorTranslator() {}

  /** Returns {exception kind, one-line-first message}. */
  public static String[] translate(Throwable t) {
    Throwable root = t;
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof ValidationException) {
        return new String[] {"ValidationException", c.getMessage()};
      }
      if (c instanceof SqlParserException) {
        return new String[] {"SqlParserException", c.getMessage()};
      }
      if (c instanceof TableException) {
        return new String[] {"TableException", c.getMessage()};
      }
      if (c instanceof ParseException) {
        return new String[] {"SqlParserException", clean(c.getMessage())};
      }
      if (c instanceof AnalysisException) {
        return new String[] {"ValidationException", clean(((AnalysisException) c).getSimpleMessage())};
      }
      if (c.getClass().getName().equals("org.apache.spark.api.python.PythonException")) {
        return new String[] {"PythonException", c.getMessage()};
      }
      if (c instanceof java.io.FileNotFoundException) {
        return new String[] {"TableException", c.getMessage()};
      }
      root = c;
    }
    String msg = root.getMessage() == null ? root.getClass().getName() : root.getMessage();
    return new String[] {"TableException", clean(msg)};
  }

  /** Spark messages carry SQLSTATE suffixes and query contexts; keep what a user needs. */
  static String clean(String message) {
    if (message == null) {
      return "";
    }
    String m = message.replaceAll(" SQLSTATE: [0-9A-Z]+", "");
    int ctx = m.indexOf("\n== SQL");
    if (ctx > 0) {
      m = m.substring(0, ctx);
    }
    return m.strip();
  }
}
