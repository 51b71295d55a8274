package org.pyflink_table.bridge.udf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import org.apache.spark.api.python.PythonFunction;
import org.apache.spark.api.python.SimplePythonFunction;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeSet;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression$;
import org.apache.spark.sql.catalyst.expressions.PythonUDF;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.ArrowEvalPython;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.MapInArrow;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.types.StructType;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.protocol.Protocol;
import scala.Option;

/**
 * Optimizer rule running the Python scalar functions of a projection through {@code mapInArrow}
 * instead of Spark's {@code ArrowEvalPython}.
 *
 * <p>{@code ArrowEvalPython} queues every input row, sends the arguments to Python, joins each
 * queued row with its results and copies all of it before the projection above drops what it does
 * not need: about half of a general UDF query's executor time (profiled 2026-11-24). Here the
 * columns needed above and the arguments go to Python once; the worker
 * ({@code pyflink_table._worker.scalar_projection}) evaluates every call, chained calls included,
 * and sends the passed-through columns back with the results: no queue, no join.
 *
 * <p>The rule runs after Spark's {@code ExtractPythonUDFs} (user optimizer rules come later) and
 * takes an {@code ArrowEvalPython} step only when every function in it is one of ours (a general,
 * pandas or pyarrow scalar function registered through {@link PythonScalarFunction}) and its
 * command is not broadcast; anything else (PySpark's own UDFs on the same session) stays as Spark
 * planned it. The output keeps the step's attributes, so the plan above is unchanged.
 * {@code spark.sql.pyflink_table.python.scalar.map-in-arrow=false} keeps Spark's plan.
 */
public final class ScalarProjections extends Rule<LogicalPlan> {
  /** The Spark functions of our Python scalar functions; weak, so unused functions are dropped. */
  private static final Set<PythonFunction> OURS = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

  /** Marks {@code function} (a {@link PythonScalarFunction}'s batched Spark function) as one of ours. */
  static void register(PythonFunction function) {
    OURS.add(function);
  }

  private final SparkSession session;

  /** The rule of {@code session}'s optimizer, reading its setting from that session. */
  public ScalarProjections(SparkSession session) {
    this.session = session;
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    // the environment's own session: the thread's active one may be another (SQLConf.get())
    String mode = session.conf().get(Protocol.CONF_SCALAR_MAP_IN_ARROW, "true").trim().toLowerCase(Locale.ROOT);
    if (mode.equals("false")) return plan;
    if (!mode.equals("true")) {
      throw new TableException("Unsupported value '" + mode + "' of pyflink_table.python.scalar.map-in-arrow; "
          + "expected true or false");
    }
    return plan.transformDown(ScalaInterop.everywhere((LogicalPlan p) -> {
      // A projection or aggregate above needs only what it references; other nodes pass all on.
      boolean pruning = p instanceof Project || p instanceof Aggregate;
      return ScalaInterop.mapChildren(p, c -> {
        if (!(c instanceof ArrowEvalPython e)) return c;
        LogicalPlan rewritten = rewrite(e, pruning ? p.references() : e.outputSet());
        return rewritten == null ? c : rewritten;
      });
    }));
  }

