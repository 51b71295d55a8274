package org.pyflink_table.bridge.expressions;

import org.pyflink_table.bridge.Checks;

/** Self-checking test of {@link SqlText}: where quoted tokens end. Run main; it exits non-zero on a failure. */
public final class SqlTextTest {
  private static final Checks CHECKS = new Checks("SqlTextTest");

  public static void main(String[] args) {
    // the text, where the quote opens, whether backslashes escape, and the end (exclusive) or -1
    end("'abc' x", 0, false, 5);
    end("x 'a''b' y", 2, false, 8);
    end("`a``b`.c", 0, false, 6);
    end("\"a\"\"\" z", 0, false, 5);
    end("'abc", 0, false, -1);
    end("'a''", 0, false, -1);
    end("'a\\'b'", 0, false, 4);
    end("'a\\'b'", 0, true, 6);
    end("`a\\`", 0, true, 4);
    end("''", 0, false, 2);
    CHECKS.finish();
  }

  private static void end(String sql, int open, boolean backslashEscapes, int expected) {
    CHECKS.check(sql + " @" + open + (backslashEscapes ? " with \\" : ""), String.valueOf(expected),
        () -> String.valueOf(SqlText.quotedEnd(sql, open, backslashEscapes)));
  }
}
