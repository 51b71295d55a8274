"""``EnvironmentSettings``: batch or streaming mode plus initial options."""

from __future__ import annotations

from typing import Optional

from pyflink_table.configuration import Configuration

__all__ = ["EnvironmentSettings"]

_RUNTIME_MODE = "execution.runtime-mode"


class EnvironmentSettings:
    """How a :class:`~pyflink_table.TableEnvironment` is created.

    Example::

        >>> settings = EnvironmentSettings.in_batch_mode()
        >>> settings = EnvironmentSettings.new_instance().in_streaming_mode().build()
    """

    class Builder:
        """Builds :class:`EnvironmentSettings`."""

        def __init__(self) -> None:
            self._configuration = Configuration()
            self._configuration.set_string(_RUNTIME_MODE, "STREAMING")

        def with_configuration(self, config: Configuration) -> "EnvironmentSettings.Builder":
            """Add all options of ``config``."""
            self._configuration.add_all(config)
            return self

        def in_batch_mode(self) -> "EnvironmentSettings.Builder":
            """Bounded input, final results (the mode whose results pyflink_table matches)."""
            self._configuration.set_string(_RUNTIME_MODE, "BATCH")
            return self

        def in_streaming_mode(self) -> "EnvironmentSettings.Builder":
            """Streaming mode. On bounded input pyflink_table produces the final (batch) results."""
            self._configuration.set_string(_RUNTIME_MODE, "STREAMING")
            return self

        def with_built_in_catalog_name(self, built_in_catalog_name: str) -> "EnvironmentSettings.Builder":
            """Name of the initial catalog (default ``default_catalog``)."""
            self._configuration.set_string("table.builtin-catalog-name", built_in_catalog_name)
            return self

        def with_built_in_database_name(self, built_in_database_name: str) -> "EnvironmentSettings.Builder":
            """Name of the initial database (default ``default_database``)."""
            self._configuration.set_string("table.builtin-database-name", built_in_database_name)
            return self

        def build(self) -> "EnvironmentSettings":
            """The settings."""
            return EnvironmentSettings(Configuration(self._configuration))

    def __init__(self, configuration: Optional[Configuration] = None) -> None:
        self._configuration = configuration if configuration is not None else Configuration()

    @staticmethod
    def new_instance() -> "EnvironmentSettings.Builder":
        """A builder for settings."""
        return EnvironmentSettings.Builder()

    @staticmethod
    def in_batch_mode() -> "EnvironmentSettings":
        """Settings for batch mode."""
        return EnvironmentSettings.new_instance().in_batch_mode().build()

    @staticmethod
    def in_streaming_mode() -> "EnvironmentSettings":
        """Settings for streaming mode."""
        return EnvironmentSettings.new_instance().in_streaming_mode().build()

    @staticmethod
    def from_configuration(config: Configuration) -> "EnvironmentSettings":
        """Settings from options (``execution.runtime-mode`` picks the mode)."""
        return EnvironmentSettings.new_instance().with_configuration(config).build()

    def is_streaming_mode(self) -> bool:
        """True in streaming mode."""
        return self._configuration.get_string(_RUNTIME_MODE, "streaming").lower() == "streaming"

    def get_built_in_catalog_name(self) -> str:
        """Name of the initial catalog."""
        return self._configuration.get_string("table.builtin-catalog-name", "default_catalog")

    def get_built_in_database_name(self) -> str:
        """Name of the initial database."""
        return self._configuration.get_string("table.builtin-database-name", "default_database")

    def get_configuration(self) -> Configuration:
        """The options of these settings."""
        return self._configuration

    def to_configuration(self) -> Configuration:
        """A copy of the options."""
        return Configuration(self._configuration)
