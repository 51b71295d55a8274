"""Behaviour PyFlink's own tests rely on (issue 11); expected values measured with PyFlink 2.3."""

from __future__ import annotations

import datetime
import os
from typing import Any

import pytest

from pyflink_table import DataTypes, Row, TableEnvironment
from pyflink_table.descriptors import Rowtime, Schema
from pyflink_table.expressions import col
from pyflink_table.types import _create_type_verifier, to_type_string

from conftest import sorted_rows


def test_table_column_attribute(t_env: TableEnvironment) -> None:
    t = t_env.from_elements([(1, "x"), (2, "y")], ["a", "b"])
    assert sorted_rows(t.select(t.a + 1, t.b)) == [(2, "x"), (3, "y")]
    assert sorted_rows(t.where(t.a > 1).select(col("b"))) == [("y",)]
    # a column never shadows a method, and private names are never columns
    t2 = t_env.from_elements([(1, 2)], ["select", "x"])
    assert callable(t2.select)
    with pytest.raises(AttributeError, match=r"no column named 'zz', available columns: \[a, b\]"):
        t.zz
    with pytest.raises(AttributeError):
        t._not_there


def test_legacy_ddl_keys(t_env: TableEnvironment, tmp_path: object) -> None:
    path = os.path.join(str(tmp_path), "x.csv")
    with open(path, "w") as f:
        f.write("h1,h2\n1,a\n2,b\n")
    t_env.execute_sql(f"""CREATE TABLE legacy(a INT, b STRING) WITH ('connector.type' = 'filesystem',
        'format.type' = 'csv', 'connector.path' = '{path}', 'format.ignore-first-line' = 'true',
        'format.field-delimiter' = ',')""")
    assert sorted_rows(t_env.from_path("legacy")) == [(1, "a"), (2, "b")]


def test_legacy_descriptor_properties() -> None:
    # PyFlink 2.3: Schema().field(...).to_properties() / Rowtime().to_properties()
    props = Schema().field("a", DataTypes.STRING()).field("b", "LONG").field("c", "OBJECT_ARRAY<INT>") \
        .field("d", DataTypes.TIMESTAMP_LTZ(3)).rowtime(Rowtime().timestamps_from_field("a")
                                                         .watermarks_periodic_ascending()).to_properties()
    assert props == {"schema.0.name": "a", "schema.0.data-type": "VARCHAR(2147483647)",
                     "schema.1.name": "b", "schema.1.data-type": "BIGINT",
                     "schema.2.name": "c", "schema.2.data-type": "ARRAY<INT>",
                     "schema.3.name": "d", "schema.3.data-type": "TIMESTAMP(3) WITH LOCAL TIME ZONE",
                     "schema.3.rowtime.timestamps.type": "from-field", "schema.3.rowtime.timestamps.from": "a",
                     "schema.3.rowtime.watermarks.type": "periodic-ascending"}
    assert Rowtime().timestamps_from_source().watermarks_from_source().to_properties() == {
        "rowtime.watermarks.type": "from-source", "rowtime.timestamps.type": "from-source"}


def test_type_verifier_and_internal_forms() -> None:
    _create_type_verifier(DataTypes.ROW([DataTypes.FIELD("s", DataTypes.STRING(False))]))({"s": "x"})
    with pytest.raises(ValueError):
        _create_type_verifier(DataTypes.TINYINT())(128)
    with pytest.raises(TypeError):
        _create_type_verifier(DataTypes.DOUBLE())(1)
    assert DataTypes.DATE().from_sql_type(0) == datetime.date(1970, 1, 1)
    assert DataTypes.TIME().to_sql_type(datetime.time(0, 0, 1, 5)) == 1000005
    assert DataTypes.INTERVAL(DataTypes.DAY(), DataTypes.SECOND()).to_sql_type(
        datetime.timedelta(days=1, seconds=10)) == 86410000000


