package org.pyflink_table.bridge.session;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.raise_error;
import static org.apache.spark.sql.functions.when;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalog.Database;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.IntegralType;
import org.apache.spark.sql.types.NullType;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimeType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.YearMonthIntervalType;
import org.pyflink_table.bridge.connectors.Connectors;
import org.pyflink_table.bridge.connectors.DdlParser;
import org.pyflink_table.bridge.connectors.FileMetadata;
import org.pyflink_table.bridge.connectors.TableDefinition;
import org.pyflink_table.bridge.errors.SqlParserException;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.session.TableEnv;
import org.pyflink_table.bridge.streaming.StreamSinks;
import org.pyflink_table.bridge.streaming.StreamSources;
import org.pyflink_table.bridge.table.JTable;
import org.pyflink_table.bridge.types.FlinkTypes;

/**
 * The connector tables and views of one TableEnvironment, and the SQL statements about them
 * (CREATE/DROP TABLE and VIEW, INSERT, SHOW/USE CATALOG and DATABASE).
 *
 * <p>Flink's catalog is {@code default_catalog}, its default database {@code default_database} =
 * Spark's {@code default}; other databases are Spark's (in-memory) databases. Connector tables are
 * kept here, permanent or temporary, for the life of the environment (as in Flink's in-memory
 * catalog: nothing persists across processes), and are exposed to Spark SQL as session views under
 * their bare name. Each view is rebuilt before a query reads it, so a query sees the files as they
 * are now (including what an earlier INSERT wrote).
 */
public final class ConnectorCatalog {
  public static final String CATALOG = "default_catalog";
  public static final String DATABASE = "default_database";

  private static final class Entry {
    final String name;
    final TableDefinition definition;
    final String viewQuery;
    final boolean temporary;
    /** Why the connector cannot serve this table; Flink reports it when the table is used, not created. */
    String invalid;

    Entry(String name, TableDefinition definition, String viewQuery, boolean temporary) {
      this.name = name;
      this.definition = definition;
      this.viewQuery = viewQuery;
      this.temporary = temporary;
    }

    // Record-style accessors, as the other entries of the bridge read them.
    String name() { return name; }
    TableDefinition definition() { return definition; }
    String viewQuery() { return viewQuery; }
    boolean temporary() { return temporary; }
  }

  private final TableEnv env;
  private final Map<String, Entry> entries = new LinkedHashMap<>();

  public ConnectorCatalog(TableEnv env) {
    this.env = env;
  }

  private SparkSession spark() {
    return env.spark;
  }

  private Configuration hadoop() {
    return spark().sessionState().newHadoopConf();
  }

  // --- names -------------------------------------------------------------------------------------

  /** The object name of a path ({@code cat.db.t}, {@code db.t} or {@code t}); checks catalog and database. */
  String objectName(String path) {
    String[] parts = DdlParser.unquote(path).split("\\.");
    if (parts.length > 3) {
      throw new ValidationException("Invalid object path '" + path + "': use [catalog.][database.]name.");
    }
    if (parts.length == 3 && !parts[0].equals(CATALOG)) {
      throw new ValidationException("A catalog with name [" + parts[0] + "] does not exist. Existing catalogs: [" + CATALOG + "].");
    }
    if (parts.length >= 2) {
      String db = parts[parts.length - 2];
      if (!spark().catalog().databaseExists(sparkDatabase(db))) {
        throw new ValidationException("A database with name [" + db + "] does not exist in the catalog: [" + CATALOG
            + "]. Existing databases: " + String.join(", ", listDatabases()) + ".");
      }
    }
    return parts[parts.length - 1];
  }

  String identifier(String name) {
    return "`" + CATALOG + "`.`" + currentDatabase() + "`.`" + name + "`";
  }

  static String sparkDatabase(String flinkDatabase) {
    return flinkDatabase.equals(DATABASE) ? "default" : flinkDatabase;
  }

