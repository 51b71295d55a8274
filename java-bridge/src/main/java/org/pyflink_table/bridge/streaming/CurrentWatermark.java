package org.pyflink_table.bridge.streaming;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal$;
import org.apache.spark.sql.catalyst.expressions.NamedExpression$;
import org.apache.spark.sql.catalyst.expressions.ScalaUDF;
import org.apache.spark.sql.catalyst.plans.logical.EventTimeWatermark;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.execution.streaming.runtime.StreamExecution;
import org.apache.spark.sql.execution.streaming.runtime.StreamExecutionContext;
import org.apache.spark.sql.execution.streaming.runtime.StreamingQueryWrapper;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.pyflink_table.bridge.errors.TableException;
import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.ScalaInterop;
import org.pyflink_table.bridge.types.FlinkTypes;
import scala.Function1;
import scala.Option;
import scala.collection.immutable.Seq;
import scala.runtime.AbstractPartialFunction;

/**
 * Flink's {@code CURRENT_WATERMARK(rowtime)} over an unbounded source: Spark's watermark as of the
 * start of the running micro-batch (the value every row of that batch sees), NULL while there is
 * none (Spark starts at the epoch; Flink gives NULL there too, measured).
 *
 * <p>Spark has no expression that reads the watermark. The call is planned as a placeholder, a
 * non-deterministic Java UDF named {@link #PLACEHOLDER} over the rowtime column (so {@link Jobs}
 * can place Spark's watermark above that column's source), and this optimizer rule replaces it
 * with a literal while Spark plans each micro-batch: the rule runs on the stream's thread, whose
 * local property names the query, whose latest execution context holds the batch's watermark.
 */
public final class CurrentWatermark extends Rule<LogicalPlan> {
  /** The SQL function the Flink dialect calls for {@code CURRENT_WATERMARK} (registered per session). */
  public static final String SQL_NAME = "__pft_current_watermark";
  /** The same function for the Table API (its errors without SQL's "SQL validation failed." prefix). */
  public static final String TABLE_API_NAME = "__pft_current_watermark_api";
  private static final String PLACEHOLDER = "__pft_current_watermark_placeholder";

