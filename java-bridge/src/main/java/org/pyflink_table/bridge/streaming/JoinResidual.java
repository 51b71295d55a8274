package org.pyflink_table.bridge.streaming;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.Not;
import org.apache.spark.sql.catalyst.expressions.Or;
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
 * The non-equality part of an outer stream join's condition as a small tree the join processor
 * ({@code pyflink_table._worker.stream_changelogs.JoinProcessor}) evaluates for each pair of rows
 * with equal keys, with SQL's three-valued logic (a NULL comparison does not match): comparisons,
 * AND/OR/NOT and IS [NOT] NULL over columns of both inputs and literals, of numeric, string and
 * boolean types. Anything else is refused by name. Nodes: {@code {"col": [side, index]}},
 * {@code {"lit": value}}, {@code {"op": name, "args": [...]}}.
 */
final class JoinResidual {
  private JoinResidual() {}

  static Object tree(Expression e, List<Attribute> left, List<Attribute> right) {
    if (e instanceof Attribute a) {
      checkType(a.dataType(), e);
      for (int i = 0; i < left.size(); i++) if (left.get(i).exprId().equals(a.exprId())) return Map.of("col", List.of(0, i));
      for (int i = 0; i < right.size(); i++) if (right.get(i).exprId().equals(a.exprId())) return Map.of("col", List.of(1, i));
      throw refused(e);
    }
    if (e instanceof Literal l) {
      checkType(l.dataType(), e);
      Object v = l.value();
      if (v instanceof UTF8String) v = v.toString();
      HashMap<String, Object> node = new HashMap<>(); // Map.of takes no null literal
      node.put("lit", v);
      return node;
    }
    if (e instanceof Cast c) {
      // Spark widens numbers for comparisons (INT vs BIGINT, INT vs DOUBLE); values compare the same.
      DataType from = c.child().dataType();
      DataType to = c.dataType();
      if (numeric(from) && numeric(to) && (fractional(to) || !fractional(from))) return tree(c.child(), left, right);
      throw refused(e);
    }
    String op = e instanceof EqualTo ? "=" : e instanceof LessThan ? "<" : e instanceof LessThanOrEqual ? "<="
        : e instanceof GreaterThan ? ">" : e instanceof GreaterThanOrEqual ? ">=" : e instanceof And ? "and"
        : e instanceof Or ? "or" : e instanceof Not ? "not" : e instanceof IsNull ? "is_null"
        : e instanceof IsNotNull ? "is_not_null" : null;
    if (op == null) throw refused(e);
    List<Object> args = new ArrayList<>();
    for (Expression child : ScalaInterop.list(e.children())) {
      args.add(tree(child, left, right));
    }
    return Map.of("op", op, "args", args);
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
    return TableException.unsupported("the outer join condition part " + e.sql().replace("`", "")
        + " over unbounded sources in streaming mode (besides the key equalities, comparisons, AND/OR/NOT and "
        + "IS [NOT] NULL of numeric, string and boolean columns and literals are supported; filter the inputs "
        + "or the result instead)");
  }
}
