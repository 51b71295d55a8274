"""The driver-side half every Python function kind shares: declared types and the JVM handle.

:class:`UserDefinedFunctionWrapper` is the base of the scalar (:mod:`pyflink_table.udf`), table
(:mod:`pyflink_table._table_functions`) and aggregate (:mod:`pyflink_table._aggregate_functions`)
wrappers; the metric accumulators of all kinds are kept here too.
"""

from __future__ import annotations

import abc
import inspect
import threading
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple, Union

from pyflink_table._functions import UserDefinedFunction, _DelegatingScalarFunction
from pyflink_table.errors import TableException
from pyflink_table.expression import Expression, _function_node
from pyflink_table.types import DataType, RowType, parse_type_string, to_type_string

if TYPE_CHECKING:
    from pyflink_table.table_environment import TableEnvironment

__all__ = ["UserDefinedFunctionWrapper"]


def _spark_type(data_type: Union[DataType, str]) -> Any:
    """The PySpark DataType of a Flink type as Python workers produce it, for PySpark's UDF
    declarations; the bridge defines it (``PythonFunction.workerType``)."""
    from pyspark.sql.types import _parse_datatype_json_string

    from pyflink_table.java_gateway import bridge

    return _parse_datatype_json_string(str(bridge().udf.PythonFunction.workerTypeJson(_type_text(data_type))))


def _type_text(data_type: Union[DataType, str]) -> str:
    """The Flink type string of a DataType (the form types cross in), or a type string as given."""
    return data_type if isinstance(data_type, str) else to_type_string(data_type)


def _as_data_type(t: Union[DataType, str], what: str) -> DataType:
    if isinstance(t, str):
        return parse_type_string(t)
    if isinstance(t, DataType):
        return t
    raise TypeError(f"Invalid {what}: should be a DataType or a type string but is {t!r}")


# Metric values of the functions' worker instances reach the driver through one Spark
# accumulator per function (and SparkContext); TableEnvironment.get_metrics() merges them.
_metric_accumulators: List[Tuple[Any, Any]] = []


def _metrics_accumulator(sc: Any, name: str) -> Any:
    """A new accumulator collecting the metrics of function ``name`` on SparkContext ``sc``."""
    from pyflink_table.metrics import _SnapshotParam

    accumulator = sc.accumulator({}, _SnapshotParam())
    _metric_accumulators.append((sc, accumulator))
    return accumulator


def _collected_metrics() -> Dict[str, Any]:
    """All metric values reported by Python functions of the running SparkContext so far."""
    from pyspark import SparkContext

    from pyflink_table.metrics import _merge, _readable

    sc = SparkContext._active_spark_context
    merged: Dict[str, Tuple[str, Any]] = {}
    for owner, accumulator in _metric_accumulators:
        if owner is sc:
            merged = _merge(merged, accumulator.value)
    return _readable(merged)


class UserDefinedFunctionWrapper:
    """Holds a user function with its declared types and builds its JVM side on demand.

    Calling the wrapper (``f(col('a'))``) gives an :class:`Expression` calling the function.
    Subclasses implement :meth:`_create_java_user_function`.

    :param func: a :class:`UserDefinedFunction` instance, a function or a callable object.
    :param input_types: declared argument types (FLIP-58), or None to take the argument types.
    :param func_type: ``'general'`` or ``'pandas'``.
    :param deterministic: False when equal inputs may give different results; None asks the function.
    :param name: the function's name; by default the function's or its class's name.
    """

    # the kinds of function this wrapper runs
    _func_types: Tuple[str, ...] = ("general", "pandas")

    def __init__(self, func: Any, input_types: Any, func_type: str = "general",
                 deterministic: Optional[bool] = None, name: Optional[str] = None) -> None:
        if inspect.isclass(func) or (not isinstance(func, UserDefinedFunction) and not callable(func)):
            raise TypeError(f"Invalid function: not a function or callable (__call__ is not defined): {type(func)}")
        if func_type not in self._func_types:
            # PyFlink's message, then what this wrapper takes beyond PyFlink's two kinds.
            extra = [k for k in self._func_types if k not in ("general", "pandas")]
            raise ValueError(f"The func_type must be one of 'general, pandas', got {func_type}."
                             + (f" (pyflink_table also takes {', '.join(map(repr, extra))})" if extra else ""))
        self._input_types: Optional[List[DataType]] = None
        if input_types is not None:
            if isinstance(input_types, RowType):
                types: Sequence[Any] = input_types.field_types()
            elif isinstance(input_types, (DataType, str)):
                types = [input_types]
            else:
                types = list(input_types)
            self._input_types = [_as_data_type(t, "input_type") for t in types]
        if deterministic is not None and isinstance(func, UserDefinedFunction) \
                and deterministic != func.is_deterministic():
            raise ValueError(f"Inconsistent deterministic: {deterministic} and {func.is_deterministic()}")
        self._func = func
        self._func_type = func_type
        self._deterministic = deterministic if deterministic is not None else (
            func.is_deterministic() if isinstance(func, UserDefinedFunction) else True)
        self._name: str = name or getattr(func, "__name__", None) or type(func).__name__
        self._alias_names: Tuple[str, ...] = ()
        self._jvm_lock = threading.Lock()
        self._jvm_cache: Dict[Any, Any] = {}

    # The JVM halves cannot be pickled; a wrapper referenced from another UDF's closure travels
    # to the workers without them.
    def __getstate__(self) -> Dict[str, Any]:
        state = dict(self.__dict__)
        state["_jvm_cache"] = {}
        state.pop("_jvm_lock", None)
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._jvm_lock = threading.Lock()

    def __call__(self, *args: Any) -> Expression[Any]:
        j_function = self._java_user_function(None)
        return Expression(_function_node(self._name, j_function, args))

    def alias(self, *alias_names: str) -> "UserDefinedFunctionWrapper":
        """Names for the result fields (used by table functions and flat_map)."""
        self._alias_names = alias_names
        return self

    def _user_function(self) -> UserDefinedFunction:
        """The function as a UserDefinedFunction (plain functions are wrapped)."""
        if isinstance(self._func, UserDefinedFunction):
            return self._func
        return _DelegatingScalarFunction(self._func)

    def _java_user_function(self, t_env: Optional["TableEnvironment"]) -> Any:
        """The JVM ``org.pyflink_table.bridge.expressions.UserFunction`` of this function.

        Built once per SparkContext and set of shipped Python files. ``t_env`` is None when called
        from an expression (the process has one SparkContext); registration passes its environment.
        """
        from pyspark import SparkContext

        sc = SparkContext._active_spark_context
        if sc is None:
            raise TableException("No Spark JVM is running yet: create a TableEnvironment first.")
        key = (id(sc._jsc), tuple(sc._python_includes or ()))
        with self._jvm_lock:
            cached = self._jvm_cache.get(key)
            if cached is None:
                cached = self._create_java_user_function(sc)
                self._jvm_cache = {key: cached}
            return cached

    @abc.abstractmethod
    def _create_java_user_function(self, sc: Any) -> Any:
        """Build the JVM UserFunction on SparkContext ``sc``."""
