package org.pyflink_table.bridge.expressions;

import java.util.Map;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.Count;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.pyflink_table.bridge.errors.TableException;

/**
 * What an environment without Flink's {@code core} module in use can still run (after
 * {@code unload_module('core')} or {@code use_modules()}), as PyFlink 2.3 measured: in the Table
 * API, bare column references only, every built-in call (operators, aliases, orderings, casts,
 * aggregates) failing where it is used; in SQL, the scalar built-ins and ORDER BY, but no built-in
 * aggregate. Errors name the function as Flink's definitions do.
 */
public final class CoreModule {
  private CoreModule() {}

  /** Flink's definition name of the built-ins whose first name here is another spelling. */
  private static final Map<String, String> FLINK_NAMES = Map.ofEntries(
      Map.entry("arrayAppend", "ARRAY_APPEND"),
      Map.entry("arrayPrepend", "ARRAY_PREPEND"),
      Map.entry("arrayContains", "ARRAY_CONTAINS"),
      Map.entry("arrayDistinct", "ARRAY_DISTINCT"),
      Map.entry("arrayPosition", "ARRAY_POSITION"),
      Map.entry("arrayRemove", "ARRAY_REMOVE"),
      Map.entry("arrayReverse", "ARRAY_REVERSE"),
      Map.entry("arraySlice", "ARRAY_SLICE"),
      Map.entry("arraySort", "ARRAY_SORT"),
      Map.entry("arrayUnion", "ARRAY_UNION"),
      Map.entry("arrayConcat", "ARRAY_CONCAT"),
      Map.entry("arrayMax", "ARRAY_MAX"),
      Map.entry("arrayMin", "ARRAY_MIN"),
      Map.entry("arrayJoin", "ARRAY_JOIN"),
      Map.entry("arrayExcept", "ARRAY_EXCEPT"),
      Map.entry("arrayIntersect", "ARRAY_INTERSECT"),
      Map.entry("mapKeys", "MAP_KEYS"),
      Map.entry("mapValues", "MAP_VALUES"),
      Map.entry("mapEntries", "MAP_ENTRIES"),
      Map.entry("mapUnion", "MAP_UNION"),
      Map.entry("arrayAgg", "ARRAY_AGG"),
      Map.entry("percentile", "PERCENTILE"),
      Map.entry("isJson", "IS_JSON"),
      Map.entry("jsonExists", "JSON_EXISTS"),
      Map.entry("jsonValue", "JSON_VALUE"),
      Map.entry("jsonQuery", "JSON_QUERY"),
      Map.entry("jsonQuote", "JSON_QUOTE"),
      Map.entry("jsonUnquote", "JSON_UNQUOTE"),
      Map.entry("jsonString", "JSON_STRING"),
      Map.entry("jsonObject", "JSON_OBJECT"),
      Map.entry("jsonArray", "JSON_ARRAY"),
      Map.entry("json", "JSON"),
      Map.entry("objectUpdate", "OBJECT_UPDATE"),
      Map.entry("startsWith", "STARTSWITH"),
      Map.entry("endsWith", "ENDSWITH"),
      Map.entry("regexpCount", "REGEXP_COUNT"),
      Map.entry("regexpExtractAll", "REGEXP_EXTRACT_ALL"),
      Map.entry("regexpInstr", "REGEXP_INSTR"),
      Map.entry("regexpSubstr", "REGEXP_SUBSTR"),
      Map.entry("urlDecode", "URL_DECODE"),
      Map.entry("urlEncode", "URL_ENCODE"),
      Map.entry("inetAton", "INET_ATON"),
      Map.entry("inetNtoa", "INET_NTOA"),
      Map.entry("printf", "PRINTF"),
      Map.entry("btrim", "BTRIM"),
      Map.entry("split", "SPLIT"),
      Map.entry("elt", "ELT"),
      Map.entry("toTimestampLtz", "TO_TIMESTAMP_LTZ"),
      Map.entry("currentWatermark", "CURRENT_WATERMARK"),
      Map.entry("sourceWatermark", "SOURCE_WATERMARK"),
      Map.entry("unhex", "UNHEX"),
      Map.entry("like", "LIKE"),
      Map.entry("coalesce", "COALESCE"),
      Map.entry("greatest", "GREATEST"),
      Map.entry("least", "LEAST"),
      Map.entry("trimLeading", "ltrim"),
      Map.entry("trimTrailing", "rtrim"),
      Map.entry("concatWs", "concat_ws"),
      Map.entry("stddev_pop", "stddevPop"),
      Map.entry("stddev_samp", "stddevSamp"),
      Map.entry("var_pop", "varPop"),
      Map.entry("var_samp", "varSamp"),
      Map.entry("firstValue", "first_value"),
      Map.entry("lastValue", "last_value"),
      Map.entry("trycast", "tryCast"),
      Map.entry("nullsfirst", "nullsFirst"),
      Map.entry("nullslast", "nullsLast"));