def test_insert_into_returns_table_pipeline(t_env: TableEnvironment) -> None:
    from pyflink_table import ResultKind, Schema, TableDescriptor

    # PyFlink 2.3: insert_into(...) is a TablePipeline; execute() gives one BIGINT column named by the sink, -1
    schema = Schema.new_builder().column("f0", DataTypes.STRING()).build()
    t_env.create_temporary_table("S", TableDescriptor.for_connector("blackhole").schema(schema).build())
    t = t_env.from_elements([("a",), ("b",)], ["f0"])
    pipeline = t.insert_into("S")
    identifier = pipeline.get_sink_identifier()
    assert identifier is not None
    assert identifier.as_summary_string() == "default_catalog.default_database.S"
    assert str(identifier) == "`default_catalog`.`default_database`.`S`"
    result = pipeline.execute()
    assert result.get_result_kind() == ResultKind.SUCCESS_WITH_CONTENT
    assert result.get_table_schema().get_field_names() == ["default_catalog.default_database.S"]
    assert [tuple(r) for r in result.collect()] == [(-1,)]
    assert t.insert_into(TableDescriptor.for_connector("blackhole").schema(schema).build()) \
        .get_sink_identifier() is None


def test_config_options_and_local_timezone(t_env: TableEnvironment) -> None:
    from pyflink_table import ConfigOptions, TableDescriptor

    option = ConfigOptions.key("csv.field-delimiter").string_type().no_default_value()
    d = TableDescriptor.for_connector("filesystem").option(option, ";").build()
    assert d.get_options()["csv.field-delimiter"] == ";"
    # PyFlink 2.3 on this machine (no TZ set, /etc/localtime -> Etc/UTC)
    if not os.environ.get("TZ") and os.path.realpath("/etc/localtime").endswith("Etc/UTC"):
        assert t_env.get_config().get_local_timezone() == "Etc/UTC"
    t_env.get_config().set_local_timezone("Asia/Tokyo")
    assert t_env.get_config().get_local_timezone() == "Asia/Tokyo"


def test_udf_time_result_into_time_column(t_env: TableEnvironment, capsys: Any) -> None:
    from pyflink_table.udf import udf

    # PyFlink 2.3 accepts inserting a TIME() UDF result into a TIME column (its test_all_data_types)
    f = udf(lambda x: x, result_type=DataTypes.TIME())
    t = t_env.from_elements([(datetime.time(1, 2, 3),)], DataTypes.ROW([DataTypes.FIELD("a", DataTypes.TIME())]))
    t_env.execute_sql("CREATE TABLE time_sink(a TIME) WITH ('connector' = 'print')")
    capsys.readouterr()
    t.select(f(col("a"))).execute_insert("time_sink").wait()
    assert capsys.readouterr().out.splitlines() == ["+I[01:02:03]"]


def test_pandas_udaf_numpy_scalars_and_map_result(t_env: TableEnvironment) -> None:
    from pyflink_table.udf import udaf

    t = t_env.from_elements([(1, 2), (3, 4)], ["a", "b"])
    # a.min() + b.min() is np.int64 in PyFlink's test_group_aggregate_function; accepted there
    f = udaf(lambda a, b: a.min() + b.min(), result_type=DataTypes.INT(), func_type="pandas")
    row_f = udaf(lambda a: (a.min(), a.max()), func_type="pandas",
                 result_type=DataTypes.ROW([DataTypes.FIELD("lo", DataTypes.INT()),
                                            DataTypes.FIELD("hi", DataTypes.INT())]))
    assert sorted_rows(t.select(f(col("a"), col("b")), row_f(col("a")))) == [(3, Row(1, 3))]
    with pytest.raises(TypeError, match="Pandas UDAF doesn't support DataType type MAP"):
        udaf(lambda a: a, result_type=DataTypes.MAP(DataTypes.INT(), DataTypes.INT()), func_type="pandas")


def test_add_python_file_same_base_name(t_env: TableEnvironment, tmp_path: Any) -> None:
    from pyflink_table.udf import udf

    # PyFlink 2.3 (test_dependency.test_add_python_file): the later of two same-named files wins
    for i, body in enumerate(["def f(a):\n    raise Exception('not this one')", "def f(a):\n    return a + 2"]):
        d = tmp_path / f"dir{i}"
        d.mkdir()
        (d / "porting_same_name_lib.py").write_text(body)
        t_env.add_python_file(str(d / "porting_same_name_lib.py"))

    def g(i: int) -> int:
        from porting_same_name_lib import f  # type: ignore[import-not-found]
        return int(f(i))

    t = t_env.from_elements([(1,), (2,)], ["a"])
    assert sorted_rows(t.select(udf(g, DataTypes.BIGINT(), DataTypes.BIGINT())(col("a")))) == [(3,), (4,)]


