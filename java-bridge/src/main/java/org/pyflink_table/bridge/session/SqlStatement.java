package org.pyflink_table.bridge.session;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pyflink_table.bridge.errors.SqlParserException;

/**
 * One SQL statement of {@code execute_sql}, classified once: its kind says which piece runs it
 * ({@link TableEnv#executeStatement} dispatches on it), and its parts are what the classifying
 * pattern found (names, flags, the query), in the order each kind documents.
 *
 * @param kind what the statement is
 * @param text the statement without surrounding blanks and a final ';', generated names quoted
 * @param parts the pieces the kind's pattern captured; an absent optional piece is null
 */
public record SqlStatement(Kind kind, String text, List<String> parts) {

  /** The kinds of statement, each with the parts it carries. */
  public enum Kind {
    /** SELECT, WITH, VALUES or a parenthesised query. */
    QUERY,
    /** EXPLAIN [PLAN FOR] [details] query: parts {details or "", query}. */
    EXPLAIN,
    /** DESCRIBE/DESC name: parts {name}. */
    DESCRIBE,
    SHOW_TABLES,
    SHOW_VIEWS,
    SHOW_CATALOGS,
    SHOW_DATABASES,
    SHOW_CURRENT_CATALOG,
    SHOW_CURRENT_DATABASE,
    /** SHOW [USER] FUNCTIONS: parts {USER or null}. */
    SHOW_FUNCTIONS,
    /** Another SHOW, answered by Spark. */
    SHOW_OTHER,
    /** CREATE [TEMPORARY] TABLE, with or without AS query. */
    CREATE_TABLE,
    /** CREATE [TEMPORARY] VIEW [IF NOT EXISTS] path AS query: parts {TEMPORARY, IF NOT EXISTS, path, query}. */
    CREATE_VIEW,
    /** DROP [TEMPORARY] TABLE|VIEW [IF EXISTS] path: parts {TEMPORARY, TABLE or VIEW, IF EXISTS, path}. */
    DROP,
    INSERT,
    /** EXECUTE STATEMENT SET BEGIN ... END, or BEGIN STATEMENT SET ... END. */
    STATEMENT_SET,
    /** USE [CATALOG] name: parts {CATALOG or null, name}. */
    USE,
    CREATE_CATALOG,
    /**
     * CREATE [TEMPORARY [SYSTEM]] FUNCTION [IF NOT EXISTS] path AS 'identifier' [LANGUAGE lang]: parts
     * {TEMPORARY, SYSTEM, IF NOT EXISTS, path, identifier, language}; run by Python (see {@link #runsInPython}).
     */
    CREATE_FUNCTION,
    /** DROP [TEMPORARY [SYSTEM]] FUNCTION [IF EXISTS] path: parts {TEMPORARY, SYSTEM, IF EXISTS, path}; run by Python. */
    DROP_FUNCTION,
    /**
     * ALTER [TEMPORARY [SYSTEM]] FUNCTION [IF EXISTS] path AS 'identifier' [LANGUAGE lang]: parts
     * {TEMPORARY, SYSTEM, IF EXISTS, path, identifier, language}; run by Python.
     */
    ALTER_FUNCTION,
    /** CREATE DATABASE or DROP DATABASE. */
    DATABASE_DDL,
    /** Anything else, handed to Spark SQL. */
    OTHER
  }

