package org.pyflink_table.bridge.expressions;

import static org.apache.spark.sql.functions.lit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.analysis.FunctionRegistry$;
import org.apache.spark.sql.catalyst.analysis.TableFunctionRegistry$;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.IntegralType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.NullType;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.YearMonthIntervalType;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.types.FlinkTypes;

/**
 * Flink's built-in functions, each mapped to the Spark expression with the same result, plus the
 * user-defined functions registered in one table environment. Names are matched the way Flink
 * users write them in any of the three styles (Java {@code upperCase}, Python {@code upper_case},
 * SQL {@code UPPER}): lower case with underscores dropped.
 */
public final class FunctionCatalog {
  /**
   * The session function the Table API's {@code currentWatermark} calls; streaming.CurrentWatermark
   * registers it (it needs the stream's watermark, a layer above).
   */
  public static final String CURRENT_WATERMARK_FUNCTION = "__pft_current_watermark_api";

  /** Builds the Spark column of one built-in call. */
  @FunctionalInterface
  public interface Builder {
    Column build(CallContext c);
  }

  /** A built-in: its Flink name, whether it aggregates, and its Spark translation. */
  public record Builtin(String name, boolean aggregate, Builder builder) {}

  private static final Map<String, Builtin> BUILTINS = new LinkedHashMap<>();

  /** Temporary system functions shadow built-ins; temporary (catalog) functions come after. */
  private final Map<String, UserFunction> systemFunctions = new LinkedHashMap<>();
  private final Map<String, UserFunction> catalogFunctions = new LinkedHashMap<>();
  /** The names user functions were registered under, by normalized name (for listing). */
  private final Map<String, String> registeredNames = new LinkedHashMap<>();
  /**
   * Makes a Flink SQL expression text Spark SQL: the user's calls sent to their functions, Flink's
   * syntax rewritten (set by the session, which owns SQL text).
   */
  private UnaryOperator<String> sqlToSpark = UnaryOperator.identity();
  /** Whether Flink's core module (the built-ins) is in use; see {@link CoreModule}. */
  private boolean coreInUse = true;

  public static String normalize(String name) {
    return name.toLowerCase(Locale.ROOT).replace("_", "");
  }

  static void scalar(Builder b, String... names) {
    for (String n : names) {
      BUILTINS.put(normalize(n), new Builtin(names[0], false, b));
    }
  }

  static void aggregate(Builder b, String... names) {
    for (String n : names) {
      BUILTINS.put(normalize(n), new Builtin(names[0], true, b));
    }
  }

  /** A Flink function that is a Spark SQL function of the same meaning under {@code sparkName}. */
  static void sql(String sparkName, String... flinkNames) {
    scalar(c -> functions.call_function(quoted(sparkName), c.args.toArray(new Column[0])), flinkNames);
  }

  /** A function name as call_function parses it: quoted, since reserved keywords (LEFT, RIGHT) are enforced. */
  private static String quoted(String sparkName) {
    return "`" + sparkName + "`";
  }

  /** {@code sparkName(args)}, or NULL when any nullable argument is NULL. */
  private static Column nullIfAnyNull(CallContext c, String sparkName) {
    Column result = functions.call_function(quoted(sparkName), c.args.toArray(new Column[0]));
    Column anyNull = null;
    for (Column a : c.args) {
      if (!c.scope.input.select(a).schema().fields()[0].nullable()) continue;
      anyNull = anyNull == null ? a.isNull() : anyNull.or(a.isNull());
    }
    return anyNull == null ? result : functions.when(anyNull, lit(null)).otherwise(result);
  }

