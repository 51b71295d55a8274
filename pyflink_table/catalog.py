"""Catalog objects: the environment's one catalog (``default_catalog``) and catalog descriptors."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional

from pyflink_table.configuration import Configuration
from pyflink_table.errors import TableException, java_errors
from pyflink_table.table_schema import ResolvedSchema  # noqa: F401  (pyflink.table.catalog exports it)

if TYPE_CHECKING:
    from pyflink_table.table_environment import TableEnvironment

__all__ = ["Catalog", "CatalogBaseTable", "CatalogDescriptor", "ObjectIdentifier", "ObjectPath", "ResolvedSchema"]


class ObjectPath:
    """A table's database and name inside a catalog, e.g. ``ObjectPath('default_database', 'orders')``."""

    def __init__(self, database_name: str, object_name: str) -> None:
        self._database_name = database_name
        self._object_name = object_name

    @staticmethod
    def from_string(full_name: str) -> "ObjectPath":
        """Parse ``'database.object'``."""
        database, _, name = full_name.partition(".")
        return ObjectPath(database, name)

    def get_database_name(self) -> str:
        """The database."""
        return self._database_name

    def get_object_name(self) -> str:
        """The object's name."""
        return self._object_name

    def get_full_name(self) -> str:
        """``database.object``."""
        return f"{self._database_name}.{self._object_name}"

    def __repr__(self) -> str:
        return self.get_full_name()


class ObjectIdentifier:
    """A catalog object's full name: catalog, database and object, e.g. ``default_catalog.default_database.T``."""

    def __init__(self, catalog_name: str, database_name: str, object_name: str) -> None:
        self._catalog_name = catalog_name
        self._database_name = database_name
        self._object_name = object_name

    @staticmethod
    def of(catalog_name: str, database_name: str, object_name: str) -> "ObjectIdentifier":
        """The identifier of ``catalog_name.database_name.object_name``."""
        return ObjectIdentifier(catalog_name, database_name, object_name)

    def get_catalog_name(self) -> str:
        """The catalog."""
        return self._catalog_name

    def get_database_name(self) -> str:
        """The database."""
        return self._database_name

    def get_object_name(self) -> str:
        """The object's name."""
        return self._object_name

    def to_object_path(self) -> ObjectPath:
        """The database and name, without the catalog."""
        return ObjectPath(self._database_name, self._object_name)

    def to_list(self) -> List[str]:
        """``[catalog, database, object]``."""
        return [self._catalog_name, self._database_name, self._object_name]

    def as_serializable_string(self) -> str:
        """The name with each part quoted in backticks, e.g. for ``c``, ``db`` and ``t``: the three parts
        each between backticks, joined by dots."""
        return ".".join("`" + p.replace("`", "``") + "`" for p in self.to_list())

    def as_summary_string(self) -> str:
        """The name without quotes: ``c.db.t``."""
        return ".".join(self.to_list())

    def __str__(self) -> str:
        return self.as_serializable_string()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ObjectIdentifier) and self.to_list() == other.to_list()

    def __hash__(self) -> int:
        return hash(tuple(self.to_list()))


class CatalogDescriptor:
    """A catalog to create with :meth:`~pyflink_table.TableEnvironment.create_catalog`: its name and options."""

    def __init__(self, catalog_name: str, configuration: Configuration, comment: Optional[str] = None) -> None:
        self._catalog_name = catalog_name
        self._configuration = configuration
        self._comment = comment

    @staticmethod
    def of(catalog_name: str, configuration: Configuration, comment: Optional[str] = None) -> "CatalogDescriptor":
        """A descriptor; ``configuration`` holds the catalog's options, ``type`` first of all."""
        return CatalogDescriptor(catalog_name, configuration, comment)

    def get_catalog_name(self) -> str:
        """The catalog's name."""
        return self._catalog_name

    def get_options(self) -> Dict[str, str]:
        """The catalog's options."""
        return self._configuration.to_dict()

    def get_comment(self) -> Optional[str]:
        """The comment, if any."""
        return self._comment


