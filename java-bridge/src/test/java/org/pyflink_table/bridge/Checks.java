package org.pyflink_table.bridge;

import java.util.function.Supplier;

/** The self-checking tests' bookkeeping: compare, count, print failures, exit non-zero on any. */
public final class Checks {
  private final String name;
  private int passed;
  private int failed;

  public Checks(String name) {
    this.name = name;
  }

  /** Compares what {@code actual} gives (or the exception it throws, as "Class: message"). */
  public void check(String what, String expected, Supplier<String> actual) {
    String result;
    try {
      result = actual.get();
    } catch (RuntimeException e) {
      result = e.getClass().getSimpleName() + ": " + e.getMessage();
    }
    if (result.equals(expected)) {
      passed++;
    } else {
      failed++;
      System.out.println("FAIL " + what + "\n  expected: " + expected + "\n  actual:   " + result);
    }
  }

  /** Prints the count and exits with 1 when anything failed. */
  public void finish() {
    System.out.println(name + ": " + passed + " passed, " + failed + " failed");
    if (failed > 0) System.exit(1);
  }
}
