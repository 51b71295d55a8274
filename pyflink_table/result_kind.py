"""``ResultKind``, importable from its own module as in PyFlink (``pyflink.table.result_kind``)."""

from pyflink_table.table_result import ResultKind

__all__ = ["ResultKind"]