  private static final Pattern CREATE_VIEW = Pattern.compile(
      "(?is)^CREATE\\s+(TEMPORARY\\s+)?VIEW\\s+(IF\\s+NOT\\s+EXISTS\\s+)?([`\\w.$-]+)(?:\\s*\\([^)]*\\))?\\s+AS\\s+(.*)$");
  private static final Pattern DROP = Pattern.compile(
      "(?is)^DROP\\s+(TEMPORARY\\s+)?(TABLE|VIEW)\\s+(IF\\s+EXISTS\\s+)?([`\\w.$-]+)$");
  // Function DDL: the identifier is a quoted string ('' inside it is a quote).
  private static final Pattern CREATE_FUNCTION = Pattern.compile(
      "(?is)^CREATE\\s+(TEMPORARY\\s+(SYSTEM\\s+)?)?FUNCTION\\s+(IF\\s+NOT\\s+EXISTS\\s+)?([`\\w.$-]+)\\s+AS\\s+"
      + "'((?:[^']|'')*)'(?:\\s+LANGUAGE\\s+(\\w+))?$");
  private static final Pattern DROP_FUNCTION = Pattern.compile(
      "(?is)^DROP\\s+(TEMPORARY\\s+(SYSTEM\\s+)?)?FUNCTION\\s+(IF\\s+EXISTS\\s+)?([`\\w.$-]+)$");
  private static final Pattern ALTER_FUNCTION = Pattern.compile(
      "(?is)^ALTER\\s+(TEMPORARY\\s+(SYSTEM\\s+)?)?FUNCTION\\s+(IF\\s+EXISTS\\s+)?([`\\w.$-]+)\\s+AS\\s+"
      + "'((?:[^']|'')*)'(?:\\s+LANGUAGE\\s+(\\w+))?$");
  /** Any function DDL, to refuse the forms the patterns above do not take (USING JAR, a missing quote). */
  private static final Pattern FUNCTION_DDL = Pattern.compile(
      "(?is)^(CREATE|DROP|ALTER)\\s+(TEMPORARY\\s+)?(SYSTEM\\s+)?FUNCTION\\b.*");
  private static final Pattern USE = Pattern.compile("(?is)^USE\\s+(CATALOG\\s+)?([`\\w.$-]+)$");
  private static final Pattern EXPLAIN = Pattern.compile(
      "(?is)^EXPLAIN\\s+(?:PLAN\\s+FOR\\s+)?((?:(?:ESTIMATED_COST|CHANGELOG_MODE|JSON_EXECUTION_PLAN|PLAN_ADVICE)\\s*,?\\s*)*)(.*)$");

