package org.pyflink_table.bridge.streaming;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.catalyst.expressions.Abs;
import org.apache.spark.sql.catalyst.expressions.Add;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Between;
import org.apache.spark.sql.catalyst.expressions.CaseWhen;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.Coalesce;
import org.apache.spark.sql.catalyst.expressions.CommonExpressionDef;
import org.apache.spark.sql.catalyst.expressions.CommonExpressionRef;
import org.apache.spark.sql.catalyst.expressions.Concat;
import org.apache.spark.sql.catalyst.expressions.Divide;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.EvalMode;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.GreaterThan;
import org.apache.spark.sql.catalyst.expressions.GreaterThanOrEqual;
import org.apache.spark.sql.catalyst.expressions.If;
import org.apache.spark.sql.catalyst.expressions.IntegralDivide;
import org.apache.spark.sql.catalyst.expressions.IsNotNull;
import org.apache.spark.sql.catalyst.expressions.IsNull;
import org.apache.spark.sql.catalyst.expressions.Length;
import org.apache.spark.sql.catalyst.expressions.LessThan;
import org.apache.spark.sql.catalyst.expressions.LessThanOrEqual;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.Lower;
import org.apache.spark.sql.catalyst.expressions.Multiply;
import org.apache.spark.sql.catalyst.expressions.Not;
import org.apache.spark.sql.catalyst.expressions.Or;
import org.apache.spark.sql.catalyst.expressions.PythonUDF;
import org.apache.spark.sql.catalyst.expressions.Remainder;
import org.apache.spark.sql.catalyst.expressions.RuntimeReplaceable;
import org.apache.spark.sql.catalyst.expressions.StringTrim;
import org.apache.spark.sql.catalyst.expressions.StringTrimLeft;
import org.apache.spark.sql.catalyst.expressions.StringTrimRight;
import org.apache.spark.sql.catalyst.expressions.Subtract;
import org.apache.spark.sql.catalyst.expressions.TimestampAdd;
import org.apache.spark.sql.catalyst.expressions.TimestampDiff;
import org.apache.spark.sql.catalyst.expressions.UnaryMinus;
import org.apache.spark.sql.catalyst.expressions.UnixDate;
import org.apache.spark.sql.catalyst.expressions.UnixMicros;
import org.apache.spark.sql.catalyst.expressions.Upper;
import org.apache.spark.sql.catalyst.expressions.With;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.NullType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.unsafe.types.UTF8String;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import scala.Option;

