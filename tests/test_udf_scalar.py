"""Python scalar functions: definition styles, general vs pandas, value types, ROW in and out.

Expected values are computed by hand or with plain Python/pandas next to each check.
"""

from __future__ import annotations

import sys

import datetime
from decimal import Decimal

import pandas as pd
import pytest

from pyflink_table import DataTypes, Row
from pyflink_table.errors import ValidationException
from pyflink_table.expressions import call, col, lit
from pyflink_table.udf import ScalarFunction, udf
from pyspark import cloudpickle

from conftest import rows, sorted_rows

# Functions and classes of this module travel to the Spark workers by value (workers cannot import it).
cloudpickle.register_pickle_by_value(sys.modules[__name__])


# --- every definition style, in one query -----------------------------------------------------

@udf(result_type=DataTypes.BIGINT())
def add_one(i):
    return i + 1


class Multiply(ScalarFunction):
    def __init__(self, factor: int) -> None:
        self.factor = factor

    def eval(self, i):
        return i * self.factor


class Concat:
    def __call__(self, a, b):
        return f"{a}-{b}"


class RandomLike(ScalarFunction):
    def eval(self, i):
        return i

    def is_deterministic(self) -> bool:
        return False


def test_definition_styles(t_env):
    t = t_env.from_elements([(1, "a"), (2, "b"), (3, "c")], ["i", "s"])
    lam = udf(lambda i: i * 10, result_type="BIGINT")                       # string result type
    flip58 = udf(lambda i, j: i + j, [DataTypes.BIGINT(), DataTypes.BIGINT()], DataTypes.BIGINT())
    times3 = udf(Multiply(3), result_type=DataTypes.BIGINT())
    concat = udf(Concat(), result_type=DataTypes.STRING(), name="concat_it")
    nondet = udf(lambda i: i, result_type="BIGINT", deterministic=False)
    by_class = udf(RandomLike(), result_type="BIGINT")
    result = t.select(add_one(col("i")), lam(col("i")), flip58(col("i"), lit(100)), times3(col("i")),
                      concat(col("s"), col("i")), nondet(col("i")), by_class(col("i")))
    # by hand: i+1, i*10, i+100, i*3, "s-i", i, i
    assert sorted_rows(result) == [(i + 1, i * 10, i + 100, i * 3, f"{s}-{i}", i, i)
                                   for i, s in [(1, "a"), (2, "b"), (3, "c")]]
    # Declared input types cast the arguments (FLIP-58): an INT column arrives as a float here.
    as_double = udf(lambda d: type(d).__name__, input_types=[DataTypes.DOUBLE()], result_type="STRING")
    assert sorted_rows(t.select(as_double(col("i")))) == [("float",)] * 3
    with pytest.raises(ValidationException, match="declares 1 input types but is called with 2"):
        rows(t.select(as_double(col("i"), col("i"))))
    assert concat._name == "concat_it" and lam._name == "<lambda>" and add_one._name == "add_one"
    assert nondet._deterministic is False and by_class._deterministic is False
    assert times3._deterministic is True
    with pytest.raises(ValueError, match="Inconsistent deterministic"):
        udf(RandomLike(), result_type="BIGINT", deterministic=True)
    with pytest.raises(TypeError, match="Invalid function"):
        udf(Multiply, result_type="BIGINT")


# --- pandas UDFs --------------------------------------------------------------------------------

@udf(result_type="DOUBLE", func_type="pandas")
def pandas_scale(x, factor):
    assert isinstance(x, pd.Series)
    return x * factor


@udf(result_type="BIGINT", udf_type="pandas")  # FLIP-97 spelling
def pandas_len(s):
    return s.str.len()


@udf(result_type="BIGINT")
def hinted(a: pd.Series, b: pd.Series) -> pd.Series:
    return a + b


def test_pandas_udfs(t_env):
    t = t_env.from_elements([(1, 1.5, "ab"), (2, 2.5, "xyz"), (3, None, "")], ["i", "d", "s"])
    result = t.select(col("i"), pandas_scale(col("d"), lit(2.0)), pandas_len(col("s")), hinted(col("i"), col("i")))
    expected_d = pd.Series([1.5, 2.5, None], dtype="float64") * 2.0
    got = sorted_rows(result)
    assert [r[0] for r in got] == [1, 2, 3]
    assert [r[1] for r in got][:2] == list(expected_d[:2]) and got[2][1] is None
    assert [r[2] for r in got] == [2, 3, 0]
    assert [r[3] for r in got] == [2, 4, 6]
    assert hinted._func_type == "pandas" and pandas_len._func_type == "pandas"


