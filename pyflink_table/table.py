"""``Table`` and its grouped and windowed forms: relational operations delegated to the JVM bridge.

A :class:`Table` holds a handle on a bridge ``JTable`` (a Spark Dataset plus Flink semantics).
Each operation compiles its expressions in the JVM and returns a new Table; nothing runs until
``execute()``, ``to_pandas()`` or an insert.
"""

from __future__ import annotations

import itertools
import warnings
from typing import TYPE_CHECKING, Any, Iterable, List, Optional, Sequence, Union

from pyflink_table.errors import TableException, check_argument, java_errors
from pyflink_table.expression import Expression, _expr_array
from pyflink_table.java_gateway import bridge, to_java_array, to_string_array
from pyflink_table.row import Row
from pyflink_table.table_result import TableResult, _to_python, format_table
from pyflink_table.table_schema import ResolvedSchema, TableSchema
from pyflink_table.types import DataType, parse_type_string

if TYPE_CHECKING:
    from pyflink_table.table_pipeline import TablePipeline
    from pyflink_table.explain_detail import ExplainDetail
    import pandas as pd

    from pyflink_table.table_environment import TableEnvironment
    from pyflink_table.udf import UserDefinedFunctionWrapper
    from pyflink_table.window import GroupWindow, OverWindow

__all__ = ["Table", "GroupedTable", "GroupWindowedTable", "WindowGroupedTable", "OverWindowedTable",
           "AggregatedTable", "FlatAggregateTable"]

ExpressionOrStr = Union[Expression[Any], str]

# Names of tables registered by str(table); one sequence per process, as in Flink.
_UNNAMED_TABLE_IDS = itertools.count()


def _to_j_exprs(fields: Iterable[Any]) -> Any:
    """A Java Expr[] from Expressions and FLIP-38 string expressions (a string may hold several)."""
    exprs_cls = bridge().expressions.Exprs
    nodes: List[Any] = []
    for f in fields:
        if isinstance(f, str):
            nodes.extend(exprs_cls.parseList(f))
        elif isinstance(f, Expression):
            nodes.append(f._j_expr)
        else:
            raise TypeError(f"Expected an Expression or a string expression, got {type(f).__name__}: {f!r}")
    return _expr_array(nodes)


#: Titles of the sections explain() adds for ExplainDetail values, after Spark's plans.
_DETAIL_SECTIONS = ("Optimized Physical Plan With Advice", "Estimated Cost", "Physical Execution Plan")


def _explain_detail_names(extra_details: Sequence[Any]) -> Any:
    """A Java String[] of ExplainDetail names; plain ints as PyFlink's constants are accepted."""
    from pyflink_table.explain_detail import ExplainDetail

    names = []
    for detail in extra_details:
        try:
            names.append(ExplainDetail(detail).name)
        except ValueError:
            raise TypeError(f"Unknown explain detail {detail!r}; use one of "
                            f"{', '.join('ExplainDetail.' + d.name for d in ExplainDetail)}") from None
    return to_string_array(names)


def _to_j_expr(field: Any) -> Any:
    if isinstance(field, str):
        return bridge().expressions.Exprs.parse(field)
    if isinstance(field, Expression):
        return field._j_expr
    raise TypeError(f"Expected an Expression or a string expression, got {type(field).__name__}: {field!r}")


def _row_function(func: Any) -> Any:
    """The JVM call of a row-based operation's function; a bare function is applied to the whole row."""
    from pyflink_table.udf import UserDefinedFunctionWrapper

    if isinstance(func, UserDefinedFunctionWrapper):
        from pyflink_table.expressions import call

        # As in PyFlink, the function receives the whole input row as one Row argument.
        return _to_j_expr(func(call("inputRow")))
    return _to_j_expr(func)


