package org.pyflink_table.bridge.expressions;

import static org.apache.spark.sql.functions.lit;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.Period;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.expressions.WindowSpec;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.types.FlinkTypes;

/** Compiles unresolved Flink expressions to Spark columns within a {@link Scope}. */
public final class ExprCompiler {
  private ExprCompiler() {}

  /** Names of the special forms handled here rather than in the function catalog. */
  static final Set<String> ORDERINGS = Set.of("asc", "desc", "nullsfirst", "nullslast");

  public static Column compile(Expr e, Scope scope) {
    if (e instanceof Expr.FieldRef) {
      return scope.field(((Expr.FieldRef) e).name);
    }
    if (e instanceof Expr.Literal) {
      return literal((Expr.Literal) e);
    }
    Expr.Call call = (Expr.Call) e;
    CoreModule.checkCalls(call, scope.functions);
    String n = FunctionCatalog.normalize(call.name);
    switch (n) {
      case "as":
        return alias(call, scope);
      case "inputrow":
        // The whole input row as one ROW value: what a bare function in map/flat_map/aggregate gets.
        return inputRow(scope);
      case "cast":
      case "trycast":
        return cast(call, scope, n.equals("trycast"));
      case "over":
        return over(call, scope);
      case "asc":
        return compile(call.arg(0), scope).asc_nulls_last();
      case "desc":
        return compile(call.arg(0), scope).desc_nulls_first();
      case "nullsfirst":
      case "nullslast":
        return nullOrdering(call, scope, n.equals("nullsfirst"));
      case "get":
        return get(call, scope);
      case "distinct":
        if (call.arg(0) instanceof Expr.Call && scope.functions.isAggregate(((Expr.Call) call.arg(0)).name)
            && !((Expr.Call) call.arg(0)).args.isEmpty()) {
          // PyFlink's form col('a').count.distinct: the aggregate over distinct values.
          Expr.Call agg = (Expr.Call) call.arg(0);
          List<Expr> args = new ArrayList<>(agg.args);
          args.set(0, new Expr.Call("distinct", agg.arg(0)));
          return compile(new Expr.Call(agg.name, args, agg.function), scope);
        }
        throw new ValidationException("distinct can only be applied to an aggregate argument, as in col('a').distinct.count: " + call);
      default:
        break;
    }
    // Engineer A: time units written as bare names (extract(a, YEAR)) become string literals.
    if (TemporalFunctions.UNIT_CALLS.contains(n)) {
      call = TemporalFunctions.unitsAsLiterals(call, scope);
    }
    if (n.equals("flatten")) {
      throw new ValidationException("flatten can only be used as a whole select item, as in select(col('r').flatten).");
    }
    if (call.args.size() == 1 && call.arg(0) instanceof Expr.FieldRef) {
      Map<String, Column> props = scope.windowProperties.get(((Expr.FieldRef) call.arg(0)).name);
      if (props != null && props.containsKey(n)) {
        return props.get(n);
      }
      if (props != null && n.equals("proctime")) {
        // As PyFlink 2.3 batch: windows on a timestamp column have no processing-time property.
        throw new ValidationException("Window property proctime is not available on a batch (event-time) window; "
            + "use start, end or rowtime: " + call + ".");
      }
    }
    if (call.function instanceof UserFunction) {
      return ((UserFunction) call.function).apply(compileAll(call.args, scope), scope);
    }
    UserFunction user = scope.functions.user(call.name);
    if (user != null) {
      if (user.isTableFunction()) {
        throw new ValidationException("Table function " + call.name
            + " can only be used in join_lateral, left_outer_join_lateral or flat_map.");
      }
      return user.apply(compileAll(call.args, scope), scope);
    }
    FunctionCatalog.Builtin b = FunctionCatalog.builtin(call.name);
    if (b == null) {
      throw scope.functions.undefined(call.name);
    }
    boolean distinct = false;
    List<Expr> args = call.args;
    if (b.aggregate() && !args.isEmpty() && args.get(0) instanceof Expr.Call
        && FunctionCatalog.normalize(((Expr.Call) args.get(0)).name).equals("distinct")) {
      distinct = true;
      args = new ArrayList<>(args);
      args.set(0, ((Expr.Call) args.get(0)).arg(0));
    }
    return b.builder().build(new CallContext(call.name, compileAll(args, scope), args, scope, distinct));
  }

