package org.pyflink_table.bridge.expressions;

import static org.apache.spark.sql.functions.lit;
import static org.pyflink_table.bridge.expressions.FunctionCatalog.scalar;
import static org.pyflink_table.bridge.expressions.FunctionCatalog.sql;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Locale;
import java.util.regex.Pattern;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.NumericType;
import org.pyflink_table.bridge.errors.TableException;

/**
 * String and numeric built-ins whose Spark counterpart differs in arguments, NULL handling or
 * result type from Flink's (e.g. Spark's SIGN is always DOUBLE, its CEIL of a DOUBLE a BIGINT, its
 * SPLIT takes a regular expression).
 */
final class StringMathFunctions {
  private StringMathFunctions() {}

  /** Keeps the argument's numeric type, as Flink does for SIGN, CEIL, FLOOR and TRUNCATE. */
  private static Column sameType(Column r, DataType t) {
    return t instanceof NumericType ? r.cast(t) : r;
  }

  private static boolean fractional(DataType t) {
    return t instanceof DoubleType || t instanceof FloatType;
  }

  static Column ceilOrFloor(CallContext c, boolean ceil) {
    if (c.size() == 2) {
      return TemporalFunctions.ceilOrFloor(c, ceil);
    }
    DataType t = c.type(0);
    if (t instanceof DecimalType) {
      DecimalType d = (DecimalType) t;
      Column r = ceil ? functions.ceil(c.arg(0)) : functions.floor(c.arg(0));
      return r.cast(DataTypes.createDecimalType(d.precision(), 0));
    }
    if (!(t instanceof NumericType) || !fractional(t)) {
      return c.arg(0);
    }
    return sameType(ceil ? functions.ceil(c.arg(0)) : functions.floor(c.arg(0)), t);
  }

  /** Flink's TRUNCATE: toward zero to n decimal places (n may be negative); keeps the type. */
  static Column truncate(CallContext c) {
    DataType t = c.type(0);
    int n = c.size() > 1 ? ((Number) c.literal(1)).intValue() : 0;
    Column x = c.arg(0);
    if (t instanceof DecimalType) {
      DecimalType d = (DecimalType) t;
      int scale = Math.max(0, Math.min(n, d.scale()));
      Column f = lit(new BigDecimal(BigInteger.ONE, -n));
      Column scaled = x.multiply(f);
      Column whole = functions.when(x.geq(lit(0)), functions.floor(scaled)).otherwise(functions.ceil(scaled));
      return whole.divide(f).cast(DataTypes.createDecimalType(d.precision(), scale));
    }
    double f = Math.pow(10, n);
    Column scaled = x.multiply(lit(f));
    Column whole = functions.when(x.geq(lit(0)), functions.floor(scaled)).otherwise(functions.ceil(scaled));
    return sameType(whole.divide(lit(f)), t);
  }

  /** LOG(base, value) in SQL order, and the one-argument natural logarithm. */
  static Column log(CallContext c) {
    if (c.size() == 1) {
      return functions.call_function("ln", c.arg(0));
    }
    return functions.call_function("log", c.arg(0), c.arg(1));
  }

  /** A Java regular expression matching the literal text of a delimiter argument. */
  static String quotedRegex(CallContext c, int i) {
    return Pattern.quote(String.valueOf(c.literal(i)));
  }

  /** Flink's SPLIT_INDEX: the 0-based field, NULL when out of range. */
  static Column splitIndex(CallContext c) {
    Column parts = functions.split(c.arg(0), quotedRegex(c, 1), -1);
    Column idx = c.arg(2);
    return functions.when(idx.geq(lit(0)), functions.try_element_at(parts, idx.plus(lit(1))));
  }

  static Column elt(CallContext c) {
    Column idx = c.arg(0);
    Column r = null;
    for (int i = 1; i < c.size(); i++) {
      r = r == null ? functions.when(idx.equalTo(lit(i)), c.arg(i)) : r.when(idx.equalTo(lit(i)), c.arg(i));
    }
    return r;
  }

  /** Flink's INET_ATON: the number of a dotted IPv4 address, NULL when it is not one. */
  static Column inetAton(CallContext c) {
    Column s = c.arg(0);
    Column parts = functions.split(s, "\\.", -1);
    Column valid = s.rlike("^(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})$")
        .and(functions.forall(parts, p -> p.cast(DataTypes.LongType).leq(lit(255))));
    Column n = lit(0L);
    for (int i = 0; i < 4; i++) {
      n = n.multiply(lit(256L)).plus(functions.element_at(parts, i + 1).cast(DataTypes.LongType));
    }
    return functions.when(valid, n);
  }

  static Column inetNtoa(CallContext c) {
    Column n = c.arg(0).cast(DataTypes.LongType);
    Column[] octets = new Column[4];
    for (int i = 0; i < 4; i++) {
      octets[i] = functions.shiftrightunsigned(n, 24 - 8 * i).bitwiseAND(lit(255L)).cast(DataTypes.StringType);
    }
    Column valid = n.geq(lit(0L)).and(n.leq(lit(4294967295L)));
    return functions.when(valid, functions.concat_ws(".", octets));
  }