  static String flinkDatabase(String sparkDatabase) {
    return sparkDatabase.equals("default") ? DATABASE : sparkDatabase;
  }

  /** The name a connector table or view was created with (Spark's catalog lists names lower-cased). */
  public String declaredName(String sparkName) {
    if (entries.containsKey(sparkName)) return sparkName;
    for (String n : entries.keySet()) if (n.equalsIgnoreCase(sparkName)) return n;
    return sparkName;
  }

  public boolean isPermanent(String name) {
    Entry e = entries.get(declaredName(name));
    return e != null && !e.temporary;
  }

  // --- catalog and databases ---------------------------------------------------------------------

  public String[] listCatalogs() {
    return new String[] {CATALOG};
  }

  public String[] listDatabases() {
    List<String> out = new ArrayList<>();
    for (Database db : spark().catalog().listDatabases().collectAsList()) {
      out.add(flinkDatabase(db.name()));
    }
    out.sort(null);
    return out.toArray(new String[0]);
  }

  public String currentCatalog() {
    return CATALOG;
  }

  public String currentDatabase() {
    return flinkDatabase(spark().catalog().currentDatabase());
  }

  public void useCatalog(String name) {
    if (!DdlParser.unquote(name).equals(CATALOG)) {
      throw new ValidationException("A catalog with name [" + name + "] does not exist. Existing catalogs: [" + CATALOG + "].");
    }
  }

  public void useDatabase(String name) {
    String db = DdlParser.unquote(name);
    if (db.contains(".")) {
      useCatalog(db.substring(0, db.indexOf('.')));
      db = db.substring(db.indexOf('.') + 1);
    }
    if (!spark().catalog().databaseExists(sparkDatabase(db))) {
      throw new ValidationException("A database with name [" + db + "] does not exist in the catalog: [" + CATALOG
          + "]. Existing databases: " + String.join(", ", listDatabases()) + ".");
    }
    spark().catalog().setCurrentDatabase(sparkDatabase(db));
  }

  // --- tables and views --------------------------------------------------------------------------

  public void createTable(String path, TableDefinition def, boolean temporary, boolean ifNotExists) {
    String name = objectName(path);
    if (exists(name)) {
      if (ifNotExists) return;
      if (temporary) {
        throw new ValidationException("Temporary table '" + identifier(name) + "' already exists. Existing tables: "
            + String.join(", ", env.listTables()) + ".");
      }
      throw new ValidationException("Could not execute CreateTable in path " + identifier(name) + ": a table (or view)"
          + " with this name already exists. Existing tables: " + String.join(", ", env.listTables()) + ".");
    }
    Connectors.validateColumns(name, def);
    Entry e = new Entry(name, def, null, temporary);
    e.invalid = connectorProblem(name, def);
    entries.put(name, e);
    try {
      expose(e);
    } catch (RuntimeException ex) {
      entries.remove(name);
      throw ex;
    }
  }

  public void createView(String path, String query, boolean temporary, boolean ifNotExists) {
    String name = objectName(path);
    if (exists(name)) {
      if (ifNotExists) return;
      throw new ValidationException((temporary ? "Temporary view '" : "View '") + identifier(name) + "' already exists.");
    }
    refresh();
    // A view defined by SQL text is analysed again at each use, so it follows its tables' refreshes.
    spark().sql("CREATE TEMPORARY VIEW `" + name + "` AS " + env.toSparkSql(query));
    entries.put(name, new Entry(name, null, query, temporary));
  }

  private boolean exists(String name) {
    return entries.containsKey(name) || env.isTemporaryView(name) || spark().catalog().tableExists(name);
  }

