package org.pyflink_table.bridge.window;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.TimestampType;
import org.pyflink_table.bridge.errors.SqlParserException;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.SqlText;

/**
 * Flink's SQL windowing, rewritten into Spark SQL before parsing (Spark's parser knows neither form):
 *
 * <ul>
 *   <li>group window functions: {@code GROUP BY TUMBLE(ts, INTERVAL '10' MINUTE)} becomes Spark's
 *       {@code window(...)}, {@code HOP(ts, slide, size)} {@code window(ts, size, slide)},
 *       {@code SESSION(ts, gap)} {@code session_window(...)}; {@code TUMBLE_START/END/ROWTIME(...)}
 *       and the HOP_ and SESSION_ forms become fields of the window column (rowtime = end - 1 ms);
 *   <li>window table functions: {@code TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), size [, offset]))},
 *       {@code HOP(TABLE t, DESCRIPTOR(ts), slide, size [, offset])} and
 *       {@code CUMULATE(TABLE t, DESCRIPTOR(ts), step, size [, offset])} become a subquery adding
 *       window_start, window_end and window_time to t's columns.
 * </ul>
 *
 * Time columns are windowed on their wall-clock value ({@code to_timestamp_ntz(ts)}), which
 * is Flink's rule for TIMESTAMP_LTZ and a no-op for TIMESTAMP. The SESSION table function
 * ({@code SESSION(TABLE t [PARTITION BY k], DESCRIPTOR(ts), gap)}) gives each row its own window
 * {@code [ts, ts + gap)}, which only an aggregation grouped by window_start and window_end may read:
 * {@link TvfWindowAggregates} merges them into sessions there.
 */
public final class SqlWindows {
  private SqlWindows() {}

  private static final Pattern ANY_WINDOW = Pattern.compile(
      "(?i)\\b(TUMBLE|HOP|SESSION|CUMULATE)(_START|_END|_ROWTIME|_PROCTIME)?\\s*\\(");
  private static final Pattern INTERVAL = Pattern.compile(
      "(?i)^INTERVAL\\s+'\\s*(\\d+(?:\\.\\d+)?)\\s*'\\s+(DAY|HOUR|MINUTE|SECOND|MILLISECOND)S?(\\s*\\(\\s*\\d+\\s*\\))?$");
  private static final Map<String, Long> MILLIS = Map.of(
      "DAY", 86_400_000L, "HOUR", 3_600_000L, "MINUTE", 60_000L, "SECOND", 1_000L, "MILLISECOND", 1L);
  private static final Pattern NAMED_ARG = Pattern.compile("(?is)^([A-Za-z_]\\w*)\\s*=>\\s*(.*)$");

  // The columns a window table function's subquery computes its window_start/_end/_time from.
  static final String TVF_WINDOW = "__pft_w";
  public static final String TVF_END = "__pft_e";

  /** The statement with Flink's windowing rewritten; unchanged when it has none. */
  public static String rewrite(String sql, SparkSession spark) {
    if (!ANY_WINDOW.matcher(sql).find()) return sql;
    return new SqlWindows.Rewriter(sql, spark).run();
  }

  /** A window duration as Spark's window() wants it: a string literal. */
  static String duration(String interval, String role) {
    Matcher m = INTERVAL.matcher(interval.strip());
    if (!m.matches()) {
      if (interval.toUpperCase(Locale.ROOT).matches("(?s).*\\b(YEAR|MONTH)S?\\b.*")) {
        throw new ValidationException(role + " must be a day-time interval, got " + interval.strip() + ".");
      }
      throw TableException.unsupported("The interval form " + interval.strip() + " as " + role
          + " (write it as INTERVAL 'n' DAY|HOUR|MINUTE|SECOND)");
    }
    double value = Double.parseDouble(m.group(1)) * MILLIS.get(m.group(2).toUpperCase(Locale.ROOT));
    long millis = Math.round(value);
    if (millis <= 0) throw new ValidationException(role + " must be positive, got " + interval.strip() + ".");
    return "'" + millis + " milliseconds'";
  }