def test_pandas_row_argument_is_dataframe_and_row_result(t_env):
    @udf(result_type="ROW<total BIGINT, label STRING>", func_type="pandas")
    def summarize(r):
        assert isinstance(r, pd.DataFrame), type(r)
        # row(...) fields are positional (f0, f1, ...), as in Flink
        return pd.DataFrame({"total": r.iloc[:, 0] + r.iloc[:, 1], "label": r.iloc[:, 2].str.upper()})

    t = t_env.from_elements([(1, 2, "x"), (10, 20, "y")], ["a", "b", "c"])
    result = t.select(summarize(call("row", col("a"), col("b"), col("c"))).alias("r"))
    got = sorted(rows(result), key=lambda r: r[0][0])
    assert [tuple(r[0]) for r in got] == [(3, "X"), (30, "Y")]


# --- pyarrow UDFs (our extension: pyarrow.Array in and out, no pandas) ---------------------------

@udf(result_type="DOUBLE", func_type="pyarrow")
def arrow_scale(x, factor):
    import pyarrow as pa
    import pyarrow.compute as pc

    assert isinstance(x, pa.Array) and isinstance(factor, pa.Array), (type(x), type(factor))
    return pc.multiply(x, factor)


@udf(result_type="BIGINT")
def arrow_hinted(a: "pa.Array", b: "pa.Array") -> "pa.Array":
    import pyarrow.compute as pc

    return pc.add(a, b)


def test_pyarrow_udfs(t_env):
    import pyarrow as pa
    import pyarrow.compute as pc

    @udf(result_type="INT", func_type="pyarrow")
    def arrow_len(s: pa.Array) -> pa.Array:
        return pc.utf8_length(s)  # int32, as declared

    @udf(result_type="STRING", func_type="pyarrow")
    def arrow_upper(s):
        return pa.chunked_array([pc.utf8_upper(s)])  # a ChunkedArray is accepted too

    t = t_env.from_elements([(1, 1.5, "ab"), (2, 2.5, "xyz"), (3, None, "")], ["i", "d", "s"])
    result = t.select(col("i"), arrow_scale(col("d"), lit(2.0)), arrow_len(col("s")),
                      arrow_hinted(col("i"), col("i")), arrow_upper(col("s")))
    got = sorted_rows(result)
    assert [tuple(r) for r in got] == [(1, 3.0, 2, 2, "AB"), (2, 5.0, 3, 4, "XYZ"), (3, None, 0, 6, "")]
    assert arrow_hinted._func_type == "pyarrow" and arrow_scale._func_type == "pyarrow"
    assert result.get_schema().get_field_data_types()[2] == DataTypes.INT()


def test_pyarrow_udf_wrong_results_name_the_function(t_env):
    import pyarrow as pa
    import pyarrow.compute as pc

    from pyflink_table.errors import PythonException, TableException

    t = t_env.from_elements([(1,), (2,)], ["a"])
    cases = [
        (udf(lambda a: pc.cast(a, pa.string()), result_type="BIGINT", func_type="pyarrow", name="arrow_str"),
         "arrow_str.*Arrow type string.*BIGINT"),
        (udf(lambda a: pc.divide(pc.cast(a, pa.float64()), 3), result_type="BIGINT", func_type="pyarrow",
             name="arrow_float"), "arrow_float.*double.*BIGINT"),
        (udf(lambda a: a.to_pylist(), result_type="BIGINT", func_type="pyarrow", name="arrow_list"),
         "arrow_list.*returned list.*pyarrow.Array"),
        (udf(lambda a: pa.concat_arrays([a, a]), result_type="BIGINT", func_type="pyarrow", name="arrow_long"),
         "arrow_long.*returned 2 values for 1 input rows|arrow_long.*returned 4 values for 2 input rows"),
        (udf(lambda a: pc.multiply(a, 1000), result_type="TINYINT", func_type="pyarrow", name="arrow_overflow"),
         "arrow_overflow.*TINYINT"),
    ]
    for function, message in cases:
        with pytest.raises(PythonException, match=message):
            rows(t.select(function(col("a"))))
    with pytest.raises(ValueError, match="The func_type must be one of 'general, pandas', got arrow.*'pyarrow'"):
        udf(lambda a: a, result_type="BIGINT", func_type="arrow")
    with pytest.raises(TableException, match="pyarrow function 'no_args' without arguments"):
        udf(lambda: pa.array([1]), result_type="BIGINT", func_type="pyarrow", name="no_args")()


