package org.pyflink_table.bridge.expressions;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A Flink expression before resolution: the tree that both the Python DSL and the FLIP-38 string
 * parser build. It stays unresolved until a table operation compiles it against its input, because
 * Flink expressions may name things (over-window aliases, group-window properties, registered
 * functions) that only exist in that context.
 */
public abstract class Expr {

  /** Flink's summary form (what PyFlink's {@code str(expr)} shows), also used in error messages. */
  @Override
  public String toString() {
    return Summary.of(this);
  }

  /** A column reference such as {@code col("a")} or {@code a} in a string expression. */
  public static final class FieldRef extends Expr {
    public final String name;

    public FieldRef(String name) {
      this.name = name;
    }
  }

  /**
   * A literal. {@code flinkType} is null when the type is inferred from the Java value that Py4J
   * delivered (Integer, Long, Double, Boolean, String, byte[]); otherwise {@code value} holds the
   * value's string form and {@code flinkType} its Flink type, e.g. DECIMAL(3, 2) or DATE.
   */
  public static final class Literal extends Expr {
    public final Object value;
    public final String flinkType;
    /**
     * A symbol (a type name, a time unit, a JSON behaviour) given as a string: compiled like a
     * string literal, but shown unquoted in the summary, as Flink shows its symbols.
     */
    public final boolean symbol;

    public Literal(Object value, String flinkType) {
      this(value, flinkType, false);
    }

    public Literal(Object value, String flinkType, boolean symbol) {
      this.value = value;
      this.flinkType = flinkType;
      this.symbol = symbol;
    }
  }

  /**
   * A call of a function by name: built-in (resolved through {@link FunctionCatalog}), a
   * registered user-defined function, or an operator such as {@code plus} or {@code as}.
   * {@code function} carries an already resolved function object (a Python UDF) when the call
   * was made with the function itself rather than with its name.
   */
  public static final class Call extends Expr {
    public final String name;
    public final List<Expr> args;
    public final Object function;
    /** The summary to show instead of the call's own, or null (e.g. a literal given a type). */
    public final String display;

    public Call(String name, List<Expr> args, Object function) {
      this(name, args, function, null);
    }

    public Call(String name, List<Expr> args, Object function, String display) {
      this.name = name;
      this.args = Collections.unmodifiableList(new ArrayList<>(args));
      this.function = function;
      this.display = display;
    }

    public Call(String name, Expr... args) {
      this(name, Arrays.asList(args), null);
    }

    public Expr arg(int i) {
      return args.get(i);
    }
  }
}
