package org.pyflink_table.bridge.session;

import java.lang.reflect.UndeclaredThrowableException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalog.Table;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.plans.logical.UnresolvedWith;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.pyflink_table.bridge.connectors.ParseErrors;
import org.pyflink_table.bridge.connectors.RefusedScans;
import org.pyflink_table.bridge.errors.ErrorTranslator;
import org.pyflink_table.bridge.errors.SqlParserException;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.CoreModule;
import org.pyflink_table.bridge.expressions.FlinkFloatingComparisons;
import org.pyflink_table.bridge.expressions.FunctionCatalog;
import org.pyflink_table.bridge.expressions.ItemAccess;
import org.pyflink_table.bridge.expressions.ArrayAggregates;
import org.pyflink_table.bridge.expressions.JsonAggregates;
import org.pyflink_table.bridge.expressions.Multisets;
import org.pyflink_table.bridge.expressions.TimestampPrecision;
import org.pyflink_table.bridge.expressions.ToTimestampLtz;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.streaming.BoundedEventTime;
import org.pyflink_table.bridge.streaming.CurrentWatermark;
import org.pyflink_table.bridge.expressions.Scope;
import org.pyflink_table.bridge.table.JTable;
import org.pyflink_table.bridge.table.LateralJoins;
import org.pyflink_table.bridge.table.PlanExplain;
import org.pyflink_table.bridge.table.PythonAggregateSql;
import org.pyflink_table.bridge.table.StateTtl;
import org.pyflink_table.bridge.table.TableContext;
import org.pyflink_table.bridge.udf.LiteralDecimalArguments;
import org.pyflink_table.bridge.udf.PythonAggregateFunction;
import org.pyflink_table.bridge.udf.ScalarProjections;
import org.pyflink_table.bridge.window.SqlWindows;
import org.pyflink_table.bridge.window.StreamOverSql;
import org.pyflink_table.bridge.window.StreamWindowSql;
import org.pyflink_table.bridge.window.TvfWindowAggregates;
import scala.Option;
import scala.Tuple3;
import scala.runtime.AbstractPartialFunction;

/**
 * The JVM half of a TableEnvironment: its own Spark session (temporary views and SQL settings are
 * per environment, as in Flink; the SparkContext is shared) and its own function catalog.
 */
public final class TableEnv extends TableContext {
  static {
    // The session wires the layers below it: the error translator learns malformed rows from connectors.
    ErrorTranslator.addDescriber(ParseErrors::describe);
  }

  // --- connectors (issue 5): connector tables, views, databases, INSERT ---
  public final ConnectorCatalog connectors = new ConnectorCatalog(this);
  /** Tables Flink's planner refuses: checked when a query over them is planned. */
  final RefusedScans refusedScans = new RefusedScans();

  public ConnectorCatalog connectors() {
    return connectors;
  }

  /** Writes {@code table} into the sink table at {@code path}; returns lines for the print sink or null. */
  public String[] insertInto(String path, JTable table, boolean overwrite) {
    return connectors.insertInto(path, table, overwrite);
  }
  // --- end connectors ---
  private final boolean streaming;
  private static final String ROCKSDB_CHANGELOG = "spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled";

  public TableEnv(SparkSession spark, boolean streaming) {
    super(spark);
    // SQL expression texts (computed columns, call_sql) are Flink SQL, as queries are.
    functions.readSqlWith(sql -> FlinkSqlDialect.rewrite(
        FlinkSqlDialect.qualifyUserCalls(sql, functions.userNamesBeforeSparkBuiltins())));
    this.streaming = streaming;
    // Flink's TIME functions (CURRENT_TIME, EXTRACT from TIME, TO_TIME) need Spark's TIME type on.
    spark.conf().set("spark.sql.timeType.enabled", "true");
    // Flink reserves SQL's keywords: "FROM t WHERE" is an error, not t aliased as WHERE.
    spark.conf().set("spark.sql.ansi.enforceReservedKeywords", "true");
    // The RocksDB state stores of the stateful processors commit each micro-batch's changes instead of
    // a snapshot of the whole store (measured: a session window's execution per micro-batch falls;
    // benchmarks/README.md). Spark supports it on existing checkpoints; a user's own setting stays.
    if (streaming && !spark.conf().contains(ROCKSDB_CHANGELOG)) spark.conf().set(ROCKSDB_CHANGELOG, "true");
    // Spark keeps looking up its built-ins before session functions (sessionOrder=first would let a
    // user's function named like a built-in capture every call the bridge builds by name, Column API
    // ones included): toSparkSql sends the user's own calls of such names to the user's function, in
    // Flink's order. (Temporary catalog functions named like a Flink built-in are not registered with
    // Spark: Flink's built-in wins.)
    // Flink's NaN comparisons and NULL-propagating GREATEST/LEAST, for the Table API and SQL alike.
    // CURRENT_WATERMARK: a placeholder per call, replaced by each micro-batch's watermark.
    CurrentWatermark currentWatermark = CurrentWatermark.register(
        (org.apache.spark.sql.classic.SparkSession) spark, streaming);
    spark.experimental().extraOptimizations_$eq(ScalaInterop.seq(
        List.of(new FlinkFloatingComparisons(), refusedScans, new ScalarProjections(spark), currentWatermark)));
    ItemAccess.register(spark);
    ToTimestampLtz.register(spark);
    TimestampPrecision.register(spark);
    Multisets.register(spark);
    ArrayAggregates.register(spark);
    JsonAggregates.register(spark);
  }