# --- FLIP-97 value types round trip (general UDF) -----------------------------------------------

def test_value_types_round_trip(t_env):
    seen = {}

    def identity_of(type_name):
        def f(v):
            return v
        return udf(f, result_type=type_name, name=f"id_{type_name.split('(')[0].split('<')[0]}")

    values = [
        ("TINYINT", 7, int), ("SMALLINT", 300, int), ("INT", 70000, int), ("BIGINT", 2 ** 40, int),
        ("FLOAT", 1.5, float), ("DOUBLE", 2.25, float), ("DECIMAL(10, 2)", Decimal("12.34"), Decimal),
        ("BOOLEAN", True, bool), ("STRING", "héllo", str), ("BYTES", b"\x00\x01", bytes),
        ("DATE", datetime.date(2020, 2, 29), datetime.date),
        ("TIME(0)", datetime.time(12, 30, 15), datetime.time),
        ("TIMESTAMP(3)", datetime.datetime(2020, 1, 2, 3, 4, 5, 123000), datetime.datetime),
        ("ARRAY<BIGINT>", [1, 2, None], list), ("MAP<STRING, BIGINT>", {"k": 1}, dict),
    ]
    schema = DataTypes.ROW([DataTypes.FIELD(f"c{i}", _type(t)) for i, (t, _, _) in enumerate(values)])
    t = t_env.from_elements([tuple(v for _, v, _ in values), tuple(None for _ in values)], schema)

    @udf(result_type="STRING")
    def type_names(*args):
        return ",".join(type(a).__name__ for a in args)

    def pandas_identity_of(type_name):
        return udf(lambda s: s, result_type=type_name, func_type="pandas")

    calls = [identity_of(t)(col(f"c{i}")) for i, (t, _, _) in enumerate(values)]
    pandas_calls = [pandas_identity_of(t)(col(f"c{i}")) for i, (t, _, _) in enumerate(values)]
    result = rows(t.select(type_names(*[col(f"c{i}") for i in range(len(values))]), *calls, *pandas_calls))
    result.sort(key=lambda r: r[1] is None)
    full, empty = result
    n = len(values)
    assert full[0].split(",") == [py.__name__ for _, _, py in values]
    assert list(full[1:n + 1]) == [v for _, v, _ in values]
    assert list(full[n + 1:]) == [v for _, v, _ in values]  # the same through pandas.Series
    assert empty[0] == ",".join(["NoneType"] * n)
    assert list(empty[1:]) == [None] * (2 * n)
    del seen


def _type(text):
    from pyflink_table.types import parse_type_string
    return parse_type_string(text)


def test_row_argument_is_flink_row_and_row_result(t_env):
    @udf(result_type=DataTypes.ROW([DataTypes.FIELD("s", DataTypes.BIGINT()),
                                    DataTypes.FIELD("kind", DataTypes.STRING())]))
    def inspect_row(r):
        return Row(s=r[0] + r[1], kind=type(r).__module__ + "." + type(r).__name__)

    @udf(result_type="ROW<x BIGINT, y STRING>")
    def as_tuple(i):
        return (i, str(i))  # tuples are accepted for ROW results too

    @udf(result_type="DECIMAL(10, 2)")
    def third(i):
        return Decimal(i) / 3  # rounded half up to the declared scale, as Flink does

    t = t_env.from_elements([(1, 2), (3, 4)], ["a", "b"])
    got = sorted(rows(t.select(inspect_row(call("row", col("a"), col("b"))), as_tuple(col("a")),
                               third(col("b")))),
                 key=lambda r: r[0][0])
    assert [r[2] for r in got] == [Decimal("0.67"), Decimal("1.33")]  # 2/3, 4/3
    assert [tuple(r[0]) for r in got] == [(3, "pyflink_table.row.Row"), (7, "pyflink_table.row.Row")]
    assert [tuple(r[1]) for r in got] == [(1, "1"), (3, "3")]


