"""Per-task lifecycle of user functions in a Python worker: open before the first row, close after.

Spark's Python worker has no end-of-task callback for scalar UDFs. It does reset the task context
(``TaskContext._setTaskContext(None)``) right after the last output batch is written and before
the task's accumulator updates are sent, so that reset is where functions are closed and their
final metric values are published.
"""

from __future__ import annotations

import json
import threading
from typing import Any, Callable, Dict, List, Tuple

JOB_PARAMETERS_PROPERTY = "pyflink_table.job-parameters"
PARALLELISM_PROPERTY = "pyflink_table.parallelism"

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
    raw = ctx.getLocalProperty(JOB_PARAMETERS_PROPERTY) if ctx is not None else None
    return dict(json.loads(raw)) if raw else {}


def task_info() -> Tuple[str, int, int, int]:
    """(task name, partition index, partitions, attempt) of the running task."""
    from pyspark.taskcontext import TaskContext

    ctx = TaskContext.get()
    if ctx is None:
        return ("", 0, 1, 0)
    parallelism = ctx.getLocalProperty(PARALLELISM_PROPERTY)
    return (f"stage-{ctx.stageId()}", ctx.partitionId(), int(parallelism) if parallelism else 1,
            ctx.attemptNumber())


ARCHIVES_PROPERTY = "pyflink_table.archives"


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


def prepare_task() -> None:
    """Worker side, before a function opens: route its logging and printing (see
    :mod:`pyflink_table._worker.udf_logging`) and enter the archives' directory when archives were shipped."""
    from pyspark.taskcontext import TaskContext

    from pyflink_table._worker import udf_logging

    udf_logging.start_task()
    ctx = TaskContext.get()
    if ctx is not None and ctx.getLocalProperty(ARCHIVES_PROPERTY):
        from pyflink_table._worker import deps

        deps.enter_files_directory()
