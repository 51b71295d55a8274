package org.pyflink_table.bridge.streaming;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.expressions.Add;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.GreaterThan;
import org.apache.spark.sql.catalyst.expressions.GreaterThanOrEqual;
import org.apache.spark.sql.catalyst.expressions.IsNotNull;
import org.apache.spark.sql.catalyst.expressions.IsNull;
import org.apache.spark.sql.catalyst.expressions.LessThan;
import org.apache.spark.sql.catalyst.expressions.LessThanOrEqual;
import org.apache.spark.sql.catalyst.expressions.Multiply;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.Not;
import org.apache.spark.sql.catalyst.expressions.Or;
import org.apache.spark.sql.catalyst.expressions.PythonUDF;
import org.apache.spark.sql.catalyst.expressions.Subtract;
import org.apache.spark.sql.catalyst.expressions.UnaryMinus;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.NullType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.unsafe.types.UTF8String;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.expressions.ScalaInterop;

/**
 * The non-equality part of a stream join's condition (on the join processor) as a small tree the
 * processor ({@code pyflink_table._worker.stream_changelogs.JoinProcessor}) evaluates for each pair
 * of rows with equal keys, with SQL's three-valued logic (a NULL comparison does not match).
 * A part that reads one input only ({@code l.v + 1}, {@code UPPER(l.s)}, a Python function of one
 * side's columns) is computed by Spark as an extra value of that input's rows ({@link Pushed}), so
 * only what combines both inputs is evaluated per pair: comparisons, AND/OR/NOT, IS [NOT] NULL and
 * integer or double {@code +}, {@code -}, {@code *} (wrapping around on overflow as Java's, and
 * Flink's, integer arithmetic does) over values of numeric, string and boolean types. Anything
 * else combining both inputs is refused by name. Nodes: {@code {"col": [side, index]}},
 * {@code {"lit": value}}, {@code {"op": name, "args": [...]}} (arithmetic with {@code "type"}).
 */
final class JoinResidual {
  private JoinResidual() {}

  /** The one-input parts of the condition, per input, computed by Spark after that input's columns. */
  static final class Pushed {
    final List<List<Expression>> sides = List.of(new ArrayList<>(), new ArrayList<>());

    /** The index of {@code e} among the values of input {@code side} whose first {@code width} are its columns. */
    int indexOf(int side, Expression e, int width) {
      List<Expression> values = sides.get(side);
      for (int i = 0; i < values.size(); i++) if (values.get(i).semanticEquals(e)) return width + i;
      values.add(e);
      return width + values.size() - 1;
    }
  }

  static Object tree(Expression e, List<Attribute> left, List<Attribute> right, Pushed pushed) {
    if (e instanceof Attribute a) {
      checkType(a.dataType(), e);
      for (int i = 0; i < left.size(); i++) if (left.get(i).exprId().equals(a.exprId())) return Map.of("col", List.of(0, i));
      for (int i = 0; i < right.size(); i++) if (right.get(i).exprId().equals(a.exprId())) return Map.of("col", List.of(1, i));
      throw refused(e);
    }
    if (e instanceof Literal || e.foldable()) {
      checkType(e.dataType(), e);
      Object v = e.eval(null);
      if (v instanceof UTF8String) v = v.toString();
      HashMap<String, Object> node = new HashMap<>(); // Map.of takes no null literal
      node.put("lit", v);
      return node;
    }
    int side = sideOf(e, left, 0) ? 0 : sideOf(e, right, 1) ? 1 : -1;
    if (side >= 0 && e.deterministic()) {
      // Reads one input only: Spark computes it with that input's rows (exactly, any function).
      checkType(e.dataType(), e);
      return Map.of("col", List.of(side, pushed.indexOf(side, e, side == 0 ? left.size() : right.size())));
    }
    if (e instanceof Cast c) {
      // Spark widens numbers for comparisons (INT vs BIGINT, INT vs DOUBLE); values compare the same.
      DataType from = c.child().dataType();
      DataType to = c.dataType();
      if (numeric(from) && numeric(to) && (fractional(to) || !fractional(from))) return tree(c.child(), left, right, pushed);
      throw refused(e);
    }
    String arithmetic = e instanceof Add ? "+" : e instanceof Subtract ? "-" : e instanceof Multiply ? "*"
        : e instanceof UnaryMinus ? "neg" : null;
    if (arithmetic != null) {
      DataType t = e.dataType();
      if (!(t instanceof IntegerType || t instanceof LongType || t instanceof ShortType || t instanceof ByteType
          || t instanceof DoubleType)) {
        throw refused(e);
      }
      List<Object> args = new ArrayList<>();
      for (Expression child : ScalaInterop.list(e.children())) args.add(tree(child, left, right, pushed));
      return Map.of("op", arithmetic, "args", args, "type", t.typeName());
    }
    String op = e instanceof EqualTo ? "=" : e instanceof LessThan ? "<" : e instanceof LessThanOrEqual ? "<="
        : e instanceof GreaterThan ? ">" : e instanceof GreaterThanOrEqual ? ">=" : e instanceof And ? "and"
        : e instanceof Or ? "or" : e instanceof Not ? "not" : e instanceof IsNull ? "is_null"
        : e instanceof IsNotNull ? "is_not_null" : null;
    if (op == null) throw refused(e);
    List<Object> args = new ArrayList<>();
    for (Expression child : ScalaInterop.list(e.children())) {
      args.add(tree(child, left, right, pushed));
    }
    return Map.of("op", op, "args", args);
  }

  /** Whether {@code e} calls a Python function. */
  static boolean callsPython(Expression e) {
    if (e instanceof PythonUDF) return true;
    for (Expression c : ScalaInterop.list(e.children())) if (callsPython(c)) return true;
    return false;
  }

  /** Whether {@code e} reads columns of {@code attrs} (input {@code side}) and no others. */
  private static boolean sideOf(Expression e, List<Attribute> attrs, int side) {
    List<Attribute> refs = ScalaInterop.list(e.references().toSeq());
    if (refs.isEmpty()) return false;
    for (Attribute r : refs) {
      boolean found = false;
      for (Attribute a : attrs) found |= a.exprId().equals(r.exprId());
      if (!found) return false;
    }
    return true;
  }

  private static boolean fractional(DataType t) {
    return t instanceof DoubleType || t instanceof FloatType;
  }

  private static boolean numeric(DataType t) {
    return fractional(t) || t instanceof IntegerType || t instanceof LongType || t instanceof ShortType
        || t instanceof ByteType;
  }

  private static void checkType(DataType t, Expression e) {
    if (!numeric(t) && !(t instanceof StringType) && !(t instanceof BooleanType)
        && !(t instanceof NullType)) {
      throw refused(e);
    }
  }

  private static TableException refused(Expression e) {
    return TableException.unsupported("the join condition part " + e.sql().replace("`", "")
        + " over unbounded sources in streaming mode (besides the key equalities, expressions of one input, and "
        + "comparisons, AND/OR/NOT, IS [NOT] NULL and integer or double +, -, * combining both inputs' numeric, "
        + "string and boolean values are supported; compute it in a projection of the inputs or filter the result)");
  }
}