/**
 * The non-equality part of a stream join's condition (on the join processor) as a small tree the
 * processor ({@code pyflink_table._worker.stream_changelogs.JoinProcessor}) evaluates for each pair
 * of rows with equal keys, with SQL's three-valued logic (a NULL comparison does not match).
 * A part that reads one input only ({@code l.v + 1}, {@code UPPER(l.s)}, {@code r.ts - INTERVAL '5'
 * SECOND}, a Python function of one side's columns) is computed by Spark as an extra value of that
 * input's rows ({@link Pushed}), so only what combines both inputs is evaluated per pair:
 * comparisons (and BETWEEN), AND/OR/NOT, IS [NOT] NULL, CASE/IF/COALESCE/IFNULL/NULLIF (only the chosen value
 * evaluated), {@code +}, {@code -}, {@code *}, {@code /} of integers
 * (wrapping around on overflow as Java's, and Flink's, integer arithmetic does; {@code /} truncated),
 * doubles, FLOATs (rounded to 4-byte floats) and decimals (Flink's decimal arithmetic, of Spark's result type, which is Flink's), MOD of
 * integers (Java's remainder), ABS, CONCAT, UPPER, LOWER, TRIM, CHAR_LENGTH, and TIMESTAMPDIFF and
 * TIMESTAMPADD by units of fixed length (SECOND to WEEK), over numeric, string, boolean, DATE and TIMESTAMP[_LTZ] values. A date crosses as its day
 * number and a timestamp as microseconds since the epoch (a TIMESTAMP's wall clock read as UTC),
 * computed by Spark, so they compare exactly; a decimal crosses as its text. Anything else combining
 * both inputs is refused by name. Nodes: {@code {"col": [side, index]}}, {@code {"lit": value}},
 * {@code {"op": name, "args": [...]}} (arithmetic and casts with {@code "type"}, decimals with
 * {@code "precision"} and {@code "scale"}); a decimal or double column has {@code "type"} too.
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
      for (int i = 0; i < left.size(); i++) if (left.get(i).exprId().equals(a.exprId())) return column(0, i, a, left, pushed);
      for (int i = 0; i < right.size(); i++) if (right.get(i).exprId().equals(a.exprId())) return column(1, i, a, right, pushed);
      throw refused(e);
    }
    if (e instanceof Literal || e.foldable()) {
      checkType(e.dataType(), e);
      // Spark's internal values: a date's day number, a timestamp's microseconds, as the columns cross.
      Object v = e.eval(null);
      if (v instanceof UTF8String || v instanceof org.apache.spark.sql.types.Decimal) v = v.toString();
      HashMap<String, Object> node = new HashMap<>(); // Map.of takes no null literal
      node.put("lit", v);
      if (e.dataType() instanceof DecimalType) node.put("type", "decimal");
      if (fractional(e.dataType())) node.put("type", e.dataType().typeName()); // NaN and infinities cross as text
      return node;
    }
    int side = sideOf(e, left, 0) ? 0 : sideOf(e, right, 1) ? 1 : -1;
    if (side >= 0 && e.deterministic()) {
      // Reads one input only: Spark computes it with that input's rows (exactly, any function).
      checkType(e.dataType(), e);
      return pushedValue(side, e, side == 0 ? left.size() : right.size(), pushed, null);
    }
    if (e instanceof Cast c) return cast(c, left, right, pushed);
    String arithmetic = e instanceof Add ? "+" : e instanceof Subtract ? "-" : e instanceof Multiply ? "*"
        : e instanceof Divide ? "/" : e instanceof UnaryMinus ? "neg" : e instanceof Abs ? "abs" : null;
    if (arithmetic != null) {
      DataType t = e.dataType();
      // Spark divides integers in DOUBLE; Flink's integer division is matched as a cast of it below.
      if (!(numeric(t) || t instanceof DecimalType)) throw refused(e);
      return typed(arithmetic, t, children(e, left, right, pushed));
    }
    if (e instanceof Remainder && integral(e.dataType())) {
      return typed("%", e.dataType(), children(e, left, right, pushed)); // MOD, a % b: Java's remainder
    }
    if (e instanceof Between b) {
      Object value = tree(b.input(), left, right, pushed);
      return Map.of("op", "and", "args", List.of(
          Map.of("op", ">=", "args", List.of(value, tree(b.lower(), left, right, pushed))),
          Map.of("op", "<=", "args", List.of(value, tree(b.upper(), left, right, pushed)))));
    }
    if (e instanceof Concat && e.dataType() instanceof StringType) {
      return Map.of("op", "concat", "args", children(e, left, right, pushed));
    }
    if (e instanceof RuntimeReplaceable r) {
      // IFNULL / NVL / NULLIF as Spark runs them (COALESCE, IF); a replacement not supported is refused by the user's name.
      try {
        return tree(r.replacement(), left, right, pushed);
      } catch (TableException x) {
        throw refused(e);
      }
    }
    if (e instanceof With w) {
      // NULLIF's replacement: its common expression inlined (evaluated per reference; nothing has effects).
      Map<Object, Expression> defs = new HashMap<>();
      for (CommonExpressionDef d : ScalaInterop.list(w.defs())) defs.put(d.id(), d.child());
      Expression inlined = w.child().transformUp(ScalaInterop.everywhere(
          (Expression x) -> x instanceof CommonExpressionRef r && defs.containsKey(r.id()) ? defs.get(r.id()) : x));
      return tree(inlined, left, right, pushed);
    }
    if (e instanceof CaseWhen w) {
      // The first branch whose condition is TRUE (a NULL one is not), its value alone evaluated, as
      // Flink's generated code: [condition, value, ..., else].
      checkType(e.dataType(), e);
      List<Object> args = new ArrayList<>();
      for (scala.Tuple2<Expression, Expression> b : ScalaInterop.list(w.branches())) {
        args.add(tree(b._1(), left, right, pushed));
        args.add(tree(b._2(), left, right, pushed));
      }
      args.add(w.elseValue().isDefined() ? tree(w.elseValue().get(), left, right, pushed) : nullLiteral());
      return Map.of("op", "case", "args", args);
    }
    if (e instanceof If || e instanceof Coalesce) {
      checkType(e.dataType(), e);
      return Map.of("op", e instanceof If ? "case" : "coalesce", "args", children(e, left, right, pushed));
    }
    if ((e instanceof Upper || e instanceof Lower || e instanceof StringTrim || e instanceof StringTrimLeft
        || e instanceof StringTrimRight) && e.dataType() instanceof StringType) {
      // A trim's children: the string, then the characters to remove if given (else spaces).
      String op = e instanceof Upper ? "upper" : e instanceof Lower ? "lower" : e instanceof StringTrim ? "trim"
          : e instanceof StringTrimLeft ? "ltrim" : "rtrim";
      return Map.of("op", op, "args", children(e, left, right, pushed));
    }
    if (e instanceof Length l && l.child().dataType() instanceof StringType) {
      return Map.of("op", "char_length", "args", children(e, left, right, pushed)); // in characters
    }
    if (e instanceof TimestampDiff d) {
      // Flink's TIMESTAMPDIFF: the milliseconds between them divided by the unit, truncated; a
      // TIMESTAMP (which Spark casts to TIMESTAMP_LTZ here) by its wall clock.
      Long unit = UNIT_MS.get(d.unit().toUpperCase(Locale.ROOT));
      Expression a = wallClock(d.startTimestamp());
      Expression b = wallClock(d.endTimestamp());
      if (unit == null || !a.dataType().sameType(b.dataType())) throw refused(e);
      return Map.of("op", "timestampdiff", "unit_ms", unit, "args",
          List.of(tree(a, left, right, pushed), tree(b, left, right, pushed)));
    }
    if (e instanceof TimestampAdd t) {
      // A TIMESTAMP's wall clock plus whole units; a TIMESTAMP_LTZ's instant plus units of fixed
      // length only (a day in a time zone may not be 24 hours).
      Long unit = UNIT_MS.get(t.unit().toUpperCase(Locale.ROOT));
      boolean local = t.timestamp().dataType() instanceof TimestampNTZType;
      if (unit == null || (!local && unit > 3_600_000L) || !integral(t.quantity().dataType())) throw refused(e);
      return Map.of("op", "timestampadd", "unit_ms", unit, "args",
          List.of(tree(t.quantity(), left, right, pushed), tree(t.timestamp(), left, right, pushed)));
    }
    String op = e instanceof EqualTo ? "=" : e instanceof LessThan ? "<" : e instanceof LessThanOrEqual ? "<="
        : e instanceof GreaterThan ? ">" : e instanceof GreaterThanOrEqual ? ">=" : e instanceof And ? "and"
        : e instanceof Or ? "or" : e instanceof Not ? "not" : e instanceof IsNull ? "is_null"
        : e instanceof IsNotNull ? "is_not_null" : null;
    if (op == null) throw refused(e);
    return Map.of("op", op, "args", children(e, left, right, pushed));
  }

  /** The units of TIMESTAMPDIFF and TIMESTAMPADD supported per pair, in milliseconds (others are refused). */
  private static final Map<String, Long> UNIT_MS = Map.of("SECOND", 1_000L, "MINUTE", 60_000L, "HOUR", 3_600_000L,
      "DAY", 86_400_000L, "WEEK", 604_800_000L);

  /** {@code e} without Spark's cast of a TIMESTAMP to TIMESTAMP_LTZ (which reads it in the session time zone). */
  private static Expression wallClock(Expression e) {
    return e instanceof Cast c && c.dataType() instanceof TimestampType && c.child().dataType() instanceof TimestampNTZType
        ? c.child() : e;
  }

  private static Object nullLiteral() {
    HashMap<String, Object> node = new HashMap<>(); // Map.of takes no null
    node.put("lit", null);
    return node;
  }

  private static List<Object> children(Expression e, List<Attribute> left, List<Attribute> right, Pushed pushed) {
    List<Object> args = new ArrayList<>();
    for (Expression child : ScalaInterop.list(e.children())) args.add(tree(child, left, right, pushed));
    return args;
  }

  /** Column {@code index} of input {@code side}; a date, timestamp or decimal as the value it crosses as. */
  private static Object column(int side, int index, Attribute a, List<Attribute> attrs, Pushed pushed) {
    checkType(a.dataType(), a);
    return pushedValue(side, a, attrs.size(), pushed, index);
  }

  /**
   * The value of {@code e} (of input {@code side}, {@code own} its column index if it is a column):
   * a date as its day number, a timestamp as microseconds, a decimal as its text, computed by Spark.
   */
  private static Object pushedValue(int side, Expression e, int width, Pushed pushed, Integer own) {
    DataType t = e.dataType();
    Expression value = t instanceof DateType ? new UnixDate(e)
        : t instanceof TimestampType ? new UnixMicros(e)
        // A TIMESTAMP's wall clock as if in UTC: the same order, no time zone's gaps or overlaps.
        : t instanceof TimestampNTZType ? new UnixMicros(new Cast(e, DataTypes.TimestampType, Option.apply("UTC"),
            EvalMode.LEGACY()))
        : t instanceof DecimalType ? new Cast(e, DataTypes.StringType, Option.apply("UTC"), EvalMode.LEGACY())
        : null;
    int index = value == null && own != null ? own : pushed.indexOf(side, value == null ? e : value, width);
    // A double's NaN and infinities cross as JSON text ("NaN"), which the processor reads back.
    String type = t instanceof DecimalType ? "decimal" : fractional(t) ? t.typeName() : null; // "double", "float"
    return type == null ? Map.of("col", List.of(side, index)) : Map.of("col", List.of(side, index), "type", type);
  }

  private static Object cast(Cast c, List<Attribute> left, List<Attribute> right, Pushed pushed) {
    DataType from = c.child().dataType();
    DataType to = c.dataType();
    // Flink's INT / INT, which the SQL dialect writes as Spark's DOUBLE division cast to the integer type.
    if (integral(to) && c.child() instanceof Divide d && d.left() instanceof Cast a && d.right() instanceof Cast b
        && integral(a.child().dataType()) && integral(b.child().dataType())) {
      return typed("/", to, List.of(tree(a.child(), left, right, pushed), tree(b.child(), left, right, pushed)));
    }
    // The Table API's integer division: Spark's truncating DIV (BIGINT) cast to the operands' type,
    // wrapping around as Java's (Flink's) Integer.MIN_VALUE / -1 does.
    if (integral(to) && c.child() instanceof IntegralDivide d && integral(d.left().dataType())
        && integral(d.right().dataType())) {
      return typed("cast", to, List.of(typed("/", d.dataType(), children(d, left, right, pushed))));
    }
    // A narrowing integer cast (TIMESTAMPDIFF's BIGINT as INT) wraps around as Java's.
    if (integral(from) && integral(to) && to.defaultSize() < from.defaultSize()) {
      return typed("cast", to, List.of(tree(c.child(), left, right, pushed)));
    }
    // Spark widens numbers for comparisons (INT vs BIGINT, INT vs DOUBLE, FLOAT vs DOUBLE): the value is
    // kept, but a BIGINT as DOUBLE and anything as FLOAT are rounded (to the nearest, as Java's casts).
    boolean rounded = to instanceof FloatType || (to instanceof DoubleType && from instanceof LongType);
    if (numeric(from) && numeric(to) && (from.sameType(to) || (!rounded && (fractional(to) || !fractional(from))))) {
      return tree(c.child(), left, right, pushed);
    }
    if (numeric(from) && rounded) return typed("cast", to, List.of(tree(c.child(), left, right, pushed)));
    // Spark's decimal widening (INT vs DECIMAL, DECIMAL vs DOUBLE) is done on the value.
    if ((to instanceof DecimalType && (integral(from) || from instanceof DecimalType))
        || (to instanceof DoubleType && from instanceof DecimalType)) {
      return typed("cast", to, List.of(tree(c.child(), left, right, pushed)));
    }
    throw refused(c);
  }

  private static Object typed(String op, DataType t, List<Object> args) {
    if (!(t instanceof DecimalType dt)) return Map.of("op", op, "args", args, "type", t.typeName());
    return Map.of("op", op, "args", args, "type", "decimal", "precision", dt.precision(), "scale", dt.scale());
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

  private static boolean integral(DataType t) {
    return t instanceof IntegerType || t instanceof LongType || t instanceof ShortType || t instanceof ByteType;
  }

  private static boolean numeric(DataType t) {
    return fractional(t) || integral(t);
  }

  private static void checkType(DataType t, Expression e) {
    if (!numeric(t) && !(t instanceof DecimalType) && !(t instanceof StringType) && !(t instanceof BooleanType)
        && !(t instanceof DateType) && !(t instanceof TimestampType) && !(t instanceof TimestampNTZType)
        && !(t instanceof NullType)) {
      throw refused(e);
    }
  }

  private static TableException refused(Expression e) {
    return TableException.unsupported("the join condition part " + e.sql().replace("`", "")
        + " over unbounded sources in streaming mode (besides the key equalities, expressions of one input, and "
        + "comparisons, AND/OR/NOT, IS [NOT] NULL, CASE, IF, COALESCE, IFNULL, NULLIF, +, -, *, / of integers, doubles, "
        + "floats and decimals, MOD, ABS, CONCAT, UPPER, LOWER, TRIM, CHAR_LENGTH, TIMESTAMPDIFF and TIMESTAMPADD by SECOND to "
        + "WEEK combining both inputs' numeric, string, boolean, date and timestamp values are supported; compute it "
        + "in a projection of the inputs or filter the result)");
  }
}