def test_requirements_from_cached_source_package(t_env: TableEnvironment, tmp_path: Any) -> None:
    import tarfile

    from pyflink_table.udf import udf

    # PyFlink 2.3 (test_set_requirements_with_cached_directory): a source package in the cache
    # directory is installed offline
    src = tmp_path / "porting-req-pkg-0.0.0"
    src.mkdir()
    (src / "setup.py").write_text("from setuptools import setup\n"
                                  "setup(name='porting-req-pkg', version='0.0.0', py_modules=['porting_req_mod'])\n")
    (src / "porting_req_mod.py").write_text("def plus(a, b):\n    return a + b\n")
    cache = tmp_path / "cache"
    cache.mkdir()
    with tarfile.open(cache / "porting-req-pkg-0.0.0.tar.gz", "w:gz") as tar:
        tar.add(src, arcname="porting-req-pkg-0.0.0")
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("porting-req-pkg==0.0.0\n")
    t_env.set_python_requirements(str(requirements), str(cache))

    def add_one(i: int) -> int:
        from porting_req_mod import plus  # type: ignore[import-not-found]
        return int(plus(i, 1))

    t = t_env.from_elements([(1,), (2,)], ["a"])
    assert sorted_rows(t.select(udf(add_one, DataTypes.BIGINT(), DataTypes.BIGINT())(col("a")))) == [(2,), (3,)]


def test_format_descriptor_str() -> None:
    from pyflink_table import FormatDescriptor

    # PyFlink 2.3 (test_table_descriptor.test_to_string)
    assert str(FormatDescriptor.for_format("test-format").option("a", False).build()) == "test-format[{a=false}]"


def test_untranslated_java_errors_are_py4j_java_errors(t_env: TableEnvironment) -> None:
    # PyFlink 2.3 translates only TableException and the catalog exceptions; a validation error,
    # a parse error or a failing Python function reaches its users as Py4JJavaError (measured:
    # sql_query on a missing table, use_modules('core', 'dummy'), execute_sql('selec 1'), a pandas
    # UDF returning the wrong length). Here they are PyFlink-named errors that are also Py4JJavaError.
    from py4j.protocol import Py4JJavaError

    from pyflink_table.errors import PythonException, SqlParserException, ValidationException
    from pyflink_table.udf import udf

    with pytest.raises(Py4JJavaError, match="No module with name 'dummy' exists") as info:
        t_env.use_modules("core", "dummy")
    assert isinstance(info.value, ValidationException) and info.value.java_exception is None
    with pytest.raises(Py4JJavaError) as parse:
        t_env.execute_sql("selec 1")
    assert isinstance(parse.value, SqlParserException)
    assert "\tat " not in str(parse.value)

    @udf(result_type=DataTypes.INT(), func_type="pandas")
    def length_mismatch(i: Any) -> Any:
        return i[1:]

    @udf(result_type=DataTypes.INT(), func_type="pandas")
    def result_type_not_series(i: Any) -> Any:
        return i.iloc[0]

    t = t_env.from_elements([(1,), (2,), (3,)], ["a"])
    # PyFlink 2.3's messages (its batch lengths depend on the bundle size, so the numbers are not fixed)
    with pytest.raises(Py4JJavaError, match=r"The result length '(\d+)' of Pandas UDF 'length_mismatch' is not "
                                            r"equal to the input length '\d+'") as failed:
        t.select(length_mismatch(t.a)).to_pandas()
    assert isinstance(failed.value, PythonException)
    with pytest.raises(Py4JJavaError, match=r"The result type of Pandas UDF 'result_type_not_series' must be "
                                            r"pandas.Series or pandas.DataFrame, got <class 'numpy.int64'>"):
        t.select(result_type_not_series(t.a)).to_pandas()


