"""``TableSchema`` (legacy) and ``ResolvedSchema``: the names and types of a table's columns."""

from __future__ import annotations

from typing import List, Optional, Sequence

from pyflink_table.types import DataType, RowType, DataTypes, parse_type_string, to_type_string

__all__ = ["TableSchema", "ResolvedSchema"]


class TableSchema:
    """Column names and data types of a table.

    Example::

        >>> schema = TableSchema(["a", "b"], [DataTypes.INT(), DataTypes.STRING()])
        >>> schema.get_field_names()
        ['a', 'b']
    """

    def __init__(self, field_names: Optional[Sequence[str]] = None,
                 data_types: Optional[Sequence[DataType]] = None) -> None:
        self._names: List[str] = list(field_names or [])
        self._types: List[DataType] = list(data_types or [])
        if len(self._names) != len(self._types):
            raise ValueError("field_names and data_types must have the same length")

    @staticmethod
    def _from_strings(names: Sequence[str], types: Sequence[str]) -> "TableSchema":
        return TableSchema(list(names), [parse_type_string(t) for t in types])

    def copy(self) -> "TableSchema":
        """A copy of this schema."""
        return TableSchema(self._names, self._types)

    def get_field_data_types(self) -> List[DataType]:
        """The data types of all columns."""
        return list(self._types)

    def get_field_data_type(self, field: "int | str") -> Optional[DataType]:
        """The data type of a column by position or name; None if absent.

        :raises TypeError: when ``field`` is neither an int nor a str, as PyFlink.
        """
        if not isinstance(field, (int, str)):
            raise TypeError(f"Expected field index or field name, got {type(field)}")
        if isinstance(field, int):
            return self._types[field] if 0 <= field < len(self._types) else None
        return self._types[self._names.index(field)] if field in self._names else None

    def get_field_count(self) -> int:
        """The number of columns."""
        return len(self._names)

    def get_field_names(self) -> List[str]:
        """The names of all columns."""
        return list(self._names)

    def get_field_name(self, field_index: int) -> Optional[str]:
        """The name of the column at ``field_index``; None if out of range."""
        return self._names[field_index] if 0 <= field_index < len(self._names) else None

    def to_row_data_type(self) -> RowType:
        """The schema as a ROW type (NOT NULL, as PyFlink's)."""
        return DataTypes.ROW([DataTypes.FIELD(n, t) for n, t in zip(self._names, self._types)], nullable=False)

    def __str__(self) -> str:
        lines = ["root"] + [f" |-- {n}: {to_type_string(t)}" for n, t in zip(self._names, self._types)]
        return "\n".join(lines) + "\n"

    def __repr__(self) -> str:
        return str(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TableSchema) and other._names == self._names and other._types == self._types

    def __hash__(self) -> int:
        return hash(tuple(self._names))

    class Builder:
        """Builds a :class:`TableSchema` field by field."""

        def __init__(self) -> None:
            self._names: List[str] = []
            self._types: List[DataType] = []

        def field(self, name: str, data_type: DataType) -> "TableSchema.Builder":
            """Add a column."""
            self._names.append(name)
            self._types.append(data_type)
            return self

        def build(self) -> "TableSchema":
            """The schema."""
            return TableSchema(self._names, self._types)

    @staticmethod
    def builder() -> "TableSchema.Builder":
        """A builder for a schema."""
        return TableSchema.Builder()


class ResolvedSchema:
    """The resolved schema of a table: column names and data types, printed like Flink's."""

    def __init__(self, names: Sequence[str], types: Sequence[DataType]) -> None:
        self._names = list(names)
        self._types = list(types)

    @staticmethod
    def physical(column_names: Sequence[str], column_data_types: Sequence[DataType]) -> "ResolvedSchema":
        """A schema of physical columns only.

        :param column_names: the column names.
        :param column_data_types: their types, one per name.
        :return: the schema.
        """
        if len(column_names) != len(column_data_types):
            raise ValueError("Length of column names and column data types must be equal.")
        return ResolvedSchema(column_names, column_data_types)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, ResolvedSchema) and self._names == other._names
                and self._types == other._types)

    def __hash__(self) -> int:
        return hash((tuple(self._names), tuple(self._types)))

    def get_column_count(self) -> int:
        """The number of columns."""
        return len(self._names)

    def get_column_names(self) -> List[str]:
        """The names of all columns."""
        return list(self._names)

    def get_column_data_types(self) -> List[DataType]:
        """The data types of all columns."""
        return list(self._types)

    def get_primary_key(self) -> None:
        """Tables computed by pyflink_table have no primary key."""
        return None

    def __str__(self) -> str:
        cols = ",\n".join(f"  `{n}` {to_type_string(t)}" for n, t in zip(self._names, self._types))
        return "(\n" + cols + ("\n" if cols else "") + ")"

    def __repr__(self) -> str:
        return str(self)
