"""``TableEnvironment``: the entry point. It owns a Spark session and the JVM half of the environment."""

from __future__ import annotations

import itertools
import json
import logging
import signal
import sys
import threading
import warnings
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Sequence, Set, Tuple, Union

from pyflink_table import _options, _protocol
from pyflink_table.configuration import Configuration
from pyflink_table.environment_settings import EnvironmentSettings
from pyflink_table.errors import (TableException, ValidationException, check_argument, java_errors,
                                  quiet_spark_error_logs)
from pyflink_table.java_gateway import LOCAL_TASK_ATTEMPTS, bridge, root_spark_session, to_string_array
from pyflink_table.row import Row
from pyflink_table.table import Table
from pyflink_table.table_config import TableConfig
from pyflink_table.table_result import ResultKind, TableResult
from pyflink_table.types import (BigIntType, DataType, RowType, UserDefinedType, _infer_type, _merge_type,
                                 parse_type_string, to_type_string)

if TYPE_CHECKING:
    import pandas as pd

    from pyflink_table.catalog import Catalog, CatalogDescriptor
    from pyflink_table.module import Module, ModuleEntry
    from pyspark.sql import SparkSession

__all__ = ["StreamTableEnvironment", "TableEnvironment"]


_ANONYMOUS_SINK_IDS = itertools.count(1)


