"""Wrong argument types and option values are refused with an error naming them.

PyFlink 2.3 (measured with tests/reference/probe_reliability.py) lets ``limit('x')``, ``col(42)``
and ``sql_query(42)`` reach Py4J (a raw Py4JError naming neither) and keeps
``parallelism.default = 'abc'`` until a job fails; here they are refused at the call.
"""

import warnings
from typing import Any

import pytest

from conftest import rows
from pyflink_table.errors import TableException, ValidationException
from pyflink_table.expressions import col


def test_wrong_argument_types_name_the_argument(t_env: Any) -> None:
    t = t_env.from_elements([(1,), (2,)], ["a"])
    with pytest.raises(TypeError, match=r"Table.limit\(\) argument 'fetch' must be int, got str: 'x'"):
        t.limit("x")
    with pytest.raises(TypeError, match=r"Table.limit\(\) argument 'offset' must be int, got float"):
        t.limit(1, 1.5)
    with pytest.raises(TypeError, match=r"Table.fetch\(\) argument 'fetch' must be int, got bool"):
        t.fetch(True)
    with pytest.raises(TypeError, match=r"col\(\) argument 'name' must be str, got int: 42"):
        col(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"TableEnvironment.sql_query\(\) argument 'query' must be str, got int"):
        t_env.sql_query(42)
    with pytest.raises(TypeError, match=r"TableEnvironment.execute_sql\(\) argument 'stmt' must be str"):
        t_env.execute_sql(None)
    with pytest.raises(TypeError, match=r"TableEnvironment.from_path\(\) argument 'path' must be str"):
        t_env.from_path(["t"])
    assert rows(t.limit(1)) == [(1,)]


def test_bad_option_value_is_refused_and_not_kept(t_env: Any) -> None:
    config = t_env.get_config()
    config.set("parallelism.default", "3")
    for bad in ("abc", "0", "-5", ""):
        with pytest.raises(ValidationException, match=f"Invalid value for option 'parallelism.default'.*'{bad}'"):
            config.set("parallelism.default", bad)
        assert config.get("parallelism.default") == "3"
    with pytest.raises(ValidationException, match="spark.sql.shuffle.partitions"):
        config.set("spark.sql.shuffle.partitions", "many")
    assert config.get("spark.sql.shuffle.partitions") is None
    # The environment still runs jobs with shuffles (3 partitions).
    t = t_env.from_elements([(1, "a"), (2, "a"), (3, "b")], ["v", "k"])
    assert sorted(rows(t.group_by(col("k")).select(col("k"), col("v").sum))) == [("a", 3), ("b", 3)]
    assert t_env.get_spark_session().conf.get("spark.sql.shuffle.partitions") == "3"


def test_restart_strategy_options_are_refused_by_name(t_env: Any) -> None:
    for key, value in (("restart-strategy.type", "fixed-delay"),
                       ("restart-strategy.fixed-delay.attempts", "3")):
        with pytest.raises(TableException, match=f"Unsupported option '{key}'.*spark.task.maxFailures"):
            t_env.get_config().set(key, value)
        assert t_env.get_config().get(key) is None


def test_mismatched_elements_name_row_and_column(t_env: Any) -> None:
    from pyflink_table import DataTypes

    schema = DataTypes.ROW([DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.STRING())])
    with pytest.raises(ValidationException, match=r"Row 1, column 'a': value 'x' \(str\) does not fit"):
        t_env.from_elements([(1, "a"), ("x", "b")], schema)
    with pytest.raises(ValidationException, match=r"Row 2, column 'a': value 2.5 \(float\) does not fit"):
        t_env.from_elements([(1, "a"), (2, "b"), (2.5, "c")], schema)
    assert rows(t_env.from_elements([(1, "a")], schema)) == [(1, "a")]


def test_int_for_a_string_column_is_refused_as_pyflink_refuses_it(t_env: Any) -> None:
    # PyFlink 2.3: TypeError "field b: VARCHAR can not accept object 2 in type <class 'int'>".
    from pyflink_table import DataTypes

    schema = DataTypes.ROW([DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.STRING())])
    for error in (ValidationException, TypeError):
        with pytest.raises(error, match=r"^Row 1, column 'b': value 2 \(int\) does not fit the column's type"):
            t_env.from_elements([(1, "a"), (1, 2)], schema)
    with pytest.raises(TypeError, match=r"Row 1, column 'a': value 'x' \(str\) does not fit"):
        t_env.from_elements([(1, "a"), ("x", "b")], schema)
    assert rows(t_env.from_elements([(1, None)], schema)) == [(1, None)]
    # Without declared types, 2 makes b a BIGINT column (PyFlink: [(1, 2)]).
    assert rows(t_env.from_elements([(1, 2)], ["a", "b"])) == [(1, 2)]


def test_from_pandas_mismatches_name_the_column(t_env: Any) -> None:
    # PyFlink 2.3 raises RuntimeError (Arrow's conversion error) for values that do not fit and
    # takes columns by position, leaving out columns beyond the schema's.
    import pandas as pd

    from pyflink_table import DataTypes

    schema = DataTypes.ROW([DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.STRING())])
    cases = [
        (pd.DataFrame({"a": [1, 2], "b": ["x", 5]}), r"^Column 'b' of the DataFrame does not fit the schema's "
                                                     r"type STRING \(row 1, value 5\): "),
        (pd.DataFrame({"a": [1], "b": [5]}), r"^Column 'b' of the DataFrame does not fit the schema's type STRING "
                                             r"\(row 0, value 5\): "),
        (pd.DataFrame({"a": [1, "zz"], "b": ["x", "y"]}), r"^Column 'a' of the DataFrame does not fit the schema's "
                                                          r"type INT \(row 1, value 'zz'\): "),
        (pd.DataFrame({"a": [1]}), r"^The DataFrame has 1 columns \(a\), but the schema has 2: a, b; column 'b' "
                                   r"is missing\.$"),
    ]
    for pdf, message in cases:
        for error in (ValidationException, RuntimeError):
            # Only our one-line error: no PySpark warning about its Arrow conversion falling back.
            with warnings.catch_warnings(record=True) as caught, pytest.raises(error, match=message) as e:
                warnings.simplefilter("always")
                t_env.from_pandas(pdf, schema)
            assert len(str(e.value).splitlines()) == 1
            assert [str(w.message) for w in caught] == []
    assert rows(t_env.from_pandas(pd.DataFrame({"x": [1], "y": ["x"]}), schema)) == [(1, "x")]
    assert rows(t_env.from_pandas(pd.DataFrame({"a": [1], "b": ["x"], "c": [2]}), schema)) == [(1, "x")]
