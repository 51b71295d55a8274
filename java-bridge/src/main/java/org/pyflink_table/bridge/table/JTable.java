package org.pyflink_table.bridge.table;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.ExtendedMode$;
import org.apache.spark.sql.execution.SimpleMode$;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.CoreModule;
import org.pyflink_table.bridge.expressions.Expr;
import org.pyflink_table.bridge.expressions.ExprCompiler;
import org.pyflink_table.bridge.expressions.FunctionCatalog;
import org.pyflink_table.bridge.expressions.Scope;
import org.pyflink_table.bridge.types.FlinkTypes;

/**
 * A Flink Table: an immutable Spark Dataset plus the environment it belongs to. Each relational
 * operation compiles its Flink expressions against this table and returns a new JTable, so Spark
 * analyses eagerly and bad input fails at the call, as in Flink.
 */
public final class JTable {
  public final TableContext env;
  public final Dataset<Row> df;

  public JTable(TableContext env, Dataset<Row> df) {
    this.env = env;
    this.df = df;
  }

  public Dataset<Row> dataset() {
    return df;
  }

  public Scope scope() {
    return new Scope(df, env.functions);
  }

  JTable with(Dataset<Row> d) {
    return new JTable(env, d);
  }

  // --- schema ---------------------------------------------------------------------------------

  public String[] fieldNames() {
    return df.columns();
  }

  /** Flink type strings of the fields, NOT NULL included. */
  public String[] fieldTypes() {
    StructField[] fs = df.schema().fields();
    String[] out = new String[fs.length];
    for (int i = 0; i < fs.length; i++) out[i] = FlinkTypes.fromSparkField(fs[i]);
    return out;
  }

  /** Column names and types as Flink prints them in {@code print_schema}. */
  public String printSchema() {
    StringBuilder sb = new StringBuilder("(\n");
    String[] names = fieldNames();
    String[] types = fieldTypes();
    for (int i = 0; i < names.length; i++) {
      sb.append("  `").append(names[i]).append("` ").append(types[i]);
      sb.append(i + 1 < names.length ? ",\n" : "\n");
    }
    return sb.append(")").toString();
  }

  // --- projection and filtering ----------------------------------------------------------------

  public JTable select(Expr[] items) {
    Scope scope = scope();
    List<Expr> list = ExprCompiler.expand(Arrays.asList(items), scope);
    boolean aggregates = false;
    for (Expr e : list) aggregates |= ExprCompiler.containsAggregate(e, scope);
    if (aggregates) {
      Dataset<Row> python = PythonAggregateSelect.select(df, new ArrayList<>(), new ArrayList<>(), list, scope);
      if (python != null) return with(python);
    }
    List<Column> cols = ExprCompiler.compileNamed(list, scope);
    if (aggregates) {
      // A select with aggregates on an ungrouped table is a global aggregation, as in Flink.
      return with(df.agg(cols.get(0), cols.subList(1, cols.size()).toArray(new Column[0])));
    }
    return with(df.select(cols.toArray(new Column[0])));
  }

  public JTable filter(Expr predicate) {
    Scope scope = scope();
    if (ExprCompiler.containsAggregate(predicate, scope)) {
      throw new ValidationException("Aggregate functions are not supported in filter: " + predicate);
    }
    return with(df.filter(ExprCompiler.compile(predicate, scope)));
  }

  /** Renames all fields (Flink's {@code alias("x", "y")}); the count must match. */
  public JTable alias(String[] names) {
    if (names.length > df.columns().length) {
      throw new ValidationException("Aliasing more fields than we actually have. Fields: "
          + String.join(", ", df.columns()) + "; aliases: " + String.join(", ", names) + ".");
    }
    // As in Flink, fewer names rename a prefix of the fields and keep the rest.
    String[] all = df.columns().clone();
    System.arraycopy(names, 0, all, 0, names.length);
    checkUnique(Arrays.asList(all), "alias");
    return with(renameAll(df, all));
  }

  /** Positional rename: safe even when the input has duplicate names; field metadata is kept. */
  static Dataset<Row> renameAll(Dataset<Row> d, String[] names) {
    return d.toDF(names);
  }

  public JTable addColumns(Expr[] items) {
    return addColumns(items, false);
  }

  public JTable addOrReplaceColumns(Expr[] items) {
    return addColumns(items, true);
  }

