"""FLIP-38's ``CsvTableSource``: a CSV file (or directory) as a source table."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from pyflink_table.errors import TableException, ValidationException
from pyflink_table.schema import Schema, _type_string
from pyflink_table.table_descriptor import TableDescriptor

__all__ = ["TableSource", "CsvTableSource"]


class TableSource:
    """Base of FLIP-38 table sources: a connector table definition."""

    def __init__(self, descriptor: TableDescriptor) -> None:
        self._descriptor = descriptor


class CsvTableSource(TableSource):
    """Reads CSV files; register with ``t_env.register_table_source(name, source)``.

    :param source_path: a file or a directory of files.
    :param field_names: column names.
    :param field_types: column types (``DataType`` or type strings).
    :param field_delim: the field separator.
    :param quote_character: the quote character.
    :param ignore_first_line: skip the first line of each file.
    :param ignore_comments: a comment prefix; only ``#`` is supported.
    :param lenient: skip rows that cannot be parsed.

    Example::

        >>> CsvTableSource("/tmp/in.csv", ["a"], [DataTypes.STRING()])
    """

    def __init__(self, source_path: str, field_names: Sequence[str], field_types: Sequence[Any],
                 field_delim: Optional[str] = None, line_delim: Optional[str] = None,
                 quote_character: Optional[str] = None, ignore_first_line: Optional[bool] = None,
                 ignore_comments: Optional[str] = None, lenient: Optional[bool] = None,
                 empty_column_as_null: Optional[bool] = None) -> None:
        if len(field_names) != len(field_types):
            raise ValidationException(
                f"Field names ({len(field_names)}) and field types ({len(field_types)}) differ in length.")
        if line_delim not in (None, "\n", "\r\n"):
            raise TableException(f"Unsupported: CSV line delimiter {line_delim!r} is not supported by pyflink_table on Spark.")
        if ignore_comments not in (None, "#"):
            raise TableException(f"Unsupported: CSV comment prefix {ignore_comments!r} is not supported by pyflink_table on Spark.")
        options: Dict[str, str] = {"connector": "filesystem", "path": source_path, "format": "csv"}
        if field_delim is not None:
            options["csv.field-delimiter"] = field_delim
        if quote_character is not None:
            options["csv.quote-character"] = quote_character
        if ignore_first_line:
            options["pyflink-table.skip-first-line"] = "true"
        if ignore_comments:
            options["csv.allow-comments"] = "true"
        if lenient:
            options["csv.ignore-parse-errors"] = "true"
        columns: List[Any] = [(n, _type_string(t), None) for n, t in zip(field_names, field_types)]
        super().__init__(TableDescriptor(Schema(columns, [], []), options, [], None))