  /**
   * Compiles an argument or key list; column functions ({@code with_columns(...)},
   * {@code without_columns(...)}) expand in place, as Flink allows them wherever fields are expected.
   */
  public static List<Column> compileAll(List<Expr> es, Scope scope) {
    List<Column> out = new ArrayList<>(es.size());
    for (Expr e : es) {
      if (isColumnFunction(e)) {
        for (Expr f : expand(List.of(e), scope)) out.add(compile(f, scope));
      } else {
        out.add(compile(e, scope));
      }
    }
    return out;
  }

  private static Column inputRow(Scope scope) {
    List<Column> fields = new ArrayList<>();
    for (String f : scope.fieldNames()) fields.add(scope.field(f).as(f));
    return functions.struct(fields.toArray(new Column[0]));
  }

  private static boolean isColumnFunction(Expr e) {
    if (!(e instanceof Expr.Call)) return false;
    String n = FunctionCatalog.normalize(((Expr.Call) e).name);
    return n.equals("withcolumns") || n.equals("withoutcolumns");
  }

  /**
   * CAST/TRY_CAST with Flink's string forms ({@link StringCast}: '2000-01-01 00:00:00.000' for a
   * TIMESTAMP(3), TRUE, {k=1}, ...) and CHAR(n) blank-padded; the exact target type (VARCHAR(10),
   * TIMESTAMP(3), ...) is recorded for get_schema.
   */
  private static Column cast(Expr.Call call, Scope scope, boolean lenient) {
    FlinkTypes.Parsed target = FlinkTypes.parse(typeArg(call));
    Column x = compile(call.arg(0), scope);
    DataType source = scope.typeOf(x);
    Column r;
    if (target.spark() instanceof StringType && StringCast.differs(source)) {
      r = StringCast.of(x, source, recordedType(call.arg(0), scope));
    } else {
      r = lenient ? x.try_cast(target.spark()) : x.cast(target.spark());
      Integer p = timestampPrecision(target.flink());
      if (p != null) r = TimestampPrecision.truncated(r, target.spark(), p);
    }
    if (target.flink().startsWith("CHAR(")) {
      int len = Integer.parseInt(target.flink().substring(5, target.flink().length() - 1));
      r = functions.rpad(r, len, " ");
    }
    if (!target.flink().equals(FlinkTypes.fromSpark(target.spark()))) {
      r = FunctionCatalog.typed(r, target.flink());
    }
    return r;
  }

