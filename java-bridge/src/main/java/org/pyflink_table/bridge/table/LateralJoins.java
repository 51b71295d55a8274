package org.pyflink_table.bridge.table;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.Expr;
import org.pyflink_table.bridge.expressions.ExprCompiler;
import org.pyflink_table.bridge.expressions.FunctionCatalog;
import org.pyflink_table.bridge.expressions.Scope;
import org.pyflink_table.bridge.expressions.UserFunction;
import org.pyflink_table.bridge.udf.PythonTableFunction;

/**
 * Flink's {@code join_lateral}, {@code left_outer_join_lateral} and {@code flat_map}: a table
 * function applied to every row of a table, compiled to Spark's lateral join of a Python UDTF.
 */
public final class LateralJoins {
  private LateralJoins() {}

  private static final String ARG_PREFIX = "__pft_lateral_arg_";

  /** A table function call with its output names: {@code f(a)} or {@code f(a).alias('x', 'y')}. */
  record TableCall(PythonTableFunction function, List<Expr> args, List<String> names) {}

  static TableCall tableCall(Expr e, Scope scope, String op) {
    List<String> names = null;
    Expr call = e;
    if (call instanceof Expr.Call && FunctionCatalog.normalize(((Expr.Call) call).name).equals("as")) {
      names = ExprCompiler.aliasNames((Expr.Call) call);
      call = ((Expr.Call) call).arg(0);
    }
    if (!(call instanceof Expr.Call)) {
      throw new ValidationException(op + " expects a table function call such as split(col('a')), got " + e + ".");
    }
    Expr.Call c = (Expr.Call) call;
    UserFunction f = c.function instanceof UserFunction ? (UserFunction) c.function : scope.functions.user(c.name);
    if (!(f instanceof PythonTableFunction)) {
      throw new ValidationException(op + " expects a table function call, but " + c.name
          + (f == null ? " is not a registered table function." : " is not a table function."));
    }
    PythonTableFunction tf = (PythonTableFunction) f;
    if (names == null) {
      names = tf.fieldNames();
    } else if (names.size() != tf.fieldNames().size()) {
      throw new ValidationException("The number of aliases (" + names.size() + ") of table function " + c.name
          + " does not match the number of its output fields (" + tf.fieldNames().size() + ": "
          + String.join(", ", tf.fieldNames()) + ").");
    }
    return new TableCall(tf, c.args, names);
  }

  /**
   * Every input row joined with the rows the function produces for it. With {@code leftOuter},
   * rows producing nothing are kept with NULLs. The predicate (inner joins) filters the pairs.
   */
  public static JTable joinLateral(JTable left, Expr call, Expr predicate, boolean leftOuter) {
    String op = leftOuter ? "left_outer_join_lateral" : "join_lateral";
    Scope scope = left.scope();
    TableCall tc = tableCall(call, scope, op);
    List<String> leftNames = Arrays.asList(left.df.columns());
    Set<String> clash = new HashSet<>(leftNames);
    clash.retainAll(tc.names);
    if (!clash.isEmpty()) {
      // Flink's message, plus where the clash comes from and how to avoid it.
      throw new ValidationException("join relations with ambiguous names: " + clash + " (output fields of table function "
          + tc.function.name() + " vs. input fields [" + String.join(", ", leftNames)
          + "]); rename them with .alias(...) on the function call.");
    }
    if (leftOuter && predicate != null && !isTrueLiteral(predicate)) {
      throw new ValidationException("Predicate for lateral left outer join with table function can only be empty or literal true, got "
          + predicate + ".");
    }
    Dataset<Row> joined = lateral(left, tc, leftOuter);
    List<Column> out = new ArrayList<>();
    for (int i = 0; i < leftNames.size(); i++) out.add(joined.col(Scope.quote(leftNames.get(i))));
    for (int i = 0; i < tc.names.size(); i++) out.add(joined.col(Scope.quote(outName(i))).as(tc.names.get(i)));
    Dataset<Row> result = joined.select(JTable.asArray(out));
    if (predicate != null && !leftOuter) {
      result = result.filter(ExprCompiler.compile(predicate, new Scope(result, left.env.functions)));
    }
    return left.copyWith(result);
  }