@java_errors
class TableEnvironment:
    """The entry point of a Table API program: sources, SQL, functions and configuration.

    By default it runs on embedded local Spark; set ``spark.master`` (and any ``spark.*`` option)
    in the settings' configuration to use a cluster.

    Example::

        >>> t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
        >>> t_env.from_elements([(1, 'Hi')], ['a', 'b']).execute().print()
    """

    def __init__(self, j_env: Any, spark: "SparkSession", config: TableConfig, streaming: bool) -> None:
        self._j_env = j_env
        self._spark = spark
        self._config = config
        self._streaming = streaming
        self._pending_inserts: List[Any] = []  # TablePipeline objects not executed yet
        self._modules_in_use: List[str] = ["core"]  # list_modules/use_modules
        self._core_loaded = True  # until unload_module('core')
        # Check-then-register of functions is one step for threads sharing this environment.
        self._registration_lock = threading.Lock()
        # Lower-case names of the catalog functions (create_function, CREATE FUNCTION): they live in
        # the session like temporary ones, but DROP [TEMPORARY] FUNCTION tells the two apart.
        self._catalog_functions: Set[str] = set()
        self._last_insert: Any = None  # the latest background insert (_batch_jobs.BatchJob)
        # What the worker template handed to _j_env was built from (_streaming.offer_worker_template).
        self._worker_template_key: Any = None
        config._attach(self._apply_option)
        _install_interrupt_handler()

    @staticmethod
    def create(environment_settings: Union[EnvironmentSettings, TableConfig, Configuration, None] = None
               ) -> "TableEnvironment":
        """A new environment; starts embedded Spark on first use.

        :param environment_settings: :class:`EnvironmentSettings`, a :class:`Configuration`, or a
            FLIP-38 :class:`TableConfig`; batch mode when omitted.
        """
        if environment_settings is None:
            environment_settings = EnvironmentSettings.in_batch_mode()
        if isinstance(environment_settings, TableConfig):
            config = environment_settings
            streaming = str(config.get("execution.runtime-mode", "streaming")).lower() == "streaming"
        elif isinstance(environment_settings, Configuration):
            settings = EnvironmentSettings.from_configuration(environment_settings)
            config = TableConfig(settings.to_configuration())
            streaming = settings.is_streaming_mode()
        elif isinstance(environment_settings, EnvironmentSettings):
            config = TableConfig(environment_settings.to_configuration())
            streaming = environment_settings.is_streaming_mode()
        else:
            raise TypeError(
                "TableEnvironment.create takes EnvironmentSettings, TableConfig or Configuration, got "
                f"{type(environment_settings).__name__}"
            )
        static = {}
        for key, value in config.to_dict().items():
            mapped = _options.spark_setting(key, value)
            if mapped is not None and mapped[2] and mapped[1]:
                static[mapped[0]] = mapped[1]
            if key == "pyflink_table.log.level":
                static[key] = value
        default_master = None
        if "parallelism.default" in config.to_dict():
            default_master = f"local[{config.get('parallelism.default')},{LOCAL_TASK_ATTEMPTS}]"
        root = root_spark_session(static, default_master)
        return TableEnvironment._on_session(root, config, streaming)

    @staticmethod
    def _on_session(root: "SparkSession", config: TableConfig, streaming: bool) -> "TableEnvironment":
        from pyspark.sql import SparkSession

        quiet_spark_error_logs()
        j_env = bridge().session.TableEnv.create(root._jsparkSession, streaming)
        spark = SparkSession(root.sparkContext, j_env.sparkSession())
        return TableEnvironment(j_env, spark, config, streaming)

    @staticmethod
    def from_spark_session(spark: "SparkSession", environment_settings: Optional[EnvironmentSettings] = None
                           ) -> "TableEnvironment":
        """An environment on an existing SparkSession (started with the bridge jar on its class path)."""
        from pyflink_table import java_gateway

        settings = environment_settings or EnvironmentSettings.in_batch_mode()
        java_gateway._check_bridge_loadable(spark)
        return TableEnvironment._on_session(spark, TableConfig(settings.to_configuration()),
                                            settings.is_streaming_mode())

    @staticmethod
    def get_table_environment(table_config: TableConfig) -> "TableEnvironment":
        """FLIP-38 spelling of :meth:`create` with a :class:`TableConfig`."""
        return TableEnvironment.create(table_config)

    # --- configuration ------------------------------------------------------------------------

    def get_config(self) -> TableConfig:
        """The options of this environment."""
        return self._config

    def _apply_option(self, key: str, value: str) -> None:
        if self._streaming:
            from pyflink_table import _streaming

            _streaming.check_option(key, value)
        mapped = _options.spark_setting(key, value)
        if mapped is None:
            return
        spark_key, spark_value, static = mapped
        if static:
            return  # applied at start-up only (a running SparkContext cannot change it)
        try:
            if spark_value == "":
                self._spark.conf.unset(spark_key)
            else:
                self._spark.conf.set(spark_key, spark_value)
        except Exception as e:  # Spark refuses the value (IllegalArgumentException): say which
            message = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise ValueError(f"Spark setting '{spark_key}' = '{spark_value}' was refused: {message}") from None

    def set_parallelism(self, parallelism: int) -> None:
        """FLIP-38: the default parallelism of later jobs."""
        self._config.set("parallelism.default", str(parallelism))

    def _before_job(self) -> None:
        """Per-job settings that live on the SparkContext rather than the session."""
        name = self._config.get("pipeline.name")
        if name:
            self._spark.sparkContext.setJobDescription(name)
        self._udf_before_job()
        # Stateful operators without Python functions of their own run in this environment's workers.
        self._offer_worker_template()

    def get_spark_session(self) -> "SparkSession":
        """The Spark session this environment runs on (for interoperating with PySpark)."""
        return self._spark

    # --- sources ------------------------------------------------------------------------------

    def from_elements(self, elements: Iterable[Any], schema: Union[DataType, Sequence[str], None] = None,
                      verify_schema: bool = True) -> Table:
        """A table from Python values.

        :param elements: rows as tuples, lists or :class:`Row`; or atomic values with an atomic schema.
        :param schema: a ``DataTypes.ROW`` type, a list of column names (types inferred), or None
            (names ``_1``, ``_2``, ... and inferred types).
        :param verify_schema: check every value against the schema.

        Example::

            >>> t_env.from_elements([(1, 'Hi'), (2, 'Hello')], ['a', 'b'])
        """
        self._config._check_parser()
        data = list(elements)
        from pyflink_table.expression import Expression

        if data and all(isinstance(e, Expression) for e in data):
            return self._from_expressions(data, schema)
        if any(isinstance(e, Expression) for e in data):
            # PyFlink's message
            raise ValueError("It doesn't support part of the elements are Expression, while the others are not.")
        names: List[str]
        types: List[DataType]
        if isinstance(schema, RowType):
            names, types = schema.field_names(), schema.field_types()
        elif isinstance(schema, DataType):
            names, types = ["f0"], [schema]
            data = [(v,) for v in data]
        else:
            names, types = _infer_schema_from_data(data, list(schema) if schema is not None else None)
        rows = [_to_spark_value(_as_tuple(r, names)) for r in data]
        udts = [i for i, t in enumerate(types) if isinstance(t, UserDefinedType)]
        if udts:
            # a user-defined type's values are stored in its SQL form (PyFlink serializes them too)
            rows = [tuple(types[i].serialize(v) if i in udts and v is not None and not isinstance(v, (list, tuple))  # type: ignore[attr-defined]
                          else v for i, v in enumerate(r)) for r in rows]
        return self._create_table(rows, names, types, verify_schema)

    def _from_expressions(self, elements: List[Any], schema: Any) -> Table:
        """Rows given as expressions (``row(1, 'a')``, ``lit(1)``), each evaluated once: a ROW
        expression gives one column per field, anything else one column ``f0``; a ROW schema names
        and casts the columns, as Flink's ``fromValues``."""
        from pyflink_table.expressions import col

        one = self.from_elements([(0,)], ["f0"])
        parts = []
        for e in elements:
            part = one.select(e.alias("f0"))
            t = part.get_schema().get_field_data_types()[0]
            if isinstance(t, RowType):
                part = part.select(*[col("f0").get(i).alias(n) for i, n in enumerate(t.field_names())])
            if isinstance(schema, RowType):
                if len(schema.field_names()) != len(part.get_schema().get_field_names()):
                    raise ValidationException(
                        f"Row {e} has {len(part.get_schema().get_field_names())} field(s), but the schema has "
                        f"{len(schema.field_names())}: {', '.join(schema.field_names())}.")
                part = part.select(*[col(c).cast(ft).alias(n) for c, n, ft in
                                     zip(part.get_schema().get_field_names(), schema.field_names(),
                                         schema.field_types())])
            elif isinstance(schema, DataType):
                part = part.select(col("f0").cast(schema))
            parts.append(part)
        out = parts[0]
        for p in parts[1:]:
            out = out.union_all(p)
        return out

    def from_collection(self, data: Iterable[Any], fields: Union[str, Sequence[str], None] = None) -> Table:
        """FLIP-38: :meth:`from_elements` with names as ``"a, b"``."""
        names = [f.strip() for f in fields.split(",")] if isinstance(fields, str) else fields
        return self.from_elements(data, names)

    def _create_table(self, rows: List[Any], names: List[str], types: List[DataType], verify: bool) -> Table:
        schema = _spark_schema(names, types)
        if verify:
            _check_string_elements(rows, schema)
        try:
            df = self._spark.createDataFrame(rows, schema=schema, verifySchema=verify)
        except Exception as e:  # noqa: BLE001 - PySpark's error names neither row nor column: find them
            _raise_bad_element(rows, schema, e)
            raise
        return Table(self._j_env.fromDataset(df._jdf), self)

    def from_pandas(self, pdf: "pd.DataFrame", schema: Union[RowType, Sequence[str], Sequence[DataType], None] = None,
                    splits_num: int = 1) -> Table:
        """A table from a pandas DataFrame, transferred with Arrow.

        :param schema: a ``DataTypes.ROW`` type, column names, or column types; inferred when None.
        """
        self._config._check_parser()
        if isinstance(schema, RowType):
            names, types = schema.field_names(), schema.field_types()
        elif schema is not None and len(schema) > 0 and isinstance(list(schema)[0], DataType):
            names, types = [str(c) for c in pdf.columns], list(schema)  # type: ignore[arg-type]
        else:
            # Types as PyFlink infers them: from the Arrow schema of the DataFrame.
            names = [str(c) for c in (schema if schema is not None else pdf.columns)]
            types = _pandas_types(pdf)
        spark_schema = _spark_schema(names, types)
        if len(pdf.columns) < len(names):
            raise _BadPandasData(
                f"The DataFrame has {len(pdf.columns)} columns ({', '.join(map(str, pdf.columns))}), but the schema "
                f"has {len(names)}: {', '.join(names)}; column '{names[len(pdf.columns)]}' is missing.")
        # As PyFlink: columns are taken by position, and columns beyond the schema's are left out.
        pdf = pdf.iloc[:, :len(names)].set_axis(names, axis=1)
        _check_pandas_columns(pdf, spark_schema, types, only_strings=True)
        # When Arrow cannot convert a column, PySpark warns and tries its row-by-row conversion: when
        # that fails too, the user gets only our error naming the column, not the warning before it.
        error: Optional[Exception] = None
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                df = self._spark.createDataFrame(pdf, schema=spark_schema)
            except Exception as e:  # noqa: BLE001 - PySpark's error names no column: find it below
                error = e
        if error is not None:
            _check_pandas_columns(pdf, spark_schema, types, only_strings=False)
        for w in caught:  # converted, or not our error after all: the warnings as they were
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        if error is not None:
            raise error
        return Table(self._j_env.fromDataset(df._jdf), self)

    def from_path(self, path: str) -> Table:
        """The registered table or view at ``path``."""
        self._config._check_parser()
        check_argument("TableEnvironment.from_path", "path", path, str)
        return Table(self._j_env.fromPath(path), self)

    def scan(self, *table_path: str) -> Table:
        """FLIP-38 spelling of :meth:`from_path`."""
        return self.from_path(".".join(table_path))

    # --- catalog objects ----------------------------------------------------------------------

    def create_temporary_view(self, view_path: str, table_or_data: Any, *fields: Any) -> None:
        """Register a table (or a pandas DataFrame / elements) as a temporary view."""
        self._config._check_parser()
        check_argument("TableEnvironment.create_temporary_view", "view_path", view_path, str)
        table = table_or_data if isinstance(table_or_data, Table) else self.from_elements(table_or_data)
        if fields:
            table = table.alias(*[str(f) for f in fields])
        self._j_env.createTemporaryView(view_path, table._j_table)

    def register_table(self, name: str, table: Table) -> None:
        """FLIP-38 spelling of :meth:`create_temporary_view`."""
        self.create_temporary_view(name, table)

    def drop_temporary_view(self, view_path: str) -> bool:
        """Drop a temporary view; False if there was none."""
        return bool(self._j_env.dropTemporaryView(view_path))

    def drop_temporary_table(self, table_path: str) -> bool:
        """Drop a temporary table; False if there was none."""
        return self.drop_temporary_view(table_path)

    def list_tables(self) -> List[str]:
        """Names of all tables and views of the current database, temporary ones included."""
        return list(self._j_env.listTables())

    def list_views(self) -> List[str]:
        """Names of all views of the current database."""
        return list(self._j_env.connectors().listViews(False))

    def list_temporary_tables(self) -> List[str]:
        """Names of the temporary tables and views."""
        return list(self._j_env.listTemporaryViews())

    def list_temporary_views(self) -> List[str]:
        """Names of the temporary views."""
        return list(self._j_env.connectors().listViews(True))

    def list_user_defined_functions(self) -> List[str]:
        """Names of the registered user-defined functions."""
        return list(self._j_env.listUserDefinedFunctions())

    def list_functions(self) -> List[str]:
        """Names of all functions: built-in and user-defined."""
        return sorted(set(self._j_env.listBuiltinFunctions()) | set(self.list_user_defined_functions()))

    # --- user-defined functions and Python dependencies ----------------

    def _register_user_function(self, name: str, function: Any, system: bool, ignore_if_exists: bool = False) -> None:
        from pyflink_table import udf as udf_module

        wrapper = function
        if not isinstance(wrapper, udf_module.UserDefinedFunctionWrapper):
            aggregate_class = udf_module.AggregateFunction
            if aggregate_class is not None and isinstance(function, aggregate_class):
                wrapper = udf_module.udaf(function)
            else:
                raise ValidationException(
                    f"Function '{name}' must be wrapped with udf(), udtf(), udaf() or udtaf() before it is "
                    f"registered; got {type(function).__name__}.")
        with self._registration_lock:
            catalog = self._function_catalog()
            exists = catalog.hasSystem(name) if system else catalog.hasTemporary(name)
            if exists:
                if ignore_if_exists:
                    return
                kind = "temporary system function" if system else "temporary catalog function"
                raise ValidationException(
                    f"Could not register {kind} '{name}': a function of that name already exists.")
            j_function = wrapper._java_user_function(self)
            if system:
                catalog.registerSystem(name, j_function)
            else:
                catalog.registerTemporary(name, j_function)
            # SQL sees the function under its registered name too, unless a temporary system function
            # or a Flink built-in of that name hides a temporary catalog function (Flink's order).
            if system or not (catalog.shadowedByBuiltin(name) or catalog.hasSystem(name)):
                # Replaced without Spark's "replaced a previously registered function" warning.
                self._spark.sql(f"DROP TEMPORARY FUNCTION IF EXISTS `{name}`")
                j_function.registerForSql(self._j_env.sparkSession(), name)

    def _function_catalog(self) -> Any:
        # A public Java field: Py4J reaches fields through reflection only.
        return self._j_env.getClass().getField("functions").get(self._j_env)

    def _drop_user_function(self, name: str, system: bool) -> bool:
        catalog = self._function_catalog()
        dropped = bool(catalog.dropSystem(name) if system else catalog.dropTemporary(name))
        if dropped:
            remaining = catalog.user(name)
            if remaining is None:
                self._spark.sql(f"DROP TEMPORARY FUNCTION IF EXISTS `{name}`")
            elif system:
                # The temporary catalog function the dropped system function hid is SQL's again.
                self._spark.sql(f"DROP TEMPORARY FUNCTION IF EXISTS `{name}`")
                remaining.registerForSql(self._j_env.sparkSession(), name)
        return dropped

    def create_temporary_system_function(self, name: str, function: Any) -> None:
        """Register a Python function (from ``udf``, ``udtf``, ``udaf``, ``udtaf``) under ``name``
        for all catalogs; it shadows a built-in function of the same name.

        :param name: the name to call it by in SQL, ``call(name, ...)`` and string expressions.
        :param function: the wrapped function (or an AggregateFunction instance).
        """
        self._register_user_function(name, function, system=True)

    def create_temporary_function(self, path: str, function: Any) -> None:
        """Register a Python function as a temporary catalog function under ``path``.

        :param path: the function's name (``[catalog.][database.]name``).
        :param function: the wrapped function (or an AggregateFunction instance).
        """
        self._register_user_function(self._function_name(path), function, system=False)

    def create_function(self, path: str, function: Any, ignore_if_exists: bool = False) -> None:
        """Register a Python function as a catalog function; kept for the session only (Spark's
        catalog cannot store Python functions), like :meth:`create_temporary_function`.

        :param path: the function's name.
        :param function: the wrapped function.
        :param ignore_if_exists: do nothing when the name is taken instead of raising.
        """
        if isinstance(function, str):
            raise TableException(
                f"Unsupported: create_function with a class name ('{function}'); pass a function "
                "wrapped with udf(), udtf(), udaf() or udtaf().")
        self._register_user_function(self._function_name(path), function, system=False,
                                     ignore_if_exists=ignore_if_exists)
        self._catalog_functions.add(self._function_name(path).lower())

    def register_function(self, name: str, function: Any) -> None:
        """FLIP-38/58: register a Python function as a temporary system function.

        :param name: the function's name.
        :param function: the wrapped function.
        """
        self._register_user_function(name, function, system=True)

    def drop_temporary_system_function(self, name: str) -> bool:
        """Drop a temporary system function; False when there was none."""
        return self._drop_user_function(name, system=True)

    def drop_temporary_function(self, path: str) -> bool:
        """Drop a temporary catalog function; False when there was none."""
        return self._drop_user_function(self._function_name(path), system=False)

    def drop_function(self, path: str) -> bool:
        """Drop a function registered with :meth:`create_function`; False when there was none."""
        self._catalog_functions.discard(self._function_name(path).lower())
        return self._drop_user_function(self._function_name(path), system=False)

    def create_java_temporary_system_function(self, name: str, function_class_name: str) -> None:
        """Not supported: Java/Scala Flink functions cannot run on Spark."""
        raise TableException(f"Unsupported: Java user-defined functions ({function_class_name}); "
                             "write the function in Python with udf().")

    def create_java_temporary_function(self, path: str, function_class_name: str) -> None:
        """Not supported: Java/Scala Flink functions cannot run on Spark."""
        raise TableException(f"Unsupported: Java user-defined functions ({function_class_name}); "
                             "write the function in Python with udf().")

    def create_java_function(self, path: str, function_class_name: str, ignore_if_exists: Optional[bool] = None
                             ) -> None:
        """Not supported: Java/Scala Flink functions cannot run on Spark."""
        raise TableException(f"Unsupported: Java user-defined functions ({function_class_name}); "
                             "write the function in Python with udf().")

    @staticmethod
    def _function_name(path: str) -> str:
        # Temporary functions live in the session: the catalog and database parts are dropped.
        return path.split(".")[-1].strip("`")

    def get_metrics(self) -> Dict[str, Any]:
        """Metric values reported so far by the Python functions' metric groups (see
        :mod:`pyflink_table.metrics`), by full name such as ``my_udf.rows``; totals over all jobs
        of this process. Counters and gauges give numbers, meters and distributions dicts.

        CSV and JSON sources read with ``*.ignore-parse-errors`` add counters named
        ``<table>.skipped-parse-errors`` (malformed rows dropped) and
        ``<table>.nulled-parse-errors`` (rows kept with NULL for unparsable or missing fields).
        """
        import logging

        from pyflink_table._function_wrapper import _collected_metrics

        values = _collected_metrics()
        # Counted in the JVM by the file sources (see docs/connectors.rst).
        for name, count in bridge().connectors.ParseErrors.counts().items():
            values[str(name)] = int(count)
        logging.getLogger("pyflink_table.metrics").info("UDF metrics: %s", values)
        return values

    def add_python_file(self, file_path: str) -> None:
        """Ship a Python file, package directory or zip to the workers' ``sys.path``.

        :param file_path: a ``.py`` file, a ``.zip``/``.egg``, or a directory (zipped on the fly).
        """
        from pyflink_table import _dependencies as _python_deps

        _python_deps.add_python_file(self._spark.sparkContext, file_path)

    def set_python_requirements(self, requirements_file_path: str, requirements_cache_dir: Optional[str] = None
                                ) -> None:
        """Install a requirements file with pip for the workers and ship the installed packages.

        Packages are installed with ``pip install --target`` into a temporary directory that is
        shipped as a zip on the workers' ``sys.path``, so they must be importable from a zip
        (pure Python). Compiled packages must be installed in the workers' interpreter instead.

        :param requirements_file_path: the requirements.txt file.
        :param requirements_cache_dir: a directory of downloaded packages to install from offline.
        """
        from pyflink_table import _dependencies as _python_deps

        _python_deps.set_python_requirements(self._spark.sparkContext, requirements_file_path,
                                             requirements_cache_dir)

    def add_python_archive(self, archive_path: str, target_dir: Optional[str] = None) -> None:
        """Ship an archive that is extracted in the workers; UDFs find its files under
        ``target_dir`` (default: the archive's file name) relative to their working directory.

        :param archive_path: a zip, tar, tar.gz or tgz file.
        :param target_dir: the directory name it is extracted into.
        """
        from pyflink_table import _dependencies as _python_deps

        _python_deps.add_python_archive(self._spark.sparkContext, archive_path, target_dir)

    def _udf_before_job(self) -> None:
        """Job parameters and shipped archives travel to the Python workers as local properties."""
        import json

        from pyflink_table import _dependencies as _python_deps
        from pyflink_table import _udf_logs
        from pyflink_table._worker import lifecycle

        sc = self._spark.sparkContext
        raw = self._config.get("pipeline.global-job-parameters")
        params = lifecycle.parse_job_parameters(raw) if raw else {}
        sc.setLocalProperty(_protocol.PROPERTY_JOB_PARAMETERS, json.dumps(params))
        sc.setLocalProperty(_protocol.PROPERTY_ARCHIVES, "1" if _python_deps.has_archives(sc) else "")
        _udf_logs.before_job(sc, self._config.get(_udf_logs.DEFAULT_LEVEL_OPTION),
                             self._config.get(_udf_logs.LEVEL_OVERRIDES_OPTION))
        # FunctionContext.get_number_of_parallel_subtasks (Python tasks cannot ask Spark for it)
        sc.setLocalProperty(_protocol.PROPERTY_PARALLELISM,
                            str(self._config.get("parallelism.default") or sc.defaultParallelism))
        bundle = self._config.get("python.fn-execution.bundle.size")
        self._spark.conf.set(_protocol.CONF_PYTHON_BUNDLE_SIZE, str(int(bundle)) if bundle else "100000")
        if bundle:
            batch = int(self._config.get("python.fn-execution.arrow.batch.size") or 10000)
            self._spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", str(min(batch, int(bundle))))
        for key in ("python.files", "python.archives", "python.requirements"):
            value = self._config.get(key)
            if value:
                _python_deps.apply_option(sc, key, value)

    # --- end of the UDF block -----------------------------------------------------------------

    # --- SQL ----------------------------------------------------------------------------------

    def sql_query(self, query: str) -> Table:
        """A table from a SQL query (Spark SQL, which reads most Flink SQL queries the same)."""
        self._config._check_parser()
        check_argument("TableEnvironment.sql_query", "query", query, str)
        self._offer_worker_template()
        return Table(self._j_env.sqlQuery(query), self)

    def execute_sql(self, stmt: str) -> TableResult:
        """Run one SQL statement: a query, SHOW, DESCRIBE, DDL or INSERT."""
        self._config._check_parser()
        check_argument("TableEnvironment.execute_sql", "stmt", stmt, str)
        statement = self._j_env.classifySql(stmt)  # classified once, by the bridge's SqlStatement
        if statement.runsInPython():  # function DDL names a Python object
            from pyflink_table import _function_ddl

            return _function_ddl.execute(self, statement)
        self._offer_worker_template()
        if statement.runsJob():
            self._await_inserts()
            self._before_job()  # INSERT and CREATE TABLE ... AS SELECT run a job here
        result = self._j_env.executeStatement(statement)
        printed = result.printed()
        if printed is not None and printed[0] == _protocol.STREAM_JOB:  # INSERTs of streams: they run in the background
            from pyflink_table import _streaming

            return _streaming.InsertResult([_streaming.start_insert(self, i) for i in list(printed)[1:]])
        _show_printed(printed)
        if result.rows() is None:
            if self._streaming and stmt.lstrip()[:7].upper() in ("INSERT ", "EXECUTE"):
                from pyflink_table import _streaming

                return _streaming.InsertResult([_streaming.FinishedJob()])  # bounded: already run
            return TableResult._ok()
        if statement.isExplain():
            return _ExplainResult._of_plan(Table(result.rows(), self))
        listing = statement.listsObjects()
        if self._streaming and not listing:
            from pyflink_table import _streaming

            return _streaming.execute(Table(result.rows(), self))
        return TableResult._of_table(Table(result.rows(), self), listing)

    def _offer_worker_template(self) -> None:
        """In streaming mode, before a query is planned: see :func:`_streaming.offer_worker_template`."""
        if self._streaming:
            from pyflink_table import _streaming

            _streaming.offer_worker_template(self)

    def sql_update(self, stmt: str) -> None:
        """FLIP-38: run a DDL or INSERT statement."""
        self.execute_sql(stmt).wait()

    def explain_sql(self, stmt: str, *extra_details: Any) -> str:
        """Spark's plans for a SQL query, or for an INSERT's query once it is checked against its sink
        (nothing is written), as ``EXPLAIN INSERT ...`` does."""
        self._config._check_parser()
        check_argument("TableEnvironment.explain_sql", "stmt", stmt, str)
        if self._j_env.classifySql(stmt).kindName() == "INSERT":
            return Table(self._j_env.connectors().prepareInsert(stmt).table(), self).explain(*extra_details)
        return self.sql_query(stmt).explain(*extra_details)

    # --- connectors, catalog and inserts ------------------------

    def connect(self, connector_descriptor: Any) -> Any:
        """FLIP-38: describe a connector table; continue with ``with_format``/``with_schema``.

        Example::

            >>> t_env.connect(FileSystem().path("/tmp/out.csv")) \\
            ...     .with_format(Csv().field_delimiter(",")) \\
            ...     .with_schema(Schema().field("a", DataTypes.STRING())) \\
            ...     .register_table_sink("Results")
        """
        from pyflink_table.descriptors import ConnectTableDescriptor

        return ConnectTableDescriptor(self, connector_descriptor)

    def create_table(self, path: str, descriptor: Any, ignoreIfExists: Optional[bool] = False) -> None:
        """Register a permanent connector table described by a :class:`~pyflink_table.TableDescriptor`.

        It lives in this environment's in-memory catalog (as in Flink's default catalog). As in Flink,
        the connector and its options are checked when the table is read or written, not here.

        :param ignoreIfExists: when a table of that path exists, do nothing instead of raising
            :class:`~pyflink_table.ValidationException` (PyFlink's parameter name).
        """
        self._config._check_parser()
        self._j_env.connectors().createTable(path, descriptor._java_definition(), False, bool(ignoreIfExists))

    def create_temporary_table(self, path: str, descriptor: Any, ignoreIfExists: Optional[bool] = False) -> None:
        """Register a temporary connector table described by a :class:`~pyflink_table.TableDescriptor`.

        :param ignoreIfExists: when a temporary table of that path exists, do nothing instead of
            raising :class:`~pyflink_table.ValidationException` (PyFlink's parameter name).
        """
        self._config._check_parser()
        self._j_env.connectors().createTable(path, descriptor._java_definition(), True, bool(ignoreIfExists))

    def from_descriptor(self, descriptor: Any) -> Table:
        """A table reading the connector described by ``descriptor`` (not registered under a name)."""
        self._config._check_parser()
        return Table(self._j_env.connectors().fromDefinition(descriptor._java_definition()), self)

    def register_table_source(self, name: str, table_source: Any) -> None:
        """FLIP-38: register a :class:`~pyflink_table.sources.CsvTableSource` as a temporary table."""
        self.create_temporary_table(name, table_source._descriptor)

    def register_table_sink(self, name: str, table_sink: Any = None, *legacy: Any) -> None:
        """FLIP-38: register a :class:`~pyflink_table.sinks.CsvTableSink` as a temporary table.

        The oldest form ``register_table_sink(name, field_names, field_types, sink)`` is accepted too.
        """
        sink = legacy[-1] if legacy else table_sink
        self.create_temporary_table(name, sink._descriptor)

    def create_statement_set(self) -> Any:
        """A :class:`~pyflink_table.StatementSet` to run several inserts together."""
        from pyflink_table.statement_set import StatementSet

        return StatementSet(self)

    def list_catalogs(self) -> List[str]:
        """The catalogs: only ``default_catalog`` (Spark's session catalog)."""
        return list(self._j_env.connectors().listCatalogs())

    def list_databases(self) -> List[str]:
        """The databases of the current catalog; ``default_database`` is Spark's ``default``."""
        return list(self._j_env.connectors().listDatabases())

    def use_catalog(self, catalog_name: str) -> None:
        """Set the current catalog (only ``default_catalog`` exists)."""
        self._j_env.connectors().useCatalog(catalog_name)

    def use_database(self, database_name: str) -> None:
        """Set the current database (create one with ``CREATE DATABASE``)."""
        self._j_env.connectors().useDatabase(database_name)

    def get_current_catalog(self) -> str:
        """The current catalog's name."""
        return str(self._j_env.connectors().currentCatalog())

    def get_current_database(self) -> str:
        """The current database's name."""
        return str(self._j_env.connectors().currentDatabase())

    def _check_insert(self, target: Any, table: Table) -> None:
        """Validate an insert (sink exists, columns match) without running it."""
        if isinstance(target, str):
            self._j_env.connectors().checkInsert(target, table._j_table)
        else:
            target._java_definition(table)

    def _submit_inserts(self, inserts: List[Tuple[Any, Table, bool]], one_sink: bool) -> TableResult:
        """Run inserts as Flink submits a job: in batch mode they are validated here and then run
        in the background (see :mod:`pyflink_table._batch_jobs`); the result's ``wait()`` blocks."""
        if self._streaming:
            results = [self._insert(target, table, overwrite) for target, table, overwrite in inserts]
            return results[0] if one_sink else _streaming_statement_set_result(results)
        from pyflink_table import _batch_jobs

        for target, table, _ in inserts:
            self._check_insert(target, table)
        sinks = [self._sink_name(inserts[0][0])] if one_sink else None

        def run() -> None:
            for target, table, overwrite in inserts:
                self._insert(target, table, overwrite, sinks[0] if sinks else None)

        with self._registration_lock:
            job = _batch_jobs.BatchJob(self._spark.sparkContext, run, self._last_insert)
            self._last_insert = job
        return _batch_jobs.BatchInsertResult([job], sinks)

    def _await_inserts(self) -> None:
        """Let the inserts submitted so far end first (a synchronous write keeps their order)."""
        job = self._last_insert
        if job is not None:
            job._thread.join()

    def _sink_name(self, target: Any) -> str:
        # as Flink: one BIGINT column per sink, named by the sink, holding -1 (affected rows unknown)
        if isinstance(target, str):
            return str(self._object_identifier(target).as_summary_string())
        return f"*anonymous_{target.get_options().get('connector')}${next(_ANONYMOUS_SINK_IDS)}*"

    def _insert(self, target: Any, table: Table, overwrite: bool, sink: Optional[str] = None) -> TableResult:
        self._before_job()
        if isinstance(target, str):
            printed = self._j_env.insertInto(target, table._j_table, overwrite)
        else:
            printed = self._j_env.connectors().insertIntoDescriptor(target._java_definition(table), table._j_table,
                                                                    overwrite)
        if sink is None:
            sink = self._sink_name(target)
        if printed is not None and printed[0] == _protocol.STREAM_JOB:  # an unbounded input: runs in the background
            from pyflink_table import _streaming

            return _streaming.InsertResult([_streaming.start_insert(self, printed[1])], [sink])
        _show_printed(printed)
        if self._streaming:  # a bounded input: the job has run; its client reports FINISHED
            from pyflink_table import _streaming

            return _streaming.InsertResult([_streaming.FinishedJob()], [sink])
        return TableResult([sink], [BigIntType()], ResultKind.SUCCESS_WITH_CONTENT, lambda: [Row(-1)])

    # --- end of the connectors block ----------------------------------------------------------

    # --- permanent views, drops, catalogs and modules -------------

    def create_view(self, view_path: str, table: Table, ignore_if_exists: Optional[bool] = False) -> None:
        """Register ``table`` as a permanent view of the catalog (for the life of this environment).

        :param view_path: ``[catalog.][database.]name``.
        :param table: the view's content.
        :param ignore_if_exists: do nothing if a table or view of that name exists; else raise
            :class:`~pyflink_table.ValidationException`. Temporary and permanent objects share one
            namespace here, so a temporary view of the same name counts as existing.
        """
        self._j_env.connectors().createView(view_path, table._j_table, bool(ignore_if_exists))

    def drop_table(self, table_path: str, ignore_if_not_exists: Optional[bool] = True) -> bool:
        """Drop a permanent table; True if one was removed.

        :param ignore_if_not_exists: return False when there is no such table (the default); else
            raise :class:`~pyflink_table.ValidationException`.
        :raises ValidationException: when a temporary table of that name exists (drop it first
            with :meth:`drop_temporary_table`).
        """
        return bool(self._j_env.connectors().dropPermanent(table_path, False, bool(ignore_if_not_exists)))

    def drop_view(self, view_path: str, ignore_if_not_exists: Optional[bool] = True) -> bool:
        """Drop a permanent view; True if one was removed.

        :param ignore_if_not_exists: return False when there is no such view (the default); else
            raise :class:`~pyflink_table.ValidationException`.
        :raises ValidationException: when a temporary view of that name exists (drop it first with
            :meth:`drop_temporary_view`).
        """
        return bool(self._j_env.connectors().dropPermanent(view_path, True, bool(ignore_if_not_exists)))

    def get_catalog(self, catalog_name: str) -> Optional["Catalog"]:
        """The catalog named ``catalog_name``, or None; only ``default_catalog`` exists."""
        from pyflink_table.catalog import Catalog

        return Catalog(self) if catalog_name in self.list_catalogs() else None

    def create_catalog(self, catalog_name: str, catalog_descriptor: "CatalogDescriptor") -> None:
        """Flink creates a catalog from a descriptor; here only ``default_catalog`` exists.

        :raises TableException: always, naming the catalog type.
        """
        catalog_type = catalog_descriptor.get_options().get("type", "<no type>")
        raise TableException(f"Unsupported: create_catalog('{catalog_name}') of type '{catalog_type}' is not "
                             "supported by pyflink_table on Spark; the only catalog is 'default_catalog' "
                             "(create databases in it with CREATE DATABASE).")

    def register_catalog(self, catalog_name: str, catalog: "Catalog") -> None:
        """Deprecated in Flink for :meth:`create_catalog`; here only ``default_catalog`` exists.

        :raises TableException: always.
        """
        raise TableException(f"Unsupported: register_catalog('{catalog_name}') is not supported by "
                             "pyflink_table on Spark; the only catalog is 'default_catalog'.")

    def list_modules(self) -> List[str]:
        """The modules in use: ``['core']`` (Flink's built-in functions), ``[]`` once none is in use."""
        return list(self._modules_in_use)

    def list_full_modules(self) -> List["ModuleEntry"]:
        """All loaded modules with their use status: the ``core`` module until it is unloaded."""
        from pyflink_table.module import ModuleEntry

        if not self._core_loaded:
            return []
        return [ModuleEntry("core", "core" in self._modules_in_use)]

    def load_module(self, module_name: str, module: "Module") -> None:
        """Flink loads a module of functions; here only the built-in ``core`` module exists.

        :raises ValidationException: for ``core`` while it is loaded.
        :raises TableException: for any other module, and for reloading ``core`` (that needs
            Flink's Java ``CoreModule``).
        """
        if module_name == "core" and self._core_loaded:
            raise ValidationException("A module with name 'core' already exists")
        raise TableException(f"Unsupported: load_module('{module_name}') is not supported by pyflink_table on "
                             "Spark; the built-in module 'core' is the only module.")

    def unload_module(self, module_name: str) -> None:
        """Unloads a module: only ``core`` exists. Without it, as in Flink, SQL keeps its scalar
        built-ins but no aggregate runs, and the Table API keeps bare column references only: other
        expressions fail with ``TableException`` "Required built-in function [...] could not be found
        in any catalog.".

        :raises ValidationException: for a module that is not loaded.
        """
        if module_name != "core" or not self._core_loaded:
            raise ValidationException(f"No module with name '{module_name}' exists")
        self._core_loaded = False
        self._use_modules([])

    def use_modules(self, *module_names: str) -> None:
        """Choose the modules in use, in resolution order: only ``'core'`` (while loaded) can be named;
        none leaves the Table API and SQL without built-ins, as :meth:`unload_module` does.

        :raises ValidationException: for an unknown or repeated module name.
        """
        seen: List[str] = []
        for name in module_names:
            if name != "core" or not self._core_loaded:
                raise ValidationException(f"No module with name '{name}' exists")
            if name in seen:
                raise ValidationException(f"Module '{name}' appears more than once")
            seen.append(name)
        self._use_modules(seen)

    def _use_modules(self, names: List[str]) -> None:
        self._j_env.useCoreModule("core" in names)
        self._modules_in_use = names

    # --- end of permanent views, drops, catalogs and modules ---------------------------------

    def _queue_insert(self, pipeline: Any) -> None:
        self._pending_inserts.append(pipeline)

    def _unqueue_insert(self, pipeline: Any) -> None:
        self._pending_inserts = [p for p in self._pending_inserts if p is not pipeline]

    def _object_identifier(self, path: str) -> Any:
        """The full name of a table path, completed with the current catalog and database."""
        from pyflink_table.catalog import ObjectIdentifier

        parts = [p.strip("`") for p in path.split(".")]
        parts = [self.get_current_catalog(), self.get_current_database()][: 3 - len(parts)] + parts
        return ObjectIdentifier(*parts)

    def execute(self, job_name: Optional[str] = None) -> None:
        """FLIP-38: run the inserts queued with ``Table.insert_into``."""
        if not self._pending_inserts:
            raise TableException("No operators defined: call Table.insert_into(...) before execute().")
        if job_name:
            self._config.set("pipeline.name", job_name)
        pending, self._pending_inserts = self._pending_inserts, []
        self._await_inserts()
        for pipeline in pending:
            self._insert(pipeline._target, pipeline._table, pipeline._overwrite)