  /** DROP [TEMPORARY] TABLE|VIEW [IF EXISTS] path. */
  public void drop(String path, boolean view, boolean temporary, boolean ifExists) {
    String name = objectName(path);
    String kind = view ? "View" : "Table";
    Entry e = entries.get(name);
    if (e == null) {
      if (env.isTemporaryView(name) && (temporary || view)) {
        spark().catalog().dropTempView(name);
        return;
      }
      if (!view && spark().catalog().tableExists(name)) {
        spark().sql("DROP TABLE `" + name + "`");
        return;
      }
      if (ifExists) return;
      throw new ValidationException((temporary ? "Temporary " + kind.toLowerCase(Locale.ROOT) : kind) + " with identifier '"
          + identifier(name) + "' does not exist. Existing tables: " + String.join(", ", env.listTables()) + ".");
    }
    if ((e.viewQuery != null) != view) {
      throw new ValidationException("'" + identifier(name) + "' is a " + (e.viewQuery != null ? "view" : "table")
          + "; use DROP " + (e.temporary ? "TEMPORARY " : "") + (e.viewQuery != null ? "VIEW" : "TABLE") + ".");
    }
    if (e.temporary != temporary) {
      throw new ValidationException(e.temporary
          ? "Temporary " + kind.toLowerCase(Locale.ROOT) + " with identifier '" + identifier(name) + "' exists. Drop it first with DROP TEMPORARY " + kind.toUpperCase(Locale.ROOT) + "."
          : kind + " with identifier '" + identifier(name) + "' is not temporary; use DROP " + kind.toUpperCase(Locale.ROOT) + ".");
    }
    entries.remove(name);
    spark().catalog().dropTempView(name);
  }

  // --- Table API permanent views and drops (TableEnvironment.create_view / drop_table / drop_view) ---

  /** "table", "view", "temporary table", "temporary view", or null when nothing has this name. */
  private String objectKind(String name) {
    Entry e = entries.get(name);
    if (e != null) return (e.temporary ? "temporary " : "") + (e.viewQuery != null ? "view" : "table");
    if (env.isTemporaryView(name)) return "temporary view";
    return spark().catalog().tableExists(name) ? "table" : null;
  }

  /** A permanent view of a Table object; false when it exists and {@code ignoreIfExists}. */
  public boolean createView(String path, JTable table, boolean ignoreIfExists) {
    String name = objectName(path);
    if (objectKind(name) != null) {
      if (ignoreIfExists) return false;
      throw new ValidationException("Could not execute CreateTable in path " + identifier(name) + ": a "
          + objectKind(name) + " with this name already exists (temporary and permanent objects share one namespace here).");
    }
    table.df.createOrReplaceTempView(name);
    entries.put(name, new Entry(name, null, "(Table API view)", false));
    return true;
  }

  /** Drops a permanent table or view as Flink's dropTable/dropView: true if one was removed. */
  public boolean dropPermanent(String path, boolean view, boolean ignoreIfNotExists) {
    String name = objectName(path);
    String wanted = view ? "view" : "table";
    String kind = objectKind(name);
    if (("temporary " + wanted).equals(kind)) {
      throw new ValidationException("Temporary " + wanted + " with identifier '" + identifier(name) + "'"
          + " exists. Drop it first before removing the permanent " + wanted + ".");
    }
    if (wanted.equals(kind)) {
      drop(path, view, false, false);
      return true;
    }
    if (ignoreIfNotExists) return false;
    throw new ValidationException((view ? "View" : "Table") + " with identifier '" + CATALOG + "." + currentDatabase()
        + "." + name + "' does not exist.");
  }
  // --- end of Table API views and drops ---

