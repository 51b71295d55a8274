"""Set-operation type rules, pandas in/out, TIMESTAMP_LTZ, str(table) in SQL, and error kinds:
the same programs under PyFlink 2.3 and here (expected values are PyFlink's own results)."""

import pytest

from harness import Comparison, differential  # noqa: F401 - the fixture


def _typed(name: str, typ: str, values: str) -> str:
    return (f"{name} = t_env.from_elements([(v,) for v in {values}], "
            f"DataTypes.ROW([DataTypes.FIELD('x', {typ})]))\n")


SRC = """
src = t_env.from_elements(
    [(1, 'a', 10, 1.5), (2, 'b', 20, 2.5), (3, 'a', None, 3.5), (4, None, 40, None), (5, 'b', 50, 0.5)],
    DataTypes.ROW([DataTypes.FIELD('id', DataTypes.INT()), DataTypes.FIELD('k', DataTypes.STRING()),
                   DataTypes.FIELD('v', DataTypes.BIGINT()), DataTypes.FIELD('d', DataTypes.DOUBLE())]))
"""

PANDAS = "import pandas as pd\n"
TO_PANDAS = ("pdf = {table}.to_pandas()\n"
             "print({{c: str(t) for c, t in pdf.dtypes.items()}})\n"
             "print([[repr(v) for v in r] for r in pdf.itertuples(index=False)])\n")