  static long millisOf(String durationLiteral) {
    return Long.parseLong(durationLiteral.substring(1, durationLiteral.indexOf(' ')));
  }

  /**
   * A SESSION table function as its helper columns' suffix names it (for {@link TvfWindowAggregates}):
   * {@code <n>s<gap in ms>p<hex UTF-8 of the PARTITION BY text>}.
   *
   * @param gapMs the session gap
   * @param partitionKeys the PARTITION BY keys, unquoted and lower-cased
   */
  /** Whether the table function whose helper columns' suffix is {@code id} is a HOP or CUMULATE one. */
  static boolean slides(String id) {
    return id.endsWith("h") || id.endsWith("c");
  }

  record Session(long gapMs, java.util.Set<String> partitionKeys) {
    private static final Pattern ID = Pattern.compile("\\d+s(\\d+)p([0-9a-f]*)");

    /** The suffix of the {@code n}-th table function of a query, a SESSION one with these arguments. */
    static String id(int n, long gapMs, String partition) {
      StringBuilder hex = new StringBuilder();
      for (byte b : partition.getBytes(java.nio.charset.StandardCharsets.UTF_8)) hex.append(String.format("%02x", b));
      return n + "s" + gapMs + "p" + hex;
    }

    /** The SESSION table function a helper columns' suffix {@code id} names, or null for another kind. */
    static Session of(String id) {
      Matcher m = ID.matcher(id);
      if (!m.matches()) return null;
      String hex = m.group(2);
      byte[] bytes = new byte[hex.length() / 2];
      for (int i = 0; i < bytes.length; i++) bytes[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
      java.util.Set<String> keys = new java.util.HashSet<>();
      for (String k : new String(bytes, java.nio.charset.StandardCharsets.UTF_8).split(",")) {
        if (!k.isBlank()) keys.add(k.strip().replace("`", "").toLowerCase(Locale.ROOT));
      }
      return new Session(Long.parseLong(m.group(1)), keys);
    }
  }

  private static final class Rewriter {
    private final String sql;
    private final SparkSession spark;
    private final StringBuilder out = new StringBuilder();
    private int pos;
    private int tvfCount;

    Rewriter(String sql, SparkSession spark) {
      this.sql = sql;
      this.spark = spark;
    }

    String run() {
      while (pos < sql.length()) {
        char c = sql.charAt(pos);
        if (c == '\'' || c == '"' || c == '`') {
          int end = skipQuoted(pos);
          out.append(sql, pos, end);
          pos = end;
        } else if (sql.startsWith("--", pos)) {
          int end = sql.indexOf('\n', pos);
          end = end < 0 ? sql.length() : end;
          out.append(sql, pos, end);
          pos = end;
        } else if (Character.isJavaIdentifierStart(c) && (pos == 0 || !Character.isJavaIdentifierPart(sql.charAt(pos - 1)))) {
          int end = pos;
          while (end < sql.length() && Character.isJavaIdentifierPart(sql.charAt(end))) end++;
          String word = sql.substring(pos, end);
          int open = skipSpace(end);
          if (open < sql.length() && sql.charAt(open) == '(' && !handle(word, open)) {
            out.append(word);
            pos = end;
          } else if (open >= sql.length() || sql.charAt(open) != '(') {
            out.append(word);
            pos = end;
          }
        } else {
          out.append(c);
          pos++;
        }
      }
      return out.toString();
    }

    /** Rewrites the call {@code word(...)} at {@code open}; false when it is not Flink windowing. */
    private boolean handle(String word, int open) {
      String w = word.toUpperCase(Locale.ROOT);
      int close = matchingParen(open);
      List<String> args = splitArgs(sql.substring(open + 1, close));
      if (w.equals("TABLE") && args.size() == 1) {
        String inner = args.get(0).strip();
        Matcher m = Pattern.compile("(?is)^(TUMBLE|HOP|CUMULATE|SESSION)\\s*\\((.*)\\)$").matcher(inner);
        if (m.matches()) {
          out.append(tableFunction(m.group(1).toUpperCase(Locale.ROOT), splitArgs(m.group(2))));
          pos = close + 1;
          return true;
        }
        return false;
      }
      String replacement = groupWindowCall(w, args);
      if (replacement == null) return false;
      out.append(replacement);
      pos = close + 1;
      return true;
    }