# --- a numeric literal cast to DECIMAL reaches a Python function unrounded, as in Flink ----------

# (argument SQL, repr of what the Python function gets), measured on PyFlink 2.3 batch
# (SELECT seen(<argument>) FROM v with seen = udf(repr)); Flink's planner keeps the literal's own value
# under the DECIMAL type, so only what consumes it in Flink's generated code rounds it.
LITERAL_DECIMAL_ARGUMENTS = [
    ("CAST(1.05 AS DECIMAL)", "Decimal('1.05')"),
    ("CAST(1.05 AS DECIMAL(10, 3))", "Decimal('1.05')"),
    ("CAST(123.456 AS DECIMAL(5, 1))", "Decimal('123.456')"),
    ("CAST(-1.55 AS DECIMAL)", "Decimal('-1.55')"),
    ("CAST(1.05e0 AS DECIMAL)", "Decimal('1.05')"),
    ("CAST(1 AS DECIMAL(10, 2))", "Decimal('1')"),
    ("CAST(99.99 AS DECIMAL(3, 1))", "Decimal('99.99')"),
    ("CAST(9999999999.5 AS DECIMAL)", "Decimal('9999999999.5')"),
    ("CAST(12345678901.5 AS DECIMAL)", "None"),          # integer digits do not fit: NULL
    ("CAST(12.345 AS DECIMAL(3, 2))", "None"),
    ("CAST(1.5e40 AS DECIMAL)", "None"),
    ("CAST(CAST(1.05 AS DECIMAL) AS DECIMAL(10, 2))", "Decimal('1.05')"),
    ("CAST(CAST(1.05 AS DOUBLE) AS DECIMAL)", "Decimal('1.05')"),
    ("CAST(1.05 AS DECIMAL) + 0", "Decimal('1.05')"),     # Calcite's identity simplifications
    ("0 + CAST(1.05 AS DECIMAL)", "Decimal('1.05')"),
    ("CAST(1.05 AS DECIMAL) - 0", "Decimal('1.05')"),
    ("CAST(1.05 AS DECIMAL) * 1", "Decimal('1.05')"),
    ("COALESCE(CAST(1.05 AS DECIMAL), 0)", "Decimal('1.05')"),
    ("CAST(1.05 AS DECIMAL) + 1", "Decimal('2')"),        # real arithmetic sees the rounded value
    ("CAST(1.05 AS DECIMAL) * 2", "Decimal('2')"),
    ("-CAST(1.05 AS DECIMAL)", "Decimal('-1')"),
    ("CAST(1.05 AS DECIMAL) + a", "Decimal('2')"),
    ("CAST(1.05 AS DECIMAL) + CAST(1.05 AS DECIMAL)", "Decimal('2')"),
    ("CASE WHEN a > 0 THEN CAST(1.05 AS DECIMAL) ELSE 0 END", "Decimal('1')"),
    ("CAST(CAST(1.05 AS DECIMAL) AS STRING)", "'1'"),
    ("CAST('1.05' AS DECIMAL)", "Decimal('1')"),          # not a numeric literal
    ("CAST(a + 0.05 AS DECIMAL)", "Decimal('1')"),
    ("TRY_CAST(1.05 AS DECIMAL)", "Decimal('1')"),
    ("CAST(TRUE AS DECIMAL)", "Decimal('1')"),
]


def test_literal_cast_to_decimal_reaches_python_unrounded(t_env):
    seen = udf(lambda x: repr(x), result_type=DataTypes.STRING())
    declared = udf(lambda x: repr(x), result_type=DataTypes.STRING(), input_types=[DataTypes.DECIMAL(10, 0)])
    t_env.create_temporary_system_function("seen", seen)
    t_env.create_temporary_system_function("seen_declared", declared)
    t = t_env.from_elements([(1,)], ["a"])
    t_env.create_temporary_view("v", t)
    items = ", ".join(f"seen({arg})" for arg, _ in LITERAL_DECIMAL_ARGUMENTS)
    # same measurements: a declared DECIMAL input type, the plain projection (rounded), a filter
    query = (f"SELECT {items}, seen_declared(CAST(1.05 AS DECIMAL)), seen_declared(1.05), "
             f"CAST(1.05 AS DECIMAL), CAST(123.456 AS DECIMAL(5, 1)) FROM v "
             f"WHERE seen(CAST(1.05 AS DECIMAL)) = 'Decimal(''1.05'')'")
    [got] = rows(t_env.sql_query(query))
    n = len(LITERAL_DECIMAL_ARGUMENTS)
    assert dict(zip((a for a, _ in LITERAL_DECIMAL_ARGUMENTS), got[:n])) == dict(LITERAL_DECIMAL_ARGUMENTS)
    assert got[n:] == ("Decimal('1.05')", "Decimal('1.05')", Decimal("1"), Decimal("123.5"))
    # the Table API, measured the same way: lit(1.05).cast(DECIMAL(10, 0)) and + 1
    dec = DataTypes.DECIMAL(10, 0)
    assert rows(t.select(seen(lit(1.05).cast(dec)), seen(lit(123.456).cast(DataTypes.DECIMAL(5, 1))),
                         seen(lit(1.05).cast(dec) + 1))) == [
        ("Decimal('1.05')", "Decimal('123.456')", "Decimal('2')")]


