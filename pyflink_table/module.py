"""Modules: named sets of built-in functions. Only Flink's ``core`` module exists here."""

from __future__ import annotations

from pyflink_table.errors import TableException

__all__ = ["HiveModule", "Module", "ModuleEntry"]


class Module:
    """A module that could be loaded with :meth:`~pyflink_table.TableEnvironment.load_module`.

    The built-in functions are Flink's ``core`` module, always loaded; no other module can be
    loaded on Spark, so loading any instance raises :class:`~pyflink_table.TableException`.
    """

    def __init__(self, name: str = "") -> None:
        self._name = name


class HiveModule(Module):
    """Hive's built-in functions: not available on Spark, so constructing one raises.

    :raises TableException: always.
    """

    def __init__(self, hive_version: str = "") -> None:
        raise TableException("Unsupported: HiveModule (Hive built-in functions) is not supported by "
                             "pyflink_table on Spark; the 'core' module is the only one.")


class ModuleEntry:
    """A module's name and whether it is used, as :meth:`~pyflink_table.TableEnvironment.list_full_modules` lists them."""

    def __init__(self, name: str, used: bool) -> None:
        self._name = name
        self._used = used

    def name(self) -> str:
        """The module's name."""
        return self._name

    def used(self) -> bool:
        """Whether the module's functions are in use."""
        return self._used

    def __repr__(self) -> str:
        return f"ModuleEntry{{name='{self._name}', used={str(self._used).lower()}}}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ModuleEntry) and (other._name, other._used) == (self._name, self._used)

    def __hash__(self) -> int:
        return hash((self._name, self._used))
