"""``TableDescriptor`` and ``FormatDescriptor``: connector tables declared in Python, as in PyFlink."""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Union

from pyflink_table.errors import ValidationException
from pyflink_table.schema import Schema, _Metadata
from pyflink_table.types import _quote_name

__all__ = ["TableDescriptor", "FormatDescriptor"]


class _EqualWhenPrintedAlike:
    """Descriptors are equal when they print alike: the same parts in the same order."""

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))


class TableDescriptor(_EqualWhenPrintedAlike):
    """A connector table: schema, options, format and partition keys.

    Register it with ``t_env.create_table`` / ``create_temporary_table``, read it with
    ``t_env.from_descriptor``, or write to it with ``table.execute_insert(descriptor)``.

    Example::

        >>> TableDescriptor.for_connector("filesystem") \\
        ...     .schema(Schema.new_builder().column("a", DataTypes.INT()).build()) \\
        ...     .option("path", "/tmp/out") \\
        ...     .format("csv") \\
        ...     .build()
    """

    def __init__(self, schema: Optional[Schema], options: Dict[str, str], partition_keys: List[str],
                 comment: Optional[str]) -> None:
        self._schema = schema
        self._options = dict(options)
        self._partition_keys = list(partition_keys)
        self._comment = comment

    @staticmethod
    def for_connector(connector: str) -> "TableDescriptor.Builder":
        """A builder for a table of the given connector (``filesystem``, ``datagen``, ``print``, ``blackhole``)."""
        return TableDescriptor.Builder(connector)

    def get_schema(self) -> Optional[Schema]:
        """The declared schema, if any."""
        return self._schema

    def get_options(self) -> Dict[str, str]:
        """All options, ``connector`` and format options included (in the order Flink's map gives them)."""
        return _in_java_map_order(self._options)

    def get_partition_keys(self) -> List[str]:
        """The partition columns."""
        return list(self._partition_keys)

    def get_comment(self) -> Optional[str]:
        """The table comment, if any."""
        return self._comment

    def _java_definition(self, derived_from: Any = None) -> Any:
        """The JVM TableDefinition; without declared columns they are taken from ``derived_from`` (a Table)."""
        from pyflink_table.java_gateway import bridge, to_string_array

        columns = list(self._schema._columns) if self._schema is not None else []
        if not any(e is None for _, _, e in columns):
            if derived_from is None:
                raise ValidationException(
                    "The TableDescriptor declares no physical columns: add a schema with Schema.new_builder().column(...).")
            j = derived_from._j_table
            columns = [(n, t, None) for n, t in zip(j.fieldNames(), j.fieldTypes())] + columns
        # Expression-valued computed columns get a placeholder here and their AST below (same
        # position); metadata columns are typed columns marked below.
        plain = [(n, t, None if e is None or isinstance(e, _Metadata) else e if isinstance(e, str) else "?")
                 for n, t, e in columns]
        definition = bridge().connectors.TableDefinition.of(
            to_string_array(c[0] for c in plain),
            to_string_array((c[1] or "") for c in plain),
            to_string_array(c[2] for c in plain),  # type: ignore[misc]
            to_string_array(self._partition_keys),
            to_string_array(self._schema._primary_key if self._schema is not None else []),
            to_string_array(self._options.keys()),
            to_string_array(self._options.values()),
        )
        for name, _, expr in columns:
            if isinstance(expr, _Metadata):
                definition.markMetadata(name, expr.key, expr.virtual)
            elif expr is not None and not isinstance(expr, str):
                definition.addExpressionColumn(name, expr._j_expr)
        if self._schema is not None and self._schema._watermarks:
            column, expr = self._schema._watermarks[0]
            names = [n for n, _, _ in columns]
            if column not in names:  # Flink's check when the table is created
                raise ValidationException(f"Invalid column name '{column}' for rowtime attribute in watermark "
                                          f"declaration. Available columns are: [{', '.join(names)}]")
            definition.watermark = f"WATERMARK FOR {_quote_name(column)} AS {expr}"
        return definition

    def __str__(self) -> str:
        # As Flink prints it (measured on PyFlink 2.3): no schema prints nothing, the comment as
        # given, names quoted, and the options in its HashMap's order with quotes doubled.
        parts = [str(self._schema) if self._schema is not None else ""]
        if self._comment:
            parts.append(f"COMMENT '{self._comment}'")
        if self._partition_keys:
            parts.append("PARTITIONED BY (" + ", ".join(_quote_name(k) for k in self._partition_keys) + ")")
        options = ",\n".join(f"  '{_quoted(k)}' = '{_quoted(v)}'" for k, v in self.get_options().items())
        parts.append("WITH (\n" + options + "\n)")
        return "\n".join(parts)

    class Builder:
        """Collects the parts of a :class:`TableDescriptor`."""

        def __init__(self, connector: str) -> None:
            self._schema: Optional[Schema] = None
            self._options: Dict[str, str] = {"connector": connector}
            self._partition_keys: List[str] = []
            self._comment: Optional[str] = None

        def schema(self, schema: Schema) -> "TableDescriptor.Builder":
            """Set the table's columns."""
            self._schema = schema
            return self

        def option(self, key: Union[str, Any], value: Any) -> "TableDescriptor.Builder":
            """Set one connector option (full key, e.g. ``"path"`` or ``"csv.field-delimiter"``)."""
            name = _option_key(key)
            self._options[name] = _option_value(value)
            return self

        def format(self, format: Union[str, "FormatDescriptor"], format_option: Any = None) -> "TableDescriptor.Builder":
            """Set the format: a name (``"csv"``) or a :class:`FormatDescriptor` with its options.

            Format options are stored with the format name as prefix (``csv.field-delimiter``).
            """
            key = "format" if format_option is None else _option_key(format_option)
            prefix = key[: -len("format")] if key.endswith("format") else ""
            if isinstance(format, str):
                self._options[key] = format
            else:
                self._options[key] = format._format
                for k, v in format.get_options().items():
                    self._options[f"{prefix}{format._format}.{k}"] = v
            return self

        def partitioned_by(self, *partition_keys: str) -> "TableDescriptor.Builder":
            """Partition the table's files by these columns (filesystem connector)."""
            self._partition_keys = list(partition_keys)
            return self

        def comment(self, comment: str) -> "TableDescriptor.Builder":
            """Set the table comment."""
            self._comment = comment
            return self

        def build(self) -> "TableDescriptor":
            """The descriptor."""
            return TableDescriptor(self._schema, self._options, self._partition_keys, self._comment)


