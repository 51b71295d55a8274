package org.pyflink_table.bridge.expressions;

import java.util.function.Supplier;
import org.pyflink_table.bridge.Checks;
import org.pyflink_table.bridge.errors.SqlParserException;
import org.pyflink_table.bridge.errors.ValidationException;

/** Self-checking test of {@link ExpressionParser}: run main; it exits non-zero on a failure. */
public final class ExpressionParserTest {
  private static final Checks CHECKS = new Checks("ExpressionParserTest");

  public static void main(String[] args) {
    // Lists, aliases and aggregates.
    list("a, b.count as cnt", "[a, as(count(b), 'cnt')]");
    list("word, word.count as word_count", "[word, as(count(word), 'word_count')]");
    list("  a ,b,  c  ", "[a, b, c]");
    list("f(a, b), c", "[f(a, b), c]");
    one("trim(a) as a", "as(trim(true, true, ' ', a), 'a')");
    one("a AS x", "as(a, 'x')");
    one("split(a) as (word)", "as(SPLIT(a), 'word')");
    one("f(a) as (x, y, z)", "as(f(a), 'x', 'y', 'z')");
    one("a.as('x')", "as(a, 'x')");
    one("a.as(x, y)", "as(a, 'x', 'y')");
    one("a.sum", "sum(a)");
    one("a.upperCase()", "upper(a)");
    one("a.substring(1, 2)", "substring(a, 1, 2)");
    one("a.distinct.count", "count(distinct(a))");
    one("count.distinct(a)", "count(distinct(a))");
    one("count(*)", "count()");
    one("f()", "f()");
    one("a.in(1, 2, 3)", "in(a, 1, 2, 3)");
    one("a.between(1, 2).isNotNull", "isNotNull(between(a, 1, 2))");
    one("a.log(2)", "log(2, a)");
    one("if(a, b, c)", "if(a, b, c)");
    one("?(a, b, c)", "ifThenElse(a, b, c)");
    one("trim(LEADING, 'x', a)", "trim(true, false, 'x', a)");
    one("withColumns(a to c, 1 to 2)", "withColumns(rangeTo(a, c), rangeTo(1, 2))");

    // Field references and window properties.
    one("`my col` + 1", "plus(my col, 1)");
    one("*", "*");
    one("w.start", "start(w)");
    one("w.end", "end(w)");
    one("w.rowtime", "rowtime(w)");
    one("a.sum over w", "over(sum(a), w)");
    one("a.count.over(w)", "over(count(a), w)");
    one("a.asc", "asc(a)");
    one("a.DESC()", "desc(a)");
    one("UNBOUNDED_ROW", "UNBOUNDED_ROW");
    one("current_range", "CURRENT_RANGE");

    // Operators and precedence.
    one("a + 1", "plus(a, 1)");
    one("a === b", "equals(a, b)");
    one("a <> b", "notEquals(a, b)");
    one("a >= b", "greaterThanOrEqual(a, b)");
    one("a + b * c - -d", "minus(plus(a, times(b, c)), minusPrefix(d))");
    one("a > 1 && b < 2 || !c", "or(and(greaterThan(a, 1), lessThan(b, 2)), not(c))");
    one("a || b && c", "and(or(a, b), c)");
    one("(a + b) % 3 / c", "divide(mod(plus(a, b), 3), c)");
    one("+a", "a");
    one("-a.abs()", "minusPrefix(abs(a))");

    // Literals.
    one("'text'", "'text'");
    one("'It''s'", "'It''s'");
    one("\"say \"\"hi\"\"\"", "'say \"hi\"'");
    one("TRUE && false", "and(true, false)");
    literal("42", "Integer 42 null");
    literal("-7", "Integer -7 null");
    literal("3000000000", "Long 3000000000 null");
    literal("42L", "Long 42 null");
    literal("1.5", "Double 1.5 null");
    literal("1.5f", "Float 1.5 null");
    literal("1.50p", "String 1.50 DECIMAL(3, 2)");
    literal("Null(INT)", "null INT");
    literal("nullOf(LONG)", "null BIGINT");
    literal("'2020-01-01'.toDate", "String 2020-01-01 DATE");
    literal("'10:30:00'.toTime()", "String 10:30:00 TIME(0)");
    literal("'2020-01-01 10:00:00'.toTimestamp", "String 2020-01-01T10:00:00 TIMESTAMP(3)");
    literal("10.minutes", "Long 600000 INTERVAL SECOND(3)");
    literal("10.minute", "Long 600000 INTERVAL SECOND(3)");
    literal("2.hours", "Long 7200000 INTERVAL SECOND(3)");
    literal("1.milli", "Long 1 INTERVAL SECOND(3)");
    literal("-1.days", "Long -86400000 INTERVAL SECOND(3)");
    literal("2.months", "Integer 2 INTERVAL MONTH");
    literal("1.years", "Integer 12 INTERVAL MONTH");
    literal("5.rows", "Long 5 ROW_INTERVAL");
    one("a.toDate", "cast(a, DATE)");

    // Types.
    one("a.cast(STRING)", "cast(a, STRING)");
    one("a.cast(DECIMAL(10, 2))", "cast(a, DECIMAL(10, 2))");
    one("a.cast(long)", "cast(a, BIGINT)");
    one("a.cast(SQL_TIMESTAMP)", "cast(a, TIMESTAMP(3))");
    one("a.cast(DECIMAL)", "cast(a, DECIMAL(38, 18))");
    one("a.cast(OBJECT_ARRAY(MAP(STRING, INT)))", "cast(a, ARRAY<MAP<STRING, INT>>)");
    one("cast(a + 1, ROW<`x)` INT>)", "cast(plus(a, 1), ROW<`x)` INT>)");

    // Malformed input.
    rejects("a +", "column 4: expression expected but end of expression found");
    rejects("f(a", "column 4: ')' expected");
    rejects("a b", "column 3: ',' or end of expression expected but 'b' found");
    rejects("'abc", "column 1: closing '");
    rejects("a < b < c", "column 7");
    rejects("a.cast()", "column 8: type expected");
    rejects("a as", "alias name expected");
    rejects("", "column 1: expression expected");
    rejects("a && && b", "column 6");
    invalid("a.minutes", "Invalid literal for day-time interval: a");
    invalid("1.5.months", "Invalid literal for year-month interval: 1.5");

    CHECKS.finish();
  }