  /** A new environment on its own session of the running SparkContext. */
  public static TableEnv create(SparkSession root, boolean streaming) {
    // before newSession(): the new session's analyzer is built from the root's extensions
    LiteralDecimalArguments.install(((org.apache.spark.sql.classic.SparkSession) root).extensions());
    return new TableEnv(root.newSession(), streaming);
  }

  public SparkSession sparkSession() {
    return spark;
  }

  @Override
  public boolean isStreaming() {
    return streaming;
  }

  @Override
  public Dataset<Row> boundedOnTimeRows(Dataset<Row> windowed, List<Column> grouping) {
    return BoundedEventTime.onTimeRows(windowed, grouping);
  }

  public JTable fromDataset(Dataset<Row> df) {
    return new JTable(this, df);
  }

  /**
   * The parts of the Flink object path {@code path} as Spark's session names them: parsed as Flink
   * parses it, with Flink's default catalog and database ({@code default_catalog.default_database.}
   * or {@code default_database.}) dropped, as they are Spark's session namespace.
   */
  static List<String> sessionParts(String path) {
    List<String> parts = new ArrayList<>(checkIdentifier(path));
    if (parts.size() == 3 && parts.get(0).equals(ConnectorCatalog.CATALOG)) parts.remove(0);
    if (parts.size() == 2 && parts.get(0).equals(ConnectorCatalog.DATABASE)) parts.remove(0);
    return parts;
  }

  /** {@code parts} for Spark's parser: each back-quoted, as a name may be a Spark keyword (cast, unknown). */
  static String sparkPath(List<String> parts) {
    List<String> quoted = new ArrayList<>();
    for (String part : parts) quoted.add(Scope.quote(part));
    return String.join(".", quoted);
  }

  public JTable fromPath(String path) {
    connectors.refresh();
    String p = sparkPath(sessionParts(path));
    if (!spark.catalog().tableExists(p)) {
      throw new ValidationException("Table `" + path + "` was not found. Existing tables: ["
          + String.join(", ", listTables()) + "].");
    }
    return new JTable(this, spark.table(p));
  }

  /** Check and registration are one step: of two threads creating one name, one gets "already exists". */
  public synchronized void createTemporaryView(String path, JTable table) {
    String name = temporaryViewName(path);
    if (isTemporaryView(name)) {
      throw new ValidationException("Temporary table '`default_catalog`.`default_database`.`" + name.replace("`", "``")
          + "`' already exists");
    }
    table.df.createOrReplaceTempView(Scope.quote(name));
  }

  /**
   * The name of the temporary view at {@code path}. Spark's temporary views have no database, so
   * only Flink's default database holds them here (Flink lets any catalog and database hold one).
   */
  private static String temporaryViewName(String path) {
    List<String> parts = sessionParts(path);
    if (parts.size() > 1) {
      throw TableException.unsupported("A temporary view outside " + ConnectorCatalog.CATALOG + "."
          + ConnectorCatalog.DATABASE + " ('" + path + "')");
    }
    return parts.get(0);
  }

