"""User-defined functions, as ``pyflink.table.udf``: ``udf``, ``ScalarFunction`` and their base classes.

A Python scalar function runs inside Spark's Python workers on Spark's Arrow evaluation path:
a general UDF (row at a time, FLIP-58) is evaluated as an Arrow-batched Python UDF, a pandas UDF
(``func_type='pandas'``, FLIP-97) as a scalar pandas UDF receiving ``pandas.Series``, a pyarrow
UDF (``func_type='pyarrow'``, our extension) on the same path receiving ``pyarrow.Array``. All Python
UDFs of one projection or filter are evaluated in one Python step per Arrow batch.

The wrapper objects returned by :func:`udf` are created at import time, before any JVM exists,
so their JVM halves are built lazily, once per SparkContext (and again when Python files were
added to the job since, so the workers receive them).
"""

from __future__ import annotations

import abc
import functools
import inspect
import logging
import threading
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple, Union, overload

from pyflink_table.errors import TableException
from pyflink_table.expression import Expression, _get_java_expression
from pyflink_table.metrics import MetricGroup
from pyflink_table.types import DataType, RowType, parse_type_string

if TYPE_CHECKING:
    from pyflink_table.table_environment import TableEnvironment

__all__ = [
    "FunctionContext",
    "UserDefinedFunction",
    "ScalarFunction",
    "TableFunction",
    "AggregateFunction",
    "TableAggregateFunction",
    "UserDefinedFunctionWrapper",
    "UserDefinedScalarFunctionWrapper",
    "udf",
    "udtf",
    "udaf",
    "udtaf",
]

_log = logging.getLogger("pyflink_table.udf")

# Spark's PythonEvalType codes (pyspark.util.PythonEvalType), kept here so the driver side does
# not import PySpark before it is needed.
_ARROW_BATCHED_UDF = 101
_SCALAR_ARROW_UDF = 250


class FunctionContext:
    """What a user-defined function sees of its runtime in ``open()``.

    :param metric_group: the function's metric group.
    :param job_parameters: the ``pipeline.global-job-parameters`` of the environment.
    :param task_info: ``(task name, subtask index, number of subtasks, attempt number)``.
    """

    def __init__(self, metric_group: MetricGroup, job_parameters: Dict[str, str],
                 task_info: Tuple[str, int, int, int] = ("", 0, 1, 0)) -> None:
        self._metric_group = metric_group
        self._job_parameters = dict(job_parameters)
        self._task_info = task_info

    def get_metric_group(self) -> MetricGroup:
        """The metric group to register counters, gauges, meters and distributions in."""
        return self._metric_group

    def get_job_parameter(self, key: str, default_value: str) -> str:
        """A value of ``pipeline.global-job-parameters``, or ``default_value`` when it is not set."""
        return self._job_parameters.get(key, default_value)

    def get_task_name(self) -> str:
        """Name of the task running the function (the Spark stage)."""
        return self._task_info[0]

    def get_task_name_with_subtasks(self) -> str:
        """The task name followed by ``(index/parallelism)``, as Flink prints it."""
        name, index, parallelism, _ = self._task_info
        return f"{name} ({index + 1}/{parallelism})"

    def get_number_of_parallel_subtasks(self) -> int:
        """Number of partitions of the stage running the function."""
        return self._task_info[2]

    def get_max_number_of_parallel_subtasks(self) -> int:
        """Same as :meth:`get_number_of_parallel_subtasks` (Spark has no separate maximum)."""
        return self._task_info[2]

    def get_index_of_this_subtask(self) -> int:
        """Index of the partition this instance runs on, from 0."""
        return self._task_info[1]

    def get_attempt_number(self) -> int:
        """Attempt number of the Spark task, from 0."""
        return self._task_info[3]


class UserDefinedFunction(abc.ABC):  # noqa: B024 - subclasses define eval/accumulate, not an abstract hook
    """Base class of all user-defined functions: lifecycle hooks and determinism."""

    def open(self, function_context: FunctionContext) -> None:
        """Called once per worker task before the first row; set up state and metrics here.

        :param function_context: metrics and job parameters.
        """

    def close(self) -> None:
        """Called once per worker task after the last row."""

    def is_deterministic(self) -> bool:
        """Whether equal inputs always give equal results (False keeps every call)."""
        return True


class ScalarFunction(UserDefinedFunction):
    """A function mapping scalar arguments to one scalar value; implement ``eval(*args)``."""

    @abc.abstractmethod
    def eval(self, *args: Any) -> Any:
        """The function's result for one row's arguments (or pandas Series for pandas UDFs)."""