class CatalogBaseTable:
    """A table or view as a catalog holds it: its declared schema, connector options and comment.

    :param schema: the table's declared (unresolved) :class:`~pyflink_table.Schema`.
    :param options: the connector options.
    :param comment: the table's comment, if any.
    """

    def __init__(self, schema: Any, options: Optional[Dict[str, str]] = None, comment: Optional[str] = None) -> None:
        self._schema = schema
        self._options = dict(options or {})
        self._comment = comment

    @staticmethod
    def create_table(schema: Any, partition_keys: Optional[List[str]] = None,
                     properties: Optional[Dict[str, str]] = None, comment: Optional[str] = None
                     ) -> "CatalogBaseTable":
        """A catalog table of ``schema`` with connector ``properties``; partition keys are not kept here."""
        if partition_keys:
            raise TableException("Unsupported: CatalogBaseTable.create_table with partition keys; declare them "
                                 "in a CREATE TABLE ... PARTITIONED BY statement instead.")
        return CatalogBaseTable(schema, properties, comment)

    def get_options(self) -> Dict[str, str]:
        """The connector options (a copy)."""
        return dict(self._options)

    def get_unresolved_schema(self) -> Any:
        """The declared :class:`~pyflink_table.Schema`."""
        return self._schema

    def get_comment(self) -> str:
        """The comment ('' when there is none)."""
        return self._comment or ""

    def copy(self) -> "CatalogBaseTable":
        """A copy of this table."""
        return CatalogBaseTable(self._schema, self._options, self._comment)

    def get_description(self) -> Optional[str]:
        """A one-line description: the comment, if any."""
        return self._comment

    def get_detailed_description(self) -> Optional[str]:
        """A detailed description: the comment, if any."""
        return self._comment


@java_errors
class Catalog:
    """The environment's catalog ``default_catalog`` (Spark's session catalog), for inspection.

    Obtain it with :meth:`~pyflink_table.TableEnvironment.get_catalog`. Tables, views and databases
    are created and dropped through the environment (SQL DDL, ``create_table``, ``create_view``).
    """

    def __init__(self, t_env: "TableEnvironment") -> None:
        self._t_env = t_env

    def get_default_database(self) -> str:
        """``default_database``."""
        return "default_database"

    def list_databases(self) -> List[str]:
        """The databases of the catalog."""
        return self._t_env.list_databases()

    def database_exists(self, database_name: str) -> bool:
        """Whether the database exists."""
        return database_name in self.list_databases()

    def _permanent_objects(self, database_name: str, views: bool = False) -> List[str]:
        """The tables (or only the views) of a database that are not temporary."""
        current = self._t_env.get_current_database()
        try:
            self._t_env.use_database(database_name)
            if views:
                temporary, names = set(self._t_env.list_temporary_views()), self._t_env.list_views()
            else:
                temporary, names = set(self._t_env.list_temporary_tables()), self._t_env.list_tables()
            return [name for name in names if name not in temporary]
        finally:
            self._t_env.use_database(current)

    def list_tables(self, database_name: str) -> List[str]:
        """Names of the permanent tables and views of a database (temporary objects are not in catalogs)."""
        return self._permanent_objects(database_name)

    def list_views(self, database_name: str) -> List[str]:
        """Names of the permanent views of a database."""
        return self._permanent_objects(database_name, views=True)

    def table_exists(self, table_path: ObjectPath) -> bool:
        """Whether a permanent table or view exists at ``table_path``."""
        return (self.database_exists(table_path.get_database_name())
                and table_path.get_object_name() in self._permanent_objects(table_path.get_database_name()))

    def get_table(self, table_path: ObjectPath) -> CatalogBaseTable:
        """The permanent table at ``table_path`` as the catalog holds it: declared schema, options, comment.

        :raises ValidationException: when no permanent table exists there (temporary tables are not
            in catalogs).
        :raises TableException: for a view (read it with ``from_path``).
        """
        import re

        from pyflink_table.schema import Schema
        from pyflink_table.table_descriptor import _java_hash_map_order
        from pyflink_table.types import parse_type_string

        names, types, expressions, key, option_keys, option_values, (comment, watermark), metadata_keys, virtual = (
            list(part) for part in self._t_env._j_env.connectors().catalogTable(table_path.get_full_name()))
        builder = Schema.new_builder()
        for name, type_string, expression, metadata_key, is_virtual in zip(
                names, types, expressions, metadata_keys, virtual):
            if expression is not None:
                builder.column_by_expression(name, expression)
            elif is_virtual is not None:  # a metadata column (its key may be omitted)
                builder.column_by_metadata(name, parse_type_string(type_string), metadata_key, is_virtual == "true")
            else:
                builder.column(name, parse_type_string(type_string))
        if watermark is not None:
            declared = re.match(r"(?is)WATERMARK\s+FOR\s+`?([^`\s]+)`?\s+AS\s+(.+)", watermark.strip())
            if declared:
                builder.watermark(declared.group(1), declared.group(2).strip())
        if key:
            builder.primary_key(*key)
        options = dict(zip(option_keys, option_values))
        return CatalogBaseTable(builder.build(), {k: options[k] for k in _java_hash_map_order(options)}, comment)