  /**
   * The parts of a Flink object path ({@code [catalog.][database.]name}, parts optionally
   * back-quoted with {@code ``} for a back quote), refused as Flink refuses them: an unquoted part
   * must be an SQL identifier, no part may be empty or blank, and there are at most three parts.
   */
  static List<String> checkIdentifier(String path) {
    List<String> parts = new ArrayList<>();
    int i = 0;
    int n = path.length();
    while (true) {
      StringBuilder part = new StringBuilder();
      if (i < n && path.charAt(i) == '`') {
        i++;
        while (true) {
          if (i >= n) throw new SqlParserException("Invalid SQL identifier " + path + ".");
          char c = path.charAt(i++);
          if (c == '`') {
            if (i < n && path.charAt(i) == '`') {
              part.append('`');
              i++;
              continue;
            }
            break;
          }
          part.append(c);
        }
      } else {
        while (i < n && path.charAt(i) != '.') part.append(path.charAt(i++));
        String word = part.toString();
        if (!word.isBlank() && !word.matches("[\\p{L}_$][\\p{L}\\p{Nd}_$]*")) {
          throw new SqlParserException("Invalid SQL identifier " + path + ".");
        }
      }
      if (part.toString().isBlank()) {
        throw new ValidationException("Parts of the object identifier are null or whitespace-only.");
      }
      parts.add(part.toString());
      if (parts.size() > 3) throw new SqlParserException("Invalid SQL identifier " + path + ".");
      if (i >= n) return parts;
      if (path.charAt(i) != '.') throw new SqlParserException("Invalid SQL identifier " + path + ".");
      i++;
    }
  }

  public boolean isTemporaryView(String name) {
    for (String v : listTemporaryViews()) {
      if (v.equals(name)) return true;
    }
    return false;
  }

  public boolean dropTemporaryView(String path) {
    List<String> parts = sessionParts(path);
    // Spark's dropTempView takes the bare name, unparsed; no temporary view lives outside the default database.
    return parts.size() == 1 && spark.catalog().dropTempView(parts.get(0));
  }

  public String[] listTables() {
    List<String> names = new ArrayList<>();
    for (Table t : spark.catalog().listTables().collectAsList()) names.add(connectors.declaredName(t.name()));
    names.sort(null);
    return names.toArray(new String[0]);
  }

  public String[] listTemporaryViews() {
    List<String> names = new ArrayList<>();
    for (Table t : spark.catalog().listTables().collectAsList()) {
      if (t.isTemporary() && !connectors.isPermanent(t.name())) names.add(connectors.declaredName(t.name()));
    }
    names.sort(null);
    return names.toArray(new String[0]);
  }

  /** A Flink SQL query as Spark SQL: every rewrite that makes Spark read it as Flink does. */
  public String toSparkSql(String sql) {
    if (isStreaming()) StateTtl.checkNoHint(sql); // Spark would drop Flink's per-operator TTL hint silently
    // First, on the user's own text: DISTINCT/FILTER of Python aggregates, which Spark's SQL refuses,
    // then the user's functions named like a Spark built-in.
    sql = FlinkSqlDialect.rewriteAggregateClauses(sql, this::selectingAggregate);
    sql = FlinkSqlDialect.qualifyUserCalls(sql, functions.userNamesBeforeSparkBuiltins());
    sql = SqlWindows.rewrite(sql, spark); // Flink SQL windowing (window package)
    sql = LateralJoins.rewriteSql(sql); // LATERAL TABLE(f(x)) -> LATERAL f(x)
    sql = FlinkSqlDialect.rewrite(sql); // Flink SQL literals, CAST types, functions Spark reads differently
    return quoteGeneratedNames(sql);
  }

  /** The functions behind the variants {@link #selectingAggregate} registered in Spark, by variant name. */
  private final Map<String, PythonAggregateFunction> selectingAggregates = new ConcurrentHashMap<>();

  /**
   * The SQL name of the Python aggregate {@code name} called with DISTINCT and/or FILTER, registered
   * in Spark for this statement; null when {@code name} is no Python aggregate.
   */
  private String selectingAggregate(String name, boolean distinct, boolean filtered) {
    if (!(functions.user(name) instanceof PythonAggregateFunction f)) return null;
    String variant = "__pft_" + (distinct ? "distinct_" : "") + (filtered ? "filter_" : "") + name.toLowerCase(Locale.ROOT);
    if (selectingAggregates.put(variant, f) != f) f.selecting(distinct, filtered).registerForSql(spark, variant);
    return variant;
  }