    private String groupWindowCall(String w, List<String> args) {
      int underscore = w.indexOf('_');
      String kind = underscore < 0 ? w : w.substring(0, underscore);
      String property = underscore < 0 ? null : w.substring(underscore + 1);
      if (!List.of("TUMBLE", "HOP", "SESSION").contains(kind)
          || (property != null && !List.of("START", "END", "ROWTIME", "PROCTIME").contains(property))) {
        return null;
      }
      int expected = kind.equals("HOP") ? 3 : 2;
      if (args.size() != expected && args.size() != expected + 1) {
        throw new ValidationException(w + " takes the time column and " + (expected - 1) + " interval(s) "
            + (kind.equals("SESSION") ? "" : "plus an optional offset ") + ", got " + args.size() + " arguments.");
      }
      String column = kind.equals("SESSION") ? "session_window" : "window";
      if (property != null) {
        switch (property) {
          case "START": return column + ".`start`";
          case "END": return column + ".`end`";
          case "ROWTIME": return "(" + column + ".`end` - INTERVAL '0.001' SECOND)";
          default:
            throw new ValidationException(w + " is not available on a batch (event-time) window; use "
                + kind + "_START, " + kind + "_END or " + kind + "_ROWTIME.");
        }
      }
      String time = "to_timestamp_ntz(" + args.get(0).strip() + ")"; // no CAST: the bounds keep ts's precision
      switch (kind) {
        case "TUMBLE": {
          String size = duration(args.get(1), "TUMBLE size");
          return args.size() == 3
              ? "window(" + time + ", " + size + ", " + size + ", " + duration(args.get(2), "TUMBLE offset") + ")"
              : "window(" + time + ", " + size + ")";
        }
        case "HOP": {
          String slide = duration(args.get(1), "HOP slide");
          String size = duration(args.get(2), "HOP size");
          checkSlide(slide, size);
          String offset = args.size() == 4 ? ", " + duration(args.get(3), "HOP offset") : "";
          return "window(" + time + ", " + size + ", " + slide + offset + ")";
        }
        default:
          if (args.size() != 2) throw new ValidationException("SESSION takes the time column and the gap.");
          return "session_window(" + time + ", " + duration(args.get(1), "SESSION gap") + ")";
      }
    }

    private void checkSlide(String slide, String size) {
      if (millisOf(slide) > millisOf(size)) {
        throw TableException.unsupported("HOP with a slide longer than its size in SQL (use the Table API's Slide)");
      }
    }

