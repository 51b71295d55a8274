package org.pyflink_table.bridge.udf;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.protocol.Protocol;

/**
 * Python aggregate functions over the rows Spark's own streaming window aggregation collected per
 * fired window (the design notes' "Option B"): the aggregation keeps {@code collect_list} of a
 * struct of the functions' arguments in Spark's native window state, fires and drops late rows
 * as every built-in window does, and only its fired rows (one per window and key) travel through
 * {@code mapInArrow} into {@code pyflink_table._worker.collected_windows}, which calls each
 * function once per window. No per-row Python state calls, no Python timers.
 */
public final class CollectedWindowAggregation {
  private CollectedWindowAggregation() {}

  private static final String PASSED = "__pft_c";
  private static final String RESULT = "__pft_r";

  /**
   * Whether stream group windows may take this path ({@code pyflink_table.streaming.python-window}:
   * {@code auto}, the default, or {@code processor} for the transformWithStateInPandas processor).
   */
  public static boolean enabled(Dataset<Row> df) {
    String mode = df.sparkSession().conf().get(Protocol.CONF_STREAMING_PYTHON_WINDOW, "auto").trim()
        .toLowerCase(Locale.ROOT);
    if (mode.equals("auto")) return true;
    if (mode.equals("processor")) return false;
    throw new TableException("Unsupported value '" + mode + "' of pyflink_table.streaming.python-window; expected "
        + "auto or processor.");
  }

  /** The collected form of one window's rows: a list of structs of every call's arguments. */
  public static Column collect(List<List<Column>> args) {
    List<Column> fields = new ArrayList<>();
    for (int j = 0; j < args.size(); j++) {
      for (int m = 0; m < args.get(j).size(); m++) fields.add(args.get(j).get(m).as("a" + j + "_" + m));
    }
    return functions.collect_list(functions.struct(fields.toArray(new Column[0])));
  }

  /**
   * Each function of {@code calls} over the rows collected in column {@code rowsColumn} of
   * {@code collected} (built by {@link #collect} from the same {@code args}).
   *
   * @return {@code collected}'s other columns unchanged (metadata kept), then one column per
   *     function named {@code resultNames}
   */
  public static Dataset<Row> evaluate(Dataset<Row> collected, String rowsColumn, List<PythonAggregateFunction> calls,
      List<List<Column>> args, List<String> resultNames) {
    StructType schema = collected.schema();
    int rowsIndex = schema.fieldIndex(rowsColumn);
    List<List<Integer>> arguments = new ArrayList<>();
    int field = 0;
    for (List<Column> a : args) {
      List<Integer> fields = new ArrayList<>();
      for (int m = 0; m < a.size(); m++) fields.add(field++);
      arguments.add(fields);
    }
    // Own names for the worker's output: user column names may repeat or clash with ours.
    StructType output = new StructType();
    for (int i = 0; i < schema.size(); i++) {
      if (i != rowsIndex) output = output.add(PASSED + i, schema.fields()[i].dataType(), true);
    }
    for (int j = 0; j < calls.size(); j++) output = output.add(RESULT + j, calls.get(j).resultSparkType(), true);
    String layout = PythonCommand.json(Map.of(Protocol.LAYOUT_ROWS, rowsIndex, Protocol.LAYOUT_ARGUMENTS, arguments,
        Protocol.LAYOUT_NAMES, List.of(output.fieldNames())));
    Column call = PackedAggregation.evaluatorCall(collected, calls, layout,
        a -> PythonCommand.call(Protocol.COLLECTED_WINDOW_MODULE, Protocol.COLLECTED_WINDOW_FUNCTION, a),
        Protocol.COLLECTED_WINDOW_FUNCTION, output, Protocol.EVAL_MAP_ARROW_ITER_UDF);
    Dataset<Row> evaluated = ((org.apache.spark.sql.classic.Dataset<Row>) collected).mapInArrow(call, false, null);

    List<Column> out = new ArrayList<>();
    for (int i = 0; i < schema.size(); i++) {
      if (i == rowsIndex) continue;
      StructField f = schema.fields()[i];
      out.add(evaluated.col(PASSED + i).as(f.name(), f.metadata()));
    }
    for (int j = 0; j < calls.size(); j++) out.add(evaluated.col(RESULT + j).as(resultNames.get(j)));
    return evaluated.select(out.toArray(new Column[0]));
  }
}