def _pandas_like_pyflink(pdf: "pd.DataFrame", names: List[str], types: List[DataType], zone: str) -> "pd.DataFrame":
    """Spark's toPandas result with PyFlink's dtypes (measured on PyFlink 2.3): timestamps in the unit
    of their precision, TIMESTAMP_LTZ aware in the session time zone, and an empty
    result with object columns."""
    import pandas as pd

    from pyflink_table.types import LocalZonedTimestampType, TimestampType

    if len(pdf) == 0:
        return pd.DataFrame({n: pd.Series([], dtype=object) for n in names})[names]
    units = ["s", "ms", "ms", "ms", "us", "us", "us", "ns", "ns", "ns"]
    frame: Any = pdf  # pandas-stubs reject Series for isetitem, which pandas accepts
    for i, t in enumerate(types):
        column = pdf.iloc[:, i]
        if isinstance(t, TimestampType):
            unit: Any = f"datetime64[{units[t.precision]}]"
            frame.isetitem(i, column.astype(unit))
        elif isinstance(t, LocalZonedTimestampType):
            # Spark hands out session-local wall-clock times without a zone.
            local = column if column.dt.tz is not None else column.dt.tz_localize(zone)
            frame.isetitem(i, local.dt.tz_convert(zone).astype(f"datetime64[{units[t.precision]}, {zone}]"))
    return pdf