# --- StreamTableEnvironment ----------------------------------------


class StreamTableEnvironment(TableEnvironment):
    """PyFlink's environment bound to a DataStream program; here a :class:`TableEnvironment`.

    There is no DataStream API on Spark: create it from :class:`EnvironmentSettings` only.

    Example::

        >>> st_env = StreamTableEnvironment.create(environment_settings=EnvironmentSettings.in_streaming_mode())
    """

    @staticmethod
    def create(stream_execution_environment: Any = None,  # type: ignore[override]
               environment_settings: Optional[EnvironmentSettings] = None) -> "StreamTableEnvironment":
        """A new environment in the settings' mode (streaming or batch).

        :param stream_execution_environment: not supported (no DataStream API on Spark): passing
            one raises :class:`~pyflink_table.TableException`.
        :param environment_settings: the settings; required.
        :raises ValueError: when neither argument is given, as PyFlink.
        """
        if stream_execution_environment is not None:
            raise TableException("Unsupported: StreamTableEnvironment.create(stream_execution_environment) is not "
                                 "supported by pyflink_table on Spark (there is no DataStream API); pass "
                                 "environment_settings=EnvironmentSettings.in_streaming_mode() instead.")
        if environment_settings is None:
            raise ValueError("No argument found, the param 'stream_execution_environment' or "
                             "'environment_settings' is required.")
        env = TableEnvironment.create(environment_settings)
        env.__class__ = StreamTableEnvironment  # same state; the subclass only narrows create()
        assert isinstance(env, StreamTableEnvironment)
        return env