  /** The p of a TIMESTAMP(p)/TIMESTAMP_LTZ(p) type string, null for other types. */
  private static Integer timestampPrecision(String flinkType) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("^TIMESTAMP(?:_LTZ)?\\((\\d)\\)").matcher(flinkType);
    return m.find() ? Integer.valueOf(m.group(1)) : null;
  }

  /**
   * The Flink type recorded on an input field (e.g. its timestamp precision) or that a cast gives,
   * null when unknown.
   */
  private static String recordedType(Expr e, Scope scope) {
    if (e instanceof Expr.Call && (FunctionCatalog.normalize(((Expr.Call) e).name).equals("cast")
        || FunctionCatalog.normalize(((Expr.Call) e).name).equals("trycast"))) {
      return FlinkTypes.parse(typeArg((Expr.Call) e)).flink();
    }
    if (e instanceof Expr.FieldRef && scope.hasField(((Expr.FieldRef) e).name)) {
      for (StructField f : scope.input.schema().fields()) {
        if (f.name().equals(((Expr.FieldRef) e).name) && f.metadata().contains(FlinkTypes.METADATA_KEY)) {
          return FlinkTypes.fromSparkField(f);
        }
      }
    }
    return null;
  }

  static String typeArg(Expr.Call call) {
    Expr t = call.arg(1);
    if (!(t instanceof Expr.Literal)) {
      throw new ValidationException("The target type of " + call.name + " must be a type, got " + t + ".");
    }
    return String.valueOf(((Expr.Literal) t).value);
  }

  private static Column alias(Expr.Call call, Scope scope) {
    Column c = compile(call.arg(0), scope);
    List<String> names = aliasNames(call);
    if (names.size() == 1) {
      return c.as(names.get(0));
    }
    return c.as(ScalaInterop.seq(names));
  }

  public static List<String> aliasNames(Expr.Call call) {
    List<String> names = new ArrayList<>();
    for (int i = 1; i < call.args.size(); i++) {
      Expr a = call.arg(i);
      names.add(a instanceof Expr.FieldRef ? ((Expr.FieldRef) a).name : String.valueOf(((Expr.Literal) a).value));
    }
    return names;
  }

  private static Column over(Expr.Call call, Scope scope) {
    Expr w = call.arg(1);
    String alias = w instanceof Expr.FieldRef ? ((Expr.FieldRef) w).name : String.valueOf(((Expr.Literal) w).value);
    WindowSpec spec = scope.overWindows.get(alias);
    if (spec == null) {
      throw new ValidationException("Over window alias '" + alias + "' is not defined; defined: " + scope.overWindows.keySet() + ".");
    }
    // The window goes onto the aggregate calls inside Flink's type-keeping casts (window package).
    return OverAggregates.windowed(compile(call.arg(0), scope), spec,
        scope.overWindowOrders.getOrDefault(alias, spec));
  }

  private static Column nullOrdering(Expr.Call call, Scope scope, boolean nullsFirst) {
    Expr inner = call.arg(0);
    boolean desc = false;
    if (inner instanceof Expr.Call) {
      String in = FunctionCatalog.normalize(((Expr.Call) inner).name);
      if (in.equals("asc") || in.equals("desc")) {
        desc = in.equals("desc");
        inner = ((Expr.Call) inner).arg(0);
      }
    }
    Column c = compile(inner, scope);
    if (desc) {
      return nullsFirst ? c.desc_nulls_first() : c.desc_nulls_last();
    }
    return nullsFirst ? c.asc_nulls_first() : c.asc_nulls_last();
  }

  private static Column get(Expr.Call call, Scope scope) {
    Column base = compile(call.arg(0), scope);
    Expr key = call.arg(1);
    Object k = key instanceof Expr.Literal ? ((Expr.Literal) key).value : ((Expr.FieldRef) key).name;
    if (k instanceof String) {
      return base.getField((String) k);
    }
    DataType t = scope.typeOf(base);
    if (t instanceof StructType) {
      // Flink's ROW.get(i) is 0-based by position.
      return base.getField(((StructType) t).fields()[((Number) k).intValue()].name());
    }
    return functions.element_at(base, lit(k));
  }

  static Column literal(Expr.Literal l) {
    if (l.flinkType == null) {
      if (l.value instanceof String) {
        // A string literal is CHAR(n) NOT NULL in Flink (an empty one is CHAR(0) there; Spark has no CHAR(0)).
        int n = ((String) l.value).length();
        return n == 0 ? lit(l.value) : FunctionCatalog.typed(lit(l.value), "CHAR(" + n + ")");
      }
      return lit(l.value);
    }
    FlinkTypes.Parsed t = FlinkTypes.parse(l.flinkType);
    if (l.value == null) {
      return lit(null).cast(t.spark());
    }
    String v = String.valueOf(l.value);
    String base = t.flink();
    if (base.startsWith("DECIMAL")) return lit(new BigDecimal(v)).cast(t.spark());
    if (base.equals("DATE")) return lit(LocalDate.parse(v));
    if (base.startsWith("TIMESTAMP_LTZ")) return lit(Instant.parse(v));
    if (base.startsWith("TIMESTAMP")) return lit(LocalDateTime.parse(v));
    if (base.startsWith("TIME")) return lit(LocalTime.parse(v)).cast(t.spark());
    if (base.startsWith("INTERVAL YEAR")) return lit(Period.ofMonths(Integer.parseInt(v)));
    if (base.startsWith("INTERVAL")) return lit(Duration.ofMillis(Long.parseLong(v)));
    return lit(l.value).cast(t.spark());
  }

  /** True when the expression contains an aggregate call that is not windowed by OVER. */
  public static boolean containsAggregate(Expr e, Scope scope) {
    if (!(e instanceof Expr.Call)) return false;
    Expr.Call c = (Expr.Call) e;
    String n = FunctionCatalog.normalize(c.name);
    if (n.equals("over")) return false;
    if (c.function instanceof UserFunction && ((UserFunction) c.function).isAggregate()) return true;
    if (!n.equals("as") && !n.equals("cast") && scope.functions.isAggregate(c.name)) return true;
    for (Expr a : c.args) {
      if (containsAggregate(a, scope)) return true;
    }
    return false;
  }

  /** True for {@code w.start}, {@code w.end} or {@code w.rowtime} of a group window in scope. */
  static boolean isWindowProperty(Expr e, Scope scope) {
    if (!(e instanceof Expr.Call) || ((Expr.Call) e).args.size() != 1) return false;
    Expr.Call c = (Expr.Call) e;
    if (!(c.arg(0) instanceof Expr.FieldRef)) return false;
    Map<String, Column> props = scope.windowProperties.get(((Expr.FieldRef) c.arg(0)).name);
    return props != null && props.containsKey(FunctionCatalog.normalize(c.name));
  }

  /** True when the top of the expression (under aliases) is itself an aggregate call. */
  public static boolean isBareAggregate(Expr e, Scope scope) {
    if (!(e instanceof Expr.Call)) return false;
    Expr.Call c = (Expr.Call) e;
    if (c.function instanceof UserFunction) return ((UserFunction) c.function).isAggregate();
    String n = FunctionCatalog.normalize(c.name);
    if (n.equals("distinct") && !c.args.isEmpty()) {
      return isBareAggregate(c.arg(0), scope); // col('a').count.distinct
    }
    return !n.equals("over") && !n.equals("as") && scope.functions.isAggregate(c.name);
  }

  /**
   * Compiles a select list with Flink's output names: fields keep their names, aliases win,
   * a bare aggregate is {@code EXPR$k} (k counting aggregates), anything else {@code _c<position>}.
   */
  public static List<Column> compileNamed(List<Expr> items, Scope scope) {
    List<Expr> expanded = expand(items, scope);
    List<String> names = outputNames(expanded, scope);
    List<Column> out = new ArrayList<>();
    for (int i = 0; i < expanded.size(); i++) {
      Expr e = expanded.get(i);
      CoreModule.checkSelectItem(e, scope.functions);
      Column c = compile(e, scope);
      boolean aliased = e instanceof Expr.Call && FunctionCatalog.normalize(((Expr.Call) e).name).equals("as");
      out.add(aliased ? c : c.as(names.get(i)));
    }
    return out;
  }

  /**
   * Flink's output names of an expanded select list; an aliased item (possibly multi-name,
   * as in flatten) is named by its first alias.
   */
  public static List<String> outputNames(List<Expr> expanded, Scope scope) {
    List<String> out = new ArrayList<>();
    int aggIndex = 0;
    for (int i = 0; i < expanded.size(); i++) {
      Expr e = expanded.get(i);
      if (e instanceof Expr.FieldRef) {
        out.add(((Expr.FieldRef) e).name);
      } else if (e instanceof Expr.Call && FunctionCatalog.normalize(((Expr.Call) e).name).equals("as")) {
        out.add(aliasNames((Expr.Call) e).get(0));
      } else if (isBareAggregate(e, scope) || isWindowProperty(e, scope)) {
        // Flink numbers unnamed aggregates and group-window properties together: EXPR$0, EXPR$1, ...
        out.add("EXPR$" + aggIndex++);
      } else {
        out.add("_c" + i);
      }
    }
    return out;
  }

  /** Expands {@code *}, {@code with_columns(...)} and {@code without_columns(...)} to field refs. */
  public static List<Expr> expand(List<Expr> items, Scope scope) {
    List<Expr> out = new ArrayList<>();
    List<String> fields = scope.fieldNames();
    for (Expr e : items) {
      if (e instanceof Expr.FieldRef && ((Expr.FieldRef) e).name.equals("*")) {
        for (String f : fields) out.add(new Expr.FieldRef(f));
        continue;
      }
      if (e instanceof Expr.Call && FunctionCatalog.normalize(((Expr.Call) e).name).equals("flatten")) {
        out.addAll(flatten((Expr.Call) e, scope));
        continue;
      }
      if (e instanceof Expr.Call) {
        String n = FunctionCatalog.normalize(((Expr.Call) e).name);
        if (n.equals("withcolumns") || n.equals("withoutcolumns")) {
          Set<String> selected = selectColumns(((Expr.Call) e).args, fields, scope);
          for (String f : fields) {
            if (selected.contains(f) == n.equals("withcolumns")) out.add(new Expr.FieldRef(f));
          }
          continue;
        }
      }
      out.add(e);
    }
    return out;
  }

  /** ROW-typed {@code r.flatten}: one item per field, named {@code r$field} as Flink names them. */
  private static List<Expr> flatten(Expr.Call call, Scope scope) {
    Expr row = call.arg(0);
    DataType t = scope.typeOf(compile(row, scope));
    if (!(t instanceof StructType)) {
      throw new ValidationException("flatten needs a ROW (composite) value, got " + t.simpleString() + " for " + row + ".");
    }
    String prefix = row instanceof Expr.FieldRef ? ((Expr.FieldRef) row).name : "_c";
    List<Expr> out = new ArrayList<>();
    for (StructField f : ((StructType) t).fields()) {
      out.add(new Expr.Call("as", new Expr.Call("get", row, new Expr.Literal(f.name(), null)),
          new Expr.Literal(prefix + "$" + f.name(), null)));
    }
    return out;
  }

  private static Set<String> selectColumns(List<Expr> args, List<String> fields, Scope scope) {
    Set<String> out = new LinkedHashSet<>();
    for (Expr a : args) {
      if (a instanceof Expr.FieldRef) {
        String name = ((Expr.FieldRef) a).name;
        if (name.equals("*")) {
          out.addAll(fields);
        } else {
          scope.field(name);
          out.add(name);
        }
      } else if (a instanceof Expr.Literal && ((Expr.Literal) a).value instanceof Number) {
        out.add(fields.get(((Number) ((Expr.Literal) a).value).intValue() - 1));
      } else if (a instanceof Expr.Call && FunctionCatalog.normalize(((Expr.Call) a).name).equals("range")) {
        Expr.Call r = (Expr.Call) a;
        int from = position(r.arg(0), fields, scope);
        int to = position(r.arg(1), fields, scope);
        for (int i = from; i <= to; i++) out.add(fields.get(i));
      } else {
        throw new ValidationException("with_columns/without_columns take column names, indices or range_(...), got " + a + ".");
      }
    }
    return out;
  }

  private static int position(Expr e, List<String> fields, Scope scope) {
    if (e instanceof Expr.FieldRef) {
      String name = ((Expr.FieldRef) e).name;
      scope.field(name);
      return fields.indexOf(name);
    }
    int i = ((Number) ((Expr.Literal) e).value).intValue() - 1;
    if (i < 0 || i >= fields.size()) {
      throw new ValidationException("Column index " + (i + 1) + " is out of range 1.." + fields.size() + ".");
    }
    return i;
  }
}
