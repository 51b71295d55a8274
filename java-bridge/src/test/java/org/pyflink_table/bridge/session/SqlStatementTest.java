package org.pyflink_table.bridge.session;

import org.pyflink_table.bridge.Checks;

/**
 * Self-checking test of {@link SqlStatement#classify}: each statement's kind and parts (what the
 * router dispatches on). Run main; it exits non-zero on a failure.
 */
public final class SqlStatementTest {
  private static final Checks CHECKS = new Checks("SqlStatementTest");

  public static void main(String[] args) {
    is("SELECT 1", "QUERY []");
    is("  select * from t ;", "QUERY []");
    is("WITH a AS (SELECT 1) SELECT * FROM a", "QUERY []");
    is("VALUES (1), (2)", "QUERY []");
    is("(SELECT 1) UNION (SELECT 2)", "QUERY []");
    is("EXPLAIN SELECT 1", "EXPLAIN [, SELECT 1]");
    is("EXPLAIN PLAN FOR SELECT 1", "EXPLAIN [, SELECT 1]");
    is("EXPLAIN CHANGELOG_MODE, ESTIMATED_COST SELECT a FROM t", "EXPLAIN [CHANGELOG_MODE, ESTIMATED_COST , SELECT a FROM t]");
    is("EXPLAIN INSERT INTO s SELECT 1", "EXPLAIN [, INSERT INTO s SELECT 1]");
    is("DESCRIBE `t`", "DESCRIBE [t]");
    is("desc db.t", "DESCRIBE [db.t]");
    is("SHOW TABLES", "SHOW_TABLES []");
    is("show   views", "SHOW_VIEWS []");
    is("SHOW CATALOGS;", "SHOW_CATALOGS []");
    is("SHOW DATABASES", "SHOW_DATABASES []");
    is("SHOW CURRENT CATALOG", "SHOW_CURRENT_CATALOG []");
    is("SHOW CURRENT DATABASE", "SHOW_CURRENT_DATABASE []");
    is("SHOW FUNCTIONS", "SHOW_FUNCTIONS [null]");
    is("show user  functions;", "SHOW_FUNCTIONS [USER]");
    is("SHOW MODULES", "SHOW_OTHER []");
    is("CREATE TEMPORARY FUNCTION f AS 'm.add' LANGUAGE PYTHON",
        "CREATE_FUNCTION [TEMPORARY , null, null, f, m.add, PYTHON]");
    is("create temporary system function if not exists `f` as 'a.b.c' language python",
        "CREATE_FUNCTION [temporary system , system , if not exists , `f`, a.b.c, python]");
    is("CREATE FUNCTION cat.db.f AS 'com.x.F'", "CREATE_FUNCTION [null, null, null, cat.db.f, com.x.F, null]");
    is("CREATE FUNCTION f AS 'it''s' LANGUAGE JAVA", "CREATE_FUNCTION [null, null, null, f, it''s, JAVA]");
    is("DROP TEMPORARY SYSTEM FUNCTION IF EXISTS f", "DROP_FUNCTION [TEMPORARY SYSTEM , SYSTEM , IF EXISTS , f]");
    is("DROP FUNCTION db.f", "DROP_FUNCTION [null, null, null, db.f]");
    is("ALTER TEMPORARY FUNCTION IF EXISTS f AS 'm.g' LANGUAGE PYTHON",
        "ALTER_FUNCTION [TEMPORARY , null, IF EXISTS , f, m.g, PYTHON]");
    CHECKS.check("malformed function DDL", "SqlParserException", () -> {
      try {
        SqlStatement.classify("CREATE FUNCTION f AS 'm.g' USING JAR 'x.jar'");
        return "classified";
      } catch (org.pyflink_table.bridge.errors.SqlParserException e) {
        return "SqlParserException";
      }
    });
    is("CREATE TABLE t (a INT) WITH ('connector' = 'datagen')", "CREATE_TABLE []");
    is("CREATE TEMPORARY TABLE t AS SELECT 1", "CREATE_TABLE []");
    is("CREATE VIEW v AS SELECT 1", "CREATE_VIEW [null, null, v, SELECT 1]");
    is("CREATE TEMPORARY VIEW IF NOT EXISTS db.v (x) AS SELECT 1",
        "CREATE_VIEW [TEMPORARY , IF NOT EXISTS , db.v, SELECT 1]");
    is("DROP TABLE t", "DROP [null, TABLE, null, t]");
    is("DROP TEMPORARY VIEW IF EXISTS v", "DROP [TEMPORARY , VIEW, IF EXISTS , v]");
    is("DROP DATABASE d", "DATABASE_DDL []");
    is("CREATE DATABASE IF NOT EXISTS d", "DATABASE_DDL []");
    is("CREATE CATALOG c WITH ('type' = 'x')", "CREATE_CATALOG []");
    is("INSERT INTO s SELECT * FROM t", "INSERT []");
    is("insert\n overwrite s SELECT 1", "INSERT []");
    is("EXECUTE STATEMENT SET BEGIN INSERT INTO s SELECT 1; END", "STATEMENT_SET []");
    is("BEGIN STATEMENT SET; INSERT INTO s SELECT 1; END", "STATEMENT_SET []");
    is("USE CATALOG default_catalog", "USE [CATALOG , default_catalog]");
    is("USE d", "USE [null, d]");
    is("SET 'a' = 'b'", "OTHER []");
    is("SELECT * FROM UnnamedTable$0", "QUERY []");
    CHECKS.check("generated names quoted", "SELECT * FROM `UnnamedTable$0`",
        () -> SqlStatement.classify("SELECT * FROM UnnamedTable$0").text());

    jobs("INSERT INTO s SELECT 1", true);
    jobs("EXECUTE STATEMENT SET BEGIN INSERT INTO s SELECT 1; END", true);
    jobs("CREATE TABLE t AS SELECT 1", true);
    jobs("SELECT 1", false);
    jobs("SHOW TABLES", false);
    jobs("CREATE FUNCTION f AS 'm.g' LANGUAGE PYTHON", false);
    python("CREATE FUNCTION f AS 'm.g' LANGUAGE PYTHON", true);
    python("DROP TEMPORARY FUNCTION f", true);
    python("ALTER FUNCTION f AS 'm.g' LANGUAGE PYTHON", true);
    python("DROP TABLE f", false);
    lists("SHOW TABLES", true);
    lists("SHOW FUNCTIONS", true);
    lists("DESC t", true);
    lists("SELECT 1", false);
    lists("EXPLAIN SELECT 1", false);
    CHECKS.finish();
  }

  private static void is(String sql, String expected) {
    CHECKS.check(sql, expected, () -> {
      SqlStatement s = SqlStatement.classify(sql);
      return s.kind() + " " + s.parts();
    });
  }

  private static void jobs(String sql, boolean expected) {
    CHECKS.check("runsJob " + sql, String.valueOf(expected), () -> String.valueOf(SqlStatement.classify(sql).runsJob()));
  }

  private static void python(String sql, boolean expected) {
    CHECKS.check("runsInPython " + sql, String.valueOf(expected),
        () -> String.valueOf(SqlStatement.classify(sql).runsInPython()));
  }

  private static void lists(String sql, boolean expected) {
    CHECKS.check("listsObjects " + sql, String.valueOf(expected),
        () -> String.valueOf(SqlStatement.classify(sql).listsObjects()));
  }
}
