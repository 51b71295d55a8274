"""``JobClient``, ``JobStatus``, ``JobID`` and ``CompletableFuture``: handles on submitted jobs, as
``pyflink.common`` names them.

A job in streaming mode over an unbounded source is a Spark streaming query: ``cancel()`` stops it,
``get_job_status()`` reads whether it is active or failed.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Callable, Generic, Optional, TypeVar

from pyflink_table.errors import TableException

__all__ = ["CompletableFuture", "JobClient", "JobID", "JobStatus"]

T = TypeVar("T")


class JobStatus(Enum):
    """The states of a job, as Flink's ``JobStatus``."""

    CREATED = 0
    RUNNING = 1
    FAILING = 2
    FAILED = 3
    CANCELLING = 4
    CANCELED = 5
    FINISHED = 6
    RESTARTING = 7
    SUSPENDED = 8
    RECONCILING = 9

    def is_globally_terminal_state(self) -> bool:
        """Whether the job will not run again (FINISHED, CANCELED or FAILED)."""
        return self in (JobStatus.FINISHED, JobStatus.CANCELED, JobStatus.FAILED)

    def is_terminal_state(self) -> bool:
        """Whether the job has stopped here (a globally terminal state or SUSPENDED)."""
        return self.is_globally_terminal_state() or self == JobStatus.SUSPENDED


class JobID:
    """The id of a job: 32 hexadecimal digits, as Flink's."""

    def __init__(self, hex_id: str) -> None:
        self._hex = hex_id

    def __str__(self) -> str:
        """The id's hexadecimal string."""
        return self._hex

    def __repr__(self) -> str:
        return f"JobID({self._hex!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, JobID) and other._hex == self._hex

    def __hash__(self) -> int:
        return hash(self._hex)


class CompletableFuture(Generic[T]):
    """A value that is already known (job operations here complete before they return)."""

    def __init__(self, compute: Callable[[], T]) -> None:
        self._error: Optional[BaseException] = None
        self._value: Optional[T] = None
        try:
            self._value = compute()
        except Exception as e:  # kept for result()/exception(), as a failed future
            self._error = e

    def cancel(self) -> bool:
        """A completed future cannot be cancelled: False."""
        return False

    def cancelled(self) -> bool:
        """Never cancelled."""
        return False

    def done(self) -> bool:
        """Always done."""
        return True

    def result(self) -> T:
        """The value, or the failure raised."""
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]

    def exception(self) -> Optional[BaseException]:
        """The failure, or None."""
        return self._error


class JobClient:
    """A handle on a running or finished job.

    Example::

        >>> client = table.execute_insert("sink").get_job_client()
        >>> client.get_job_status().result()
        <JobStatus.RUNNING: 1>
        >>> client.cancel().result()
    """

    def __init__(self, job: Any) -> None:
        self._job = job

    def get_job_id(self) -> JobID:
        """The job's id."""
        return JobID(self._job.job_id)

    def get_job_status(self) -> "CompletableFuture[JobStatus]":
        """The job's status (RUNNING, FINISHED, CANCELED or FAILED)."""
        return CompletableFuture(self._job.status)

    def cancel(self) -> "CompletableFuture[None]":
        """Stop the job."""
        return CompletableFuture(self._job.cancel)

    def get_job_execution_result(self) -> "CompletableFuture[None]":
        """Waits for the job to end; fails as the job failed."""
        return CompletableFuture(lambda: self._job.wait(None))

    def stop_with_savepoint(self, advance_to_end_of_event_time: bool, savepoint_directory: Optional[str] = None
                            ) -> "CompletableFuture[str]":
        """Savepoints do not exist on Spark: raises :class:`~pyflink_table.TableException`."""
        raise TableException("Unsupported: savepoints are not supported by pyflink_table on Spark (a streaming "
                             "query restarts from its checkpoint directory instead).")

    def trigger_savepoint(self, savepoint_directory: Optional[str] = None) -> "CompletableFuture[str]":
        """Savepoints do not exist on Spark: raises :class:`~pyflink_table.TableException`."""
        return self.stop_with_savepoint(False, savepoint_directory)
