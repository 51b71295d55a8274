"""Per-task lifecycle of user functions in a Python worker: open before the first row, close after.

Spark's Python worker has no end-of-task callback for scalar UDFs. It does reset the task context
(``TaskContext._setTaskContext(None)``) right after the last output batch is written and before
the task's accumulator updates are sent, so that reset is where functions are closed and their
final metric values are published.
"""

from __future__ import annotations

import json
import os
import threading
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

from pyflink_table import _protocol

_lock = threading.Lock()
_closers: List[Callable[[], None]] = []
_installed = False


def _install() -> None:
    global _installed
    if _installed:
        return
    from pyspark.taskcontext import TaskContext

    original = TaskContext.__dict__["_setTaskContext"].__func__

    def set_task_context(cls: Any, task_context: Any) -> None:
        if task_context is None:
            run_closers()
        original(cls, task_context)

    TaskContext._setTaskContext = classmethod(set_task_context)  # type: ignore[method-assign,assignment]
    _installed = True


def on_task_end(closer: Callable[[], None]) -> None:
    """Run ``closer`` when the current task has produced its last row."""
    with _lock:
        _install()
        _closers.append(closer)


def run_closers() -> None:
    """Close every function opened in the task that just ended (first error re-raised)."""
    with _lock:
        pending = list(_closers)
        _closers.clear()
    error = None
    for closer in pending:
        try:
            closer()
        except Exception as e:  # noqa: BLE001 - the others must still close
            error = error or e
    if error is not None:
        raise error


def job_parameters() -> Dict[str, str]:
    """``pipeline.global-job-parameters`` of the job, shipped as a Spark local property."""
    from pyspark.taskcontext import TaskContext

    ctx = TaskContext.get()
    raw = ctx.getLocalProperty(_protocol.PROPERTY_JOB_PARAMETERS) if ctx is not None else None
    return dict(json.loads(raw)) if raw else {}


def task_info() -> Tuple[str, int, int, int]:
    """(task name, partition index, partitions, attempt) of the running task."""
    from pyspark.taskcontext import TaskContext

    ctx = TaskContext.get()
    if ctx is None:
        return ("", 0, 1, 0)
    parallelism = ctx.getLocalProperty(_protocol.PROPERTY_PARALLELISM)
    return (f"stage-{ctx.stageId()}", ctx.partitionId(), int(parallelism) if parallelism else 1,
            ctx.attemptNumber())


def parse_job_parameters(raw: str) -> Dict[str, str]:
    """``pipeline.global-job-parameters`` text (``k1:v1,k2:v2``) as a dict."""
    params: Dict[str, str] = {}
    for item in raw.split(","):
        if not item.strip():
            continue
        key, sep, value = item.partition(":")
        if not sep:
            raise ValueError(f"pipeline.global-job-parameters entry {item!r} is not key:value")
        params[key.strip()] = value.strip()
    return params


#: File names of the zips of installed requirements start so (set_python_requirements ships them).
REQUIREMENTS_ARCHIVE_PREFIX = "pyflink_table_requirements"


def prepare_task(evaluators: Iterable[Any] = ()) -> None:
    """Worker side, before a function opens: route its logging and printing (see
    :mod:`pyflink_table._worker.udf_logging`), name the installed requirements and the memory
    limit as Flink's workers do and enter the archives' directory when archives were shipped; then
    prepare ``evaluators`` (the aggregate evaluators a task runs, each with a ``prepare()``)."""
    import sys

    from pyspark.taskcontext import TaskContext

    from pyflink_table._worker import udf_logging

    udf_logging.start_task()
    installed = [p for p in sys.path if os.path.basename(p).startswith(REQUIREMENTS_ARCHIVE_PREFIX)]
    if installed:
        # Flink's worker variable: where set_python_requirements installed the packages (here the
        # zip imports resolve from first: a reused worker's sys.path also holds zips shipped before,
        # behind the newest).
        os.environ["_PYTHON_REQUIREMENTS_INSTALL_DIR"] = installed[0]
    limit_mb = os.environ.get("PYSPARK_EXECUTOR_MEMORY_MB", "")
    if limit_mb.isdigit() and int(limit_mb) > 0:
        # Flink's worker variable: the memory the worker may use, in bytes. Spark passes its share
        # of python.worker.memory.size (spark.executor.pyspark.memory over the executor's cores)
        # and its worker enforces it as the address-space limit (unless a lower one was in place,
        # which then holds); without the option there is no limit and no variable.
        limit = _address_space_limit()
        if limit is not None:
            os.environ["_PYTHON_WORKER_MEMORY_LIMIT"] = str(limit)
    ctx = TaskContext.get()
    if ctx is not None and ctx.getLocalProperty(_protocol.PROPERTY_ARCHIVES):
        enter_files_directory()
    for evaluator in evaluators:
        evaluator.prepare()


def _address_space_limit() -> Optional[int]:
    """The worker's soft address-space limit in bytes; None where there is none (or no way to read it)."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    except (ImportError, OSError, ValueError):
        return None
    return None if soft == resource.RLIM_INFINITY else int(soft)


def enter_files_directory() -> None:
    """Work in the directory where shipped archives were extracted."""
    from pyspark import SparkFiles

    root = SparkFiles.getRootDirectory()
    if root and os.getcwd() != root:
        os.chdir(root)


def open_function(function: Any, name: str = "", metrics: Any = None, close_at_task_end: bool = True) -> None:
    """Open a table or aggregate function in the running task with its :class:`FunctionContext`.

    ``name`` is the function's registered name, the first part of its metrics' names (by default
    its Python name). The metrics it registers are published through ``metrics`` (a Spark accumulator) when the task
    ends, as a scalar function's are. ``close_at_task_end`` registers its ``close()`` for the task's
    end too; table functions close themselves in their UDTF handler's ``terminate`` instead.
    """
    from pyflink_table._functions import FunctionContext
    from pyflink_table.metrics import MetricGroup, _snapshot

    prepare_task()
    open_method = getattr(function, "open", None)
    if open_method is None:
        return
    name = name or getattr(function, "__name__", None) or type(function).__name__
    registry: Dict[str, Any] = {}
    open_method(FunctionContext(MetricGroup([name], registry), job_parameters(), task_info()))
    close = getattr(function, "close", None)
    if close_at_task_end and close is not None:
        on_task_end(close)
    if metrics is not None:
        on_task_end(lambda: metrics.add(_snapshot(registry)) if registry else None)


class PlainFunction:
    """A plain function (no open/close) that Spark calls directly, e.g. a pandas aggregate of
    Series as Spark's grouped-aggregate UDF: its task is prepared before the first call, so what
    it logs or prints is routed and named after it (``name``), as for every other function kind.

    :param function: the user's function.
    :param name: the function's name.
    """

    def __init__(self, function: Callable[..., Any], name: str) -> None:
        self.function = function
        self.name = name
        self._prepared = False  # Spark unpickles the function anew for every task

    def __call__(self, *args: Any) -> Any:
        if not self._prepared:
            self._prepared = True
            prepare_task()
        return self.function(*args)