# --- end of StreamTableEnvironment -------------------------------------------------------------


class _ExplainResult(TableResult):
    """The result of an EXPLAIN statement: one ``result`` row; ``print`` shows the plan text as is, as Flink."""

    @staticmethod
    def _of_plan(table: Table) -> "_ExplainResult":
        plan = TableResult._of_table(table)
        return _ExplainResult(plan._names, plan._types, plan._kind, plan._fetch)

    def print(self) -> None:
        """Print the plan text (no table borders)."""
        for row in self._materialize():
            print(row[0])


def _spark_schema(names: List[str], types: List[DataType]) -> Any:
    """The PySpark schema of Flink fields, from the bridge (exact Flink types in field metadata)."""
    from pyspark.sql.types import StructType

    j_schema = bridge().types.FlinkTypes.schema(to_string_array(names), to_string_array(to_type_string(t) for t in types))
    return StructType.fromJson(json.loads(j_schema.json()))


def _show_printed(printed: Any) -> None:
    """Lines of the print connector (first element names the stream) on Python's stdout/stderr."""
    if printed is None:
        return
    lines = list(printed)
    stream = sys.stderr if lines[0] == "stderr" else sys.stdout
    for line in lines[1:]:
        print(line, file=stream)


def _pandas_types(pdf: "pd.DataFrame") -> List[DataType]:
    """Flink types of a DataFrame's columns, read from its Arrow schema as PyFlink does."""
    import pyarrow as pa

    arrow_schema = pa.Schema.from_pandas(pdf, preserve_index=False)
    return [parse_type_string(_arrow_type_string(f.type)) for f in arrow_schema]