  /**
   * A permanent connector table as the catalog holds it (Catalog.get_table): column names, types
   * (null for computed columns), expressions, primary key, option keys, option values,
   * {comment, watermark declaration}, declared metadata keys and VIRTUAL flags (null but for metadata columns).
   */
  public String[][] catalogTable(String path) {
    String name = objectName(path);
    Entry e = entries.get(name);
    if (e == null || e.temporary) {
      throw new ValidationException("Table (or view) " + currentDatabase() + "." + name + " does not exist in Catalog "
          + CATALOG + ".");
    }
    if (e.definition == null) {
      throw TableException.unsupported("Catalog.get_table of the view '" + name + "' (views are not kept as catalog "
          + "tables here; read it with from_path)");
    }
    TableDefinition d = e.definition;
    int n = d.columns.size();
    String[] names = new String[n];
    String[] types = new String[n];
    String[] expressions = new String[n];
    String[] metadataKeys = new String[n];
    String[] virtual = new String[n];
    for (int i = 0; i < n; i++) {
      names[i] = d.columns.get(i).name();
      types[i] = d.columns.get(i).type();
      expressions[i] = d.columns.get(i).expression();
      TableDefinition.Column c = d.columns.get(i);
      metadataKeys[i] = c.declaredKey();
      virtual[i] = c.isMetadata() ? String.valueOf(c.virtual()) : null;
    }
    return new String[][] {names, types, expressions, d.primaryKey.toArray(new String[0]),
        d.options.keySet().toArray(new String[0]), d.options.values().toArray(new String[0]),
        {d.comment, d.watermark}, metadataKeys, virtual};
  }

  /** All views: SQL views (permanent and temporary) and temporary views of Table objects. */
  public String[] listViews(boolean temporaryOnly) {
    List<String> out = new ArrayList<>();
    for (String name : env.listTables()) {
      Entry e = entries.get(name);
      boolean view = e == null ? env.isTemporaryView(name) : e.viewQuery != null;
      boolean temporary = e == null || e.temporary;
      if (view && (temporary || !temporaryOnly)) out.add(name);
    }
    return out.toArray(new String[0]);
  }

  /** Rebuilds the session views of all connector tables so queries see the current files. */
  public void refresh() {
    for (Entry e : entries.values()) {
      if (e.definition != null) expose(e);
    }
  }

  /** The connector's refusal of a table definition, or null when the connector accepts it. */
  private static String connectorProblem(String name, TableDefinition def) {
    try {
      Connectors.validate(name, def);
      return null;
    } catch (ValidationException | TableException ex) {
      return ex.getMessage();
    }
  }

  private void expose(Entry e) {
    Dataset<Row> df;
    if (e.invalid != null) {
      // Raised when a query reads the table, as Flink's planner does.
      df = env.refusedScans.scan(spark(), Connectors.physicalSchema(e.definition), "Unable to create a source for "
          + "reading table " + identifier(e.name) + ". " + e.invalid);
    } else if (Connectors.isSinkOnly(e.definition)) {
      df = env.refusedScans.scan(spark(), Connectors.physicalSchema(e.definition), "Connector '"
          + e.definition.connector() + "' can only be used as a sink; table '" + e.name + "' cannot be read.");
    } else if (FileMetadata.readProblem(identifier(e.name).replace("`", ""), e.definition) != null) {
      df = env.refusedScans.scan(spark(), Connectors.readSchema(e.definition),
          FileMetadata.readProblem(identifier(e.name).replace("`", ""), e.definition));
    } else {
      df = read(e.name, e.definition);
    }
    df.createOrReplaceTempView(e.name);
  }

  /** A source table from a descriptor without registering it (from_descriptor). */
  public JTable fromDefinition(TableDefinition def) {
    Connectors.validateColumns("*anonymous*", def);
    String name = "*anonymous_" + def.connector() + "*";
    String invalid = connectorProblem(name, def);
    if (invalid != null) {
      return env.fromDataset(env.refusedScans.scan(spark(), Connectors.physicalSchema(def),
          "Unable to create a source for reading table '" + name + "'. " + invalid));
    }
    String metadata = FileMetadata.readProblem(name, def);
    if (metadata != null) {
      return env.fromDataset(env.refusedScans.scan(spark(), Connectors.readSchema(def), metadata));
    }
    return env.fromDataset(read(name, def));
  }