class FormatDescriptor(_EqualWhenPrintedAlike):
    """A format with its options, for :meth:`TableDescriptor.Builder.format`.

    Example::

        >>> FormatDescriptor.for_format("csv").option("field-delimiter", "|").build()
    """

    def __init__(self, format: str, options: Dict[str, str]) -> None:
        self._format = format
        self._options = dict(options)

    @staticmethod
    def for_format(format: str) -> "FormatDescriptor.Builder":
        """A builder for the given format (``csv``, ``json``, ``parquet``, ``orc``, ``raw``)."""
        return FormatDescriptor.Builder(format)

    def get_format(self) -> str:
        """The format name."""
        return self._format

    def get_options(self) -> Dict[str, str]:
        """The format's options, without the format prefix (in the order Flink's map gives them)."""
        return _in_java_map_order(self._options)

    def __str__(self) -> str:
        # as Flink prints it: the format name, then its options as a Java map ({k=v, ...})
        options = ", ".join(f"{k}={v}" for k, v in self.get_options().items())
        return f"{self._format}[{{{options}}}]"

    class Builder:
        """Collects the options of a :class:`FormatDescriptor`."""

        def __init__(self, format: str) -> None:
            self._format = format
            self._options: Dict[str, str] = {}

        def option(self, key: Union[str, Any], value: Any) -> "FormatDescriptor.Builder":
            """Set one format option, without the format prefix (``"field-delimiter"``)."""
            name = _option_key(key)
            self._options[name] = _option_value(value)
            return self

        def build(self) -> "FormatDescriptor":
            """The descriptor."""
            return FormatDescriptor(self._format, self._options)


def _quoted(text: str) -> str:
    return text.replace("'", "''")


def _java_string_hash(text: str) -> int:
    """Java's ``String.hashCode`` (over UTF-16 code units), as an unsigned 32-bit value."""
    h = 0
    data = text.encode("utf-16-be", "surrogatepass")
    for i in range(0, len(data), 2):
        h = (31 * h + (data[i] << 8 | data[i + 1])) & 0xFFFFFFFF
    return h


def _java_hash_map_order(keys: Iterable[str]) -> List[str]:
    """The iteration order of a ``java.util.HashMap`` into which ``keys`` were put in this order.

    Flink keeps descriptor and catalog options in one, and PyFlink prints them in its order: by
    bucket (the spread hash masked by the table size, which starts at 16 and doubles once the
    map is more than 3/4 full, or when a bucket would hold a ninth key below 64), keys of one
    bucket in insertion order. Above 64, a bucket of nine keys becomes a tree in Java whose
    order is not reproduced here; option keys do not collide that much.
    """
    ordered = list(dict.fromkeys(keys))
    capacity = 16

    def bucket(key: str) -> int:
        h = _java_string_hash(key)
        return (h ^ (h >> 16)) & (capacity - 1)

    for size in range(1, len(ordered) + 1):
        new = bucket(ordered[size - 1])
        if capacity < 64 and sum(1 for k in ordered[:size - 1] if bucket(k) == new) >= 8:
            capacity *= 2
        if size > capacity * 3 // 4:
            capacity *= 2
    return sorted(ordered, key=bucket)


def _in_java_map_order(options: Dict[str, str]) -> Dict[str, str]:
    return {k: options[k] for k in _java_hash_map_order(options)}


def _option_key(key: Any) -> str:
    """The key of an option given as a string or a :class:`~pyflink_table.config_options.ConfigOption`."""
    from pyflink_table.config_options import ConfigOption

    if isinstance(key, ConfigOption):
        return key._key
    return key if isinstance(key, str) else getattr(key, "key", lambda: str(key))()


def _option_value(value: Any) -> str:
    """Option values as Flink writes them: booleans lower-case, everything else as text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
