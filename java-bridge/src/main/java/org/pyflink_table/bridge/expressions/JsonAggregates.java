package org.pyflink_table.bridge.expressions;

import static org.apache.spark.sql.functions.lit;

import java.util.Collections;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.CaseWhen;
import org.apache.spark.sql.catalyst.expressions.CreateNamedStruct;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.StructsToJson;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.CollectList;
import org.apache.spark.sql.classic.ColumnNodeToExpressionConverter$;
import org.apache.spark.sql.classic.ExpressionUtils;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.pyflink_table.bridge.errors.ErrorTranslator;
import org.pyflink_table.bridge.errors.ValidationException;
import scala.collection.immutable.Seq;

/**
 * Flink's JSON_ARRAYAGG and JSON_OBJECTAGG, for the Table API ({@code json_array_agg},
 * {@code json_object_agg}) and SQL alike: Spark's {@code collect_list} collects each row's value
 * (and key) in a struct, so that NULL values stay, and the list is serialised with {@code to_json}
 * (values as VARIANTs): JSON_OBJECTAGG's keys sorted as Flink writes them, a repeated key failing
 * with Flink's message. SQL's {@code JSON_ARRAYAGG(v [NULL|ABSENT ON NULL])} is written
 * {@code pyflink_json_arrayagg(collect_list(named_struct(valueField(true), v)), 'ABSENT')} (the dialect), so
 * the aggregation is Spark's own; the session function serialises the list.
 */
public final class JsonAggregates {
  private JsonAggregates() {}

  /** The session functions' names, as the SQL rewrite calls them. */
  public static final String ARRAY_NAME = "pyflink_json_arrayagg";

  public static final String OBJECT_NAME = "pyflink_json_objectagg";

  /** Flink SQL's type of their text (the Table API's is STRING NOT NULL). */
  public static final String SQL_TYPE = "VARCHAR(2000)";

  /**
   * The collected structs' field names: they mark a collect_list as a JSON aggregate's, the value's
   * its ON NULL behaviour ({@link #nameOf}).
   */
  public static final String KEY = "__pft_json_key";

  private static final String VALUE_PREFIX = "__pft_json_";

  /** The value's field name: {@code __pft_json_NULL_ON_NULL} or {@code __pft_json_ABSENT_ON_NULL}. */
  public static String valueField(boolean absentOnNull) {
    return VALUE_PREFIX + (absentOnNull ? "ABSENT" : "NULL") + "_ON_NULL";
  }

  /** Flink's message for a key JSON_OBJECTAGG meets again, up to the key's quote. */
  private static final String DUPLICATE_START = "Key '";

  private static final String DUPLICATE_END = "' is already present. Duplicate keys are not allowed in JSON_OBJECTAGG. "
      + "Please ensure that keys are unique.";

  /** A repeated key fails the job with Flink's message alone (Spark's raise_error adds its error class). */
  private static final UnaryOperator<String> DUPLICATE_KEY = JsonAggregates::duplicateKey;

  /** Registers the session functions (once per session). */
  public static void register(SparkSession spark) {
    spark.sessionState().functionRegistry().createOrReplaceTempFunction(ARRAY_NAME,
        args -> expression(args, false), "internal");
    spark.sessionState().functionRegistry().createOrReplaceTempFunction(OBJECT_NAME,
        args -> expression(args, true), "internal");
    ErrorTranslator.addDescriber(DUPLICATE_KEY);
  }

  private static Expression expression(Seq<Expression> args, boolean object) {
    if (args.size() != 2) {
      throw new ValidationException((object ? "JSON_OBJECTAGG" : "JSON_ARRAYAGG") + " takes a value and its ON NULL "
          + "behaviour, got " + args.size() + " arguments.");
    }
    Column list = ExpressionUtils.column(args.apply(0));
    boolean absent = "ABSENT".equalsIgnoreCase(String.valueOf(args.apply(1).eval(null)));
    Column json = object ? object(list, absent) : array(list, absent);
    return ColumnNodeToExpressionConverter$.MODULE$.apply(json.node());
  }

  /** The collected struct of one row's {@code value}. */
  static Column arrayItem(Column value, boolean absentOnNull) {
    return functions.struct(value.as(valueField(absentOnNull)));
  }

