"""The worker-side evaluator of Python scalar functions (general and pandas).

Spark calls :class:`ScalarEvaluator` once per row (Arrow-batched UDF) or once per Arrow batch
(scalar Arrow UDF: general, pandas and pyarrow functions). The evaluator opens the user function on the first call of a task, converts
Spark's Python values to PyFlink's (``Row`` instead of PySpark's Row), checks each result against
the declared type so a wrong value fails loudly instead of being coerced, and names the function
in every error.
"""

from __future__ import annotations

import datetime
import decimal
import traceback
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple

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


def _is_numpy_scalar(v: Any) -> bool:
    return type(v).__module__ == "numpy" and hasattr(v, "item") and getattr(v, "ndim", None) == 0


def result_checker(data_type: Any) -> Checker:
    """A function returning a result ready for Spark, or raising TypeError for a wrong value."""
    from pyflink_table import types as t
    from pyflink_table.row import Row

    text = t.to_type_string(data_type)

    def nullable(check: Checker) -> Checker:
        # numpy scalars (pandas functions' results, e.g. np.int32 in a ROW) count as their Python values
        return lambda v: None if v is None else check(v.item() if _is_numpy_scalar(v) else v)

    if isinstance(data_type, t.BooleanType):
        return nullable(lambda v: v if isinstance(v, bool) else _fail(v, text))
    if isinstance(data_type, t.IntegralType):
        return nullable(lambda v: v if isinstance(v, int) and not isinstance(v, bool) else _fail(v, text))
    if isinstance(data_type, (t.FloatType, t.DoubleType)):
        return nullable(lambda v: v if isinstance(v, (float, int)) and not isinstance(v, bool) else _fail(v, text))
    if isinstance(data_type, t.DecimalType):
        # Flink rounds a result to the declared scale (half up).
        step = decimal.Decimal(1).scaleb(-data_type.scale)

        def to_decimal(v: Any) -> Any:
            if isinstance(v, bool) or not isinstance(v, (decimal.Decimal, int)):
                return _fail(v, text)
            return decimal.Decimal(v).quantize(step, rounding=decimal.ROUND_HALF_UP)

        return nullable(to_decimal)
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


# --- Arrow <-> Python values -----------------------------------------------------------------


def arrow_to_python(arrow_type: Any) -> Optional[Callable[[Any], Any]]:
    """A converter from ``to_pylist()`` values of ``arrow_type`` to PyFlink values, or None when
    they are PyFlink's already (structs come as dicts, maps as pair lists, zoned timestamps aware)."""
    import pyarrow as pa

    from pyflink_table.row import Row

    if pa.types.is_struct(arrow_type):
        names = [arrow_type.field(i).name for i in range(arrow_type.num_fields)]
        inner = [arrow_to_python(arrow_type.field(i).type) for i in range(arrow_type.num_fields)]

        def struct(v: Any) -> Any:
            if v is None:
                return None
            return Row(**{n: (c(v[n]) if c is not None else v[n]) for n, c in zip(names, inner)})

        return struct
    if pa.types.is_map(arrow_type):
        key, item = arrow_to_python(arrow_type.key_type), arrow_to_python(arrow_type.item_type)
        return lambda v: None if v is None else {
            (key(k) if key else k): (item(x) if item else x) for k, x in v}
    if pa.types.is_list(arrow_type) or pa.types.is_large_list(arrow_type):
        element = arrow_to_python(arrow_type.value_type)
        if element is None:
            return None
        return lambda v: None if v is None else [element(e) for e in v]
    # TIMESTAMP_LTZ: Spark sends it in the session time zone, and the aware datetime is what
    # PyFlink hands out (a datetime in the session zone), so it is kept
    return None


def _is_primitive(arrow_type: Any) -> bool:
    import pyarrow as pa

    return bool(pa.types.is_integer(arrow_type) or pa.types.is_floating(arrow_type)
                or pa.types.is_boolean(arrow_type))


