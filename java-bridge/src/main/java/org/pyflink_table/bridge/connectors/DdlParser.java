package org.pyflink_table.bridge.connectors;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pyflink_table.bridge.errors.SqlParserException;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.SqlText;

/**
 * Reads Flink's CREATE TABLE statement into a {@link TableDefinition}. Spark's parser does not
 * know Flink's DDL (WITH options, computed columns, watermarks), so the statement is split here:
 * the column list, PARTITIONED BY and WITH clauses, each with quote- and bracket-aware splitting.
 */
public final class DdlParser {
  private DdlParser() {}

  /** The parsed statement: path, flags and definition. */
  public static final class CreateTable {
    public String path;
    public boolean temporary;
    public boolean ifNotExists;
    public TableDefinition definition;
    /** The query of CREATE TABLE ... AS SELECT, or null. */
    public String asQuery;
  }

  private static final Pattern HEAD = Pattern.compile(
      "(?is)^CREATE\\s+(TEMPORARY\\s+)?TABLE\\s+(IF\\s+NOT\\s+EXISTS\\s+)?([`\\w.$-]+(?:\\.[`\\w$-]+)*)\\s*(.*)$");

  public static CreateTable parseCreateTable(String sql) {
    Matcher m = HEAD.matcher(sql.strip());
    if (!m.matches()) {
      throw new SqlParserException("SQL parse failed. Could not read the CREATE TABLE statement: " + oneLine(sql));
    }
    CreateTable ct = new CreateTable();
    ct.temporary = m.group(1) != null;
    ct.ifNotExists = m.group(2) != null;
    ct.path = unquote(m.group(3));
    ct.definition = new TableDefinition();
    String rest = m.group(4).strip();
    if (rest.startsWith("(")) {
      int close = matching(rest, 0);
      parseBody(rest.substring(1, close), ct.definition);
      rest = rest.substring(close + 1).strip();
    }
    while (!rest.isEmpty()) {
      String upper = rest.toUpperCase(Locale.ROOT);
      if (upper.startsWith("COMMENT")) {
        rest = rest.substring("COMMENT".length()).strip();
        int end = endOfQuoted(rest, 0);
        ct.definition.comment = unquoteString(rest.substring(0, end + 1));
        rest = rest.substring(end + 1).strip();
      } else if (upper.matches("(?s)^PARTITIONED\\s+BY\\s*\\(.*")) {
        int open = rest.indexOf('(');
        int close = matching(rest, open);
        for (String key : splitTopLevel(rest.substring(open + 1, close))) {
          ct.definition.partitionKeys.add(unquote(key.strip()));
        }
        rest = rest.substring(close + 1).strip();
      } else if (upper.matches("(?s)^WITH\\s*\\(.*")) {
        int open = rest.indexOf('(');
        int close = matching(rest, open);
        for (String kv : splitTopLevel(rest.substring(open + 1, close))) {
          if (kv.isBlank()) continue;
          int eq = indexOfTopLevel(kv, '=');
          if (eq < 0) {
            throw new SqlParserException("SQL parse failed. Option " + kv.strip() + " is not of the form 'key' = 'value'.");
          }
          ct.definition.options.put(unquoteString(kv.substring(0, eq).strip()), unquoteString(kv.substring(eq + 1).strip()));
        }
        rest = rest.substring(close + 1).strip();
      } else if (upper.startsWith("AS ") || upper.startsWith("AS\n") || upper.startsWith("AS(")) {
        ct.asQuery = rest.substring(2).strip();
        rest = "";
      } else if (upper.startsWith("LIKE")) {
        throw TableException.unsupported("CREATE TABLE ... LIKE");
      } else if (upper.startsWith("DISTRIBUTED")) {
        throw TableException.unsupported("CREATE TABLE ... DISTRIBUTED BY");
      } else {
        throw new SqlParserException("SQL parse failed. Unexpected text in CREATE TABLE: " + oneLine(rest));
      }
    }
    for (String key : ct.definition.partitionKeys) {
      if (ct.definition.column(key) == null && ct.asQuery == null) {
        throw new ValidationException("Partition column '" + key
            + "' not defined in the table schema. Available columns: " + ct.definition.columnNames() + ".");
      }
    }
    return ct;
  }

  private static final Pattern TRAILING_COMMENT = Pattern.compile("(?is)\\s+COMMENT\\s+'(?:[^']|'')*'\\s*$");
  /** {@code <type> METADATA [FROM 'key'] [VIRTUAL]}: a metadata column's type, key and virtuality. */
  private static final Pattern METADATA = Pattern.compile(
      "(?is)^(.*?)\\s+METADATA(?:\\s+FROM\\s+'((?:[^']|'')*)')?(\\s+VIRTUAL)?\\s*$");
  private static final Pattern TRAILING_PK = Pattern.compile("(?is)\\s+PRIMARY\\s+KEY(\\s+NOT\\s+ENFORCED)?\\s*$");

