"""A table pipeline: a table and the sink it is to be written to, as ``Table.insert_into`` returns it.

Nothing runs until :meth:`TablePipeline.execute`; a pipeline can also be explained, or added to
a :class:`~pyflink_table.StatementSet`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from pyflink_table.catalog import ObjectIdentifier
from pyflink_table.errors import TableException

if TYPE_CHECKING:
    from pyflink_table.table import Table
    from pyflink_table.table_result import TableResult

__all__ = ["TablePipeline"]


class TablePipeline:
    """The insert of a table into a sink (a registered table path or a ``TableDescriptor``).

    Example::

        >>> table.insert_into("Results").execute().wait()
    """

    def __init__(self, table: "Table", target: Any, overwrite: bool) -> None:
        self._table = table
        self._target = target
        self._overwrite = overwrite

    def execute(self) -> "TableResult":
        """Run the insert.

        :return: the insert's result (one row per sink, ``-1`` affected rows, as Flink).
        """
        self._table._t_env._unqueue_insert(self)
        return self._table._t_env._submit_inserts([(self._target, self._table, self._overwrite)], one_sink=True)

    def get_sink_identifier(self) -> Optional[ObjectIdentifier]:
        """The full name of the sink table; None for a sink given as a ``TableDescriptor``."""
        if not isinstance(self._target, str):
            return None
        identifier: ObjectIdentifier = self._table._t_env._object_identifier(self._target)
        return identifier

    def explain(self, *extra_details: Any) -> str:
        """The plan of the insert.

        :param extra_details: :class:`~pyflink_table.ExplainDetail` values.
        :return: the plan text.
        """
        statements = self._table._t_env.create_statement_set()
        statements.add_insert(self._target, self._table, self._overwrite)
        return str(statements.explain(*extra_details))

    def print_explain(self, *extra_details: Any) -> None:
        """Print :meth:`explain`'s text."""
        print(self.explain(*extra_details))

    def compile_plan(self) -> Any:
        """Flink's compiled JSON plans do not exist on Spark.

        :raises TableException: always.
        """
        raise TableException("Unsupported: TablePipeline.compile_plan (Flink's compiled JSON plans) is not "
                             "supported by pyflink_table on Spark; use execute() or explain().")
