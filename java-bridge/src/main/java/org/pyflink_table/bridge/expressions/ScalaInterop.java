package org.pyflink_table.bridge.expressions;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.catalyst.trees.TreeNode;
import org.apache.spark.sql.internal.ColumnNode;
import org.apache.spark.sql.internal.UnresolvedFunction;
import scala.PartialFunction;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractPartialFunction;

/** The few Scala conversions the bridge needs, kept in one place so the rest stays plain Java. */
public final class ScalaInterop {
  private ScalaInterop() {}

  public static <T> Seq<T> seq(List<T> items) {
    return CollectionConverters.asScala(items).toSeq();
  }

  public static <T> List<T> list(scala.collection.Seq<T> items) {
    return new ArrayList<>(CollectionConverters.asJava(items));
  }

  /** {@code node} with {@code f} applied to each child; the node itself when no child changed. */
  public static <T extends TreeNode<T>> T mapChildren(T node, Function<T, T> f) {
    List<T> children = new ArrayList<>();
    boolean changed = false;
    for (T c : list(node.children())) {
      T r = f.apply(c);
      changed |= r != c;
      children.add(r);
    }
    return changed ? node.withNewChildren(seq(children)) : node;
  }

  /** A partial function defined where {@code test} holds, for Catalyst's {@code collectFirst} searches. */
  public static <T> PartialFunction<T, Boolean> where(Predicate<T> test) {
    return new AbstractPartialFunction<>() {
      @Override
      public boolean isDefinedAt(T x) {
        return test.test(x);
      }

      @Override
      public Boolean apply(T x) {
        return Boolean.TRUE;
      }
    };
  }

  /** A partial function defined everywhere, for Catalyst's {@code transform*} over every node. */
  public static <T> PartialFunction<T, T> everywhere(Function<T, T> f) {
    return new AbstractPartialFunction<>() {
      @Override
      public boolean isDefinedAt(T x) {
        return true;
      }

      @Override
      public T apply(T x) {
        return f.apply(x);
      }
    };
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