  /** {@code e} as a mapInArrow over the columns {@code required} above and the arguments, or null. */
  private static LogicalPlan rewrite(ArrowEvalPython e, AttributeSet required) {
    if (e.evalType() != Protocol.EVAL_SCALAR_ARROW_UDF) return null;
    Layout layout = new Layout();
    for (Attribute a : ScalaInterop.list(e.child().output())) {
      if (required.contains(a)) layout.passed.add(a);
    }
    layout.inputs.addAll(layout.passed);
    List<Object> calls = new ArrayList<>();
    for (PythonUDF udf : ScalaInterop.list(e.udfs())) {
      Object call = layout.call(udf);
      if (call == null) return null;
      calls.add(call);
    }
    List<Attribute> output = new ArrayList<>(layout.passed);
    output.addAll(ScalaInterop.list(e.resultAttrs()));
    StructType schema = new StructType();
    for (int i = 0; i < output.size(); i++) schema = schema.add("_" + i, output.get(i).dataType(), true);

    SimplePythonFunction template = layout.functions.get(0);
    Object[] args = new Object[layout.functions.size() + 1];
    args[0] = PythonCommand.json(Map.of(Protocol.LAYOUT_PASSED, layout.passed.size(), Protocol.LAYOUT_CALLS, calls));
    for (int i = 0; i < layout.functions.size(); i++) args[i + 1] = bytes(layout.functions.get(i).command());
    SimplePythonFunction runner = new SimplePythonFunction(
        PythonCommand.call(Protocol.SCALAR_PROJECTION_MODULE, Protocol.SCALAR_PROJECTION_FUNCTION, args),
        template.envVars(), template.pythonIncludes(), template.pythonExec(), template.pythonVer(),
        template.broadcastVars(), template.accumulator());

    LogicalPlan input = e.child();
    List<Attribute> inputAttributes = new ArrayList<>();
    for (NamedExpression n : layout.inputs) inputAttributes.add(n.toAttribute());
    if (!inputAttributes.equals(ScalaInterop.list(input.output()))) {
      input = new Project(ScalaInterop.seq(layout.inputs), input);
    }
    boolean deterministic = true;
    for (PythonUDF udf : ScalaInterop.list(e.udfs())) deterministic &= udf.deterministic();
    PythonUDF function = new PythonUDF(Protocol.SCALAR_PROJECTION_FUNCTION, runner, schema,
        ScalaInterop.seq(new ArrayList<Expression>(inputAttributes)), Protocol.EVAL_MAP_ARROW_ITER_UDF,
        deterministic, NamedExpression$.MODULE$.newExprId());
    return new MapInArrow(function, ScalaInterop.seq(output), input, false, Option.empty());
  }

  /** The worker's input columns, its functions, and the call trees over them. */
  private static final class Layout {
    final List<Attribute> passed = new ArrayList<>();
    final List<NamedExpression> inputs = new ArrayList<>();
    final List<SimplePythonFunction> functions = new ArrayList<>();

    /** {@code udf}'s call tree ({function, args}), or null when it is not one of ours. */
    Object call(PythonUDF udf) {
      if (udf.evalType() != Protocol.EVAL_SCALAR_ARROW_UDF || !(udf.func() instanceof SimplePythonFunction f)
          || !OURS.contains(f) || !f.broadcastVars().isEmpty()) {
        return null;
      }
      int index = -1;
      for (int i = 0; i < functions.size(); i++) if (functions.get(i) == f) index = i;
      if (index < 0) {
        functions.add(f);
        index = functions.size() - 1;
      }
      List<Object> args = new ArrayList<>();
      for (Expression c : ScalaInterop.list(udf.children())) {
        if (c instanceof PythonUDF inner) {
          Object nested = call(inner);
          if (nested == null) return null;
          args.add(nested);
        } else if (c.find(x -> x instanceof PythonUDF).isDefined()) {
          return null;  // Spark evaluates such arguments in an ArrowEvalPython step of their own
        } else {
          args.add(Map.of(Protocol.CALL_COLUMN, column(c)));
        }
      }
      Map<String, Object> call = new LinkedHashMap<>();
      call.put(Protocol.CALL_FUNCTION, index);
      call.put(Protocol.CALL_ARGUMENTS, args);
      return call;
    }

    /** The input column holding {@code argument}'s values, added (computed by the projection below) if new. */
    private int column(Expression argument) {
      for (int i = 0; i < inputs.size(); i++) {
        NamedExpression n = inputs.get(i);
        Expression value = n instanceof Alias a ? a.child() : (Expression) n;
        if (argument.deterministic() && value.semanticEquals(argument)) return i;
      }
      inputs.add(argument instanceof Attribute a ? a : new Alias(argument, "_arg" + inputs.size(),
          NamedExpression$.MODULE$.newExprId(), ScalaInterop.seq(List.of()), Option.empty(), ScalaInterop.seq(List.of())));
      return inputs.size() - 1;
    }
  }

  private static byte[] bytes(scala.collection.immutable.Seq<Object> command) {
    if ((Object) command instanceof scala.collection.immutable.ArraySeq.ofByte b) return b.unsafeArray();
    List<Object> values = ScalaInterop.list(command);
    byte[] out = new byte[values.size()];
    for (int i = 0; i < out.length; i++) out[i] = (Byte) values.get(i);
    return out;
  }
}
