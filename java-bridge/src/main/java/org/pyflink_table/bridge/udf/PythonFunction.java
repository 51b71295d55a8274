package org.pyflink_table.bridge.udf;

import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimeType;
import org.pyflink_table.bridge.expressions.UserFunction;
import org.pyflink_table.bridge.types.FlinkTypes;

/**
 * What every kind of Python function (scalar, table, aggregate) shares as a user function. Types
 * cross from Python as Flink type strings, read here by {@link FlinkTypes}.
 */
public abstract class PythonFunction implements UserFunction {
  /** The name it was registered under, or the function's own name. */
  protected final String name;

  protected PythonFunction(String name) {
    this.name = name;
  }

  @Override
  public final String name() {
    return name;
  }

  /**
   * The Spark type of the values Python workers produce for a Flink type: without field metadata
   * (Spark compares UDF result types including it) and with times in microseconds (the workers
   * produce them whatever the declared precision).
   */
  public static DataType workerType(String flinkType) {
    return workerType(FlinkTypes.toSpark(flinkType));
  }

  /** {@link #workerType(String)} as JSON, for PySpark's UDF declarations. */
  public static String workerTypeJson(String flinkType) {
    return workerType(flinkType).json();
  }

  private static DataType workerType(DataType t) {
    if (t instanceof StructType s) {
      StructField[] fields = new StructField[s.fields().length];
      for (int i = 0; i < fields.length; i++) {
        StructField f = s.fields()[i];
        fields[i] = new StructField(f.name(), workerType(f.dataType()), f.nullable(), Metadata.empty());
      }
      return new StructType(fields);
    }
    if (t instanceof ArrayType a) return ArrayType.apply(workerType(a.elementType()), a.containsNull());
    if (t instanceof MapType m) {
      return MapType.apply(workerType(m.keyType()), workerType(m.valueType()), m.valueContainsNull());
    }
    if (t instanceof TimeType) return TimeType.apply(6);
    return t;
  }
}