  /** An aggregate whose result keeps the argument's type, as Flink's do (AVG of INT is INT). */
  static void typedAggregate(String sparkName, String... flinkNames) {
    aggregate(c -> {
      Column r = ScalaInterop.call(sparkName, c.distinct, c.args);
      DataType t = c.type(0);
      if (t instanceof DecimalType) {
        // Flink: SUM of DECIMAL(p, s) is DECIMAL(38, s); AVG and the others DECIMAL(38, max(6, s)).
        int scale = ((DecimalType) t).scale();
        return r.cast(DataTypes.createDecimalType(38, sparkName.equals("sum") ? scale : Math.max(6, scale)));
      }
      return t instanceof NumericType ? r.cast(t) : r;
    }, flinkNames);
  }

  public static Builtin builtin(String name) {
    return BUILTINS.get(normalize(name));
  }

  public static List<String> builtinNames() {
    TreeSet<String> names = new TreeSet<>();
    for (Builtin b : BUILTINS.values()) {
      names.add(b.name());
    }
    return new ArrayList<>(names);
  }

  /** Records whether the core module is in use (unload_module, use_modules). */
  public void useCore(boolean inUse) {
    coreInUse = inUse;
  }

  public boolean coreInUse() {
    return coreInUse;
  }

  public void registerSystem(String name, UserFunction f) {
    registeredNames.put(normalize(name), name);
    systemFunctions.put(normalize(name), f);
  }

  public void registerTemporary(String name, UserFunction f) {
    registeredNames.put(normalize(name), name);
    catalogFunctions.put(normalize(name), f);
  }

  public boolean hasSystem(String name) {
    return systemFunctions.containsKey(normalize(name));
  }

  public boolean hasTemporary(String name) {
    return catalogFunctions.containsKey(normalize(name));
  }

  public boolean dropSystem(String name) {
    return systemFunctions.remove(normalize(name)) != null;
  }

  public boolean dropTemporary(String name) {
    return catalogFunctions.remove(normalize(name)) != null;
  }

  /**
   * The user function an unqualified call resolves to, in Flink's order: a temporary system function,
   * then (after the built-ins, which {@code null} leaves to the caller) a temporary catalog function.
   */
  public UserFunction user(String name) {
    String n = normalize(name);
    UserFunction f = systemFunctions.get(n);
    if (f != null) return f;
    return builtin(n) != null ? null : catalogFunctions.get(n);
  }

  /** Whether a temporary catalog function of this name is hidden by a built-in (Flink's order). */
  public boolean shadowedByBuiltin(String name) {
    return builtin(name) != null;
  }

  /**
   * The registered names (lower case) that an unqualified call in SQL text must reach as the user's
   * function although a built-in has that name: Spark's SQL looks up its built-ins first (and the
   * SQL rewrites turn some Flink built-ins, SPLIT_INDEX say, into Spark calls), while Flink calls a
   * temporary system function before any built-in, and a temporary catalog function when Flink has
   * no built-in of the name (MEAN, say, is Spark's only). Other names already reach the user's function.
   */
  public Set<String> userNamesBeforeSparkBuiltins() {
    Set<String> names = new TreeSet<>();
    for (String registered : registeredNames.values()) {
      if (user(registered) == null) continue;
      FunctionIdentifier id = new FunctionIdentifier(registered.toLowerCase(Locale.ROOT));
      if (builtin(registered) != null || FunctionRegistry$.MODULE$.builtin().functionExists(id)
          || TableFunctionRegistry$.MODULE$.builtin().functionExists(id)) {
        names.add(registered.toLowerCase(Locale.ROOT));
      }
    }
    return names;
  }

  /** How {@link #sqlExpression} reads Flink SQL (see {@link #userNamesBeforeSparkBuiltins}). */
  public void readSqlWith(UnaryOperator<String> rewrite) {
    sqlToSpark = rewrite;
  }

  /** A Flink SQL expression text as a column, its function names resolved in Flink's order. */
  public Column sqlExpression(String sql) {
    return functions.expr(sqlToSpark.apply(sql));
  }

  /** Names of registered user functions, as registered, sorted. */
  public List<String> userFunctionNames() {
    TreeSet<String> names = new TreeSet<>();
    for (String key : systemFunctions.keySet()) names.add(registeredNames.getOrDefault(key, key));
    for (String key : catalogFunctions.keySet()) names.add(registeredNames.getOrDefault(key, key));
    return new ArrayList<>(names);
  }

