package org.pyflink_table.bridge.errors;

import java.io.FileNotFoundException;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.pyflink_table.bridge.protocol.Protocol;

/**
 * The one place where JVM failures become PyFlink's exception kinds. Python asks it for a
 * {kind, message} pair and raises the matching Python exception, so users never see a Py4J trace.
 * Spark's analysis errors are rewritten into Flink-like one-liners that name what is at fault and,
 * where Spark knows it, what exists instead.
 */
public final class ErrorTranslator {
  private ErrorTranslator() {}

  /**
   * Layers above this one that know a failure better than its text (the connectors' malformed rows)
   * register a describer here instead of being called from here: each gets a failure's root message
   * and returns the user's message, or null when the failure is not theirs.
   */
  private static final CopyOnWriteArrayList<UnaryOperator<String>> DESCRIBERS = new CopyOnWriteArrayList<>();

  /** Registers {@code describer} once (registering the same one again does nothing). */
  public static void addDescriber(UnaryOperator<String> describer) {
    DESCRIBERS.addIfAbsent(describer);
  }

  /** Returns {exception kind, message whose first line says what is wrong}. */
  public static String[] translate(Throwable t) {
    Throwable root = t;
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof ValidationException) {
        return new String[] {Protocol.ERROR_VALIDATION, c.getMessage()};
      }
      if (c instanceof SqlParserException) {
        return new String[] {Protocol.ERROR_SQL_PARSER, c.getMessage()};
      }
      if (c instanceof TableException) {
        return new String[] {Protocol.ERROR_TABLE, c.getMessage()};
      }
      if (c instanceof ParseException) {
        return new String[] {Protocol.ERROR_SQL_PARSER, parseMessage((ParseException) c)};
      }
      if (c instanceof AnalysisException ae && "INVALID_PANDAS_UDF_PLACEMENT".equals(ae.getCondition())) {
        // Spark's SQL aggregation cannot run its grouped-aggregate UDFs (ours, general or pandas)
        // beside other aggregates; the Table API's select and batch SQL's aggregations split them
        // (table.PythonAggregateSql), an aggregation in a subquery expression is not split. PyFlink
        // 2.3 batch cannot plan either form (measured).
        return new String[] {Protocol.ERROR_TABLE, "Unsupported: the Python aggregate function "
            + unquote(ae.getMessageParameters().getOrDefault("functionList", "?")) + " next to built-in aggregate "
            + "functions in one SQL aggregation inside a subquery expression is not supported by pyflink_table on "
            + "Spark; the same aggregation in the FROM clause, or the Table API's group_by(...).select(...), runs "
            + "them together."};
      }
      if (c instanceof AnalysisException) {
        return new String[] {Protocol.ERROR_VALIDATION, analysisMessage((AnalysisException) c)};
      }
      if (c.getClass().getName().equals("org.apache.spark.api.python.PythonException")) {
        return new String[] {Protocol.ERROR_PYTHON, c.getMessage()};
      }
      if (c instanceof FileNotFoundException) {
        return new String[] {Protocol.ERROR_TABLE, c.getMessage()};
      }
      String interpreter = missingInterpreter(c);
      if (interpreter != null) {
        return new String[] {"TableException", "Spark's Python workers cannot start: the interpreter '"
            + interpreter + "' cannot be run on the executors. Set python.executable (or spark.pyspark.python,"
            + " or PYSPARK_PYTHON) to a Python that exists on every worker and has pyspark, pandas and pyarrow."};
      }
      root = c;
    }
    return new String[] {Protocol.ERROR_TABLE, runtimeMessage(t, root)};
  }

  /** The program of "Cannot run program \"/path\": error=2, ..." (how a missing Python shows), or null. */
  static String missingInterpreter(Throwable c) {
    String msg = c.getMessage();
    String prefix = "Cannot run program \"";
    // A task's failure may reach the driver as text inside the job's abort message only.
    int start = msg == null ? -1 : msg.indexOf(prefix);
    if (start < 0) return null;
    int end = msg.indexOf('"', start + prefix.length());
    return end < 0 ? null : msg.substring(start + prefix.length(), end);
  }

  /** A failure while running: the root cause's first line, prefixed with its Spark error class. */
  static String runtimeMessage(Throwable top, Throwable root) {
    // A malformed CSV/JSON row, for instance: the message gains the row's line in its file.
    for (UnaryOperator<String> describer : DESCRIBERS) {
      String described = describer.apply(root.getMessage());
      if (described != null) return described;
    }
    String msg = root.getMessage() == null ? root.getClass().getName() : clean(root.getMessage());
    String first = firstLine(msg);
    if (root instanceof SparkThrowable && ((SparkThrowable) root).getCondition() != null) {
      first = simplify(first);
    }
    return "Job failed: " + first + (msg.contains("\n") ? "\n" + msg : "");
  }

  /** Flink says "SQL parse failed. ..." for SQL text it cannot read. */
  public static String parseMessage(ParseException e) {
    String simple = simplify(firstLine(clean(e.getMessage())));
    return "SQL parse failed. " + simple;
  }

  /** Rewrites Spark's analysis error classes into Flink-like one-liners. */
  public static String analysisMessage(AnalysisException e) {
    String condition = e.getCondition() == null ? "" : e.getCondition();
    Map<String, String> p = e.getMessageParameters();
    String head = condition.contains(".") ? condition.substring(0, condition.indexOf('.')) : condition;
    switch (head) {
      case "UNRESOLVED_COLUMN":
      case "UNRESOLVED_FIELD": {
        String name = unquote(p.getOrDefault("objectName", p.getOrDefault("fieldName", "?")));
        String proposal = p.get("proposal");
        return "Column '" + name + "' not found in any table"
            + (proposal == null || proposal.isEmpty() ? "." : "; did you mean one of [" + unquoteList(proposal) + "]?");
      }
      case "UNRESOLVED_ROUTINE":
        return "No match found for function signature " + unquote(p.getOrDefault("routineName", "?"))
            + ". Use a built-in function or register it with create_temporary_system_function.";
      case "TABLE_OR_VIEW_NOT_FOUND":
        return "Object '" + unquote(p.getOrDefault("relationName", "?")) + "' not found.";
      case "DATATYPE_MISMATCH":
        return "Invalid function call: " + unquote(p.getOrDefault("sqlExpr", "?")) + ": "
            + firstLine(simplify(clean(e.getSimpleMessage())).replaceFirst("^Cannot resolve \"[^\"]*\" due to data type mismatch: ", ""));
      case "WRONG_NUM_ARGS":
        return "Invalid number of arguments to function " + unquote(p.getOrDefault("functionName", "?"))
            + ": " + firstLine(simplify(clean(e.getSimpleMessage())));
      case "AMBIGUOUS_REFERENCE":
        return "Ambiguous column name " + unquote(p.getOrDefault("name", "?")) + "; qualify or rename it.";
      case "MISSING_AGGREGATION":
      case "MISSING_GROUP_BY":
        return "Expression " + unquote(p.getOrDefault("expression", "")) + " is not being grouped: "
            + firstLine(simplify(clean(e.getSimpleMessage())));
      default:
        return firstLine(simplify(clean(e.getSimpleMessage())));
    }
  }

  /** Drops Spark's "[ERROR_CLASS] " prefix. */
  static String simplify(String message) {
    return message.replaceFirst("^\\[[A-Z_.]+\\]\\s*", "").strip();
  }

  static String firstLine(String message) {
    int nl = message.indexOf('\n');
    return (nl < 0 ? message : message.substring(0, nl)).strip();
  }

  /** `a`.`b` and "a" become a.b and a: Flink does not quote names in messages. */
  static String unquote(String s) {
    return s.replace("`", "").replace("\"", "");
  }

  static String unquoteList(String s) {
    return unquote(s).replace("[", "").replace("]", "");
  }

  /** Spark messages carry SQLSTATE suffixes and query contexts; keep what a user needs. */
  static String clean(String message) {
    if (message == null) {
      return "";
    }
    String m = message.replaceAll(" ?SQLSTATE: [0-9A-Z]+", "");
    int ctx = m.indexOf("\n== SQL");
    if (ctx > 0) {
      m = m.substring(0, ctx);
    }
    return m.strip();
  }
}