  /** The collected struct of one row's {@code key} and {@code value}. */
  static Column objectEntry(Column key, Column value, boolean absentOnNull) {
    return functions.struct(key.as(KEY), value.as(valueField(absentOnNull)));
  }

  /** JSON_ARRAYAGG's text of {@code list}, a collect_list of {@link #arrayItem}s, in arrival order. */
  static Column array(Column list, boolean absentOnNull) {
    String value = valueField(absentOnNull);
    Column values = functions.transform(list, s -> s.getField(value).cast(DataTypes.VariantType));
    if (absentOnNull) values = functions.filter(values, Column::isNotNull);
    return functions.to_json(values);
  }

  /**
   * JSON_OBJECTAGG's text of {@code list}, a collect_list of {@link #objectEntry}s: the keys in
   * string order (Flink's serialisation sorts them); a key met again after an entry that was kept
   * (ABSENT ON NULL keeps no NULL value) fails, as Flink's accumulator checks each new key.
   */
  static Column object(Column list, boolean absentOnNull) {
    String value = valueField(absentOnNull);
    Column kept = absentOnNull ? functions.filter(list, e -> e.getField(value).isNotNull()) : list;
    // Each entry whose key an earlier kept entry has.
    Column repeated = functions.filter(list, (e, i) -> functions.exists(functions.slice(list, lit(1), i),
        k -> k.getField(KEY).equalTo(e.getField(KEY)).and(absentOnNull ? k.getField(value).isNotNull() : lit(true))));
    Column first = functions.element_at(repeated, 1).getField(KEY);
    Column sorted = functions.array_sort(kept, (a, b) -> functions.when(a.getField(KEY).lt(b.getField(KEY)), lit(-1))
        .when(a.getField(KEY).gt(b.getField(KEY)), lit(1)).otherwise(lit(0)));
    Column map = functions.map_from_arrays(functions.transform(sorted, e -> e.getField(KEY)),
        functions.transform(sorted, e -> e.getField(value).cast(DataTypes.VariantType)));
    Map<String, String> options = Collections.singletonMap("ignoreNullFields", "false");
    return functions.when(functions.size(repeated).gt(0), functions.raise_error(functions.concat(
        lit(DUPLICATE_START), first, lit(DUPLICATE_END))).cast(DataTypes.StringType))
        .otherwise(functions.to_json(map, options));
  }

  /**
   * Flink's name of the JSON aggregate whose collect_list {@code collectList} (analyzed) is
   * ({@code JSON_ARRAYAGG_ABSENT_ON_NULL}, {@code JSON_OBJECTAGG_NULL_ON_NULL}, ...), else null: how
   * the planners name these aggregates where they refuse them.
   */
  public static String nameOf(Expression collectList) {
    if (!(collectList instanceof AggregateExpression a) || !(a.aggregateFunction() instanceof CollectList c)) return null;
    if (!(c.child() instanceof CreateNamedStruct s)) return null;
    boolean object = s.nameExprs().size() == 2 && KEY.equals(String.valueOf(s.nameExprs().apply(0).eval(null)));
    String value = String.valueOf(s.nameExprs().apply(object ? 1 : 0).eval(null));
    if (!value.startsWith(VALUE_PREFIX) || !object && s.nameExprs().size() != 1) return null;
    return (object ? "JSON_OBJECTAGG_" : "JSON_ARRAYAGG_") + value.substring(VALUE_PREFIX.length());
  }

  /**
   * Whether {@code e} (analyzed) is a JSON aggregate's text: to_json over one of its collect_lists
   * (JSON_OBJECTAGG's under the check for repeated keys).
   */
  public static boolean isResult(Expression e) {
    boolean json = e instanceof StructsToJson
        || e instanceof CaseWhen w && w.elseValue().isDefined() && w.elseValue().get() instanceof StructsToJson;
    return json && e.exists(x -> nameOf(x) != null);
  }

  /** Flink's message for a repeated key, when {@code message} is that raise_error's, else null. */
  private static String duplicateKey(String message) {
    if (message == null) return null;
    int end = message.indexOf(DUPLICATE_END);
    int start = end < 0 ? -1 : message.lastIndexOf(DUPLICATE_START, end);
    return start < 0 ? null : message.substring(start, end + DUPLICATE_END.length());
  }
}