  private static void parseBody(String body, TableDefinition def) {
    for (String raw : splitTopLevel(body)) {
      String item = raw.strip();
      if (item.isEmpty()) continue;
      String upper = item.toUpperCase(Locale.ROOT);
      if (upper.startsWith("WATERMARK")) {
        def.watermark = item;
        continue;
      }
      if (upper.startsWith("CONSTRAINT") || upper.startsWith("PRIMARY")) {
        int open = item.indexOf('(');
        int close = matching(item, open);
        for (String k : splitTopLevel(item.substring(open + 1, close))) def.primaryKey.add(unquote(k.strip()));
        continue;
      }
      String name;
      String rest;
      if (item.startsWith("`")) {
        int end = item.indexOf('`', 1);
        name = item.substring(1, end);
        rest = item.substring(end + 1).strip();
      } else {
        int sp = 0;
        while (sp < item.length() && !Character.isWhitespace(item.charAt(sp))) sp++;
        name = item.substring(0, sp);
        rest = item.substring(sp).strip();
      }
      String restUpper = rest.toUpperCase(Locale.ROOT);
      if (restUpper.startsWith("AS ") || restUpper.startsWith("AS(")) {
        String expr = TRAILING_COMMENT.matcher(rest.substring(2).strip()).replaceAll("");
        def.columns.add(new TableDefinition.Column(name, null, expr.strip()));
        continue;
      }
      String type = TRAILING_COMMENT.matcher(rest).replaceAll("");
      Matcher meta = METADATA.matcher(type);
      if (meta.matches()) {
        String key = meta.group(2) == null ? null : meta.group(2).replace("''", "'");
        def.columns.add(new TableDefinition.Column(name, meta.group(1).strip(), null, true, key, meta.group(3) != null));
        continue;
      }
      Matcher pk = TRAILING_PK.matcher(type);
      if (pk.find()) {
        def.primaryKey.add(name);
        type = type.substring(0, pk.start());
      }
      def.columns.add(new TableDefinition.Column(name, type.strip(), null));
    }
  }

  /** Index of the bracket closing the one at {@code open}, honouring quotes. */
  public static int matching(String s, int open) {
    int depth = 0;
    for (int i = open; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\'' || c == '`' || c == '"') {
        i = endOfQuoted(s, i);
      } else if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
        if (depth == 0) return i;
      }
    }
    throw new SqlParserException("SQL parse failed. Unbalanced parentheses in: " + oneLine(s));
  }

  /** Index of the quote closing the quoted text starting at {@code start} ('' escapes a quote). */
  static int endOfQuoted(String s, int start) {
    int end = SqlText.quotedEnd(s, start, false);
    if (end >= 0) return end - 1;
    throw new SqlParserException("SQL parse failed. Unclosed quote in: " + oneLine(s));
  }

  /** Splits at commas outside quotes, (), <> and []. */
  public static List<String> splitTopLevel(String s) {
    List<String> parts = new ArrayList<>();
    // '<' opens a bracket only after a type name (ARRAY<...>), never in a comparison a < b.
    ArrayDeque<Character> open = new ArrayDeque<>();
    int start = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\'' || c == '`' || c == '"') {
        i = endOfQuoted(s, i);
      } else if (c == '(' || c == '[' || (c == '<' && afterTypeName(s, i))) {
        open.push(c);
      } else if ((c == ')' || c == ']' || (c == '>' && !open.isEmpty() && open.peek() == '<')) && !open.isEmpty()) {
        open.pop();
      } else if (c == ',' && open.isEmpty()) {
        parts.add(s.substring(start, i));
        start = i + 1;
      }
    }
    parts.add(s.substring(start));
    return parts;
  }

  private static boolean afterTypeName(String s, int lt) {
    int e = lt;
    while (e > 0 && Character.isWhitespace(s.charAt(e - 1))) e--;
    int b = e;
    while (b > 0 && Character.isLetter(s.charAt(b - 1))) b--;
    String word = s.substring(b, e).toUpperCase(Locale.ROOT);
    return word.equals("ARRAY") || word.equals("MAP") || word.equals("ROW") || word.equals("MULTISET");
  }

  static int indexOfTopLevel(String s, char target) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\'' || c == '`' || c == '"') {
        i = endOfQuoted(s, i);
      } else if (c == target) {
        return i;
      }
    }
    return -1;
  }

  /** 'text' -> text (with '' -> '). */
  public static String unquoteString(String s) {
    String t = s.strip();
    if (t.length() >= 2 && t.startsWith("'") && t.endsWith("'")) {
      return t.substring(1, t.length() - 1).replace("''", "'");
    }
    throw new SqlParserException("SQL parse failed. Expected a quoted string but found: " + t);
  }

  /** `a`.`b` or a.b -> a.b */
  public static String unquote(String identifier) {
    return identifier.strip().replace("`", "");
  }

  public static String oneLine(String s) {
    String t = s.strip().replaceAll("\\s+", " ");
    return t.length() > 120 ? t.substring(0, 117) + "..." : t;
  }
}
