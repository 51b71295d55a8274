package org.pyflink_table.bridge.expressions;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.BinaryComparison;
import org.apache.spark.sql.catalyst.expressions.EqualNullSafe;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Greatest;
import org.apache.spark.sql.catalyst.expressions.GreaterThan;
import org.apache.spark.sql.catalyst.expressions.GreaterThanOrEqual;
import org.apache.spark.sql.catalyst.expressions.If;
import org.apache.spark.sql.catalyst.expressions.In;
import org.apache.spark.sql.catalyst.expressions.InSet;
import org.apache.spark.sql.catalyst.expressions.IsNaN;
import org.apache.spark.sql.catalyst.expressions.IsNotNull;
import org.apache.spark.sql.catalyst.expressions.IsNull;
import org.apache.spark.sql.catalyst.expressions.Least;
import org.apache.spark.sql.catalyst.expressions.LessThan;
import org.apache.spark.sql.catalyst.expressions.LessThanOrEqual;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.Literal$;
import org.apache.spark.sql.catalyst.expressions.Not;
import org.apache.spark.sql.catalyst.expressions.Or;
import org.apache.spark.sql.catalyst.plans.logical.Join;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;

/**
 * Optimizer rule giving comparisons Flink's semantics where Spark's differ.
 *
 * <p>Flink compares FLOAT/DOUBLE values as Java primitives: every ordering comparison and
 * {@code =} involving NaN is false ({@code <>} true), and NaN IS NOT DISTINCT FROM NaN is false.
 * Spark orders NaN above every number and treats NaN = NaN as true. Each such comparison becomes
 * {@code comparison AND NOT guard}, where the guard catches exactly the inputs on which the two
 * engines disagree, so NULL semantics stay Spark's (which are Flink's); {@code x IN (...)} gets
 * {@code IF(isnan(x), false or NULL, x IN (...))} when the list may hold a NaN. GREATEST/LEAST return NULL
 * when any argument is NULL (Spark skips NULLs).
 *
 * <p>Left alone: top-level equalities of join conditions (Flink's hash joins, IN-subqueries and
 * INTERSECT/EXCEPT match NaN keys, as Spark's do after its NaN normalisation), grouping and sorting
 * (no comparison expressions), and comparisons of non-deterministic operands (the guard would
 * evaluate them twice). The rule recognises its own output, so it is idempotent.
 */
