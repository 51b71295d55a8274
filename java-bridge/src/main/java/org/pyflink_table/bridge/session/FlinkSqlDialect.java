package org.pyflink_table.bridge.session;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.analysis.Star;
import org.apache.spark.sql.catalyst.analysis.UnresolvedAlias;
import org.apache.spark.sql.catalyst.analysis.UnresolvedFunction;
import org.apache.spark.sql.catalyst.analysis.UnresolvedHaving;
import org.apache.spark.sql.catalyst.expressions.NamedExpression$;
import org.apache.spark.sql.catalyst.plans.logical.SetOperation;
import org.apache.spark.sql.catalyst.plans.logical.Union;
import org.apache.spark.sql.catalyst.plans.logical.View;
import org.apache.spark.sql.catalyst.plans.logical.UnresolvedWith;
import org.apache.spark.sql.catalyst.plans.logical.Expand;
import org.apache.spark.sql.catalyst.plans.logical.WithWindowDefinition;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.DatetimeSub;
import org.apache.spark.sql.catalyst.expressions.GetStructField;
import org.apache.spark.sql.catalyst.expressions.SessionWindow$;
import org.apache.spark.sql.catalyst.expressions.TimeWindow$;
import org.apache.spark.sql.catalyst.expressions.TimestampAdd;
import org.apache.spark.sql.catalyst.expressions.Concat;
import org.apache.spark.sql.catalyst.expressions.ConcatWs;
import org.apache.spark.sql.catalyst.expressions.Divide;
import org.apache.spark.sql.catalyst.expressions.CreateArray;
import org.apache.spark.sql.catalyst.expressions.CreateMap;
import org.apache.spark.sql.catalyst.expressions.CreateNamedStruct;
import org.apache.spark.sql.catalyst.expressions.CurrentDate;
import org.apache.spark.sql.catalyst.expressions.CurrentTimestamp;
import org.apache.spark.sql.catalyst.expressions.KnownNotNull;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.Size;
import org.apache.spark.sql.catalyst.expressions.MillisToTimestamp;
import org.apache.spark.sql.catalyst.expressions.LocalTimestamp;
import org.apache.spark.sql.catalyst.expressions.Now;
import org.apache.spark.sql.catalyst.expressions.ParseToTimestamp;
import org.apache.spark.sql.catalyst.expressions.TruncTimestamp;
import org.apache.spark.sql.classic.ColumnNodeToExpressionConverter$;
import org.apache.spark.sql.classic.ExpressionUtils;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.TimeType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.pyflink_table.bridge.expressions.StringCast;
import org.apache.spark.sql.catalyst.expressions.EvalMode;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateFunction;
import org.apache.spark.sql.catalyst.expressions.aggregate.Average;
import org.apache.spark.sql.catalyst.expressions.WindowExpression;
import org.apache.spark.sql.catalyst.plans.logical.Window;
import org.apache.spark.sql.catalyst.expressions.aggregate.CentralMomentAgg;
import org.apache.spark.sql.catalyst.expressions.Cast$;
import org.apache.spark.sql.catalyst.expressions.aggregate.Sum;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.Distinct;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.GlobalLimit;
import org.apache.spark.sql.catalyst.plans.logical.Join;
import org.apache.spark.sql.catalyst.plans.logical.LocalLimit;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Offset;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.Sort;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.classic.Dataset$;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.YearMonthIntervalType;
import org.pyflink_table.bridge.streaming.CurrentWatermark;
import org.pyflink_table.bridge.errors.SqlParserException;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.ArrayAggregates;
import org.pyflink_table.bridge.expressions.ItemAccess;
import org.pyflink_table.bridge.expressions.JsonAggregates;
import org.pyflink_table.bridge.expressions.Multisets;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.expressions.SqlText;
import org.pyflink_table.bridge.expressions.TimestampPrecision;
import org.pyflink_table.bridge.expressions.ToTimestampLtz;
import org.pyflink_table.bridge.types.FlinkTypes;
import org.pyflink_table.bridge.window.SqlWindows;
import org.pyflink_table.bridge.window.TvfWindowAggregates;
import scala.Function1;
import scala.Option;
import scala.PartialFunction;
import scala.runtime.AbstractPartialFunction;

/**
 * Flink SQL text made into the Spark SQL that means the same, plus Flink's result types for the
 * query's output columns where Spark widens them.
 *
 * <p>The text rewrite works on tokens (string literals, quoted identifiers and comments are never
 * looked into), so a word inside a literal is never rewritten. What it changes:
 *
 * <ul>
 *   <li>string literals: Flink has no backslash escapes ({@code 'a\b'} is three characters), and
 *       {@code U&'\0041'} Unicode literals become plain literals;
 *   <li>types in {@code CAST}/{@code TRY_CAST}: {@code TIMESTAMP(p)} is TIMESTAMP_NTZ (Spark's
 *       TIMESTAMP has a time zone), {@code TIMESTAMP_LTZ(p)}/{@code WITH LOCAL TIME ZONE},
 *       {@code VARCHAR(n)}, {@code CHAR(n)} (blank-padded as Flink), {@code BYTES},
 *       {@code VARBINARY(n)}, {@code ROW<..>}/{@code ROW(..)}, {@code MULTISET<..>}, NOT NULL;
 *   <li>{@code TIMESTAMP '...'} literals and {@code TO_TIMESTAMP} give TIMESTAMP_NTZ;
 *       {@code TO_TIMESTAMP_LTZ} takes epoch numbers too ({@link ToTimestampLtz});
 *   <li>{@code ARRAY[..]}, {@code MAP[..]}, {@code ROW(..)} value constructors;
 *   <li>{@code FLOOR/CEIL(ts TO unit)}, {@code LOCALTIMESTAMP}, {@code STR_TO_MAP(s)} with
 *       Flink's default delimiters, {@code LISTAGG(x)} with Flink's ',' separator, {@code TIMESTAMPDIFF} as INT,
 *       {@code COLLECT} as {@link Multisets}' function over {@code collect_list}, {@code ARRAY_AGG} as
 *       {@link ArrayAggregates}' over {@code array_agg .. RESPECT NULLS}, {@code JSON_ARRAYAGG} and
 *       {@code JSON_OBJECTAGG} as {@link JsonAggregates}' functions over {@code collect_list};
 *   <li>{@code x BETWEEN SYMMETRIC a AND b} as {@code x BETWEEN} the smaller {@code AND} the larger bound;
 *   <li>{@code FETCH FIRST n ROWS ONLY} and {@code OFFSET n ROWS FETCH NEXT m ROWS ONLY}.
 * </ul>
 */
public final class FlinkSqlDialect {
  private FlinkSqlDialect() {}

  /** Words the rewriter may turn into something else (handled in {@code run}). */
  private static final Set<String> SPECIAL = Set.of("CAST", "TRY_CAST", "ARRAY", "MAP", "ROW",
      "TIMESTAMP", "TO_TIMESTAMP", "TO_TIMESTAMP_LTZ", "LOCALTIMESTAMP", "CURRENT_TIMESTAMP", "NOW", "CURRENT_TIME",
      "LOCALTIME", "TIMESTAMPDIFF", "FLOOR", "CEIL", "CEILING", "STR_TO_MAP",
      "SIMILAR", "FETCH", "OFFSET", "REGEXP_EXTRACT", "SPLIT_INDEX", "WEEK", "LISTAGG", "CURRENT_WATERMARK",
      "SYMMETRIC", "ASYMMETRIC", "COLLECT", "ARRAY_AGG", "JSON_ARRAYAGG", "JSON_OBJECTAGG");

  /** Words that end a BETWEEN's upper bound. */
  private static final Set<String> BETWEEN_ENDS = Set.of("AND", "OR", "IS", "NOT", "LIKE", "IN", "BETWEEN", "SIMILAR",
      "THEN", "WHEN", "ELSE", "END", "FROM", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "UNION", "EXCEPT",
      "INTERSECT", "MINUS", "WINDOW", "JOIN", "LEFT", "RIGHT", "FULL", "INNER", "CROSS", "ON", "AS", "FETCH", "OFFSET",
      "ASC", "DESC", "NULLS", "ESCAPE");

  private enum Kind { SPACE, STRING, UNICODE_STRING, QUOTED, WORD, NUMBER, SYMBOL }

  private static final class Token {
    final Kind kind;
    final String text;

    Token(Kind kind, String text) {
      this.kind = kind;
      this.text = text;
    }

    boolean is(String word) {
      return kind == Kind.WORD && text.equalsIgnoreCase(word);
    }

    boolean sym(String s) {
      return kind == Kind.SYMBOL && text.equals(s);
    }

    String upper() {
      return text.toUpperCase(Locale.ROOT);
    }
  }

  // ---------------------------------------------------------------- tokenizer

  /** Deeper bracket nesting is refused with a parse error rather than overflowing the JVM's stack. */
  static final int MAX_NESTING = 200;