  /** True when the named function (user or built-in) is an aggregate. */
  public boolean isAggregate(String name) {
    UserFunction u = user(name);
    if (u != null) return u.isAggregate();
    Builtin b = builtin(name);
    return b != null && b.aggregate();
  }

  public ValidationException undefined(String name) {
    return new ValidationException("Undefined function: " + name);
  }

  // ---------------------------------------------------------------------------------------------
  // Type helpers shared by the translations below.

  static boolean integral(DataType t) {
    return t instanceof IntegralType;
  }

  /** The wider of two integral types, which is Flink's result type of integer arithmetic. */
  static DataType widerIntegral(DataType a, DataType b) {
    return a.defaultSize() >= b.defaultSize() ? a : b;
  }

  /**
   * Flink validates arithmetic operand types when the expression is built; Spark would cast a
   * STRING operand at run time instead.
   */
  static CallContext numeric(CallContext c) {
    for (int i = 0; i < c.size(); i++) {
      DataType t = c.type(i);
      if (!(t instanceof NumericType) && !(t instanceof DayTimeIntervalType)
          && !(t instanceof YearMonthIntervalType)
          && !(t instanceof NullType)) {
        List<String> types = new ArrayList<>();
        for (int j = 0; j < c.size(); j++) types.add(FlinkTypes.fromSpark(c.type(j)));
        throw new ValidationException("Invalid function call: " + c.name + "(" + String.join(", ", types)
            + "). Arithmetic needs numeric (or interval) arguments; cast the " + types.get(i) + " argument first.");
      }
    }
    return c;
  }

  static Column divide(CallContext c) {
    DataType l = c.type(0);
    DataType r = c.type(1);
    if (integral(l) && integral(r)) {
      // Flink divides integers with truncation toward zero and keeps the integral type.
      return functions.call_function("div", c.arg(0), c.arg(1)).cast(widerIntegral(l, r));
    }
    if (l instanceof DecimalType || r instanceof DecimalType) {
      // Flink types BIGINT as DECIMAL(19, 0) in decimal arithmetic, Spark as DECIMAL(20, 0).
      return asFlinkDecimal(c.arg(0), l).divide(asFlinkDecimal(c.arg(1), r));
    }
    return c.arg(0).divide(c.arg(1));
  }

  static Column asFlinkDecimal(Column x, DataType t) {
    return t instanceof LongType ? x.cast(DataTypes.createDecimalType(19, 0)) : x;
  }

  static Column plus(CallContext c) {
    if (TemporalFunctions.isDateAndDayTime(c)) {
      return TemporalFunctions.dateArithmetic(c, true);
    }
    if (c.type(0) instanceof StringType || c.type(1) instanceof StringType) {
      return functions.concat(c.arg(0), c.arg(1).cast(DataTypes.StringType));
    }
    return TemporalFunctions.timestampArithmetic(c, c.arg(0).plus(c.arg(1)));
  }

  /** Flink's COLLECT returns a MULTISET, i.e. a map from value to its count; NULLs are skipped. */
  static Column collect(CallContext c) {
    Column values = ScalaInterop.call("collect_list", false, c.args);
    // The map is Flink's MULTISET<element>: record that type for the schema.
    String element = FlinkTypes.fromSpark(c.type(0));
    return Multisets.counted(values).as("collect", new MetadataBuilder()
        .putString(FlinkTypes.METADATA_KEY, "MULTISET<" + element + ">").build());
  }

  static Column trim(CallContext c, String how) {
    if (c.size() == 1) {
      return functions.call_function(how, c.arg(0));
    }
    // Spark's SQL-function form takes the characters first; the Column API takes them second.
    String chars = String.valueOf(c.literal(1));
    switch (how) {
      case "ltrim": return functions.ltrim(c.arg(0), chars);
      case "rtrim": return functions.rtrim(c.arg(0), chars);
      case "btrim": return functions.btrim(c.arg(0), lit(chars));
      default: return functions.trim(c.arg(0), chars);
    }
  }