  /** Flink's error for a built-in function that no module in use provides. */
  public static TableException missing(String flinkName) {
    return new TableException("Required built-in function [" + flinkName + "] could not be found in any catalog.");
  }

  /** Flink's name of a built-in call written under {@code name}. */
  static String flinkName(String name) {
    FunctionCatalog.Builtin b = FunctionCatalog.builtin(name);
    String ours = b != null ? b.name() : FunctionCatalog.normalize(name);
    return FLINK_NAMES.getOrDefault(ours, ours);
  }

  /**
   * Fails on the innermost built-in call of {@code e} (arguments resolve before their call, as in
   * Flink) when the core module is not in use; calls of user functions and field references pass.
   */
  public static void checkCalls(Expr e, FunctionCatalog functions) {
    if (functions.coreInUse() || !(e instanceof Expr.Call)) return;
    Expr.Call call = (Expr.Call) e;
    for (Expr a : call.args) {
      checkCalls(a, functions);
    }
    if (call.function instanceof UserFunction || functions.user(call.name) != null) return;
    throw missing(flinkName(call.name));
  }

  /** A select item other than a bare column reference needs Flink's {@code as} (its output name). */
  public static void checkSelectItem(Expr e, FunctionCatalog functions) {
    checkCalls(e, functions);
    if (!functions.coreInUse() && !(e instanceof Expr.FieldRef)) throw missing("as");
  }

  /** An order_by item without an explicit ordering gets Flink's implicit {@code asc}. */
  public static void checkImplicitAscending(Expr e, FunctionCatalog functions) {
    checkCalls(e, functions);
    if (!functions.coreInUse()) throw missing("asc");
  }

  /**
   * Fails on the first built-in aggregate of an analyzed SQL plan when the core module is not in
   * use: Flink's rewrite of {@code COUNT(*)} needs {@code plus}, of the other aggregates {@code isNull}.
   */
  public static void checkSqlAggregates(LogicalPlan plan, FunctionCatalog functions) {
    if (functions.coreInUse()) return;
    for (LogicalPlan child : ScalaInterop.list(plan.children())) {
      checkSqlAggregates(child, functions);
    }
    for (Expression x : ScalaInterop.list(plan.expressions())) {
      checkSqlAggregates(x);
    }
  }

  private static void checkSqlAggregates(Expression x) {
    if (x instanceof AggregateExpression) {
      Expression f = ((AggregateExpression) x).aggregateFunction();
      // Python aggregates (PythonUDAF) live outside Spark's package of built-in aggregates.
      if (f.getClass().getPackageName().equals(Count.class.getPackageName())) {
        boolean star = f instanceof Count && ScalaInterop.list(f.children()).stream().allMatch(c -> c instanceof Literal);
        throw missing(star ? "plus" : "isNull");
      }
    }
    for (Expression c : ScalaInterop.list(x.children())) {
      checkSqlAggregates(c);
    }
  }
}
