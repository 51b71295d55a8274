package org.pyflink_table.bridge.window;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.Expr;
import org.pyflink_table.bridge.expressions.ExprCompiler;
import org.pyflink_table.bridge.expressions.FunctionCatalog;
import org.pyflink_table.bridge.expressions.Scope;
import org.pyflink_table.bridge.table.JTable;

/**
 * Row-count group windows ({@code Tumble.over(row_interval(n))}, {@code Slide.over(row_interval(n))
 * .every(row_interval(m))}) in streaming mode, as Flink's count windows on a processing-time
 * attribute: per key, in arrival order, window {@code k} holds the key's rows numbered
 * {@code k*m .. k*m+n-1} (from 0; a tumbling window has {@code m = n}) and fires once, when its
 * last row arrives. An incomplete window never fires, not even when a bounded source ends; with
 * {@code m > n} the rows between two windows belong to none.
 *
 * <p>Over a bounded source the windows are numbered here in one batch job (arrival order is the
 * scan order, as in {@code BoundedEventTime}) and aggregated like time windows: the window column
 * is a (start, end) struct of row numbers, so the plan is insert-only. Over an unbounded source the
 * rows go to a keyed processor that counts them ({@link StreamWindowSelect}).
 */
final class CountWindows {
  private CountWindows() {}

  private static final String ARRIVAL = "__pft_arrival";
  private static final String NUMBER = "__pft_row_number";

  /** Whether {@code window} counts rows; a slide must count rows exactly when its size does. */
  static boolean isCountWindow(GroupWindowSpec window) {
    if (window.kind == GroupWindowSpec.Kind.SESSION) return false;
    boolean rows = WindowInterval.parse(window.size, "Group window size").kind == WindowInterval.Kind.ROWS;
    if (window.kind == GroupWindowSpec.Kind.SLIDE
        && rows != (WindowInterval.parse(window.slide, "Sliding window slide").kind == WindowInterval.Kind.ROWS)) {
      throw new ValidationException("A sliding window expects the same type of size and slide.");
    }
    return rows;
  }

  /** The window's length in rows, checked. */
  static long size(GroupWindowSpec window) {
    return positive(window.size, window.kind == GroupWindowSpec.Kind.TUMBLE ? "Tumbling window size" : "Sliding window size");
  }

  /** The window's slide in rows (its size for a tumbling window), checked. */
  static long slide(GroupWindowSpec window) {
    return window.kind == GroupWindowSpec.Kind.SLIDE ? positive(window.slide, "Sliding window slide") : size(window);
  }

  private static long positive(Expr e, String role) {
    long n = WindowInterval.parse(e, role).value;
    // PyFlink plans 0 and fails at run time (division by zero), and treats a negative count as 1.
    if (n <= 0) throw new ValidationException(role + " must be a positive row count, got " + e + ".");
    return n;
  }

  /**
   * Refuses what PyFlink refuses: row-count windows in batch mode (PyFlink cannot plan them) and on
   * an event-time attribute (PyFlink's message); {@code time} is the window's time column.
   */
  static void check(JTable table, GroupWindowSpec window, StructField time) {
    if (!table.env.isStreaming()) {
      // PyFlink 2.3 batch: "Cannot generate a valid execution plan for the given query".
      throw TableException.unsupported("Row-count group windows in batch mode (" + window + ")");
    }
    if (time.metadata().contains(TimeAttributes.WATERMARK_DELAY_MS)) {
      throw new TableException("Event-time grouping windows on row intervals are currently not supported: "
          + window + " is on the rowtime attribute '" + time.name() + "'; count rows on a processing-time "
          + "attribute (a column declared AS PROCTIME()).");
    }
    size(window);
    slide(window);
  }

  /**
   * Refuses the window properties a count window has not, with PyFlink's messages: a count window
   * has no start or end, and a processing-time window no rowtime.
   */
  static void refuseProperties(GroupWindowSpec window, List<Expr> items) {
    for (Expr e : items) refuseProperties(window, e);
  }

  private static void refuseProperties(GroupWindowSpec window, Expr e) {
    if (!(e instanceof Expr.Call)) return;
    Expr.Call c = (Expr.Call) e;
    if (c.args.size() == 1 && c.arg(0) instanceof Expr.FieldRef && ((Expr.FieldRef) c.arg(0)).name.equals(window.alias)) {
      String n = FunctionCatalog.normalize(c.name);
      if (n.equals("rowtime")) {
        throw new ValidationException("A proctime window cannot provide a rowtime attribute.");
      }
      if (n.equals("start") || n.equals("end") || n.equals("proctime")) {
        throw new ValidationException("Window start and Window end cannot be selected for a row-count "
            + (window.kind == GroupWindowSpec.Kind.TUMBLE ? "tumble" : "slide") + " window.");
      }
    }
    for (Expr a : c.args) refuseProperties(window, a);
  }

  /**
   * A bounded table's rows with their count windows in {@code windowColumn}, a (start, end) struct
   * of the window's first row number and the number after its last: one row per window holding it,
   * only complete windows.
   */
  static Dataset<Row> assign(JTable table, GroupWindowSpec window, List<Expr> keys, String windowColumn) {
    long size = size(window);
    long slide = slide(window);
    Scope scope = table.scope();
    List<Column> keyCols = new ArrayList<>(ExprCompiler.compileAll(ExprCompiler.expand(keys, scope), scope));
    if (keyCols.isEmpty()) keyCols.add(functions.lit(true)); // one partition, said explicitly
    Column[] byKey = keyCols.toArray(new Column[0]);
    // Arrival order is the scan order (one partition at parallelism 1, files in order).
    Dataset<Row> numbered = table.df.withColumn(ARRIVAL, functions.monotonically_increasing_id())
        .withColumn(NUMBER, functions.row_number().over(Window.partitionBy(byKey).orderBy(functions.col(ARRIVAL)))
            .minus(1));
    Column n = functions.col(NUMBER);
    Column last = functions.floor(n.divide(slide)); // the last window starting at or before the row
    // Window k holds rows k*slide .. k*slide+size-1: the row's windows are among the few before `last`.
    Column candidates = functions.sequence(last.minus(functions.lit((size - 1) / slide + 1)), last);
    Column windows = functions.filter(candidates,
        k -> k.geq(0).and(k.multiply(slide).plus(size - 1).geq(n)));
    Column k = functions.col(windowColumn + "_k");
    List<Column> keyAndWindow = new ArrayList<>(keyCols);
    keyAndWindow.add(k);
    Dataset<Row> assigned = numbered.withColumn(windowColumn + "_k", functions.explode(windows))
        .withColumn(windowColumn + "_rows", functions.count(functions.lit(1))
            .over(Window.partitionBy(keyAndWindow.toArray(new Column[0]))));
    List<Column> out = new ArrayList<>();
    for (StructField f : table.df.schema().fields()) {
      // A rowtime beside the counted column is a plain value here: no event-time rule applies to these windows.
      Metadata md = new MetadataBuilder().withMetadata(f.metadata()).remove(TimeAttributes.WATERMARK_DELAY_MS).build();
      out.add(assigned.col(Scope.quote(f.name())).as(f.name(), md));
    }
    out.add(functions.struct(k.multiply(slide).as("start"), k.multiply(slide).plus(size).as("end")).as(windowColumn));
    return assigned.filter(functions.col(windowColumn + "_rows").equalTo(size)).select(out.toArray(new Column[0]));
  }
}
