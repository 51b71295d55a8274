package org.pyflink_table.bridge.expressions;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Flink's summary form of an unresolved expression ({@code Expression.asSummaryString()}), which is
 * what PyFlink's {@code str(expr)} shows: {@code plus(a, 1)}, {@code cast(a, INT)},
 * {@code JSON_VALUE(a, '$.x', STRING, NULL, null, NULL, null)}. Measured on PyFlink 2.3: functions
 * defined by Flink's Java Table API keep their camelCase names, those defined by SQL show their
 * SQL names, and a few calls show another name or argument order than the DSL method that builds them.
 */
final class Summary {
  private Summary() {}

  /** Calls shown under another name (keys normalised as in {@link FunctionCatalog#normalize}). */
  private static final Map<String, String> NAMES = Map.ofEntries(
      Map.entry("uppercase", "upper"), Map.entry("lowercase", "lower"),
      Map.entry("firstvalue", "first_value"), Map.entry("lastvalue", "last_value"),
      Map.entry("trycast", "TRY_CAST"), Map.entry("range", "rangeTo"), Map.entry("ifnull", "IFNULL"),
      Map.entry("startswith", "STARTSWITH"), Map.entry("endswith", "ENDSWITH"),
      Map.entry("translate", "TRANSLATE3"), Map.entry("toTimestampLtz".toLowerCase(Locale.ROOT), "TO_TIMESTAMP_LTZ"),
      Map.entry("like", "LIKE"), Map.entry("elt", "ELT"), Map.entry("printf", "PRINTF"), Map.entry("unhex", "UNHEX"),
      Map.entry("btrim", "BTRIM"), Map.entry("split", "SPLIT"), Map.entry("percentile", "PERCENTILE"),
      Map.entry("json", "JSON"), Map.entry("unboundedrow", "UNBOUNDED_ROW"),
      Map.entry("unboundedrange", "UNBOUNDED_RANGE"), Map.entry("currentrow", "CURRENT_ROW"),
      Map.entry("currentrange", "CURRENT_RANGE"));

  /** Prefixes of camelCase names that Flink shows as SQL names: arrayAgg is ARRAY_AGG. */
  private static final List<String> SQL_PREFIXES = List.of(
      "array", "bitmap", "map", "json", "regexp", "url", "inet", "is", "object", "current", "source");

  /** Java Table API functions among those prefixes, which keep their camelCase names. */
  private static final List<String> CAMEL_CASE = List.of(
      "regexpReplace", "regexpExtract", "isNull", "isNotNull", "isTrue", "isFalse", "isNotTrue",
      "isNotFalse", "currentDate", "currentTime", "currentTimestamp", "currentDatabase");

  /** Milliseconds (day-time) or months (year-month) per unit of an interval literal. */
  private static final Map<String, Long> INTERVAL_UNITS = Map.ofEntries(
      Map.entry("YEAR", 12L), Map.entry("QUARTER", 3L), Map.entry("MONTH", 1L),
      Map.entry("WEEK", 7L * 86_400_000L), Map.entry("DAY", 86_400_000L), Map.entry("HOUR", 3_600_000L),
      Map.entry("MINUTE", 60_000L), Map.entry("SECOND", 1_000L), Map.entry("MILLISECOND", 1L));

  static String of(Expr e) {
    if (e instanceof Expr.FieldRef) {
      return ((Expr.FieldRef) e).name;
    }
    if (e instanceof Expr.Literal) {
      return literal((Expr.Literal) e);
    }
    return call((Expr.Call) e);
  }

  private static String literal(Expr.Literal l) {
    Object v = l.value;
    if (v == null) {
      return "null";
    }
    if (l.symbol) {
      return String.valueOf(v);
    }
    if (v instanceof String && l.flinkType == null) {
      return "'" + ((String) v).replace("'", "''") + "'";
    }
    if (v instanceof byte[]) {
      return Arrays.toString((byte[]) v);
    }
    return String.valueOf(v);
  }