  public JTable sqlQuery(String sql) {
    String sparkSql = toSparkSql(sql);
    connectors.refresh();
    try {
      // CAST(.. AS STRING) writes Flink's text, as the Table API's cast does; a MULTISET's
      // CARDINALITY counts every occurrence.
      Dataset<Row> ds = FlinkSqlDialect.withMultisetCardinality(
          FlinkSqlDialect.withFlinkStringCasts(FlinkSqlDialect.withFlinkColumnNames(sql(sparkSql))));
      refusedScans.check(ds.queryExecution().analyzed()); // Flink plans a SQL query here
      CoreModule.checkSqlAggregates(ds.queryExecution().analyzed(), functions);
      if (!isStreaming()) {
        // Python aggregates next to built-ins: split as the Table API's select splits them.
        Dataset<Row> typed = PythonAggregateSql.of(FlinkSqlDialect.withFlinkResultTypes(ds));
        return new JTable(this, FlinkSqlDialect.withUniqueColumnNames(
            FlinkSqlDialect.withFlinkTimestampTypes(TvfWindowAggregates.of(typed, false))));
      }
      // Window table function aggregations first become group windows (but with a general Python
      // aggregate, an updating aggregation, as PyFlink plans it); then the group windows calling
      // Python aggregates, the table functions' too, go to the window processor or collected path.
      Dataset<Row> windowed = TvfWindowAggregates.of(FlinkSqlDialect.withFlinkResultTypes(ds, true), true);
      windowed = StreamWindowSql.of(this, windowed);
      // Over bounded input, Python aggregates next to built-ins in a group window: split as in batch.
      if (!windowed.isStreaming()) windowed = PythonAggregateSql.ofGroupWindows(windowed);
      return new JTable(this, FlinkSqlDialect.withUniqueColumnNames(
          FlinkSqlDialect.withFlinkTimestampTypes(StreamOverSql.of(this, windowed))));
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw withCatalogContext(e);
    }
  }

  /**
   * {@code spark.sql(sparkSql)}, with Flink's qualified names of this session's tables
   * ({@code default_catalog.default_database.t}, {@code default_database.t}) read as Spark's
   * session views ({@code system.session.t}): Spark's session catalog takes one namespace part
   * and holds no temporary view under a database. A qualified name still means the table, not a
   * common table expression of that name (measured on PyFlink 2.3).
   */
  private Dataset<Row> sql(String sparkSql) throws Exception {
    org.apache.spark.sql.classic.SparkSession session = (org.apache.spark.sql.classic.SparkSession) spark;
    LogicalPlan parsed = session.sessionState().sqlParser().parsePlan(sparkSql);
    LogicalPlan named = withSessionNames(parsed);
    // Calcite drops a sub-query's ORDER BY; kept in batch mode, where only the rows' order would differ.
    if (isStreaming()) named = FlinkSqlDialect.withoutSubquerySorts(named);
    return named == parsed ? spark.sql(sparkSql) : org.apache.spark.sql.classic.Dataset.ofRows(session, named);
  }

  /** {@code plan} (parsed) with each relation named by a Flink path of the default database as a session view. */
  static LogicalPlan withSessionNames(LogicalPlan plan) {
    return plan.transformUpWithSubqueries(new AbstractPartialFunction<LogicalPlan, LogicalPlan>() {
      @Override
      public boolean isDefinedAt(LogicalPlan p) {
        return p instanceof UnresolvedRelation || p instanceof UnresolvedWith;
      }

      @Override
      public LogicalPlan apply(LogicalPlan p) {
        if (p instanceof UnresolvedWith w) {
          // Common table expressions are inner children, which the transformation does not visit.
          List<Tuple3<String, SubqueryAlias, Option<Object>>> ctes = new ArrayList<>();
          boolean changed = false;
          for (Tuple3<String, SubqueryAlias, Option<Object>> c : ScalaInterop.list(w.cteRelations())) {
            LogicalPlan named = withSessionNames(c._2());
            changed |= named != c._2();
            ctes.add(new Tuple3<>(c._1(), (SubqueryAlias) named, c._3()));
          }
          return changed ? w.copy(w.child(), ScalaInterop.seq(ctes), w.allowRecursion()) : w;
        }
        UnresolvedRelation r = (UnresolvedRelation) p;
        List<String> parts = ScalaInterop.list(r.multipartIdentifier());
        if (parts.size() < 2) return r;
        List<String> session = new ArrayList<>(parts);
        if (session.size() == 3 && session.get(0).equals(ConnectorCatalog.CATALOG)) session.remove(0);
        if (session.size() != 2 || !session.get(0).equals(ConnectorCatalog.DATABASE)) return r;
        return r.copy(ScalaInterop.seq(List.of("system", "session", session.get(1))), r.options(), r.isStreaming());
      }
    });
  }

