"""Python aggregate functions: ``AggregateFunction``, ``TableAggregateFunction``, :func:`udaf` and :func:`udtaf`.

In group aggregation, global aggregation, group windows and the row-based ``aggregate`` and
``flat_aggregate``, every kind (general and pandas, scalar and ROW results, table aggregates) runs
over key-sorted Arrow batches that pack many groups and chunk large ones (see
:mod:`pyflink_table._worker.packed_aggregation`). In over windows and SQL, an aggregate with a
scalar result runs as Spark's grouped-aggregate pandas UDF. PyFlink refuses general UDAFs in batch;
both kinds are supported here.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Optional, TypeVar, Union, overload

from pyflink_table import _protocol
from pyflink_table._worker import lifecycle
from pyflink_table.types import DataType, MapType, RowType, to_type_string
from pyflink_table._functions import AggregateFunction, TableAggregateFunction
from pyflink_table._function_wrapper import UserDefinedFunctionWrapper, _as_data_type, _metrics_accumulator, _spark_type

__all__ = ["AggregateFunction", "TableAggregateFunction", "UserDefinedAggregateFunctionWrapper", "udaf", "udtaf"]

T = TypeVar("T")
ACC = TypeVar("ACC")


def _packed_only_placeholder(*args: Any) -> Any:
    """Stands in for the Spark UDF of a ROW-result or table aggregate, which Spark never calls."""
    raise RuntimeError("A ROW-result or table aggregate function runs only in pyflink_table's packed aggregation")


class UserDefinedAggregateFunctionWrapper(UserDefinedFunctionWrapper):
    """A Python aggregate or table aggregate function ready for ``select``, ``aggregate``,
    ``flat_aggregate``, windows and SQL.

    :param func: an :class:`AggregateFunction` / :class:`TableAggregateFunction` instance, or for
        pandas UDAFs a function of ``pandas.Series``.
    :param input_types: declared argument types, or None.
    :param result_type: the result type (asked from the function when None).
    :param accumulator_type: the accumulator type (informational in batch).
    :param func_type: ``'general'`` or ``'pandas'``.
    :param deterministic: False when equal inputs may give different results.
    :param name: the function's name.
    :param table_aggregate: whether this is a table aggregate function (``udtaf``).
    """

    def __init__(self, func: Any, input_types: Any, result_type: Any, accumulator_type: Any,
                 func_type: str, deterministic: Optional[bool], name: Optional[str],
                 table_aggregate: bool = False) -> None:
        super().__init__(func, input_types, func_type, deterministic, name)
        if func_type == "general" and not hasattr(func, "create_accumulator"):
            kind = "TableAggregateFunction" if table_aggregate else "AggregateFunction"
            raise TypeError(f"Invalid function: a general aggregate function must be an instance of {kind}, "
                            f"got {type(func).__name__}; use func_type='pandas' for functions of pandas.Series")
        if result_type is None:
            getter = getattr(func, "get_result_type", None)
            result_type = getter() if getter is not None else None
        if result_type is None:
            raise TypeError("Invalid result_type: the result_type of an aggregate function must be specified")
        self._result_type: DataType = _as_data_type(result_type, "result_type")
        if accumulator_type is None and func_type == "general":
            getter = getattr(func, "get_accumulator_type", None)
            try:
                accumulator_type = getter() if getter is not None else None
            except RuntimeError:
                accumulator_type = None
        self._accumulator_type = accumulator_type
        self._table_aggregate = table_aggregate
        self._row_result = isinstance(self._result_type, RowType)

    def _packed_only(self) -> bool:
        """Whether the function has no Spark grouped-aggregate form (ROW results, emitted rows)."""
        return self._table_aggregate or self._row_result

    def _create_java_user_function(self, sc: Any) -> Any:
        from pyspark.serializers import CloudPickleSerializer
        from pyspark.sql.udf import UserDefinedFunction as SparkUDF

        from pyflink_table._worker.aggregates import AggregateEvaluator
        from pyflink_table.java_gateway import bridge

        result = _spark_type(self._result_type)
        pandas = self._func_type == "pandas"
        opener = functools.partial(lifecycle.open_function, name=self._name, metrics=_metrics_accumulator(sc, self._name))
        evaluator = AggregateEvaluator(self._func, pandas, self._table_aggregate, self._row_result, opener,
                                       self._name, to_type_string(self._result_type))
        # The packed shape (see pyflink_table._worker.packed_aggregation) is the usual one; Spark's
        # own aggregation paths (over windows, SQL) need a Spark UDF as well.
        packed = CloudPickleSerializer().dumps(evaluator)  # type: ignore[no-untyped-call]
        if self._packed_only():
            # Spark's grouped-aggregate UDFs cannot return structs: this UDF is never planned, it
            # only carries the Python environment (interpreter, shipped files) to the packed runner.
            spark_udf = SparkUDF(_packed_only_placeholder, result, self._name, _protocol.EVAL_ARROW_BATCHED_UDF, self._deterministic)
        else:
            # A plain pandas function has no life cycle: Spark calls it almost directly, as a
            # hand-written GROUPED_AGG pandas_udf, only its task prepared first (its logging).
            plain = pandas and not hasattr(self._func, "create_accumulator")
            call = lifecycle.PlainFunction(self._func, self._name) if plain else evaluator.on_series
            spark_udf = SparkUDF(call, result, self._name, _protocol.EVAL_GROUPED_AGG_PANDAS_UDF, self._deterministic)
        return bridge().udf.PythonAggregateFunction(
            self._name, spark_udf._judf, self._packed_only(), self._table_aggregate, bytearray(packed), to_type_string(self._result_type),
            pandas)


# Typed call forms for type checkers: `@udaf(...)` returns a decorator, `udaf(f, ...)` a wrapper.
@overload
def udaf(f: None = None, input_types: Any = None, result_type: Union[DataType, str, None] = None,
         accumulator_type: Union[DataType, str, None] = None, deterministic: Optional[bool] = None,
         name: Optional[str] = None, func_type: str = "general", udaf_type: Optional[str] = None
         ) -> Callable[[Callable[..., Any]], "UserDefinedAggregateFunctionWrapper"]: ...


@overload
def udaf(f: Union[Callable[..., Any], AggregateFunction[Any, Any]], input_types: Any = None,
         result_type: Union[DataType, str, None] = None, accumulator_type: Union[DataType, str, None] = None,
         deterministic: Optional[bool] = None, name: Optional[str] = None, func_type: str = "general",
         udaf_type: Optional[str] = None) -> "UserDefinedAggregateFunctionWrapper": ...


def udaf(f: Any = None, input_types: Any = None, result_type: Union[DataType, str, None] = None,
         accumulator_type: Union[DataType, str, None] = None, deterministic: Optional[bool] = None,
         name: Optional[str] = None, func_type: str = "general", udaf_type: Optional[str] = None) -> Any:
    """Make a Python aggregate function usable in ``select``, ``aggregate``, windows and SQL.

    Example::

        >>> @udaf(result_type=DataTypes.FLOAT(), func_type="pandas")
        ... def mean_udaf(v):
        ...     return v.mean()
        >>> weighted = udaf(WeightedAvg(), result_type='BIGINT', accumulator_type='ARRAY<BIGINT>')

    :param f: an AggregateFunction instance, or for pandas UDAFs a function of ``pandas.Series``.
    :param input_types: declared argument types (optional).
    :param result_type: the result type.
    :param accumulator_type: the accumulator type (optional).
    :param deterministic: False when equal inputs may give different results.
    :param name: the function's name.
    :param func_type: ``'general'`` or ``'pandas'``.
    :param udaf_type: FLIP-137's spelling of ``func_type``.
    :return: a :class:`UserDefinedAggregateFunctionWrapper`, or a decorator making one.
    """
    kind = udaf_type or func_type
    if f is not None and kind == "pandas" and isinstance(result_type, MapType):
        # as PyFlink: a pandas aggregate's result cannot be a MAP
        raise TypeError(f"Invalid returnType: Pandas UDAF doesn't support DataType type {result_type} currently")
    return _wrap(udaf, f, input_types, result_type, accumulator_type, deterministic, name, kind, False)


def udtaf(f: Any = None, input_types: Any = None, result_type: Union[DataType, str, None] = None,
          accumulator_type: Union[DataType, str, None] = None, deterministic: Optional[bool] = None,
          name: Optional[str] = None, func_type: str = "general") -> Any:
    """Make a Python table aggregate function usable in ``flat_aggregate``.

    Example::

        >>> top2 = udtaf(Top2(), result_type=DataTypes.ROW([DataTypes.FIELD('v', DataTypes.BIGINT())]))

    :param f: a TableAggregateFunction instance.
    :param input_types: declared argument types (optional).
    :param result_type: the type of the emitted rows.
    :param accumulator_type: the accumulator type (optional).
    :param deterministic: False when equal inputs may give different results.
    :param name: the function's name.
    :param func_type: ``'general'`` (``'pandas'`` runs ``accumulate`` on the group's Series).
    :return: a :class:`UserDefinedAggregateFunctionWrapper`, or a decorator making one.
    """
    return _wrap(udtaf, f, input_types, result_type, accumulator_type, deterministic, name, func_type, True)


def _wrap(factory: Callable[..., Any], f: Any, input_types: Any, result_type: Union[DataType, str, None],
          accumulator_type: Union[DataType, str, None], deterministic: Optional[bool], name: Optional[str],
          func_type: str, table_aggregate: bool) -> Any:
    """What ``udaf`` and ``udtaf`` share: the func_type check, the decorator form (``f`` None), the wrapper."""
    if func_type not in ("general", "pandas"):
        raise ValueError(f"The func_type must be one of 'general, pandas', got {func_type}.")
    if f is None:
        return functools.partial(factory, input_types=input_types, result_type=result_type,
                                 accumulator_type=accumulator_type, deterministic=deterministic,
                                 name=name, func_type=func_type)
    return UserDefinedAggregateFunctionWrapper(f, input_types, result_type, accumulator_type, func_type,
                                               deterministic, name, table_aggregate=table_aggregate)
