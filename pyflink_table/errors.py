"""PyFlink's exception types, and the one place where JVM failures are translated into them.

Every public API method that calls into the JVM is wrapped by :func:`java_errors`, so users see
``ValidationException: Cannot resolve field [x], input field list:[a, b].`` instead of a Py4J
stack trace.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, Dict, Optional, Type, TypeVar

from py4j.protocol import Py4JJavaError

from pyflink_table import _protocol

__all__ = [
    "JavaException",
    "TableException",
    "ValidationException",
    "SqlParserException",
    "PythonException",
    "CatalogException",
    "DatabaseAlreadyExistException",
    "DatabaseNotEmptyException",
    "DatabaseNotExistException",
    "FunctionAlreadyExistException",
    "FunctionNotExistException",
    "TableAlreadyExistException",
    "TableNotExistException",
    "java_errors",
    "check_argument",
]


class JavaException(Exception):
    """Base of all errors raised by the table runtime, as in PyFlink.

    :param message: the error message (first line says what is wrong).
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.stack_trace = message

    def __str__(self) -> str:
        return self.stack_trace


class _ThroughPy4J(Py4JJavaError):
    """Marks the errors PyFlink lets through Py4J untranslated (``ValidationException``,
    ``SqlParserException``, Python function failures reach PyFlink's users as ``Py4JJavaError``), so
    ``except Py4JJavaError`` handlers ported from PyFlink catch them; there is no Java exception
    behind them here (``java_exception`` is None) and ``str()`` is the one-line message."""

    def __init__(self, message: str) -> None:  # pylint: disable=super-init-not-called
        # Py4JJavaError.__init__ needs a JVM throwable; set what it would set instead
        self.args = (message,)
        self.errmsg = message
        self.java_exception = None
        self.exception_cmd = None
        self.cause = None


class TableException(JavaException):
    """General error during table handling, including features that are not supported."""


class ValidationException(JavaException, _ThroughPy4J):
    """Invalid input found before anything runs: unknown column, function or table, bad arguments."""


class SqlParserException(JavaException, _ThroughPy4J):
    """A SQL statement or string expression could not be parsed."""


class PythonException(TableException, _ThroughPy4J):
    """A Python user-defined function failed; the message carries the user's Python traceback."""


class CatalogException(JavaException):
    """A catalog-related error."""


class DatabaseAlreadyExistException(JavaException):
    """The database to create exists already."""


class DatabaseNotEmptyException(JavaException):
    """The database to drop is not empty."""


class DatabaseNotExistException(JavaException):
    """The database does not exist."""


class FunctionAlreadyExistException(JavaException):
    """The function to register exists already."""


class FunctionNotExistException(JavaException):
    """The function does not exist."""


class TableAlreadyExistException(JavaException):
    """The table to create exists already."""


class TableNotExistException(JavaException):
    """The table does not exist."""


_KINDS: Dict[str, Type[JavaException]] = {
    cls.__name__: cls
    for cls in (
        TableException,
        ValidationException,
        SqlParserException,
        PythonException,
        CatalogException,
        DatabaseAlreadyExistException,
        DatabaseNotEmptyException,
        DatabaseNotExistException,
        FunctionAlreadyExistException,
        FunctionNotExistException,
        TableAlreadyExistException,
        TableNotExistException,
    )
}


def _java_exception_of(error: BaseException) -> Any:
    """The JVM throwable behind a Py4J error or an exception PySpark already converted."""
    from py4j.protocol import Py4JJavaError

    if isinstance(error, Py4JJavaError):
        return error.java_exception
    return getattr(error, "_origin", None)


def translate(error: BaseException) -> BaseException:
    """Return the PyFlink exception for a JVM error (or the error itself if it is not one)."""
    if isinstance(error, JavaException):
        return error
    if _engine_gone(error):
        return _engine_stopped()
    java_exc = _java_exception_of(error)
    if java_exc is None:
        return error
    # The JVM of the error's own SparkContext, as PySpark's error conversion reaches it: this module is
    # below java_gateway (which raises these exceptions) and does not import it.
    from pyspark import SparkContext

    jvm: Any = SparkContext._jvm
    kind, message = jvm.org.pyflink_table.bridge.errors.ErrorTranslator.translate(java_exc)
    if kind == _protocol.ERROR_PYTHON:
        message = _python_failure_message(str(error), message)
    return _KINDS.get(kind, TableException)(message)