class _DelegatingScalarFunction(ScalarFunction):
    """A ScalarFunction calling a plain function or callable object."""

    def __init__(self, func: Callable[..., Any]) -> None:
        self.func = func

    def eval(self, *args: Any) -> Any:
        return self.func(*args)


def _spark_type(data_type: Union[DataType, str]) -> Any:
    """The PySpark DataType of a Flink type (needs the JVM)."""
    from pyspark.sql.types import _parse_datatype_json_string

    from pyflink_table.java_gateway import bridge

    return _without_metadata(
        _parse_datatype_json_string(str(bridge().types.FlinkTypes.toSparkJson(str(data_type)))))


def _without_metadata(spark_type: Any) -> Any:
    """The type without field metadata: Spark compares UDF result types including it."""
    from pyspark.sql import types as st

    if isinstance(spark_type, st.StructType):
        return st.StructType([st.StructField(f.name, _without_metadata(f.dataType), f.nullable)
                              for f in spark_type.fields])
    if isinstance(spark_type, st.ArrayType):
        return st.ArrayType(_without_metadata(spark_type.elementType), spark_type.containsNull)
    if isinstance(spark_type, st.MapType):
        return st.MapType(_without_metadata(spark_type.keyType), _without_metadata(spark_type.valueType),
                          spark_type.valueContainsNull)
    if type(spark_type).__name__ == "TimeType":
        # The Python workers produce microsecond times whatever the declared precision.
        return st.TimeType(6)
    return spark_type


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
            raise ValueError(f"Unsupported func_type: {func_type!r}; use "
                             + ", ".join(repr(k) for k in self._func_types[:-1])
                             + f" or {self._func_types[-1]!r}.")
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
        from pyflink_table.java_gateway import bridge, to_java_array

        j_function = self._java_user_function(None)
        j_args = to_java_array(bridge().expressions.Expr, [_get_java_expression(a) for a in args])
        return Expression(bridge().expressions.Exprs.callFunction(self._name, j_function, j_args))

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


class UserDefinedScalarFunctionWrapper(UserDefinedFunctionWrapper):
    """A Python scalar function (general or pandas) ready to be called in table expressions.

    :param func: a :class:`ScalarFunction`, a function or a callable object.
    :param input_types: declared argument types, or None.
    :param result_type: the result type, as a DataType or a type string such as ``'BIGINT'``.
    :param func_type: ``'general'``, ``'pandas'`` or ``'pyarrow'``.
    :param deterministic: see :class:`UserDefinedFunctionWrapper`.
    :param name: the function's name.
    """

    _func_types = ("general", "pandas", "pyarrow")

    def __init__(self, func: Any, input_types: Any, result_type: Union[DataType, str], func_type: str,
                 deterministic: Optional[bool], name: Optional[str]) -> None:
        super().__init__(func, input_types, func_type, deterministic, name)
        if result_type is None:
            raise TypeError("Invalid returnType: a result_type is required for Python scalar functions")
        self._result_type = _as_data_type(result_type, "returnType")
        self._spark_udf: Any = None

    def _create_java_user_function(self, sc: Any) -> Any:
        from pyflink_table._worker import scalar as worker_scalar
        from pyflink_table.java_gateway import bridge, to_string_array

        declared = bridge().types.FlinkTypes.toSparkJson(str(self._result_type))
        batched = self._pyspark_udf(sc, worker_scalar, arrow_batches=True)
        per_row = self._pyspark_udf(sc, worker_scalar, arrow_batches=False)
        j_function = bridge().udf.PythonScalarFunction(self._name, batched._judf, per_row._judf,
                                                       self._func_type != "general", declared)
        if self._input_types is not None:
            j_function.setInputTypes(to_string_array(
                [bridge().types.FlinkTypes.toSparkJson(str(t)) for t in self._input_types]))
        return j_function

    def __call__(self, *args: Any) -> Expression[Any]:
        if not args and self._func_type != "general":
            raise TableException(f"Unsupported: {self._func_type} function '{self._name}' without arguments "
                                 f"(a {self._func_type} UDF needs a column to take its batch length from)")
        return super().__call__(*args)

    def _pyspark_udf(self, sc: Any, worker_scalar: Any, arrow_batches: bool) -> Any:
        """The PySpark UserDefinedFunction running this function in the workers.

        Batched, every Python scalar function (general or pandas) is a scalar Arrow UDF, so all
        of them in one projection share one Python evaluation step; functions without arguments
        run per row as an Arrow-batched UDF, since Spark does not pass them the batch length.
        """
        from pyspark.sql.udf import UserDefinedFunction as SparkUDF

        spark_type = _spark_type(self._result_type)
        evaluator = worker_scalar.ScalarEvaluator(
            self._user_function(), self._name, str(self._result_type),
            [str(t) for t in self._input_types] if self._input_types is not None else None,
            self._func_type == "pandas", _metrics_accumulator(sc, self._name),
            spark_type.json(), arrow_batches, pyarrow=self._func_type == "pyarrow",
        )
        eval_type = _SCALAR_ARROW_UDF if arrow_batches else _ARROW_BATCHED_UDF
        return SparkUDF(evaluator, spark_type, self._name, eval_type, self._deterministic)


