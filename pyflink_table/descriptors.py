"""FLIP-38's connector descriptors: ``t_env.connect(FileSystem().path(p)).with_format(Csv()...)...``.

They describe the same connector tables as :class:`~pyflink_table.TableDescriptor` and SQL DDL:
``FileSystem`` is the ``filesystem`` connector, ``Csv``/``OldCsv`` the ``csv`` format and ``Json``
the ``json`` format. When the path is not an existing directory, a sink writes one file at that
path, as FLIP-38's file sinks did.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, TypeVar, Union

from pyflink_table.errors import TableException, ValidationException, java_errors
from pyflink_table.schema import Schema as _NewSchema
from pyflink_table.schema import _type_string
from pyflink_table.table_descriptor import TableDescriptor
from pyflink_table.types import DataType, to_type_string

if TYPE_CHECKING:
    from pyflink_table.table_environment import TableEnvironment

__all__ = ["ConnectorDescriptor", "FileSystem", "FormatDescriptor", "Csv", "OldCsv", "Json", "Schema", "Rowtime",
           "ConnectTableDescriptor"]

_SINGLE_FILE = "pyflink-table.single-file"
#: FLIP-38 sinks take the final result of an updating query over bounded input in streaming mode.
_LEGACY_SINK = "pyflink-table.legacy-sink"


def _single_file_options(path: str) -> Dict[str, str]:
    return {} if os.path.isdir(path) else {_SINGLE_FILE: "true"}


class ConnectorDescriptor:
    """Base of FLIP-38 connector descriptors."""

    def __init__(self, connector: str) -> None:
        self._options: Dict[str, str] = {"connector": connector}

    def _connector_options(self) -> Dict[str, str]:
        return dict(self._options)


class FileSystem(ConnectorDescriptor):
    """The ``filesystem`` connector.

    Example::

        >>> FileSystem().path("/tmp/words.csv")
    """

    def __init__(self) -> None:
        super().__init__("filesystem")

    def path(self, path_str: str) -> "FileSystem":
        """The file or directory to read or write."""
        self._options["path"] = path_str
        return self

    def _connector_options(self) -> Dict[str, str]:
        options = dict(self._options)
        if "path" in options:
            options.update(_single_file_options(options["path"]))
        return options


class FormatDescriptor:
    """Base of FLIP-38 format descriptors: a format name, its options and optional fields."""

    def __init__(self, format: str) -> None:
        self._format = format
        self._format_options: Dict[str, str] = {}
        self._fields: List[Tuple[str, str]] = []

    def _set(self, key: str, value: Any) -> None:
        self._format_options[f"{self._format}.{key}"] = ("true" if value else "false") if isinstance(value, bool) else str(value)

    def _options(self) -> Dict[str, str]:
        return {"format": self._format, **self._format_options}


_Self = TypeVar("_Self", bound="_CsvOptions")


class _CsvOptions(FormatDescriptor):
    """The options ``Csv`` and ``OldCsv`` share: both are the ``csv`` format."""

    def __init__(self) -> None:
        super().__init__("csv")

    def field_delimiter(self: _Self, delimiter: str) -> _Self:
        """The field separator (default ``,``)."""
        self._set("field-delimiter", delimiter)
        return self

    def line_delimiter(self: _Self, delimiter: str) -> _Self:
        """Lines end with ``\\n``; other line delimiters are not supported."""
        if delimiter not in ("\n", "\r\n"):
            raise TableException(f"Unsupported: CSV line delimiter {delimiter!r} is not supported by pyflink_table on Spark.")
        return self

    def quote_character(self: _Self, quote_character: str) -> _Self:
        """The quote character (default ``\"``)."""
        self._set("quote-character", quote_character)
        return self

    def ignore_parse_errors(self: _Self) -> _Self:
        """Skip rows that cannot be parsed instead of failing."""
        self._set("ignore-parse-errors", True)
        return self

    def field(self: _Self, field_name: str, field_type: Union[DataType, str, Any]) -> _Self:
        """Declare a field of the format (used when no table schema is given)."""
        self._fields.append((field_name, _type_string(field_type)))
        return self


class Csv(_CsvOptions):
    """The ``csv`` format (Flink's RFC-4180 CSV).

    Example::

        >>> Csv().field_delimiter(",").field("a", DataTypes.STRING())
    """

    def allow_comments(self) -> "Csv":
        """Skip lines starting with ``#``."""
        self._set("allow-comments", True)
        return self

    def array_element_delimiter(self, delimiter: str) -> "Csv":
        """The separator of array elements (default ``;``)."""
        self._set("array-element-delimiter", delimiter)
        return self

    def escape_character(self, escape_character: str) -> "Csv":
        """The escape character (none by default)."""
        self._set("escape-character", escape_character)
        return self

    def null_literal(self, null_literal: str) -> "Csv":
        """The text that stands for NULL."""
        self._set("null-literal", null_literal)
        return self

    def schema(self, schema_data_type: DataType) -> "Csv":
        """Fields from a ROW type (used when the table schema is not given)."""
        for name, t in zip(schema_data_type.field_names(), schema_data_type.field_types()):  # type: ignore[attr-defined]
            self._fields.append((name, to_type_string(t)))
        return self

    def derive_schema(self) -> "Csv":
        """Take the fields from the table schema (the default here)."""
        return self


class OldCsv(_CsvOptions):
    """FLIP-38's legacy CSV format, read and written as the ``csv`` format."""

    def comment_prefix(self, prefix: str) -> "OldCsv":
        """Skip comment lines; only the ``#`` prefix is supported."""
        if prefix != "#":
            raise TableException(f"Unsupported: CSV comment prefix {prefix!r} is not supported by pyflink_table on Spark.")
        self._set("allow-comments", True)
        return self

    def ignore_first_line(self) -> "OldCsv":
        """Skip the first line of each file (a header)."""
        self._format_options["pyflink-table.skip-first-line"] = "true"
        return self

    def schema(self, table_schema: Any) -> "OldCsv":
        """Fields from a :class:`~pyflink_table.TableSchema`."""
        for name, t in zip(table_schema.get_field_names(), table_schema.get_field_data_types()):
            self._fields.append((name, to_type_string(t)))
        return self


class Json(FormatDescriptor):
    """The ``json`` format: one JSON object per line."""

    def __init__(self) -> None:
        super().__init__("json")

    def fail_on_missing_field(self, fail_on_missing_field: bool) -> "Json":
        """Fail when a field is missing (default: missing fields are NULL)."""
        self._set("fail-on-missing-field", fail_on_missing_field)
        return self

    def ignore_parse_errors(self, ignore_parse_errors: bool = True) -> "Json":
        """Skip rows that cannot be parsed instead of failing."""
        self._set("ignore-parse-errors", ignore_parse_errors)
        return self

    def schema(self, schema_data_type: DataType) -> "Json":
        """Fields from a ROW type."""
        for name, t in zip(schema_data_type.field_names(), schema_data_type.field_types()):  # type: ignore[attr-defined]
            self._fields.append((name, to_type_string(t)))
        return self

    def json_schema(self, json_schema: str) -> "Json":
        """JSON-schema strings are not supported: declare the table schema instead."""
        raise TableException("Unsupported: Json().json_schema is not supported by pyflink_table on Spark; use with_schema.")

    def derive_schema(self) -> "Json":
        """Take the fields from the table schema (the default here)."""
        return self


class Rowtime:
    """FLIP-38 rowtime attribute; accepted for compatibility (batch jobs need no watermarks).

    :meth:`to_properties` gives the properties FLIP-38 wrote for it::

        >>> Rowtime().timestamps_from_field("ts").watermarks_periodic_bounded(1000).to_properties()
        {'rowtime.timestamps.type': 'from-field', 'rowtime.timestamps.from': 'ts', \
'rowtime.watermarks.type': 'periodic-bounded', 'rowtime.watermarks.delay': '1000'}
    """

    def __init__(self) -> None:
        self._field: Optional[str] = None
        self._properties: Dict[str, str] = {}

    def _timestamps(self, kind: str, **extra: str) -> "Rowtime":
        for key in [k for k in self._properties if k.startswith("rowtime.timestamps.")]:
            del self._properties[key]
        self._properties["rowtime.timestamps.type"] = kind
        self._properties.update({f"rowtime.timestamps.{k}": v for k, v in extra.items()})
        return self

    def _watermarks(self, kind: str, **extra: str) -> "Rowtime":
        for key in [k for k in self._properties if k.startswith("rowtime.watermarks.")]:
            del self._properties[key]
        self._properties["rowtime.watermarks.type"] = kind
        self._properties.update({f"rowtime.watermarks.{k}": v for k, v in extra.items()})
        return self

    def timestamps_from_field(self, field_name: str) -> "Rowtime":
        """The field holding the event time."""
        self._field = field_name
        return self._timestamps("from-field", **{"from": field_name})

    def timestamps_from_source(self) -> "Rowtime":
        """Event time from the source (no effect in batch)."""
        return self._timestamps("from-source")

    def timestamps_from_extractor(self, extractor: Any) -> "Rowtime":
        """Custom extractors (serialized Java classes) are not supported."""
        raise TableException("Unsupported: Rowtime.timestamps_from_extractor is not supported by pyflink_table on Spark.")

    def watermarks_periodic_ascending(self) -> "Rowtime":
        """Ascending watermarks (no effect in batch)."""
        return self._watermarks("periodic-ascending")

    def watermarks_periodic_bounded(self, delay: int) -> "Rowtime":
        """Bounded-delay watermarks, ``delay`` milliseconds (no effect in batch)."""
        return self._watermarks("periodic-bounded", delay=str(delay))

    def watermarks_from_source(self) -> "Rowtime":
        """Watermarks from the source (no effect in batch)."""
        return self._watermarks("from-source")

    def watermarks_from_strategy(self, strategy: Any) -> "Rowtime":
        """Custom watermark strategies (serialized Java classes) are not supported."""
        raise TableException("Unsupported: Rowtime.watermarks_from_strategy is not supported by pyflink_table on Spark.")

    def to_properties(self) -> Dict[str, str]:
        """The descriptor's properties, as FLIP-38 wrote them (``rowtime.timestamps.type``, ...).

        :return: a new dictionary.
        """
        return dict(self._properties)


# FLIP-38's legacy type-information names, as its Schema descriptor rewrote them.
_LEGACY_TYPE_NAMES = {"LONG": "BIGINT", "BYTE": "TINYINT", "SHORT": "SMALLINT", "SQL_TIMESTAMP": "TIMESTAMP(3)",
                      "SQL_TIME": "TIME(0)", "SQL_DATE": "DATE"}


def _legacy_type_property(field_type: Any) -> str:
    """The ``data-type`` property FLIP-38 wrote for a field type.

    A :class:`DataType` is written in Flink's serializable form (``VARCHAR(2147483647)`` for
    ``STRING``); a type string is kept, but for legacy type-information names (``LONG``,
    ``SQL_TIMESTAMP``, ``OBJECT_ARRAY<T>``, ...), which are rewritten to SQL names.
    """
    if isinstance(field_type, str):
        s = field_type.strip()
        if s.upper() in _LEGACY_TYPE_NAMES:
            return _LEGACY_TYPE_NAMES[s.upper()]
        for prefix, suffix in (("OBJECT_ARRAY<", ">"), ("PRIMITIVE_ARRAY<", " NOT NULL>")):
            if s.upper().startswith(prefix) and s.endswith(">"):
                return "ARRAY<" + _legacy_type_property(s[len(prefix):-1]) + suffix
        return s
    text = _type_string(field_type)
    text = re.sub(r"(?<!`)\bSTRING\b(?!`)", "VARCHAR(2147483647)", text)
    text = re.sub(r"(?<!`)\bBYTES\b(?!`)", "VARBINARY(2147483647)", text)
    return re.sub(r"\bTIMESTAMP_LTZ\((\d)\)", r"TIMESTAMP(\1) WITH LOCAL TIME ZONE", text)


class Schema:
    """FLIP-38's table schema descriptor: ``Schema().field("a", DataTypes.STRING())``.

    :meth:`to_properties` gives the properties FLIP-38 wrote for it::

        >>> Schema().field("a", DataTypes.STRING()).proctime().to_properties()
        {'schema.0.name': 'a', 'schema.0.data-type': 'VARCHAR(2147483647)', 'schema.0.proctime': 'true'}
    """

    def __init__(self, schema: Any = None, fields: Optional[Dict[str, Any]] = None) -> None:
        self._fields: List[Tuple[str, Optional[str], Optional[str]]] = []
        self._properties: List[Dict[str, str]] = []
        self._origin_fields: List[str] = []
        if schema is not None:
            self.schema(schema)
        if fields:
            self.fields(fields)

    def schema(self, table_schema: Any) -> "Schema":
        """Replace the fields with those of a :class:`~pyflink_table.TableSchema`."""
        self._fields = []
        self._properties = []
        for n, t in zip(table_schema.get_field_names(), table_schema.get_field_data_types()):
            self.field(n, t)
        return self

    def field(self, field_name: str, field_type: Union[DataType, str, Any]) -> "Schema":
        """Append a field."""
        self._fields.append((field_name, _type_string(field_type), None))
        self._properties.append({"name": field_name, "data-type": _legacy_type_property(field_type)})
        return self

    def fields(self, fields: Dict[str, Any]) -> "Schema":
        """Append several fields, in dictionary order."""
        for name, t in fields.items():
            self.field(name, t)
        return self

    def _last(self, what: str) -> Dict[str, str]:
        if not self._properties:
            raise ValidationException(f"No field defined previously. Use field() before {what}.")
        return self._properties[-1]

    def from_origin_field(self, origin_field_name: str) -> "Schema":
        """The last field reads the source field ``origin_field_name`` (recorded; a connected table
        using it raises, as renaming source fields is not supported)."""
        self._last("from_origin_field()")["from"] = origin_field_name
        self._origin_fields.append(self._fields[-1][0])
        return self

    def proctime(self) -> "Schema":
        """Turn the last field into a processing-time attribute (the current timestamp)."""
        self._last("proctime()")["proctime"] = "true"
        name = self._fields[-1][0]
        self._fields[-1] = (name, None, "PROCTIME()")
        return self

    def rowtime(self, rowtime: Rowtime) -> "Schema":
        """Declare the last field an event-time attribute (no effect in batch)."""
        self._last("rowtime()").update(rowtime.to_properties())
        return self

    def to_properties(self) -> Dict[str, str]:
        """The descriptor's properties, as FLIP-38 wrote them (``schema.0.name``, ``schema.0.data-type``, ...).

        :return: a new dictionary.
        """
        return {f"schema.{i}.{k}": v for i, props in enumerate(self._properties) for k, v in props.items()}


@java_errors
class ConnectTableDescriptor:
    """What ``t_env.connect(...)`` returns: add a format and a schema, then register the table."""

    def __init__(self, t_env: "TableEnvironment", connector: ConnectorDescriptor) -> None:
        self._t_env = t_env
        self._connector = connector
        self._format: Optional[FormatDescriptor] = None
        self._schema: Optional[Schema] = None

    def with_format(self, format_descriptor: FormatDescriptor) -> "ConnectTableDescriptor":
        """The format of the files."""
        self._format = format_descriptor
        return self

    def with_schema(self, schema: Schema) -> "ConnectTableDescriptor":
        """The table's columns."""
        self._schema = schema
        return self

    def in_append_mode(self) -> "ConnectTableDescriptor":
        """Append mode: every result row is written (the only mode of batch jobs)."""
        return self

    def in_retract_mode(self) -> "ConnectTableDescriptor":
        """Retract streams cannot be written to files."""
        raise TableException("Unsupported: in_retract_mode is not supported by pyflink_table on Spark (batch sinks append).")

    def in_upsert_mode(self) -> "ConnectTableDescriptor":
        """Upsert streams cannot be written to files."""
        raise TableException("Unsupported: in_upsert_mode is not supported by pyflink_table on Spark (batch sinks append).")

    def _descriptor(self) -> TableDescriptor:
        if self._schema is not None and self._schema._origin_fields:
            raise TableException("Unsupported: Schema.from_origin_field (fields "
                                 f"{self._schema._origin_fields}) is not supported by pyflink_table on Spark.")
        options = self._connector._connector_options()
        columns: List[Tuple[str, Optional[str], Any]]
        if self._schema is not None:
            columns = list(self._schema._fields)
        elif self._format is not None and self._format._fields:
            columns = [(n, t, None) for n, t in self._format._fields]
        else:
            columns = []
        if self._format is not None:
            options.update(self._format._options())
        options[_LEGACY_SINK] = "true"
        return TableDescriptor(_NewSchema(columns, [], []) if columns else None, options, [], None)

    def create_temporary_table(self, path: str) -> None:
        """Register the table as a temporary table (source and sink)."""
        self._t_env.create_temporary_table(path, self._descriptor())

    def register_table_source(self, name: str) -> None:
        """Register the table under ``name`` (FLIP-38)."""
        self.create_temporary_table(name)

    def register_table_sink(self, name: str) -> None:
        """Register the table under ``name`` (FLIP-38)."""
        self.create_temporary_table(name)

    def register_table_source_and_sink(self, name: str) -> None:
        """Register the table under ``name`` (FLIP-38)."""
        self.create_temporary_table(name)
