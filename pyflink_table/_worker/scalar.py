"""The worker-side evaluator of Python scalar functions (general and pandas).

Spark calls :class:`ScalarEvaluator` once per row (Arrow-batched UDF) or once per Arrow batch
(scalar pandas UDF). The evaluator opens the user function on the first call of a task, converts
Spark's Python values to PyFlink's (``Row`` instead of PySpark's Row), checks each result against
the declared type so a wrong value fails loudly instead of being coerced, and names the function
in every error.
"""

from __future__ import annotations

import datetime
import decimal
import traceback
from typing import Any, Callable, Dict, List, Optional

from pyflink_table._worker import lifecycle


class UserFunctionError(Exception):
    """A Python user-defined function failed or returned a value its declared type cannot hold."""


def _failure(what: str, error: BaseException) -> UserFunctionError:
    """An error naming the function, carrying the user's own traceback (our frame left out)."""
    tb = error.__traceback__.tb_next if error.__traceback__ is not None else None
    text = "".join(traceback.format_exception(type(error), error, tb))
    return UserFunctionError(f"{what} failed:\n{text.rstrip()}")


# --- value conversion (Spark's Python values -> PyFlink's) ------------------------------------

_PLAIN = (int, float, str, bool, bytes, decimal.Decimal, datetime.date, datetime.time, type(None))


def to_flink_value(value: Any) -> Any:
    """PyFlink's Python value for a value Spark produced (only rows and their containers differ)."""
    if isinstance(value, _PLAIN):
        return value
    from pyspark.sql.types import Row as SparkRow

    from pyflink_table.row import Row

    if isinstance(value, SparkRow):
        fields = getattr(value, "__fields__", None)
        values = [to_flink_value(v) for v in value]
        return Row(**dict(zip(fields, values))) if fields else Row(*values)
    if isinstance(value, list):
        return [to_flink_value(v) for v in value]
    if isinstance(value, dict):
        return {to_flink_value(k): to_flink_value(v) for k, v in value.items()}
    if isinstance(value, bytearray):
        return bytes(value)
    return value


# --- result checking (declared Flink type -> checker/converter) ------------------------------

Checker = Callable[[Any], Any]


def _fail(value: Any, type_text: str) -> Any:
    raise TypeError(f"returned {value!r} of Python type {type(value).__name__}, "
                    f"which is not a value of the declared result type {type_text}")


def result_checker(data_type: Any) -> Checker:
    """A function returning a result ready for Spark, or raising TypeError for a wrong value."""
    from pyflink_table import types as t
    from pyflink_table.row import Row

    text = str(data_type)

    def nullable(check: Checker) -> Checker:
        return lambda v: None if v is None else check(v)

    if isinstance(data_type, t.BooleanType):
        return nullable(lambda v: v if isinstance(v, bool) else _fail(v, text))
    if isinstance(data_type, t.IntegralType):
        return nullable(lambda v: v if isinstance(v, int) and not isinstance(v, bool) else _fail(v, text))
    if isinstance(data_type, (t.FloatType, t.DoubleType)):
        return nullable(lambda v: v if isinstance(v, (float, int)) and not isinstance(v, bool) else _fail(v, text))
    if isinstance(data_type, t.DecimalType):
        return nullable(lambda v: v if isinstance(v, (decimal.Decimal, int)) and not isinstance(v, bool)
                        else _fail(v, text))
    if isinstance(data_type, (t.CharType, t.VarCharType)):
        return nullable(lambda v: v if isinstance(v, str) else _fail(v, text))
    if isinstance(data_type, (t.BinaryType, t.VarBinaryType)):
        return nullable(lambda v: bytes(v) if isinstance(v, (bytes, bytearray)) else _fail(v, text))
    if isinstance(data_type, (t.TimestampType, t.LocalZonedTimestampType)):
        return nullable(lambda v: v if isinstance(v, datetime.datetime) else _fail(v, text))
    if isinstance(data_type, t.DateType):
        return nullable(lambda v: v if isinstance(v, datetime.date) and not isinstance(v, datetime.datetime)
                        else _fail(v, text))
    if isinstance(data_type, t.TimeType):
        return nullable(lambda v: v if isinstance(v, datetime.time) else _fail(v, text))
    if isinstance(data_type, t.ArrayType):
        element = result_checker(data_type.element_type)
        return nullable(lambda v: [element(e) for e in v] if isinstance(v, (list, tuple)) else _fail(v, text))
    if isinstance(data_type, t.MapType):
        key, val = result_checker(data_type.key_type), result_checker(data_type.value_type)
        return nullable(lambda v: {key(k): val(x) for k, x in v.items()} if isinstance(v, dict) else _fail(v, text))
    if isinstance(data_type, t.RowType):
        names = data_type.names
        fields = [result_checker(f.data_type) for f in data_type.fields]

        def row(v: Any) -> Any:
            if isinstance(v, Row):
                values = v.get_fields_by_names(names) if v._has_fields() else list(v)
            elif isinstance(v, (tuple, list)):
                values = list(v)
            elif isinstance(v, dict):
                values = [v.get(n) for n in names]
            else:
                return _fail(v, text)
            if len(values) != len(fields):
                raise TypeError(f"returned a row of {len(values)} fields where {text} has {len(fields)}")
            return tuple(c(x) for c, x in zip(fields, values))

        return nullable(row)
    return lambda v: v