  private JTable addColumns(Expr[] items, boolean replace) {
    Scope scope = scope();
    List<Column> added = ExprCompiler.compileNamed(Arrays.asList(items), scope);
    StructType addedSchema = df.select(added.toArray(new Column[0])).schema();
    Map<String, Column> byName = new LinkedHashMap<>();
    for (int i = 0; i < added.size(); i++) byName.put(addedSchema.fields()[i].name(), added.get(i));
    List<Column> out = new ArrayList<>();
    Set<String> existing = new HashSet<>(Arrays.asList(df.columns()));
    for (String f : df.columns()) {
      if (replace && byName.containsKey(f)) {
        out.add(byName.remove(f));
      } else {
        out.add(df.col(Scope.quote(f)));
      }
    }
    for (Map.Entry<String, Column> e : byName.entrySet()) {
      if (existing.contains(e.getKey())) {
        throw new ValidationException("Field " + e.getKey() + " already exists; use add_or_replace_columns to replace it.");
      }
      out.add(e.getValue());
    }
    return with(df.select(out.toArray(new Column[0])));
  }

  /** {@code rename_columns(col('a').alias('x'), ...)}: every item must be an aliased field. */
  public JTable renameColumns(Expr[] items) {
    Map<String, String> renames = new LinkedHashMap<>();
    for (Expr e : items) {
      if (!(e instanceof Expr.Call) || !FunctionCatalog.normalize(((Expr.Call) e).name).equals("as")
          || !(((Expr.Call) e).arg(0) instanceof Expr.FieldRef)) {
        throw new ValidationException("rename_columns takes aliased fields such as col('a').alias('x'), got " + e + ".");
      }
      String from = ((Expr.FieldRef) ((Expr.Call) e).arg(0)).name;
      scope().field(from);
      CoreModule.checkCalls(e, env.functions); // Flink renames with its built-in 'as'
      renames.put(from, ExprCompiler.aliasNames((Expr.Call) e).get(0));
    }
    String[] names = df.columns().clone();
    for (int i = 0; i < names.length; i++) names[i] = renames.getOrDefault(names[i], names[i]);
    checkUnique(Arrays.asList(names), "rename_columns");
    return with(renameAll(df, names));
  }

  public JTable dropColumns(Expr[] items) {
    Scope scope = scope();
    Set<String> drop = new HashSet<>();
    for (Expr e : ExprCompiler.expand(Arrays.asList(items), scope)) {
      if (!(e instanceof Expr.FieldRef)) {
        throw new ValidationException("drop_columns takes field references, got " + e + ".");
      }
      scope.field(((Expr.FieldRef) e).name);
      drop.add(((Expr.FieldRef) e).name);
    }
    List<Column> keep = new ArrayList<>();
    for (String f : df.columns()) if (!drop.contains(f)) keep.add(df.col(Scope.quote(f)));
    return with(df.select(keep.toArray(new Column[0])));
  }

  public JTable distinct() {
    return with(df.distinct());
  }

  // --- ordering and paging -------------------------------------------------------------------

  public JTable orderBy(Expr[] items) {
    Scope scope = scope();
    List<Column> cols = new ArrayList<>();
    for (Expr e : items) {
      boolean ordered = e instanceof Expr.Call
          && Set.of("asc", "desc", "nullsfirst", "nullslast").contains(FunctionCatalog.normalize(((Expr.Call) e).name));
      if (!ordered) CoreModule.checkImplicitAscending(e, scope.functions);
      Column c = ExprCompiler.compile(e, scope);
      cols.add(ordered ? c : c.asc_nulls_last());
    }
    return with(df.orderBy(cols.toArray(new Column[0])));
  }

  public JTable offset(int n) {
    if (n < 0) throw new ValidationException("Offset should be greater than or equal to zero, got " + n + ".");
    return with(df.offset(n));
  }

  public JTable fetch(int n) {
    if (n < 0) throw new ValidationException("Fetch should be greater than or equal to zero, got " + n + ".");
    return with(df.limit(n));
  }

  // --- set operations -------------------------------------------------------------------------

  /**
   * Flink's set-operation rule: same width, and at each position a common type (numeric types
   * widen to the wider one, as Spark's union does; other types must match), named after the left.
   */
  private void checkSetCompatible(JTable right, String op) {
    StructField[] l = df.schema().fields();
    StructField[] r = right.df.schema().fields();
    if (l.length != r.length) {
      throw new ValidationException("The " + op + " operation on two tables of different column sizes: "
          + l.length + " and " + r.length + " is not supported");
    }
    for (int i = 0; i < l.length; i++) {
      boolean numeric = l[i].dataType() instanceof NumericType
          && r[i].dataType() instanceof NumericType;
      if (!numeric && !l[i].dataType().sameType(r[i].dataType())) {
        throw new ValidationException("Incompatible types for " + op + " operation. Could not find a common type at position "
            + i + " for '" + FlinkTypes.fromSparkField(l[i]).replace(" NOT NULL", "") + "' and '"
            + FlinkTypes.fromSparkField(r[i]).replace(" NOT NULL", "") + "'.");
      }
    }
  }