  /** {@code flat_map(f(...))}: only the function's output fields, named f0, f1, ... or by alias. */
  public static JTable flatMap(JTable input, Expr call) {
    Scope scope = input.scope();
    if (call instanceof Expr.Call && FunctionCatalog.normalize(((Expr.Call) call).name).equals("as")) {
      // PyFlink 2.3 refuses an aliased call here (measured); the result is renamed with Table.alias.
      throw new ValidationException("Only a table function can be used in the flatMap operator; alias the result"
          + " with .alias(...) on the returned table instead of on the call.");
    }
    TableCall tc = tableCall(call, scope, "flat_map");
    Dataset<Row> joined = lateral(input, tc, false);
    List<Column> out = new ArrayList<>();
    for (int i = 0; i < tc.names.size(); i++) out.add(joined.col(Scope.quote(outName(i))).as(tc.names.get(i)));
    return input.copyWith(joined.select(JTable.asArray(out)));
  }

  private static String outName(int i) {
    return "__pft_udtf_" + i;
  }

  /**
   * The input with its arguments projected into hidden columns, laterally joined with the function;
   * the hidden argument columns are dropped again by the callers' projections.
   */
  private static Dataset<Row> lateral(JTable left, TableCall tc, boolean leftOuter) {
    Scope scope = left.scope();
    List<Column> argCols = ExprCompiler.compileAll(tc.args, scope);
    List<Column> withArgs = new ArrayList<>();
    for (String f : left.df.columns()) withArgs.add(left.df.col(Scope.quote(f)));
    List<Column> outerRefs = new ArrayList<>();
    for (int i = 0; i < argCols.size(); i++) {
      withArgs.add(argCols.get(i).as(ARG_PREFIX + i));
      outerRefs.add(functions.col(ARG_PREFIX + i).outer());
    }
    Dataset<Row> staged = left.df.select(JTable.asArray(withArgs));
    Dataset<Row> rows = tc.function.rows(left.env.spark, outerRefs, leftOuter);
    return staged.lateralJoin(rows);
  }

  private static final Pattern LATERAL_TABLE =
      Pattern.compile("(?i)\\bLATERAL\\s+TABLE\\s*\\(");

  /**
   * Flink SQL's {@code LATERAL TABLE(f(x)) AS T(a, b)} in Spark's spelling {@code LATERAL f(x) AS T(a, b)}:
   * the {@code TABLE(} and its closing parenthesis are dropped (string literals are skipped).
   */
  public static String rewriteSql(String sql) {
    StringBuilder out = new StringBuilder();
    Matcher m = LATERAL_TABLE.matcher(sql);
    int pos = 0;
    while (m.find(pos)) {
      if (insideQuotes(sql, m.start())) {
        out.append(sql, pos, m.end());
        pos = m.end();
        continue;
      }
      int close = matchingParen(sql, m.end() - 1);
      if (close < 0) break;
      out.append(sql, pos, m.start()).append("LATERAL ").append(sql, m.end(), close);
      pos = close + 1;
    }
    return out.append(sql.substring(pos)).toString();
  }

  private static boolean insideQuotes(String s, int at) {
    boolean single = false;
    boolean back = false;
    for (int i = 0; i < at; i++) {
      char c = s.charAt(i);
      if (c == '\'' && !back) single = !single;
      else if (c == '`' && !single) back = !back;
    }
    return single || back;
  }

  private static int matchingParen(String s, int open) {
    int depth = 0;
    boolean single = false;
    for (int i = open; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\'') single = !single;
      if (single) continue;
      if (c == '(') depth++;
      if (c == ')' && --depth == 0) return i;
    }
    return -1;
  }

  private static boolean isTrueLiteral(Expr e) {
    return e instanceof Expr.Literal && Boolean.TRUE.equals(((Expr.Literal) e).value);
  }
}
