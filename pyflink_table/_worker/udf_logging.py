"""Worker side of UDF logging (FLIP-58): what a Python function logs or prints reaches the job's log.

A handler on the worker's root logger and a line-buffered ``sys.stdout`` turn each record and each
printed line into one entry naming the function and the Spark task. In local mode the driver
listens on a loopback socket (its address travels as a Spark local property) and the entries are
sent there, so they show on the driver's console. On a cluster, or when the driver cannot be
reached, they are written to the worker's stderr, which Spark copies into the executor's log.

The levels (``python.logging.default.level`` and ``python.logging.level.overrides``) travel as a
local property too and are applied to the worker's loggers when a task starts.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import sys
import threading
import time
from typing import Any, Dict, List, Optional, TextIO, Tuple

from pyflink_table import _protocol

#: ``host:port:token`` of the driver's receiver (local mode only; unset on clusters).
TARGET_PROPERTY = _protocol.PROPERTY_UDF_LOG_TARGET
#: JSON object logger name -> level number; "" is the root logger.
LEVELS_PROPERTY = _protocol.PROPERTY_UDF_LOG_LEVELS

_real_paths: Dict[str, str] = {}


def _real_path(filename: str) -> str:
    real = _real_paths.get(filename)
    if real is None:
        real = _real_paths[filename] = os.path.realpath(filename)
    return real


_THIS_FILE = _real_path(__file__)
_WORKER_DIR = os.path.dirname(_THIS_FILE)
_lock = threading.Lock()
_handler: Optional["_TaskHandler"] = None
_stdout: Optional["_TaskStdout"] = None
_overridden: List[str] = []
_levels_applied: Optional[str] = None


def start_task() -> None:
    """Route the running task's logging and printing (idempotent; called when a function opens)."""
    global _handler, _stdout, _levels_applied
    from pyspark.taskcontext import TaskContext

    ctx = TaskContext.get()
    if ctx is None:
        return
    with _lock:
        root = logging.getLogger()
        if _handler is None:
            _handler = _TaskHandler()
        if _handler not in root.handlers:
            root.addHandler(_handler)
        # Spark may swap sys.stdout around a task (its own capture); wrap whatever is current.
        if not isinstance(sys.stdout, _TaskStdout):
            _stdout = _TaskStdout(sys.stdout)
            sys.stdout = _stdout
        levels = ctx.getLocalProperty(LEVELS_PROPERTY) or ""
        if levels != _levels_applied:
            _apply_levels(json.loads(levels) if levels else {})
            _levels_applied = levels


def _apply_levels(levels: Dict[str, int]) -> None:
    for name in _overridden:
        logging.getLogger(name).setLevel(logging.NOTSET)
    _overridden.clear()
    logging.getLogger().setLevel(levels.get("", logging.INFO))
    for name, level in levels.items():
        if name:
            logging.getLogger(name).setLevel(level)
            _overridden.append(name)


# --- who is logging ----------------------------------------------------------------------------


def _function_name() -> str:
    """The name of the user function being evaluated: the nearest evaluator frame on the stack.

    Evaluators (scalar, aggregate, table function handler) live in this package and carry the
    function's name as ``self.name``; looking them up only when something is logged keeps the
    evaluation paths free of bookkeeping.
    """
    frame = sys._getframe(1)
    while frame is not None:
        # Real paths: from a shipped zip (clusters) a module's file name is relative, and a handler
        # class pickled by value keeps the driver's spelling of the path (lib vs lib64, links).
        filename = _real_path(frame.f_code.co_filename)
        if os.path.dirname(filename) == _WORKER_DIR and filename != _THIS_FILE:
            owner = frame.f_locals.get("self")
            name = getattr(owner, "name", None)
            if isinstance(name, str) and name:
                return name
        frame = frame.f_back  # type: ignore[assignment]
    return _current_function or "python"


#: The function a table function handler is running (its frames may not be recognised on the stack).
_current_function = ""


