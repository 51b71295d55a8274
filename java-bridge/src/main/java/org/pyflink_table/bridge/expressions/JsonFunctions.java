package org.pyflink_table.bridge.expressions;

import static org.apache.spark.sql.functions.lit;
import static org.pyflink_table.bridge.expressions.FunctionCatalog.aggregate;
import static org.pyflink_table.bridge.expressions.FunctionCatalog.scalar;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StringType;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.types.FlinkTypes;

/**
 * Flink's JSON functions on Spark's VARIANT: a string is parsed with {@code try_parse_json} (NULL
 * when it is not JSON) and paths are evaluated with {@code try_variant_get}; constructors build a
 * struct or array of variants and serialise it with {@code to_json}.
 */
final class JsonFunctions {
  private JsonFunctions() {}

  /** Calls whose string result is inserted as raw JSON when nested in a JSON constructor. */
  static final Set<String> RAW_JSON = Set.of("jsonobject", "jsonarray", "json", "jsonobjectagg", "jsonarrayagg");

  private static Column parsed(Column s) {
    return functions.try_parse_json(s);
  }

  /** 'OBJECT', 'ARRAY' or a scalar type name of a variant. */
  private static Column kind(Column v) {
    return functions.upper(functions.schema_of_variant(v));
  }

  private static Column isObject(Column v) {
    return kind(v).startsWith("OBJECT");
  }

  private static Column isArray(Column v) {
    return kind(v).startsWith("ARRAY");
  }

  static Column isJson(CallContext c) {
    Column v = parsed(c.arg(0));
    String type = c.size() > 1 ? String.valueOf(c.literal(1)).toUpperCase(Locale.ROOT) : "VALUE";
    Column valid = v.isNotNull();
    Column r;
    switch (type) {
      case "VALUE": r = valid; break;
      case "OBJECT": r = valid.and(isObject(v)); break;
      case "ARRAY": r = valid.and(isArray(v)); break;
      case "SCALAR": r = valid.and(functions.not(isObject(v))).and(functions.not(isArray(v))); break;
      default: throw new ValidationException("Unknown JSON type " + type + "; expected VALUE, SCALAR, ARRAY or OBJECT.");
    }
    return functions.coalesce(r, lit(false));
  }

  private static Column at(Column json, String path) {
    return functions.try_variant_get(parsed(json), path, "variant");
  }

  static String path(CallContext c, int i) {
    Object p = c.literal(i);
    if (p == null || !String.valueOf(p).startsWith("$")) {
      throw new ValidationException("JSON path of " + c.name + " must be a string literal starting with '$', got " + p + ".");
    }
    return String.valueOf(p);
  }

  static Column jsonExists(CallContext c) {
    if (c.size() > 2 && !"FALSE".equalsIgnoreCase(String.valueOf(c.literal(2)))) {
      throw TableException.unsupported("JSON_EXISTS ... " + c.literal(2) + " ON ERROR");
    }
    // A path that leads to a JSON null does not exist for Flink.
    Column v = at(c.arg(0), path(c, 1));
    Column found = functions.coalesce(v.isNotNull().and(functions.not(functions.is_variant_null(v))), lit(false));
    return functions.when(c.arg(0).isNotNull(), found);
  }

  /** JSON_VALUE(json, path, type, onEmpty, defaultOnEmpty, onError, defaultOnError). */
  static Column jsonValue(CallContext c) {
    String p = path(c, 1);
    String flinkType = c.size() > 2 ? String.valueOf(c.literal(2)) : "STRING";
    FlinkTypes.Parsed t = FlinkTypes.parse(flinkType);
    Column v = at(c.arg(0), p);
    Column scalar = functions.when(v.isNotNull().and(functions.not(isObject(v))).and(functions.not(isArray(v))), v);
    Column value = t.spark() instanceof StringType
        ? functions.try_variant_get(scalar, "$", "string")
        : functions.try_variant_get(scalar, "$", t.spark().sql());
    if (c.size() > 3) {
      String onEmpty = String.valueOf(c.literal(3));
      String onError = String.valueOf(c.literal(5));
      if (onEmpty.equals("ERROR") || onError.equals("ERROR")) {
        throw TableException.unsupported("JSON_VALUE ... ERROR ON EMPTY/ERROR");
      }
      // Empty: valid JSON without the path. Error: invalid JSON, or a value that is not a scalar
      // of the returning type.
      Column validJson = parsed(c.arg(0)).isNotNull();
      Column empty = validJson.and(v.isNull());
      Column error = c.arg(0).isNotNull().and(functions.not(validJson).or(v.isNotNull().and(value.isNull())
          .and(functions.not(functions.is_variant_null(v)))));
      if (onEmpty.equals("DEFAULT")) {
        value = functions.when(empty, c.arg(4).cast(t.spark())).otherwise(value);
      }
      if (onError.equals("DEFAULT")) {
        value = functions.when(error, c.arg(6).cast(t.spark())).otherwise(value);
      }
    }
    return value;
  }

