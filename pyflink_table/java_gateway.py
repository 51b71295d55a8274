"""Starting embedded Spark with the bridge jar, and the few helpers that own all JVM access.

One SparkContext serves the whole Python process; each TableEnvironment gets its own Spark session
on it. The bridge jar must be on the driver's class path before the JVM starts, so it is added to
the Spark configuration here rather than later.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, Iterable, Mapping, Optional, Tuple

from pyflink_table import _bridge_build, _deploy, _jvm_cds, _jvm_console, errors
from pyflink_table.errors import TableException

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["bridge_jar", "get_gateway", "expression_gateway", "root_spark_session", "bridge"]

_PACKAGE_DIR = Path(__file__).resolve().parent
_SOURCE_ROOT = _PACKAGE_DIR.parent / "java-bridge"
_lock = threading.RLock()
_root: Optional["SparkSession"] = None


def bridge_jar() -> str:
    """Path of the bridge jar; in a source checkout it is (re)built when its sources changed."""
    jar = _PACKAGE_DIR / "jars" / _bridge_build.JAR_NAME
    if _SOURCE_ROOT.is_dir() and _bridge_build.is_stale(jar, _SOURCE_ROOT):
        try:
            _bridge_build.build_jar(_SOURCE_ROOT, jar)
        except _bridge_build.BridgeBuildError as e:
            raise TableException(str(e)) from None
    if not jar.exists():
        raise TableException(
            f"The pyflink_table bridge jar is missing at {jar}; reinstall the package (pip install pyflink-table)."
        )
    return str(jar)


#: Attempts per task in local mode (the F of local[N,F]).
LOCAL_TASK_ATTEMPTS = 4


def _default_conf() -> Dict[str, str]:
    cores = os.cpu_count() or 2
    return {
        # local[N,F]: local mode retries a failed task (a killed Python worker, say) up to F-1
        # times, as a cluster does (spark.task.maxFailures); plain local[*] never retries.
        "spark.master": f"local[*,{LOCAL_TASK_ATTEMPTS}]",
        "spark.app.name": "pyflink_table",
        # Small, local jobs: 200 shuffle partitions would mostly schedule empty tasks.
        "spark.sql.shuffle.partitions": str(cores),
        "spark.ui.enabled": "false",
        "spark.sql.execution.arrow.pyspark.enabled": "true",
        "spark.sql.execution.arrow.maxRecordsPerBatch": "10000",
        # Batches are bounded in rows (python.fn-execution.arrow.batch.size), as in PyFlink. Spark's
        # byte cap (64 MB) makes its Arrow writer measure the batch after every row, which for
        # mapInArrow's struct-wrapped input (packed aggregation) took about a third of the JVM's time.
        # Int.MaxValue turns the measuring off; a user's own value still wins.
        "spark.sql.execution.arrow.maxBytesPerBatch": str(2**31 - 1),
        "spark.python.worker.reuse": "true",
        "spark.driver.memory": "2g",
        # Spark creates its warehouse folder at start-up; keep it out of the user's working directory.
        # It and Spark's local dirs (shuffle files, block manager) live in a private directory.
        "spark.sql.warehouse.dir": os.path.join(_private_dir(), "warehouse"),
    }


# --- private temporary directory (reliability) -------------------------------------------------
_private: Optional[str] = None


#: The local dirs this process chose for Spark, so a child process can tell them from a user's.
_PRIVATE_LOCAL_ENV = "PYFLINK_TABLE_PRIVATE_LOCAL_DIRS"


def _private_dir() -> str:
    """This process's temporary directory: mode 0700 (other local users cannot read shuffle files
    or spilled rows), removed when the process exits."""
    global _private
    if _private is None:
        _private = tempfile.mkdtemp(prefix="pyflink-table-")  # mkdtemp creates it 0700
        atexit.register(shutil.rmtree, _private, True)
        # Read by the JVM this process starts (spark.local.dir would log a warning at every start).
        # A user's own SPARK_LOCAL_DIRS wins; one inherited from a parent pyflink_table process
        # points into that process's private directory, removed when it exits, and is replaced.
        local = os.path.join(_private, "local")
        inherited = os.environ.get("SPARK_LOCAL_DIRS")
        if not inherited or inherited == os.environ.get(_PRIVATE_LOCAL_ENV):
            os.environ["SPARK_LOCAL_DIRS"] = local
            os.environ[_PRIVATE_LOCAL_ENV] = local
    return _private
# --- end private temporary directory -----------------------------------------------------------


# --- start-up settings from the command line and for quiet logging (pyflink_table.cli) ---------

#: Set by ``pyflink-table run --master``: the Spark master of every environment the program creates.
MASTER_ENV = "PYFLINK_TABLE_MASTER"
#: Set by ``pyflink-table run --py-files``: comma-separated .py/.zip/.egg files shipped to workers.
PY_FILES_ENV = "PYFLINK_TABLE_PY_FILES"
#: Extra worker PYTHONPATH entries (``--pyRequirements`` installs there), comma-separated.
PYTHONPATH_ENV = "PYFLINK_TABLE_PYTHONPATH"
_LOG_LEVELS = ("OFF", "FATAL", "ERROR", "WARN", "INFO", "DEBUG", "TRACE", "ALL")


def _env_list(name: str) -> list[str]:
    return [item for item in os.environ.get(name, "").split(",") if item]


def _command_line_overrides() -> Dict[str, str]:
    # The command line wins over the program's own configuration, as `flink run -m` does.
    overrides: Dict[str, str] = {}
    master = os.environ.get(MASTER_ENV)
    if master:
        overrides["spark.master"] = master
    extra_path = _env_list(PYTHONPATH_ENV)
    current = os.environ.get("PYTHONPATH")
    # Called again when an expression started the JVM before the first environment: prepend once.
    if extra_path and not (current or "").startswith(os.pathsep.join(extra_path)):
        os.environ["PYTHONPATH"] = os.pathsep.join(extra_path + ([current] if current else []))
    return overrides


def _quiet_jvm_logging(settings: Dict[str, str]) -> str:
    """Point the JVM at the package's log4j2 file at ``pyflink_table.log.level``; returns the level.

    Without it Spark announces its default log profile and several start-up warnings that say
    nothing about the user's program. The console progress bar is on only when stderr is a terminal
    (unless ``spark.ui.showConsoleProgress`` is set explicitly).
    """
    level = settings.pop("pyflink_table.log.level", "WARN").strip().upper()
    if level not in _LOG_LEVELS:
        raise TableException(
            f"Invalid value '{level}' for option pyflink_table.log.level; use one of {', '.join(_LOG_LEVELS)}."
        )
    log_config = _PACKAGE_DIR / "log4j2.properties"
    task_level = level if level in ("INFO", "DEBUG", "TRACE", "ALL") else "OFF"
    java_options = (f"-Dlog4j.configurationFile={log_config.as_uri()} -Dpyflink_table.log.level={level} "
                    f"-Dpyflink_table.task.log.level={task_level}")
    existing = settings.get("spark.driver.extraJavaOptions")
    if not existing or "log4j.configurationFile" not in existing:
        settings["spark.driver.extraJavaOptions"] = f"{existing} {java_options}" if existing else java_options
    if "spark.ui.showConsoleProgress" not in settings:
        settings["spark.ui.showConsoleProgress"] = "true" if _stderr_is_terminal() else "false"
    # A host name resolving to loopback makes Spark warn; locally the loopback address is right.
    if settings.get("spark.master", "").startswith("local"):
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    return level


def _stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def root_spark_session(conf: Mapping[str, str], default_master: Optional[str] = None) -> "SparkSession":
    """The process-wide Spark session, started on first use with ``conf`` and the bridge jar.

    Later calls reuse it; their runtime SQL settings are applied per TableEnvironment instead, and
    asking for another ``spark.master`` than the running one raises (one SparkContext per process).
    An already running SparkSession (created by the user) is reused when it can load the bridge.
    ``default_master`` is the master implied by other options (``parallelism.default``).

    Precedence of the master: ``pyflink-table run --master`` > the program's ``spark.master`` >
    ``spark-submit --master`` > ``default_master`` > ``local[*]``.
    """
    global _root
    with _lock:
        if _engine_died():
            _forget_dead_engine()
            _root = None
        if _root is not None and _root.sparkContext._jsc is not None:
            _check_same_master(_root, conf)
            return _root
        from pyspark.sql import SparkSession

        active = SparkSession.getActiveSession()
        if active is not None:
            _check_bridge_loadable(active)
            _check_same_master(active, conf)
            _root = active
            return _root
        settings, launch_options, log_level, jar = _jvm_settings(conf, default_master)
        if _early_launch is not None:
            _check_launch_options(launch_options)
        master = settings["spark.master"]
        _deploy.check_master(master)
        python = _deploy.executor_python(settings, master)
        settings.pop("python.executable", None)
        if python:
            os.environ["PYSPARK_PYTHON"] = python
            settings["spark.pyspark.python"] = python
        os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
        _jvm_console.launch_gateway(settings)  # the JVM's stderr without its launch warning
        builder = SparkSession.builder
        for k, v in settings.items():
            builder = builder.config(k, v)
        session = builder.getOrCreate()
        session.sparkContext.setLogLevel(log_level)
        _ensure_bridge_on_driver(session, jar)
        if not _deploy.is_local_master(session.sparkContext.master or ""):
            # Executors elsewhere import the package from this zip; they need no pyflink_table install.
            session.sparkContext.addPyFile(str(_deploy.package_zip()))
        for py_file in _env_list(PY_FILES_ENV):
            session.sparkContext.addPyFile(py_file)
        _check_bridge_loadable(session)
        _root = session
        return session


#: Settings that take effect only when the JVM starts (its class path, memory and options).
_LAUNCH_SETTINGS = ("spark.driver.memory", "spark.driver.extraJavaOptions", "spark.driver.extraClassPath",
                    "spark.driver.extraLibraryPath", "pyflink_table.log.level")
#: The launch settings of a JVM started before any TableEnvironment (by building an expression).
_early_launch: Optional[Dict[str, Optional[str]]] = None


def _jvm_settings(conf: Mapping[str, str], default_master: Optional[str]
                  ) -> Tuple[Dict[str, str], Dict[str, Optional[str]], str, str]:
    """The Spark settings of the driver JVM, the launch-only settings the program chose, the JVM's
    log level and the bridge jar."""
    settings = _default_conf()
    if default_master:
        settings["spark.master"] = default_master
    settings.update(_spark_submit_conf())
    settings.update(conf)
    settings.update(_command_line_overrides())
    launch_options = {k: settings.get(k) for k in _LAUNCH_SETTINGS}
    log_level = _quiet_jvm_logging(settings)
    jar = bridge_jar()
    for key in ("spark.driver.extraClassPath", "spark.jars"):
        existing = settings.get(key)
        if not existing or jar not in existing.split("," if key == "spark.jars" else os.pathsep):
            settings[key] = jar if not existing else existing + ("," if key == "spark.jars" else os.pathsep) + jar
    _jvm_cds.add_driver_java_options(settings, jar)  # cold start: a class-data-sharing archive
    return settings, launch_options, log_level, jar


def _check_launch_options(wanted: Mapping[str, Optional[str]]) -> None:
    """An environment created after an expression started the JVM cannot change how it started."""
    assert _early_launch is not None
    for key, value in wanted.items():
        if value != _early_launch.get(key):
            raise TableException(
                f"{key}={value} cannot take effect: the JVM was already started, with "
                f"{key}={_early_launch.get(key)}, by an expression built before the first TableEnvironment. "
                "Create the TableEnvironment before building expressions, or set the option in the "
                "environment (PYSPARK_SUBMIT_ARGS or spark-defaults.conf).")


def expression_gateway() -> Any:
    """The Py4J gateway, starting the JVM without a Spark session when none runs yet.

    As in PyFlink, expressions may be built before any TableEnvironment: the first one starts the
    JVM (with the launch settings of the environment and the defaults), and the Spark session of
    the first TableEnvironment is created later in the same JVM.
    """
    global _early_launch
    from pyspark import SparkContext

    if SparkContext._gateway is not None:
        return SparkContext._gateway
    with _lock:
        if SparkContext._gateway is None:
            if "PYSPARK_GATEWAY_PORT" in os.environ:
                SparkContext._ensure_initialized()  # spark-submit's JVM
            else:
                settings, launch_options, _, _ = _jvm_settings({}, None)
                _jvm_console.launch_gateway(settings)
                _early_launch = launch_options
    return SparkContext._gateway


def _engine_died() -> bool:
    """Whether the JVM this process launched has exited (crashed or killed)."""
    from pyspark import SparkContext

    proc = getattr(SparkContext._gateway, "proc", None)
    return proc is not None and proc.poll() is not None


def _forget_dead_engine() -> None:
    """Drop PySpark's handles on a dead JVM so that the next session starts a new one.

    Objects of the old engine keep their old Py4J connection, so calls on them keep failing with
    the engine-stopped error instead of reaching the new JVM.
    """
    global _early_launch
    from pyspark import SparkContext
    from pyspark.sql import SparkSession, SQLContext

    _early_launch = None  # the next JVM is launched afresh, with the next environment's settings
    gateway = SparkContext._gateway
    with SparkContext._lock:
        sc = SparkContext._active_spark_context
        if sc is not None:
            server = getattr(sc, "_accumulatorServer", None)
            if server is not None:
                server.shutdown()
                sc._accumulatorServer = None  # type: ignore[assignment]
        SparkContext._active_spark_context = None
        SparkContext._gateway = None
        SparkContext._jvm = None
    SparkSession._instantiatedSession = None
    SparkSession._activeSession = None
    SQLContext._instantiatedContext = None
    errors.engine_replaced()
    try:
        gateway.shutdown_callback_server()  # type: ignore[union-attr]
    except Exception:  # noqa: BLE001 - the dead JVM's connections fail to close cleanly
        pass


def _spark_submit_conf() -> Dict[str, str]:
    """The settings ``spark-submit`` gave the JVM it started before this program (none otherwise).

    They win over the library's defaults (so ``spark-submit --master URL job.py`` runs on URL), and
    the program's own settings win over them, as in PySpark.
    """
    if "PYSPARK_GATEWAY_PORT" not in os.environ:
        return {}
    from pyspark import SparkConf, SparkContext

    # Connect to spark-submit's JVM first: its settings are that JVM's system properties.
    SparkContext._ensure_initialized()
    return {k: v for k, v in SparkConf(loadDefaults=True).getAll()}


def _check_same_master(session: "SparkSession", conf: Mapping[str, str]) -> None:
    wanted = os.environ.get(MASTER_ENV) or conf.get("spark.master")
    running = session.sparkContext.master
    if wanted and wanted != running:
        raise TableException(
            f"This process already runs Spark with spark.master '{running}'; a TableEnvironment cannot use "
            f"spark.master '{wanted}' beside it (one SparkContext per process). Use one master per program, "
            "or stop the running environments' SparkContext first.")


def _ensure_bridge_on_driver(session: "SparkSession", jar: str) -> None:
    """Under ``spark-submit`` without ``--jars`` the driver JVM started without the bridge: add it."""
    jvm = session.sparkContext._jvm
    assert jvm is not None
    loader = jvm.Thread.currentThread().getContextClassLoader()
    try:
        jvm.java.lang.Class.forName("org.pyflink_table.bridge.session.TableEnv", True, loader)
        return
    except Exception:  # noqa: BLE001 - not loadable yet: add it below when the loader allows
        pass
    if loader.getClass().getName() == "org.apache.spark.util.MutableURLClassLoader":
        loader.addURL(jvm.java.io.File(jar).toURI().toURL())
        session.sparkContext._jsc.addJar(jar)


def _check_bridge_loadable(session: "SparkSession") -> None:
    jvm = session.sparkContext._jvm
    assert jvm is not None
    try:
        jvm.java.lang.Class.forName(
            "org.pyflink_table.bridge.session.TableEnv", True, jvm.Thread.currentThread().getContextClassLoader()
        )
    except Exception:
        raise TableException(
            "The running SparkSession cannot load the pyflink_table bridge. Start Spark with "
            f"spark.jars and spark.driver.extraClassPath set to {bridge_jar()} (see "
            "pyflink_table.java_gateway.bridge_jar()), or let TableEnvironment.create() start it."
        ) from None


def get_gateway() -> Any:
    """The Py4J gateway of the running SparkContext."""
    from pyspark import SparkContext

    gw = SparkContext._gateway
    if gw is None:
        raise TableException("No Spark JVM is running yet: create a TableEnvironment first.")
    return gw


def bridge() -> Any:
    """The ``org.pyflink_table.bridge`` Java package."""
    return get_gateway().jvm.org.pyflink_table.bridge


def to_java_array(java_class: Any, items: Iterable[Any]) -> Any:
    """A typed Java array holding ``items`` (Py4J does not convert lists on its own)."""
    values = list(items)
    arr = get_gateway().new_array(java_class, len(values))
    for i, v in enumerate(values):
        arr[i] = v
    return arr


def to_string_array(items: Iterable[str]) -> Any:
    return to_java_array(get_gateway().jvm.java.lang.String, items)