  private static String call(Expr.Call c) {
    if (c.display != null) {
      return c.display;
    }
    String n = FunctionCatalog.normalize(c.name);
    List<Expr> args = c.args;
    switch (n) {
      case "cast":
      case "trycast":
        if (args.size() == 2 && args.get(1) instanceof Expr.Literal) {
          return name(c.name) + "(" + of(args.get(0)) + ", " + ((Expr.Literal) args.get(1)).value + ")";
        }
        break;
      case "trim":
      case "trimleading":
      case "trimtrailing":
        if (args.size() <= 2) {
          // Flink's one trim call: trim(leading, trailing, characters, string).
          String chars = args.size() == 2 ? of(args.get(1)) : "' '";
          return "trim(" + !n.equals("trimtrailing") + ", " + !n.equals("trimleading") + ", " + chars + ", "
              + of(args.get(0)) + ")";
        }
        break;
      case "extract":
        if (args.size() == 2) {
          return "extract(" + symbol(args.get(1)) + ", " + of(args.get(0)) + ")";
        }
        break;
      case "floor":
      case "ceil":
      case "timestampdiff":
        return c.name + "(" + args.stream().map(Summary::symbol).collect(Collectors.joining(", ")) + ")";
      case "asargument":
        if (args.size() == 2) {
          return "ASSIGNMENT(" + of(args.get(1)) + ", " + of(args.get(0)) + ")";
        }
        break;
      case "listagg":
        if (args.size() == 1) {
          return "listAgg(" + of(args.get(0)) + ", ',')";
        }
        break;
      case "jsonquery":
        if (args.size() == 5) {
          // Flink shows the result type, which PyFlink's json_query always leaves at STRING.
          List<Expr> shown = new ArrayList<>(args);
          shown.add(2, new Expr.Literal("STRING", null, true));
          return "JSON_QUERY(" + joined(shown) + ")";
        }
        break;
      case "interval":
        if (args.size() == 2 && args.get(0) instanceof Expr.Literal && args.get(1) instanceof Expr.Literal
            && ((Expr.Literal) args.get(0)).value instanceof Number) {
          // An interval literal shows its value in months or milliseconds.
          Long unit = INTERVAL_UNITS.get(String.valueOf(((Expr.Literal) args.get(1)).value).toUpperCase(Locale.ROOT));
          if (unit != null) {
            return String.valueOf(((Number) ((Expr.Literal) args.get(0)).value).longValue() * unit);
          }
        }
        break;
      case "jsonobjectagg":
      case "jsonarrayagg":
        if (!args.isEmpty() && args.get(0) instanceof Expr.Literal) {
          String base = n.equals("jsonobjectagg") ? "JSON_OBJECTAGG_" : "JSON_ARRAYAGG_";
          return base + symbol(args.get(0)) + "_ON_NULL(" + joined(args.subList(1, args.size())) + ")";
        }
        break;
      case "callsql":
        if (args.size() == 1 && args.get(0) instanceof Expr.Literal) {
          return "[" + ((Expr.Literal) args.get(0)).value + "]";
        }
        break;
      case "unboundedrow":
      case "unboundedrange":
      case "currentrow":
      case "currentrange":
        return name(c.name);
      default:
        break;
    }
    return name(c.name) + "(" + joined(args) + ")";
  }

  private static String joined(List<Expr> args) {
    return args.stream().map(Summary::of).collect(Collectors.joining(", "));
  }

  /** A unit or type argument written as a name, as Flink shows its symbols. */
  private static String symbol(Expr e) {
    if (e instanceof Expr.Literal && ((Expr.Literal) e).value instanceof String) {
      return (String) ((Expr.Literal) e).value;
    }
    return of(e);
  }

  /** The name Flink shows for a call of {@code name}. */
  static String name(String name) {
    String n = FunctionCatalog.normalize(name);
    String mapped = NAMES.get(n);
    if (mapped != null) {
      return mapped;
    }
    if (!CAMEL_CASE.contains(name) && !name.equals(name.toLowerCase(Locale.ROOT))) {
      for (String prefix : SQL_PREFIXES) {
        if (name.startsWith(prefix) && name.length() > prefix.length()
            && Character.isUpperCase(name.charAt(prefix.length()))) {
          return snake(name);
        }
      }
    }
    return name;
  }

  /** arrayAgg -> ARRAY_AGG. */
  private static String snake(String camel) {
    StringBuilder b = new StringBuilder();
    for (char ch : camel.toCharArray()) {
      if (Character.isUpperCase(ch)) {
        b.append('_');
      }
      b.append(Character.toUpperCase(ch));
    }
    return b.toString();
  }
}
