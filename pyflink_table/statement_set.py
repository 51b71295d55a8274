"""``StatementSet``: several INSERTs submitted together."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, List, Tuple, Union

from pyflink_table.errors import TableException, java_errors
from pyflink_table.table_result import TableResult

if TYPE_CHECKING:
    from pyflink_table.table import Table
    from pyflink_table.table_descriptor import TableDescriptor
    from pyflink_table.table_environment import TableEnvironment

__all__ = ["StatementSet"]


@java_errors
class StatementSet:
    """A group of INSERTs run by one :meth:`execute`.

    Every insert is validated when added (unknown sink, column mismatch). ``execute`` runs them
    one after the other as Spark jobs (Spark has no multi-sink job); each sink commits its files
    only when its own job succeeded.

    Example::

        >>> stmt_set = t_env.create_statement_set()
        >>> stmt_set.add_insert("sink1", t1).add_insert_sql("INSERT INTO sink2 SELECT * FROM src")
        >>> stmt_set.execute().wait()
    """

    def __init__(self, t_env: "TableEnvironment") -> None:
        self._t_env = t_env
        self._inserts: List[Tuple[Any, "Table", bool]] = []

    def add_insert(self, target_path_or_descriptor: Union[str, "TableDescriptor"], table: "Table",
                   overwrite: bool = False) -> "StatementSet":
        """Add ``INSERT INTO target SELECT * FROM table``.

        :param target_path_or_descriptor: a registered sink table or a TableDescriptor.
        :param table: the rows to write.
        :param overwrite: replace the sink's contents (INSERT OVERWRITE).
        """
        self._t_env._check_insert(target_path_or_descriptor, table)
        self._inserts.append((target_path_or_descriptor, table, overwrite))
        return self

    def add_insert_sql(self, stmt: str) -> "StatementSet":
        """Add an INSERT statement (validated now, run by :meth:`execute`)."""
        self._t_env._config._check_parser()
        from pyflink_table.table import Table

        prepared = self._t_env._j_env.connectors().prepareInsert(stmt)
        self._inserts.append((prepared.path(), Table(prepared.table(), self._t_env), bool(prepared.overwrite())))
        return self

    def add(self, table_pipeline: Any) -> "StatementSet":
        """Add the insert of a :class:`~pyflink_table.table_pipeline.TablePipeline` (``table.insert_into(...)``)."""
        table_pipeline._table._t_env._unqueue_insert(table_pipeline)
        return self.add_insert(table_pipeline._target, table_pipeline._table, table_pipeline._overwrite)

    def attach_as_datastream(self) -> None:
        """There is no DataStream API on Spark."""
        raise TableException("Unsupported: StatementSet.attach_as_datastream is not supported by pyflink_table on Spark.")

    def explain(self, *extra_details: Any) -> str:
        """The plans of all inserts, one section per sink."""
        sections = []
        for target, table, overwrite in self._inserts:
            name = target if isinstance(target, str) else "*anonymous*"
            verb = "INSERT OVERWRITE" if overwrite else "INSERT INTO"
            sections.append(f"== {verb} {name} ==\n" + table.explain(*extra_details))
        return "\n\n".join(sections)

    def print_explain(self, *extra_details: Any) -> None:
        """Print :meth:`explain`."""
        print(self.explain(*extra_details))

    def execute(self) -> TableResult:
        """Run all inserts; the set is empty afterwards."""
        if not self._inserts:
            raise TableException("No operators defined in the statement set: add inserts before execute().")
        inserts, self._inserts = self._inserts, []
        return self._t_env._submit_inserts(inserts, one_sink=False)