@java_errors
class Table:
    """A table of the Table API: the result of a source, a SQL query or relational operations.

    Example::

        >>> t = t_env.from_elements([(1, 'Hi'), (2, 'Hello')], ['a', 'b'])
        >>> t.select(col('a') + 1, col('b')).where(col('a') > 1).execute().print()
    """

    def __init__(self, j_table: Any, t_env: "TableEnvironment") -> None:
        self._j_table = j_table
        self._t_env = t_env

    def __getattr__(self, name: str) -> Expression[Any]:
        """``table.a``: the column ``a`` as an expression, as in PyFlink.

        Only called when normal lookup fails, so methods and attributes always win; private names
        (``_x``, including copy/pickle hooks) are never columns.
        """
        if name.startswith("_"):
            raise AttributeError(f"'Table' object has no attribute '{name}'")
        names = list(self._j_table.fieldNames())
        if name not in names:
            raise AttributeError(f"The current table has no column named '{name}', "
                                 f"available columns: [{', '.join(names)}]")
        from pyflink_table.expressions import col

        return col(name)

    def _wrap(self, j_table: Any) -> "Table":
        return Table(j_table, self._t_env)

    def _spark_df(self) -> Any:
        from pyspark.sql import DataFrame

        return DataFrame(self._j_table.dataset(), self._t_env._spark)

    def _collect_rows(self) -> List[Row]:
        self._t_env._before_job()
        rows = self._spark_df().collect()
        types = [parse_type_string(t) for t in self._j_table.fieldTypes()]
        # PyFlink's collected rows are positional: Row(1, 'Hi'), without field names.
        return [Row(*[_to_python(v, t) for v, t in zip(r, types)]) for r in rows]

    # --- schema -----------------------------------------------------------------------------

    def get_schema(self) -> TableSchema:
        """The names and types of the columns (legacy form)."""
        return TableSchema._from_strings(list(self._j_table.fieldNames()), list(self._j_table.fieldTypes()))

    def get_resolved_schema(self) -> ResolvedSchema:
        """The names and types of the columns."""
        return ResolvedSchema(list(self._j_table.fieldNames()),
                              [parse_type_string(t) for t in self._j_table.fieldTypes()])

    def print_schema(self) -> None:
        """Print the schema, as Flink does."""
        print(self._j_table.printSchema())

    # --- explain and changelog conversion ---------------------------

    def explain(self, *extra_details: "ExplainDetail") -> str:
        """Spark's plans for this table: parsed, analysed, optimised and physical.

        :param extra_details: :class:`~pyflink_table.explain_detail.ExplainDetail` values:
            ``ESTIMATED_COST`` adds Spark's size and row-count estimates, ``JSON_EXECUTION_PLAN``
            the physical plan as JSON; ``CHANGELOG_MODE`` adds nothing (batch tables only insert);
            ``PLAN_ADVICE`` (streaming mode only, as in Flink) adds Flink's advice for group
            aggregations without mini-batch. In streaming mode an updating query's explanation ends
            with Flink's name of the operator that produces its updates (``== Updating Operator ==``,
            e.g. ``PythonGroupAggregate(groupBy=[c], select=[...])``).
        """
        names = _explain_detail_names(extra_details)
        advice = any(str(name) == "PLAN_ADVICE" for name in names)
        text = str(bridge().table.PlanExplain.explain(self._j_table, names, advice and self._mini_batch()))
        if self._t_env._streaming:
            # Flink's name of the operator whose changelog holds updates (GroupAggregate, PythonGroupAggregate).
            node = bridge().streaming.Changelog.updatingNodeOf(self._j_table)
            if node is not None:
                # Before the sections of extra details (the JSON plan must stay last).
                at = min([i for i in (text.find("\n== " + title) for title in _DETAIL_SECTIONS) if i >= 0],
                         default=len(text))
                text = text[:at] + "\n== Updating Operator ==\n" + str(node) + "\n" + text[at:]
        return text

    def _mini_batch(self) -> bool:
        """Whether the environment configures Flink's mini-batch (what Flink's plan advice depends on)."""
        config = self._t_env.get_config()
        strategy = str(config.get("table.optimizer.agg-phase-strategy", "AUTO") or "AUTO").upper()
        if strategy != "AUTO":
            raise TableException(f"Unsupported: ExplainDetail.PLAN_ADVICE with 'table.optimizer.agg-phase-strategy' = "
                                 f"'{strategy}' (only the advice of the default AUTO strategy is derived here)")

        def positive(key: str) -> bool:
            digits = "".join(ch for ch in str(config.get(key, "") or "") if ch.isdigit() or ch == "-")
            return digits.lstrip("-").strip("0") != "" and not digits.startswith("-")

        return (str(config.get("table.exec.mini-batch.enabled", "false")).lower() == "true"
                and positive("table.exec.mini-batch.allow-latency") and positive("table.exec.mini-batch.size"))

    def print_explain(self, *extra_details: "ExplainDetail") -> None:
        """Print :meth:`explain`."""
        print(self.explain(*extra_details))

    def to_changelog(self, *arguments: Expression[Any]) -> "Table":
        """This table with an operation column in front, as Flink's ``TO_CHANGELOG``.

        Batch tables are insert-only, so every row's code is ``'INSERT'`` (or what ``op_mapping``
        maps ``INSERT`` to; without such a mapping the rows are filtered out). In streaming mode an
        updating table's changes (``INSERT``, ``UPDATE_BEFORE``, ``UPDATE_AFTER``, ``DELETE``)
        become insert-only rows, over bounded input and over unbounded sources (as the job runs).

        Example::

            >>> table.to_changelog(descriptor("op_code").as_argument("op"),
            ...                    map_("INSERT", "I").as_argument("op_mapping"))

        :param arguments: optional named arguments ``op`` (``descriptor(name)``, default ``op``)
            and ``op_mapping`` (``map_(kinds, code, ...)``).
        """
        if self._t_env._streaming:
            # Over unbounded sources the changes come from stateful processors planned now.
            self._t_env._offer_worker_template()
        return Table(bridge().streaming.Changelogs.toChangelog(self._j_table, _to_j_exprs(arguments)), self._t_env)

    def from_changelog(self, *arguments: Expression[Any]) -> "Table":
        """This table without its operation column, as Flink's ``FROM_CHANGELOG``.

        Rows whose code means ``INSERT`` are kept. A row with any other code (an update or a
        delete, which a batch table cannot hold, or an unknown code) fails the job with a
        :class:`~pyflink_table.TableException` naming the code.

        :param arguments: optional named arguments ``op`` (``descriptor(name)``, default ``op``)
            and ``op_mapping`` (``map_(codes, kind, ...)``, e.g. ``map_("c, r", "INSERT")``).
        """
        return Table(bridge().streaming.Changelogs.fromChangelog(self._j_table, _to_j_exprs(arguments)), self._t_env)

    # --- end of the explain and changelog block ------------------------------------------------

    # --- relational operations ----------------------------------------------------------------

    def select(self, *fields: ExpressionOrStr) -> "Table":
        """Project columns; aggregates without ``group_by`` aggregate the whole table.

        Example::

            >>> tab.select(col('key'), col('value') + 'hello')
            >>> tab.select("key, value + 'hello'")
        """
        return self._wrap(self._j_table.select(_to_j_exprs(fields)))

    def alias(self, field: str, *fields: str) -> "Table":
        """Rename the columns by position: ``tab.alias('a', 'b', 'c')``; fewer names rename a prefix."""
        names = [n.strip() for f in (field, *fields) for n in f.split(",")] if "," in field else [field, *fields]
        return self._wrap(self._j_table.alias(to_string_array(names)))

    def filter(self, predicate: ExpressionOrStr) -> "Table":
        """Keep the rows where ``predicate`` is TRUE."""
        return self._wrap(self._j_table.filter(_to_j_expr(predicate)))

    def where(self, predicate: ExpressionOrStr) -> "Table":
        """Same as :meth:`filter`."""
        return self.filter(predicate)

    def group_by(self, *fields: ExpressionOrStr) -> "GroupedTable":
        """Group by key expressions; follow with ``select`` of keys and aggregates."""
        return GroupedTable(self._j_table.groupBy(_to_j_exprs(fields)), self._t_env)

    def distinct(self) -> "Table":
        """Remove duplicate rows."""
        return self._wrap(self._j_table.distinct())

    def join(self, right: "Table", join_predicate: Optional[ExpressionOrStr] = None) -> "Table":
        """Inner join; without a predicate, follow with ``where``. Column names must not clash."""
        return self._join(right, join_predicate, "inner")

    def left_outer_join(self, right: "Table", join_predicate: Optional[ExpressionOrStr] = None) -> "Table":
        """Left outer join on ``join_predicate``."""
        return self._join(right, join_predicate, "left_outer")

    def right_outer_join(self, right: "Table", join_predicate: ExpressionOrStr) -> "Table":
        """Right outer join on ``join_predicate``."""
        return self._join(right, join_predicate, "right_outer")

    def full_outer_join(self, right: "Table", join_predicate: ExpressionOrStr) -> "Table":
        """Full outer join on ``join_predicate``."""
        return self._join(right, join_predicate, "full_outer")

    def _join(self, right: "Table", predicate: Optional[ExpressionOrStr], how: str) -> "Table":
        cond = None if predicate is None else _to_j_expr(predicate)
        return self._wrap(self._j_table.join(right._j_table, cond, how))

    def minus(self, right: "Table") -> "Table":
        """Rows of this table not in ``right``, without duplicates (SQL EXCEPT)."""
        return self._wrap(self._j_table.minus(right._j_table))

    def minus_all(self, right: "Table") -> "Table":
        """Rows of this table not in ``right``, keeping duplicates (SQL EXCEPT ALL)."""
        return self._wrap(self._j_table.minusAll(right._j_table))

    def union(self, right: "Table") -> "Table":
        """Rows of both tables, without duplicates."""
        return self._wrap(self._j_table.union(right._j_table))

    def union_all(self, right: "Table") -> "Table":
        """Rows of both tables, with duplicates."""
        return self._wrap(self._j_table.unionAll(right._j_table))

    def intersect(self, right: "Table") -> "Table":
        """Rows in both tables, without duplicates."""
        return self._wrap(self._j_table.intersect(right._j_table))

    def intersect_all(self, right: "Table") -> "Table":
        """Rows in both tables, with duplicates."""
        return self._wrap(self._j_table.intersectAll(right._j_table))

    def order_by(self, *fields: ExpressionOrStr) -> "Table":
        """Sort; ascending puts NULLs last and descending first, as Flink does."""
        return self._wrap(self._j_table.orderBy(_to_j_exprs(fields)))

    def offset(self, offset: int) -> "Table":
        """Skip the first ``offset`` rows (works without ``fetch`` too)."""
        check_argument("Table.offset", "offset", offset, int)
        return self._wrap(self._j_table.offset(offset))

    def fetch(self, fetch: int) -> "Table":
        """Keep the first ``fetch`` rows."""
        check_argument("Table.fetch", "fetch", fetch, int)
        return self._wrap(self._j_table.fetch(fetch))

    def limit(self, fetch: int, offset: int = 0) -> "Table":
        """Keep ``fetch`` rows after skipping ``offset``."""
        check_argument("Table.limit", "fetch", fetch, int)
        check_argument("Table.limit", "offset", offset, int)
        t = self.offset(offset) if offset else self
        return t.fetch(fetch)

    def add_columns(self, *fields: ExpressionOrStr) -> "Table":
        """Append computed columns; their names must be new."""
        return self._wrap(self._j_table.addColumns(_to_j_exprs(fields)))

    def add_or_replace_columns(self, *fields: ExpressionOrStr) -> "Table":
        """Append computed columns, replacing existing columns of the same name in place."""
        return self._wrap(self._j_table.addOrReplaceColumns(_to_j_exprs(fields)))

    def rename_columns(self, *fields: ExpressionOrStr) -> "Table":
        """Rename columns: ``rename_columns(col('a').alias('x'))``."""
        return self._wrap(self._j_table.renameColumns(_to_j_exprs(fields)))

    def drop_columns(self, *fields: ExpressionOrStr) -> "Table":
        """Remove columns."""
        return self._wrap(self._j_table.dropColumns(_to_j_exprs(fields)))

    # --- table functions and row-based operations ------------------------------

    def join_lateral(self, table_function_call: ExpressionOrStr,
                     join_predicate: Optional[ExpressionOrStr] = None) -> "Table":
        """Join every row with the rows a table function produces for it (inner join).

        Example::

            >>> tab.join_lateral(split(col('s')).alias('word'))
            >>> tab.join_lateral("split(s) as (word)", col('word') != 'a')

        :param table_function_call: a call of a Python table function, optionally aliased.
        :param join_predicate: an optional condition on the joined rows.
        """
        cond = None if join_predicate is None else _to_j_expr(join_predicate)
        return self._wrap(bridge().table.LateralJoins.joinLateral(
            self._j_table, _to_j_expr(table_function_call), cond, False))

    def left_outer_join_lateral(self, table_function_call: ExpressionOrStr,
                                join_predicate: Optional[ExpressionOrStr] = None) -> "Table":
        """Like :meth:`join_lateral`, keeping rows without output (their function fields are NULL).

        :param table_function_call: a call of a Python table function, optionally aliased.
        :param join_predicate: only the literal TRUE is allowed, as in Flink.
        """
        cond = None if join_predicate is None else _to_j_expr(join_predicate)
        return self._wrap(bridge().table.LateralJoins.joinLateral(
            self._j_table, _to_j_expr(table_function_call), cond, True))

    def map(self, func: Union[ExpressionOrStr, "UserDefinedFunctionWrapper"]) -> "Table":
        """Apply a scalar function to every row; a ROW result becomes one column per field.

        Example::

            >>> tab.map(my_row_udf(col('a'), col('b'))).alias('x', 'y')
        """
        return self._wrap(bridge().table.RowBasedOperations.map(self._j_table, _row_function(func)))

    def flat_map(self, func: Union[ExpressionOrStr, "UserDefinedFunctionWrapper"]) -> "Table":
        """Apply a table function to every row; the result holds only the function's fields.

        Example::

            >>> tab.flat_map(split(col('s'))).alias('word', 'length')
        """
        return self._wrap(bridge().table.LateralJoins.flatMap(self._j_table, _row_function(func)))

    def aggregate(self, func: Union[ExpressionOrStr, "UserDefinedFunctionWrapper"]) -> "AggregatedTable":
        """Aggregate the whole table with an aggregate function; follow with ``select``.

        Example::

            >>> tab.aggregate(my_row_udaf(col('a')).alias('x', 'y')).select(col('x'), col('y'))
        """
        return AggregatedTable(bridge().table.RowBasedOperations.aggregate(
            self._j_table, to_java_array(bridge().expressions.Expr, []), _row_function(func)), self._t_env)

    def flat_aggregate(self, func: Union[ExpressionOrStr, "UserDefinedFunctionWrapper"]) -> "FlatAggregateTable":
        """Aggregate the whole table with a table aggregate function (many rows); follow with ``select``.

        Example::

            >>> tab.flat_aggregate(top2(col('a')).alias('v', 'rank')).select(col('v'), col('rank'))
        """
        return FlatAggregateTable(bridge().table.RowBasedOperations.flatAggregate(
            self._j_table, to_java_array(bridge().expressions.Expr, []), _row_function(func)), self._t_env)

    # --- end of table functions and row-based operations ------------------------------------

    # --- windows ------------------------------------------------------------------------------

    def window(self, window: "GroupWindow") -> "GroupWindowedTable":
        """Define a group window (Tumble, Slide, Session); follow with ``group_by``."""
        return GroupWindowedTable(bridge().window.GroupWindowedJTable(self._j_table, window._java_window()), self._t_env)

    def over_window(self, *over_windows: "OverWindow") -> "OverWindowedTable":
        """Define over windows; follow with ``select`` using ``agg.over(alias)``."""
        j_windows = to_java_array(bridge().window.OverWindowSpec, [w._java_window() for w in over_windows])
        return OverWindowedTable(bridge().window.OverWindowedJTable(self._j_table, j_windows), self._t_env)

    # --- execution ----------------------------------------------------------------------------

    def execute(self) -> TableResult:
        """Run the query; the result's ``collect()`` yields :class:`Row` objects (in streaming mode
        with their :class:`~pyflink_table.row.RowKind`, and ``print()`` shows the ``op`` column)."""
        if self._t_env._streaming:
            from pyflink_table import _streaming

            return _streaming.execute(self)
        return TableResult._of_table(self)

    def to_pandas(self) -> "pd.DataFrame":
        """The rows as a pandas DataFrame, transferred with Arrow."""
        self._t_env._before_job()
        with warnings.catch_warnings():
            # PySpark warns with the failure's whole trace before raising it: the raised error is enough.
            warnings.filterwarnings("ignore", message="toPandas attempted Arrow optimization because .* can not "
                                    "continue", category=UserWarning)
            pdf = self._spark_df().toPandas()
        return _pandas_like_pyflink(pdf, list(self._j_table.fieldNames()),
                                    [parse_type_string(t) for t in self._j_table.fieldTypes()],
                                    self._t_env._spark.conf.get("spark.sql.session.timeZone") or "UTC")

    def execute_insert(self, table_path_or_descriptor: Any, overwrite: bool = False) -> TableResult:
        """Write the rows into a registered sink table (or a ``TableDescriptor``)."""
        self._t_env._config._check_parser()
        return self._t_env._submit_inserts([(table_path_or_descriptor, self, overwrite)], one_sink=True)

    def insert_into(self, table_path_or_descriptor: Any, overwrite: bool = False) -> "TablePipeline":
        """The insert into a sink (a registered table path or a ``TableDescriptor``), to run with
        :meth:`TablePipeline.execute`.

        FLIP-38 programs call ``t_env.execute(job_name)`` afterwards instead: inserts not executed
        through their pipeline are queued for it.
        """
        from pyflink_table.table_pipeline import TablePipeline

        pipeline = TablePipeline(self, table_path_or_descriptor, overwrite)
        self._t_env._queue_insert(pipeline)
        return pipeline

    def __str__(self) -> str:
        """The table's name in SQL; an unnamed table is registered as ``UnnamedTable$N`` first,
        as PyFlink does, so ``t_env.sql_query(f"SELECT * FROM {table}")`` works."""
        name: Optional[str] = getattr(self, "_registered_name", None)
        if name is None:
            name = f"UnnamedTable${next(_UNNAMED_TABLE_IDS)}"
            self._t_env._j_env.createTemporaryView(name, self._j_table)
            self._registered_name = name
        return name

    def __repr__(self) -> str:
        # Unlike str(), repr() registers nothing: it shows up in tracebacks and debuggers.
        return f"<Table ({', '.join(self._j_table.fieldNames())})>"

    # --- notebook preview (developer experience) ----------------------------------------------

    #: Rows shown by the notebook preview; the query reads one more to know whether there are more.
    _PREVIEW_ROWS = 10

    def _repr_html_(self) -> str:
        """A bounded preview for notebooks: column names and types, then the first rows."""
        import html

        from pyflink_table.table_result import format_value

        names = list(self._j_table.fieldNames())
        types = list(self._j_table.fieldTypes())
        self._t_env._before_job()
        # Spark's own limit: unlike fetch(), it also applies to tables already limited or ordered.
        spark_rows = self._spark_df().limit(self._PREVIEW_ROWS + 1).collect()
        rows = [[_to_python(v) for v in r] for r in spark_rows]
        more = len(rows) > self._PREVIEW_ROWS
        rows = rows[: self._PREVIEW_ROWS]
        head = "".join(f"<th>{html.escape(n)}<br><small>{html.escape(t)}</small></th>" for n, t in zip(names, types))
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(format_value(v))}</td>" for v in r) + "</tr>" for r in rows
        )
        if not rows:
            note = "Empty set"
        elif more:
            note = f"first {self._PREVIEW_ROWS} rows shown; execute().print() or to_pandas() for all"
        else:
            note = f"{len(rows)} row{'s' if len(rows) != 1 else ''}"
        return (f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
                f"<p><small>{html.escape(note)}</small></p>")