programs = {
    "union_int_bigint": _typed("a", "DataTypes.INT()", "[1, None]") + _typed("b", "DataTypes.BIGINT()", "[2]")
    + "result = a.union_all(b)",
    "union_int_double": _typed("a", "DataTypes.INT()", "[1]") + _typed("b", "DataTypes.DOUBLE()", "[2.5]")
    + "result = a.union_all(b)",
    "union_decimals": _typed("a", "DataTypes.DECIMAL(10, 2)", "[decimal.Decimal('1.25')]")
    + _typed("b", "DataTypes.DECIMAL(5, 3)", "[decimal.Decimal('2.125')]") + "result = a.union_all(b)",
    "union_notnull": _typed("a", "DataTypes.INT(False)", "[1]") + _typed("b", "DataTypes.INT()", "[None]")
    + "result = a.union(b)",
    "minus_type_mismatch": _typed("a", "DataTypes.INT()", "[1]") + _typed("b", "DataTypes.STRING()", "['x']")
    + "result = a.minus(b)",
    "intersect_date_string": _typed("a", "DataTypes.DATE()", "[datetime.date(2020, 1, 1)]")
    + _typed("b", "DataTypes.STRING()", "['2020-01-01']") + "result = a.intersect(b)",
    "group_by_two_keys": SRC + "result = src.group_by(col('k'), col('id') > 2).select(col('k'), col('d').max.alias('m'))",
    "distinct_two_columns": SRC + "result = src.select(col('k'), col('id') > 2).distinct()",
    "join_multi_condition": SRC + ("r = t_env.from_elements([('a', 1), ('b', 5), ('b', 2)], ['rk', 'rid'])\n"
                                   "result = src.join(r, (col('k') == col('rk')) & (col('id') == col('rid')))"),
    "str_table_in_sql": SRC + "result = t_env.execute_sql(f'SELECT k, COUNT(*) AS c FROM {src} GROUP BY k')",
    "describe_not_null": (_typed("a", "DataTypes.INT(False)", "[1]") + "t_env.create_temporary_view('a', a)\n"
                          "result = t_env.execute_sql('DESCRIBE a')"),
    "show_tables_empty": "result = t_env.execute_sql('SHOW TABLES')",
    "ltz_print": ("t = t_env.from_elements([(datetime.datetime(2024, 1, 2, 3, 4, 5, 123000),)], "
                  "DataTypes.ROW([DataTypes.FIELD('l', DataTypes.TIMESTAMP_LTZ(3))]))\nt.execute().print()"),
    "ltz_to_pandas": ("t = t_env.from_elements([(datetime.datetime(2024, 1, 2, 3, 4, 5, 123000),), (None,)], "
                      "DataTypes.ROW([DataTypes.FIELD('l', DataTypes.TIMESTAMP_LTZ(3))]))\n" + TO_PANDAS.format(table="t")),
    "to_pandas_types": (SRC.replace("src =", "src0 =") + "src = src0.select(col('id'), col('k'), col('v'), col('d'))\n"
                        + TO_PANDAS.format(table="src")
                        + TO_PANDAS.format(table="src.where(col('v').is_not_null)")),
    "to_pandas_temporal": ("t = t_env.from_elements([(datetime.date(2024, 1, 2), datetime.time(1, 2, 3), "
                           "datetime.datetime(2024, 1, 2, 3, 4, 5, 123000), datetime.datetime(2024, 1, 2, 3, 4, 5, 123000), "
                           "decimal.Decimal('1.5'), True, bytearray(b'ab'))], DataTypes.ROW([DataTypes.FIELD('d', DataTypes.DATE()), "
                           "DataTypes.FIELD('t', DataTypes.TIME()), DataTypes.FIELD('ts3', DataTypes.TIMESTAMP(3)), "
                           "DataTypes.FIELD('ts6', DataTypes.TIMESTAMP(6)), DataTypes.FIELD('dec', DataTypes.DECIMAL(10, 3)), "
                           "DataTypes.FIELD('b', DataTypes.BOOLEAN()), DataTypes.FIELD('by', DataTypes.BYTES())]))\n"
                           + TO_PANDAS.format(table="t")),
    "to_pandas_empty": SRC + TO_PANDAS.format(table="src.where(col('id') > 100)"),
    "from_pandas_inferred": PANDAS + ("pdf = pd.DataFrame({'a': [1, 2], 'b': ['x', None], 'c': [1.5, None], 'd': [True, False]})\n"
                                      "result = t_env.from_pandas(pdf)"),
    "from_pandas_names": PANDAS + "result = t_env.from_pandas(pd.DataFrame({'a': [1, 2], 'b': ['x', 'y']}), ['p', 'q'])",
    "from_pandas_row_schema": PANDAS + ("result = t_env.from_pandas(pd.DataFrame({'a': [1, 2], 'b': [0.5, None]}), "
                                        "DataTypes.ROW([DataTypes.FIELD('a', DataTypes.INT()), DataTypes.FIELD('b', DataTypes.FLOAT())]))"),
    "from_pandas_types_list": PANDAS + ("result = t_env.from_pandas(pd.DataFrame({'a': [1, 2], 'b': ['x', 'y']}), "
                                        "[DataTypes.SMALLINT(), DataTypes.STRING()])"),
    "from_pandas_timestamps": PANDAS + ("result = t_env.from_pandas(pd.DataFrame({'t': pd.to_datetime(['2024-01-02 03:04:05.5', None])}))"),
    "from_pandas_roundtrip": PANDAS + ("t = t_env.from_pandas(pd.DataFrame({'a': [3, 1, 2], 'b': ['z', 'x', 'y']}))\n"
                                       + TO_PANDAS.format(table="t.order_by(col('a'))")),
    "error_filter_not_boolean": SRC + "result = src.where(col('k'))",
    "error_string_times_int": SRC + "result = src.select(col('k') * 2)",
    "error_unknown_column_in_sql": SRC + "t_env.create_temporary_view('src', src)\nresult = t_env.sql_query('SELECT nope FROM src')",
    "error_unknown_function_in_sql": SRC + "t_env.create_temporary_view('src', src)\nresult = t_env.sql_query('SELECT no_such_fn(id) FROM src')",
    "error_from_path_unknown": "result = t_env.from_path('nowhere')",
    "error_duplicate_view": SRC + "t_env.create_temporary_view('src', src)\nt_env.create_temporary_view('src', src)",
    "alias_fewer_names": SRC + "result = src.alias('a', 'b')",
    "error_rename_unknown": SRC + "result = src.rename_columns(col('nope').alias('x'))",
    "error_drop_unknown": SRC + "result = src.drop_columns(col('nope'))",
    "error_add_existing": SRC + "result = src.add_columns(col('id').alias('k'))",
}

ORDERED = {"describe_not_null", "from_pandas_roundtrip"}


@pytest.mark.parametrize("name", sorted(programs))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same(name, ordered=name in ORDERED)
