package org.pyflink_table.bridge.expressions;

import static org.apache.spark.sql.functions.lit;
import static org.pyflink_table.bridge.expressions.FunctionCatalog.aggregate;
import static org.pyflink_table.bridge.expressions.FunctionCatalog.scalar;
import static org.pyflink_table.bridge.expressions.FunctionCatalog.sql;

import java.util.Collections;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MapType;

/** ARRAY, MAP and ROW constructors and functions, and the collection aggregates. */
final class CollectionFunctions {
  private CollectionFunctions() {}

  /** ARRAY[i] (1-based) or MAP[key]; NULL when absent (see {@link ItemAccess}). */
  static Column at(CallContext c) {
    if (c.type(0) instanceof ArrayType && c.exprs.get(1) instanceof Expr.Literal) {
      ItemAccess.checkConstantIndex(c.literal(1));
    }
    return ScalaInterop.call(ItemAccess.NAME, false, c.args);
  }

  /** ELEMENT: the only element, NULL for an empty array, an error for more than one. */
  static Column element(CallContext c) {
    Column a = c.arg(0);
    Column n = functions.size(a);
    return functions.when(n.equalTo(lit(1)), functions.element_at(a, 1))
        .when(n.gt(lit(1)), functions.raise_error(lit("ELEMENT: the array has more than one element")));
  }

  /** ARRAY_SLICE(array, start[, end]): 1-based inclusive offsets, negatives count from the end. */
  static Column arraySlice(CallContext c) {
    Column a = c.arg(0);
    Column size = functions.size(a);
    Column start = c.arg(1).cast(DataTypes.IntegerType);
    Column end = c.size() > 2 ? c.arg(2).cast(DataTypes.IntegerType) : size;
    Column s = functions.when(start.lt(lit(0)), size.plus(start).plus(lit(1))).otherwise(start);
    Column e = functions.when(end.lt(lit(0)), size.plus(end).plus(lit(1))).otherwise(end);
    Column from = functions.greatest(s, lit(1));
    Column to = functions.least(e, size);
    Column empty = functions.filter(a, x -> lit(false));
    return functions.when(a.isNull().or(start.isNull()).or(end.isNull()), lit(null).cast(c.type(0)))
        .when(to.lt(from), empty)
        .otherwise(functions.slice(a, from, to.minus(from).plus(lit(1))));
  }

  /** ARRAY_SORT(array[, ascending[, nullsFirst]]): NULLs first when ascending, last when descending. */
  static Column arraySort(CallContext c) {
    Column a = c.arg(0);
    boolean asc = c.size() < 2 || Boolean.TRUE.equals(c.literal(1));
    boolean nullsFirst = c.size() < 3 ? asc : Boolean.TRUE.equals(c.literal(2));
    Column nulls = functions.filter(a, Column::isNull);
    Column sorted = functions.sort_array(functions.filter(a, Column::isNotNull), asc);
    return nullsFirst ? functions.concat(nulls, sorted) : functions.concat(sorted, nulls);
  }

  /** MAP_UNION: later maps win on equal keys (Spark's map_concat would fail on duplicates). */
  static Column mapUnion(CallContext c) {
    Column r = c.arg(0);
    for (int i = 1; i < c.size(); i++) {
      Column next = c.arg(i);
      Column kept = functions.map_filter(r, (k, v) -> functions.not(functions.coalesce(
          functions.array_contains(functions.map_keys(next), k), lit(false))));
      r = functions.when(r.isNull().or(next.isNull()), lit(null).cast(c.type(0)))
          .otherwise(functions.map_concat(kept, next));
    }
    return r;
  }

  /** ROW(...): a struct whose fields are named f0, f1, ... as Flink names them. */
  static Column row(CallContext c) {
    Column[] fields = new Column[c.size()];
    for (int i = 0; i < c.size(); i++) fields[i] = c.arg(i).as("f" + i);
    return functions.struct(fields);
  }

  /** ARRAY_AGG keeps NULL elements, which Spark's collect_list drops, and is NULL of no value (as SQL's). */
  static Column arrayAgg(CallContext c) {
    Column wrapped = ScalaInterop.call("collect_list", c.distinct,
        Collections.singletonList(functions.struct(c.arg(0).as("v"))));
    Column values = functions.transform(wrapped, s -> s.getField("v"));
    return ArrayAggregates.orNull(values, values);
  }

  static Column arrayJoin(CallContext c) {
    return c.size() == 2 ? functions.array_join(c.arg(0), String.valueOf(c.literal(1)))
        : functions.array_join(c.arg(0), String.valueOf(c.literal(1)), String.valueOf(c.literal(2)));
  }

  static Column cardinality(CallContext c) {
    DataType t = c.type(0);
    Column n = functions.size(c.arg(0));
    if (t instanceof MapType && c.exprs.get(0) instanceof Expr.Call
        && FunctionCatalog.normalize(((Expr.Call) c.exprs.get(0)).name).equals("collect")) {
      n = Multisets.cardinality(c.arg(0));
    }
    // With ANSI on (Spark 4's default) SIZE(NULL) is NULL, as Flink's CARDINALITY(NULL).
    return n.cast(DataTypes.IntegerType);
  }

  static void register() {
    scalar(CollectionFunctions::at, "at");
    scalar(CollectionFunctions::element, "element");
    scalar(CollectionFunctions::cardinality, "cardinality");
    scalar(c -> functions.array(c.args.toArray(new Column[0])), "array");
    scalar(c -> functions.map(c.args.toArray(new Column[0])), "map");
    scalar(CollectionFunctions::row, "row");
    sql("array_append", "arrayAppend");
    sql("array_prepend", "arrayPrepend");
    sql("array_contains", "arrayContains");
    sql("array_distinct", "arrayDistinct");
    scalar(c -> functions.array_position(c.arg(0), c.arg(1)).cast(DataTypes.IntegerType), "arrayPosition");
    sql("array_remove", "arrayRemove");
    scalar(c -> functions.reverse(c.arg(0)), "arrayReverse");
    scalar(CollectionFunctions::arraySlice, "arraySlice", "array_slice");
    scalar(CollectionFunctions::arraySort, "arraySort", "array_sort");
    sql("array_union", "arrayUnion");
    scalar(c -> functions.concat(c.args.toArray(new Column[0])), "arrayConcat");
    sql("array_max", "arrayMax");
    sql("array_min", "arrayMin");
    scalar(CollectionFunctions::arrayJoin, "arrayJoin", "array_join");
    sql("array_except", "arrayExcept");
    sql("array_intersect", "arrayIntersect");
    sql("map_keys", "mapKeys");
    sql("map_values", "mapValues");
    sql("map_entries", "mapEntries");
    scalar(CollectionFunctions::mapUnion, "mapUnion");
    aggregate(CollectionFunctions::arrayAgg, "arrayAgg", "array_agg");
    aggregate(c -> c.size() == 2 ? functions.percentile(c.arg(0), c.arg(1))
        : functions.percentile(c.arg(0), c.arg(1), c.arg(2)), "percentile");
  }

  static boolean isArray(DataType t) {
    return t instanceof ArrayType;
  }
}