  /** Classifies {@code statement}; the first kind whose form matches wins. */
  public static SqlStatement classify(String statement) {
    String s = TableEnv.quoteGeneratedNames(statement.strip());
    if (s.endsWith(";")) s = s.substring(0, s.length() - 1).strip();
    String upper = s.toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
    if (upper.startsWith("CREATE TABLE") || upper.startsWith("CREATE TEMPORARY TABLE")) {
      return new SqlStatement(Kind.CREATE_TABLE, s, List.of());
    }
    Matcher m = CREATE_VIEW.matcher(s);
    if (m.matches()) return of(Kind.CREATE_VIEW, s, m);
    m = DROP.matcher(s);
    if (m.matches()) return of(Kind.DROP, s, m);
    m = CREATE_FUNCTION.matcher(s);
    if (m.matches()) return of(Kind.CREATE_FUNCTION, s, m);
    m = DROP_FUNCTION.matcher(s);
    if (m.matches()) return of(Kind.DROP_FUNCTION, s, m);
    m = ALTER_FUNCTION.matcher(s);
    if (m.matches()) return of(Kind.ALTER_FUNCTION, s, m);
    if (FUNCTION_DDL.matcher(s).matches()) {
      throw new SqlParserException("SQL parse failed. Function DDL takes the forms CREATE [TEMPORARY [SYSTEM]] FUNCTION"
          + " [IF NOT EXISTS] name AS 'module.attribute' LANGUAGE PYTHON, ALTER [TEMPORARY [SYSTEM]] FUNCTION [IF EXISTS]"
          + " name AS 'module.attribute' LANGUAGE PYTHON and DROP [TEMPORARY [SYSTEM]] FUNCTION [IF EXISTS] name; got: "
          + s);
    }
    if (upper.startsWith("INSERT ")) return new SqlStatement(Kind.INSERT, s, List.of());
    if (upper.startsWith("EXECUTE STATEMENT SET") || upper.startsWith("BEGIN STATEMENT SET")) {
      return new SqlStatement(Kind.STATEMENT_SET, s, List.of());
    }
    switch (upper) {
      case "SHOW CATALOGS": return new SqlStatement(Kind.SHOW_CATALOGS, s, List.of());
      case "SHOW VIEWS": return new SqlStatement(Kind.SHOW_VIEWS, s, List.of());
      case "SHOW DATABASES": return new SqlStatement(Kind.SHOW_DATABASES, s, List.of());
      case "SHOW CURRENT CATALOG": return new SqlStatement(Kind.SHOW_CURRENT_CATALOG, s, List.of());
      case "SHOW CURRENT DATABASE": return new SqlStatement(Kind.SHOW_CURRENT_DATABASE, s, List.of());
      case "SHOW TABLES": return new SqlStatement(Kind.SHOW_TABLES, s, List.of());
      case "SHOW FUNCTIONS": return new SqlStatement(Kind.SHOW_FUNCTIONS, s, Arrays.asList((String) null));
      case "SHOW USER FUNCTIONS": return new SqlStatement(Kind.SHOW_FUNCTIONS, s, Arrays.asList("USER"));
      default: break;
    }
    m = USE.matcher(s);
    if (m.matches()) return of(Kind.USE, s, m);
    if (upper.startsWith("CREATE CATALOG")) return new SqlStatement(Kind.CREATE_CATALOG, s, List.of());
    if (upper.startsWith("CREATE DATABASE") || upper.startsWith("DROP DATABASE")) {
      return new SqlStatement(Kind.DATABASE_DDL, s, List.of());
    }
    m = EXPLAIN.matcher(s);
    if (m.matches()) return of(Kind.EXPLAIN, s, m);
    if (upper.startsWith("SELECT") || upper.startsWith("WITH") || upper.startsWith("VALUES") || upper.startsWith("(")) {
      return new SqlStatement(Kind.QUERY, s, List.of());
    }
    if (upper.startsWith("DESCRIBE ") || upper.startsWith("DESC ")) {
      return new SqlStatement(Kind.DESCRIBE, s, Arrays.asList(s.substring(s.indexOf(' ') + 1).strip().replace("`", "")));
    }
    if (upper.startsWith("SHOW")) return new SqlStatement(Kind.SHOW_OTHER, s, List.of());
    return new SqlStatement(Kind.OTHER, s, List.of());
  }

  private static SqlStatement of(Kind kind, String s, Matcher m) {
    String[] groups = new String[m.groupCount()];
    for (int i = 0; i < groups.length; i++) groups[i] = m.group(i + 1);
    return new SqlStatement(kind, s, Arrays.asList(groups));
  }

  /** Whether the statement may run a Spark job (with Python functions) when executed. */
  public boolean runsJob() {
    String upper = text.toUpperCase(Locale.ROOT);
    return kind == Kind.INSERT || kind == Kind.STATEMENT_SET || kind != Kind.CREATE_FUNCTION && upper.startsWith("CREATE")
        || upper.startsWith("EXECUTE");
  }

  /**
   * Whether Python runs the statement: function DDL names a Python object, which only the driver's
   * interpreter can import and wrap.
   */
  public boolean runsInPython() {
    return kind == Kind.CREATE_FUNCTION || kind == Kind.DROP_FUNCTION || kind == Kind.ALTER_FUNCTION;
  }

  /** Whether the result lists objects (SHOW, DESCRIBE): Flink prints it with columns as wide as the content. */
  public boolean listsObjects() {
    return kind.name().startsWith("SHOW_") || kind == Kind.DESCRIBE;
  }

  /** Whether the result is a plan (one row, column "result"). */
  public boolean isExplain() {
    return kind == Kind.EXPLAIN;
  }

  /** The kind's name, for Python. */
  public String kindName() {
    return kind.name();
  }
}
