"""Typed configuration options, as ``pyflink.common.config_options``: ``ConfigOptions.key("a").int_type()...``.

A :class:`ConfigOption` names a key, its value type and default; it can be passed wherever an
option key is accepted (``TableDescriptor.Builder.option``, ``FormatDescriptor.Builder.option``).
"""

from __future__ import annotations

from typing import Any, Generic, Optional, TypeVar

__all__ = ["ConfigOptions", "ConfigOption"]

T = TypeVar("T")


class ConfigOption(Generic[T]):
    """A configuration option: a key, the type of its value and its default (None when it has none)."""

    def __init__(self, key: str, value_type: type, default: Optional[T] = None) -> None:
        self._key = key
        self._type = value_type
        self._default = default

    def __repr__(self) -> str:
        return f"Key: '{self._key}' , default: {self._default}"


class ConfigOptions:
    """Entry point of the option builders: ``ConfigOptions.key("a.b").string_type().default_value("x")``."""

    @staticmethod
    def key(key: str) -> "ConfigOptions.OptionBuilder":
        """Start building the option ``key``.

        :param key: the option's key.
        :return: a builder to choose the value type with.
        """
        if not isinstance(key, str) or not key:
            raise ValueError(f"The key of a ConfigOption must be a non-empty string, got {key!r}")
        return ConfigOptions.OptionBuilder(key)

    class OptionBuilder:
        """Chooses the value type of an option."""

        def __init__(self, key: str) -> None:
            self._key = key

        def _typed(self, value_type: type) -> "ConfigOptions.TypedConfigOptionBuilder[Any]":
            return ConfigOptions.TypedConfigOptionBuilder(self._key, value_type)

        def boolean_type(self) -> "ConfigOptions.TypedConfigOptionBuilder[bool]":
            """A boolean option."""
            return self._typed(bool)

        def int_type(self) -> "ConfigOptions.TypedConfigOptionBuilder[int]":
            """An integer option."""
            return self._typed(int)

        def long_type(self) -> "ConfigOptions.TypedConfigOptionBuilder[int]":
            """A long integer option."""
            return self._typed(int)

        def float_type(self) -> "ConfigOptions.TypedConfigOptionBuilder[float]":
            """A float option."""
            return self._typed(float)

        def double_type(self) -> "ConfigOptions.TypedConfigOptionBuilder[float]":
            """A double option."""
            return self._typed(float)

        def string_type(self) -> "ConfigOptions.TypedConfigOptionBuilder[str]":
            """A string option."""
            return self._typed(str)

    class TypedConfigOptionBuilder(Generic[T]):
        """Sets the default of a typed option."""

        def __init__(self, key: str, value_type: type) -> None:
            self._key = key
            self._type = value_type

        def default_value(self, value: T) -> "ConfigOption[T]":
            """The option, with ``value`` as its default.

            :param value: the default value.
            :return: the option.
            """
            return ConfigOption(self._key, self._type, value)

        def no_default_value(self) -> "ConfigOption[str]":
            """The option, without a default.

            :return: the option.
            """
            return ConfigOption(self._key, self._type, None)
