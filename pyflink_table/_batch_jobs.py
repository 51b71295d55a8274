"""Batch inserts as jobs that run on while the program goes on, as Flink submits them.

``execute_insert`` returns at once with a :class:`~pyflink_table.job_client.JobClient`;
``wait()`` blocks, ``wait(timeout_ms)`` raises ``TimeoutError`` when the job runs longer (the job
runs on), ``cancel()`` cancels the job's Spark jobs, and a failure is raised by ``wait()`` as the
PyFlink exception it translates to. The insert itself (validation aside, done before it starts)
is the synchronous one, so the filesystem sink's commit journal is unchanged: a cancelled or
failed job commits nothing. Jobs of one environment run one after the other, in submission order.

The job's thread is not a daemon: a program that never waits still has its inserts finished
before the interpreter exits.
"""

from __future__ import annotations

import threading
import uuid
from typing import Any, Callable, List, Optional

from pyflink_table import errors
from pyflink_table._streaming import InsertResult
from pyflink_table.job_client import JobStatus
from pyflink_table.row import Row


class BatchJob:
    """One background insert (or the inserts of one statement set, in order).

    :param sc: the SparkContext (its job group names this job's Spark jobs).
    :param run: the synchronous insert(s); called in the job's thread.
    :param after: a job that must end first (the environment's previous insert), or None.
    """

    def __init__(self, sc: Any, run: Callable[[], None], after: Optional["BatchJob"]) -> None:
        self.job_id = uuid.uuid4().hex
        self._sc = sc
        self._run = run
        self._after = after
        self._error: Optional[BaseException] = None
        self._cancelled = False
        self._ran = False
        self._thread = threading.Thread(target=self._main, name=f"pyflink_table-insert-{self.job_id[:8]}")
        self._thread.start()

    def _main(self) -> None:
        if self._after is not None:
            self._after._thread.join()
        if self._cancelled:
            return
        self._ran = True
        try:
            # Local properties are per thread: the job group applies to this thread's Spark jobs.
            self._sc.setJobGroup(self.job_id, f"pyflink_table insert {self.job_id}", True)
            self._run()
        except BaseException as e:  # noqa: BLE001 - kept for wait(), translated as the caller's call would be
            self._error = errors.translate(e) if isinstance(e, Exception) else e

    def _was_cancelled(self) -> bool:
        # A cancel that came after the commit leaves the job FINISHED.
        return self._cancelled and (self._error is not None or not self._ran)

    def status(self) -> JobStatus:
        """RUNNING, FINISHED, CANCELED or FAILED."""
        if self._thread.is_alive():
            return JobStatus.RUNNING
        if self._was_cancelled():
            return JobStatus.CANCELED
        return JobStatus.FAILED if self._error is not None else JobStatus.FINISHED

    def cancel(self) -> None:
        """Cancel the job's Spark jobs; returns when the job has ended. A job that already
        committed stays FINISHED."""
        self._cancelled = True
        while self._thread.is_alive():
            self._sc.cancelJobGroup(self.job_id)
            self._thread.join(0.2)

    def wait(self, timeout_ms: Optional[int]) -> None:
        """Block until the job ends; ``TimeoutError`` after ``timeout_ms``; the job's failure is raised."""
        self._thread.join(None if timeout_ms is None else max(int(timeout_ms), 0) / 1000)
        if self._thread.is_alive():
            raise TimeoutError(f"The job {self.job_id} did not finish within {timeout_ms} ms.")
        if self._was_cancelled():
            raise errors.TableException(f"The job {self.job_id} was cancelled.")
        if self._error is not None:
            raise self._error


class BatchInsertResult(InsertResult):
    """The result of submitted batch inserts: reading its rows (``collect``, ``print``) waits for
    the job first and raises its failure, as PyFlink's does."""

    def _materialize(self) -> List[Row]:
        self.wait()
        return super()._materialize()