  /** A source's rows; in streaming mode unbounded sources are Spark streams (streaming package). */
  private Dataset<Row> read(String name, TableDefinition def) {
    if (env.isStreaming()) return StreamSources.read(spark(), name, def, hadoop(), env.functions);
    Dataset<Row> df = Connectors.read(spark(), name, def, hadoop(), env.functions);
    StreamSources.validateWatermark(df, def, name); // batch jobs see all rows at once; Flink checks it anyway
    return df;
  }

  // --- inserts -----------------------------------------------------------------------------------

  /** Writes {@code table} into the table at {@code path}; returns lines to print (print connector) or null. */
  public String[] insertInto(String path, JTable table, boolean overwrite) {
    Entry e = sinkEntry(path);
    return insertIntoDefinition(e.name, e.definition, table, overwrite);
  }

  /** Validates an insert (sink exists and accepts the columns) without running it. */
  public void checkInsert(String path, JTable table) {
    Entry e = sinkEntry(path);
    if (Connectors.isSourceOnly(e.definition)) {
      throw new ValidationException("Connector '" + e.definition.connector() + "' can only be used as a source; table '"
          + e.name + "' cannot be written.");
    }
    align(e.name, e.definition, table.df);
  }

  private Entry sinkEntry(String path) {
    String name = objectName(path);
    Entry e = entries.get(name);
    if (e == null || e.definition == null) {
      String what = e != null || env.isTemporaryView(name) ? "is a view, not a sink table" : "was not found";
      throw new ValidationException("Cannot insert into '" + identifier(name) + "': it " + what
          + ". Sink tables: " + String.join(", ", sinkNames()) + ".");
    }
    if (e.invalid != null) {
      throw new ValidationException("Unable to create a sink for writing table " + identifier(name) + ". " + e.invalid);
    }
    return e;
  }

  private List<String> sinkNames() {
    List<String> out = new ArrayList<>();
    for (Entry e : entries.values()) if (e.definition != null) out.add(e.name);
    return out;
  }

  /** execute_insert(TableDescriptor): an anonymous sink. */
  public String[] insertIntoDescriptor(TableDefinition def, JTable table, boolean overwrite) {
    Connectors.validate("*anonymous*", def);
    return insertIntoDefinition("*anonymous_" + def.connector() + "*", def, table, overwrite);
  }

  private String[] insertIntoDefinition(String name, TableDefinition def, JTable table, boolean overwrite) {
    if (Connectors.isSourceOnly(def)) {
      throw new ValidationException("Connector '" + def.connector() + "' can only be used as a source; table '" + name
          + "' cannot be written.");
    }
    if (overwrite && !"filesystem".equals(def.connector())) {
      throw new ValidationException("INSERT OVERWRITE requires a sink that supports overwriting; connector '"
          + def.connector() + "' of table '" + name + "' does not.");
    }
    Dataset<Row> aligned = align(name, def, table.df);
    if (env.isStreaming()) {
      String sink = identifier(name).replace("`", "");
      return StreamSinks.write(env, sink, def, aligned, overwrite, hadoop());
    }
    return Connectors.write(spark(), name, def, aligned, overwrite, hadoop());
  }