# --- the mapInArrow route of projections (ScalarProjections) ----------------------------------

def _physical(table) -> str:
    plan = table.explain()
    return plan[plan.index("== Physical Plan =="):]


def test_projection_runs_through_map_in_arrow_with_passed_columns_nulls_and_chains(t_env):
    schema = DataTypes.ROW([DataTypes.FIELD("i", DataTypes.BIGINT()), DataTypes.FIELD("s", DataTypes.STRING()),
                            DataTypes.FIELD("d", DataTypes.DOUBLE())])
    t = t_env.from_elements([(1, "a", 10.5), (None, "bb", None), (3, None, -1.0)], schema)
    inc = udf(lambda i: None if i is None else i + 1, result_type="BIGINT")
    shout = udf(lambda s: None if s is None else s.upper() + "!", result_type="STRING")
    halve = udf(lambda d: d / 2, result_type="DOUBLE", func_type="pandas")
    def query_():  # a new query per setting: a query's plan is optimized once
        return t.select(col("s"), inc(col("i")), shout(col("s")), inc(inc(col("i") + 1)), halve(col("d")), col("d"))

    query = query_()
    # by hand: s; i+1; upper(s)+'!'; (i+1)+1+1; d/2 (NaN for a null in pandas -> null); d
    expected = [(None, 4, None, 6, -0.5, -1.0), ("a", 2, "A!", 4, 5.25, 10.5), ("bb", None, "BB!", None, None, None)]
    plan = _physical(query)
    assert "MapInArrow" in plan and "ArrowEvalPython" not in plan, plan
    assert sorted_rows(query) == expected
    # Spark's own route gives the same rows
    t_env.get_config().set("pyflink_table.python.scalar.map-in-arrow", "false")
    try:
        query = query_()
        plan = _physical(query)
        assert "ArrowEvalPython" in plan and "MapInArrow" not in plan, plan
        assert sorted_rows(query) == expected
    finally:
        t_env.get_config().set("pyflink_table.python.scalar.map-in-arrow", "true")
    with pytest.raises(ValidationException, match="true or false"):
        t_env.get_config().set("pyflink_table.python.scalar.map-in-arrow", "sometimes")


def test_map_in_arrow_route_keeps_filters_sql_and_the_users_traceback(t_env):
    from pyflink_table.errors import PythonException

    t = t_env.from_elements([(1,), (2,), (3,), (4,)], ["k"])
    even = udf(lambda k: k % 2 == 0, result_type="BOOLEAN")
    assert sorted_rows(t.where(even(col("k"))).select(col("k"))) == [(2,), (4,)]
    t_env.create_temporary_view("mia_t", t)
    t_env.create_temporary_function("mia_sq", udf(lambda k: k * k, result_type="BIGINT"))
    # by hand: k*k + 1 for k > 1
    assert sorted_rows(t_env.sql_query("SELECT k, mia_sq(k) + 1 FROM mia_t WHERE k > 1")) == [(2, 5), (3, 10), (4, 17)]

    def broken(k):
        return 10 // (k - 3)

    query = t.select(udf(broken, result_type="BIGINT")(col("k")))
    assert "MapInArrow" in _physical(query)
    with pytest.raises(PythonException) as info:
        rows(query)
    text = str(info.value)
    assert "Python function 'broken' failed" in text and "return 10 // (k - 3)" in text and "ZeroDivisionError" in text
