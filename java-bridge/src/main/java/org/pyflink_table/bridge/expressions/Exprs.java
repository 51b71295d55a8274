package org.pyflink_table.bridge.expressions;

import java.util.Arrays;

/** Factory the Python DSL calls to build expression trees: one Py4J hop per DSL call. */
public final class Exprs {
  private Exprs() {}

  public static Expr col(String name) {
    return new Expr.FieldRef(name);
  }

  public static Expr lit(Object value) {
    return new Expr.Literal(value, null);
  }

  /** A literal whose value is given in string form together with its Flink type. */
  public static Expr typedLit(Object value, String flinkType) {
    return new Expr.Literal(value, flinkType);
  }

  public static Expr call(String name, Expr[] args) {
    return new Expr.Call(name, Arrays.asList(args), null);
  }

  /** A call of a user function object (not looked up by name). */
  public static Expr callFunction(String name, UserFunction function, Expr[] args) {
    return new Expr.Call(name, Arrays.asList(args), function);
  }

  /** Parses a FLIP-38 string expression list such as {@code "a, b.count as cnt"}. */
  public static Expr[] parseList(String text) {
    return ExpressionParser.parseList(text).toArray(new Expr[0]);
  }

  public static Expr parse(String text) {
    return ExpressionParser.parse(text);
  }
}