  static {
    // Arithmetic.
    scalar(FunctionCatalog::plus, "plus", "+");
    scalar(c -> TemporalFunctions.isDateAndDayTime(c) ? TemporalFunctions.dateArithmetic(c, false)
        : TemporalFunctions.timestampArithmetic(c, c.arg(0).minus(c.arg(1))), "minus", "-");
    scalar(c -> numeric(c).arg(0).multiply(c.arg(1)), "times", "*");
    scalar(c -> divide(numeric(c)), "divide", "/");
    scalar(c -> numeric(c).arg(0).mod(c.arg(1)), "mod", "%");
    scalar(c -> functions.negate(c.arg(0)), "minusPrefix", "negate");
    scalar(c -> c.arg(0), "plusPrefix");
    sql("power", "power");
    sql("abs", "abs");
    sql("sqrt", "sqrt");
    sql("exp", "exp");
    sql("ln", "ln");
    sql("log10", "log10");
    sql("log2", "log2");
    sql("sign", "sign", "signum");
    scalar(c -> {
      // Flink's ROUND keeps the type of integral and decimal inputs.
      Column r = c.size() == 1 ? functions.round(c.arg(0)) : functions.call_function("round", c.arg(0), c.arg(1));
      return r;
    }, "round");
    sql("sin", "sin");
    sql("cos", "cos");
    sql("tan", "tan");
    sql("cot", "cot");
    sql("asin", "asin");
    sql("acos", "acos");
    sql("atan", "atan");
    sql("atan2", "atan2");
    sql("sinh", "sinh");
    sql("cosh", "cosh");
    sql("tanh", "tanh");
    sql("degrees", "degrees");
    sql("radians", "radians");
    sql("pi", "pi");
    sql("e", "e");
    sql("randn", "randn");
    sql("bin", "bin");
    sql("hex", "hex");
    sql("unhex", "unhex");

    // Comparison and logic: SQL three-valued logic is the same in both systems.
    scalar(c -> c.arg(0).equalTo(c.arg(1)), "equals", "==", "===", "=");
    scalar(c -> c.arg(0).notEqual(c.arg(1)), "notEquals", "!==", "!=", "<>");
    scalar(c -> c.arg(0).gt(c.arg(1)), "greaterThan", ">");
    scalar(c -> c.arg(0).geq(c.arg(1)), "greaterThanOrEqual", ">=");
    scalar(c -> c.arg(0).lt(c.arg(1)), "lessThan", "<");
    scalar(c -> c.arg(0).leq(c.arg(1)), "lessThanOrEqual", "<=");
    scalar(c -> {
      Column r = c.arg(0);
      for (int i = 1; i < c.size(); i++) r = r.and(c.arg(i));
      return r;
    }, "and", "&&");
    scalar(c -> {
      Column r = c.arg(0);
      for (int i = 1; i < c.size(); i++) r = r.or(c.arg(i));
      return r;
    }, "or", "||");
    scalar(c -> functions.not(c.arg(0)), "not", "!");
    scalar(c -> c.arg(0).isNull(), "isNull");
    scalar(c -> c.arg(0).isNotNull(), "isNotNull");
    scalar(c -> c.arg(0).eqNullSafe(lit(true)), "isTrue");
    scalar(c -> c.arg(0).eqNullSafe(lit(false)), "isFalse");
    scalar(c -> functions.not(c.arg(0).eqNullSafe(lit(true))), "isNotTrue");
    scalar(c -> functions.not(c.arg(0).eqNullSafe(lit(false))), "isNotFalse");
    scalar(c -> c.arg(0).between(c.arg(1), c.arg(2)), "between");
    scalar(c -> functions.not(c.arg(0).between(c.arg(1), c.arg(2))), "notBetween");
    scalar(c -> c.arg(0).isin(c.args.subList(1, c.size()).toArray()), "in");
    scalar(c -> c.size() > 2
        ? functions.like(c.arg(0), c.arg(1), lit(String.valueOf(c.literal(2))))
        : functions.like(c.arg(0), c.arg(1)), "like");
    scalar(c -> functions.call_function("rlike", c.arg(0), lit(similarToRegex(String.valueOf(c.literal(1))))), "similar");
    scalar(c -> functions.when(c.arg(0), c.arg(1)).otherwise(c.arg(2)), "ifThenElse", "if");
    sql("coalesce", "coalesce", "ifNull");
    // NULL as soon as one argument is NULL, as in Flink (Spark skips NULLs). FlinkFloatingComparisons
    // does this too, but only after Spark has folded all-literal calls and typed the result.
    scalar(c -> nullIfAnyNull(c, "greatest"), "greatest");
    scalar(c -> nullIfAnyNull(c, "least"), "least");

    // Strings: Flink's SUBSTRING and POSITION are 1-based, as Spark's are.
    sql("upper", "upper", "upperCase");
    sql("lower", "lower", "lowerCase");
    sql("initcap", "initCap");
    sql("char_length", "charLength", "char_length", "character_length");
    scalar(c -> trim(c, "trim"), "trim");
    scalar(c -> trim(c, "ltrim"), "trimLeading", "ltrim");
    scalar(c -> trim(c, "rtrim"), "trimTrailing", "rtrim");
    scalar(c -> c.size() == 2 ? functions.call_function("substring", c.arg(0), c.arg(1))
        : functions.call_function("substring", c.arg(0), c.arg(1), c.arg(2)), "substring", "substr");
    sql("concat", "concat");
    sql("concat_ws", "concatWs", "concat_ws");
    sql("replace", "replace");
    sql("regexp_replace", "regexpReplace");
    scalar(FunctionCatalog::regexpExtract, "regexpExtract");
    sql("regexp", "regexp");
    scalar(c -> functions.call_function("locate", c.arg(0), c.arg(1)), "position");
    sql("locate", "locate");
    sql("instr", "instr");
    sql("overlay", "overlay");
    sql("lpad", "lpad");
    sql("rpad", "rpad");
    sql("repeat", "repeat");
    sql("reverse", "reverse");
    sql("left", "left");
    sql("right", "right");
    sql("ascii", "ascii");
    sql("chr", "chr");
    // Flink types hex digests as CHAR of their length.
    scalar(c -> typed(functions.md5(c.arg(0)), "CHAR(32)"), "md5");
    scalar(c -> typed(functions.sha1(c.arg(0)), "CHAR(40)"), "sha1");
    scalar(c -> typed(functions.sha2(c.arg(0), 224), "CHAR(56)"), "sha224");
    scalar(c -> typed(functions.sha2(c.arg(0), 256), "CHAR(64)"), "sha256");
    scalar(c -> typed(functions.sha2(c.arg(0), 384), "CHAR(96)"), "sha384");
    scalar(c -> typed(functions.sha2(c.arg(0), 512), "CHAR(128)"), "sha512");
    scalar(c -> typed(functions.sha2(c.arg(0), ((Number) c.literal(1)).intValue()), "VARCHAR(128)"), "sha2");
    scalar(c -> functions.call_function("base64", c.arg(0)), "toBase64");
    scalar(c -> functions.call_function("unbase64", c.arg(0)).cast(DataTypes.StringType), "fromBase64");
    sql("uuid", "uuid");

    // Aggregates: Flink keeps the argument's type for SUM, AVG and the statistical aggregates.
    aggregate(c -> ScalaInterop.call("count", c.distinct,
        c.size() == 0 ? Collections.singletonList(lit(1)) : c.args), "count", "count1");
    typedAggregate("sum", "sum");
    aggregate(c -> {
      Column s = ScalaInterop.call("sum", c.distinct, c.args);
      DataType t = c.type(0);
      return functions.coalesce(s, lit(0)).cast(t);
    }, "sum0");
    typedAggregate("avg", "avg");
    aggregate(c -> ScalaInterop.call("min", c.distinct, c.args), "min");
    aggregate(c -> ScalaInterop.call("max", c.distinct, c.args), "max");
    typedAggregate("stddev_pop", "stddevPop");
    typedAggregate("stddev_samp", "stddevSamp");
    typedAggregate("var_pop", "varPop");
    typedAggregate("var_samp", "varSamp");
    aggregate(FunctionCatalog::collect, "collect");
    aggregate(c -> functions.first(c.arg(0), true), "firstValue", "first_value");
    aggregate(c -> functions.last(c.arg(0), true), "lastValue", "last_value");
    aggregate(c -> functions.listagg(c.arg(0), c.size() > 1 ? c.arg(1) : lit(",")), "listAgg");
    // Over-window ranking functions.
    aggregate(c -> functions.row_number(), "rowNumber", "row_number");
    aggregate(c -> functions.rank(), "rank");
    aggregate(c -> functions.dense_rank(), "denseRank", "dense_rank");
    aggregate(c -> functions.percent_rank(), "percentRank");
    aggregate(c -> functions.cume_dist(), "cumeDist");
    aggregate(c -> functions.ntile(((Number) c.literal(0)).intValue()), "ntile");
    aggregate(c -> c.size() == 1 ? functions.lag(c.arg(0), 1)
        : functions.lag(c.arg(0), ((Number) c.literal(1)).intValue()), "lag");
    aggregate(c -> c.size() == 1 ? functions.lead(c.arg(0), 1)
        : functions.lead(c.arg(0), ((Number) c.literal(1)).intValue()), "lead");

    // Families kept in their own files; registered last so that they refine the entries above.
    StringMathFunctions.register();
    TemporalFunctions.register();
    CollectionFunctions.register();
    JsonFunctions.register();
    scalar(c -> c.scope.functions.sqlExpression(String.valueOf(c.literal(0))), "callSql", "call_sql");
  }