  /**
   * Spark's analysis errors of a SQL text as Flink words them ("SQL validation failed. ..."); an
   * unknown table also names the tables that do exist.
   */
  RuntimeException withCatalogContext(Exception e) {
    if (e instanceof ParseException) {
      return new SqlParserException(
          ErrorTranslator.parseMessage((ParseException) e));
    }
    if (e instanceof AnalysisException) {
      AnalysisException ae = (AnalysisException) e;
      String condition = ae.getCondition() == null ? "" : ae.getCondition();
      String message = "SQL validation failed. " + ErrorTranslator.analysisMessage(ae);
      if (condition.startsWith("TABLE_OR_VIEW_NOT_FOUND")) {
        message += " Existing tables: [" + String.join(", ", listTables()) + "].";
      }
      if (condition.startsWith("UNRESOLVED_ROUTINE")) {
        // A registered function Spark's SQL cannot call (a ROW-result or table aggregate) is
        // reported as what it is, not as unknown.
        String routine = ae.getMessageParameters().getOrDefault("routineName", "").replace("`", "");
        routine = routine.substring(routine.lastIndexOf('.') + 1);
        if (functions.user(routine) != null) {
          return TableException.unsupported("calling the function " + routine
              + " from SQL (a Python aggregate function with a ROW result or a table aggregate function); "
              + "use it in the Table API (group_by(...).select, aggregate, flat_aggregate)");
        }
      }
      return new ValidationException(message, e);
    }
    return new UndeclaredThrowableException(e);
  }

  /**
   * {@code str(table)} registers the table as {@code UnnamedTable$N}, as Flink does, so that it can
   * be spliced into SQL; Spark's lexer does not accept '$' in plain identifiers, so such names are
   * back-quoted before parsing.
   */
  public static String quoteGeneratedNames(String sql) {
    return sql.replaceAll("(?<![`\\w$])(UnnamedTable\\$\\d+)(?![\\w$`])", "`$1`");
  }

  /** Whether Flink's core module is in use in this environment (Python tracks the module list). */
  public void useCoreModule(boolean inUse) {
    functions.useCore(inUse);
  }

  public String[] listUserDefinedFunctions() {
    return functions.userFunctionNames().toArray(new String[0]);
  }

  public String[] listBuiltinFunctions() {
    return FunctionCatalog.builtinNames().toArray(new String[0]);
  }

  /** Built-in and user-defined function names, sorted, each once (Flink's SHOW FUNCTIONS). */
  public String[] listFunctions() {
    TreeSet<String> all = new TreeSet<>(FunctionCatalog.builtinNames());
    all.addAll(functions.userFunctionNames());
    return all.toArray(new String[0]);
  }

  /** Classifies one SQL statement (see {@link SqlStatement}); Python asks before running it. */
  public SqlStatement classifySql(String statement) {
    return SqlStatement.classify(statement);
  }

  /** Runs one SQL statement; see {@link #executeStatement}. */
  public StatementResult executeSql(String statement) {
    return executeStatement(SqlStatement.classify(statement));
  }

