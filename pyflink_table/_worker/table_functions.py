"""Worker side of Python table functions: the handler class Spark's Arrow UDTF runner calls.

Spark instantiates the handler once per task, calls ``eval`` per input row and ``terminate`` at the
end. Flink's ``open``/``close`` map onto the first and the last of these.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Tuple, Type

from pyflink_table.row import Row


def to_spark_value(value: Any) -> Any:
    """A Python value as Spark's Arrow converter takes it: Flink Rows become tuples, recursively."""
    if isinstance(value, Row):
        return tuple(to_spark_value(v) for v in value._values)
    if isinstance(value, list):
        return [to_spark_value(v) for v in value]
    if isinstance(value, dict):
        return {to_spark_value(k): to_spark_value(v) for k, v in value.items()}
    return value


def _as_tuple(value: Any, width: int) -> Tuple[Any, ...]:
    """One yielded value as an output row: Rows, tuples and lists spread, scalars fill one field."""
    if isinstance(value, Row):
        out = tuple(to_spark_value(v) for v in value._values)
    elif isinstance(value, (tuple, list)):
        out = tuple(to_spark_value(v) for v in value)
    else:
        out = (to_spark_value(value),)
    if len(out) != width:
        raise ValueError(f"The table function yielded {len(out)} field(s) but declares {width} result type(s): {value!r}")
    return out


def make_handler(function: Any, width: int, outer: bool, open_function: Callable[[Any], None],
                 name: str = "") -> Type[Any]:
    """The UDTF handler class for ``function`` (a TableFunction or a plain generator function).

    :param function: the user's function; ``eval`` is called on TableFunction instances.
    :param width: number of result fields.
    :param outer: emit one all-NULL row for inputs that yield nothing (left outer lateral join).
    :param open_function: opens the function in this task (gives it its FunctionContext).
    :param name: the function's name (names it in what it logs).
    """
    evaluate = getattr(function, "eval", function)
    empty = (None,) * width

    function_name = name

    class FlinkTableFunctionHandler:
        name = function_name

        def __init__(self) -> None:
            from pyflink_table._worker import udf_logging

            udf_logging.set_current_function(function_name)
            open_function(function)

        def eval(self, *args: Any) -> Iterator[Tuple[Any, ...]]:
            from pyflink_table._worker import udf_logging

            udf_logging.set_current_function(function_name)
            produced = evaluate(*args)
            emitted = False
            if produced is not None:
                if not hasattr(produced, "__iter__") or isinstance(produced, (str, bytes)):
                    produced = [produced]
                for value in produced:
                    emitted = True
                    yield _as_tuple(value, width)
            if outer and not emitted:
                yield empty

        def terminate(self) -> Iterator[Tuple[Any, ...]]:
            close = getattr(function, "close", None)
            if close is not None:
                close()
            return iter(())

    return FlinkTableFunctionHandler