  /** The column with its exact Flink type recorded (e.g. CHAR(32) for MD5), as get_schema reports it. */
  static Column typed(Column c, String flinkType) {
    Metadata md = new MetadataBuilder()
        .putString(FlinkTypes.METADATA_KEY, flinkType).build();
    return c.as("_typed", md);
  }

  /** REGEXP_EXTRACT: NULL when nothing matches or the group does not exist (Spark gives ''). */
  static Column regexpExtract(CallContext c) {
    Column idx = c.size() > 2 ? c.arg(2) : lit(0);
    Object regex = c.exprs.get(1) instanceof Expr.Literal ? c.literal(1) : null;
    if (regex != null && c.size() > 2 && c.exprs.get(2) instanceof Expr.Literal) {
      int groups = Pattern.compile(String.valueOf(regex)).matcher("").groupCount();
      if (((Number) c.literal(2)).intValue() > groups) {
        return lit(null).cast(DataTypes.StringType);
      }
    }
    return functions.when(c.arg(0).rlike(String.valueOf(regex != null ? regex : "")).or(lit(regex == null)),
        functions.call_function("regexp_extract", c.arg(0), c.arg(1), idx));
  }

  /** SQL SIMILAR TO pattern to a Java regular expression matching the whole string. */
  static String similarToRegex(String pattern) {
    StringBuilder sb = new StringBuilder("^");
    for (char ch : pattern.toCharArray()) {
      switch (ch) {
        case '%': sb.append(".*"); break;
        case '_': sb.append('.'); break;
        case '.': case '\\': case '^': case '$': sb.append('\\').append(ch); break;
        default: sb.append(ch);
      }
    }
    return sb.append('$').toString();
  }

  static List<Column> columns(Column... cs) {
    return Arrays.asList(cs);
  }

  static boolean isDecimal(DataType t) {
    return t instanceof DecimalType;
  }
}