@java_errors
class _Selectable:
    """A JVM form of a table that is used through ``select``: grouped, windowed and aggregated tables."""

    def __init__(self, j_handle: Any, t_env: "TableEnvironment") -> None:
        self._j_handle = j_handle
        self._t_env = t_env

    def select(self, *fields: ExpressionOrStr) -> Table:
        """Project keys, aggregates and fields (``'*'`` keeps them all); over a window-grouped table
        also ``w.start``/``w.end``/``w.rowtime``, over over-windows ``agg.over(alias)``."""
        return Table(self._j_handle.select(_to_j_exprs(fields)), self._t_env)


@java_errors
class GroupedTable(_Selectable):
    """A table grouped by keys: ``tab.group_by(col('key')).select(col('key'), col('value').avg)``."""

    # --- row-based operations ---------------------------------------------------

    def aggregate(self, func: Union[ExpressionOrStr, "UserDefinedFunctionWrapper"]) -> "AggregatedTable":
        """Aggregate each group with an aggregate function; follow with ``select``.

        Example::

            >>> tab.group_by(col('k')).aggregate(stats(col('v')).alias('mx', 'mn')).select(col('k'), col('mx'))
        """
        return AggregatedTable(bridge().table.RowBasedOperations.aggregateGrouped(
            self._j_handle, _row_function(func)), self._t_env)

    def flat_aggregate(self, func: Union[ExpressionOrStr, "UserDefinedFunctionWrapper"]) -> "FlatAggregateTable":
        """Aggregate each group with a table aggregate function (any number of rows per group).

        Example::

            >>> tab.group_by(col('k')).flat_aggregate(top2(col('v')).alias('v', 'rank')).select('*')
        """
        return FlatAggregateTable(bridge().table.RowBasedOperations.flatAggregateGrouped(
            self._j_handle, _row_function(func)), self._t_env)

    # --- end of row-based operations ---------------------------------------------------------


