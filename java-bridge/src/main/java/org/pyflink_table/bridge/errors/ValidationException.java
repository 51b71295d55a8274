package org.pyflink_table.bridge.errors;

/** Bad input found before anything runs: unknown column, function or table, wrong arguments. */
public class ValidationException extends RuntimeException {
  public ValidationException(String message) {
    super(message);
  }

  public ValidationException(String message, Throwable cause) {
    super(message, cause);
  }
}