    private String tableFunction(String kind, List<String> rawArgs) {
      List<String> args = namedInOrder(kind, rawArgs);
      int needed = kind.equals("TUMBLE") || kind.equals("SESSION") ? 3 : 4;
      if (kind.equals("SESSION") && args.size() != needed) {
        throw new ValidationException("SESSION takes TABLE t [PARTITION BY keys], DESCRIPTOR(time column) and the gap; got "
            + args.size() + " arguments.");
      }
      if (args.size() != needed && args.size() != needed + 1) {
        throw new ValidationException(kind + " takes TABLE t, DESCRIPTOR(time column) and "
            + (kind.equals("TUMBLE") ? "the size" : kind.equals("HOP") ? "the slide and the size" : "the step and the size")
            + ", plus an optional offset; got " + args.size() + " arguments.");
      }
      String table = args.get(0).strip();
      if (!table.toUpperCase(Locale.ROOT).startsWith("TABLE ")) {
        throw new ValidationException(kind + "'s first argument must be TABLE name, got " + table + ".");
      }
      table = table.substring(6).strip();
      String partition = "";
      Matcher pb = Pattern.compile("(?is)^(.+?)\\s+PARTITION\\s+BY\\s+(.+)$").matcher(table);
      if (pb.matches()) {
        if (!kind.equals("SESSION")) {
          throw new ValidationException(kind + " takes no PARTITION BY (only SESSION does), got " + table + ".");
        }
        table = pb.group(1).strip();
        partition = pb.group(2).strip();
        if (partition.startsWith("(") && partition.endsWith(")")) partition = partition.substring(1, partition.length() - 1);
      }
      Matcher d = Pattern.compile("(?is)^DESCRIPTOR\\s*\\((.*)\\)$").matcher(args.get(1).strip());
      if (!d.matches()) {
        throw new ValidationException(kind + "'s second argument must be DESCRIPTOR(time column), got " + args.get(1).strip() + ".");
      }
      String timeColumn = d.group(1).strip();
      boolean ltz = isLocalZoned(table, timeColumn);
      String time = "to_timestamp_ntz(" + timeColumn + ")"; // no CAST: the bounds keep ts's precision
      // A session table function's helper columns name its gap and partition keys (for TvfWindowAggregates).
      // The others' name their kind's letter (t, h, c): HOP and CUMULATE merge slices (slides()).
      String id = kind.equals("SESSION") ? Session.id(tvfCount, millisOf(duration(args.get(2), "SESSION gap")), partition)
          : tvfCount + kind.substring(0, 1).toLowerCase(Locale.ROOT);
      String w = TVF_WINDOW + id;
      String k = "__pft_k" + tvfCount;
      String e = TVF_END + id;
      tvfCount++;
      String windowTime = "(" + e + " - INTERVAL '0.001' SECOND)";
      if (ltz) windowTime = "CAST(" + windowTime + " AS TIMESTAMP_LTZ)";
      String offset = args.size() == needed + 1 ? duration(args.get(needed), kind + " offset") : null;
      String assigned;
      String start = w + ".`start`"; // window_start
      switch (kind) {
        case "TUMBLE": {
          String size = duration(args.get(2), "TUMBLE size");
          String window = offset == null ? "window(" + time + ", " + size + ")"
              : "window(" + time + ", " + size + ", " + size + ", " + offset + ")";
          // Only the window's start is read from Spark's window struct (and its end computed from it, as
          // Spark does): a struct read twice above its projection keeps CollapseProject trying to inline
          // it on every optimizer pass of every micro-batch.
          assigned = "SELECT *, " + window + ".`start` AS " + w + " FROM " + table;
          assigned = "SELECT *, timestampadd(MILLISECOND, " + millisOf(size) + ", " + w + ") AS " + e + " FROM (" + assigned + ")";
          start = w;
          break;
        }
        case "HOP": {
          String slide = duration(args.get(2), "HOP slide");
          String size = duration(args.get(3), "HOP size");
          checkSlide(slide, size);
          String window = "window(" + time + ", " + size + ", " + slide + (offset == null ? "" : ", " + offset) + ")";
          assigned = "SELECT *, " + window + " AS " + w + " FROM " + table;
          assigned = "SELECT *, " + w + ".`end` AS " + e + " FROM (" + assigned + ")";
          break;
        }
        case "SESSION": {
          // Each row's own window [ts, ts + gap): the aggregation grouped by window_start and
          // window_end merges them into sessions (TvfWindowAggregates); nothing else may read them.
          String gap = String.valueOf(millisOf(duration(args.get(2), "SESSION gap")));
          assigned = "SELECT *, named_struct('start', " + time + ", 'end', timestampadd(MILLISECOND, " + gap + ", " + time
              + ")) AS " + w + " FROM " + table;
          assigned = "SELECT *, " + w + ".`end` AS " + e + " FROM (" + assigned + ")";
          break;
        }
        default: {
          // CUMULATE: windows share the start of the size-aligned window and end every step.
          String step = duration(args.get(2), "CUMULATE step");
          String size = duration(args.get(3), "CUMULATE size");
          long stepMs = millisOf(step);
          long sizeMs = millisOf(size);
          if (sizeMs % stepMs != 0) {
            throw new ValidationException("CUMULATE size must be an integral multiple of its step, got step " + args.get(2).strip()
                + " and size " + args.get(3).strip() + ".");
          }
          String window = offset == null ? "window(" + time + ", " + size + ")"
              : "window(" + time + ", " + size + ", " + size + ", " + offset + ")";
          assigned = "SELECT *, " + window + " AS " + w + " FROM " + table;
          assigned = "SELECT *, explode(sequence(1, " + (sizeMs / stepMs) + ")) AS " + k + " FROM (" + assigned + ")";
          assigned = "SELECT * EXCEPT (" + k + "), timestampadd(MILLISECOND, " + k + " * " + stepMs + ", " + w + ".`start`) AS " + e
              + " FROM (" + assigned + ")";
          assigned = "SELECT * FROM (" + assigned + ") WHERE " + time + " < " + e;
          break;
        }
      }
      return "(SELECT * EXCEPT (" + w + ", " + e + "), " + start + " AS window_start, " + e + " AS window_end, "
          + windowTime + " AS window_time FROM (" + assigned + "))";
    }