  /** The query's columns cast to the sink's physical columns, by position, as Flink's INSERT does. */
  Dataset<Row> align(String name, TableDefinition def, Dataset<Row> query) {
    String metadata = FileMetadata.writeProblem(identifier(name).replace("`", ""), def);
    if (metadata != null) throw new ValidationException(metadata);
    StructType sink = Connectors.physicalSchema(def);
    StructField[] src = query.schema().fields();
    StructField[] dst = sink.fields();
    if (src.length != dst.length) {
      throw new ValidationException("Column types of query result and sink for '" + identifier(name)
          + "' do not match: the query has " + src.length + " columns " + describe(src) + ", the sink has "
          + dst.length + " " + describe(dst) + ".");
    }
    Column[] cols = new Column[dst.length];
    for (int i = 0; i < dst.length; i++) {
      if (!implicitlyCastable(src[i].dataType(), dst[i].dataType())) {
        throw new ValidationException("Column types of query result and sink for '" + identifier(name)
            + "' do not match: incompatible types for sink column '" + dst[i].name() + "' at position " + i
            + ": query column '" + src[i].name() + "' is " + FlinkTypes.fromSparkField(src[i]) + ", sink column is "
            + FlinkTypes.fromSparkField(dst[i]) + ".");
      }
      Column c = col("`" + src[i].name() + "`");
      if (secondsIntoInteger(src[i].dataType(), dst[i].dataType())) {
        cols[i] = nullChecked(name, dst[i], src[i], intervalSeconds(c, dst[i].dataType())).as(dst[i].name(), dst[i].metadata());
        continue;
      }
      // TIME into TIME keeps the value, as Flink (which keeps a TIME's milliseconds whatever its precision)
      boolean timeToTime = src[i].dataType() instanceof TimeType && dst[i].dataType() instanceof TimeType;
      if (!src[i].dataType().sameType(dst[i].dataType()) && !timeToTime) c = c.cast(dst[i].dataType());
      cols[i] = nullChecked(name, dst[i], src[i], c).as(dst[i].name(), dst[i].metadata());
    }
    return query.select(cols);
  }

  private Column nullChecked(String name, StructField dst, StructField src, Column c) {
    if (dst.nullable() || !src.nullable()) return c;
    return when(c.isNull(), raise_error(lit("Column '" + dst.name() + "' is NOT NULL, however, a null value is being "
        + "written into it (sink '" + identifier(name) + "')."))).otherwise(c);
  }

  /**
   * A day-time interval ending in seconds (every interval column: Spark keeps them as DAY TO SECOND)
   * into an integer column, which Flink's INSERT accepts: the whole seconds (truncated toward zero),
   * wrapped to the column's width as a Java narrowing cast (measured on PyFlink 2.3: one day into
   * TINYINT is -128, 30000 days into INT -1702967296). Literals of other units stay refused.
   */
  static boolean secondsIntoInteger(DataType from, DataType to) {
    return from instanceof DayTimeIntervalType d && d.endField() == DayTimeIntervalType.SECOND()
        && to instanceof IntegralType;
  }

  private static Column intervalSeconds(Column c, DataType to) {
    byte second = DayTimeIntervalType.SECOND();
    Column seconds = c.cast(DataTypes.createDayTimeIntervalType(second, second)).cast(DataTypes.LongType);
    int bits = to.defaultSize() * 8;
    if (bits >= 64) return seconds;
    long sign = 1L << (bits - 1);
    return seconds.bitwiseAND(lit((1L << bits) - 1)).bitwiseXOR(lit(sign)).minus(lit(sign)).cast(to);
  }

  private static String describe(StructField[] fields) {
    List<String> out = new ArrayList<>();
    for (StructField f : fields) out.add(f.name() + " " + FlinkTypes.fromSparkField(f));
    return out.toString();
  }

  private static int numericRank(DataType t) {
    String n = t.typeName();
    if (n.equals("byte")) return 1;
    if (n.equals("short")) return 2;
    if (n.equals("integer")) return 3;
    if (n.equals("long")) return 4;
    if (t instanceof DecimalType) return 5;
    if (n.equals("float")) return 6;
    if (n.equals("double")) return 7;
    return 0;
  }

  /** Flink's implicit casts for INSERT: widening numerics, text to text, time to time. */
  static boolean implicitlyCastable(DataType from, DataType to) {
    if (from.sameType(to) || from instanceof NullType) return true;
    if (from instanceof NumericType && to instanceof NumericType) return numericRank(from) <= numericRank(to);
    if (Connectors.isStringLike(from) && Connectors.isStringLike(to)) return true;
    boolean fromTs = from instanceof TimestampType || from instanceof TimestampNTZType || from instanceof DateType;
    boolean toTs = to instanceof TimestampType || to instanceof TimestampNTZType;
    if (fromTs && toTs) return true;
    if (from instanceof TimeType && to instanceof TimeType) return true;
    if (secondsIntoInteger(from, to)) return true;
    // Flink refuses an interval into any other column type (Spark would write it as text)
    if (from instanceof DayTimeIntervalType || from instanceof YearMonthIntervalType) return false;
    return Cast.canUpCast(from, to);
  }

