package org.pyflink_table.bridge.errors;

/** Malformed input text, such as a string expression that does not follow Flink's grammar. */
public class SqlParserException extends RuntimeException {
  public SqlParserException(String message) {
    super(message);
  }
}