@java_errors
class GroupWindowedTable:
    """A table with a group window; ``group_by`` must name the window's alias."""

    def __init__(self, j_windowed: Any, t_env: "TableEnvironment") -> None:
        self._j_windowed = j_windowed
        self._t_env = t_env

    def group_by(self, *fields: ExpressionOrStr) -> "WindowGroupedTable":
        """Group by the window alias and optional keys."""
        j_grouped = self._j_windowed.groupBy(_to_j_exprs(fields))
        if self._t_env._streaming and j_grouped.isCountWindow():
            from pyflink_table import _streaming

            # Over a stream a row-count window runs on a worker processor even without Python aggregates.
            _streaming.offer_worker_template(self._t_env)
        return WindowGroupedTable(j_grouped, self._t_env)


@java_errors
class WindowGroupedTable(_Selectable):
    """A table grouped by a window and keys: select keys, aggregates and window properties."""

    # --- row-based operations ---------------------------------------------------

    def aggregate(self, func: Union[ExpressionOrStr, "UserDefinedFunctionWrapper"]) -> "AggregatedTable":
        """Aggregate each window and key with an aggregate function; follow with ``select``,
        which may name the window properties (``col('w').start``).

        Example::

            >>> tab.window(Tumble.over(lit(5).minutes).on(col('ts')).alias('w')) \\
            ...     .group_by(col('w'), col('k')).aggregate(stats(col('v')).alias('lo', 'hi')) \\
            ...     .select(col('k'), col('w').start, col('lo'), col('hi'))
        """
        return AggregatedTable(bridge().window.WindowAggregated.of(
            self._j_handle, _row_function(func), False), self._t_env)

    def flat_aggregate(self, func: Union[ExpressionOrStr, "UserDefinedFunctionWrapper"]) -> "FlatAggregateTable":
        """Aggregate each window and key with a table aggregate function; follow with ``select``."""
        return FlatAggregateTable(bridge().window.WindowAggregated.of(
            self._j_handle, _row_function(func), True), self._t_env)

    # --- end of row-based operations ---------------------------------------------------------


@java_errors
class OverWindowedTable(_Selectable):
    """A table with over windows: select expressions with ``agg.over(alias)``; one output row per
    input row."""

    def select(self, *fields: ExpressionOrStr) -> Table:
        """Project fields and ``agg.over(alias)`` aggregates: one output row per input row."""
        from pyflink_table import _streaming

        _streaming.offer_worker_template(self._t_env)
        return super().select(*fields)


# --- results of row-based aggregations -------------------------------------------


class AggregatedTable(_Selectable):
    """The result of ``aggregate``: the keys and the function's fields, ready for ``select``."""


class FlatAggregateTable(_Selectable):
    """The result of ``flat_aggregate``: the keys and the emitted fields, ready for ``select``."""
