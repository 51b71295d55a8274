package org.pyflink_table.bridge.streaming;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.nullif;
import static org.apache.spark.sql.functions.raise_error;
import static org.apache.spark.sql.functions.when;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.Expr;
import org.pyflink_table.bridge.table.JTable;
import org.pyflink_table.bridge.types.FlinkTypes;

/**
 * Table.to_changelog / from_changelog (Flink's TO_CHANGELOG and FROM_CHANGELOG process table
 * functions) for batch tables, which are insert-only: every row is an INSERT.
 */
public final class Changelogs {
  private Changelogs() {}

  private static final List<String> KINDS = Arrays.asList("INSERT", "UPDATE_BEFORE", "UPDATE_AFTER", "DELETE");

  /** The named arguments {@code op} (DESCRIPTOR(column)) and {@code op_mapping} (MAP of codes). */
  private static final class Arguments {
    String op = "op";
    Map<String, String> mapping;
  }

  private static Arguments parse(String function, Expr[] args) {
    Arguments a = new Arguments();
    for (Expr e : args) {
      if (!(e instanceof Expr.Call) || !((Expr.Call) e).name.equals("asArgument")) {
        throw new ValidationException(function + " takes named arguments only: descriptor(...).as_argument('op'), "
            + "map_(...).as_argument('op_mapping'); got " + e + ".");
      }
      Expr.Call c = (Expr.Call) e;
      String name = String.valueOf(((Expr.Literal) c.arg(1)).value);
      Expr value = c.arg(0);
      if (name.equals("op")) {
        if (!(value instanceof Expr.Call) || !((Expr.Call) value).name.equals("descriptor")
            || ((Expr.Call) value).args.size() != 1) {
          throw new ValidationException(function + ": argument 'op' must be descriptor('<column>'), got " + value + ".");
        }
        a.op = literalString(function, ((Expr.Call) value).arg(0));
      } else if (name.equals("op_mapping")) {
        if (!(value instanceof Expr.Call) || !((Expr.Call) value).name.equals("map")) {
          throw new ValidationException(function + ": argument 'op_mapping' must be map_(code, kind, ...), got " + value + ".");
        }
        List<Expr> kv = ((Expr.Call) value).args;
        a.mapping = new LinkedHashMap<>();
        for (int i = 0; i + 1 < kv.size(); i += 2) {
          a.mapping.put(literalString(function, kv.get(i)), literalString(function, kv.get(i + 1)));
        }
      } else {
        throw new ValidationException(function + " has no argument '" + name + "'. Arguments: op, op_mapping.");
      }
    }
    return a;
  }

  private static String literalString(String function, Expr e) {
    if (e instanceof Expr.Literal && ((Expr.Literal) e).value instanceof String) return (String) ((Expr.Literal) e).value;
    throw new ValidationException(function + ": expected a string literal, got " + e + ".");
  }

  private static List<String> splitCodes(String key) {
    List<String> out = new ArrayList<>();
    for (String k : key.split(",")) out.add(k.strip());
    return out;
  }

  /**
   * Prepends the operation column. Every batch row is an INSERT, so the column holds the code
   * mapped to INSERT ('INSERT' by default); with a mapping that has no code for INSERT the rows
   * are filtered out, as Flink drops kinds that are not mapped.
   */
  public static JTable toChangelog(JTable t, Expr[] args) {
    Arguments a = parse("to_changelog", args);
    for (String n : t.fieldNames()) {
      if (n.equals(a.op)) {
        throw new ValidationException("to_changelog: the input already has a column named '" + a.op
            + "'; choose another with descriptor('<name>').as_argument('op').");
      }
    }
    String code = "INSERT";
    if (a.mapping != null) {
      code = null;
      for (Map.Entry<String, String> m : a.mapping.entrySet()) {
        for (String k : splitCodes(m.getKey())) {
          if (!KINDS.contains(k)) {
            throw new ValidationException("to_changelog: unknown change operation '" + k + "' in op_mapping. Use " + KINDS + ".");
          }
          if (k.equals("INSERT")) code = m.getValue();
        }
      }
    }
    // Streaming mode: an updating table's changelog has more kinds than INSERT (streaming package).
    if (ChangelogTables.appliesToStream(t)) {
      return ChangelogTables.toChangelogOfStream(t, a.op, a.mapping);
    }
    if (ChangelogTables.appliesTo(t)) {
      return ChangelogTables.toChangelog(t, a.op, a.mapping);
    }
    List<Column> cols = new ArrayList<>();
    // NULLIF(code, NULL) is the code typed nullable, as Flink types the column (STRING).
    cols.add(nullif(lit(code == null ? "" : code), lit(null).cast("string")).as(a.op));
    for (String n : t.fieldNames()) cols.add(col("`" + n.replace("`", "``") + "`"));
    Dataset<Row> df = t.df.select(cols.toArray(new Column[0]));
    if (code == null) df = df.limit(0);
    return t.copyWith(df);
  }

  /**
   * Removes the operation column. Rows coded INSERT (or the codes mapped to INSERT) are kept;
   * any other code fails the job, because a batch table cannot hold updates or deletes.
   */
  public static JTable fromChangelog(JTable t, Expr[] args) {
    Arguments a = parse("from_changelog", args);
    StructField opField = null;
    for (StructField f : t.df.schema().fields()) {
      if (f.name().equals(a.op)) opField = f;
    }
    if (opField == null) {
      throw new ValidationException("from_changelog: the input has no operation column '" + a.op + "'. Columns: "
          + Arrays.toString(t.fieldNames()) + ".");
    }
    if (!(opField.dataType() instanceof StringType)) {
      throw new ValidationException("from_changelog: the operation column '" + a.op + "' must be STRING, it is "
          + FlinkTypes.fromSparkField(opField) + ".");
    }
    List<String> insertCodes = new ArrayList<>();
    if (a.mapping == null) {
      insertCodes.add("INSERT");
    } else {
      for (Map.Entry<String, String> m : a.mapping.entrySet()) {
        if (!KINDS.contains(m.getValue())) {
          throw new ValidationException("from_changelog: unknown change operation '" + m.getValue() + "' in op_mapping. Use " + KINDS + ".");
        }
        if (m.getValue().equals("INSERT")) insertCodes.addAll(splitCodes(m.getKey()));
      }
    }
    Column op = col("`" + a.op.replace("`", "``") + "`");
    Column keep = when(op.isin(insertCodes.toArray()), lit(true)).otherwise(raise_error(concat(
        lit("Unsupported: from_changelog of a change other than INSERT (operation code '"),
        orNullText(op), lit("' in column " + a.op + ") is not supported by pyflink_table on Spark: "
            + "batch tables are insert-only."))));
    return t.copyWith(t.df.filter(keep).drop(a.op));
  }

  private static Column orNullText(Column c) {
    return coalesce(c, lit("NULL"));
  }
}