  /**
   * Runs a classified statement in the piece that owns its kind. Queries return their rows
   * lazily; SHOW, DESCRIBE and EXPLAIN return rows laid out as Flink's; other statements run at
   * once and return plain success.
   */
  public StatementResult executeStatement(SqlStatement statement) {
    String s = statement.text();
    List<String> parts = statement.parts();
    switch (statement.kind()) {
      case QUERY:
        return new StatementResult(sqlQuery(s), true);
      case EXPLAIN:
        return explain(parts.get(0), parts.get(1).strip());
      case DESCRIBE:
        return new StatementResult(describe(fromPath(parts.get(0))), true);
      case SHOW_TABLES:
        return names("table name", listTables());
      case SHOW_VIEWS:
        return names("view name", connectors.listViews(false));
      case SHOW_CATALOGS:
        return names("catalog name", connectors.listCatalogs());
      case SHOW_DATABASES:
        return names("database name", connectors.listDatabases());
      case SHOW_CURRENT_CATALOG:
        return names("current catalog name", new String[] {ConnectorCatalog.CATALOG});
      case SHOW_CURRENT_DATABASE:
        return names("current database name", new String[] {connectors.currentDatabase()});
      case SHOW_FUNCTIONS:
        // Flink lists built-in and user functions together, user functions alone with USER.
        return names("function name", parts.get(0) != null ? listUserDefinedFunctions() : listFunctions());
      case SHOW_CREATE_TABLE: {
        String ddl = connectors.showCreateTable(parts.get(0));
        return ddl != null ? result(ddl) : new StatementResult(new JTable(this, spark.sql(s)), true);
      }
      case SHOW_OTHER:
        if (s.toUpperCase(Locale.ROOT).replaceAll("\\s+", " ").startsWith("SHOW CREATE VIEW ")) {
          // Flink prints the view's query as its planner expanded it, which this version does not reproduce.
          throw TableException.unsupported("SHOW CREATE VIEW");
        }
        return new StatementResult(new JTable(this, spark.sql(s)), true);
      case CREATE_FUNCTION:
      case DROP_FUNCTION:
      case ALTER_FUNCTION:
        throw new IllegalStateException(statement.kind() + " is run by Python (SqlStatement.runsInPython)");
      case CREATE_TABLE:
        connectors.createTableStatement(s);
        return StatementResult.ok();
      case CREATE_VIEW:
        connectors.createView(parts.get(2), parts.get(3), parts.get(0) != null, parts.get(1) != null);
        return StatementResult.ok();
      case DROP:
        connectors.drop(parts.get(3), parts.get(1).equalsIgnoreCase("VIEW"), parts.get(0) != null, parts.get(2) != null);
        return StatementResult.ok();
      case INSERT:
        return StatementResult.printed(connectors.insertStatement(s));
      case STATEMENT_SET:
        return StatementResult.printed(connectors.statementSet(s));
      case USE:
        if (parts.get(0) != null) connectors.useCatalog(parts.get(1));
        else connectors.useDatabase(parts.get(1));
        return StatementResult.ok();
      case CREATE_CATALOG:
        throw TableException.unsupported("CREATE CATALOG (only '" + ConnectorCatalog.CATALOG + "' exists)");
      case DATABASE_DDL:
        connectors.databaseStatement(s);
        return StatementResult.ok();
      default:
        spark.sql(s);
        return StatementResult.ok();
    }
  }

  /** EXPLAIN [details] query: one row, column "result", as Flink; EXPLAIN INSERT explains without writing. */
  private StatementResult explain(String detailText, String query) {
    String[] details = detailText.isBlank() ? new String[0]
        : detailText.toUpperCase(Locale.ROOT).strip().split("[\\s,]+");
    JTable explained = query.toUpperCase(Locale.ROOT).startsWith("INSERT")
        ? connectors.prepareInsert(query).table() : sqlQuery(query);
    return result(PlanExplain.explain(explained, details));
  }

  /** One row of text in a column "result", as Flink returns EXPLAIN and SHOW CREATE TABLE. */
  private StatementResult result(String text) {
    StructType schema = new StructType().add("result", DataTypes.StringType, true);
    return new StatementResult(new JTable(this, spark.createDataFrame(List.of(RowFactory.create(text)), schema)), true);
  }

  /** One nullable STRING column of names, as PyFlink 2.3 reports SHOW results. */
  private StatementResult names(String column, String[] values) {
    List<Row> rows = new ArrayList<>();
    for (String v : values) rows.add(RowFactory.create(v));
    StructType schema = new StructType().add(column, DataTypes.StringType, true);
    return new StatementResult(new JTable(this, spark.createDataFrame(rows, schema)), true);
  }

  /** Flink's DESCRIBE layout: name, type, null, key, extras, watermark. */
  public JTable describe(JTable table) {
    String[] names = table.fieldNames();
    String[] types = table.fieldTypes();
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < names.length; i++) {
      boolean notNull = types[i].endsWith(" NOT NULL");
      String t = notNull ? types[i].substring(0, types[i].length() - " NOT NULL".length()) : types[i];
      rows.add(RowFactory.create(names[i], t, !notNull, null, null, null));
    }
    StructType schema = new StructType()
        .add("name", DataTypes.StringType, true)
        .add("type", DataTypes.StringType, true)
        .add("null", DataTypes.BooleanType, true)
        .add("key", DataTypes.StringType, true)
        .add("extras", DataTypes.StringType, true)
        .add("watermark", DataTypes.StringType, true);
    return new JTable(this, spark.createDataFrame(rows, schema));
  }
}