  private static void one(String input, String expected) {
    check(input, expected, () -> ExpressionParser.parse(input).toString());
  }

  private static void list(String input, String expected) {
    check(input, expected, () -> ExpressionParser.parseList(input).toString());
  }

  /** Checks a literal's Java class, value and Flink type, which toString does not show. */
  private static void literal(String input, String expected) {
    check(input, expected, () -> {
      Expr.Literal l = (Expr.Literal) ExpressionParser.parse(input);
      return l.value == null ? "null " + l.flinkType
          : l.value.getClass().getSimpleName() + " " + l.value + " " + l.flinkType;
    });
  }

  private static void rejects(String input, String messagePart) {
    check(input, "SqlParserException containing \"" + messagePart + "\"", () -> {
      try {
        return "parsed as " + ExpressionParser.parseList(input);
      } catch (SqlParserException e) {
        return e.getMessage().contains(messagePart)
            ? "SqlParserException containing \"" + messagePart + "\"" : e.getMessage();
      }
    });
  }

  private static void invalid(String input, String message) {
    check(input, message, () -> {
      try {
        return "parsed as " + ExpressionParser.parse(input);
      } catch (ValidationException e) {
        return e.getMessage();
      }
    });
  }

  private static void check(String input, String expected, Supplier<String> actual) {
    CHECKS.check(input, expected, actual);
  }
}
