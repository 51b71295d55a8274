"""Python table functions (FLIP-58 UDTFs): ``TableFunction``, :func:`udtf` and their wrapper.

A table function runs as a Spark Python UDTF on the Arrow path (evalType SQL_ARROW_TABLE_UDF) and is
joined laterally to its input. Spark 4.3's left lateral join drops rows without output, so the
left-outer variant of a function yields one all-NULL row itself and is joined with an inner join.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, List, Optional, Sequence, Union, overload

from pyflink_table import _protocol
from pyflink_table.errors import TableException
from pyflink_table._worker import lifecycle
from pyflink_table.types import DataType, RowType
from pyflink_table._functions import TableFunction
from pyflink_table._function_wrapper import UserDefinedFunctionWrapper, _as_data_type, _metrics_accumulator, _spark_type

__all__ = ["TableFunction", "UserDefinedTableFunctionWrapper", "udtf"]


class UserDefinedTableFunctionWrapper(UserDefinedFunctionWrapper):
    """A Python table function ready for ``join_lateral``, ``left_outer_join_lateral``, ``flat_map`` and SQL.

    :param func: a :class:`TableFunction`, a generator function or a callable returning an iterable.
    :param input_types: declared argument types, or None.
    :param result_types: the types of the output fields (one type or a list; a ROW type spreads).
    :param deterministic: False when equal inputs may give different rows.
    :param name: the function's name.
    """

    def __init__(self, func: Any, input_types: Any, result_types: Any,
                 deterministic: Optional[bool] = None, name: Optional[str] = None) -> None:
        super().__init__(func, input_types, "general", deterministic, name)
        if result_types is None:
            raise TypeError("Invalid result_types: result_types of a Python table function must be specified")
        if isinstance(result_types, RowType):
            types: Sequence[Any] = result_types.field_types()
            names: Optional[List[str]] = list(result_types.field_names())
        elif isinstance(result_types, (DataType, str)):
            types, names = [result_types], None
        else:
            types, names = list(result_types), None
        self._result_types: List[DataType] = [_as_data_type(t, "result_types") for t in types]
        # Flink names the fields of a table function f0, f1, ... unless a ROW type names them.
        self._result_names: List[str] = names or [f"f{i}" for i in range(len(self._result_types))]

    def _create_java_user_function(self, sc: Any) -> Any:
        from pyflink_table.java_gateway import bridge, to_string_array

        inner = self._pyspark_udtf(outer=False)
        outer = self._pyspark_udtf(outer=True)
        return bridge().udf.PythonTableFunction(
            self._name, inner._judtf, outer._judtf, to_string_array(self._result_names))

    def _pyspark_udtf(self, outer: bool) -> Any:
        from pyspark.sql.types import StructField, StructType
        from pyspark.sql.udtf import UserDefinedTableFunction

        from pyflink_table._worker.table_functions import make_handler

        from pyspark import SparkContext

        opener = functools.partial(lifecycle.open_function, name=self._name, close_at_task_end=False,
                                   metrics=_metrics_accumulator(SparkContext._active_spark_context, self._name))
        handler = make_handler(self._func, len(self._result_types), outer, opener, self._name)
        # Internal field names: the lateral join renames them to Flink's names afterwards.
        schema = StructType([StructField(f"__pft_udtf_{i}", _spark_type(t), True)
                             for i, t in enumerate(self._result_types)])
        return UserDefinedTableFunction(handler, schema, self._name, _protocol.EVAL_ARROW_TABLE_UDF, self._deterministic)


# Typed call forms for type checkers: `@udtf(...)` returns a decorator, `udtf(f, ...)` a wrapper.
@overload
def udtf(f: None = None, input_types: Any = None, result_types: Any = None,
         deterministic: Optional[bool] = None, name: Optional[str] = None
         ) -> Callable[[Callable[..., Any]], "UserDefinedTableFunctionWrapper"]: ...


@overload
def udtf(f: Union[Callable[..., Any], TableFunction], input_types: Any = None, result_types: Any = None,
         deterministic: Optional[bool] = None, name: Optional[str] = None) -> "UserDefinedTableFunctionWrapper": ...


def udtf(f: Any = None, input_types: Any = None, result_types: Any = None,
         deterministic: Optional[bool] = None, name: Optional[str] = None) -> Any:
    """Make a Python table function usable in lateral joins, ``flat_map`` and SQL.

    Usable as ``@udtf(result_types=[DataTypes.STRING()])`` on a generator function, on a
    :class:`TableFunction` instance, or called directly.

    :param f: the function, callable object or TableFunction instance.
    :param input_types: declared argument types (optional).
    :param result_types: the types of the output fields.
    :param deterministic: False when equal inputs may give different rows.
    :param name: the function's name (defaults to the function's or class's name).
    :return: a :class:`UserDefinedTableFunctionWrapper`, or a decorator making one.
    """
    if f is None:
        return functools.partial(udtf, input_types=input_types, result_types=result_types,
                                 deterministic=deterministic, name=name)
    if isinstance(f, UserDefinedFunctionWrapper):
        raise TableException(f"{f._name} is already a user-defined function wrapper")
    return UserDefinedTableFunctionWrapper(f, input_types, result_types, deterministic, name)