  // --- SQL statements ----------------------------------------------------------------------------

  private static final Pattern INSERT = Pattern.compile(
      "(?is)^INSERT\\s+(INTO|OVERWRITE)\\s+(?:TABLE\\s+)?([`\\w.$-]+)\\s*(.*)$");
  /** CREATE DATABASE / DROP DATABASE, with Flink's catalog and default database names in Spark's words. */
  public void databaseStatement(String s) {
    spark().sql(s.replaceAll("(?i)\\b" + CATALOG + "\\.", "").replaceAll("\\b" + DATABASE + "\\b", "default"));
  }

  /** CREATE [TEMPORARY] TABLE ... [AS query]. */
  public void createTableStatement(String s) {
    DdlParser.CreateTable ct = DdlParser.parseCreateTable(s);
    if (ct.asQuery == null) {
      createTable(ct.path, ct.definition, ct.temporary, ct.ifNotExists);
      return;
    }
    JTable query = env.sqlQuery(ct.asQuery);
    if (ct.definition.columns.isEmpty()) {
      String[] names = query.fieldNames();
      String[] types = query.fieldTypes();
      for (int i = 0; i < names.length; i++) ct.definition.columns.add(new TableDefinition.Column(names[i], types[i], null));
    }
    createTable(ct.path, ct.definition, ct.temporary, ct.ifNotExists);
    insertInto(ct.path, query, false);
  }

  /** A parsed INSERT: target, overwrite flag and the query shaped to the sink's columns. */
  public record PreparedInsert(String path, JTable table, boolean overwrite) {}

  /** Parses and validates an INSERT statement without running it (StatementSet.add_insert_sql). */
  public PreparedInsert prepareInsert(String statement) {
    String s = statement.strip();
    if (s.endsWith(";")) s = s.substring(0, s.length() - 1).strip();
    Matcher m = INSERT.matcher(s);
    if (!m.matches()) {
      throw new SqlParserException("SQL parse failed. Not an INSERT statement: "
          + DdlParser.oneLine(statement));
    }
    boolean overwrite = m.group(1).equalsIgnoreCase("OVERWRITE");
    String path = m.group(2);
    String name = objectName(path);
    String rest = m.group(3).strip();
    Map<String, String> staticPartitions = new LinkedHashMap<>();
    if (rest.toUpperCase(Locale.ROOT).matches("(?s)^PARTITION\\s*\\(.*")) {
      int open = rest.indexOf('(');
      int close = DdlParser.matching(rest, open);
      for (String kv : DdlParser.splitTopLevel(rest.substring(open + 1, close))) {
        int eq = kv.indexOf('=');
        staticPartitions.put(DdlParser.unquote(kv.substring(0, eq)), kv.substring(eq + 1).strip());
      }
      rest = rest.substring(close + 1).strip();
    }
    List<String> columns = null;
    if (rest.startsWith("(")) {
      int close = DdlParser.matching(rest, 0);
      String inner = rest.substring(1, close).strip();
      String innerUpper = inner.toUpperCase(Locale.ROOT);
      if (!(innerUpper.startsWith("SELECT") || innerUpper.startsWith("WITH") || innerUpper.startsWith("VALUES")
          || innerUpper.startsWith("("))) {
        columns = new ArrayList<>();
        for (String c : DdlParser.splitTopLevel(inner)) columns.add(DdlParser.unquote(c));
        rest = rest.substring(close + 1).strip();
      }
    }
    Entry e = sinkEntry(path);
    JTable query = env.sqlQuery(rest);
    if (columns != null || !staticPartitions.isEmpty()) {
      query = env.fromDataset(shapeColumns(name, e.definition, query.df, columns, staticPartitions));
    }
    align(name, e.definition, query.df); // validates before anything runs
    return new PreparedInsert(path, query, overwrite);
  }