  /** The placeholder's body, evaluated only if a plan escaped the rule: a bug, said as such rather than a wrong value. */
  private static final class Unreplaced extends scala.runtime.AbstractFunction1<Object, Object>
      implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public Object apply(Object ts) {
      throw new IllegalStateException("Internal error: CURRENT_WATERMARK was evaluated outside a micro-batch");
    }
  }

  private final SparkSession spark;

  private CurrentWatermark(SparkSession spark) {
    this.spark = spark;
  }

  /** Registers the functions of {@code CURRENT_WATERMARK} with the session; returns the optimizer rule. */
  public static CurrentWatermark register(SparkSession spark, boolean streaming) {
    spark.sessionState().functionRegistry().createOrReplaceTempFunction(
        SQL_NAME, args -> build(args, streaming, "SQL validation failed. "), "internal");
    spark.sessionState().functionRegistry().createOrReplaceTempFunction(
        TABLE_API_NAME, args -> build(args, streaming, ""), "internal");
    return new CurrentWatermark(spark);
  }

  private static Expression build(Seq<Expression> args, boolean streaming, String prefix) {
    List<String> types = new ArrayList<>();
    for (Expression a : ScalaInterop.list(args)) types.add(FlinkTypes.fromSpark(a.dataType()));
    String call = "CURRENT_WATERMARK(" + String.join(", ", types) + ")";
    if (args.size() != 1) {
      throw new ValidationException(prefix + "Invalid function call:\n" + call
          + "\nCURRENT_WATERMARK takes one argument, a rowtime attribute.");
    }
    Expression rowtime = args.apply(0);
    // Flink: only a column declared by a WATERMARK clause, and only in streaming mode, is a rowtime attribute.
    boolean isRowtime = rowtime instanceof Attribute && streaming
        && ((Attribute) rowtime).metadata().contains(StreamSources.WATERMARK_DELAY_MS)
        && (rowtime.dataType() instanceof TimestampType || rowtime.dataType() instanceof TimestampNTZType);
    if (!isRowtime) {
      throw new ValidationException(prefix + "Invalid function call:\n" + call + "\nThe argument of "
          + "CURRENT_WATERMARK must be a rowtime attribute (a column with a WATERMARK, in streaming mode), but was "
          + types.get(0) + ".");
    }
    // Non-deterministic, so that the optimizer neither folds nor moves it before the rule replaces it.
    Expression placeholder = new ScalaUDF(new Unreplaced(), DataTypes.TimestampType, ScalaInterop.seq(List.of(rowtime)),
        ScalaInterop.seq(List.of(Option.empty())), Option.empty(), Option.apply(PLACEHOLDER), true, false);
    // Flink's result has the rowtime's type with precision 3: TIMESTAMP(3) for a TIMESTAMP rowtime.
    boolean ltz = rowtime.dataType() instanceof TimestampType;
    Expression typed = ltz ? placeholder
        : new Cast(placeholder, DataTypes.TimestampNTZType, Option.empty(), Cast.apply$default$4());
    Metadata md = new MetadataBuilder()
        .putString(FlinkTypes.METADATA_KEY, ltz ? "TIMESTAMP_LTZ(3)" : "TIMESTAMP(3)").build();
    return new Alias(typed, "_typed", NamedExpression$.MODULE$.newExprId(), ScalaInterop.seq(List.of()),
        Option.apply(md), ScalaInterop.seq(List.of()));
  }

  /** Whether {@code e} is a placeholder of {@code CURRENT_WATERMARK}. */
  private static boolean isPlaceholder(Expression e) {
    return e instanceof ScalaUDF && ((ScalaUDF) e).udfName().contains(PLACEHOLDER);
  }

  /** The rowtime column of the first {@code CURRENT_WATERMARK} call in {@code plan}, or null. */
  static Attribute rowtime(LogicalPlan plan) {
    for (Expression e : ScalaInterop.list(plan.expressions())) {
      Attribute a = rowtime(e);
      if (a != null) return a;
    }
    for (LogicalPlan c : ScalaInterop.list(plan.children())) {
      Attribute a = rowtime(c);
      if (a != null) return a;
    }
    return null;
  }

  private static Attribute rowtime(Expression e) {
    if (isPlaceholder(e)) return (Attribute) e.children().apply(0);
    for (Expression c : ScalaInterop.list(e.children())) {
      Attribute a = rowtime(c);
      if (a != null) return a;
    }
    return null;
  }

  /** Whether {@code plan} already has a watermark (one placed for a group window). */
  static boolean hasWatermark(LogicalPlan plan) {
    if (plan instanceof EventTimeWatermark) return true;
    for (LogicalPlan c : ScalaInterop.list(plan.children())) {
      if (hasWatermark(c)) return true;
    }
    return false;
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (rowtime(plan) == null) return plan;
    if (!plan.isStreaming()) {
      throw TableException.unsupported("CURRENT_WATERMARK over a bounded source in streaming mode (it is "
          + "supported over unbounded sources: a filesystem table with source.monitor-interval, datagen without "
          + "number-of-rows)");
    }
    Long watermarkMs = batchWatermarkMs();
    if (watermarkMs == null) return plan; // not a micro-batch (EXPLAIN of the stream): left as planned
    Expression value = Literal$.MODULE$.create(watermarkMs > 0 ? watermarkMs * 1000 : null, DataTypes.TimestampType);
    Function1<Expression, Expression> replace = new Function1<>() {
      @Override
      public Expression apply(Expression e) {
        return isPlaceholder(e) ? value : e.mapChildren(this);
      }
    };
    return plan.transformUpWithSubqueries(new AbstractPartialFunction<>() {
      @Override
      public boolean isDefinedAt(LogicalPlan p) {
        return true;
      }

      @Override
      public <A1 extends LogicalPlan, B1> B1 applyOrElse(A1 p, Function1<A1, B1> otherwise) {
        @SuppressWarnings("unchecked")
        B1 result = (B1) p.mapExpressions(replace);
        return result;
      }
    });
  }

  /** The watermark (ms) of the micro-batch this thread is planning, or null outside one. */
  private Long batchWatermarkMs() {
    SparkContext sc = spark.sparkContext();
    String id = sc.getLocalProperty(StreamExecution.QUERY_ID_KEY());
    if (id == null) return null;
    StreamingQuery query = spark.streams().get(id);
    if (!(query instanceof StreamingQueryWrapper)) return null;
    StreamExecutionContext context = ((StreamingQueryWrapper) query).streamingQuery().getLatestExecutionContext();
    return context == null || context.offsetSeqMetadata() == null ? null : context.offsetSeqMetadata().batchWatermarkMs();
  }
}
