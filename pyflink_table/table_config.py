"""``TableConfig``: the options of one TableEnvironment, applied to its Spark session as they change."""

from __future__ import annotations

import datetime
import os
from typing import Any, Callable, Dict, Optional

from pyflink_table.configuration import Configuration
from pyflink_table.errors import TableException, ValidationException
from pyflink_table.sql_dialect import SqlDialect

__all__ = ["TableConfig"]


class TableConfig:
    """Options of a :class:`~pyflink_table.TableEnvironment`.

    ``spark.*`` keys go to Spark as they are; Flink keys with a Spark equivalent
    (``parallelism.default``, ``table.local-time-zone``, ``python.fn-execution.arrow.batch.size``,
    ...) are translated; see the configuration page of the docs for the full list.

    Example::

        >>> t_env.get_config().set("parallelism.default", "2")
        >>> t_env.get_config().set("spark.sql.ansi.enabled", "false")
    """

    class Builder:
        """FLIP-38's builder: ``TableConfig.builder().as_batch_execution().set_parallelism(1).build()``."""

        def __init__(self) -> None:
            self._config = Configuration()
            self._config.set_string("execution.runtime-mode", "streaming")

        def as_streaming_execution(self) -> "TableConfig.Builder":
            """Streaming mode (bounded input still yields final results)."""
            self._config.set_string("execution.runtime-mode", "streaming")
            return self

        def as_batch_execution(self) -> "TableConfig.Builder":
            """Batch mode."""
            self._config.set_string("execution.runtime-mode", "batch")
            return self

        def set_parallelism(self, parallelism: int) -> "TableConfig.Builder":
            """Default parallelism."""
            self._config.set_integer("parallelism.default", parallelism)
            return self

        def set_time_zone(self, time_zone_id: str) -> "TableConfig.Builder":
            """Session time zone."""
            self._config.set_string("table.local-time-zone", time_zone_id)
            return self

        def set_null_check(self, null_check: bool) -> "TableConfig.Builder":
            """Kept for FLIP-38 programs; NULL checks are always on."""
            self._config.set_boolean("table.null-check", null_check)
            return self

        def build(self) -> "TableConfig":
            """The config."""
            return TableConfig(Configuration(self._config))

    def __init__(self, configuration: Optional[Configuration] = None) -> None:
        self._configuration = configuration if configuration is not None else Configuration()
        self._listener: Optional[Callable[[str, str], None]] = None

    @staticmethod
    def builder() -> "TableConfig.Builder":
        """A FLIP-38 style builder."""
        return TableConfig.Builder()

    @staticmethod
    def get_default() -> "TableConfig":
        """A config with default options."""
        return TableConfig()

    def _attach(self, listener: Callable[[str, str], None]) -> None:
        """Called by the environment: apply every option now and every later change."""
        self._listener = listener
        for k in self._configuration.key_set():
            listener(k, self._configuration.get_string(k, ""))

    def set(self, key: str, value: Any) -> "TableConfig":
        """Set an option; runtime settings take effect at once."""
        if key == "table.sql-dialect" and str(value).lower() not in ("default", "hive"):
            self.set_sql_dialect(value)  # raises, naming the dialects that exist
        previous = self._configuration.get(key)
        self._configuration.set(key, value)
        if self._listener is not None:
            try:
                self._listener(key, self._configuration.get_string(key, ""))
            except Exception as e:
                # A value that cannot apply is not kept: later jobs run with the previous one.
                if previous is None:
                    self._configuration.remove_config(key)
                else:
                    self._configuration.set(key, previous)
                if isinstance(e, NotImplementedError):
                    raise TableException(str(e)) from None
                if isinstance(e, ValueError):
                    raise ValidationException(f"Invalid value for option '{key}': {e}") from None
                raise
        return self

    def get(self, key: str, default_value: Optional[str] = None) -> Optional[str]:
        """The option's value, or ``default_value``."""
        return self._configuration.get(key, default_value)

    def get_configuration(self) -> Configuration:
        """All options. Changes made through it apply on the next job; prefer :meth:`set`."""
        return self._configuration

    def add_configuration(self, configuration: Configuration) -> None:
        """Set all options of ``configuration``."""
        for k in configuration.key_set():
            self.set(k, configuration.get_string(k, ""))

    def set_local_timezone(self, timezone_id: str) -> None:
        """Session time zone, e.g. ``'UTC'`` or ``'Europe/Berlin'``."""
        self.set("table.local-time-zone", timezone_id)

    def get_local_timezone(self) -> str:
        """Session time zone id; when not set (``default``), the system's zone id, e.g. ``Etc/UTC``, as PyFlink."""
        zone = self._configuration.get_string("table.local-time-zone", "default")
        return _system_zone_id() if zone == "default" else zone

    def set_idle_state_retention(self, duration: datetime.timedelta) -> None:
        """Flink's idle state retention (option ``table.exec.state.ttl``): in streaming mode, state of
        an unbounded updating aggregation or outer join not written for ``duration`` is dropped (see
        the streaming docs page); batch jobs hold no idle state."""
        self.set("table.exec.state.ttl", f"{int(duration.total_seconds() * 1000)} ms")

    def get_idle_state_retention(self) -> datetime.timedelta:
        """See :meth:`set_idle_state_retention`."""
        v = self._configuration.get_string("table.exec.state.ttl", "0 ms")
        return datetime.timedelta(milliseconds=int(v.split()[0]))

    def set_null_check(self, null_check: bool) -> None:
        """Kept for FLIP-38 programs; NULL checks are always on."""
        self.set("table.null-check", null_check)

    def get_null_check(self) -> bool:
        """See :meth:`set_null_check`."""
        return self._configuration.get_boolean("table.null-check", True)

    def set_max_generated_code_length(self, max_generated_code_length: int) -> None:
        """Kept for compatibility; Spark generates its own code."""
        self.set("table.generated-code.max-length", max_generated_code_length)

    def get_max_generated_code_length(self) -> int:
        """See :meth:`set_max_generated_code_length`."""
        return self._configuration.get_integer("table.generated-code.max-length", 4000)

    def get_python_executable(self) -> Optional[str]:
        """The Python interpreter of the workers, if set."""
        return self._configuration.get("python.executable")

    def set_python_executable(self, python_exec: str) -> None:
        """The Python interpreter of the workers (applies when Spark starts)."""
        self.set("python.executable", python_exec)

    def to_dict(self) -> Dict[str, str]:
        """A copy of all options."""
        return self._configuration.to_dict()

    def to_map(self) -> Dict[str, str]:
        """All options set on this config, as a new dict (PyFlink's name for :meth:`to_dict`)."""
        return self.to_dict()

    def get_sql_dialect(self) -> SqlDialect:
        """The SQL dialect (option ``table.sql-dialect``); :attr:`SqlDialect.DEFAULT` unless set."""
        value = self._configuration.get_string("table.sql-dialect", "default").lower()
        return SqlDialect.HIVE if value == "hive" else SqlDialect.DEFAULT

    def set_sql_dialect(self, sql_dialect: SqlDialect) -> None:
        """Select the SQL dialect.

        :attr:`SqlDialect.HIVE` can be selected, as in PyFlink; Hive's parser does not exist here
        (nor in PyFlink without Hive's jars), so while it is selected every call that parses SQL or
        builds a table in the catalog (``sql_query``, ``execute_sql``, ``from_path``,
        ``from_elements``, ``create_temporary_view``, ``execute_insert``, ...) raises PyFlink's
        :class:`~pyflink_table.ValidationException`. Tables built before keep working.

        :raises TypeError: for a value that is no SQL dialect.
        """
        if sql_dialect not in (SqlDialect.DEFAULT, SqlDialect.HIVE) or isinstance(sql_dialect, bool):
            raise TypeError(f"Unsupported SQL dialect: {sql_dialect}, supported SQL dialects are: "
                            "SqlDialect.DEFAULT, SqlDialect.HIVE.")
        self.set("table.sql-dialect", "hive" if sql_dialect == SqlDialect.HIVE else "default")

    def _check_parser(self) -> None:
        """Raise PyFlink's error where it would need the SQL parser of the selected dialect and has none."""
        if self.get_sql_dialect() == SqlDialect.HIVE:
            raise ValidationException(
                "Could not find any factory for identifier 'hive' that implements "
                "'org.apache.flink.table.delegation.ParserFactory' in the classpath. "
                "Available factory identifiers are: default")


def _system_zone_id() -> str:
    """The JVM's default zone id (``ZoneId.systemDefault()``), read from the running JVM when there is one."""
    from pyspark import SparkContext

    if SparkContext._gateway is not None:
        return str(SparkContext._gateway.jvm.java.time.ZoneId.systemDefault().getId())
    # the JVM's own lookup order: TZ, then /etc/timezone, then the /etc/localtime link
    tz = os.environ.get("TZ", "").lstrip(":")
    if tz:
        return tz
    try:
        with open("/etc/timezone") as f:
            zone = f.read().strip()
        if zone:
            return zone
    except OSError:
        pass
    target = os.path.realpath("/etc/localtime")
    return target.split("zoneinfo/", 1)[1] if "zoneinfo/" in target else "UTC"