# --- the evaluator -----------------------------------------------------------------------------


class ScalarEvaluator:
    """The callable Spark runs in its Python workers for one Python scalar function.

    :param function: the user's :class:`pyflink_table.udf.UserDefinedFunction` (with ``eval``).
    :param name: the function's name, used in errors and metric names.
    :param result_type: the declared result type as a Flink type string.
    :param input_types: declared argument types (type strings), or None.
    :param pandas: True for a pandas UDF (Series in, Series out).
    :param metrics: a Spark accumulator receiving metric snapshots, or None.
    """

    def __init__(self, function: Any, name: str, result_type: str, input_types: Optional[List[str]],
                 pandas: bool, metrics: Any) -> None:
        self.function = function
        self.name = name
        self.result_type = result_type
        self.input_types = input_types
        self.pandas = pandas
        self.metrics = metrics
        self._opened = False
        self._check: Optional[Checker] = None
        self._metric_registry: Dict[str, Any] = {}
        self._declared_type: Any = None

    def __getstate__(self) -> Dict[str, Any]:
        state = dict(self.__dict__)
        state["_opened"] = False
        state["_check"] = None
        state["_metric_registry"] = {}
        state["_declared_type"] = None
        return state

    def _open(self) -> None:
        from pyflink_table.metrics import MetricGroup
        from pyflink_table.types import parse_type_string
        from pyflink_table.udf import FunctionContext

        self._check = result_checker(parse_type_string(self.result_type))
        lifecycle.prepare_task()
        context = FunctionContext(MetricGroup([self.name], self._metric_registry),
                                  lifecycle.job_parameters(), lifecycle.task_info())
        self._opened = True
        lifecycle.on_task_end(self._close)
        try:
            self.function.open(context)
        except Exception as e:
            raise _failure(f"open() of Python function '{self.name}'", e) from None

    def _close(self) -> None:
        try:
            self.function.close()
        except Exception as e:
            raise _failure(f"close() of Python function '{self.name}'", e) from None
        finally:
            self._publish_metrics()
            self._opened = False

    def _publish_metrics(self) -> None:
        if self.metrics is None or not self._metric_registry:
            return
        from pyflink_table.metrics import _snapshot

        self.metrics.add(_snapshot(self._metric_registry))

    def __call__(self, *args: Any) -> Any:
        if not self._opened:
            self._open()
        if self.pandas:
            return self._eval_pandas(args)
        values = [a if isinstance(a, _PLAIN) else to_flink_value(a) for a in args]
        try:
            result = self.function.eval(*values)
        except Exception as e:
            raise _failure(f"Python function '{self.name}'", e) from None
        try:
            return self._check(result)  # type: ignore[misc]
        except TypeError as e:
            raise UserFunctionError(f"Python function '{self.name}' {e}") from None

    def _eval_pandas(self, args: Any) -> Any:
        import pandas as pd

        length = len(args[0]) if args else 0
        try:
            result = self.function.eval(*args)
        except Exception as e:
            raise _failure(f"Python function '{self.name}'", e) from None
        if not isinstance(result, (pd.Series, pd.DataFrame)):
            if hasattr(result, "__len__") and not isinstance(result, (str, bytes)):
                result = pd.Series(list(result))
            else:
                raise UserFunctionError(
                    f"Pandas function '{self.name}' returned {type(result).__name__}; it must return a "
                    f"pandas.Series (or DataFrame for ROW results) of the input's length {length}")
        if args and len(result) != length:
            raise UserFunctionError(
                f"Pandas function '{self.name}' returned {len(result)} values for {length} input rows; "
                "the result must have the length of its input")
        if isinstance(result, pd.Series):
            problem = pandas_result_problem(result, self._declared())
            if problem:
                raise UserFunctionError(f"Pandas function '{self.name}' {problem}")
        return result

    def _declared(self) -> Any:
        if self._declared_type is None:
            from pyflink_table.types import parse_type_string

            self._declared_type = parse_type_string(self.result_type)
        return self._declared_type


def pandas_result_problem(result: Any, declared: Any) -> Optional[str]:
    """Why a pandas result cannot hold the declared type without a silent change, or None.

    Spark converts pandas results to Arrow unsafely (1.7 becomes 1 for BIGINT), so numbers are
    checked here: integral types need whole numbers, numeric types need numbers.
    """
    import pandas as pd

    from pyflink_table import types as t

    kind = result.dtype.kind
    text = str(declared)
    if isinstance(declared, (t.IntegralType, t.FloatType, t.DoubleType, t.DecimalType)):
        if kind in "OUS":
            inferred = pd.api.types.infer_dtype(result, skipna=True)
            if inferred not in ("integer", "floating", "decimal", "mixed-integer-float", "empty", "boolean"):
                sample = next((v for v in result if v is not None), None)
                return (f"returned {inferred} values such as {sample!r} for the declared result type {text}")
        if isinstance(declared, t.IntegralType) and kind == "f":
            values = result.dropna()
            if len(values) and not bool((values % 1 == 0).all()):
                sample = values[values % 1 != 0].iloc[0]
                return f"returned the fractional value {sample!r} for the declared result type {text}"
    if isinstance(declared, (t.CharType, t.VarCharType)) and kind in "iufb":
        return f"returned {result.dtype} values for the declared result type {text}"
    return None
