package org.pyflink_table.bridge.errors;

/** A failure of the table runtime or a call that cannot be honoured here ("unsupported"). */
public class TableException extends RuntimeException {
  public TableException(String message) {
    super(message);
  }

  public TableException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The error for a PyFlink feature that Spark cannot express; always names the feature. */
  public static TableException unsupported(String feature) {
    return new TableException("Unsupported: " + feature + " is not supported by pyflink_table on Spark.");
  }
}
