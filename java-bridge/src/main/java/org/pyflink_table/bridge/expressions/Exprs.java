package org.pyflink_table.bridge.expressions;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Factory the Python DSL calls to build expression trees: one Py4J hop per DSL call. Arguments
 * come as one string of Py4J command parts (see {@link Args}): JVM expressions, and Python values
 * (int, float, bool, str, bytes, None) that become literals.
 */
public final class Exprs {
  private Exprs() {}

  /** Marks a symbol argument in {@code kinds}: a string shown unquoted (a type, a unit). */
  static final String SYMBOL = "~";

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

  /**
   * A call of {@code name} on encoded arguments. {@code kinds} is null when every argument is a
   * JVM expression or a plain literal; otherwise one line per argument: empty (plain),
   * {@code ~} (a symbol) or the Flink type of a typed literal whose value is its string form.
   */
  public static Expr call(String name, String kinds, String args) {
    return new Expr.Call(name, args(kinds, args), null);
  }

  /** A call of a user function object (not looked up by name). */
  public static Expr callFunction(String name, UserFunction function, Expr[] args) {
    return new Expr.Call(name, Arrays.asList(args), function);
  }

  /** A call of a user function object on encoded arguments, as {@link #call(String, String, String)}. */
  public static Expr callFunction(String name, UserFunction function, String kinds, String args) {
    return new Expr.Call(name, args(kinds, args), function);
  }

  /** {@code lit(value, type)}: the value cast to the type, shown as the value, as Flink shows it. */
  public static Expr typedValue(Object value, String flinkType) {
    Expr.Literal l = new Expr.Literal(value, null);
    return new Expr.Call("cast", List.<Expr>of(l, new Expr.Literal(flinkType, null, true)), null, Summary.of(l));
  }

  /** An Expr[] of encoded JVM expressions (a select list) in one hop. */
  public static Expr[] array(String args) {
    return args(null, args).toArray(new Expr[0]);
  }

  private static List<Expr> args(String kinds, String encoded) {
    List<Object> values = Args.decode(encoded);
    String[] k = kinds == null ? null : kinds.split("\n", -1);
    List<Expr> out = new ArrayList<>(values.size());
    for (int i = 0; i < values.size(); i++) {
      Object v = values.get(i);
      String kind = k == null || i >= k.length ? "" : k[i];
      if (v instanceof Expr) {
        out.add((Expr) v);
      } else if (kind.isEmpty()) {
        out.add(new Expr.Literal(v, null));
      } else if (kind.equals(SYMBOL)) {
        out.add(new Expr.Literal(v, null, true));
      } else {
        out.add(new Expr.Literal(v, kind));
      }
    }
    return out;
  }

  /** Parses a FLIP-38 string expression list such as {@code "a, b.count as cnt"}. */
  public static Expr[] parseList(String text) {
    return ExpressionParser.parseList(text).toArray(new Expr[0]);
  }

  public static Expr parse(String text) {
    return ExpressionParser.parse(text);
  }
}
