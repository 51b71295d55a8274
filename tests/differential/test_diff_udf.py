"""Python scalar functions: the same programs under PyFlink 2.3 and here.

Expected values are PyFlink 2.3's own results (run by the harness in a PyFlink subprocess).
"""

import pytest

from harness import Comparison

SRC = """
from pyflink.table.udf import udf, ScalarFunction
src = t_env.from_elements([(1, 'a', 1.5), (2, 'bb', None), (3, None, 3.25)],
    DataTypes.ROW([DataTypes.FIELD('id', DataTypes.BIGINT()), DataTypes.FIELD('s', DataTypes.STRING()),
                   DataTypes.FIELD('d', DataTypes.DOUBLE())]))
"""

programs = {
    "udf_styles": SRC + (
        "add = udf(lambda i: i + 1, result_type=DataTypes.BIGINT())\n"
        "@udf(result_type='STRING')\n"
        "def shout(s):\n    return None if s is None else s.upper() + '!'\n"
        "class Half(ScalarFunction):\n    def eval(self, d):\n        return None if d is None else d / 2\n"
        "half = udf(Half(), result_type=DataTypes.DOUBLE())\n"
        "result = src.select(add(col('id')).alias('x'), shout(col('s')).alias('y'), half(col('d')).alias('z'))"),
    "udf_input_types": SRC + (
        "f = udf(lambda a, b: a * 10 + b, [DataTypes.BIGINT(), DataTypes.BIGINT()], DataTypes.BIGINT())\n"
        "result = src.select(col('id'), f(col('id'), col('id')).alias('r'))"),
    "udf_pandas": SRC + (
        "p = udf(lambda i, d: i + d.fillna(0), result_type=DataTypes.DOUBLE(), func_type='pandas')\n"
        "result = src.select(p(col('id'), col('d')).alias('p'))"),
    "udf_filter": SRC + (
        "even = udf(lambda i: i % 2 == 0, result_type=DataTypes.BOOLEAN())\n"
        "result = src.where(even(col('id'))).select(col('id'), col('s'))"),
    "udf_row_result": SRC + (
        "r = udf(lambda i: Row(i, str(i)), result_type=DataTypes.ROW([DataTypes.FIELD('n', DataTypes.BIGINT()), "
        "DataTypes.FIELD('t', DataTypes.STRING())]))\n"
        "result = src.select(r(col('id')).alias('r'))"),
    "udf_registered_sql": SRC + (
        "t_env.create_temporary_system_function('plus_ten', udf(lambda i: i + 10, result_type='BIGINT'))\n"
        "t_env.create_temporary_view('src', src)\n"
        "result = t_env.sql_query('SELECT id, plus_ten(id) AS p FROM src')"),
    "udf_call_by_name": SRC + (
        "t_env.create_temporary_function('times_two', udf(lambda i: i * 2, result_type='BIGINT'))\n"
        "result = src.select(col('id'), call('times_two', col('id')).alias('t'))"),
    "udf_group_key": SRC + (
        "parity = udf(lambda i: i % 2, result_type='BIGINT')\n"
        "result = src.group_by(parity(col('id'))).select(col('id').count.alias('c'))"),
    "udf_group_key_added_column": SRC + (
        "parity = udf(lambda i: i % 2, result_type='BIGINT')\n"
        "result = src.add_columns(parity(col('id')).alias('p')).group_by(col('p')).select(col('p'), col('id').sum.alias('s'))"),
    "udf_job_parameter": SRC + (
        "class Offset(ScalarFunction):\n"
        "    def open(self, ctx):\n        self.o = int(ctx.get_job_parameter('offset', '5'))\n"
        "    def eval(self, i):\n        return i + self.o\n"
        "t_env.get_config().set('pipeline.global-job-parameters', 'offset:100')\n"
        "result = src.select(udf(Offset(), result_type='BIGINT')(col('id')).alias('o'))"),
    "udf_list_functions": SRC + (
        "t_env.create_temporary_system_function('f_one', udf(lambda i: i, result_type='BIGINT'))\n"
        "t_env.create_temporary_function('f_two', udf(lambda i: i, result_type='BIGINT'))\n"
        "print(sorted(t_env.list_user_defined_functions()))\n"
        "print(t_env.drop_temporary_system_function('f_one'), t_env.drop_temporary_function('f_two'), "
        "t_env.drop_temporary_function('f_two'))\n"
        "print(sorted(t_env.list_user_defined_functions()))"),
}


@pytest.mark.parametrize("name", sorted(programs))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same(name)