  public JTable unionAll(JTable right) {
    return setOperation(right, "union", d -> d.union(right.df));
  }

  public JTable union(JTable right) {
    checkNotStreaming("UNION");
    return setOperation(right, "union", d -> d.union(right.df).distinct());
  }

  public JTable intersect(JTable right) {
    checkNotStreaming("INTERSECT");
    return setOperation(right, "intersect", d -> d.intersect(right.df));
  }

  public JTable intersectAll(JTable right) {
    checkNotStreaming("INTERSECT");
    return setOperation(right, "intersect", d -> d.intersectAll(right.df));
  }

  public JTable minus(JTable right) {
    checkNotStreaming("MINUS");
    return setOperation(right, "minus", d -> d.except(right.df));
  }

  public JTable minusAll(JTable right) {
    checkNotStreaming("MINUS");
    return setOperation(right, "minus", d -> d.exceptAll(right.df));
  }

  /**
   * The Table API's set operations other than union_all are refused in streaming mode, as PyFlink
   * 2.3 refuses them when they are called, over bounded tables too (measured); SQL's UNION runs.
   */
  private void checkNotStreaming(String op) {
    if (env.isStreaming()) {
      throw new ValidationException("The " + op + " operation on two unbounded tables is currently not supported.");
    }
  }

  /** {@code op} of this table with {@code right}, once Flink's checks of the two schemas pass. */
  private JTable setOperation(JTable right, String op, UnaryOperator<Dataset<Row>> apply) {
    checkSetCompatible(right, op);
    return with(apply.apply(df));
  }

  // --- joins ------------------------------------------------------------------------------------

  /** Flink refuses joins whose sides share field names, so references stay unambiguous. */
  private void checkJoinNames(JTable right) {
    Set<String> left = new HashSet<>(Arrays.asList(df.columns()));
    List<String> clash = new ArrayList<>();
    for (String r : right.df.columns()) if (left.contains(r)) clash.add(r);
    if (!clash.isEmpty()) {
      throw new ValidationException("Ambiguous column name: " + clash.get(0) + ". Both sides of the join have "
          + String.join(", ", clash) + "; rename the fields of one side first, e.g. with alias() or rename_columns().");
    }
  }

  public JTable join(JTable right, Expr condition, String joinType) {
    checkJoinNames(right);
    if (right.env != env) {
      throw new ValidationException("Only tables from the same TableEnvironment can be joined.");
    }
    if (condition == null) {
      if (!joinType.equals("inner")) {
        throw new ValidationException("An outer join needs a join condition.");
      }
      // Spark's stream-stream join refuses the Cross type; an inner join takes the where() that follows.
      if (df.isStreaming() && right.df.isStreaming()) return with(df.join(right.df));
      return with(df.crossJoin(right.df));
    }
    Dataset<Row> both = df.crossJoin(right.df).limit(0);
    Column cond = ExprCompiler.compile(condition, new Scope(both, env.functions));
    return with(df.join(right.df, cond, joinType));
  }

  // --- grouping ---------------------------------------------------------------------------------

  public GroupedJTable groupBy(Expr[] keys) {
    return new GroupedJTable(this, Arrays.asList(keys));
  }

  static void checkUnique(List<String> names, String op) {
    Set<String> seen = new HashSet<>();
    for (String n : names) {
      if (!seen.add(n)) {
        throw new ValidationException("Ambiguous column name: " + n + " (in " + op + ").");
      }
    }
  }

  /** Spark's readable plans: parsed, analysed, optimised and physical. */
  public String explain(boolean extended) {
    return df.queryExecution().explainString(
        extended ? ExtendedMode$.MODULE$
            : SimpleMode$.MODULE$);
  }

  public JTable copyWith(Dataset<Row> d) {
    return with(d);
  }

  static Column[] asArray(List<Column> cols) {
    return cols.toArray(new Column[0]);
  }

  static Column lit(Object o) {
    return functions.lit(o);
  }
}
