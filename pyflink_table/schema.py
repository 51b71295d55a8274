"""``Schema``: the columns of a table declared with a :class:`~pyflink_table.TableDescriptor`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, List, Optional, Sequence, Tuple, Union

from pyflink_table.errors import ValidationException
from pyflink_table.types import DataType, RowType, _quote_name, to_type_string

if TYPE_CHECKING:
    from pyflink_table.expression import Expression

__all__ = ["Schema"]


class Schema:
    """The declared columns of a table: physical, computed, metadata, watermark and primary key, as in PyFlink.

    Watermarks are accepted and kept for display; batch jobs see all rows at once, so they do not
    change results.

    Example::

        >>> Schema.new_builder() \\
        ...     .column("a", DataTypes.INT()) \\
        ...     .column_by_expression("b", "a + 1") \\
        ...     .build()
    """

    def __init__(self, columns: Sequence[Tuple[str, Optional[str], Any]], watermarks: Sequence[Tuple[str, str]],
                 primary_key: Sequence[str], constraint_name: Optional[str] = None) -> None:
        # (name, Flink type string or None, expression (str / Expression) or None)
        self._columns = list(columns)
        self._watermarks = list(watermarks)
        self._primary_key = list(primary_key)
        self._constraint_name = constraint_name

    @staticmethod
    def new_builder() -> "Schema.Builder":
        """A builder for a new schema."""
        return Schema.Builder()

    def _physical(self) -> List[Tuple[str, str]]:
        return [(n, t) for n, t, e in self._columns if e is None and t is not None]

    def __str__(self) -> str:
        # As Flink prints an unresolved schema: names quoted, SQL text (a type or an expression
        # given as a string) in brackets.
        lines = []
        for name, type_string, expr in self._columns:
            if expr is None:
                lines.append(f"  {_quote_name(name)} {_printed(type_string)}")
            elif isinstance(expr, _Metadata):
                lines.append(f"  {_quote_name(name)} {expr}")
            else:
                lines.append(f"  {_quote_name(name)} AS " + (f"[{expr}]" if isinstance(expr, str) else str(expr)))
        for column, expr in self._watermarks:
            lines.append(f"  WATERMARK FOR {_quote_name(column)} AS {_printed(expr)}")
        if self._primary_key:
            name = self._constraint_name or "PK_" + "_".join(self._primary_key)
            keys = ", ".join(_quote_name(c) for c in self._primary_key)
            lines.append(f"  CONSTRAINT {_quote_name(name)} PRIMARY KEY ({keys}) NOT ENFORCED")
        return "(\n" + ",\n".join(lines) + "\n)"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Schema) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    class Builder:
        """Collects the columns of a :class:`Schema`."""

        def __init__(self) -> None:
            self._columns: List[Tuple[str, Optional[str], Any]] = []
            self._watermarks: List[Tuple[str, str]] = []
            self._primary_key: List[str] = []
            self._constraint_name: Optional[str] = None

        def from_schema(self, unresolved_schema: "Schema") -> "Schema.Builder":
            """Copy all columns, watermarks and the key of another schema."""
            self._columns.extend(unresolved_schema._columns)
            self._watermarks.extend(unresolved_schema._watermarks)
            self._primary_key.extend(unresolved_schema._primary_key)
            self._constraint_name = self._constraint_name or unresolved_schema._constraint_name
            return self

        def from_resolved_schema(self, resolved_schema: Any) -> "Schema.Builder":
            """Copy the columns of a :class:`~pyflink_table.ResolvedSchema`."""
            return self.from_fields(resolved_schema.get_column_names(), resolved_schema.get_column_data_types())

        def from_row_data_type(self, data_type: DataType) -> "Schema.Builder":
            """One physical column per field of a ``ROW`` type."""
            if not isinstance(data_type, RowType):
                raise ValidationException(f"from_row_data_type needs a ROW type, got {to_type_string(data_type) if isinstance(data_type, DataType) else data_type!r}.")
            return self.from_fields(data_type.field_names(), data_type.field_types())

        def from_fields(self, field_names: Sequence[str], field_data_types: Sequence[DataType]) -> "Schema.Builder":
            """Physical columns from parallel lists of names and types."""
            if len(field_names) != len(field_data_types):
                raise ValidationException(
                    f"Field names ({len(field_names)}) and field types ({len(field_data_types)}) differ in length.")
            for name, data_type in zip(field_names, field_data_types):
                self.column(name, data_type)
            return self

        def column(self, column_name: str, data_type: Union[str, DataType]) -> "Schema.Builder":
            """Append a physical column.

            :param column_name: the column name.
            :param data_type: a :class:`DataType` or a Flink type string such as ``"BIGINT"``.
            """
            type_string = _type_string(data_type)
            self._columns.append((column_name, _SqlText(type_string) if isinstance(data_type, str) else type_string, None))
            return self

        def column_by_expression(self, column_name: str, expr: Union[str, "Expression[Any]"]) -> "Schema.Builder":
            """Append a computed column: a SQL expression string or a Table API expression over the other columns."""
            self._columns.append((column_name, None, expr))
            return self

        def column_by_metadata(self, column_name: str, data_type: Union[str, DataType],
                               metadata_key: Optional[str] = None, is_virtual: bool = False) -> "Schema.Builder":
            """Append a metadata column: a value the connector supplies, such as a file's path.

            :param column_name: the column name.
            :param data_type: its type (a :class:`DataType` or a type string).
            :param metadata_key: the connector's metadata key; the column name when omitted.
            :param is_virtual: a virtual column is only read, never written to a sink.

            Which keys a connector supplies is checked when a query reads the table, as in Flink:
            the ``filesystem`` connector supplies ``file.path``, ``file.name``, ``file.size`` and
            ``file.modification-time``.
            """
            type_string = _type_string(data_type)
            self._columns.append((column_name, type_string, _Metadata(metadata_key, is_virtual)))
            return self

        def watermark(self, column_name: str, watermark_expr: Union[str, "Expression[Any]"]) -> "Schema.Builder":
            """Declare a watermark (kept for display; batch results do not depend on it)."""
            self._watermarks.append(
                (column_name, _SqlText(watermark_expr) if isinstance(watermark_expr, str) else str(watermark_expr)))
            return self

        def primary_key(self, *column_names: str) -> "Schema.Builder":
            """Declare a primary key (NOT ENFORCED, as in Flink)."""
            self._primary_key = list(column_names)
            return self

        def primary_key_named(self, constraint_name: str, *column_names: str) -> "Schema.Builder":
            """Declare a named primary key (NOT ENFORCED)."""
            self._constraint_name = constraint_name
            return self.primary_key(*column_names)

        def build(self) -> "Schema":
            """The schema."""
            names = [c[0] for c in self._columns]
            for key in self._primary_key:
                if key not in names:
                    raise ValidationException(
                        f"Primary key column '{key}' is not defined in the schema. Available columns: {names}.")
            return Schema(self._columns, self._watermarks, self._primary_key, self._constraint_name)


class _Metadata:
    """The expression slot of a metadata column: its key (None: the column name) and virtuality."""

    def __init__(self, key: Optional[str], virtual: bool) -> None:
        self.key = key
        self.virtual = bool(virtual)

    def __str__(self) -> str:
        # As Flink prints an unresolved metadata column: no type, the key only when given.
        text = "METADATA"
        if self.key is not None:
            text += " FROM '" + self.key.replace("'", "''") + "'"
        return text + (" VIRTUAL" if self.virtual else "")


class _SqlText(str):
    """A type or expression the user gave as SQL text, which Flink prints unresolved (in brackets)."""


def _printed(part: Any) -> str:
    return f"[{part}]" if isinstance(part, _SqlText) else str(part)


def _type_string(data_type: Union[str, DataType, Any]) -> str:
    """A Flink type string from a DataType, a type string, or FLIP-38's bare ``DataTypes.STRING``."""
    if isinstance(data_type, str):
        return data_type
    if isinstance(data_type, DataType):
        return to_type_string(data_type)
    if callable(data_type):
        made = data_type()
        if isinstance(made, DataType):
            return to_type_string(made)
    raise ValidationException(f"Expected a DataType or a type string, got {data_type!r}.")