def set_current_function(name: str) -> None:
    """Name the function whose code runs next in this worker (table function handlers call it)."""
    global _current_function
    _current_function = name


def _task_text() -> Tuple[str, bool]:
    """(``task 1.0 in stage 3 (TID 7)``, whether a task is running)."""
    from pyspark.taskcontext import TaskContext

    ctx = TaskContext.get()
    if ctx is None:
        return f"pid {os.getpid()}", False
    return f"task {ctx.partitionId()}.{ctx.attemptNumber()} in stage {ctx.stageId()} (TID {ctx.taskAttemptId()})", True


def _target() -> Optional[str]:
    from pyspark.taskcontext import TaskContext

    ctx = TaskContext.get()
    return ctx.getLocalProperty(TARGET_PROPERTY) if ctx is not None else None


# --- where entries go --------------------------------------------------------------------------


class _Connection:
    """One worker process's connection to the driver's receiver (reopened for a new target)."""

    def __init__(self) -> None:
        self.target: Optional[str] = None
        self.pid = 0
        self.sock: Optional[socket.socket] = None
        self.failed = False

    def send(self, target: str, entry: Dict[str, Any]) -> bool:
        """Send one entry; False when the driver cannot be reached (the caller writes to stderr)."""
        with _lock:
            if self.target != target or self.pid != os.getpid():
                self._close()
                self.target, self.pid, self.failed = target, os.getpid(), False
            if self.failed:
                return False
            try:
                if self.sock is None:
                    host, port, token = target.rsplit(":", 2)
                    self.sock = socket.create_connection((host, int(port)), timeout=10)
                    self.sock.sendall(token.encode("ascii") + b"\n")
                self.sock.sendall(json.dumps(entry).encode("utf-8") + b"\n")
                return True
            except OSError:
                self._close()
                self.failed = True
                return False

    def _close(self) -> None:
        if self.sock is not None:
            try:
                self.sock.close()
            except OSError:
                pass
        self.sock = None


_connection = _Connection()


def _deliver(entry: Dict[str, Any], stderr_line: str) -> None:
    target = _target()
    if target and _connection.send(target, entry):
        return
    stream = sys.__stderr__ or sys.stderr
    stream.write(stderr_line + "\n")
    stream.flush()


def _stderr_line(created: float, level: str, logger: str, function: str, task: str, message: str) -> str:
    stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(created))
    return f"{stamp},{int(created % 1 * 1000):03d} {level:<7} {logger} [{function}, {task}] {message}"


class _TaskHandler(logging.Handler):
    """Sends each record of the worker's loggers to the driver (local mode) or to stderr."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = logging.Formatter("%(message)s").format(record)
            function = _function_name()
            task, _ = _task_text()
            entry = {"kind": "log", "level": record.levelno, "levelname": record.levelname,
                     "logger": record.name, "function": function, "task": task, "message": message,
                     "created": record.created}
            _deliver(entry, _stderr_line(record.created, record.levelname, record.name, function, task, message))
        except Exception:  # noqa: BLE001 - logging must never fail the function
            self.handleError(record)


class _TaskStdout:
    """``sys.stdout`` of a worker: lines printed inside a task become entries, other output passes."""

    def __init__(self, original: TextIO) -> None:
        self._original = original
        self._pending = ""

    def write(self, text: str) -> int:
        _, in_task = _task_text()
        if not in_task:
            return self._original.write(text)
        self._pending += text
        while "\n" in self._pending:
            line, self._pending = self._pending.split("\n", 1)
            self._emit(line)
        return len(text)

    def _emit(self, line: str) -> None:
        function = _function_name()
        task, _ = _task_text()
        created = time.time()
        entry = {"kind": "print", "function": function, "task": task, "message": line, "created": created}
        _deliver(entry, _stderr_line(created, "INFO", "stdout", function, task, line))

    def flush(self) -> None:
        if self._pending:
            line, self._pending = self._pending, ""
            self._emit(line)
        self._original.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._original, name)