def _arrow_type_string(t: Any) -> str:
    import pyarrow.types as at

    simple = [(at.is_boolean, "BOOLEAN"), (at.is_int8, "TINYINT"), (at.is_int16, "SMALLINT"),
              (at.is_int32, "INT"), (at.is_int64, "BIGINT"), (at.is_float32, "FLOAT"),
              (at.is_float64, "DOUBLE"), (at.is_string, "STRING"), (at.is_large_string, "STRING"),
              (at.is_binary, "BYTES"), (at.is_large_binary, "BYTES"), (at.is_date32, "DATE"),
              (at.is_date64, "DATE"), (at.is_null, "NULL")]
    for test, name in simple:
        if test(t):
            return name
    if at.is_decimal(t):
        return f"DECIMAL({t.precision}, {t.scale})"
    units = {"s": 0, "ms": 3, "us": 6, "ns": 9}
    if at.is_timestamp(t):
        return f"TIMESTAMP_LTZ({units[t.unit]})" if t.tz is not None else f"TIMESTAMP({units[t.unit]})"
    if at.is_time(t):
        return f"TIME({units[t.unit]})"
    if at.is_list(t) or at.is_large_list(t):
        return f"ARRAY<{_arrow_type_string(t.value_type)}>"
    if at.is_map(t):
        return f"MAP<{_arrow_type_string(t.key_type)}, {_arrow_type_string(t.item_type)}>"
    if at.is_struct(t):
        fields = ", ".join(f"`{t.field(i).name}` {_arrow_type_string(t.field(i).type)}" for i in range(t.num_fields))
        return f"ROW<{fields}>"
    raise TypeError(f"Unsupported pandas/Arrow column type {t}; pass the schema explicitly.")