@pytest.mark.parametrize("zone", ["UTC", "Asia/Shanghai"])
def test_timestamp_ltz_arguments_are_aware(zone: str) -> None:
    # PyFlink 2.3 (measured, time zone UTC): a general function gets datetime(1970, 1, 2, 0, 0, 0, 123000,
    # tzinfo=<UTC>), a pandas function a Series of dtype datetime64[ms, UTC]; both equal the aware
    # input. An identity function returns the same instant. (Outside UTC PyFlink 2.3 hands out the
    # UTC wall clock labelled with the session zone, a shifted instant; here it is the true instant.)
    import pytz

    from pyflink_table import EnvironmentSettings
    from pyflink_table.udf import udf

    env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    env.get_config().set("table.local-time-zone", zone)
    local = pytz.timezone(zone).localize(datetime.datetime(1970, 1, 2, 0, 0, 0, 123000))

    @udf(result_type=DataTypes.STRING())
    def general(v: Any) -> str:
        return f"{v == local}|{v.utcoffset()}"

    @udf(result_type=DataTypes.STRING(), func_type="pandas")
    def pandas_fn(s: Any) -> Any:
        import pandas as pd
        return pd.Series([f"{s[0] == local}|{s.dt.tz}"] * len(s))

    @udf(result_type=DataTypes.TIMESTAMP_LTZ(3))
    def ident(v: Any) -> Any:
        return v

    t = env.from_elements([(local,)], DataTypes.ROW([DataTypes.FIELD("a", DataTypes.TIMESTAMP_LTZ(3))]))
    rows = t.select(general(t.a), pandas_fn(t.a), ident(t.a).cast(DataTypes.STRING()),
                    t.a.cast(DataTypes.STRING())).execute().collect()
    offset = "0:00:00" if zone == "UTC" else "8:00:00"
    [(g, p, back, original)] = [tuple(r) for r in rows]
    assert (g, p) == (f"True|{offset}", f"True|{zone}")
    assert back.startswith("1970-01-02 00:00:00.123") and original == "1970-01-02 00:00:00.123"


def test_print_sink_shows_timestamp_ltz_as_an_instant(capsys: Any) -> None:
    # PyFlink 2.3's print connector (measured): TIMESTAMP_LTZ as the UTC instant with 'Z',
    # TIMESTAMP as the wall-clock time; session zone Asia/Shanghai.
    from pyflink_table import EnvironmentSettings

    env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    env.get_config().set("table.local-time-zone", "Asia/Shanghai")
    env.execute_sql("CREATE TABLE ltz_sink(a TIMESTAMP_LTZ(3), b TIMESTAMP(3), c TIMESTAMP_LTZ(6)) "
                    "WITH ('connector'='print')")
    capsys.readouterr()
    env.execute_sql("INSERT INTO ltz_sink SELECT CAST(TIMESTAMP '1970-01-02 00:00:00.123' AS TIMESTAMP_LTZ(3)), "
                    "TIMESTAMP '1970-01-02 00:00:00.123', "
                    "CAST(TIMESTAMP '1970-01-02 00:00:00.123456' AS TIMESTAMP_LTZ(6))").wait()
    assert capsys.readouterr().out.splitlines() == [
        "+I[1970-01-01T16:00:00.123Z, 1970-01-02T00:00:00.123, 1970-01-01T16:00:00.123456Z]"]


def test_from_elements_of_row_expressions(t_env: TableEnvironment) -> None:
    # PyFlink 2.3 (measured): rows given as row(...) expressions, named and typed by the schema
    from pyflink_table.expressions import lit, row

    schema = DataTypes.ROW([DataTypes.FIELD("a", DataTypes.BIGINT()), DataTypes.FIELD("b", DataTypes.STRING()),
                            DataTypes.FIELD("c", DataTypes.FLOAT())])
    t = t_env.from_elements([row(1, "abc", 2.0), row(2, "def", 3.0)], schema)
    assert t.get_schema().get_field_names() == ["a", "b", "c"]
    assert [to_type_string(x).replace(" NOT NULL", "") for x in t.get_schema().get_field_data_types()] == \
        ["BIGINT", "STRING", "FLOAT"]
    assert sorted_rows(t) == [(1, "abc", 2.0), (2, "def", 3.0)]
    with pytest.raises(ValueError, match="doesn't support part of the elements are Expression"):
        t_env.from_elements([row(1, "abc", 2.0), (2, "def", 3.0)], schema)
    assert sorted_rows(t_env.from_elements([lit(1), lit(2)], DataTypes.BIGINT())) == [(1,), (2,)]


def test_resolved_schema_physical_and_equality(t_env: TableEnvironment) -> None:
    # PyFlink 2.3's test_schema_operation: the resolved schema of from_elements equals a physical one
    from pyflink_table.catalog import ResolvedSchema

    t = t_env.from_elements([(1, "Hi", "Hello")], ["a", "b", "c"])
    expected = ResolvedSchema.physical(["a", "b", "c"], [DataTypes.BIGINT(), DataTypes.STRING(), DataTypes.STRING()])
    assert t.get_resolved_schema() == expected
    assert t.get_resolved_schema() != ResolvedSchema.physical(["a", "b", "c"], [DataTypes.INT()] * 3)
    with pytest.raises(ValueError):
        ResolvedSchema.physical(["a"], [])


