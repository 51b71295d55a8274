package org.pyflink_table.bridge.types;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.NullType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimeType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.VarcharType;
import org.apache.spark.sql.types.YearMonthIntervalType;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.errors.ValidationException;

/**
 * Flink type strings to Spark types and back. The Flink side is the SQL form that PyFlink prints
 * ({@code BIGINT}, {@code DECIMAL(10, 2)}, {@code ROW<`a` INT, `b` STRING>},
 * {@code TIMESTAMP_LTZ(3)}, {@code INT NOT NULL}). Spark has fewer types than Flink (no VARCHAR
 * length on plain columns, microsecond timestamps only), so the exact Flink type of a top-level
 * column rides along in the field's metadata under {@link #METADATA_KEY} and wins on the way back
 * whenever it still describes the Spark type.
 */
public final class FlinkTypes {
  public static final String METADATA_KEY = "flink.type";
  /**
   * Metadata key: the column is NOT NULL in Flink where Spark's type says nullable (a window's bounds,
   * which Spark computes from a struct of nullable fields).
   */
  public static final String NOT_NULL_KEY = "flink.not_null";

  private FlinkTypes() {}

  /** Flink's types without parameters and their Spark types: both directions read this one table. */
  private static final Map<String, DataType> ATOMIC = Map.ofEntries(
      Map.entry("BOOLEAN", DataTypes.BooleanType), Map.entry("TINYINT", DataTypes.ByteType),
      Map.entry("SMALLINT", DataTypes.ShortType), Map.entry("INT", DataTypes.IntegerType),
      Map.entry("BIGINT", DataTypes.LongType), Map.entry("FLOAT", DataTypes.FloatType),
      Map.entry("DOUBLE", DataTypes.DoubleType), Map.entry("STRING", DataTypes.StringType),
      Map.entry("BYTES", DataTypes.BinaryType), Map.entry("DATE", DataTypes.DateType),
      Map.entry("NULL", DataTypes.NullType));

  /**
   * A parsed Flink type: its Spark counterpart, nullability and canonical Flink string ({@code
   * flink}, without the NOT NULL suffix).
   */
  public record Parsed(DataType spark, boolean nullable, String flink) {
    /** The Flink string with NOT NULL when applicable. */
    public String fullFlinkType() {
      return nullable ? flink : flink + " NOT NULL";
    }
  }

  public static Parsed parse(String flinkType) {
    return parse(flinkType, false);
  }

  /**
   * A type as Flink SQL writes it (in CAST and DDL): VARCHAR and VARBINARY without a length are
   * unbounded there, and CHARACTER [VARYING] and REAL are accepted.
   */
  public static Parsed parseSql(String sqlType) {
    return parse(sqlType, true);
  }

  private static Parsed parse(String flinkType, boolean sql) {
    Parser p = new Parser(flinkType, sql);
    Parsed t = p.type();
    p.skipWs();
    if (!p.atEnd()) {
      throw new ValidationException("Could not parse type '" + flinkType + "' at position " + p.pos + ".");
    }
    return t;
  }

  public static DataType toSpark(String flinkType) {
    return parse(flinkType).spark;
  }

  /** JSON of the Spark type, for PySpark's {@code _parse_datatype_json_string}. */
  public static String toSparkJson(String flinkType) {
    return toSpark(flinkType).json();
  }

  /** A Spark schema for Flink field names and types, exact Flink types kept in metadata. */
  public static StructType schema(String[] names, String[] flinkTypes) {
    if (names.length != flinkTypes.length) {
      throw new ValidationException(
          "Field names (" + names.length + ") and field types (" + flinkTypes.length + ") differ in length.");
    }
    StructField[] fields = new StructField[names.length];
    for (int i = 0; i < names.length; i++) {
      fields[i] = field(names[i], parse(flinkTypes[i]));
    }
    return new StructType(fields);
  }

  public static StructField field(String name, Parsed t) {
    Metadata md = new MetadataBuilder().putString(METADATA_KEY, t.flink).build();
    return new StructField(name, t.spark, t.nullable, md);
  }