def _infer_schema_from_data(data: List[Any], names: Optional[List[str]]) -> Tuple[List[str], List[DataType]]:
    """Column names and types of ``data`` as PyFlink infers them (types merged over all rows)."""
    width = len(names) if names is not None else (len(_as_tuple(data[0], [])) if data else 0)
    types: List[Optional[DataType]] = [None] * width
    for r in data:
        values = _as_tuple(r, names or [])
        if len(values) != width:
            raise ValidationException(f"Row {r!r} has {len(values)} fields, expected {width}.")
        for i, v in enumerate(values):
            t = _infer_type(v)
            types[i] = t if types[i] is None else _merge_type(types[i], t)  # type: ignore[arg-type]
    final = [t if t is not None else parse_type_string("NULL") for t in types]
    return (names if names is not None else [f"_{i + 1}" for i in range(width)]), final


def _as_tuple(value: Any, names: List[str]) -> Tuple[Any, ...]:
    if isinstance(value, Row):
        return tuple(value)
    if isinstance(value, (tuple, list)):
        return tuple(value)
    if isinstance(value, dict):
        return tuple(value.get(n) for n in names)
    return (value,)


def _to_spark_value(value: Any) -> Any:
    """Python values in the shape PySpark's createDataFrame expects (rows as tuples)."""
    if isinstance(value, (Row, tuple)):
        return tuple(_to_spark_value(v) for v in value)
    if isinstance(value, list):
        return [_to_spark_value(v) for v in value]
    if isinstance(value, dict):
        return {_to_spark_value(k): _to_spark_value(v) for k, v in value.items()}
    return value


