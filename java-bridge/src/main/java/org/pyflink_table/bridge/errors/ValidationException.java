package org.pyflink_table.bridge.errors;

/** Bad input found before anything runs: unknown column, function or table, wrong arguments. */
public class ValidationException extends RuntimeException {
  public ValidationException(String message) {
    super(message);
  }

  public ValidationException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * PyFlink 2.3's refusal of the aggregate {@code function} (FIRST_VALUE, LAST_VALUE) in a session
   * window in streaming mode: its planner finds no {@code merge} method of the function's accumulator.
   */
  public static ValidationException unmergeable(String function) {
    return new ValidationException("Could not find an implementation method 'merge' for function '" + function
        + "': a session window in streaming mode merges the accumulators of its aggregate functions, and " + function
        + " has none");
  }

  /**
   * PyFlink 2.3's refusal of the aggregate {@code function} (JSON_ARRAYAGG_ABSENT_ON_NULL, ...) in a
   * group window in streaming mode: its planner finds no {@code accumulate} method for the arguments.
   */
  public static ValidationException noAccumulate(String function) {
    return new ValidationException("Could not find an implementation method 'accumulate' for function '" + function
        + "': a group window over an unbounded source cannot run it (PyFlink 2.3 refuses it in its group windows)");
  }

  /**
   * PyFlink 2.3's refusal of the aggregate {@code function} (JSON_ARRAYAGG_ABSENT_ON_NULL, ...) in a
   * SESSION, HOP or CUMULATE window table function in streaming mode: these windows merge
   * accumulators (sessions, slices), and its planner finds no {@code merge} method of the function.
   */
  public static ValidationException noMerge(String function) {
    return new ValidationException("Could not find an implementation method 'merge' for function '" + function
        + "': a SESSION, HOP or CUMULATE window table function in streaming mode merges the accumulators of its "
        + "aggregate functions, and " + function + " has none");
  }
}
