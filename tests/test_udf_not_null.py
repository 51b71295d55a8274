"""A scalar function declared with a NOT NULL result type may not return null: the query fails
naming the function, as PyFlink's NOT NULL enforcer fails the job ("Column '_c0' is NOT NULL,
however, a null value is being written into it"), instead of passing the null on."""

from __future__ import annotations

import sys

import pandas as pd
import pyarrow as pa
import pytest

from pyflink_table import DataTypes
from pyflink_table.errors import PythonException
from pyflink_table.expressions import col
from pyflink_table.udf import udf
from pyspark import cloudpickle

from conftest import rows

cloudpickle.register_pickle_by_value(sys.modules[__name__])

NOT_NULL_INT = DataTypes.INT().not_null()


@udf(result_type=NOT_NULL_INT)
def none_on_two(x):
    return None if x == 2 else x


@udf(result_type=NOT_NULL_INT, func_type="pandas")
def pandas_none_on_two(x):
    return x.where(x != 2, None).astype(object)


@udf(result_type=NOT_NULL_INT, func_type="pyarrow")
def arrow_none_on_two(x):
    return pa.array([None if v == 2 else v for v in x.to_pylist()], type=pa.int32())


@udf(result_type=DataTypes.STRING().not_null())
def string_none():
    return None


@pytest.mark.parametrize("function", [none_on_two, pandas_none_on_two, arrow_none_on_two],
                         ids=["general", "pandas", "pyarrow"])
def test_null_result_of_a_not_null_function_fails_naming_it(t_env, function) -> None:
    table = t_env.from_elements([(1,), (2,), (3,)], DataTypes.ROW([DataTypes.FIELD("a", DataTypes.INT())]))
    with pytest.raises(PythonException) as e:
        table.select(function(col("a"))).execute().collect()
    name = function._name if hasattr(function, "_name") else function.__name__
    assert str(e.value).splitlines()[0] == (
        f"Python function '{name}' returned a null value, however, its result type INT NOT NULL is NOT NULL.")


def test_function_without_arguments_is_checked_too(t_env) -> None:
    table = t_env.from_elements([(1,)], ["a"])
    with pytest.raises(PythonException, match="returned a null value, however, its result type STRING NOT NULL"):
        table.select(string_none()).execute().collect()


@pytest.mark.parametrize("function", [none_on_two, pandas_none_on_two, arrow_none_on_two],
                         ids=["general", "pandas", "pyarrow"])
def test_not_null_function_without_nulls_runs(t_env, function) -> None:
    table = t_env.from_elements([(1,), (3,)], DataTypes.ROW([DataTypes.FIELD("a", DataTypes.INT())]))
    assert sorted(rows(table.select(function(col("a"))))) == [(1,), (3,)]