def _engine_stopped() -> TableException:
    return TableException(
        "The Spark engine (the JVM) of this process has stopped (it crashed or was killed); this "
        "TableEnvironment and its tables cannot be used any more: TableEnvironment.create() starts a new engine.")


#: Set once a dead engine was replaced: handles of the old one may then meet the new gateway.
_replaced = False


def engine_replaced() -> None:
    """Called when a new JVM replaces a dead one: from now on calls check their handles' engine."""
    global _replaced
    _replaced = True


def _of_dead_engine(owner: Any) -> bool:
    """Whether ``owner`` holds Py4J handles of a JVM that is no longer this process's engine.

    A stale handle passed to the new JVM would name an unrelated object there (ids restart).
    """
    from py4j.java_gateway import JavaObject
    from pyspark import SparkContext

    current = SparkContext._gateway
    client = current._gateway_client if current is not None else None
    for value in getattr(owner, "__dict__", {}).values():
        if isinstance(value, JavaObject) and value._gateway_client is not client:
            return True
    return False


def _engine_gone(error: BaseException) -> bool:
    """Whether ``error`` says the JVM is unreachable (its Py4J connection refused or broken)."""
    if isinstance(error, (ConnectionRefusedError, BrokenPipeError, ConnectionResetError)):
        return True
    from py4j.protocol import Py4JNetworkError

    return isinstance(error, Py4JNetworkError)


def _python_failure_message(pyspark_text: str, java_text: str) -> str:
    """Keep the user's traceback, drop the JVM frames around it."""
    text = pyspark_text or java_text
    end = text.find("\n\tat ")
    if end > 0:
        text = text[:end]
    # Our worker names the function and keeps only the user's frames: start there when present.
    named = text.find(_USER_FUNCTION_ERROR)
    if named >= 0:
        return text[named + len(_USER_FUNCTION_ERROR):].strip()
    start = text.find("Traceback (most recent call last)")
    if start >= 0:
        text = text[start:]
    return "Python function failed:\n" + text.strip()


_USER_FUNCTION_ERROR = _protocol.USER_FUNCTION_ERROR + ": "


def quiet_spark_error_logs() -> None:
    """Stop PySpark from logging each analysis error with its JVM trace: the error reaches the
    user as a one-line PyFlink exception anyway."""
    from pyspark.logger import PySparkLogger

    for name in ("SQLQueryContextLogger", "DataFrameQueryContextLogger"):
        PySparkLogger.getLogger(name).disabled = True


F = TypeVar("F", bound=Callable[..., Any])
C = TypeVar("C", bound=type)


def _interrupt_behind(e: BaseException) -> Optional[KeyboardInterrupt]:
    """The KeyboardInterrupt that was being handled when ``e`` was raised, if any."""
    seen = set()
    cause: Optional[BaseException] = e
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return cause
        seen.add(id(cause))
        cause = cause.__context__
    return None


def _wrap(func: F) -> F:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if _replaced and any(_of_dead_engine(arg) for arg in args):
            raise _engine_stopped()
        try:
            return func(*args, **kwargs)
        except JavaException:
            raise
        except Exception as e:  # noqa: BLE001 - translated below or re-raised unchanged
            interrupt = _interrupt_behind(e)
            if interrupt is not None:
                # Ctrl-C cancelled the jobs, and PySpark's clean-up then raised the cancellation
                # over the KeyboardInterrupt: the user pressed Ctrl-C, so that is what they get.
                raise interrupt from None
            translated = translate(e)
            if translated is e:
                raise
            raise translated from None

    return wrapper  # type: ignore[return-value]


def check_argument(function: str, name: str, value: Any, expected: Type[Any]) -> None:
    """Raise TypeError naming ``function``'s argument ``name`` unless ``value`` is an ``expected``.

    Without it a wrong type reaches Py4J, whose error names neither (bool is not an int here).

    :param function: the called method, e.g. ``'Table.limit'``.
    :param name: the argument's name.
    :param value: what the caller passed.
    :param expected: the type the argument must have.
    """
    if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
        raise TypeError(f"{function}() argument '{name}' must be {expected.__name__}, "
                        f"got {type(value).__name__}: {value!r}")


def java_errors(cls: C) -> C:
    """Class decorator: translate JVM errors raised by any public method of ``cls``."""
    for name, member in list(vars(cls).items()):
        if name.startswith("_") and name != "__init__":
            continue
        if isinstance(member, (staticmethod, classmethod)):
            setattr(cls, name, type(member)(_wrap(member.__func__)))
        elif inspect.isfunction(member):
            setattr(cls, name, _wrap(member))
    return cls