  static Column trimWith(CallContext c, String how) {
    return FunctionCatalog.trim(c, how);
  }

  /** REGEXP_EXTRACT_ALL: group 1 by default; NULL when the regex has no such group. */
  static Column regexpExtractAll(CallContext c) {
    int idx = c.size() > 2 ? ((Number) c.literal(2)).intValue() : 1;
    if (c.exprs.get(1) instanceof Expr.Literal) {
      int groups = Pattern.compile(String.valueOf(c.literal(1))).matcher("").groupCount();
      if (idx > groups) {
        return lit(null).cast(DataTypes.createArrayType(DataTypes.StringType));
      }
    }
    return functions.call_function("regexp_extract_all", c.arg(0), c.arg(1), lit(idx));
  }

  /** INITCAP as Flink does it: a letter after any non-alphanumeric character starts a word. */
  static Column initCap(CallContext c) {
    Column chars = functions.split(c.arg(0), "(?!^)", -1);
    Column capped = functions.transform(chars, (ch, i) -> functions.when(
        i.equalTo(lit(0)).or(functions.not(functions.element_at(chars, i).rlike("^[\\p{L}\\p{N}]$"))),
        functions.upper(ch)).otherwise(functions.lower(ch)));
    return functions.when(c.arg(0).isNotNull(), functions.array_join(capped, ""));
  }

  static Column strToMap(CallContext c) {
    Column list = c.size() > 1 ? c.arg(1) : lit(",");
    Column kv = c.size() > 2 ? c.arg(2) : lit("=");
    return functions.call_function("str_to_map", c.arg(0), list, kv);
  }

  static Column unsupported(String feature) {
    throw TableException.unsupported(feature);
  }

  static void register() {
    scalar(c -> sameType(functions.call_function("sign", c.arg(0)), c.type(0)), "sign", "signum");
    scalar(c -> ceilOrFloor(c, true), "ceil", "ceiling");
    scalar(c -> ceilOrFloor(c, false), "floor");
    scalar(StringMathFunctions::truncate, "truncate");
    scalar(StringMathFunctions::log, "log");
    scalar(c -> functions.floor(functions.rand().multiply(c.arg(c.size() - 1))).cast(DataTypes.IntegerType),
        "randInteger");
    scalar(c -> c.size() == 0 ? functions.rand() : functions.rand(((Number) c.literal(0)).longValue()), "rand");

    sql("startswith", "startsWith", "starts_with");
    sql("endswith", "endsWith", "ends_with");
    sql("translate", "translate");
    sql("regexp_count", "regexpCount");
    scalar(StringMathFunctions::regexpExtractAll, "regexpExtractAll");
    scalar(StringMathFunctions::initCap, "initCap");
    sql("regexp_instr", "regexpInstr");
    sql("regexp_substr", "regexpSubstr");
    sql("decode", "decode");
    sql("encode", "encode");
    sql("try_url_decode", "urlDecode", "url_decode");
    sql("url_encode", "urlEncode", "url_encode");
    scalar(StringMathFunctions::inetAton, "inetAton");
    scalar(StringMathFunctions::inetNtoa, "inetNtoa");
    sql("try_parse_url", "parseUrl", "parse_url");
    sql("printf", "printf");
    scalar(c -> trimWith(c, "ltrim"), "ltrim");
    scalar(c -> trimWith(c, "rtrim"), "rtrim");
    scalar(c -> trimWith(c, "btrim"), "btrim");
    // Flink's SPLIT elements are nullable; Spark's are not.
    scalar(c -> functions.split(c.arg(0), quotedRegex(c, 1), -1)
        .cast(DataTypes.createArrayType(DataTypes.StringType, true)), "split");
    scalar(StringMathFunctions::strToMap, "strToMap");
    scalar(StringMathFunctions::elt, "elt");
    scalar(StringMathFunctions::splitIndex, "splitIndex");
    scalar(c -> functions.concat(c.args.toArray(new Column[0])), "concat");

    for (String b : new String[] {"bitmapAnd", "bitmapAndnot", "bitmapOr", "bitmapXor", "bitmapBuild",
        "bitmapCardinality", "bitmapFromBytes", "bitmapToArray", "bitmapToBytes", "bitmapToString"}) {
      scalar(c -> unsupported(sqlName(b) + " (Spark has no 32-bit roaring bitmap type)"), b);
    }
    for (String b : new String[] {"bitmapAndAgg", "bitmapAndCardinalityAgg", "bitmapBuildAgg",
        "bitmapBuildCardinalityAgg", "bitmapOrAgg", "bitmapOrCardinalityAgg", "bitmapXorAgg",
        "bitmapXorCardinalityAgg"}) {
      FunctionCatalog.aggregate(c -> unsupported(sqlName(b) + " (Spark has no 32-bit roaring bitmap type)"), b);
    }
    scalar(c -> unsupported("asArgument (named arguments of process table functions)"), "asArgument");
    scalar(c -> unsupported("DESCRIPTOR (process table functions)"), "descriptor");
  }

  /** bitmapAndCardinalityAgg -> BITMAP_AND_CARDINALITY_AGG, for messages. */
  static String sqlName(String javaName) {
    return javaName.replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
  }
}
