package org.pyflink_table.bridge.udf;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.catalyst.expressions.Add;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.Coalesce;
import org.apache.spark.sql.catalyst.expressions.EvalMode$;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.Literal$;
import org.apache.spark.sql.catalyst.expressions.Multiply;
import org.apache.spark.sql.catalyst.expressions.PythonFuncExpression;
import org.apache.spark.sql.catalyst.expressions.Subtract;
import org.apache.spark.sql.catalyst.expressions.UnaryMinus;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.pyflink_table.bridge.expressions.ScalaInterop;

/**
 * Analyzer rule giving a Python function's literal DECIMAL arguments the value Flink passes.
 *
 * <p>Flink's planner (Calcite) removes a CAST of a numeric literal to {@code DECIMAL(p, s)} when
 * the literal's integer digits fit in {@code p - s}, keeping the literal's own, unrounded value
 * under the new type; Flink's generated code rounds it where the value is used (so
 * {@code SELECT CAST(1.05 AS DECIMAL)} gives 1), but a Python function gets the literal itself
 * ({@code Decimal('1.05')}). A literal that does not fit reaches it as NULL. Calcite's
 * simplification of {@code x + 0}, {@code 0 + x}, {@code x - 0}, {@code x * 1}, {@code 1 * x}
 * and {@code COALESCE(x, ...)} keeps that literal too, as do chains of such casts (through
 * DOUBLE or DECIMAL); any other arithmetic, TRY_CAST and casts of strings or columns see the
 * rounded value. Measured on PyFlink 2.3 (tests/test_udf_scalar.py). Each such argument
 * of a Python function call becomes a DECIMAL literal of exactly the literal's digits, and only
 * there; every other use of the cast keeps Spark's (and Flink's) rounding.
 *
 * <p>The rule visits every Python function call, the bridge's own processors included (they are no
 * user functions), and is harmless there: the bridge applies them to a Dataset's columns
 * ({@code rows.col(c)}), so their arguments are attribute references, never the literal or cast this
 * rule rewrites; telling them apart would mean tracking every internal function's Spark function.
 */
public final class LiteralDecimalArguments extends Rule<LogicalPlan> {
  private static final Set<SparkSessionExtensions> INSTALLED =
      Collections.newSetFromMap(new IdentityHashMap<>());
  private static final int MAX_PRECISION = 38;

  /** Adds the rule to the analyzer of every session later created with {@code extensions}. */
  public static void install(SparkSessionExtensions extensions) {
    synchronized (INSTALLED) {
      // The extensions object is shared by a root session and all its new sessions: add once.
      if (INSTALLED.add(extensions)) {
        extensions.injectPostHocResolutionRule(session -> new LiteralDecimalArguments());
      }
    }
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    return plan.transformAllExpressionsWithSubqueries(
        new scala.runtime.AbstractPartialFunction<Expression, Expression>() {
          @Override
          public boolean isDefinedAt(Expression e) {
            return e instanceof PythonFuncExpression;
          }

          @Override
          public Expression apply(Expression e) {
            return ScalaInterop.mapChildren(e, LiteralDecimalArguments::argument);
          }
        });
  }

  /** A Python function's argument, replaced by the literal Flink passes when it is one. */
  private static Expression argument(Expression arg) {
    Kept kept = kept(arg);
    if (kept == null || !kept.castToDecimal) return arg;
    if (kept.value == null) return Literal$.MODULE$.create(null, arg.dataType());
    BigDecimal v = kept.value.scale() < 0 ? kept.value.setScale(0) : kept.value;
    int precision = Math.max(v.precision(), v.scale());
    if (precision > MAX_PRECISION) return arg;
    return Literal$.MODULE$.create(v, new DecimalType(precision, v.scale()));
  }

  /** A literal value as Flink's planner keeps it; {@code castToDecimal} once a cast to DECIMAL kept it. */
  private static final class Kept {
    final BigDecimal value; // null: the literal overflowed its cast (NULL)
    final boolean castToDecimal;

    Kept(BigDecimal value, boolean castToDecimal) {
      this.value = value;
      this.castToDecimal = castToDecimal;
    }
  }

  /** The kept literal {@code e} stands for in Flink's plan, or null when {@code e} is not one. */
  private static Kept kept(Expression e) {
    if (e instanceof Literal) {
      BigDecimal v = numeric((Literal) e);
      return v == null ? null : new Kept(v, false);
    }
    if (e instanceof UnaryMinus && ((UnaryMinus) e).child() instanceof Literal) {
      // a negative numeric literal, as Flink's parser reads -1.55 (negating a cast rounds first)
      BigDecimal v = numeric((Literal) ((UnaryMinus) e).child());
      return v == null ? null : new Kept(v.negate(), false);
    }
    if (e instanceof Cast) {
      Cast c = (Cast) e;
      if (c.evalMode() == EvalMode$.MODULE$.TRY()) return null;
      DataType to = c.dataType();
      Kept inner = kept(c.child());
      if (inner == null) return null;
      if (to instanceof DoubleType) {
        return inner.value == null ? inner : new Kept(BigDecimal.valueOf(inner.value.doubleValue()), inner.castToDecimal);
      }
      if (to instanceof DecimalType) {
        DecimalType d = (DecimalType) to;
        if (inner.value == null) return new Kept(null, true);
        int integerDigits = inner.value.precision() - inner.value.scale();
        return new Kept(integerDigits <= d.precision() - d.scale() ? inner.value : null, true);
      }
      return null;
    }
    if (e instanceof Add) {
      Add a = (Add) e;
      return identity(a.left(), a.right(), 0, 0);
    }
    if (e instanceof Subtract) {
      Subtract s = (Subtract) e;
      return identity(s.left(), s.right(), 0, -1);
    }
    if (e instanceof Multiply) {
      Multiply m = (Multiply) e;
      return identity(m.left(), m.right(), 1, 1);
    }
    if (e instanceof Coalesce) {
      List<Expression> children = new ArrayList<>(ScalaInterop.list(e.children()));
      Kept first = children.isEmpty() ? null : kept(children.get(0));
      return first != null && first.value != null ? first : null;
    }
    return null;
  }

  /**
   * {@code left op right} when one side is the operator's identity ({@code unit}) and the other a
   * kept literal, as Calcite simplifies it; {@code leftUnit} is the identity on the left (-1: none).
   */
  private static Kept identity(Expression left, Expression right, int unit, int leftUnit) {
    Kept l = kept(left);
    Kept r = kept(right);
    if (l == null || r == null) return null;
    if (r.value != null && r.value.compareTo(BigDecimal.valueOf(unit)) == 0 && l.castToDecimal) return l;
    if (leftUnit >= 0 && l.value != null && l.value.compareTo(BigDecimal.valueOf(leftUnit)) == 0 && r.castToDecimal) {
      return r;
    }
    return null;
  }

  /** The exact value of a non-null numeric literal, else null. */
  private static BigDecimal numeric(Literal l) {
    Object v = l.value();
    DataType t = l.dataType();
    if (v == null) return null;
    if (t instanceof DecimalType) return ((org.apache.spark.sql.types.Decimal) v).toJavaBigDecimal();
    if (t instanceof IntegerType || t instanceof LongType || t instanceof ShortType || t instanceof ByteType) {
      return BigDecimal.valueOf(((Number) v).longValue());
    }
    if (t instanceof DoubleType || t instanceof FloatType) {
      double d = ((Number) v).doubleValue();
      return Double.isFinite(d) ? BigDecimal.valueOf(d) : null;
    }
    return null;
  }
}
