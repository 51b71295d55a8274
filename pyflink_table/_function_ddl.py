"""SQL function DDL for Python functions: ``CREATE``, ``ALTER`` and ``DROP [TEMPORARY [SYSTEM]] FUNCTION``.

The bridge's statement router (``session/SqlStatement.java``) classifies the statement and hands
these kinds to Python (``runsInPython``): the function is a Python object, so only the driver's
interpreter can find it. As PyFlink does, ``AS 'module.attribute'`` is imported with ``importlib``
in the driver and must name a wrapped function (``udf``, ``udtf``, ``udaf``, ``udtaf``); files
added with ``add_python_file`` are found there too. It is registered as
``create_temporary_function`` and friends register it, under the lower-case name Flink lists.

PyFlink 2.3 resolves the attribute at the function's first use ("Cannot instantiate
user-defined function"); here it is resolved by the statement, which raises that error at once.
Only ``LANGUAGE PYTHON`` runs here: Java and Scala functions are refused by name. Messages are
PyFlink 2.3's (measured).
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any, List, NoReturn, Optional

from pyflink_table.errors import TableException, ValidationException
from pyflink_table.table_result import TableResult

if TYPE_CHECKING:
    from pyflink_table.table_environment import TableEnvironment

__all__: List[str] = []


def execute(t_env: "TableEnvironment", statement: Any) -> TableResult:
    """Run one classified function DDL statement (kinds CREATE_FUNCTION, ALTER_FUNCTION, DROP_FUNCTION)."""
    kind = str(statement.kindName())
    parts: List[Optional[str]] = [None if p is None else str(p) for p in statement.parts()]
    temporary, system, flag = parts[0] is not None, parts[1] is not None, parts[2] is not None
    path = str(parts[3])
    # Flink keys functions by their lower-case name (SHOW USER FUNCTIONS lists it so).
    name = t_env._function_name(path).lower()
    if kind == "DROP_FUNCTION":
        _drop(t_env, name, temporary, system, if_exists=flag)
        return TableResult._ok()
    identifier = str(parts[4]).replace("''", "'")
    _check_language(kind, parts[5], identifier, temporary, system)
    if kind == "ALTER_FUNCTION":
        _alter(t_env, name, identifier, temporary, system, if_exists=flag)
    else:
        _create(t_env, name, identifier, temporary, system, if_not_exists=flag)
    return TableResult._ok()


def _check_language(kind: str, language: Optional[str], identifier: str, temporary: bool, system: bool) -> None:
    # Flink's default language is JAVA: without LANGUAGE the identifier names a Java class.
    spoken = (language or "JAVA").upper()
    if spoken in ("JAVA", "SCALA"):
        verb = "CREATE" if kind == "CREATE_FUNCTION" else "ALTER"
        words = "TEMPORARY SYSTEM " if system else "TEMPORARY " if temporary else ""
        raise TableException(
            f"Unsupported: {verb} {words}FUNCTION ... LANGUAGE {spoken} ('{identifier}'): Java and Scala functions "
            "cannot run on Spark; write the function in Python and use LANGUAGE PYTHON.")
    if spoken != "PYTHON":
        raise ValidationException(f"Unrecognized function language string {spoken}")


def load(name: str, identifier: str) -> Any:
    """The wrapped function that ``identifier`` (``module.attribute``) names, imported in the driver;
    PyFlink's "Cannot instantiate user-defined function" error, with the cause, when there is none."""
    from pyflink_table._function_wrapper import UserDefinedFunctionWrapper

    module_name, _, attribute = identifier.rpartition(".")
    if not module_name or not attribute:
        _cannot_instantiate(name, f"The fully qualified name is invalid: '{identifier}'")
    try:
        module = _import(module_name)
    except ImportError as e:
        _cannot_instantiate(name, f"{type(e).__name__}: {e}")
    function = getattr(module, attribute, None)
    if function is None:
        _cannot_instantiate(name, f"AttributeError: module '{module_name}' has no attribute '{attribute}'")
    if not isinstance(function, UserDefinedFunctionWrapper):
        _cannot_instantiate(name, f"'{identifier}' is a {type(function).__name__}, not a function wrapped with "
                                  "udf(), udtf(), udaf() or udtaf()")
    return function


def _import(module_name: str) -> Any:
    """Import in the driver; the .py files shipped with add_python_file are fetched into Spark's
    files directory, which the workers import them from, so the driver looks there too."""
    try:
        return importlib.import_module(module_name)
    except ImportError:
        from pyspark import SparkFiles

        root = SparkFiles.getRootDirectory()
        if root in sys.path:
            raise
        sys.path.append(root)
        try:
            importlib.invalidate_caches()
            return importlib.import_module(module_name)
        finally:
            sys.path.remove(root)


def _cannot_instantiate(name: str, cause: str) -> NoReturn:
    raise ValidationException(f"Cannot instantiate user-defined function '{name}'. {cause}")


def _create(t_env: "TableEnvironment", name: str, identifier: str, temporary: bool, system: bool,
            if_not_exists: bool) -> None:
    catalog = t_env._function_catalog()
    if system:
        if catalog.hasSystem(name):
            if if_not_exists:
                return
            raise TableException(f"Could not execute CREATE TEMPORARY SYSTEM FUNCTION: Could not register temporary "
                                 f"system function. A function named '{name}' does already exist.")
    elif catalog.hasTemporary(name):
        if if_not_exists:
            return
        if not temporary and name in t_env._catalog_functions:
            raise ValidationException(f"Function default_database.{name} already exists in Catalog default_catalog.")
        if temporary and name not in t_env._catalog_functions:
            raise ValidationException(f"Could not register temporary catalog function. A function "
                                      f"'default_catalog.default_database.{name}' does already exist.")
        # One function per name lives in the session: Flink's temporary function over a catalog one.
        raise TableException(
            f"Unsupported: a {'temporary' if temporary else 'catalog'} function '{name}' next to the "
            f"{'catalog' if temporary else 'temporary'} function of that name (functions live in the session "
            "here); drop the other first.")
    function = load(name, identifier)
    t_env._register_user_function(name, function, system=system)
    if not system and not temporary:
        t_env._catalog_functions.add(name)


def _drop(t_env: "TableEnvironment", name: str, temporary: bool, system: bool, if_exists: bool) -> None:
    catalog = t_env._function_catalog()
    if system:
        exists = bool(catalog.hasSystem(name))
    else:
        # A temporary and a catalog function are told apart, as Flink's two catalogs do.
        exists = bool(catalog.hasTemporary(name)) and (name in t_env._catalog_functions) != temporary
    if not exists:
        if if_exists:
            return
        if system:
            raise ValidationException(
                f"Could not drop temporary system function. A function named '{name}' doesn't exist.")
        if temporary:
            raise ValidationException(
                f"Temporary catalog function `default_catalog`.`default_database`.`{name}` doesn't exist")
        raise ValidationException(f"Function default_database.{name} does not exist in Catalog default_catalog.")
    t_env._drop_user_function(name, system=system)
    if not system:
        t_env._catalog_functions.discard(name)


def _alter(t_env: "TableEnvironment", name: str, identifier: str, temporary: bool, system: bool,
           if_exists: bool) -> None:
    if temporary:
        raise ValidationException(f"Alter temporary {'system' if system else 'catalog'} function is not supported")
    if name not in t_env._catalog_functions:
        if if_exists:
            return
        raise ValidationException(f"Function default_database.{name} does not exist in Catalog default_catalog.")
    function = load(name, identifier)
    t_env._drop_user_function(name, system=False)
    t_env._register_user_function(name, function, system=False)