def _column_values(array: Any, convert: Any = False) -> List[Any]:
    """An Arrow column as a list of PyFlink values, converted a column at a time: a numpy view's
    ``tolist()`` for null-free numbers and booleans, ``to_pylist()`` otherwise, and the
    per-value :func:`arrow_to_python` converter (``convert``, looked up when not given) only for
    the types whose Python values differ from PyFlink's."""
    if array.null_count == 0 and _is_primitive(array.type):
        return array.to_numpy(zero_copy_only=False).tolist()  # type: ignore[no-any-return]
    values = array.to_pylist()
    if convert is False:
        convert = arrow_to_python(array.type)
    return values if convert is None else [convert(v) for v in values]


def _arrow_to_pandas(array: Any) -> Any:
    """The pandas form of an argument: a Series, or a DataFrame for a ROW argument (as FLIP-97)."""
    import pandas as pd
    import pyarrow as pa

    if pa.types.is_struct(array.type):
        fields = array.flatten()
        if not fields:
            return pd.DataFrame(index=range(len(array)))
        # Concatenated as PyFlink's workers do: a nested ROW's fields become columns of this frame.
        parts = [_arrow_to_pandas(f) for f in fields]
        return pd.concat([part if isinstance(part, pd.DataFrame) else part.rename(array.type.field(i).name)
                          for i, part in enumerate(parts)], axis=1)
    if pa.types.is_map(array.type):
        return pd.Series(_column_values(array), dtype=object)  # dicts, as Spark's pandas UDFs get
    # TIMESTAMP_LTZ stays aware in the session time zone (datetime64[.., zone]), as PyFlink passes it
    return array.to_pandas()


def _is_nested(arrow_type: Any) -> bool:
    import pyarrow as pa

    return bool(pa.types.is_struct(arrow_type) or pa.types.is_map(arrow_type) or pa.types.is_list(arrow_type)
                or pa.types.is_large_list(arrow_type))


def _arrow_ready(value: Any) -> Any:
    """Rows (at any depth) as tuples, the form pyarrow builds structs from."""
    from pyflink_table.row import Row

    if isinstance(value, Row):
        return tuple(_arrow_ready(v) for v in value)
    if isinstance(value, list):
        return [_arrow_ready(v) for v in value]
    if isinstance(value, dict):
        return {k: _arrow_ready(v) for k, v in value.items()}
    return value


def _compatible(inferred: Any, target: Any) -> bool:
    """True when a safe Arrow cast from ``inferred`` to ``target`` keeps the values' meaning."""
    import pyarrow as pa

    t = pa.types
    if t.is_integer(inferred):
        return bool(t.is_integer(target) or t.is_floating(target) or t.is_decimal(target))
    if t.is_floating(inferred):
        return bool(t.is_floating(target))
    for kind in (t.is_boolean, t.is_decimal, t.is_timestamp, t.is_date, t.is_time):
        if kind(inferred):
            return bool(kind(target))
    if t.is_string(inferred) or t.is_large_string(inferred):
        return bool(t.is_string(target) or t.is_large_string(target))
    if t.is_binary(inferred) or t.is_large_binary(inferred):
        return bool(t.is_binary(target) or t.is_large_binary(target))
    return False


def result_conversion(result_type: str, as_row: bool = False) -> Tuple[Checker, Any]:
    """The checker of a declared Flink result type, and the Arrow type its values are sent to Spark
    as (with ``as_row``, a non-ROW type wrapped in a one-field row, as a table aggregate emits)."""
    from pyflink_table._worker.spark_types import arrow_type
    from pyflink_table.types import parse_type_string

    declared = parse_type_string(result_type)
    return result_checker(declared), arrow_type(declared, as_row)


def python_values_to_arrow(results: List[Any], target: Any, check: Any, what: str, result_type: str) -> Any:
    """Python results as an Arrow array of ``target``: one fast conversion when the values already
    fit, else each value checked by ``check`` so that a wrong one is reported by ``what``."""
    import pyarrow as pa

    if not _is_nested(target):
        try:
            inferred = pa.array(results)
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError, OverflowError):
            inferred = None
        if inferred is not None:
            if inferred.type == target:
                return inferred
            if pa.types.is_null(inferred.type):
                return pa.nulls(len(results), target)
            if _compatible(inferred.type, target):
                try:
                    return inferred.cast(target, safe=True)
                except (pa.ArrowInvalid, pa.ArrowTypeError):
                    pass  # overflow or lost digits: the checks below name the value
    try:
        checked = [check(v) for v in results]
    except TypeError as e:
        raise UserFunctionError(f"{what} {e}") from None
    try:
        return pa.array(checked, type=target)
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError) as e:
        raise UserFunctionError(f"{what} returned a value the declared result type {result_type} "
                                f"cannot hold: {e}") from None