  /**
   * The Flink types of a composite type's parts, as {@link #parse} spells them: an ARRAY's or
   * MULTISET's element, a MAP's key and value, a ROW's fields in order; empty for any other type.
   */
  public static List<String> components(String flinkType) {
    Parser p = new Parser(flinkType, false);
    List<String> out = new ArrayList<>();
    switch (p.word()) {
      case "ARRAY":
      case "MULTISET":
        p.expect('<');
        out.add(p.type().fullFlinkType());
        break;
      case "MAP":
        p.expect('<');
        out.add(p.type().fullFlinkType());
        p.expect(',');
        out.add(p.type().fullFlinkType());
        break;
      case "ROW": {
        char close = p.peek('<') ? '>' : ')';
        p.expect(close == '>' ? '<' : '(');
        while (!p.peek(close)) {
          if (!out.isEmpty()) p.expect(',');
          p.name();
          out.add(p.type().fullFlinkType());
          p.skipWs();
          if (p.pos < p.s.length() && p.s.charAt(p.pos) == '\'') p.pos = p.s.indexOf('\'', p.pos + 1) + 1; // description
        }
        break;
      }
      default:
        break;
    }
    return out;
  }

  /** The Flink type of a Spark field, preferring the exact type recorded in its metadata. */
  public static String fromSparkField(StructField f) {
    String base = null;
    if (f.metadata().contains(METADATA_KEY)) {
      String recorded = f.metadata().getString(METADATA_KEY);
      try {
        if (parse(recorded).spark.sameType(f.dataType())) {
          base = recorded;
        }
      } catch (RuntimeException ignored) {
        base = null;
      }
    }
    if (base == null) {
      base = fromSpark(f.dataType());
    }
    boolean notNull = !f.nullable() || f.metadata().contains(NOT_NULL_KEY) && f.metadata().getBoolean(NOT_NULL_KEY);
    return notNull ? base + " NOT NULL" : base;
  }

  /** The Flink type string of a Spark type (nested fields nullable unless Spark says otherwise). */
  public static String fromSpark(DataType t) {
    for (Map.Entry<String, DataType> atomic : ATOMIC.entrySet()) {
      if (atomic.getValue().equals(t)) return atomic.getKey();
    }
    if (t instanceof DecimalType) {
      DecimalType d = (DecimalType) t;
      return "DECIMAL(" + d.precision() + ", " + d.scale() + ")";
    }
    if (t instanceof CharType) return "CHAR(" + ((CharType) t).length() + ")";
    if (t instanceof VarcharType) return "VARCHAR(" + ((VarcharType) t).length() + ")";
    // A collated string is a string to Flink.
    if (t instanceof StringType) return "STRING";
    if (t instanceof TimeType) return "TIME(" + ((TimeType) t).precision() + ")";
    if (t instanceof TimestampNTZType) return "TIMESTAMP(6)";
    if (t instanceof TimestampType) return "TIMESTAMP_LTZ(6)";
    if (t instanceof DayTimeIntervalType) return "INTERVAL SECOND(3)";
    if (t instanceof YearMonthIntervalType) return "INTERVAL YEAR(2) TO MONTH";
    if (t instanceof ArrayType) {
      ArrayType a = (ArrayType) t;
      return "ARRAY<" + fromSpark(a.elementType()) + (a.containsNull() ? "" : " NOT NULL") + ">";
    }
    if (t instanceof MapType) {
      MapType m = (MapType) t;
      return "MAP<" + fromSpark(m.keyType()) + ", " + fromSpark(m.valueType())
          + (m.valueContainsNull() ? "" : " NOT NULL") + ">";
    }
    if (t instanceof StructType) {
      StringBuilder sb = new StringBuilder("ROW<");
      StructField[] fs = ((StructType) t).fields();
      for (int i = 0; i < fs.length; i++) {
        if (i > 0) sb.append(", ");
        sb.append('`').append(fs[i].name().replace("`", "``")).append("` ").append(fromSparkField(fs[i]));
      }
      return sb.append('>').toString();
    }
    throw new ValidationException("Spark type " + t.simpleString() + " has no Flink counterpart.");
  }