  /** JSON_QUERY(json, path, wrapper, onEmpty, onError): the JSON text of an array or object. */
  static Column jsonQuery(CallContext c) {
    String p = path(c, 1);
    String wrapper = c.size() > 2 ? String.valueOf(c.literal(2)) : "WITHOUT_ARRAY";
    String onEmpty = c.size() > 3 ? String.valueOf(c.literal(3)) : "NULL";
    String onError = c.size() > 4 ? String.valueOf(c.literal(4)) : "NULL";
    if (onEmpty.equals("ERROR") || onError.equals("ERROR")) {
      throw TableException.unsupported("JSON_QUERY ... ERROR ON EMPTY/ERROR");
    }
    Column v = at(c.arg(0), p);
    Column text = functions.to_json(v);
    Column structured = isObject(v).or(isArray(v));
    Column r;
    switch (wrapper) {
      case "WITHOUT_ARRAY": r = functions.when(structured, text); break;
      case "CONDITIONAL_ARRAY":
        r = functions.when(structured, text).when(v.isNotNull(), functions.concat(lit("["), text, lit("]")));
        break;
      case "UNCONDITIONAL_ARRAY": r = functions.when(v.isNotNull(), functions.concat(lit("["), text, lit("]"))); break;
      default: throw new ValidationException("Unknown JSON_QUERY wrapper " + wrapper + ".");
    }
    Column missing = v.isNull().and(c.arg(0).isNotNull());
    return functions.when(missing, emptyValue(onEmpty)).otherwise(r);
  }

  private static Column emptyValue(String mode) {
    switch (mode) {
      case "EMPTY_ARRAY": return lit("[]");
      case "EMPTY_OBJECT": return lit("{}");
      default: return lit(null).cast(DataTypes.StringType);
    }
  }

  /** The value of a constructor or aggregate argument: raw JSON (a nested constructor or json(...)) or a value. */
  private static Column member(CallContext c, int i) {
    Expr e = c.exprs.get(i);
    if (e instanceof Expr.Call && RAW_JSON.contains(FunctionCatalog.normalize(((Expr.Call) e).name))) {
      return parsed(c.arg(i));
    }
    return c.arg(i).cast(DataTypes.VariantType);
  }

  static boolean absentOnNull(CallContext c) {
    return c.size() > 0 && "ABSENT".equalsIgnoreCase(String.valueOf(c.literal(0)));
  }

  static Column jsonObject(CallContext c) {
    if (c.size() <= 1) return lit("{}");
    List<Column> fields = new ArrayList<>();
    for (int i = 1; i + 1 < c.size(); i += 2) {
      Object key = c.literal(i);
      if (key == null) throw new ValidationException("JSON_OBJECT keys must be non-NULL string literals.");
      fields.add(member(c, i + 1).as(String.valueOf(key)));
    }
    Map<String, String> options = Collections.singletonMap("ignoreNullFields", String.valueOf(absentOnNull(c)));
    return functions.to_json(functions.struct(fields.toArray(new Column[0])), options);
  }

  static Column jsonArray(CallContext c) {
    if (c.size() <= 1) return lit("[]");
    List<Column> items = new ArrayList<>();
    for (int i = 1; i < c.size(); i++) items.add(member(c, i));
    Column arr = functions.array(items.toArray(new Column[0]));
    if (absentOnNull(c)) arr = functions.filter(arr, Column::isNotNull);
    return functions.to_json(arr);
  }

  /** The JSON text of one value: to_json of a one-element array, brackets removed; NULL stays NULL. */
  static Column quoteOf(Column s) {
    Column text = functions.to_json(functions.array(s));
    return functions.when(s.isNotNull(), functions.regexp_replace(text, lit("^\\[|\\]$"), lit("")));
  }

  static Column jsonUnquote(CallContext c) {
    Column v = parsed(c.arg(0));
    Column isString = kind(v).equalTo(lit("STRING"));
    return functions.when(v.isNotNull().and(isString), functions.try_variant_get(v, "$", "string"))
        .otherwise(c.arg(0));
  }

  static void register() {
    scalar(JsonFunctions::isJson, "isJson", "is_json");
    scalar(JsonFunctions::jsonExists, "jsonExists");
    scalar(JsonFunctions::jsonValue, "jsonValue");
    scalar(JsonFunctions::jsonQuery, "jsonQuery");
    scalar(c -> quoteOf(c.arg(0)), "jsonQuote");
    scalar(JsonFunctions::jsonUnquote, "jsonUnquote");
    scalar(c -> quoteOf(c.arg(0).cast(DataTypes.VariantType)), "jsonString");
    scalar(JsonFunctions::jsonObject, "jsonObject");
    scalar(JsonFunctions::jsonArray, "jsonArray");
    scalar(c -> c.arg(0), "json");
    scalar(c -> {
      throw TableException.unsupported("OBJECT_UPDATE");
    }, "objectUpdate");
    // JsonAggregates serialises the collected values, for SQL's JSON_ARRAYAGG/JSON_OBJECTAGG too.
    aggregate(c -> JsonAggregates.array(ScalaInterop.call("collect_list", false,
        Collections.singletonList(JsonAggregates.arrayItem(member(c, 1), absentOnNull(c)))), absentOnNull(c)), "jsonArrayAgg");
    aggregate(c -> JsonAggregates.object(ScalaInterop.call("collect_list", false,
        Collections.singletonList(JsonAggregates.objectEntry(c.arg(1), member(c, 2), absentOnNull(c)))), absentOnNull(c)),
        "jsonObjectAgg");
  }
}