# --- the evaluator -----------------------------------------------------------------------------


@dataclass(eq=False)
class ScalarEvaluator:
    """The callable Spark runs in its Python workers for one Python scalar function.

    With ``arrow_batches`` (Spark's scalar Arrow UDF) it is called once per Arrow batch with one
    pyarrow Array per argument and returns a pyarrow Array: a general function is called per row
    on Python values, a pandas function once on Series. Without (functions of no arguments, whose
    batch length Spark does not pass), Spark calls it once per row.

    :param function: the user's :class:`pyflink_table.udf.UserDefinedFunction` (with ``eval``).
    :param name: the function's name, used in errors and metric names.
    :param result_type: the declared result type as a Flink type string.
    :param input_types: declared argument types (type strings), or None.
    :param pandas: True for a pandas UDF (Series in, Series out).
    :param metrics: a Spark accumulator receiving metric snapshots, or None.
    :param arrow_batches: True when Spark passes whole Arrow batches.
    :param pyarrow: True for a pyarrow UDF (pyarrow.Array in, pyarrow.Array out).
    """

    function: Any
    name: str
    result_type: str
    input_types: Optional[List[str]]
    pandas: bool
    metrics: Any
    arrow_batches: bool = False
    pyarrow: bool = False

    def __post_init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self._opened = False
        self._not_null = False
        self._check: Optional[Checker] = None
        self._metric_registry: Dict[str, Any] = {}
        self._arrow_type: Any = None
        # the argument Arrow types last seen and their Arrow -> PyFlink value converters
        self._converters: Optional[Tuple[List[Any], List[Any]]] = None

    def __getstate__(self) -> Dict[str, Any]:
        state = dict(self.__dict__)
        for key in ("_opened", "_not_null", "_check", "_metric_registry", "_arrow_type", "_converters"):
            state.pop(key, None)
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._reset()

    def _open(self) -> None:
        from pyflink_table.metrics import MetricGroup
        from pyflink_table._functions import FunctionContext

        self._check, self._arrow_type = result_conversion(self.result_type)
        self._not_null = self.result_type.endswith(" NOT NULL")
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
        if self.arrow_batches:
            if self.pyarrow:
                array = self._eval_arrow_batch(args)
            else:
                array = self._eval_pandas_batch(args) if self.pandas else self._eval_row_batch(args)
            if self._not_null and array.null_count:
                self._null_returned()
            return array
        values = [a if isinstance(a, _PLAIN) else to_flink_value(a) for a in args]
        try:
            result = self.function.eval(*values)
        except Exception as e:
            raise _failure(f"Python function '{self.name}'", e) from None
        if result is None and self._not_null:
            self._null_returned()
        try:
            return self._check(result)  # type: ignore[misc]
        except TypeError as e:
            raise UserFunctionError(f"Python function '{self.name}' {e}") from None

    def _null_returned(self) -> None:
        # Flink's NOT NULL enforcer fails the job rather than write the null on.
        raise UserFunctionError(f"Python function '{self.name}' returned a null value, however, its result type "
                                f"{self.result_type} is NOT NULL.")

    # general function, one Arrow batch at a time
    def _eval_row_batch(self, arrays: Any) -> Any:
        if not arrays:
            raise UserFunctionError(f"Python function '{self.name}' takes no arguments; such functions can be "
                                    "called in Table API expressions but not from SQL")
        types = [a.type for a in arrays]
        if self._converters is None or self._converters[0] != types:
            self._converters = (types, [arrow_to_python(t) for t in types])
        converters = self._converters[1]
        columns = [_column_values(a, c) for a, c in zip(arrays, converters)]
        # Plain functions are called directly, skipping their ScalarFunction wrapper.
        call = getattr(self.function, "func", None) if type(self.function).__name__ == "_DelegatingScalarFunction" \
            else None
        call = call or self.function.eval
        try:
            if len(columns) == 1:
                results = [call(v) for v in columns[0]]
            else:
                results = [call(*row) for row in zip(*columns)]
        except Exception as e:
            raise _failure(f"Python function '{self.name}'", e) from None
        return self._to_arrow(results)

    def _to_arrow(self, results: List[Any]) -> Any:
        return python_values_to_arrow(results, self._arrow_type, self._check, f"Python function '{self.name}'",
                                      self.result_type)

    # pyarrow function, one Arrow batch at a time
    def _eval_arrow_batch(self, arrays: Any) -> Any:
        import pyarrow as pa

        length = len(arrays[0]) if arrays else 0
        try:
            result = self.function.eval(*arrays)
        except Exception as e:
            raise _failure(f"Python function '{self.name}'", e) from None
        if isinstance(result, pa.ChunkedArray):
            result = result.combine_chunks()
        if not isinstance(result, pa.Array):
            raise UserFunctionError(
                f"PyArrow function '{self.name}' returned {type(result).__name__}; it must return a "
                f"pyarrow.Array (or ChunkedArray) of the input's length {length}")
        if len(result) != length:
            raise UserFunctionError(
                f"PyArrow function '{self.name}' returned {len(result)} values for {length} input rows; "
                "the result must have the length of its input")
        target = self._arrow_type
        if result.type == target:
            return result
        if pa.types.is_null(result.type):
            return pa.nulls(length, target)
        # Same rule as general functions: widening casts only (no string parsing, no float -> int).
        if _compatible(result.type, target) or (_is_nested(result.type) and _is_nested(target)):
            try:
                return result.cast(target, safe=True)
            except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError) as e:
                raise UserFunctionError(f"PyArrow function '{self.name}' returned values that do not fit the "
                                        f"declared result type {self.result_type}: {e}") from None
        raise UserFunctionError(f"PyArrow function '{self.name}' returned an array of Arrow type {result.type}, "
                                f"which is not a value of the declared result type {self.result_type} "
                                f"(Arrow type {target})")

    # pandas function, one Arrow batch at a time
    def _eval_pandas_batch(self, arrays: Any) -> Any:
        import pandas as pd

        args = [_arrow_to_pandas(a) for a in arrays]
        length = len(arrays[0]) if arrays else 0
        try:
            result = self.function.eval(*args)
        except Exception as e:
            raise _failure(f"Python function '{self.name}'", e) from None
        if not isinstance(result, (pd.Series, pd.DataFrame)):
            if hasattr(result, "__len__") and not isinstance(result, (str, bytes, dict)):
                result = pd.Series(list(result))
            else:
                # PyFlink's wording (its users match on it)
                raise UserFunctionError(
                    f"The result type of Pandas UDF '{self.name}' must be pandas.Series or pandas.DataFrame, "
                    f"got {type(result)}")
        if len(result) != length:
            raise UserFunctionError(
                f"The result length '{len(result)}' of Pandas UDF '{self.name}' is not equal to the input "
                f"length '{length}'")
        return self._pandas_to_arrow(result, self._arrow_type)

    def _pandas_to_arrow(self, result: Any, target: Any) -> Any:
        import pandas as pd
        import pyarrow as pa

        try:
            if isinstance(result, pd.DataFrame):
                if not pa.types.is_struct(target):
                    raise UserFunctionError(f"Pandas function '{self.name}' returned a DataFrame; only ROW "
                                            f"results may, not {self.result_type}")
                names = [target.field(i).name for i in range(target.num_fields)]
                by_name = set(names) <= set(map(str, result.columns))
                columns = [result[n] if by_name else result.iloc[:, i] for i, n in enumerate(names)]
                arrays = [self._pandas_to_arrow(c.reset_index(drop=True), target.field(i).type)
                          for i, c in enumerate(columns)]
                return pa.StructArray.from_arrays(arrays, fields=[target.field(i) for i in range(target.num_fields)])
            if _is_nested(target):
                # from_pandas: NaN inside numpy element arrays means NULL, as in the Series itself
                return pa.array([_arrow_ready(v) for v in result], type=target, from_pandas=True)
            return pa.Array.from_pandas(result, type=target, safe=True)
        except UserFunctionError:
            raise
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError, OverflowError) as e:
            raise UserFunctionError(f"Pandas function '{self.name}' returned values that do not fit the "
                                    f"declared result type {self.result_type}: {e}") from None