    /** Positional arguments; named ones (DATA =>, TIMECOL =>, SIZE =>, ...) put in Flink's order. */
    private List<String> namedInOrder(String kind, List<String> args) {
      List<String> order = kind.equals("TUMBLE") ? List.of("DATA", "TIMECOL", "SIZE", "OFFSET")
          : kind.equals("HOP") ? List.of("DATA", "TIMECOL", "SLIDE", "SIZE", "OFFSET")
          : kind.equals("SESSION") ? List.of("DATA", "TIMECOL", "GAP")
          : List.of("DATA", "TIMECOL", "STEP", "SIZE", "OFFSET");
      String[] placed = new String[order.size()];
      boolean named = false;
      int positional = 0;
      for (String a : args) {
        Matcher m = NAMED_ARG.matcher(a.strip());
        if (m.matches()) {
          int i = order.indexOf(m.group(1).toUpperCase(Locale.ROOT));
          if (i < 0) throw new ValidationException(kind + " has no parameter " + m.group(1) + "; parameters: " + order + ".");
          placed[i] = m.group(2);
          named = true;
        } else {
          placed[positional++] = a;
        }
      }
      if (!named) return args;
      List<String> out = new ArrayList<>();
      for (String p : placed) {
        if (p == null) break;
        out.add(p);
      }
      return out;
    }

    private boolean isLocalZoned(String table, String column) {
      try {
        for (StructField f : spark.table(table.replace("`", "")).schema().fields()) {
          if (f.name().equals(column.replace("`", ""))) {
            DataType t = f.dataType();
            return t instanceof TimestampType;
          }
        }
      } catch (RuntimeException unknownTable) {
        // Spark reports an unknown table or column when it analyses the rewritten query.
      }
      return false;
    }

    private int skipSpace(int i) {
      while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) i++;
      return i;
    }

    private int skipQuoted(int start) {
      int end = SqlText.quotedEnd(sql, start, true);
      return end < 0 ? sql.length() : end;
    }

    private int matchingParen(int open) {
      int depth = 0;
      int i = open;
      while (i < sql.length()) {
        char c = sql.charAt(i);
        if (c == '\'' || c == '"' || c == '`') {
          i = skipQuoted(i);
          continue;
        }
        if (c == '(') depth++;
        if (c == ')' && --depth == 0) return i;
        i++;
      }
      throw new SqlParserException("Unbalanced parentheses after position " + open + ".");
    }

    /** Splits on commas outside parentheses and quotes. */
    private List<String> splitArgs(String s) {
      List<String> parts = new ArrayList<>();
      int depth = 0;
      int start = 0;
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (c == '\'' || c == '"' || c == '`') {
          int j = i + 1;
          while (j < s.length() && s.charAt(j) != c) j++;
          i = j;
        } else if (c == '(') {
          depth++;
        } else if (c == ')') {
          depth--;
        } else if (c == ',' && depth == 0) {
          parts.add(s.substring(start, i));
          start = i + 1;
        }
      }
      if (!s.isBlank()) parts.add(s.substring(start));
      return parts;
    }
  }
}
