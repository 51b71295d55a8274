package org.pyflink_table.bridge.expressions;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.internal.ColumnNode;
import org.apache.spark.sql.internal.UnresolvedFunction;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/** The few Scala conversions the bridge needs, kept in one place so the rest stays plain Java. */
public final class ScalaInterop {
  private ScalaInterop() {}

  public static <T> Seq<T> seq(List<T> items) {
    return CollectionConverters.asScala(items).toSeq();
  }

  public static <T> List<T> list(scala.collection.Seq<T> items) {
    return new ArrayList<>(CollectionConverters.asJava(items));
  }

  /** A call of a Spark SQL function by name, optionally DISTINCT (COUNT(DISTINCT a) and friends). */
  public static Column call(String sparkName, boolean distinct, List<Column> args) {
    List<ColumnNode> nodes = new ArrayList<>();
    for (Column c : args) {
      nodes.add(c.node());
    }
    return new Column(new UnresolvedFunction(sparkName, seq(nodes), distinct, false, false,
        UnresolvedFunction.apply$default$6()));
  }
}
