package org.pyflink_table.bridge.table;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.Expr;
import org.pyflink_table.bridge.expressions.ExprCompiler;
import org.pyflink_table.bridge.expressions.FunctionCatalog;
import org.pyflink_table.bridge.expressions.Scope;
import org.pyflink_table.bridge.expressions.UserFunction;
import org.pyflink_table.bridge.udf.PackedAggregation;
import org.pyflink_table.bridge.udf.PythonAggregateFunction;

/**
 * Flink's row-based operations ({@code map}, {@code aggregate}, {@code flat_aggregate}) and the
 * split of aggregations that mix Python grouped-aggregate UDFs with built-in aggregates.
 */
public final class RowBasedOperations {
  private RowBasedOperations() {}

  /** The column holding a row-based aggregate's result before {@link #expand} spreads it. */
  public static final String RESULT = "__pft_row_result";

  /** An optionally aliased call: {@code f(a)} or {@code f(a).alias('x', 'y')}. */
  public record Aliased(Expr call, List<String> names) {
    public static Aliased of(Expr e) {
      if (e instanceof Expr.Call c && FunctionCatalog.normalize(c.name).equals("as")) {
        return new Aliased(c.arg(0), ExprCompiler.aliasNames(c));
      }
      return new Aliased(e, null);
    }
  }

  // --- map ---------------------------------------------------------------------------------------

  /** {@code map(f(...))}: a ROW result becomes one column per field, any other result one column. */
  public static JTable map(JTable input, Expr e) {
    Scope scope = input.scope();
    Aliased a = Aliased.of(e);
    if (ExprCompiler.containsAggregate(a.call, scope)) {
      throw new ValidationException("map expects a scalar function call, got the aggregate " + a.call + "; use aggregate().");
    }
    Column c = ExprCompiler.compile(a.call, scope);
    Dataset<Row> staged = input.df.select(c.as(RESULT));
    return input.copyWith(expand(staged, new ArrayList<>(), a.names, "map"));
  }

  // --- aggregate and flat_aggregate --------------------------------------------------------------

  public static JTable aggregate(JTable input, Expr[] keys, Expr call) {
    return aggregate(input, Arrays.asList(keys), call, false);
  }

  public static JTable aggregateGrouped(GroupedJTable grouped, Expr call) {
    return aggregate(grouped.table, grouped.keys, call, false);
  }

  public static JTable flatAggregate(JTable input, Expr[] keys, Expr call) {
    return aggregate(input, Arrays.asList(keys), call, true);
  }

  public static JTable flatAggregateGrouped(GroupedJTable grouped, Expr call) {
    return aggregate(grouped.table, grouped.keys, call, true);
  }

  private static JTable aggregate(JTable input, List<Expr> keys, Expr e, boolean flat) {
    Scope scope = input.scope();
    List<Expr> keyExprs = ExprCompiler.expand(keys, scope);
    List<String> keyNames = new ArrayList<>();
    for (int i = 0; i < keyExprs.size(); i++) {
      Expr k = keyExprs.get(i);
      keyNames.add(k instanceof Expr.FieldRef ? ((Expr.FieldRef) k).name : "_c" + i);
    }
    return aggregate(input, input.df, scope, ExprCompiler.compileAll(keyExprs, scope), keyNames, e, flat);
  }

  /**
   * Groups {@code df} by {@code keyCols} (output as {@code keyNames}) and spreads the aggregate's
   * result; {@code df} is the input's rows as grouped (a window-grouped table passes them with
   * their window column).
   */
  public static JTable aggregate(JTable input, Dataset<Row> df, Scope scope, List<Column> keyCols,
      List<String> keyNames, Expr e, boolean flat) {
    String op = flat ? "flat_aggregate" : "aggregate";
    Aliased a = Aliased.of(e);
    PythonAggregateFunction python = PythonAggregateSelect.pythonAggregate(a.call, scope);
    checkFlat(a, python, flat);
    if (python != null && (python.isPackedOnly() || PackedAggregation.enabled(df, keyCols))) {
      List<Column> args = ExprCompiler.compileAll(((Expr.Call) a.call).args, scope);
      Dataset<Row> agg = PackedAggregation.aggregate(df, keyCols, keyNames, List.of(python), List.of(args), List.of(RESULT));
      List<Column> keyOut = new ArrayList<>();
      for (String k : keyNames) keyOut.add(agg.col(Scope.quote(k)));
      return input.copyWith(expand(agg, keyOut, a.names, op));
    }
    if (!(a.call instanceof Expr.Call) || !ExprCompiler.containsAggregate(a.call, scope)) {
      throw new ValidationException("aggregate expects an aggregate function call, got " + a.call + ".");
    }
    Column aggCol = ExprCompiler.compile(a.call, scope);
    Dataset<Row> agg = keyCols.isEmpty()
        ? df.agg(aggCol.as(RESULT))
        : df.groupBy(JTable.asArray(keyCols)).agg(aggCol.as(RESULT));
    List<Column> keyOut = new ArrayList<>();
    for (int i = 0; i < keyNames.size(); i++) {
      keyOut.add(agg.col(Scope.quote(agg.columns()[i])).as(keyNames.get(i), agg.schema().fields()[i].metadata()));
    }
    return input.copyWith(expand(agg, keyOut, a.names, op));
  }

  /** Refuses {@code flat_aggregate} ({@code flat}) of anything but a table aggregate function call. */
  public static void checkFlat(Aliased a, PythonAggregateFunction python, boolean flat) {
    if (flat && (python == null || !python.isTableAggregate())) {
      throw new ValidationException("flat_aggregate expects a table aggregate function call (udtaf), got " + a.call + ".");
    }
  }

  /**
   * {@code prefix} followed by the result column {@link #RESULT} of {@code d}: a struct spreads
   * into its fields (named by {@code aliases}, else by the ROW type), anything else is one column.
   */
  public static Dataset<Row> expand(Dataset<Row> d, List<Column> prefix, List<String> aliases, String op) {
    StructField result = d.schema().apply(RESULT);
    DataType t = result.dataType();
    List<Column> out = new ArrayList<>(prefix);
    List<String> names = new ArrayList<>();
    if (t instanceof StructType) {
      StructField[] fs = ((StructType) t).fields();
      if (aliases != null && aliases.size() != fs.length) {
        throw new ValidationException(op + ": " + aliases.size() + " alias(es) " + aliases + " for a result of "
            + fs.length + " field(s).");
      }
      for (int i = 0; i < fs.length; i++) {
        String name = aliases != null ? aliases.get(i) : fs[i].name();
        names.add(name);
        out.add(d.col(RESULT).getField(fs[i].name()).as(name, fs[i].metadata()));
      }
    } else {
      if (aliases != null && aliases.size() != 1) {
        throw new ValidationException(op + ": " + aliases.size() + " aliases " + aliases + " for a result of one field.");
      }
      String name = aliases != null ? aliases.get(0) : (op.equals("map") ? "_c0" : "f0");
      names.add(name);
      out.add(d.col(RESULT).as(name, result.metadata()));
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < out.size() - names.size(); i++) seen.add(String.valueOf(d.columns()[i]));
    for (String n : names) {
      if (!seen.add(n)) {
        throw new ValidationException(op + ": the result field " + n + " clashes with a grouping key or another field; rename it with .alias(...).");
      }
    }
    return d.select(JTable.asArray(out));
  }
}
