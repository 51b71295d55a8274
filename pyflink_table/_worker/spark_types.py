"""The Spark type of a Flink type, computed in the worker from the Flink type string it receives.

A result's type reaches the worker in one form, the Flink type string (read by
:func:`pyflink_table.types.parse_type_string`); the Arrow type the worker hands back to Spark is
derived from it here. It must be the Spark type the bridge's ``FlinkTypes`` gives the same string:
``tests/test_protocol.py`` checks both on every type of ``tests/type_strings.txt``.
"""

from __future__ import annotations

from typing import Any

from pyflink_table import types as ft


def spark_type(t: ft.DataType) -> Any:
    """The PySpark DataType that the bridge's ``FlinkTypes`` maps ``t`` to (without field metadata)."""
    from pyspark.sql import types as st

    simple = {
        ft.BooleanType: st.BooleanType, ft.TinyIntType: st.ByteType, ft.SmallIntType: st.ShortType,
        ft.IntType: st.IntegerType, ft.BigIntType: st.LongType, ft.FloatType: st.FloatType,
        ft.DoubleType: st.DoubleType, ft.CharType: st.StringType, ft.VarCharType: st.StringType,
        ft.BinaryType: st.BinaryType, ft.VarBinaryType: st.BinaryType, ft.DateType: st.DateType,
        ft.TimestampType: st.TimestampNTZType, ft.LocalZonedTimestampType: st.TimestampType,
        ft.NullType: st.NullType, ft.YearMonthIntervalType: st.YearMonthIntervalType,
        ft.DayTimeIntervalType: st.DayTimeIntervalType,
    }
    if type(t) in simple:
        return simple[type(t)]()
    if isinstance(t, ft.DecimalType):
        return st.DecimalType(t.precision, t.scale)
    if isinstance(t, ft.TimeType):
        # Spark's TIME keeps microseconds at most.
        return st.TimeType(min(t.precision, 6))
    if isinstance(t, ft.ArrayType):
        return st.ArrayType(spark_type(t.element_type), t.element_type._nullable)
    if isinstance(t, ft.MultisetType):
        # A multiset is a map from element to its count, as in Flink.
        return st.MapType(spark_type(t.element_type), st.IntegerType(), False)
    if isinstance(t, ft.MapType):
        return st.MapType(spark_type(t.key_type), spark_type(t.value_type), t.value_type._nullable)
    if isinstance(t, ft.RowType):
        return st.StructType([st.StructField(f.name, spark_type(f.data_type), f.data_type._nullable)
                              for f in t.fields])
    raise ValueError(f"The type {ft.to_type_string(t)} has no Spark counterpart.")


def arrow_type(t: ft.DataType, as_row: bool = False) -> Any:
    """The Arrow type Spark expects for values of the Flink type ``t``; with ``as_row``, a type that
    is not a ROW is wrapped as the one field ``f0`` of a row (a table aggregate's emitted rows)."""
    from pyspark.sql import types as st
    from pyspark.sql.pandas.types import to_arrow_type

    spark = spark_type(t)
    if as_row and not isinstance(spark, st.StructType):
        spark = st.StructType([st.StructField("f0", spark, True)])
    return to_arrow_type(spark, timezone="UTC")