class _Point:
    def __init__(self, x: float, y: float) -> None:
        self.x, self.y = x, y


def test_from_elements_serializes_user_defined_types(t_env: TableEnvironment, capsys: Any) -> None:
    # PyFlink 2.3's test_from_element: a UDT column holds the serialized form, printed [3.0, 4.0]
    from pyflink_table.types import UserDefinedType

    class PointUDT(UserDefinedType):
        @classmethod
        def sql_type(cls) -> Any:
            return DataTypes.ARRAY(DataTypes.DOUBLE(False))

        @classmethod
        def module(cls) -> str:
            return "tests.test_porting_fixes"

        def serialize(self, obj: Any) -> Any:
            return [obj.x, obj.y]

        def deserialize(self, datum: Any) -> Any:
            return _Point(datum[0], datum[1])

    schema = DataTypes.ROW([DataTypes.FIELD("a", DataTypes.BIGINT()), DataTypes.FIELD("q", PointUDT())])
    t = t_env.from_elements([(1, _Point(3.0, 4.0)), (2, None)], schema)
    t_env.execute_sql("CREATE TABLE udt_sink(a BIGINT, q ARRAY<DOUBLE NOT NULL>) WITH ('connector' = 'print')")
    capsys.readouterr()
    t.execute_insert("udt_sink").wait()
    assert sorted(capsys.readouterr().out.splitlines()) == ["+I[1, [3.0, 4.0]]", "+I[2, null]"]


@pytest.mark.parametrize("streaming", [False, True])
def test_proctime_computed_column_with_legacy_keys(tmp_path: Any, streaming: bool) -> None:
    # PyFlink 2.3's stream pandas UDAF tests declare `protime AS PROCTIME()` on a legacy-keyed csv table
    from pyflink_table import EnvironmentSettings

    path = os.path.join(str(tmp_path), "src.csv")
    with open(path, "w") as f:
        f.write("1,2,3\n4,5,6\n")
    env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode() if streaming
                                  else EnvironmentSettings.in_batch_mode())
    env.execute_sql(f"""CREATE TABLE src(a TINYINT, b SMALLINT, c SMALLINT, protime AS PROCTIME()) WITH (
        'connector.type' = 'filesystem', 'format.type' = 'csv', 'connector.path' = '{path}',
        'format.ignore-first-line' = 'false', 'format.field-delimiter' = ',')""")
    t = env.from_path("src")
    assert sorted(t.select(t.a, t.b).to_pandas().values.tolist()) == [[1, 2], [4, 5]]


def test_from_elements_value_of_wrong_type_is_a_type_error(t_env: TableEnvironment) -> None:
    # PyFlink 2.3's test_row_form_consistency_with_elements: a nested row value of the wrong type
    # raises TypeError (here a ValidationException that is also a TypeError)
    from pyflink_table.errors import ValidationException

    schema = DataTypes.ROW([DataTypes.FIELD("col", DataTypes.ARRAY(DataTypes.ROW(
        [DataTypes.FIELD("a", DataTypes.STRING()), DataTypes.FIELD("b", DataTypes.BOOLEAN())])))])
    for bad in ([("pyflink", True), (True, "pyflink")], [Row(a=True, b="pyflink")]):
        with pytest.raises(TypeError) as info:
            t_env.from_elements([(bad,)], schema)
        assert isinstance(info.value, ValidationException)
    assert [tuple(r) for r in t_env.from_elements([([Row("pyflink", True)],)], schema).execute().collect()] == \
        [([Row("pyflink", True)],)]