  /** INSERT INTO|OVERWRITE ...: the print connector's lines, or null. */
  public String[] insertStatement(String s) {
    PreparedInsert p = prepareInsert(s);
    return insertInto(p.path(), p.table(), p.overwrite());
  }

  /** EXECUTE STATEMENT SET BEGIN ... END: the inserts run together; the print connector's lines, or null. */
  public String[] statementSet(String s) {
    int begin = s.toUpperCase(Locale.ROOT).indexOf("BEGIN");
    int end = s.toUpperCase(Locale.ROOT).lastIndexOf("END");
    String body = s.substring(begin + "BEGIN".length(), end > begin ? end : s.length());
    List<PreparedInsert> inserts = new ArrayList<>();
    for (String stmt : body.split(";")) {
      if (!stmt.isBlank()) inserts.add(prepareInsert(stmt));
    }
    List<String> lines = new ArrayList<>();
    for (PreparedInsert p : inserts) {
      String[] out = insertInto(p.path(), p.table(), p.overwrite());
      if (out != null) {
        if (lines.isEmpty()) lines.add(out[0]);
        for (int i = 1; i < out.length; i++) lines.add(out[i]);
      }
    }
    return lines.isEmpty() ? null : lines.toArray(new String[0]);
  }

  /** INSERT INTO t (a, b) / PARTITION (p = 'x'): put the query's columns where the sink has them. */
  private Dataset<Row> shapeColumns(String name, TableDefinition def, Dataset<Row> query, List<String> columns,
      Map<String, String> staticPartitions) {
    List<TableDefinition.Column> physical = def.physicalColumns();
    List<String> targets = new ArrayList<>();
    if (columns != null) {
      targets.addAll(columns);
    } else {
      for (TableDefinition.Column c : physical) if (!staticPartitions.containsKey(c.name())) targets.add(c.name());
    }
    for (String t : targets) {
      TableDefinition.Column c = def.column(t);
      if (c == null || c.isComputed()) {
        throw new ValidationException("Unknown target column '" + t + "' in INSERT into '" + identifier(name)
            + "'. Physical columns: " + Connectors.names(physical) + ".");
      }
    }
    for (String p : staticPartitions.keySet()) {
      if (!def.partitionKeys.contains(p)) {
        throw new ValidationException("'" + p + "' is not a partition column of '" + identifier(name) + "'. Partition columns: "
            + def.partitionKeys + ".");
      }
    }
    String[] fields = query.columns();
    if (fields.length != targets.size()) {
      throw new ValidationException("Column types of query result and sink for '" + identifier(name)
          + "' do not match: the query has " + fields.length + " columns, the INSERT names " + targets.size() + " " + targets + ".");
    }
    StructType sink = Connectors.physicalSchema(def);
    Column[] out = new Column[physical.size()];
    for (int i = 0; i < physical.size(); i++) {
      String target = physical.get(i).name();
      int at = targets.indexOf(target);
      if (at >= 0) {
        out[i] = col("`" + fields[at] + "`").as(target);
      } else if (staticPartitions.containsKey(target)) {
        out[i] = functions.expr(staticPartitions.get(target)).cast(sink.fields()[i].dataType()).as(target);
      } else {
        out[i] = lit(null).cast(sink.fields()[i].dataType()).as(target);
      }
    }
    return query.select(out);
  }

  /** Rows for DESCRIBE of a connector table: computed columns and keys included. */
  public boolean isConnectorTable(String name) {
    Entry e = entries.get(name);
    return e != null && e.definition != null;
  }
}