def _is_pandas_by_hints(f: Any) -> bool:
    """True when the function's annotations say pandas.Series in and out."""
    return _hints_say(f, lambda text: "Series" in text or "DataFrame" in text)


def _is_pyarrow_by_hints(f: Any) -> bool:
    """True when the function's annotations say pyarrow arrays in and out."""
    return _hints_say(f, lambda text: ("pyarrow" in text or text.startswith("pa.")) and "Array" in text)


def _hints_say(f: Any, kind: Callable[[str], bool]) -> bool:
    """True when the return annotation and every annotated parameter of ``f`` are of ``kind``
    (a test of the annotation's text, so that string annotations count too)."""
    target = f.eval if isinstance(f, ScalarFunction) else f
    try:
        hints = inspect.signature(target).parameters
        ret = inspect.signature(target).return_annotation
    except (TypeError, ValueError):
        return False

    def is_kind(a: Any) -> bool:
        return a is not inspect.Signature.empty and kind(str(a).strip("'\""))

    params = [p.annotation for p in hints.values() if p.kind not in (p.VAR_KEYWORD,)]
    return is_kind(ret) and bool(params) and all(is_kind(a) for a in params if a is not inspect.Signature.empty)


# Typed call forms for type checkers: `@udf(...)` returns a decorator, `udf(f, ...)` a wrapper.
@overload
def udf(f: None = None, input_types: Any = None, result_type: Union[DataType, str, None] = None,
        deterministic: Optional[bool] = None, name: Optional[str] = None,
        func_type: Optional[str] = None, udf_type: Optional[str] = None
        ) -> Callable[[Callable[..., Any]], "UserDefinedScalarFunctionWrapper"]: ...


@overload
def udf(f: Union[Callable[..., Any], ScalarFunction], input_types: Any = None,
        result_type: Union[DataType, str, None] = None, deterministic: Optional[bool] = None,
        name: Optional[str] = None, func_type: Optional[str] = None, udf_type: Optional[str] = None
        ) -> "UserDefinedScalarFunctionWrapper": ...


def udf(f: Any = None, input_types: Any = None, result_type: Union[DataType, str, None] = None,
        deterministic: Optional[bool] = None, name: Optional[str] = None,
        func_type: Optional[str] = None, udf_type: Optional[str] = None) -> Any:
    """Make a Python scalar function usable in table expressions and SQL.

    Usable directly (``udf(lambda i: i + 1, result_type='BIGINT')``), as a decorator
    (``@udf(result_type=DataTypes.BIGINT())``), and on :class:`ScalarFunction` instances and
    callable objects.

    :param f: the function, callable object or ScalarFunction instance.
    :param input_types: declared argument types (optional).
    :param result_type: the result type, a DataType or a type string.
    :param deterministic: False when equal inputs may give different results.
    :param name: the function's name (defaults to the function's or class's name).
    :param func_type: ``'general'`` (row at a time), ``'pandas'`` (pandas.Series at a time) or
        ``'pyarrow'`` (pyarrow.Array at a time, an extension beyond PyFlink); by default
        ``'pandas'`` when the type hints say ``pd.Series -> pd.Series`` and ``'pyarrow'`` when they
        say ``pa.Array -> pa.Array``.
    :param udf_type: FLIP-97's spelling of ``func_type``.
    :return: a :class:`UserDefinedScalarFunctionWrapper`, or a decorator making one.
    """
    kind = func_type or udf_type

    def make(func: Any) -> UserDefinedScalarFunctionWrapper:
        chosen = kind or ("pandas" if _is_pandas_by_hints(func)
                          else "pyarrow" if _is_pyarrow_by_hints(func) else "general")
        assert result_type is not None or True
        return UserDefinedScalarFunctionWrapper(func, input_types, result_type,  # type: ignore[arg-type]
                                                chosen, deterministic, name)

    if f is None:
        return functools.partial(udf, input_types=input_types, result_type=result_type,
                                 deterministic=deterministic, name=name, func_type=func_type,
                                 udf_type=udf_type)
    return make(f)


# Table and aggregate functions live in their own modules (built on the classes above).
from pyflink_table._table_functions import TableFunction, udtf  # noqa: E402
from pyflink_table._aggregate_functions import AggregateFunction, TableAggregateFunction, udaf, udtaf  # noqa: E402
