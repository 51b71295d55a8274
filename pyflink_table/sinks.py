"""FLIP-38's ``CsvTableSink``: write a table as CSV into one file (or a directory)."""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence

from pyflink_table.errors import ValidationException
from pyflink_table.schema import Schema, _type_string
from pyflink_table.table_descriptor import TableDescriptor

__all__ = ["TableSink", "CsvTableSink", "WriteMode"]


class WriteMode:
    """Whether a file sink may replace an existing file."""

    NO_OVERWRITE = 0
    OVERWRITE = 1


class TableSink:
    """Base of FLIP-38 table sinks: a connector table definition."""

    def __init__(self, descriptor: TableDescriptor) -> None:
        self._descriptor = descriptor


class CsvTableSink(TableSink):
    """Writes CSV; register with ``t_env.register_table_sink(name, sink)``.

    Rows are appended to the file at ``path`` (one file, as FLIP-38 wrote with parallelism 1);
    ``write_mode=WriteMode.OVERWRITE`` replaces it. An existing directory receives part files.

    :param field_names: column names.
    :param field_types: column types.
    :param path: the output file.
    :param field_delimiter: the field separator.
    :param num_files: accepted for compatibility.
    :param write_mode: :attr:`WriteMode.OVERWRITE` to replace the file.
    """

    def __init__(self, field_names: Sequence[str], field_types: Sequence[Any], path: str,
                 field_delimiter: str = ",", num_files: int = -1, write_mode: Optional[int] = None) -> None:
        if len(field_names) != len(field_types):
            raise ValidationException(
                f"Field names ({len(field_names)}) and field types ({len(field_types)}) differ in length.")
        options: Dict[str, str] = {"connector": "filesystem", "path": path, "format": "csv",
                                   "csv.field-delimiter": field_delimiter, "pyflink-table.legacy-sink": "true"}
        if not os.path.isdir(path):
            options["pyflink-table.single-file"] = "true"
        columns: List[Any] = [(n, _type_string(t), None) for n, t in zip(field_names, field_types)]
        if write_mode == WriteMode.OVERWRITE:
            options["pyflink-table.overwrite"] = "true"
        super().__init__(TableDescriptor(Schema(columns, [], []), options, [], None))
