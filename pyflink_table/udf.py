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

import functools
import inspect
import logging
from typing import Any, Callable, Optional, Union, overload

from pyflink_table import _protocol
from pyflink_table._aggregate_functions import AggregateFunction, TableAggregateFunction, udaf, udtaf
from pyflink_table._function_wrapper import UserDefinedFunctionWrapper, _as_data_type, _metrics_accumulator, _spark_type
from pyflink_table._functions import FunctionContext, ScalarFunction, UserDefinedFunction
from pyflink_table._table_functions import TableFunction, udtf
from pyflink_table.errors import TableException
from pyflink_table.expression import Expression
from pyflink_table.types import DataType, to_type_string

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

        batched = self._pyspark_udf(sc, worker_scalar, arrow_batches=True)
        per_row = self._pyspark_udf(sc, worker_scalar, arrow_batches=False)
        j_function = bridge().udf.PythonScalarFunction(self._name, batched._judf, per_row._judf,
                                                       self._func_type != "general", to_type_string(self._result_type))
        if self._input_types is not None:
            j_function.setInputTypes(to_string_array([to_type_string(t) for t in self._input_types]))
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
            self._user_function(), self._name, to_type_string(self._result_type),
            [to_type_string(t) for t in self._input_types] if self._input_types is not None else None,
            self._func_type == "pandas", _metrics_accumulator(sc, self._name),
            arrow_batches, pyarrow=self._func_type == "pyarrow",
        )
        eval_type = _protocol.EVAL_SCALAR_ARROW_UDF if arrow_batches else _protocol.EVAL_ARROW_BATCHED_UDF
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