public final class FlinkFloatingComparisons extends Rule<LogicalPlan> {
  private static final Literal FALSE = Literal$.MODULE$.create(false, DataTypes.BooleanType);
  private static final Literal NULL_BOOLEAN = Literal$.MODULE$.create(null, DataTypes.BooleanType);

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    return plan.transformUpWithSubqueries(ScalaInterop.everywhere((LogicalPlan p) -> {
      boolean join = p instanceof Join;
      return p.mapExpressions(e -> join ? joinCondition(e) : rewrite(e));
    }));
  }

  /** A join condition: its top-level conjuncts {@code a = b} / {@code a <=> b} are join keys. */
  private static Expression joinCondition(Expression e) {
    if (e instanceof And && !e.equals(guarded(((And) e).left()))) {
      return e.mapChildren(FlinkFloatingComparisons::joinCondition);
    }
    if (e instanceof EqualTo || e instanceof EqualNullSafe) {
      return e.mapChildren(FlinkFloatingComparisons::rewrite);
    }
    return rewrite(e);
  }

  /** {@code e} with every comparison inside it given Flink's semantics. */
  static Expression rewrite(Expression e) {
    // Our own output is rebuilt from the comparison it guards, never guarded twice.
    Expression inner = e instanceof If ? ((If) e).falseValue() : e instanceof And ? ((And) e).left() : null;
    Expression target = inner != null && e.equals(guarded(inner)) ? inner : e;
    return guarded(target.mapChildren(FlinkFloatingComparisons::rewrite));
  }

  /** {@code e} wrapped in the guard it needs, or {@code e} itself when it needs none. */
  private static Expression guarded(Expression e) {
    Expression guard = null;
    Expression whenGuarded = FALSE;
    if (e instanceof BinaryComparison) {
      Expression l = ((BinaryComparison) e).left();
      Expression r = ((BinaryComparison) e).right();
      if (!floating(l.dataType()) || !l.deterministic() || !r.deterministic()) return e;
      // Spark differs from Flink exactly when the side it orders NaN "above" is NaN.
      if (e instanceof EqualTo || e instanceof EqualNullSafe) {
        guard = mayBeNaN(l) && mayBeNaN(r) ? new And(new IsNaN(l), new IsNaN(r)) : null;
      } else if (e instanceof LessThan || e instanceof LessThanOrEqual) {
        guard = nanGuard(r, l);
      } else if (e instanceof GreaterThan || e instanceof GreaterThanOrEqual) {
        guard = nanGuard(l, r);
      }
    } else if (e instanceof Greatest || e instanceof Least) {
      List<Expression> nulls = new ArrayList<>();
      for (Expression c : ScalaInterop.list(e.children())) {
        if (c.nullable()) nulls.add(new IsNull(c));
      }
      guard = any(nulls);
      whenGuarded = Literal$.MODULE$.create(null, e.dataType());
    } else if (e instanceof In) {
      In in = (In) e;
      Expression v = in.value();
      List<Expression> items = ScalaInterop.list(in.list());
      boolean nanItem = false;
      List<Expression> nulls = new ArrayList<>();
      for (Expression item : items) {
        nanItem |= mayBeNaN(item);
        if (item.nullable()) nulls.add(new IsNull(item));
      }
      if (!floating(v.dataType()) || !v.deterministic() || !nanItem) return e;
      // Flink: NaN IN (...) is NULL when the list holds a NULL, else false.
      guard = new IsNaN(v);
      whenGuarded = nulls.isEmpty() ? FALSE : new If(any(nulls), NULL_BOOLEAN, FALSE);
    } else if (e instanceof InSet) {
      InSet in = (InSet) e;
      Expression v = in.child();
      boolean nanItem = in.hset().exists(x -> x instanceof Double && ((Double) x).isNaN()
          || x instanceof Float && ((Float) x).isNaN());
      if (!floating(v.dataType()) || !v.deterministic() || !nanItem) return e;
      guard = new IsNaN(v);
      whenGuarded = in.hset().contains(null) ? NULL_BOOLEAN : FALSE;
    }
    if (guard == null) return e;
    // The guard is never NULL and holds only where Spark says true and Flink false, so a
    // comparison needs just "AND NOT guard" (whose left side Spark can still push into scans).
    return e instanceof BinaryComparison ? new And(e, new Not(guard)) : new If(guard, whenGuarded, e);
  }

  /** True when {@code nan} is NaN and {@code other} is not NULL, or null when that cannot be. */
  private static Expression nanGuard(Expression nan, Expression other) {
    if (!mayBeNaN(nan)) return null;
    Expression isNaN = new IsNaN(nan);
    return other.nullable() ? new And(isNaN, new IsNotNull(other)) : isNaN;
  }

  private static Expression any(List<Expression> conditions) {
    Expression result = null;
    for (Expression c : conditions) result = result == null ? c : new Or(result, c);
    return result;
  }

  private static boolean floating(DataType t) {
    return t instanceof DoubleType || t instanceof FloatType;
  }

  /** False only for literals known not to be NaN (NULL or a number). */
  private static boolean mayBeNaN(Expression e) {
    if (!floating(e.dataType())) return false;
    if (!(e instanceof Literal)) return true;
    Object v = ((Literal) e).value();
    return v instanceof Double && ((Double) v).isNaN() || v instanceof Float && ((Float) v).isNaN();
  }
}