@pytest.mark.parametrize("streaming", [False, True])
def test_legacy_csv_reads_the_first_fields_of_a_longer_record(tmp_path: Any, streaming: bool) -> None:
    # PyFlink 2.3, batch and streaming: the legacy csv format ('format.type' = 'csv') gives
    # [(1, 'a'), (2, 'b'), (3, 'c')] for this file; the current 'format' = 'csv' fails on the first line
    from pyflink_table import EnvironmentSettings
    from pyflink_table.errors import TableException

    path = os.path.join(str(tmp_path), "x.csv")
    with open(path, "w") as f:
        f.write('1,a,x\n2,b\n3,c,"y",z\n')
    env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode() if streaming
                                  else EnvironmentSettings.in_batch_mode())
    env.execute_sql(f"""CREATE TABLE legacy(a INT, b STRING) WITH ('connector.type' = 'filesystem',
        'format.type' = 'csv', 'connector.path' = '{path}', 'format.field-delimiter' = ',')""")
    assert sorted(tuple(r) for r in env.from_path("legacy").execute().collect()) == [(1, "a"), (2, "b"), (3, "c")]
    env.execute_sql(f"""CREATE TABLE current_csv(a INT, b STRING) WITH ('connector' = 'filesystem',
        'format' = 'csv', 'path' = '{path}')""")
    with pytest.raises(TableException, match="row length mismatch"):
        list(env.from_path("current_csv").execute().collect())


def test_worker_memory_limit_is_the_configured_one(tmp_path: Any) -> None:
    # Flink's worker variable _PYTHON_WORKER_MEMORY_LIMIT is set when the worker memory is known:
    # python.worker.memory.size (2g here) over the executor's cores (one in local mode), in bytes,
    # which Spark's worker enforces; without the option there is no limit and no variable. A
    # SparkContext is configured once per process, so each case runs in its own.
    import subprocess
    import sys

    program = tmp_path / "job.py"
    program.write_text(
        "import sys\n"
        "from pyflink_table import Configuration, DataTypes, EnvironmentSettings, TableEnvironment\n"
        "from pyflink_table.udf import udf\n"
        "c = Configuration()\n"
        "c.set_string('spark.master', 'local[2]')\n"
        "if sys.argv[1] != '-':\n"
        "    c.set_string('python.worker.memory.size', sys.argv[1])\n"
        "t = TableEnvironment.create(EnvironmentSettings.new_instance().in_batch_mode().with_configuration(c).build())\n"
        "limit = udf(lambda x: __import__('os').environ.get('_PYTHON_WORKER_MEMORY_LIMIT', 'unset'),\n"
        "            result_type=DataTypes.STRING())\n"
        "src = t.from_elements([(1,)], ['a'])\n"
        "print('LIMIT', [r[0] for r in src.select(limit(src.a)).execute().collect()])\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    for size, expected in (("2g", str(2 * 1024 ** 3)), ("-", "unset")):
        done = subprocess.run([sys.executable, str(program), size], env=env, capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        assert f"LIMIT ['{expected}']" in done.stdout


def test_hive_dialect_refuses_what_needs_its_parser(t_env: TableEnvironment) -> None:
    # PyFlink 2.3 without Hive's jars (measured): SqlDialect.HIVE is set and read back; every call
    # that needs the dialect's parser then raises ValidationException (SQL, from_elements,
    # from_path, create_temporary_view, execute_insert, add_insert_sql, ...), while tables built
    # before still run; switching back to DEFAULT restores SQL.
    from pyflink_table import SqlDialect
    from pyflink_table.errors import ValidationException

    t = t_env.from_elements([(1, "x")], ["a", "b"])
    t_env.create_temporary_view("v", t)
    t_env.execute_sql("CREATE TABLE bh (a BIGINT) WITH ('connector' = 'blackhole')")
    t_env.get_config().set_sql_dialect(SqlDialect.HIVE)
    assert t_env.get_config().get_sql_dialect() == SqlDialect.HIVE
    message = (r"^Could not find any factory for identifier 'hive' that implements "
               r"'org\.apache\.flink\.table\.delegation\.ParserFactory' in the classpath\. "
               r"Available factory identifiers are: default$")
    for call in (lambda: t_env.sql_query("SELECT 1"), lambda: t_env.execute_sql("SHOW TABLES"),
                 lambda: t_env.explain_sql("SELECT 1"), lambda: t_env.from_elements([(1,)], ["a"]),
                 lambda: t_env.from_path("v"), lambda: t_env.create_temporary_view("v2", t),
                 lambda: t.select(col("a").cast(DataTypes.BIGINT())).execute_insert("bh"),
                 lambda: t_env.create_statement_set().add_insert_sql("INSERT INTO bh SELECT 1")):
        with pytest.raises(ValidationException, match=message):
            call()
    assert sorted_rows(t.select(col("a") + 1, col("b"))) == [(2, "x")]
    t_env.get_config().set_sql_dialect(SqlDialect.DEFAULT)
    assert sorted_rows(t_env.sql_query("SELECT a FROM v")) == [(1,)]