  private static List<Token> tokenize(String sql) {
    List<Token> out = new ArrayList<>();
    int i = 0;
    int n = sql.length();
    int depth = 0;
    while (i < n) {
      char c = sql.charAt(i);
      int start = i;
      if (Character.isWhitespace(c)) {
        while (i < n && Character.isWhitespace(sql.charAt(i))) i++;
        out.add(new Token(Kind.SPACE, sql.substring(start, i)));
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? n : end;
        out.add(new Token(Kind.SPACE, sql.substring(start, i)));
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        if (end < 0) throw lexicalError(sql, start, "unterminated comment");
        i = end + 2;
        out.add(new Token(Kind.SPACE, sql.substring(start, i)));
      } else if ((c == 'U' || c == 'u') && sql.startsWith("&'", i + 1)) {
        i = quoted(sql, i + 2, '\'');
        out.add(new Token(Kind.UNICODE_STRING, sql.substring(start, i)));
      } else if (c == '\'') {
        i = quoted(sql, i, '\'');
        out.add(new Token(Kind.STRING, sql.substring(start, i)));
      } else if (c == '`' || c == '"') {
        i = quoted(sql, i, c);
        out.add(new Token(Kind.QUOTED, sql.substring(start, i)));
      } else if (Character.isLetter(c) || c == '_' || c == '$') {
        while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_' || sql.charAt(i) == '$')) i++;
        out.add(new Token(Kind.WORD, sql.substring(start, i)));
      } else if (Character.isDigit(c)) {
        while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '.')) i++;
        out.add(new Token(Kind.NUMBER, sql.substring(start, i)));
      } else {
        if (c == '(' || c == '[') {
          if (++depth > MAX_NESTING) {
            throw new SqlParserException("SQL parse failed. Brackets nested deeper than " + MAX_NESTING
                + " levels at " + position(sql, i) + ".");
          }
        } else if (c == ')' || c == ']') {
          depth--;
        }
        out.add(new Token(Kind.SYMBOL, String.valueOf(c)));
        i++;
      }
    }
    return out;
  }

  /** "line L, column C" (1-based) of offset {@code at}, as Flink's parser reports positions. */
  private static String position(String sql, int at) {
    int line = 1;
    int col = 1;
    for (int k = 0; k < at; k++) {
      if (sql.charAt(k) == '\n') {
        line++;
        col = 1;
      } else {
        col++;
      }
    }
    return "line " + line + ", column " + col;
  }

  private static SqlParserException lexicalError(String sql, int at, String what) {
    String rest = sql.substring(at);
    if (rest.length() > 40) rest = rest.substring(0, 40) + "...";
    return new SqlParserException("SQL parse failed. Lexical error at " + position(sql, at) + ": " + what + ": "
        + rest.replace("\n", "\\n"));
  }

  /** End (exclusive) of a quoted token opening at {@code open}; a doubled quote is an escape. */
  private static int quoted(String sql, int open, char quote) {
    int end = SqlText.quotedEnd(sql, open, false);
    if (end >= 0) return end;
    throw lexicalError(sql, open, quote == '\'' ? "unterminated string literal" : "unterminated quoted identifier");
  }

  // ---------------------------------------------------------------- text rewrite

  /** The Spark SQL text that means what the Flink SQL text means. */
  public static String rewrite(String sql) {
    List<Token> tokens = tokenize(sql);
    return new Rewriter(tokens).run(0, tokens.size());
  }

  /**
   * The text with each unqualified call of a name in {@code userFirst} (lower case) written as
   * {@code system.session.`name`(...)}, which Spark resolves to the session's function: Spark's SQL
   * looks its built-ins up first, Flink the user's function (see
   * {@code FunctionCatalog.userNamesBeforeSparkBuiltins}). It runs on the user's text before the
   * other rewrites, so the built-in calls they generate keep reaching Spark's built-ins.
   */
  public static String qualifyUserCalls(String sql, Set<String> userFirst) {
    if (userFirst.isEmpty()) return sql;
    List<Token> tokens = tokenize(sql);
    StringBuilder out = new StringBuilder();
    Token previous = null;
    for (int i = 0; i < tokens.size(); i++) {
      Token k = tokens.get(i);
      out.append(qualified(k, previous, tokens, i, userFirst));
      if (k.kind != Kind.SPACE) previous = k;
    }
    return out.toString();
  }

  /** The token's text, or the session-qualified call when it names a function of {@code userFirst}. */
  private static String qualified(Token k, Token previous, List<Token> tokens, int i, Set<String> userFirst) {
    String name = k.kind == Kind.WORD ? k.text
        : k.kind == Kind.QUOTED && k.text.startsWith("`") ? k.text.substring(1, k.text.length() - 1).replace("``", "`")
        : null;
    if (name == null || !userFirst.contains(name.toLowerCase(Locale.ROOT))) return k.text;
    int after = i + 1;
    while (after < tokens.size() && tokens.get(after).kind == Kind.SPACE) after++;
    // A call, not a qualified name's part, a column list after an alias or an INSERT target.
    boolean call = after < tokens.size() && tokens.get(after).sym("(");
    if (!call || previous != null && (previous.sym(".") || previous.is("AS") || previous.is("INTO"))) return k.text;
    return "system.session.`" + name.replace("`", "``") + "`";
  }

  private static final class Rewriter {
    private final List<Token> t;

    Rewriter(List<Token> tokens) {
      this.t = tokens;
    }

    /** Index of the next non-space token at or after i (t.size() when none). */
    int next(int i) {
      while (i < t.size() && t.get(i).kind == Kind.SPACE) i++;
      return i;
    }

    /** Index of the last non-space token before i, not before {@code from} (from - 1 when none). */
    int previous(int i, int from) {
      i--;
      while (i >= from && t.get(i).kind == Kind.SPACE) i--;
      return i;
    }

    /** Index of the bracket closing the one at {@code open} ('(' or '['). */
    int closing(int open) {
      String o = t.get(open).text;
      String c = o.equals("(") ? ")" : "]";
      int depth = 0;
      for (int i = open; i < t.size(); i++) {
        if (t.get(i).sym(o)) depth++;
        if (t.get(i).sym(c) && --depth == 0) return i;
      }
      return t.size();
    }

    /** Rewritten text of tokens [from, to). */
    String run(int from, int to) {
      StringBuilder out = new StringBuilder();
      // Where the expression ending at the output's end starts, for Flink's 1-based x[i]:
      // parenthesised groups and calls, dotted names, and the composites emitted below.
      ArrayDeque<Integer> opens = new ArrayDeque<>();
      int primaryStart = -1;
      int wordStart = -1;
      int dotBase = -1;
      int i = from;
      while (i < to) {
        Token k = t.get(i);
        int after = next(i + 1);
        boolean call = after < to && t.get(after).sym("(");
        int before = out.length();
        if (k.kind == Kind.SPACE) {
          out.append(k.text);
          i++;
          continue;
        }
        if (k.sym("[") && primaryStart >= 0) {
          int close = Math.min(closing(i), to);
          String base = out.substring(primaryStart);
          out.setLength(primaryStart);
          out.append(ItemAccess.NAME).append('(').append(base).append(", ").append(run(i + 1, close).strip())
              .append(')');
          i = close + 1;
          wordStart = -1;
          dotBase = -1;
          continue;
        }
        if (k.sym("(")) {
          opens.push(wordStart >= 0 ? wordStart : before);
          out.append('(');
          i++;
          primaryStart = -1;
          wordStart = -1;
          dotBase = -1;
          continue;
        }
        if (k.sym(")")) {
          out.append(')');
          i++;
          primaryStart = opens.isEmpty() ? -1 : opens.pop();
          wordStart = -1;
          dotBase = -1;
          continue;
        }
        if (k.sym(".")) {
          dotBase = primaryStart;
          out.append('.');
          i++;
          primaryStart = -1;
          wordStart = -1;
          continue;
        }
        if (k.kind == Kind.WORD || k.kind == Kind.QUOTED) {
          boolean special = k.kind == Kind.WORD && SPECIAL.contains(k.upper());
          if (!special) {
            int start = dotBase >= 0 ? dotBase : before;
            out.append(k.text);
            i++;
            primaryStart = start;
            wordStart = before;
            dotBase = -1;
            continue;
          }
        }
        wordStart = -1;
        dotBase = -1;
        if (k.kind == Kind.STRING) {
          String value = flinkStringValue(k.text);
          int prev = i - 1;
          while (prev >= from && t.get(prev).kind == Kind.SPACE) prev--;
          if (prev >= from && t.get(prev).is("LIKE") && !(after < to && t.get(after).is("ESCAPE"))) {
            // Flink's LIKE has no escape character unless ESCAPE names one; Spark's is ''.
            value = value.replace("\\", "\\\\");
          }
          out.append(sparkString(value));
          i++;
        } else if (k.kind == Kind.UNICODE_STRING) {
          out.append(sparkString(unicodeValue(k.text.substring(2))));
          i++;
        } else if ((k.is("CAST") || k.is("TRY_CAST")) && call) {
          int close = closing(after);
          out.append(cast(k.upper(), after, Math.min(close, to)));
          i = close + 1;
        } else if ((k.is("ARRAY") || k.is("MAP")) && after < to && t.get(after).sym("[")) {
          int close = Math.min(closing(after), to);
          out.append(k.upper().toLowerCase(Locale.ROOT)).append('(').append(run(after + 1, close)).append(')');
          i = close + 1;
        } else if (k.is("ROW") && call) {
          out.append("struct");
          i = after;
        } else if (k.is("TIMESTAMP") && after < to && t.get(after).kind == Kind.STRING) {
          // Flink's literal is TIMESTAMP(digits written), trailing zeros included; the value's own
          // digits give the precision otherwise (flinkTypeOf).
          String value = flinkStringValue(t.get(after).text);
          int written = fractionDigits(value);
          String literal = "TIMESTAMP_NTZ " + run(after, after + 1);
          out.append(written == fractionDigits(value.replaceAll("0+$", ""))
              && written <= 6 ? literal : TimestampPrecision.NAME + "(" + literal + ", " + written + ")");
          i = after + 1;
        } else if (k.is("WEEK") && call) {
          out.append("weekofyear");
          i = after;
        } else if (k.is("TO_TIMESTAMP") && call) {
          // Flink: NULL for a malformed string (Spark's to_timestamp_ntz fails the job).
          int close = Math.min(closing(after), to);
          out.append("CAST(try_to_timestamp(").append(run(after + 1, close)).append(") AS TIMESTAMP_NTZ)");
          i = close + 1;
        } else if (k.is("TO_TIMESTAMP_LTZ") && call) {
          out.append(ToTimestampLtz.NAME); // Spark's to_timestamp_ltz parses strings only
          i = after;
        } else if (k.is("LOCALTIMESTAMP") && !call) {
          // Flink's current times are TIMESTAMP(3)/TIMESTAMP_LTZ(3) and TIME(0) (Spark's hold
          // microseconds); each keyword's spelling here is how withFlinkNames knows it (NOW() is EXPR$n).
          // timestamp_millis(unix_millis(..)) keeps the value NOT NULL (date_trunc's is nullable).
          out.append("CAST(timestamp_millis(unix_millis(CAST(localtimestamp() AS TIMESTAMP_LTZ))) AS TIMESTAMP_NTZ)");
          i++;
        } else if (k.is("CURRENT_TIMESTAMP") && !call) {
          out.append("timestamp_millis(unix_millis(CURRENT_TIMESTAMP))");
          i++;
        } else if (k.is("NOW") && call && after + 1 < to && t.get(after + 1).sym(")")) {
          out.append("timestamp_millis(unix_millis(now()))");
          i = after + 2;
        } else if ((k.is("CURRENT_TIME") || k.is("LOCALTIME")) && !call) {
          out.append('`').append(k.upper().toLowerCase(Locale.ROOT)).append("`(0)"); // quoted: reserved words
          i++;
        } else if ((k.is("SYMMETRIC") || k.is("ASYMMETRIC")) && previousWord(i, from, "BETWEEN")) {
          if (k.is("ASYMMETRIC")) {
            i++; // Flink's default
          } else {
            int and = betweenAnd(i + 1, to);
            int end = betweenEnd(and + 1, to);
            String a = "(" + run(i + 1, and).strip() + ")";
            String b = "(" + run(and + 1, end).strip() + ")";
            // NULL bounds when either is NULL: Flink's (x BETWEEN a AND b) OR (x BETWEEN b AND a) is
            // then NULL too (never TRUE, and FALSE only if x > b and x < b).
            out.append("CASE WHEN ").append(a).append(" <= ").append(b).append(" THEN ").append(a).append(" WHEN ")
                .append(a).append(" > ").append(b).append(" THEN ").append(b).append(" END AND CASE WHEN ").append(a)
                .append(" <= ").append(b).append(" THEN ").append(b).append(" WHEN ").append(a).append(" > ").append(b)
                .append(" THEN ").append(a).append(" END ");
            i = end;
          }
        } else if (k.is("TIMESTAMPDIFF") && call) {
          int close = Math.min(closing(after), to);
          out.append("CAST(timestampdiff(").append(run(after + 1, close)).append(") AS INT)");
          i = close + 1;
        } else if ((k.is("FLOOR") || k.is("CEIL") || k.is("CEILING")) && call && topLevelWord(after, "TO") >= 0) {
          int close = Math.min(closing(after), to);
          out.append(floorCeil(k.is("FLOOR"), after, close));
          i = close + 1;
        } else if (k.is("STR_TO_MAP") && call) {
          int close = Math.min(closing(after), to);
          List<String> args = arguments(after, close);
          if (args.size() == 1) args.add("','");
          if (args.size() == 2) args.add("'='");
          out.append("str_to_map(").append(String.join(", ", args)).append(')');
          i = close + 1;
        } else if (k.is("LISTAGG") && call) {
          // Flink's separator defaults to ',', Spark's to ''.
          int close = Math.min(closing(after), to);
          List<String> args = arguments(after, close);
          if (args.size() == 1) args.add("','");
          out.append("listagg(").append(String.join(", ", args)).append(')');
          i = close + 1;
        } else if (k.is("COLLECT") && call) {
          // Flink's MULTISET aggregate: Spark's collect_list (of DISTINCT values collect_set) takes
          // FILTER, the session function counts its values (Multisets).
          int close = Math.min(closing(after), to);
          int first = next(after + 1);
          boolean distinct = first < close && t.get(first).is("DISTINCT");
          out.append(Multisets.NAME).append(distinct ? "(collect_set(" : "(collect_list(")
              .append(run(distinct ? first + 1 : after + 1, close).strip()).append(')');
          i = close + 1;
          int filter = next(i);
          int open = filter < to ? next(filter + 1) : to;
          if (filter < to && t.get(filter).is("FILTER") && open < to && t.get(open).sym("(")) {
            int filterClose = Math.min(closing(open), to);
            out.append(" FILTER (").append(run(open + 1, filterClose)).append(')');
            i = filterClose + 1;
          }
          out.append(')');
        } else if (k.is("ARRAY_AGG") && call) {
          // Spark's array_agg (collect_list) RESPECT NULLS unless IGNORE NULLS is asked (inside the
          // call too, as Flink's parser takes it), FILTER before it as Spark's grammar wants; the
          // session function types and finishes it as Flink (ArrayAggregates: DISTINCT, no value).
          int close = Math.min(closing(after), to);
          int first = next(after + 1);
          boolean distinct = first < close && t.get(first).is("DISTINCT");
          int argFrom = distinct ? first + 1 : after + 1;
          int argTo = close;
          String nulls = "RESPECT";
          boolean treated = false;
          int last = previous(close, argFrom);
          int treatment = last > argFrom ? previous(last, argFrom) : -1;
          if (last > argFrom && t.get(last).is("NULLS") && treatment > argFrom
              && (t.get(treatment).is("RESPECT") || t.get(treatment).is("IGNORE"))) {
            nulls = t.get(treatment).upper();
            argTo = treatment;
            treated = true;
          }
          i = close + 1;
          String filter = "";
          for (int clause = 0; clause < 2; clause++) {
            int w = next(i);
            int w2 = w < to ? next(w + 1) : to;
            if (w < to && (t.get(w).is("RESPECT") || t.get(w).is("IGNORE")) && w2 < to && t.get(w2).is("NULLS")) {
              nulls = t.get(w).upper();
              treated = true;
              i = w2 + 1;
            } else if (w < to && t.get(w).is("FILTER") && w2 < to && t.get(w2).sym("(")) {
              int filterClose = Math.min(closing(w2), to);
              filter = " FILTER (" + run(w2 + 1, filterClose) + ")";
              i = filterClose + 1;
            }
          }
          if (treated && !filter.isEmpty()) {
            // As PyFlink 2.3 (measured), which takes RESPECT/IGNORE NULLS for the aggregate call.
            throw new ValidationException("SQL validation failed. FILTER must be applied to aggregate function");
          }
          out.append(distinct ? ArrayAggregates.DISTINCT_NAME : ArrayAggregates.NAME).append("(array_agg(")
              .append(run(argFrom, argTo).strip()).append(')').append(filter).append(' ').append(nulls)
              .append(" NULLS");
          int over = next(i);
          if (over < to && t.get(over).is("OVER")) {
            int spec = next(over + 1);
            int specEnd = spec < to && t.get(spec).sym("(") ? Math.min(closing(spec), to) : spec;
            out.append(" OVER ").append(run(spec, Math.min(specEnd + 1, to)));
            i = Math.min(specEnd + 1, to);
          }
          out.append(')');
        } else if ((k.is("JSON_ARRAYAGG") || k.is("JSON_OBJECTAGG")) && call) {
          int close = Math.min(closing(after), to);
          out.append(jsonAggregate(k.upper(), after, close));
          i = close + 1;
          int filter = next(i);
          if (filter < to && t.get(filter).is("FILTER")) {
            // Flink's grammar has no FILTER clause for these (PyFlink 2.3 measured: a parse error).
            throw new SqlParserException("SQL parse failed. Incorrect syntax near the keyword 'FILTER' after "
                + k.upper() + "(...).");
          }
        } else if (k.is("CURRENT_WATERMARK") && call) {
          // The session's function (streaming.CurrentWatermark), which checks the rowtime argument.
          out.append(CurrentWatermark.SQL_NAME);
          i = after;
        } else if (k.is("SIMILAR") && after < to && t.get(after).is("TO")) {
          throw TableException.unsupported("SIMILAR TO in SQL (use LIKE or REGEXP)");
        } else if (k.is("FETCH") && after < to && (t.get(after).is("FIRST") || t.get(after).is("NEXT"))) {
          int[] limit = fetch(after, to);
          out.append("LIMIT ").append(t.get(limit[0]).text);
          i = limit[1];
        } else if (k.is("OFFSET") && after < to && t.get(after).kind == Kind.NUMBER) {
          int rows = next(after + 1);
          int resume = after + 1;
          if (rows < to && (t.get(rows).is("ROW") || t.get(rows).is("ROWS"))) resume = rows + 1;
          int f = next(resume);
          if (f < to && t.get(f).is("FETCH")) {
            // Spark wants LIMIT before OFFSET.
            int[] limit = fetch(next(f + 1), to);
            out.append("LIMIT ").append(t.get(limit[0]).text).append(" OFFSET ").append(t.get(after).text);
            i = limit[1];
          } else {
            out.append("OFFSET ").append(t.get(after).text);
            i = resume;
          }
        } else if (k.is("REGEXP_EXTRACT") && call) {
          // Flink: NULL when nothing matches (Spark: '').
          int close = Math.min(closing(after), to);
          List<String> args = arguments(after, close);
          if (args.size() == 2) args.add("0"); // Flink's default is the whole match
          out.append("try_element_at(regexp_extract_all(").append(String.join(", ", args)).append("), 1)");
          i = close + 1;
        } else if (k.is("SPLIT_INDEX") && call) {
          int close = Math.min(closing(after), to);
          List<int[]> ranges = argumentRanges(after, close);
          if (ranges.size() != 3) throw TableException.unsupported("SPLIT_INDEX with " + ranges.size() + " arguments");
          int[] d = ranges.get(1);
          int dTok = next(d[0]);
          String separator = dTok < d[1] && t.get(dTok).kind == Kind.STRING && next(dTok + 1) >= d[1]
              ? sparkString(Pattern.quote(flinkStringValue(t.get(dTok).text)))
              : "concat('\\\\Q', " + run(d[0], d[1]).strip() + ", '\\\\E')";
          String index = run(ranges.get(2)[0], ranges.get(2)[1]).strip();
          out.append("try_element_at(split(").append(run(ranges.get(0)[0], ranges.get(0)[1]).strip()).append(", ")
              .append(separator).append(", -1), CASE WHEN (").append(index).append(") >= 0 THEN (")
              .append(index).append(") + 1 END)");
          i = close + 1;
        } else {
          out.append(k.text);
          i++;
          boolean operand = k.kind == Kind.NUMBER || k.kind == Kind.WORD || k.kind == Kind.QUOTED;
          primaryStart = operand ? before : -1;
          wordStart = k.kind == Kind.WORD ? before : -1;
          continue;
        }
        // A handled construct: one whole expression, unless it was a bare function name
        // whose argument list follows (then '(' records the start).
        if (i == after && after < to && t.get(after).sym("(")) {
          wordStart = before;
          primaryStart = -1;
        } else {
          primaryStart = before;
        }
      }
      return out.toString();
    }

    /** Token ranges [start, end) of the top-level arguments of the call whose '(' is at open. */
    List<int[]> argumentRanges(int open, int close) {
      List<int[]> ranges = new ArrayList<>();
      int depth = 0;
      int start = open + 1;
      for (int i = open + 1; i < close; i++) {
        Token k = t.get(i);
        if (k.sym("(") || k.sym("[")) depth++;
        if (k.sym(")") || k.sym("]")) depth--;
        if (depth == 0 && k.sym(",")) {
          ranges.add(new int[] {start, i});
          start = i + 1;
        }
      }
      if (close > start) ranges.add(new int[] {start, close});
      return ranges;
    }

    /** FETCH FIRST|NEXT n ROW|ROWS ONLY starting at the FIRST/NEXT word: {count index, resume index}. */
    int[] fetch(int firstOrNext, int to) {
      int count = next(firstOrNext + 1);
      if (count >= to || t.get(count).kind != Kind.NUMBER) {
        throw TableException.unsupported("FETCH FIRST without a row count");
      }
      int i = next(count + 1);
      if (i < to && (t.get(i).is("ROW") || t.get(i).is("ROWS"))) i = next(i + 1);
      if (i < to && t.get(i).is("ONLY")) i++;
      return new int[] {count, i};
    }

    /** Whether the token before {@code i} (spaces skipped, not before {@code from}) is {@code word}. */
    boolean previousWord(int i, int from, String word) {
      int prev = i - 1;
      while (prev >= from && t.get(prev).kind == Kind.SPACE) prev--;
      return prev >= from && t.get(prev).is(word);
    }

    /** The AND ending a BETWEEN's lower bound that starts at {@code from} (outside brackets and CASE). */
    int betweenAnd(int from, int to) {
      int depth = 0;
      for (int i = from; i < to; i++) {
        Token k = t.get(i);
        if (k.sym("(") || k.sym("[") || k.is("CASE")) depth++;
        if (k.sym(")") || k.sym("]") || k.is("END")) depth--;
        if (depth == 0 && k.is("AND")) return i;
      }
      throw new SqlParserException("SQL parse failed. BETWEEN SYMMETRIC without AND.");
    }

    /**
     * Where a BETWEEN's upper bound starting at {@code from} ends: at a logical or comparison operator,
     * a CASE's or a clause's next word or a closing bracket or comma (BETWEEN binds tighter than them).
     */
    int betweenEnd(int from, int to) {
      int depth = 0;
      for (int i = from; i < to; i++) {
        Token k = t.get(i);
        if (depth == 0 && (k.sym(")") || k.sym("]") || k.sym(",") || k.sym(";") || k.sym("=") || k.sym("<")
            || k.sym(">") || k.sym("!") || (k.kind == Kind.WORD && BETWEEN_ENDS.contains(k.upper())))) {
          return i;
        }
        if (k.sym("(") || k.sym("[") || k.is("CASE")) depth++;
        if (k.sym(")") || k.sym("]") || k.is("END")) depth--;
      }
      return to;
    }

    /** Index of a word at bracket depth 1 inside the call whose '(' is at open, or -1. */
    int topLevelWord(int open, String word) {
      int close = closing(open);
      int depth = 0;
      int found = -1;
      for (int i = open; i < close && i < t.size(); i++) {
        if (t.get(i).sym("(") || t.get(i).sym("[")) depth++;
        if (t.get(i).sym(")") || t.get(i).sym("]")) depth--;
        if (depth == 1 && t.get(i).is(word)) found = i; // the last one: "CAST(a AS b)" has one
      }
      return found;
    }

    /**
     * Flink's {@code JSON_ARRAYAGG(v [NULL|ABSENT ON NULL])} or {@code JSON_OBJECTAGG([KEY] k VALUE|: v
     * [NULL|ABSENT ON NULL])} (call's '(' at open) as {@link JsonAggregates}' session function over
     * Spark's collect_list of the row's struct; ABSENT ON NULL is JSON_ARRAYAGG's default, NULL ON
     * NULL JSON_OBJECTAGG's.
     */
    String jsonAggregate(String function, int open, int close) {
      List<Integer> top = new ArrayList<>();
      int depth = 0;
      for (int i = open + 1; i < close; i++) {
        Token k = t.get(i);
        if (k.sym("(") || k.sym("[")) depth++;
        if (k.sym(")") || k.sym("]")) depth--;
        if (depth == 0 && k.kind != Kind.SPACE) top.add(i);
      }
      if (!top.isEmpty() && t.get(top.get(0)).is("DISTINCT")) {
        // Flink's grammar has no DISTINCT here (PyFlink 2.3 measured: a parse error).
        throw new SqlParserException("SQL parse failed. Incorrect syntax near the keyword 'DISTINCT' in " + function
            + "(...).");
      }
      for (int i : top) {
        if (t.get(i).is("ORDER")) throw TableException.unsupported(function + "(... ORDER BY ...)");
      }
      boolean object = function.equals("JSON_OBJECTAGG");
      String onNull = object ? "NULL" : "ABSENT";
      int end = close;
      int n = top.size();
      if (n >= 4 && t.get(top.get(n - 2)).is("ON") && t.get(top.get(n - 1)).is("NULL")
          && (t.get(top.get(n - 3)).is("NULL") || t.get(top.get(n - 3)).is("ABSENT"))) {
        onNull = t.get(top.get(n - 3)).upper();
        end = top.get(n - 3);
      }
      boolean absent = onNull.equals("ABSENT");
      String struct;
      if (object) {
        int separator = -1;
        for (int i : top) {
          if (i < end && (t.get(i).is("VALUE") || t.get(i).sym(":"))) {
            separator = i;
            break;
          }
        }
        if (separator < 0) {
          throw new SqlParserException("SQL parse failed. JSON_OBJECTAGG takes KEY k VALUE v (or k : v).");
        }
        int keyStart = top.get(0) < separator && t.get(top.get(0)).is("KEY") ? top.get(0) + 1 : open + 1;
        struct = "named_struct('" + JsonAggregates.KEY + "', " + run(keyStart, separator).strip() + ", '"
            + JsonAggregates.valueField(absent) + "', " + run(separator + 1, end).strip() + ")";
      } else {
        struct = "named_struct('" + JsonAggregates.valueField(absent) + "', " + run(open + 1, end).strip() + ")";
      }
      return (object ? JsonAggregates.OBJECT_NAME : JsonAggregates.ARRAY_NAME) + "(collect_list(" + struct + "), '"
          + onNull + "')";
    }

    /** Rewritten top-level comma-separated arguments of the call whose '(' is at open. */
    List<String> arguments(int open, int close) {
      List<String> args = new ArrayList<>();
      for (int[] r : argumentRanges(open, close)) args.add(run(r[0], r[1]).strip());
      return args;
    }

    String floorCeil(boolean floor, int open, int close) {
      int to = topLevelWord(open, "TO");
      String value = run(open + 1, to).strip();
      String unit = run(to + 1, close).strip().toUpperCase(Locale.ROOT);
      if (!unit.matches("YEAR|QUARTER|MONTH|WEEK|DAY|HOUR|MINUTE|SECOND|MILLISECOND")) {
        throw TableException.unsupported((floor ? "FLOOR" : "CEIL") + "(... TO " + unit + ")");
      }
      // Wall-clock truncation; CEIL = the next boundary unless already on one.
      String step = unit.equals("QUARTER") ? "3 MONTH" : unit.equals("WEEK") ? "7 DAY" : "1 " + unit;
      String shifted = floor ? value : "(" + value + ") + INTERVAL " + step + " - INTERVAL 1 MICROSECOND";
      return "CAST(date_trunc('" + unit + "', " + shifted + ") AS TIMESTAMP_NTZ)";
    }

    /** CAST/TRY_CAST(expr AS flinkType) with the type in Spark's words. */
    String cast(String fn, int open, int close) {
      int as = topLevelWord(open, "AS");
      if (as < 0) return fn + "(" + run(open + 1, close) + ")";
      String value = run(open + 1, as).strip();
      StringBuilder typeText = new StringBuilder();
      for (int i = next(as + 1); i < close; i++) typeText.append(t.get(i).text);
      FlinkTypes.Parsed type;
      try {
        type = FlinkTypes.parseSql(typeText.toString());
      } catch (RuntimeException e) {
        // A type we do not understand: hand the original to Spark, whose error names it.
        return fn + "(" + value + " AS " + run(next(as + 1), close) + ")";
      }
      if (type.spark() instanceof DayTimeIntervalType || type.spark() instanceof YearMonthIntervalType) {
        // Spark reads Flink's interval qualifiers as they are; its own type would widen them.
        return fn + "(" + value + " AS " + run(next(as + 1), close) + ")";
      }
      String sparkType = sparkSql(type.spark());
      String converted = fn + "(" + value + " AS " + sparkType + ")";
      Matcher sized = Pattern.compile("^(CHAR|VARCHAR|TIMESTAMP|TIMESTAMP_LTZ)\\((\\d+)\\)$")
          .matcher(type.flink());
      if (!sized.matches()) return converted;
      String size = sized.group(2);
      switch (sized.group(1)) {
        case "CHAR":
          return "rpad(" + converted + ", " + size + ", ' ')";
        case "VARCHAR":
          return "substring(" + converted + ", 1, " + size + ")"; // VARCHAR(n) keeps n characters
        default: {
          // Spark's date_trunc unit that drops the digits a TIMESTAMP(p) does not keep (p = 0 or 3);
          // 6 is Spark's own; other precisions are TimestampPrecision's (7 to 9 keep microseconds).
          // Lower case: how withFlinkStringCasts tells this cast's precision from FLOOR(.. TO SECOND).
          String unit = size.equals("0") ? CAST_SECOND : size.equals("3") ? CAST_MILLISECOND : null;
          if (unit != null) return "CAST(date_trunc('" + unit + "', " + converted + ") AS " + sparkType + ")";
          return size.equals("6") ? converted : TimestampPrecision.NAME + "(" + converted + ", " + size + ")";
        }
      }
    }
  }

  /** A Spark type in Spark SQL's words; TIMESTAMP_LTZ spelled out (plain TIMESTAMP follows a session setting). */
  static String sparkSql(DataType type) {
    if (type instanceof TimestampType) return "TIMESTAMP_LTZ";
    if (type instanceof ArrayType) return "ARRAY<" + sparkSql(((ArrayType) type).elementType()) + ">";
    if (type instanceof MapType) {
      MapType m = (MapType) type;
      return "MAP<" + sparkSql(m.keyType()) + ", " + sparkSql(m.valueType()) + ">";
    }
    if (type instanceof StructType) {
      List<String> fields = new ArrayList<>();
      for (StructField f : ((StructType) type).fields()) {
        fields.add("`" + f.name().replace("`", "``") + "`: " + sparkSql(f.dataType()));
      }
      return "STRUCT<" + String.join(", ", fields) + ">";
    }
    return type.sql();
  }

  /** The number of fractional-second digits a timestamp literal's text writes. */
  private static int fractionDigits(String timestamp) {
    Matcher m = Pattern.compile(":\\d+\\.(\\d*)\\s*$").matcher(timestamp);
    return m.find() ? m.group(1).length() : 0;
  }

  /** The value of a Flink string literal: a doubled quote is a quote, nothing else escapes. */
  private static String flinkStringValue(String literal) {
    String body = literal.length() >= 2 ? literal.substring(1, literal.length() - 1) : literal.substring(1);
    return body.replace("''", "'");
  }

  /** The value of a U&'...' literal: backslash + 4 hex digits (or +6 after '+') is a code point. */
  private static String unicodeValue(String literal) {
    String body = flinkStringValue(literal);
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      if (c == '\\' && i + 1 < body.length() && body.charAt(i + 1) == '\\') {
        out.append('\\');
        i++;
      } else if (c == '\\' && i + 1 < body.length() && body.charAt(i + 1) == '+' && i + 8 <= body.length()) {
        out.appendCodePoint(Integer.parseInt(body.substring(i + 2, i + 8), 16));
        i += 7;
      } else if (c == '\\' && i + 5 <= body.length()) {
        out.append((char) Integer.parseInt(body.substring(i + 1, i + 5), 16));
        i += 4;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /** A Spark SQL literal whose value is exactly {@code value} (Spark reads backslash escapes). */
  private static String sparkString(String value) {
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }

  // ---------------------------------------------------------------- result types

  /**
   * The query with Flink's names for its unnamed select items: Flink (Calcite) names an expression
   * that is neither a column nor aliased {@code EXPR$<position>}, its position in the select list
   * with {@code *} expanded, where Spark names it by its text ({@code (a + 1)}, or {@code c[(1 - 1)]}
   * after the array-index rewrite). The parsed plan's top select list is renamed and analyzed again,
   * so the plan keeps its shape; a list with more than one {@code *} keeps Spark's names.
   */
  public static Dataset<Row> withFlinkColumnNames(Dataset<Row> ds) {
    LogicalPlan named = withFlinkNames(ds.queryExecution().logical(), ds.columns().length);
    if (named == null) return ds;
    SparkSession spark = (SparkSession) ds.sparkSession();
    return Dataset$.MODULE$.ofRows(spark, named);
  }

  /**
   * The parsed query without the {@code ORDER BY} of its sub-queries (a sort without {@code LIMIT}
   * or {@code OFFSET} below the query's top: a FROM sub-query, a set operation's input), which
   * Calcite drops as Flink converts SQL (its {@code removeSortInSubQuery}): over an unbounded
   * source the rows of {@code (SELECT * FROM ev ORDER BY ts)} come as they arrive, below a filter
   * or an aggregation (measured on PyFlink 2.3). The query's own {@code ORDER BY} stays.
   */
  public static LogicalPlan withoutSubquerySorts(LogicalPlan parsed) {
    if (parsed instanceof UnresolvedWith) return withoutCteSorts((UnresolvedWith) parsed, true);
    if (parsed instanceof GlobalLimit || parsed instanceof LocalLimit || parsed instanceof Offset
        || parsed instanceof Sort) {
      // The query's top: its ORDER BY (under its LIMIT) stays; its inputs are sub-queries.
      boolean top = !(parsed instanceof Sort);
      return ScalaInterop.mapChildren(parsed, c -> top ? withoutSubquerySorts(c) : withoutSorts(c));
    }
    return withoutSorts(parsed);
  }

  /** {@code p} without the sorts of its sub-queries (a sort with a LIMIT or OFFSET above it stays). */
  private static LogicalPlan withoutSorts(LogicalPlan p) {
    if (p instanceof Sort && ((Sort) p).global()) return withoutSorts(((Sort) p).child());
    if (p instanceof GlobalLimit || p instanceof LocalLimit || p instanceof Offset) return withoutSubquerySorts(p);
    if (p instanceof UnresolvedWith) return withoutCteSorts((UnresolvedWith) p, false);
    return ScalaInterop.mapChildren(p, FlinkSqlDialect::withoutSorts);
  }

  /** {@code w} without the sorts of its common table expressions (sub-queries) and of its body below its top. */
  private static LogicalPlan withoutCteSorts(UnresolvedWith w, boolean top) {
    // Common table expressions are inner children, which mapChildren does not visit.
    List<scala.Tuple3<String, SubqueryAlias, Option<Object>>> ctes = new ArrayList<>();
    boolean changed = false;
    for (scala.Tuple3<String, SubqueryAlias, Option<Object>> c : ScalaInterop.list(w.cteRelations())) {
      LogicalPlan query = withoutSorts(c._2());
      changed |= query != c._2();
      ctes.add(new scala.Tuple3<>(c._1(), (SubqueryAlias) query, c._3()));
    }
    LogicalPlan body = top ? withoutSubquerySorts(w.child()) : withoutSorts(w.child());
    if (!changed && body == w.child()) return w;
    return w.copy(body, ScalaInterop.seq(ctes), w.allowRecursion());
  }

  /**
   * {@code ds} with each repeated column name made unique as Flink's SQL validator does (Calcite's
   * uniquify: the first free of name0, name1, ..., measured on PyFlink 2.3: {@code SELECT a.*, b.*,
   * b.k} over two tables (k, v) gives k, v, k0, v0, k1); {@code ds} itself when no name repeats.
   */
  public static Dataset<Row> withUniqueColumnNames(Dataset<Row> ds) {
    String[] names = ds.columns();
    java.util.Set<String> used = new java.util.HashSet<>();
    String[] unique = new String[names.length];
    boolean changed = false;
    for (int i = 0; i < names.length; i++) {
      String name = names[i];
      for (int j = 0; !used.add(name); j++) name = names[i] + j;
      unique[i] = name;
      changed |= !name.equals(names[i]);
    }
    return changed ? ds.toDF(unique) : ds;
  }

  /**
   * {@code p} with its select lists named as Flink names them (those of sub-queries too, whose
   * names an outer query sees); null when nothing changes. {@code width} is the number of output
   * columns of {@code p}, or -1 when unknown (a list with {@code *} is then left as it is).
   */
  private static LogicalPlan withFlinkNames(LogicalPlan p, int width) {
    // The select list sits below ORDER BY, LIMIT, DISTINCT, HAVING and WITH; a set operation takes
    // its names from its first input.
    boolean above = p instanceof Sort || p instanceof GlobalLimit || p instanceof LocalLimit || p instanceof Offset
        || p instanceof Distinct || p instanceof Filter || p instanceof UnresolvedHaving || p instanceof UnresolvedWith
        || p instanceof WithWindowDefinition || p instanceof Union || p instanceof SetOperation;
    List<LogicalPlan> children = new ArrayList<>(ScalaInterop.list(p.children()));
    boolean changed = false;
    for (int i = 0; i < children.size(); i++) {
      LogicalPlan child = withFlinkNames(children.get(i), above && i == 0 ? width : -1);
      if (child != null) {
        children.set(i, child);
        changed = true;
      }
    }
    LogicalPlan q = changed ? p.withNewChildren(ScalaInterop.seq(children)) : p;
    if (q instanceof Project) {
      List<NamedExpression> items = flinkNamed(ScalaInterop.list(((Project) q).projectList()), width);
      if (items != null) return new Project(ScalaInterop.seq(items), ((Project) q).child());
    }
    if (q instanceof Aggregate) {
      Aggregate a = (Aggregate) q;
      List<NamedExpression> items = flinkNamed(ScalaInterop.list(a.aggregateExpressions()), width);
      if (items != null) return new Aggregate(a.groupingExpressions(), ScalaInterop.seq(items), a.child(), a.hint());
    }
    return changed ? q : null;
  }

  /** The select items with {@code EXPR$<position>} aliases on unnamed expressions; null when none is unnamed. */
  private static List<NamedExpression> flinkNamed(List<NamedExpression> items, int width) {
    int stars = 0;
    for (NamedExpression e : items) if (e instanceof Star) stars++;
    if (stars > 1 || stars == 1 && width < 0) return null;
    int starWidth = width - (items.size() - stars);
    List<NamedExpression> out = new ArrayList<>();
    boolean changed = false;
    int position = 0;
    for (NamedExpression e : items) {
      if (e instanceof Star) {
        out.add(e);
        position += starWidth;
        continue;
      }
      if (e instanceof UnresolvedAlias) {
        String niladic = niladicName(((UnresolvedAlias) e).child());
        out.add(new Alias(((UnresolvedAlias) e).child(), niladic != null ? niladic : "EXPR$" + position, NamedExpression$.MODULE$.newExprId(),
            ScalaInterop.seq(List.of()), Option.empty(), ScalaInterop.seq(List.of())));
        changed = true;
      } else {
        out.add(e);
      }
      position++;
    }
    return changed ? out : null;
  }

  /**
   * Flink's name of a select item that is a bare current-time keyword ({@code CURRENT_TIMESTAMP},
   * {@code CURRENT_DATE}, {@code CURRENT_TIME}, {@code LOCALTIME}, {@code LOCALTIMESTAMP}), as the
   * text rewrite spells it; null for anything else ({@code NOW()} is {@code EXPR$n} in Flink too).
   */
  private static String niladicName(Expression e) {
    if (e instanceof CurrentDate) return "CURRENT_DATE";
    boolean local = e instanceof Cast; // LOCALTIMESTAMP's CAST(timestamp_millis(..) AS TIMESTAMP_NTZ)
    if (local) e = ((Cast) e).child();
    List<Expression> args = called(e, "current_time", "localtime");
    if (!local && args != null && args.size() == 1 && args.get(0) instanceof Literal) {
      return ((UnresolvedFunction) e).nameParts().last().toUpperCase(Locale.ROOT);
    }
    args = called(e, "timestamp_millis");
    args = args != null && args.size() == 1 ? called(args.get(0), "unix_millis") : null;
    if (args == null || args.size() != 1) return null;
    Expression time = args.get(0);
    if (!local && time instanceof CurrentTimestamp) return "CURRENT_TIMESTAMP";
    if (local && time instanceof Cast) {
      List<Expression> none = called(((Cast) time).child(), "localtimestamp");
      if (none != null && none.isEmpty()) return "LOCALTIMESTAMP";
    }
    return null;
  }

  /** The arguments of {@code e} when it is a call of one of {@code names} in the parsed plan; else null. */
  private static List<Expression> called(Expression e, String... names) {
    if (!(e instanceof UnresolvedFunction)) return null;
    String name = ((UnresolvedFunction) e).nameParts().last();
    for (String n : names) if (n.equalsIgnoreCase(name)) return ScalaInterop.list(((UnresolvedFunction) e).arguments());
    return null;
  }

  /** The date_trunc units of the TIMESTAMP(0) and TIMESTAMP(3) casts the text rewrite writes. */
  private static final String CAST_SECOND = "second";
  private static final String CAST_MILLISECOND = "millisecond";

  /**
   * The query with each CAST to STRING (VARCHAR, CHAR) of a value whose text Spark writes other
   * than Flink (a timestamp, BOOLEAN, ARRAY, MAP, ROW, ...) computed as the Table API's cast
   * computes it ({@link StringCast}); the value's Flink type, which carries timestamp precisions
   * Spark's types lack, is {@link #flinkTypeOf}.
   */
  public static Dataset<Row> withFlinkStringCasts(Dataset<Row> ds) {
    LogicalPlan plan = ds.queryExecution().analyzed();
    Map<Object, Expression> defined = new HashMap<>();
    aliases(plan, defined);
    boolean[] changed = {false};
    PartialFunction<Expression, Expression> flinkText = new AbstractPartialFunction<>() {
      @Override
      public boolean isDefinedAt(Expression e) {
        return e instanceof Cast && e.dataType() instanceof StringType && StringCast.differs(((Cast) e).child().dataType());
      }

      @Override
      public <A1 extends Expression, B1> B1 applyOrElse(A1 e, Function1<A1, B1> otherwise) {
        if (!isDefinedAt(e)) return otherwise.apply(e);
        changed[0] = true;
        Expression child = ((Cast) e).child();
        Column text = StringCast.of(ExpressionUtils.column(child), child.dataType(), flinkTypeOf(child, defined, 0));
        Expression written = ColumnNodeToExpressionConverter$.MODULE$.apply(text.node());
        @SuppressWarnings("unchecked")
        B1 result = (B1) (child.nullable() ? written : new KnownNotNull(written)); // as nullable as the cast
        return result;
      }
    };
    LogicalPlan rewritten = outsideViews(plan, flinkText);
    if (!changed[0]) return ds;
    return Dataset$.MODULE$.ofRows((SparkSession) ds.sparkSession(), rewritten);
  }

  /**
   * The query with each CARDINALITY (Spark's size) of a MULTISET (COLLECT's map from value to
   * count, also through a subquery's or a table's column) counting every occurrence, as Flink's
   * Table API counts (PyFlink 2.3's SQL fails there: CodeGenException), not the distinct values.
   */
  public static Dataset<Row> withMultisetCardinality(Dataset<Row> ds) {
    LogicalPlan plan = ds.queryExecution().analyzed();
    Map<Object, Expression> defined = new HashMap<>();
    aliases(plan, defined);
    boolean[] changed = {false};
    PartialFunction<Expression, Expression> counted = new AbstractPartialFunction<>() {
      @Override
      public boolean isDefinedAt(Expression e) {
        return e instanceof Size && multiset(((Size) e).child(), defined, 0);
      }

      @Override
      public <A1 extends Expression, B1> B1 applyOrElse(A1 e, Function1<A1, B1> otherwise) {
        if (!isDefinedAt(e)) return otherwise.apply(e);
        changed[0] = true;
        Column n = Multisets.cardinality(ExpressionUtils.column(((Size) e).child()));
        @SuppressWarnings("unchecked")
        B1 result = (B1) ColumnNodeToExpressionConverter$.MODULE$.apply(n.node());
        return result;
      }
    };
    LogicalPlan rewritten = plan.transformUp(ScalaInterop.everywhere((LogicalPlan p) -> p.transformExpressionsUp(counted)));
    if (!changed[0]) return ds;
    return Dataset$.MODULE$.ofRows((SparkSession) ds.sparkSession(), rewritten);
  }

  /** Whether {@code e} is a MULTISET: COLLECT's map ({@link Multisets}), or a column recorded or defined as one. */
  private static boolean multiset(Expression e, Map<Object, Expression> defined, int depth) {
    if (depth > 64) return false;
    if (Multisets.flinkType(e) != null) return true;
    if (!(e instanceof Attribute a)) return false;
    if (a.metadata().contains(FlinkTypes.METADATA_KEY)) {
      return a.metadata().getString(FlinkTypes.METADATA_KEY).startsWith("MULTISET<");
    }
    Expression d = defined.get(a.exprId());
    return d != null && multiset(d, defined, depth + 1);
  }

  /**
   * The query's own expressions rewritten, those of the tables it reads left alone: a registered
   * table's plan (a View) is the Table API's or an earlier SQL query's, already in Flink's terms.
   * A CONCAT (or ||) the query applies to a non-string is refused as Flink refuses it (Spark casts
   * it to STRING).
   */
  private static LogicalPlan outsideViews(LogicalPlan p, PartialFunction<Expression, Expression> rewrite) {
    if (p instanceof View) return p;
    for (Expression e : ScalaInterop.list(p.expressions())) checkConcat(e);
    return ScalaInterop.mapChildren(p, c -> outsideViews(c, rewrite)).transformExpressionsUp(rewrite);
  }

  private static void checkConcat(Expression e) {
    if (e instanceof Concat || e instanceof ConcatWs) {
      for (Expression arg : ScalaInterop.list(e.children())) {
        if (arg instanceof Cast && arg.dataType() instanceof StringType
            && arg.getTagValue(Cast$.MODULE$.USER_SPECIFIED_CAST()).isEmpty()
            && !(((Cast) arg).child().dataType() instanceof StringType)) {
          String name = e instanceof Concat ? "'CONCAT' (or '||')" : "'CONCAT_WS'";
          throw new ValidationException("SQL validation failed. Cannot apply " + name + " to an argument of type "
              + FlinkTypes.fromSpark(((Cast) arg).child().dataType()) + "; it takes strings (CAST the argument AS STRING).");
        }
      }
    }
    for (Expression c : ScalaInterop.list(e.children())) checkConcat(c);
  }

  /** Every alias of the plan by the id of the attribute it defines. */
  private static void aliases(LogicalPlan p, Map<Object, Expression> defined) {
    aliasesOfNode(p, defined);
    for (LogicalPlan c : ScalaInterop.list(p.children())) aliases(c, defined);
  }

  /** The aliases of {@code p}'s own expressions (not its children's). */
  private static void aliasesOfNode(LogicalPlan p, Map<Object, Expression> defined) {
    if (p instanceof Expand) {
      // A sliding window's rows: each output column as the first projection computes it (its type
      // is the same in every projection).
      List<Attribute> out = ScalaInterop.list(p.output());
      List<Expression> first = ScalaInterop.list(((Expand) p).projections().head());
      for (int i = 0; i < out.size() && i < first.size(); i++) {
        if (!(first.get(i) instanceof Attribute)) defined.putIfAbsent(out.get(i).exprId(), first.get(i));
      }
    }
    for (Expression e : ScalaInterop.list(p.expressions())) aliases(e, defined);
  }

  private static void aliases(Expression e, Map<Object, Expression> defined) {
    // An alias of the attribute itself (a plan rewrite keeping a column's id) defines nothing.
    if (e instanceof Alias a && !(a.child() instanceof Attribute c && c.exprId().equals(a.exprId()))) {
      defined.putIfAbsent(a.exprId(), a.child());
    }
    for (Expression c : ScalaInterop.list(e.children())) aliases(c, defined);
  }

  /**
   * The Flink type of a resolved expression where it says more than Spark's type (timestamp
   * precisions, also inside ARRAY, MAP and ROW values), else null: a column's recorded type, the
   * precision the text rewrite gave a TIMESTAMP(0)/(3) cast, TO_TIMESTAMP's and the current time's
   * 3 (measured on PyFlink 2.3), a literal's digits (a TIME literal's too); other expressions keep their timestamp
   * arguments' precision.
   */
  private static String flinkTypeOf(Expression e, Map<Object, Expression> defined, int depth) {
    if (depth > 64) return null;
    if (e instanceof Attribute) {
      Attribute a = (Attribute) e;
      if (a.metadata().contains(FlinkTypes.METADATA_KEY)) {
        return FlinkTypes.fromSparkField(new StructField(a.name(), a.dataType(), a.nullable(), a.metadata()));
      }
      Expression d = defined.get(a.exprId());
      return d == null ? null : flinkTypeOf(d, defined, depth + 1);
    }
    String ltz = ToTimestampLtz.flinkType(e);
    if (ltz != null) return ltz;
    DataType t = e.dataType();
    if (t instanceof TimestampNTZType || t instanceof TimestampType) {
      Integer p = timestampPrecision(e, defined, depth);
      return p == null ? null : (t instanceof TimestampType ? "TIMESTAMP_LTZ(" : "TIMESTAMP(") + p + ")";
    }
    // Spark types a TIME literal TIME(6), Flink by the digits written: whether any is matters.
    if (t instanceof TimeType && e instanceof Literal && ((Literal) e).value() instanceof Long) {
      return (Long) ((Literal) e).value() % 1_000_000_000L == 0 ? "TIME(0)" : "TIME(3)";
    }
    List<Expression> c = ScalaInterop.list(e.children());
    if (e instanceof CreateArray && !c.isEmpty()) return "ARRAY<" + partType(c.get(0), defined, depth) + ">";
    if (e instanceof CreateMap && c.size() >= 2) {
      return "MAP<" + partType(c.get(0), defined, depth) + ", " + partType(c.get(1), defined, depth) + ">";
    }
    if (e instanceof CreateNamedStruct) {
      StructField[] fields = ((StructType) t).fields();
      List<String> parts = new ArrayList<>();
      for (int i = 0; i < fields.length; i++) {
        parts.add("`" + fields[i].name().replace("`", "``") + "` " + partType(c.get(2 * i + 1), defined, depth));
      }
      return "ROW<" + String.join(", ", parts) + ">";
    }
    return null;
  }

  private static String partType(Expression e, Map<Object, Expression> defined, int depth) {
    String known = flinkTypeOf(e, defined, depth + 1);
    return known != null ? known : FlinkTypes.fromSpark(e.dataType());
  }

  /** The precision of a timestamp-typed expression as {@link #flinkTypeOf} describes; null when unknown. */
  private static Integer timestampPrecision(Expression e, Map<Object, Expression> defined, int depth) {
    Integer recorded = TimestampPrecision.of(e);
    if (recorded != null) return recorded;
    if (e instanceof Literal) {
      Object v = ((Literal) e).value();
      if (!(v instanceof Long)) return null;
      String micros = String.format("%06d", Math.floorMod((Long) v, 1_000_000L)).replaceAll("0+$", "");
      return micros.length();
    }
    if (e instanceof CurrentTimestamp || e instanceof Now || e instanceof LocalTimestamp) return 3;
    if (e instanceof MillisToTimestamp) return 3; // timestamp_millis: also the current times' rewrite
    if (e instanceof Cast) {
      Expression child = ((Cast) e).child();
      if (child instanceof TruncTimestamp && ((TruncTimestamp) child).format() instanceof Literal) {
        String unit = String.valueOf(((Literal) ((TruncTimestamp) child).format()).value());
        if (unit.equals(CAST_SECOND)) return 0;
        if (unit.equals(CAST_MILLISECOND)) return 3;
        return timestampPrecision(child, defined, depth + 1); // FLOOR/CEIL(ts TO unit) keeps ts's precision
      }
      if (child instanceof ParseToTimestamp) return 3; // TO_TIMESTAMP's rewrite
      if (child instanceof MillisToTimestamp) return 3; // LOCALTIMESTAMP's rewrite
      // CAST(x AS TIMESTAMP[(6)]) is TIMESTAMP(6); a cast Spark added keeps its argument's precision.
      if (e.getTagValue(Cast$.MODULE$.USER_SPECIFIED_CAST()).isDefined()) return 6;
    }
    return timestampsRead(e, defined, depth);
  }

  /**
   * The largest precision of the timestamps {@code e} computes from: its timestamp-typed children,
   * or, through values of other types (a window's bounds are arithmetic over the rowtime's
   * microseconds), the nearest timestamp-typed descendants; null when it reads none.
   */
  private static Integer timestampsRead(Expression e, Map<Object, Expression> defined, int depth) {
    Integer max = null;
    for (Expression c : ScalaInterop.list(e.children())) {
      Integer p;
      if (c.dataType() instanceof TimestampNTZType || c.dataType() instanceof TimestampType) {
        String known = flinkTypeOf(c, defined, depth + 1);
        p = known == null ? 6 : Integer.parseInt(known.substring(known.indexOf('(') + 1, known.indexOf(')')));
      } else if (depth > 64) {
        p = null;
      } else {
        // A struct column (a window) is read through the expression that defines it.
        Expression next = c;
        for (int hops = 0; hops < 64 && next instanceof Attribute && defined.containsKey(((Attribute) next).exprId()); hops++) {
          next = defined.get(((Attribute) next).exprId());
        }
        p = timestampsRead(next, defined, depth + 1);
      }
      if (p != null) max = max == null ? p : Math.max(max, p);
    }
    return max;
  }

  /**
   * The query with Flink's result types on output columns that are an aggregate or an integer
   * division Spark types wider: SUM/AVG of INT is INT in Flink (BIGINT/DOUBLE in Spark), INT / INT
   * is INT. Only columns whose value reaches the output unchanged (through projections, filters,
   * sorts and limits) are retyped, which keeps the cast exact.
   */
  public static Dataset<Row> withFlinkResultTypes(Dataset<Row> ds) {
    return withFlinkResultTypes(ds, false);
  }

  /**
   * As above; with {@code throughOverWindows} the aggregates of over windows (a Window node) are
   * typed too (streaming mode, where the over processor computes them with Flink's semantics).
   */
  public static Dataset<Row> withFlinkResultTypes(Dataset<Row> ds, boolean throughOverWindows) {
    ds = withIntegerDivision(ds);
    ds = withNestedFlinkTypes(ds, throughOverWindows);
    LogicalPlan plan = ds.queryExecution().analyzed();
    Map<Object, Expression> defined = new HashMap<>();
    LogicalPlan node = plan;
    while (true) {
      List<NamedExpression> named = null;
      if (node instanceof Project) named = ScalaInterop.list(((Project) node).projectList());
      if (node instanceof Aggregate) named = ScalaInterop.list(((Aggregate) node).aggregateExpressions());
      if (throughOverWindows && node instanceof Window) named = ScalaInterop.list(((Window) node).windowExpressions());
      if (named != null) {
        for (NamedExpression e : named) {
          if (e instanceof Alias) defined.putIfAbsent(e.exprId(), ((Alias) e).child());
        }
      }
      boolean passThrough = node instanceof Project || node instanceof Aggregate || node instanceof Filter
          || node instanceof Sort || node instanceof SubqueryAlias || node instanceof GlobalLimit
          || node instanceof LocalLimit || node instanceof Distinct || node instanceof Offset
          || (throughOverWindows && node instanceof Window);
      if (!passThrough || node.children().size() != 1) break;
      node = node.children().apply(0);
    }
    List<Attribute> output = ScalaInterop.list(plan.output());
    DataType[] retype = new DataType[output.size()];
    String[] recorded = new String[output.size()];
    boolean[] notNull = new boolean[output.size()];
    boolean any = false;
    for (int i = 0; i < output.size(); i++) {
      Expression e = output.get(i);
      for (int hops = 0; hops < 64 && e instanceof AttributeReference
          && defined.containsKey(((AttributeReference) e).exprId()); hops++) {
        e = defined.get(((AttributeReference) e).exprId());
      }
      DataType flink = flinkType(e);
      if (flink != null && !flink.equals(output.get(i).dataType())) {
        retype[i] = flink;
        any = true;
      }
      // TO_TIMESTAMP_LTZ's TIMESTAMP_LTZ(3) is no Spark type: recorded as the Table API records it.
      String ltz = output.get(i).metadata().contains(FlinkTypes.METADATA_KEY) ? null : ToTimestampLtz.flinkType(e);
      if (ltz != null) {
        recorded[i] = ltz;
        any = true;
      }
      // COLLECT's MULTISET is a map in Spark: recorded as the Table API records it, NOT NULL as in
      // Flink (a streaming window aggregation's output is nullable in Spark).
      String multiset = output.get(i).metadata().contains(FlinkTypes.METADATA_KEY) ? null : Multisets.flinkType(e);
      if (multiset != null) {
        recorded[i] = multiset;
        notNull[i] = true;
        any = true;
      }
      // JSON_ARRAYAGG's and JSON_OBJECTAGG's text is VARCHAR(2000) NOT NULL in Flink SQL (measured).
      if (!output.get(i).metadata().contains(FlinkTypes.METADATA_KEY) && JsonAggregates.isResult(e)) {
        recorded[i] = JsonAggregates.SQL_TYPE;
        notNull[i] = true;
        any = true;
      }
    }
    return any ? retyped(ds, output, retype, recorded, notNull) : ds;
  }

  /**
   * {@code ds}'s columns (by position: names may repeat) cast to {@code retype}'s types and with
   * {@code recorded}'s Flink types in their metadata, where those are not null, and those of
   * {@code notNull} (when given) recorded NOT NULL.
   */
  private static Dataset<Row> retyped(Dataset<Row> ds, List<Attribute> output, DataType[] retype, String[] recorded,
      boolean[] notNull) {
    String[] names = ds.columns();
    String[] positional = new String[names.length];
    for (int i = 0; i < names.length; i++) positional[i] = "_flink_col_" + i;
    Dataset<Row> renamed = ds.toDF(positional);
    List<Column> cols = new ArrayList<>();
    for (int i = 0; i < names.length; i++) {
      Column c = functions.col(positional[i]);
      Column typed = retype[i] == null ? c : narrow(c, output.get(i).dataType(), retype[i]);
      boolean nn = notNull != null && notNull[i];
      if (recorded[i] == null && !nn) {
        cols.add(typed.as(names[i]));
        continue;
      }
      org.apache.spark.sql.types.MetadataBuilder md = new org.apache.spark.sql.types.MetadataBuilder()
          .withMetadata(output.get(i).metadata());
      if (recorded[i] != null) md.putString(FlinkTypes.METADATA_KEY, recorded[i]);
      if (nn) md.putBoolean(FlinkTypes.NOT_NULL_KEY, true);
      cols.add(typed.as(names[i], md.build()));
    }
    return renamed.select(ScalaInterop.seq(cols));
  }

  /**
   * The query with the Flink types of its output timestamps whose precision is not Spark's 6
   * recorded (a TIMESTAMP(3) cast, TO_TIMESTAMP, the current time, an expression over a TIMESTAMP(3)
   * column, as {@link #flinkTypeOf} works it out), applied last to a SQL query's plan: the window table
   * functions' planning reads window_start/window_end by their defining columns, which a retyping
   * projection below it would hide.
   */
  public static Dataset<Row> withFlinkTimestampTypes(Dataset<Row> ds) {
    LogicalPlan plan = ds.queryExecution().analyzed();
    List<Attribute> output = ScalaInterop.list(plan.output());
    String[] recorded = new String[output.size()];
    boolean[] notNull = new boolean[output.size()];
    Map<Object, Expression> defined = null; // the plan's aliases, collected once when a column needs them
    Map<Object, Expression> deepest = null;
    boolean any = false;
    for (int i = 0; i < output.size(); i++) {
      Attribute column = output.get(i);
      if (!(column.dataType() instanceof TimestampType || column.dataType() instanceof TimestampNTZType)) continue;
      if (defined == null) {
        defined = new HashMap<>();
        aliases(plan, defined);
        deepest = new HashMap<>();
        deepestAliases(plan, deepest);
      }
      if (!column.metadata().contains(FlinkTypes.METADATA_KEY)) {
        String t = flinkTypeOf(column, deepest, 0);
        recorded[i] = t == null || t.endsWith("(6)") ? null : t;
      }
      notNull[i] = column.nullable() && !column.metadata().contains(FlinkTypes.NOT_NULL_KEY)
          && windowBound(column, defined, 0) && !outerJoin(plan);
      any |= recorded[i] != null || notNull[i];
    }
    return any ? retyped(ds, output, new DataType[output.size()], recorded, notNull) : ds;
  }

  /**
   * Every alias of the plan by the id of the attribute it defines, the deepest where several define
   * one id: a SESSION table function's aggregation (window.TvfWindowAggregates) defines window_start
   * again above the row's own window_start that its session window reads, a cycle for the precision's
   * trace; both have the time column's precision.
   */
  private static void deepestAliases(LogicalPlan p, Map<Object, Expression> defined) {
    for (LogicalPlan c : ScalaInterop.list(p.children())) deepestAliases(c, defined);
    aliasesOfNode(p, defined);
  }

  /** Whether the plan has an outer join, which may make a window's bound NULL (Spark says which side is nullable). */
  private static boolean outerJoin(LogicalPlan p) {
    if (p instanceof Join j && !(j.joinType() instanceof org.apache.spark.sql.catalyst.plans.InnerLike)
        && j.joinType() != org.apache.spark.sql.catalyst.plans.LeftSemi$.MODULE$
        && j.joinType() != org.apache.spark.sql.catalyst.plans.LeftAnti$.MODULE$) {
      return true;
    }
    for (LogicalPlan c : ScalaInterop.list(p.children())) if (outerJoin(c)) return true;
    return false;
  }

  /**
   * Whether {@code e} is a window's bound, which Flink types NOT NULL (measured on PyFlink 2.3, batch
   * and streaming, also over a nullable time column): the start or end of a group window (or table
   * function) window's struct, a fixed distance after one (a TUMBLE or CUMULATE table function's
   * end), or a window table function's window_time (its end less a millisecond). A group window's
   * {@code _ROWTIME} is not: Flink's is as nullable as the time column.
   */
  private static boolean windowBound(Expression e, Map<Object, Expression> defined, int depth) {
    if (depth > 64) return false;
    if (e instanceof Attribute) {
      Expression d = defined.get(((Attribute) e).exprId());
      return d != null && windowBound(d, defined, depth + 1);
    }
    if (e instanceof GetStructField g && g.child() instanceof Attribute a) {
      return a.metadata().contains(TimeWindow$.MODULE$.marker()) || a.metadata().contains(SessionWindow$.MODULE$.marker());
    }
    if (e instanceof TimestampAdd t) return !t.quantity().nullable() && windowBound(t.timestamp(), defined, depth + 1);
    if (e instanceof DatetimeSub d) {
      // window_time: a window bound column less a millisecond (the table function's end column, or
      // the merged session's end of a SESSION table function), or its session's end in a SESSION
      // table function's aggregation; not a group window's _ROWTIME (its struct's end). Read in the
      // replacement, which the plan rewrites of window.TvfWindowAggregates keep current (not start).
      Expression time = d.replacement();
      while (!(time instanceof Attribute || time instanceof GetStructField) && !time.children().isEmpty()) {
        time = time.children().apply(0);
      }
      if (time instanceof GetStructField g && g.child() instanceof Attribute w && TvfWindowAggregates.isWindow(w)) {
        return windowBound(g, defined, depth + 1);
      }
      return time instanceof Attribute a && windowBound(a, defined, depth + 1);
    }
    if (e instanceof Cast c && (c.child().dataType() instanceof TimestampType
        || c.child().dataType() instanceof TimestampNTZType)) {
      return windowBound(c.child(), defined, depth + 1); // a TIMESTAMP_LTZ time column's window_time
    }
    return false;
  }

  /**
   * The query with Flink's types on the columns that aggregations, projections (and, with
   * {@code throughOverWindows}, over windows) below the output hand to the operators above them:
   * Flink types {@code SUM(s)} over a subquery's {@code s = SUM(i)} of an INT as INT, and a union
   * of it as the least restrictive of its inputs' Flink types. Each such column is cast
   * (wrapping around as Flink's INT sum overflows) under a new id, the references above follow it,
   * and Spark analyses the plan again so that the operators above (unions, arithmetic) coerce the
   * new types. The columns of the output itself are retyped by the caller; the query is returned
   * unchanged when nothing below them differs or the retyped plan does not analyse.
   */
  private static Dataset<Row> withNestedFlinkTypes(Dataset<Row> ds, boolean throughOverWindows) {
    LogicalPlan plan = ds.queryExecution().analyzed();
    Map<Object, Attribute> renamed = new HashMap<>();
    // The output columns (but not those a HAVING compares: cast below it), which the caller retypes.
    Set<Object> output = new java.util.HashSet<>();
    for (Attribute a : ScalaInterop.list(plan.output())) output.add(a.exprId());
    for (LogicalPlan n = plan; n.children().size() == 1 && (n instanceof Project || n instanceof Filter
        || n instanceof Sort || n instanceof SubqueryAlias || n instanceof GlobalLimit || n instanceof LocalLimit
        || n instanceof Distinct || n instanceof Offset); n = n.children().apply(0)) {
      if (n instanceof Filter) {
        for (Attribute a : ScalaInterop.list(((Filter) n).condition().references().toSeq())) output.remove(a.exprId());
      }
    }
    LogicalPlan typed = typedBelow(plan, true, throughOverWindows, output, renamed);
    if (typed == plan) return ds;
    try {
      Dataset<Row> out = Dataset$.MODULE$.ofRows((SparkSession) ds.sparkSession(), typed);
      return out.schema().size() == ds.schema().size() ? out : ds;
    } catch (RuntimeException e) {
      return ds; // e.g. a subquery expression referring to a retyped column: Spark's types kept
    }
  }

  /**
   * {@code p} with the columns its non-output nodes compute retyped as Flink types them; the new
   * attributes by the old ids in {@code renamed}. {@code top}: {@code p} is on the output's chain
   * of projections, filters, sorts and limits, down to and including the first aggregation.
   */
  private static LogicalPlan typedBelow(LogicalPlan p, boolean top, boolean overWindows, Set<Object> output,
      Map<Object, Attribute> renamed) {
    boolean aggregating = p instanceof Aggregate || overWindows && p instanceof Window;
    boolean chain = p instanceof Project || p instanceof Filter || p instanceof Sort || p instanceof SubqueryAlias
        || p instanceof GlobalLimit || p instanceof LocalLimit || p instanceof Distinct || p instanceof Offset;
    List<LogicalPlan> children = new ArrayList<>(ScalaInterop.list(p.children()));
    // Streaming: the updating joins and ranking windows match their inputs' plans as Spark typed them.
    boolean opaque = overWindows && (p instanceof Join || p instanceof Window);
    boolean changed = false;
    for (int i = 0; i < children.size() && !opaque; i++) {
      LogicalPlan c = typedBelow(children.get(i), top && chain && !aggregating, overWindows, output, renamed);
      if (c != children.get(i)) {
        children.set(i, c);
        changed = true;
      }
    }
    if (changed && p instanceof Union) {
      // Spark widened the union's inputs to its own types: widened again once retyped.
      for (int i = 0; i < children.size(); i++) children.set(i, unwidened(children.get(i), i == 0, renamed));
    }
    LogicalPlan q = changed ? p.withNewChildren(ScalaInterop.seq(children)) : p;
    if (!renamed.isEmpty()) {
      q = (LogicalPlan) q.transformExpressions(ScalaInterop.everywhere((Expression e) -> {
        if (!(e instanceof AttributeReference)) return e;
        Attribute to = renamed.get(((AttributeReference) e).exprId());
        return to == null ? e : ((AttributeReference) e).withExprId(to.exprId()).withDataType(to.dataType());
      }));
    }
    if (q instanceof Aggregate) q = withTypedInnerAggregates((Aggregate) q, top ? output : null, renamed);
    if (top || !(aggregating || p instanceof Project)) return q;
    // The retyped columns, cast in a projection above (an aggregation or over window stays as it is).
    Map<Object, DataType> retype = new HashMap<>();
    List<NamedExpression> defining = q instanceof Project ? ScalaInterop.list(((Project) q).projectList())
        : q instanceof Aggregate ? ScalaInterop.list(((Aggregate) q).aggregateExpressions())
        : ScalaInterop.list(((Window) q).windowExpressions());
    for (NamedExpression e : defining) {
      if (!(e instanceof Alias)) continue;
      DataType flink = flinkType(((Alias) e).child());
      if (flink != null && !flink.equals(((Alias) e).child().dataType())) retype.put(e.exprId(), flink);
    }
    if (retype.isEmpty()) return q;
    List<NamedExpression> items = new ArrayList<>();
    for (Attribute a : ScalaInterop.list(q.output())) {
      DataType flink = retype.get(a.exprId());
      if (flink == null) {
        items.add(a);
        continue;
      }
      Alias cast = new Alias(new Cast(a, flink, Option.empty(), EvalMode.LEGACY()), a.name(),
          NamedExpression$.MODULE$.newExprId(), ScalaInterop.seq(List.of()), Option.empty(), ScalaInterop.seq(List.of()));
      renamed.put(a.exprId(), cast.toAttribute());
      items.add(cast);
    }
    return new Project(ScalaInterop.seq(items), q);
  }

  /**
   * The aggregation with each aggregate call inside a larger select item ({@code SUM(i) + 1},
   * {@code AVG(i) * 2}) cast to Flink's type, so that the expression computes Flink's value (an INT
   * sum wrapped around, an INT average truncated); its own type is left to Spark's coercion. Of the
   * output's aggregation ({@code output} its columns' ids, else null), the aggregates computed for
   * the operators above only ({@code HAVING AVG(i) > 1}) are cast too, under new ids in {@code renamed}.
   */
  private static Aggregate withTypedInnerAggregates(Aggregate a, Set<Object> output, Map<Object, Attribute> renamed) {
    boolean[] changed = {false};
    List<NamedExpression> items = new ArrayList<>();
    for (NamedExpression e : ScalaInterop.list(a.aggregateExpressions())) {
      if (output != null && e instanceof Alias && ((Alias) e).child() instanceof AggregateExpression
          && !output.contains(e.exprId())) {
        DataType flink = flinkType(((Alias) e).child());
        if (flink != null && !flink.equals(((Alias) e).child().dataType())) {
          Alias cast = new Alias(new Cast(((Alias) e).child(), flink, Option.empty(), EvalMode.LEGACY()), e.name(),
              NamedExpression$.MODULE$.newExprId(), ScalaInterop.seq(List.of()), Option.empty(), ScalaInterop.seq(List.of()));
          renamed.put(e.exprId(), cast.toAttribute());
          items.add(cast);
          changed[0] = true;
          continue;
        }
      }
      if (!(e instanceof Alias) || ((Alias) e).child() instanceof AggregateExpression) {
        items.add(e);
        continue;
      }
      items.add((NamedExpression) ((Expression) e).transformUp(ScalaInterop.everywhere((Expression x) -> {
        if (!(x instanceof AggregateExpression)) return x;
        DataType flink = flinkType(x);
        if (flink == null || flink.equals(x.dataType())) return x;
        changed[0] = true;
        return new Cast(x, flink, Option.empty(), EvalMode.LEGACY());
      })));
    }
    return changed[0] ? new Aggregate(a.groupingExpressions(), ScalaInterop.seq(items), a.child(), a.hint()) : a;
  }

  /**
   * A union's input without the projection of casts Spark's analysis added to widen it (no cast
   * a user wrote); the first input's columns, which name the union's, renamed to the unwidened ones.
   */
  private static LogicalPlan unwidened(LogicalPlan input, boolean first, Map<Object, Attribute> renamed) {
    if (!(input instanceof Project)) return input;
    Project p = (Project) input;
    List<NamedExpression> items = ScalaInterop.list(p.projectList());
    List<Attribute> below = ScalaInterop.list(p.child().output());
    if (items.size() != below.size()) return input;
    Map<Object, Attribute> widened = new HashMap<>();
    for (int i = 0; i < items.size(); i++) {
      NamedExpression e = items.get(i);
      Expression source = e instanceof Alias && ((Alias) e).child() instanceof Cast ? ((Cast) ((Alias) e).child()).child() : (Expression) e;
      if (!(source instanceof Attribute) || !((Attribute) source).exprId().equals(below.get(i).exprId())) return input;
      if (e instanceof Attribute) continue;
      Cast c = (Cast) ((Alias) e).child();
      if (c.getTagValue(Cast$.MODULE$.USER_SPECIFIED_CAST()).isDefined() || !below.get(i).name().equals(e.name())
          || renamed.values().stream().anyMatch(a -> a.exprId().equals(e.exprId()))) { // a user's cast, or one typedBelow made
        return input;
      }
      widened.put(e.exprId(), below.get(i));
    }
    if (widened.isEmpty()) return input;
    if (first) renamed.putAll(widened);
    return p.child();
  }

  /**
   * Flink's INT / INT is an INT (truncated toward zero); Spark divides in DOUBLE. Every such
   * division in the plan is truncated in place, keeping Spark's DOUBLE type so the expressions
   * around it stay valid; a division that is itself an output column is then typed INT below.
   */
  private static Dataset<Row> withIntegerDivision(Dataset<Row> ds) {
    LogicalPlan plan = ds.queryExecution().analyzed();
    boolean[] changed = {false};
    PartialFunction<Expression, Expression> truncate = new AbstractPartialFunction<>() {
      @Override
      public boolean isDefinedAt(Expression e) {
        return integralDivision(e) != null;
      }

      @Override
      public <A1 extends Expression, B1> B1 applyOrElse(A1 e, Function1<A1, B1> otherwise) {
        DataType integral = integralDivision(e);
        if (integral == null) return otherwise.apply(e);
        changed[0] = true;
        @SuppressWarnings("unchecked")
        B1 result = (B1) new Cast(new Cast(e, integral, Option.empty(), EvalMode.LEGACY()),
            e.dataType(), Option.empty(), EvalMode.LEGACY());
        return result;
      }
    };
    LogicalPlan rewritten = plan.transformUp(ScalaInterop.everywhere((LogicalPlan p) -> p.transformExpressionsUp(truncate)));
    if (!changed[0]) return ds;
    return Dataset$.MODULE$.ofRows(
        (SparkSession) ds.sparkSession(), rewritten);
  }

  /** The integral type of an INT / INT Spark computes in DOUBLE, else null. */
  private static DataType integralDivision(Expression e) {
    if (!(e instanceof Divide)) return null;
    Expression l = ((Divide) e).left();
    Expression r = ((Divide) e).right();
    if (!(l instanceof Cast) || !(r instanceof Cast)) return null;
    // CAST(v AS DOUBLE) / w divides in DOUBLE in Flink too (3.5 for 7 / 2, measured).
    if (l.getTagValue(Cast$.MODULE$.USER_SPECIFIED_CAST()).isDefined()
        || r.getTagValue(Cast$.MODULE$.USER_SPECIFIED_CAST()).isDefined()) {
      return null;
    }
    DataType a = ((Cast) l).child().dataType();
    DataType b = ((Cast) r).child().dataType();
    if (!integral(a) || !integral(b)) return null;
    return rank(a) >= rank(b) ? a : b;
  }

  /** Spark's date-part extractions, INT (or DECIMAL for seconds) where Flink's are BIGINT. */
  private static final Set<String> DATE_PARTS = Set.of("Extract", "Year", "Quarter", "Month",
      "DayOfMonth", "DayOfWeek", "DayOfYear", "WeekOfYear", "Hour", "Minute", "Second");

  /**
   * The column as the narrower Flink type. A 64-bit integer wraps around into a narrower integer
   * as Flink's SUM overflows (Spark's checked cast would fail instead).
   */
  private static Column narrow(Column c, DataType from, DataType to) {
    if (from instanceof LongType && integral(to) && !(to instanceof LongType)) {
      long span = to instanceof IntegerType ? 1L << 32 : to instanceof ShortType ? 1L << 16 : 1L << 8;
      c = functions.pmod(c.plus(span / 2), functions.lit(span)).minus(span / 2);
    }
    return c.cast(to);
  }

  /** The type Flink gives an expression where it differs from Spark's, else null. */
  private static DataType flinkType(Expression e) {
    if (e instanceof WindowExpression) return flinkType(((WindowExpression) e).windowFunction());
    if (e instanceof AggregateExpression) {
      AggregateFunction f = ((AggregateExpression) e).aggregateFunction();
      if (f instanceof Sum || f instanceof Average) {
        DataType in = f.children().apply(0).dataType();
        if (in instanceof DecimalType) {
          int scale = ((DecimalType) in).scale();
          return DataTypes.createDecimalType(38, f instanceof Sum ? scale : Math.max(6, scale));
        }
        if (integral(in) || in instanceof FloatType) return in;
      }
      if (f instanceof CentralMomentAgg && f.children().apply(0) instanceof Cast
          && f.children().apply(0).getTagValue(Cast$.MODULE$.USER_SPECIFIED_CAST()).isEmpty()) {
        // STDDEV_POP/SAMP, VAR_POP/SAMP keep their argument's type in Flink; Spark casts it to DOUBLE.
        DataType in = ((Cast) f.children().apply(0)).child().dataType();
        if (in instanceof DecimalType) return DataTypes.createDecimalType(38, Math.max(6, ((DecimalType) in).scale()));
        if (integral(in) || in instanceof FloatType) return in;
      }
      return null;
    }
    if (DATE_PARTS.contains(e.getClass().getSimpleName())) return DataTypes.LongType; // Flink: BIGINT
    if (e instanceof Cast && ((Cast) e).child() instanceof Cast) {
      // The truncated division made by withIntegerDivision.
      Expression inner = ((Cast) ((Cast) e).child()).child();
      if (integralDivision(inner) != null) return integralDivision(inner);
    }
    return null;
  }

  private static boolean integral(DataType t) {
    return t instanceof ByteType || t instanceof ShortType || t instanceof IntegerType || t instanceof LongType;
  }

  private static int rank(DataType t) {
    return t instanceof ByteType ? 1 : t instanceof ShortType ? 2 : t instanceof IntegerType ? 3 : 4;
  }

  // ---------------------------------------------------------------- DISTINCT / FILTER of user aggregates

  /** Names the function that computes a call of a user aggregate with DISTINCT and/or FILTER. */
  public interface AggregateClauses {
    /** The SQL name of {@code name} called so, or null when the name is no aggregate this applies to. */
    String variant(String name, boolean distinct, boolean filtered);
  }

  /**
   * The text with each call {@code f(DISTINCT args) FILTER (WHERE cond)} (either clause optional) of a
   * function {@code clauses} knows written as {@code g(args, coalesce((cond), false))}, {@code g} the
   * name it gives: Spark's SQL takes neither clause for Python aggregates, so the function called
   * instead selects the rows itself, the filter's value passed as its last argument.
   */
  public static String rewriteAggregateClauses(String sql, AggregateClauses clauses) {
    List<Token> t = tokenize(sql);
    Rewriter r = new Rewriter(t);
    StringBuilder out = new StringBuilder();
    Token previous = null;
    int i = 0;
    while (i < t.size()) {
      Token k = t.get(i);
      int open = r.next(i + 1);
      String name = k.kind == Kind.WORD ? k.text
          : k.kind == Kind.QUOTED && k.text.startsWith("`") ? k.text.substring(1, k.text.length() - 1).replace("``", "`")
          : null;
      boolean call = name != null && open < t.size() && t.get(open).sym("(")
          && !(previous != null && previous.sym("."));
      if (call) {
        int close = r.closing(open);
        int first = r.next(open + 1);
        boolean distinct = first < close && t.get(first).is("DISTINCT");
        int afterCall = r.next(close + 1);
        int filterOpen = afterCall < t.size() && t.get(afterCall).is("FILTER") ? r.next(afterCall + 1) : t.size();
        int where = filterOpen < t.size() && t.get(filterOpen).sym("(") ? r.next(filterOpen + 1) : t.size();
        boolean filtered = where < t.size() && t.get(where).is("WHERE");
        String variant = close < t.size() && (distinct || filtered) ? clauses.variant(name, distinct, filtered) : null;
        if (variant != null) {
          String args = rewriteAggregateClauses(text(t, distinct ? first + 1 : open + 1, close), clauses);
          out.append('`').append(variant.replace("`", "``")).append("`(").append(args);
          if (filtered) {
            int filterClose = r.closing(filterOpen);
            String cond = rewriteAggregateClauses(text(t, where + 1, filterClose), clauses);
            out.append(args.isBlank() ? "" : ", ").append("coalesce((").append(cond).append("), false)");
            i = filterClose + 1;
          } else {
            i = close + 1;
          }
          out.append(')');
          previous = t.get(i - 1);
          continue;
        }
      }
      out.append(k.text);
      if (k.kind != Kind.SPACE) previous = k;
      i++;
    }
    return out.toString();
  }

  private static String text(List<Token> t, int from, int to) {
    StringBuilder out = new StringBuilder();
    for (int i = from; i < Math.min(to, t.size()); i++) out.append(t.get(i).text);
    return out.toString();
  }
}