  /** Recursive-descent parser over Flink's SQL type grammar. */
  private static final class Parser {
    private final String s;
    private final boolean sql;
    private int pos;

    Parser(String s, boolean sql) {
      this.s = s;
      this.sql = sql;
    }

    boolean atEnd() {
      return pos >= s.length();
    }

    void skipWs() {
      while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) pos++;
    }

    boolean peek(char c) {
      skipWs();
      return pos < s.length() && s.charAt(pos) == c;
    }

    void expect(char c) {
      skipWs();
      if (pos >= s.length() || s.charAt(pos) != c) {
        throw new ValidationException("Could not parse type '" + s + "': expected '" + c + "' at position " + pos + ".");
      }
      pos++;
    }

    String word() {
      skipWs();
      int start = pos;
      while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '_')) pos++;
      return s.substring(start, pos).toUpperCase(Locale.ROOT);
    }

    String peekWord() {
      int save = pos;
      String w = word();
      pos = save;
      return w;
    }

    String name() {
      skipWs();
      if (peek('`')) {
        pos++;
        StringBuilder sb = new StringBuilder();
        while (true) {
          if (pos >= s.length()) throw new ValidationException("Unclosed ` in type '" + s + "'.");
          char c = s.charAt(pos++);
          if (c == '`') {
            if (pos < s.length() && s.charAt(pos) == '`') {
              sb.append('`');
              pos++;
              continue;
            }
            break;
          }
          sb.append(c);
        }
        return sb.toString();
      }
      int start = pos;
      while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '_' || s.charAt(pos) == '$')) pos++;
      return s.substring(start, pos);
    }

    int intArg(int dflt) {
      if (!peek('(')) return dflt;
      expect('(');
      int v = number();
      expect(')');
      return v;
    }

    /** An optional "(n)" that must lie in [min, max]; what the type is called in the error. */
    int intArg(int dflt, int min, int max, String what) {
      int v = intArg(dflt);
      if (v < min || v > max) {
        throw new ValidationException("Could not parse type '" + s + "': " + what + " must be between " + min
            + " and " + max + " (both inclusive), got " + v + ".");
      }
      return v;
    }

    /** The length of a CHAR, VARCHAR, BINARY or VARBINARY; without one, 1 (or unbounded in SQL). */
    int length(String what, boolean unboundedInSql) {
      return intArg(sql && unboundedInSql ? Integer.MAX_VALUE : 1, 1, Integer.MAX_VALUE, what + " length");
    }

    int number() {
      skipWs();
      int start = pos;
      while (pos < s.length() && Character.isDigit(s.charAt(pos))) pos++;
      if (start == pos) throw new ValidationException("Could not parse type '" + s + "': expected a number at position " + pos + ".");
      return Integer.parseInt(s.substring(start, pos));
    }

    Parsed type() {
      Parsed t = base();
      // Postfix forms: "INT ARRAY", "INT MULTISET", then NOT NULL / NULL.
      while (true) {
        String w = peekWord();
        if (w.equals("ARRAY")) {
          word();
          t = new Parsed(DataTypes.createArrayType(t.spark, t.nullable), true, "ARRAY<" + t.fullFlinkType() + ">");
        } else if (w.equals("MULTISET")) {
          word();
          t = multiset(t);
        } else {
          break;
        }
      }
      String w = peekWord();
      if (w.equals("NOT")) {
        word();
        if (!word().equals("NULL")) throw new ValidationException("Expected NOT NULL in type '" + s + "'.");
        return new Parsed(t.spark, false, t.flink);
      }
      if (w.equals("NULL") && !t.flink.equals("NULL")) {
        word();
      }
      return t;
    }

    private static Parsed varchar(int n) {
      return new Parsed(DataTypes.StringType, true, n == Integer.MAX_VALUE ? "STRING" : "VARCHAR(" + n + ")");
    }

    private Parsed multiset(Parsed t) {
      return new Parsed(DataTypes.createMapType(t.spark, DataTypes.IntegerType, false), true,
          "MULTISET<" + t.fullFlinkType() + ">");
    }

    Parsed base() {
      String w = word();
      if (w.equals("DOUBLE") && peekWord().equals("PRECISION")) word();
      if (ATOMIC.containsKey(w)) return new Parsed(ATOMIC.get(w), true, w);
      switch (w) {
        case "INTEGER": return new Parsed(DataTypes.IntegerType, true, "INT");
        case "REAL":
          if (!sql) throw new ValidationException("Unknown type 'REAL' in '" + s + "'; use FLOAT.");
          return new Parsed(DataTypes.FloatType, true, "FLOAT");
        case "DECIMAL":
        case "DEC":
        case "NUMERIC": {
          int p = 10, sc = 0;
          if (peek('(')) {
            expect('(');
            p = number();
            if (peek(',')) {
              expect(',');
              sc = number();
            }
            expect(')');
          }
          if (p < 1 || p > 38) {
            throw new ValidationException("Could not parse type '" + s + "': DECIMAL precision must be between 1 and 38"
                + " (both inclusive), got " + p + ".");
          }
          if (sc < 0 || sc > p) {
            throw new ValidationException("Could not parse type '" + s + "': DECIMAL scale must be between 0 and the"
                + " precision " + p + " (both inclusive), got " + sc + ".");
          }
          return new Parsed(DataTypes.createDecimalType(p, sc), true, "DECIMAL(" + p + ", " + sc + ")");
        }
        case "CHARACTER":
          if (!sql) throw new ValidationException("Unknown type 'CHARACTER' in '" + s + "'; use CHAR.");
          // fall through: CHARACTER [VARYING] is CHAR [VARYING]
        case "CHAR":
          if (sql && peekWord().equals("VARYING")) {
            word();
            return varchar(length("VARCHAR", true));
          }
          return new Parsed(DataTypes.StringType, true, "CHAR(" + length("CHAR", false) + ")");
        case "VARCHAR":
          return varchar(length("VARCHAR", true));
        case "BINARY": return new Parsed(DataTypes.BinaryType, true, "BINARY(" + length("BINARY", false) + ")");
        case "VARBINARY": {
          int n = length("VARBINARY", true);
          return new Parsed(DataTypes.BinaryType, true, n == Integer.MAX_VALUE ? "BYTES" : "VARBINARY(" + n + ")");
        }
        case "TIME": {
          int p = intArg(0, 0, 9, "TIME precision");
          skipTimeZoneWords(false);
          return new Parsed(TimeType.apply(Math.min(p, 6)), true, "TIME(" + p + ")");
        }
        case "TIMESTAMP": {
          int p = intArg(6, 0, 9, "TIMESTAMP precision");
          if (skipTimeZoneWords(true)) {
            return new Parsed(DataTypes.TimestampType, true, "TIMESTAMP_LTZ(" + p + ")");
          }
          return new Parsed(DataTypes.TimestampNTZType, true, "TIMESTAMP(" + p + ")");
        }
        case "TIMESTAMP_LTZ":
          return new Parsed(DataTypes.TimestampType, true, "TIMESTAMP_LTZ(" + intArg(6, 0, 9, "TIMESTAMP_LTZ precision") + ")");
        case "ARRAY": {
          expect('<');
          Parsed e = type();
          expect('>');
          return new Parsed(DataTypes.createArrayType(e.spark, e.nullable), true, "ARRAY<" + e.fullFlinkType() + ">");
        }
        case "MULTISET": {
          expect('<');
          Parsed e = type();
          expect('>');
          return multiset(e);
        }
        case "MAP": {
          expect('<');
          Parsed k = type();
          expect(',');
          Parsed v = type();
          expect('>');
          return new Parsed(DataTypes.createMapType(k.spark, v.spark, v.nullable), true,
              "MAP<" + k.fullFlinkType() + ", " + v.fullFlinkType() + ">");
        }
        case "ROW": {
          char close;
          if (peek('<')) {
            expect('<');
            close = '>';
          } else {
            expect('(');
            close = ')';
          }
          List<StructField> fields = new ArrayList<>();
          StringBuilder sb = new StringBuilder("ROW<");
          if (!peek(close)) {
            do {
              if (!fields.isEmpty()) sb.append(", ");
              String n = name();
              Parsed ft = type();
              skipWs();
              if (pos < s.length() && s.charAt(pos) == '\'') { // field description
                pos = s.indexOf('\'', pos + 1) + 1;
              }
              fields.add(field(n, ft));
              sb.append('`').append(n.replace("`", "``")).append("` ").append(ft.fullFlinkType());
            } while (peek(',') && consume(','));
          }
          expect(close);
          return new Parsed(new StructType(fields.toArray(new StructField[0])), true, sb.append('>').toString());
        }
        case "INTERVAL": return interval();
        default:
          throw new ValidationException("Unknown type '" + w + "' in '" + s
              + "'. Known types: BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL, CHAR, VARCHAR, STRING, "
              + "BINARY, VARBINARY, BYTES, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ, INTERVAL, ARRAY, MAP, MULTISET, ROW, NULL.");
      }
    }

    private boolean consume(char c) {
      expect(c);
      return true;
    }

    /** Consumes WITH [LOCAL] TIME ZONE / WITHOUT TIME ZONE; returns true for WITH LOCAL TIME ZONE. */
    private boolean skipTimeZoneWords(boolean allowLocal) {
      String w = peekWord();
      if (w.equals("WITHOUT")) {
        word();
        word();
        word();
        return false;
      }
      if (w.equals("WITH")) {
        word();
        String n = word();
        if (n.equals("LOCAL")) {
          word();
          word();
          if (!allowLocal) throw TableException.unsupported("TIME WITH LOCAL TIME ZONE");
          return true;
        }
        throw TableException.unsupported("TIMESTAMP WITH TIME ZONE");
      }
      return false;
    }

    /** INTERVAL start[(p)] [TO end[(f)]]: Spark keeps year-month or day-time, the Flink form keeps the rest. */
    private Parsed interval() {
      String unit = word();
      int p = unit.equals("YEAR") || unit.equals("DAY") || unit.equals("SECOND") ? intArg(-1) : -1;
      String to = null;
      int f = -1;
      if (peekWord().equals("TO")) {
        word();
        to = word();
        if (to.equals("SECOND")) f = intArg(-1);
      }
      boolean yearMonth = unit.equals("YEAR") || unit.equals("MONTH");
      if (yearMonth) {
        if (unit.equals("MONTH") && to == null) {
          return new Parsed(DataTypes.createYearMonthIntervalType(), true, "INTERVAL MONTH");
        }
        if (unit.equals("MONTH") || (to != null && !to.equals("MONTH"))) {
          throw new ValidationException("Could not parse type '" + s + "': unsupported interval end " + to + ".");
        }
        String year = "INTERVAL YEAR(" + (p < 0 ? 2 : p) + ")";
        return new Parsed(DataTypes.createYearMonthIntervalType(), true, to == null ? year : year + " TO MONTH");
      }
      List<String> order = List.of("DAY", "HOUR", "MINUTE", "SECOND");
      int from = order.indexOf(unit);
      if (from < 0 || (to != null && order.indexOf(to) <= from)) {
        throw new ValidationException("Could not parse type '" + s + "': unsupported interval "
            + unit + (to == null ? "" : " TO " + to) + ".");
      }
      String start = unit.equals("DAY") ? "DAY(" + (p < 0 ? 2 : p) + ")"
          : unit.equals("SECOND") ? "SECOND(" + (p < 0 ? 6 : p) + ")" : unit;
      String end = to == null ? "" : " TO " + (to.equals("SECOND") ? "SECOND(" + (f < 0 ? 6 : f) + ")" : to);
      return new Parsed(DataTypes.createDayTimeIntervalType(), true, "INTERVAL " + start + end);
    }
  }
}
