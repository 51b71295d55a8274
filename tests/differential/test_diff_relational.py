"""Relational operations, sources, printing and SQL: the same programs under PyFlink 2.3 and here.

Expected values are PyFlink 2.3's own results (run by the harness in a PyFlink subprocess).
"""

import pytest

from harness import Comparison, differential  # noqa: F401 - the fixture

SRC = """
src = t_env.from_elements(
    [(1, 'a', 10, 1.5), (2, 'b', 20, 2.5), (3, 'a', None, 3.5), (4, None, 40, None), (5, 'b', 50, 0.5)],
    DataTypes.ROW([DataTypes.FIELD('id', DataTypes.INT()), DataTypes.FIELD('k', DataTypes.STRING()),
                   DataTypes.FIELD('v', DataTypes.BIGINT()), DataTypes.FIELD('d', DataTypes.DOUBLE())]))
"""

programs = {
    "select_exprs": SRC + "result = src.select(col('id'), col('v') + 1, (col('d') * 2).alias('dd'), col('k'))",
    "alias_all": SRC + "result = src.alias('a', 'b', 'c', 'e')",
    "filter_where": SRC + "result = src.filter(col('v') > 15).where(col('k') == 'b')",
    "filter_null_logic": SRC + "result = src.where(col('v').is_null | (col('d') < 1.0))",
    "add_columns": SRC + "result = src.add_columns((col('id') * 10).alias('x'), col('k').alias('k2'))",
    "add_or_replace": SRC + "result = src.add_or_replace_columns((col('id') * 10).alias('v'), lit(1).alias('one'))",
    "rename_columns": SRC + "result = src.rename_columns(col('id').alias('ident'), col('k').alias('key'))",
    "drop_columns": SRC + "result = src.drop_columns(col('v'), col('d'))",
    "distinct": SRC + "result = src.select(col('k')).distinct()",
    "order_asc_nulls": SRC + "result = src.order_by(col('v').asc)",
    "order_desc_nulls": SRC + "result = src.order_by(col('v').desc)",
    "order_two_keys": SRC + "result = src.order_by(col('k').asc, col('id').desc)",
    "order_default": SRC + "result = src.order_by(col('k'))",
    "order_fetch": SRC + "result = src.order_by(col('id').desc).fetch(2)",
    "order_offset_fetch": SRC + "result = src.order_by(col('id')).offset(1).fetch(2)",
    "order_limit": SRC + "result = src.order_by(col('id')).limit(2, 2)",
    "union_all": SRC + "result = src.select(col('k')).union_all(src.select(col('k')))",
    "union": SRC + "result = src.select(col('k')).union(src.select(col('k')))",
    "intersect": SRC + "result = src.select(col('k')).intersect(src.where(col('id') > 2).select(col('k')))",
    "intersect_all": SRC + ("l = t_env.from_elements([(1,), (1,), (1,), (2,)], ['x'])\n"
                            "r = t_env.from_elements([(1,), (1,), (3,)], ['x'])\nresult = l.intersect_all(r)"),
    "minus": SRC + ("l = t_env.from_elements([(1,), (1,), (2,), (3,)], ['x'])\n"
                    "r = t_env.from_elements([(2,)], ['x'])\nresult = l.minus(r)"),
    "minus_all": SRC + ("l = t_env.from_elements([(1,), (1,), (1,), (2,), (3,)], ['x'])\n"
                        "r = t_env.from_elements([(1,), (3,)], ['x'])\nresult = l.minus_all(r)"),
    "union_type_mismatch": SRC + "result = src.select(col('id')).union_all(src.select(col('k')))",
    "union_width_mismatch": SRC + "result = src.select(col('id')).union_all(src.select(col('id'), col('k')))",
    "join_inner": SRC + ("r = t_env.from_elements([('a', 'A'), ('b', 'B'), ('c', 'C')], ['rk', 'name'])\n"
                         "result = src.join(r, col('k') == col('rk')).select(col('id'), col('name'))"),
    "join_then_where": SRC + ("r = t_env.from_elements([('a', 'A'), ('c', 'C')], ['rk', 'name'])\n"
                              "result = src.join(r).where(col('k') == col('rk')).select(col('id'), col('name'))"),
    "join_left": SRC + ("r = t_env.from_elements([('a', 'A'), ('c', 'C')], ['rk', 'name'])\n"
                        "result = src.left_outer_join(r, col('k') == col('rk')).select(col('id'), col('name'))"),
    "join_right": SRC + ("r = t_env.from_elements([('a', 'A'), ('c', 'C')], ['rk', 'name'])\n"
                         "result = src.right_outer_join(r, col('k') == col('rk')).select(col('id'), col('name'))"),
    "join_full": SRC + ("r = t_env.from_elements([('a', 'A'), ('c', 'C')], ['rk', 'name'])\n"
                        "result = src.full_outer_join(r, col('k') == col('rk')).select(col('id'), col('rk'))"),
    "join_duplicate_names": SRC + "result = src.join(src, col('id') == col('id'))",
    "group_aggs": SRC + ("result = src.group_by(col('k')).select(col('k'), col('v').sum.alias('s'), "
                         "col('v').count.alias('c'), col('v').avg.alias('a'), col('v').min.alias('mn'), "
                         "col('v').max.alias('mx'), col('d').sum0.alias('s0'))"),
    "group_stats": SRC + ("result = src.group_by(col('k')).select(col('k'), col('d').stddev_pop.alias('sp'), "
                          "col('d').stddev_samp.alias('ss'), col('d').var_pop.alias('vp'), col('d').var_samp.alias('vs'))"),
    "group_first_last_collect": SRC + ("result = src.where(col('k').is_not_null).group_by(col('k')).select(col('k'), "
                                       "col('id').collect.alias('ids'))"),
    "global_aggs": SRC + "result = src.select(col('v').sum, col('id').count, col('d').avg, col('v').max)",
    "empty_aggs": SRC + "result = src.where(col('id') > 100).select(col('v').sum, col('id').count, col('v').sum0)",
    "empty_group": SRC + "result = src.where(col('id') > 100).group_by(col('k')).select(col('k'), col('v').sum)",
    "avg_int_type": "t = t_env.from_elements([(1,), (2,)], ['x'])\nresult = t.select(col('x').avg.alias('a'), col('x').sum.alias('s'))",
    "unknown_column": SRC + "result = src.select(col('nope'))",
    "unknown_function": SRC + "result = src.select(call('no_such_fn', col('id')))",
    # Sources and data in/out.
    "from_elements_names": "result = t_env.from_elements([(1, 'Hi', 1.5), (2, 'Hello', None)], ['a', 'b', 'c'])",
    "from_elements_default_names": "result = t_env.from_elements([(1, 'Hi', True), (2, 'Hello', False)])",
    "from_elements_inferred": ("result = t_env.from_elements([(decimal.Decimal('1.25'), datetime.date(2020, 1, 2), "
                               "datetime.time(1, 2, 3), [1, 2], {'a': 1}, bytearray(b'xy'))])"),
    "from_elements_schema_types": ("result = t_env.from_elements([(1, decimal.Decimal('1.5'), datetime.datetime(2024, 1, 2, 3, 4, 5, 120000), "
                                   "datetime.time(1, 2, 3), bytearray(b'\\x01'), [1, 2], {'k': 1}, Row(1, 'a'))], "
                                   "DataTypes.ROW([DataTypes.FIELD('i', DataTypes.TINYINT()), DataTypes.FIELD('dec', DataTypes.DECIMAL(10, 3)), "
                                   "DataTypes.FIELD('ts', DataTypes.TIMESTAMP(3)), DataTypes.FIELD('tm', DataTypes.TIME()), "
                                   "DataTypes.FIELD('by', DataTypes.BYTES()), DataTypes.FIELD('arr', DataTypes.ARRAY(DataTypes.INT())), "
                                   "DataTypes.FIELD('m', DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())), "
                                   "DataTypes.FIELD('r', DataTypes.ROW([DataTypes.FIELD('x', DataTypes.INT()), DataTypes.FIELD('y', DataTypes.STRING())])) ]))"),
    "float_collect": ("result = t_env.from_elements([(0.1, 0.1)], DataTypes.ROW([DataTypes.FIELD('f', DataTypes.FLOAT()), "
                      "DataTypes.FIELD('d', DataTypes.DOUBLE())]))"),
    # print() layout.
    "print_basic": SRC + "src.execute().print()",
    "print_empty": SRC + "src.where(col('id') > 100).execute().print()",
    "print_one_row": SRC + "src.where(col('id') == 1).select(col('id'), col('k')).execute().print()",
    "print_long": ("t_env.from_elements([('a much longer string that exceeds thirty characters wide', 1)], "
                   "['a_really_long_column_name_exceeding_thirty_chars', 'b']).execute().print()"),
    "print_types": ("t_env.from_elements([(True, 1, 2, 3, 4, 1.5, 2.25, decimal.Decimal('1.5'), 'hello', bytearray(b'\\x01\\xff'), "
                    "datetime.date(2024, 1, 2), datetime.time(1, 2, 3), datetime.datetime(2024, 1, 2, 3, 4, 5, 123000), "
                    "datetime.datetime(2024, 1, 2, 3, 4, 5, 123000), [1, None, 3], {'k': 1}, Row(1, 'a')), (None,) * 17], "
                    "DataTypes.ROW([DataTypes.FIELD('b', DataTypes.BOOLEAN()), DataTypes.FIELD('ti', DataTypes.TINYINT()), "
                    "DataTypes.FIELD('si', DataTypes.SMALLINT()), DataTypes.FIELD('i', DataTypes.INT()), DataTypes.FIELD('bi', DataTypes.BIGINT()), "
                    "DataTypes.FIELD('f', DataTypes.FLOAT()), DataTypes.FIELD('d', DataTypes.DOUBLE()), DataTypes.FIELD('dec', DataTypes.DECIMAL(10, 3)), "
                    "DataTypes.FIELD('s', DataTypes.STRING()), DataTypes.FIELD('by', DataTypes.BYTES()), DataTypes.FIELD('dt', DataTypes.DATE()), "
                    "DataTypes.FIELD('tm', DataTypes.TIME()), DataTypes.FIELD('ts', DataTypes.TIMESTAMP(3)), DataTypes.FIELD('ltz', DataTypes.TIMESTAMP_LTZ(3)), "
                    "DataTypes.FIELD('arr', DataTypes.ARRAY(DataTypes.INT())), DataTypes.FIELD('m', DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())), "
                    "DataTypes.FIELD('r', DataTypes.ROW([DataTypes.FIELD('x', DataTypes.INT()), DataTypes.FIELD('y', DataTypes.STRING())]))])).execute().print()"),
    "print_floats": ("t_env.from_elements([(1e7, 9999999.0, 1e-3, 0.00099, 1e21, 100.0, 123456789.123, 1.0E-10, 1.0E-10)], "
                     "DataTypes.ROW([DataTypes.FIELD(n, DataTypes.DOUBLE()) for n in 'abcdefg'] + [DataTypes.FIELD('f1', DataTypes.FLOAT()), "
                     "DataTypes.FIELD('f2', DataTypes.FLOAT())])).execute().print()"),
    "print_timestamps": ("dt = datetime.datetime(2024, 1, 2, 3, 4, 5, 120000)\n"
                         "t_env.from_elements([tuple([dt] * 5 + [datetime.time(1, 2, 3, 450000)] * 2)], DataTypes.ROW("
                         "[DataTypes.FIELD('t%d' % p, DataTypes.TIMESTAMP(p)) for p in (0, 1, 3, 6)] + "
                         "[DataTypes.FIELD('l3', DataTypes.TIMESTAMP_LTZ(3)), DataTypes.FIELD('tm0', DataTypes.TIME(0)), "
                         "DataTypes.FIELD('tm3', DataTypes.TIME(3))])).execute().print()"),
    "print_wide_chars": "t_env.from_elements([('中文字符中文字符中文字符中文字符中文字符', '中文')], ['a', 'b']).execute().print()",
    "print_decimal_wide": ("t_env.from_elements([(decimal.Decimal('12345678901234567890.123456789'),)], "
                           "DataTypes.ROW([DataTypes.FIELD('x', DataTypes.DECIMAL(38, 9))])).execute().print()"),
    "print_nested": ("t_env.from_elements([([[1, 2], [3]], {'a': [1]}, ['s', None], [decimal.Decimal('1.10')], [datetime.date(2020, 1, 1)], [True])], "
                     "DataTypes.ROW([DataTypes.FIELD('a', DataTypes.ARRAY(DataTypes.ARRAY(DataTypes.INT()))), "
                     "DataTypes.FIELD('b', DataTypes.MAP(DataTypes.STRING(), DataTypes.ARRAY(DataTypes.INT()))), "
                     "DataTypes.FIELD('c', DataTypes.ARRAY(DataTypes.STRING())), DataTypes.FIELD('d', DataTypes.ARRAY(DataTypes.DECIMAL(5, 2))), "
                     "DataTypes.FIELD('e', DataTypes.ARRAY(DataTypes.DATE())), DataTypes.FIELD('f', DataTypes.ARRAY(DataTypes.BOOLEAN()))])).execute().print()"),
    "print_schema": SRC + "src.select(col('id'), col('k'), col('v').alias('vv')).print_schema()",
    "schema_str": SRC + "print(src.get_schema())",
    "resolved_schema_str": SRC + "print(src.get_resolved_schema())",
    # SQL.
    "sql_query_view": SRC + ("t_env.create_temporary_view('src', src)\n"
                             "result = t_env.sql_query('SELECT k, SUM(v) AS s, COUNT(*) AS c FROM src GROUP BY k')"),
    "sql_table_str": SRC + "result = t_env.sql_query(f'SELECT id, k FROM {src} WHERE id > 3')",
    "sql_from_path": SRC + "t_env.create_temporary_view('src', src)\nresult = t_env.from_path('src').select(col('id'))",
    "sql_execute_select": SRC + "t_env.create_temporary_view('src', src)\nresult = t_env.execute_sql('SELECT id, d FROM src WHERE d > 1')",
    "sql_show_tables": SRC + "t_env.create_temporary_view('b_view', src)\nt_env.create_temporary_view('a_view', src)\nresult = t_env.execute_sql('SHOW TABLES')",
    "sql_show_views": SRC + "t_env.create_temporary_view('b_view', src)\nresult = t_env.execute_sql('SHOW VIEWS')",
    "sql_describe": SRC + "t_env.create_temporary_view('src', src)\nresult = t_env.execute_sql('DESCRIBE src')",
    "sql_drop_view": SRC + ("t_env.create_temporary_view('src', src)\nr = t_env.execute_sql('DROP TEMPORARY VIEW src')\n"
                            "print(r.get_result_kind())\nprint(t_env.list_temporary_views())\nr.print()"),
    "list_and_drop": SRC + ("t_env.create_temporary_view('v1', src)\nt_env.create_temporary_view('v2', src)\n"
                            "print(t_env.list_tables(), t_env.list_temporary_views())\n"
                            "print(t_env.drop_temporary_view('v1'), t_env.drop_temporary_view('nope'))\nprint(t_env.list_tables())"),
    "sql_unknown_table": "result = t_env.sql_query('SELECT * FROM nowhere')",
    "sql_syntax_error": "result = t_env.sql_query('SELEC 1')",
    "sql_values_order": "result = t_env.sql_query('SELECT * FROM (VALUES (2, 1), (1, CAST(NULL AS INT)), (3, 3)) AS t(a, b) ORDER BY b')",
    "result_kind_query": SRC + "print(src.execute().get_result_kind())",
}

ORDERED = {"order_asc_nulls", "order_desc_nulls", "order_two_keys", "order_default", "order_fetch",
           "order_offset_fetch", "order_limit", "sql_show_tables", "sql_describe", "sql_values_order"}


@pytest.mark.parametrize("name", sorted(programs))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same(name, ordered=name in ORDERED)