def _streaming_statement_set_result(results: List[TableResult]) -> TableResult:
    from pyflink_table import _streaming

    # Inserts of streams run on in the background: one result holds all their queries.
    jobs = [job for r in results if isinstance(r, _streaming.InsertResult) for job in r._jobs]
    return _streaming.InsertResult(jobs) if jobs else TableResult._ok()


class _BadElement(ValidationException, TypeError):
    """A value of from_elements that does not fit its column (PyFlink raises TypeError)."""


class _BadPandasData(ValidationException, RuntimeError):
    """A DataFrame of from_pandas that does not fit the schema (PyFlink raises RuntimeError)."""


def _check_string_elements(rows: List[Any], schema: Any) -> None:
    """Refuse non-string values of STRING/CHAR/VARCHAR columns, as PyFlink does (PySpark would
    store their str())."""
    from pyspark.sql.types import CharType, StringType, VarcharType

    string_columns = [(i, f) for i, f in enumerate(schema.fields)
                      if isinstance(f.dataType, (StringType, CharType, VarcharType))]
    if not string_columns:
        return
    for r, row in enumerate(rows):
        values = tuple(row) if isinstance(row, (tuple, list)) else (row,)
        for i, field in string_columns:
            value = values[i] if i < len(values) else None
            if value is not None and not isinstance(value, str):
                raise _BadElement(
                    f"Row {r}, column '{field.name}': value {value!r} ({type(value).__name__}) does not fit the "
                    f"column's type: a STRING column takes str values only.") from None


def _check_pandas_columns(pdf: "pd.DataFrame", spark_schema: Any, types: List[DataType], only_strings: bool) -> None:
    """Raise naming the first column (and row) whose values Arrow cannot convert to the schema's
    type, as PyFlink converts them (a strict Arrow conversion: no int -> string)."""
    import pyarrow as pa
    from pyspark.sql.pandas.types import to_arrow_type
    from pyspark.sql.types import CharType, StringType, VarcharType

    for (name, series), field, flink_type in zip(pdf.items(), spark_schema.fields, types):
        if only_strings and not isinstance(field.dataType, (StringType, CharType, VarcharType)):
            continue
        target = to_arrow_type(field.dataType, timezone="UTC")
        try:
            pa.Array.from_pandas(series, type=target, safe=True)
            continue
        except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, TypeError, ValueError) as e:
            reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        row = next((i for i in range(len(series)) if not _arrow_converts(series.iloc[i:i + 1], target)), None)
        value: Any = series.iloc[row] if row is not None else None
        value = value.item() if type(value).__module__ == "numpy" and hasattr(value, "item") else value
        where = f"row {row}, value {value!r}" if row is not None else f"dtype {series.dtype}"
        raise _BadPandasData(f"Column '{name}' of the DataFrame does not fit the schema's type {to_type_string(flink_type)} "
                             f"({where}): {reason}") from None


def _arrow_converts(series: Any, target: Any) -> bool:
    import pyarrow as pa

    try:
        pa.Array.from_pandas(series, type=target, safe=True)
        return True
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, TypeError, ValueError):
        return False


def _raise_bad_element(rows: List[Any], schema: Any, cause: Exception) -> None:
    """Raise ValidationException naming the first row (0-based, as given) and column whose value
    does not fit its declared type; return when every value fits (the cause was something else)."""
    from pyspark.sql.types import _make_type_verifier

    fields = schema.fields
    verifiers = [_make_type_verifier(f.dataType, f.nullable, name=f.name) for f in fields]
    for i, row in enumerate(rows):
        values = tuple(row) if isinstance(row, (tuple, list)) else (row,)
        if len(values) != len(fields):
            raise ValidationException(
                f"Row {i} of the elements has {len(values)} fields, but the schema has {len(fields)}: "
                f"{', '.join(f.name for f in fields)}.") from None
        for field, verify, value in zip(fields, verifiers, values):
            try:
                verify(value)
            except Exception as e:  # noqa: BLE001 - PySpark's TypeError/ValueError, reworded below
                raise _BadElement(
                    f"Row {i}, column '{field.name}': value {value!r} ({type(value).__name__}) does not fit the "
                    f"column's type: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None


_interrupt_handler_installed = False


def _install_interrupt_handler() -> None:
    """Ctrl-C (SIGINT) cancels the running Spark jobs and stops filesystem writes in flight before
    they commit, then raises KeyboardInterrupt.

    It replaces PySpark's handler, whose cancelAllJobs() goes over the interrupted thread's own
    Py4J connection (pinned-thread mode), which is busy with the call being interrupted: it fails
    ("reentrant call") and the job runs on. Here the calls go from a helper thread.
    """
    global _interrupt_handler_installed
    if _interrupt_handler_installed or threading.current_thread() is not threading.main_thread():
        return

    def cancel() -> None:
        from pyspark import SparkContext

        try:
            bridge().connectors.Connectors.interruptWrites()
            from pyflink_table._streaming import cancel_running_jobs

            cancel_running_jobs()  # stopped, not failed by the job cancellation below
            sc = SparkContext._active_spark_context
            if sc is not None:
                sc.cancelAllJobs()
        except Exception:  # noqa: BLE001 - the JVM may be gone; the interrupt still goes through
            pass

    def on_interrupt(signum: int, frame: Any) -> None:
        helper = threading.Thread(target=cancel, name="pyflink-table-interrupt", daemon=True)
        helper.start()
        helper.join(30)
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_interrupt)
    # py4j logs the interrupted call's traceback on the root logger before re-raising it, and then
    # may log a broken pipe while closing the interrupted connection (on its own logger, whose
    # records the root logger's filters never see); the user gets the KeyboardInterrupt itself, so
    # both logged copies are noise.
    logging.getLogger().addFilter(_drop_py4j_interrupt_record)
    logging.getLogger("py4j.clientserver").addFilter(_drop_py4j_interrupt_record)
    _interrupt_handler_installed = True


_PY4J_INTERRUPT_NOISE = ("KeyboardInterrupt while sending command.",
                         "Exception occurred while shutting down connection")


def _drop_py4j_interrupt_record(record: logging.LogRecord) -> bool:
    return not (record.msg in _PY4J_INTERRUPT_NOISE
                and (record.name.startswith("py4j.") or "/py4j/" in record.pathname.replace("\\", "/")))
