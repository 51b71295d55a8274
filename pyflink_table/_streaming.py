"""Streaming mode: changelog results (row kinds, PyFlink's ``op`` column) and running stream jobs.

The changelog itself is computed in the JVM (``org.pyflink_table.bridge.streaming``); this module
turns it into PyFlink's results: collected rows carry their :class:`~pyflink_table.row.RowKind` and
``print()`` shows the ``op`` column.
"""

from __future__ import annotations

import logging
import os
import queue
import re
import shutil
import sys
import tempfile
import uuid
import weakref
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Set, Tuple

from pyflink_table import _protocol
from pyflink_table.errors import JavaException, PythonException, TableException, _python_failure_message, translate
from pyflink_table.java_gateway import bridge
from pyflink_table.job_client import JobClient, JobStatus
from pyflink_table.row import Row, RowKind
from pyflink_table.table_result import (
    _NULL,
    CloseableIterator,
    ResultKind,
    TableResult,
    _fit,
    _to_python,
    _type_width,
    display_width,
    format_value,
)
from pyflink_table.types import DataType, parse_type_string

if TYPE_CHECKING:
    from pyflink_table.table import Table
    from pyflink_table.table_environment import TableEnvironment

_KINDS = {"+I": RowKind.INSERT, "-U": RowKind.UPDATE_BEFORE, "+U": RowKind.UPDATE_AFTER, "-D": RowKind.DELETE}


def changelog_rows(table: "Table") -> List[Row]:
    """The rows of a bounded table as Flink's streaming changelog, each with its kind."""
    from pyspark.sql import DataFrame

    table._t_env._before_job()
    try:
        j_changes = bridge().streaming.Changelog.of(table._j_table)
    except Exception as e:  # noqa: BLE001 - a refusal reaches collect()/print() as PyFlink's exception
        raise translate(e) from None
    types = [parse_type_string(t) for t in table._j_table.fieldTypes()]
    out = []
    for r in DataFrame(j_changes, table._t_env._spark).collect():
        row = Row(*[_to_python(v, t) for v, t in zip(r, types)])
        row.set_row_kind(_KINDS[r[-1]])
        out.append(row)
    return out


def format_changelog(names: List[str], types: List[DataType], rows: List[Row]) -> str:
    """Flink's streaming tableau: an ``op`` column in front of the columns of :func:`format_table`."""
    if not rows:
        return "Empty set"
    widths = [2] + [max(_type_width(t), display_width(n), len(_NULL)) for n, t in zip(names, types)]
    cells = [[str(r.get_row_kind())] + [format_value(v, t) for v, t in zip(r, types)] for r in rows]
    border = "+" + "+".join("-" * (w + 2) for w in widths) + "+"

    def line(values: List[str]) -> str:
        return "|" + "|".join(" " + _fit(c, w) + " " for c, w in zip(values, widths)) + "|"

    lines = [border, line(["op"] + names), border] + [line(c) for c in cells] + [border]
    lines.append(f"{len(rows)} row{'s' if len(rows) != 1 else ''} in set")
    return "\n".join(lines)


class ChangelogResult(TableResult):
    """The result of ``execute()`` in streaming mode: rows carry their kind, ``print()`` shows ``op``."""

    def print(self) -> None:
        """Print the changelog as Flink's streaming tableau (with the ``op`` column)."""
        print(format_changelog(self._names, self._types, self._materialize()))


def execute(table: "Table") -> TableResult:
    """``Table.execute()`` in streaming mode: a changelog for bounded input, a running query otherwise."""
    j = table._j_table
    names = list(j.fieldNames())
    types = [parse_type_string(t) for t in j.fieldTypes()]
    if bridge().streaming.Jobs.isUnbounded(j):
        # Regular outer joins and Top-N retract rows: stateful processors in the workers. Spark's
        # streaming aggregation has no state TTL: with one, an updating aggregation runs on the
        # processor whose state expires (one change per input row, as Flink emits them).
        retracting = bridge().streaming.RetractingStreams
        if retracting.applies(j) or (state_ttl_ms(table._t_env) > 0 and bridge().streaming.Changelog.isUpdating(j)) \
                or bridge().streaming.UpdatingStreams.needsProcessor(j):
            # Spark's streaming aggregation cannot run Python or DISTINCT aggregates either: those
            # updating aggregations run on the retracting-aggregation processor too (one change per
            # input row, as Flink emits them; Python ones once per micro-batch).
            table._t_env._before_job()  # offers the worker template the processors run with, before they are planned
            return StreamResult(table._t_env, retracting.changes(j), names, types, changes=True)
        j_updating = bridge().streaming.UpdatingStreams.of(j)  # refuses what cannot run on a stream, now
        if j_updating is not None:
            return StreamResult(table._t_env, j_updating, names, types, updating=True)
        table._t_env._offer_worker_template()  # a temporal sort runs on a processor in the workers
        j_stream = bridge().streaming.Jobs.streamOf(j)
        return StreamResult(table._t_env, j_stream, names, types)
    return ChangelogResult(names, types, ResultKind.SUCCESS_WITH_CONTENT, lambda: changelog_rows(table))


def _noop() -> None:
    """Never called: the body of :func:`_worker_template`'s placeholder function."""


def _worker_template() -> Any:
    """A Spark Python function of this session, whose interpreter and shipped files the bridge's
    stateful processors (regular joins, Top-N, row-count windows) run with."""
    from pyspark.sql.udf import UserDefinedFunction as SparkUDF

    from pyflink_table import _protocol

    return SparkUDF(_noop, "int", "pyflink_table_stream_state", _protocol.EVAL_ARROW_BATCHED_UDF, True)._judf


def offer_worker_template(t_env: Any) -> None:
    """Hand the environment's bridge side (its ``TableContext``) :func:`_worker_template` before it
    plans a streaming query or runs a job: stateful Python processors without a Python function of
    their own (updating aggregations, joins and Top-N of changelogs, over and row-count windows with
    only built-in aggregates) run in its interpreter with its shipped files.

    The template is built again only when the Python dependencies it carries (the files shipped to
    the workers, the workers' interpreter and environment) have changed since the last one."""
    if not t_env._streaming:
        return
    sc = t_env._spark.sparkContext
    key = (tuple(sc._python_includes), sc.pythonExec, tuple(sorted(sc.environment.items())))
    if t_env._worker_template_key != key:
        t_env._j_env.useWorkerTemplate(_worker_template())
        t_env._worker_template_key = key


# --- streaming options ---------------------------------------------------------------------------

#: Options that change results or guarantees and have no Spark mapping yet, with the value that
#: means "off" (setting them to it is accepted).
_REFUSED_OPTIONS = {
    "table.exec.source.idle-timeout": ("0", "0 ms", "0ms", "0 s", "0s"),
    "table.exec.emit.early-fire.enabled": ("false",),
    "table.exec.emit.late-fire.enabled": ("false",),
    "table.exec.emit.allow-lateness": ("0", "0 ms", "0ms", "0 s", "0s"),
    "execution.checkpointing.mode": ("exactly_once",),
}

#: Tuning options with no effect here (they do not change final results): one warning each.
_TUNING_OPTIONS = ("table.exec.mini-batch.", "execution.checkpointing.timeout", "execution.checkpointing.min-pause",
                   "execution.checkpointing.max-concurrent-checkpoints", "state.backend", "pipeline.auto-watermark-interval")

#: PyFlink also ends a Python aggregation's bundle on this timer; here bundles are counted in rows only.
_BUNDLE_TIME = "python.fn-execution.bundle.time"

_warned: Set[str] = set()


#: Below this, Flink's processing-time state TTL can expire state between the rows of a short job.
_SHORT_TTL_MS = 60_000


def check_option(key: str, value: str) -> None:
    """Refuse a streaming option that would change results without a mapping; warn once for tuning ones."""
    if key == STATE_TTL:
        ttl = duration_ms(STATE_TTL, value)
        if 0 < ttl < _SHORT_TTL_MS and key not in _warned:
            _warned.add(key)
            import logging

            logging.getLogger("pyflink_table").warning(
                "Option '%s' = '%s': state of bounded input is never expired (its rows are processed in one job, "
                "as if they arrived at once), where Flink, in processing time, may expire a key's state between two "
                "of its rows; over unbounded sources the state expires as in Flink.", key, value)
    off = _REFUSED_OPTIONS.get(key)
    if off is not None and str(value).strip().lower() not in off:
        raise TableException(f"Unsupported: option '{key}' = '{value}' changes streaming results and has no "
                             "equivalent in pyflink_table on Spark yet; remove it (see the streaming docs page).")
    if key == _BUNDLE_TIME and key not in _warned:
        _warned.add(key)
        import logging

        logging.getLogger("pyflink_table").warning(
            "Option '%s' has no effect in pyflink_table on Spark: a Python aggregation's bundles end after "
            "python.fn-execution.bundle.size rows only, never on a timer (see the streaming docs page).", key)
    if key.startswith(_TUNING_OPTIONS) and key not in _warned:
        _warned.add(key)
        import logging

        logging.getLogger("pyflink_table").warning("Option '%s' has no effect in pyflink_table on Spark (Spark "
                                                   "runs micro-batches; it only tunes Flink's runtime).", key)


# --- jobs over unbounded sources -----------------------------------------------------------------

#: Micro-batch trigger interval when 'execution.checkpointing.interval' is not set.
_DEFAULT_INTERVAL_MS = 200

_DURATION = re.compile(r"^\s*(\d+)\s*(ms|milli|millis|millisecond|milliseconds|s|sec|secs|second|seconds|"
                       r"min|mins|minute|minutes|h|hour|hours|d|day|days)?\s*$")
_UNIT_MS = {"ms": 1, "milli": 1, "millis": 1, "millisecond": 1, "milliseconds": 1, "s": 1000, "sec": 1000,
            "secs": 1000, "second": 1000, "seconds": 1000, "min": 60000, "mins": 60000, "minute": 60000,
            "minutes": 60000, "h": 3600000, "hour": 3600000, "hours": 3600000, "d": 86400000, "day": 86400000,
            "days": 86400000}


def duration_ms(key: str, text: str) -> int:
    """A Flink duration option's value in milliseconds (a number defaults to milliseconds)."""
    m = _DURATION.match(str(text).lower())
    if m is None:
        raise TableException(f"Invalid duration for '{key}': '{text}'.")
    return int(m.group(1)) * _UNIT_MS[m.group(2) or "ms"]


def trigger_interval_ms(t_env: "TableEnvironment") -> int:
    """The micro-batch interval: Flink's checkpoint interval (Spark commits once per micro-batch)."""
    text = t_env.get_config().get("execution.checkpointing.interval", None)
    if not text:
        return _DEFAULT_INTERVAL_MS
    return duration_ms("execution.checkpointing.interval", text)


#: Flink's idle state retention (``TableConfig.set_idle_state_retention``).
STATE_TTL = "table.exec.state.ttl"


def state_ttl_ms(t_env: "TableEnvironment") -> int:
    """``table.exec.state.ttl`` in milliseconds; 0 when unset (state kept forever, Flink's default)."""
    text = t_env.get_config().get(STATE_TTL, None)
    return duration_ms(STATE_TTL, text) if text else 0


def checkpoint_location(t_env: "TableEnvironment") -> Tuple[str, bool]:
    """Where a new job checkpoints, and whether it is a temporary directory of ours.

    With ``execution.checkpointing.dir`` (or ``state.checkpoints.dir``) set, the program's N-th
    streaming job checkpoints into ``<dir>/query-N``: the same program started again resumes each job
    from its checkpoint (Spark's offsets, commits and state), as Flink resumes from a retained
    checkpoint. Otherwise a temporary directory, removed when the job is cancelled.
    """
    config = t_env.get_config()
    directory = config.get("execution.checkpointing.dir", None) or config.get("state.checkpoints.dir", None)
    if not directory:
        return tempfile.mkdtemp(prefix="pyflink_table_checkpoint_"), True
    text = str(directory)
    if text.startswith("file://"):
        text = text[len("file://"):]
    elif text.startswith("file:"):
        text = text[len("file:"):]
    count = getattr(t_env, "_stream_jobs_started", 0) + 1
    setattr(t_env, "_stream_jobs_started", count)
    return os.path.join(text, f"query-{count}"), False


#: File in a stream insert's checkpoint directory holding the id of the last micro-batch its sink committed.
_SINK_COMMIT_MARKER = "pyflink-sink-commit"


class StreamJob:
    """A Spark streaming query: each micro-batch's rows go to ``on_batch`` (on the driver)."""

    def __init__(self, t_env: "TableEnvironment", j_stream: Any, on_batch: Callable[[Any, int], None],
                 output_mode: str = "append", checkpoint: Optional[Tuple[str, bool]] = None) -> None:
        from pyspark.sql import DataFrame

        t_env._before_job()
        self.job_id = uuid.uuid4().hex
        self._cancelled = False
        self._batch_error: Optional[BaseException] = None
        self._checkpoint, self._own_checkpoint = checkpoint or checkpoint_location(t_env)
        _quiet_batch_failures()

        def run_batch(batch: Any, batch_id: int) -> None:
            if self._cancelled:  # a batch that started while the job was being cancelled
                return
            try:
                on_batch(batch, batch_id)
            except BaseException as e:
                # The query fails with it and the program gets it (translated) from wait() or collect().
                self._batch_error = e
                # Spark gets a short one-line error: it matches the whole text py4j hands it (this
                # traceback) against a regular expression that overflowed the stack on a long one.
                short = _BatchFailed(f"Micro-batch {batch_id} of stream job {self.job_id} failed: "
                                     f"{_first_line(e)[:300]}")
                _mark_reported(short)
                raise short from None

        writer = (DataFrame(j_stream, t_env._spark).writeStream.foreachBatch(run_batch).outputMode(output_mode)
                  .option("checkpointLocation", self._checkpoint)
                  .trigger(processingTime=f"{trigger_interval_ms(t_env)} milliseconds"))
        try:
            self._query = writer.start()
        except Exception as e:
            if self._own_checkpoint:
                shutil.rmtree(self._checkpoint, ignore_errors=True)
            raise TableException(f"The streaming job could not start: {_first_line(e)}") from None
        _running.add(self)

    def active(self) -> bool:
        """Whether the query still runs."""
        return bool(self._query.isActive)

    def status(self) -> JobStatus:
        """RUNNING, CANCELED, FAILED or FINISHED."""
        if self._query.isActive:
            return JobStatus.RUNNING
        if self._cancelled:
            return JobStatus.CANCELED
        return JobStatus.FAILED if self._query.exception() is not None else JobStatus.FINISHED

    def cancel(self) -> None:
        """Stop the query (idempotent); a job that already ended keeps its status."""
        if self._query.isActive:
            self._cancelled = True
        self._query.stop()
        if self._own_checkpoint:
            shutil.rmtree(self._checkpoint, ignore_errors=True)

    def wait(self, timeout_ms: Optional[int]) -> None:
        """Block until the query ends; a timeout raises ``TimeoutError``, a failure ``TableException``."""
        try:
            if timeout_ms is None:
                self._query.awaitTermination()
            elif not self._query._jsq.awaitTermination(max(int(timeout_ms), 1)):  # milliseconds
                raise TimeoutError(f"The job {self.job_id} did not finish within {timeout_ms} ms.")
        except TimeoutError:
            raise
        except Exception as e:
            raise _job_failure(e, self._batch_error) from None
        self.raise_if_failed()

    def raise_if_failed(self) -> None:
        """Raise the query's failure, if it failed."""
        error = self._query.exception()
        if error is not None and not self._cancelled:
            raise _job_failure(error, self._batch_error)


def _job_failure(error: Any, batch_error: Optional[BaseException] = None) -> JavaException:
    """A stream job's failure; a Python function's as ``PythonException`` with the user's traceback.

    ``batch_error`` is what a micro-batch raised in the driver (the query's failure reaches Spark
    from there as a Python proxy's traceback): the bridge's own exceptions keep their type and
    message, as in batch mode.
    """
    if batch_error is not None:
        translated = translate(batch_error)
        if isinstance(translated, JavaException):
            return translated
    text = str(getattr(error, "desc", None) or error).split("\n=== Streaming Query ===")[0]
    if _protocol.USER_FUNCTION_ERROR in text:
        return PythonException(_python_failure_message(text, ""))
    return TableException(f"The streaming job failed: {_first_line(error)}")


class _BatchFailed(Exception):
    """What a failed micro-batch hands Spark; the job keeps the original for the program."""


#: The stream jobs started in this process (Ctrl-C cancels those still running).
_running: "weakref.WeakSet[StreamJob]" = weakref.WeakSet()


def cancel_running_jobs() -> None:
    """Ctrl-C: cancel every stream job of this process that still runs."""
    for job in list(_running):
        if job.active():
            job.cancel()


#: Attribute marking an exception a stream job reports itself (see :func:`_quiet_batch_failures`).
_REPORTED = "_pyflink_table_reported"


def _mark_reported(error: BaseException) -> None:
    try:
        setattr(error, _REPORTED, True)
    except AttributeError:  # an exception type without a __dict__: py4j's copy stays visible
        pass


def _drop_reported_proxy_failure(record: logging.LogRecord) -> bool:
    """py4j logs a failed micro-batch callback with its traceback before handing it to Spark; the
    program gets the failure from the job, so that copy on stderr is noise."""
    error = record.exc_info[1] if record.exc_info else None
    return not (error is not None and getattr(error, _REPORTED, False))


_quieted = False


def _quiet_batch_failures() -> None:
    global _quieted
    if not _quieted:
        for name in ("py4j.clientserver", "py4j.java_gateway"):
            logging.getLogger(name).addFilter(_drop_reported_proxy_failure)
        _quieted = True


def _first_line(e: Any) -> str:
    text = str(getattr(e, "desc", None) or e).strip()
    return text.splitlines()[0] if text else type(e).__name__


class _Changes:
    """The changelog of an updating aggregation in Spark's Update mode (``UpdatingStreams`` in the
    bridge): each micro-batch row ends with its group key, its aggregate results and whether the
    filters above keep it; each key's last row is kept to emit ``-U`` old / ``+U`` new."""

    def __init__(self) -> None:
        self._last: Dict[Any, Tuple[Any, Any, bool]] = {}

    def of(self, r: Any) -> List[Tuple[RowKind, Any]]:
        """The changes a micro-batch row makes: +I, or -U/+U when the results changed (filtered per change)."""
        visible, key, value, keep = tuple(r[:-3]), r[-3], r[-2], bool(r[-1])
        old = self._last.get(key)
        self._last[key] = (visible, value, keep)
        if old is None:
            return [(RowKind.INSERT, visible)] if keep else []
        if old[1] == value:
            return []
        out = [(RowKind.UPDATE_BEFORE, old[0])] if old[2] else []
        return out + ([(RowKind.UPDATE_AFTER, visible)] if keep else [])


class StreamIterator(CloseableIterator):
    """Rows of a running query as they are produced; ``close()`` stops the query."""

    def __init__(self, t_env: "TableEnvironment", j_stream: Any, types: List[DataType], updating: bool = False,
                 changes: bool = False) -> None:
        self._types = types
        self._queue: "queue.Queue[Row]" = queue.Queue()
        self._changes = _Changes() if updating else None
        self._with_kind = changes  # each row's last column is its kind (RetractingStreams)
        self.job = StreamJob(t_env, j_stream, self._on_batch, "update" if updating else "append")

    def _on_batch(self, batch: Any, batch_id: int) -> None:
        for r in batch.collect():
            if self._with_kind:
                changes = [(_KINDS[r[-1]], r[:-1])]
            else:
                changes = [(RowKind.INSERT, r)] if self._changes is None else self._changes.of(r)
            for kind, values in changes:
                row = Row(*[_to_python(v, t) for v, t in zip(values, self._types)])
                row.set_row_kind(kind)
                self._queue.put(row)

    def __next__(self) -> Row:
        while True:
            try:
                return self._queue.get(timeout=0.05)
            except queue.Empty:
                if not self.job.active() and self._queue.empty():
                    self.job.raise_if_failed()
                    raise StopIteration from None

    def next(self) -> Row:
        """The next row (blocks until the query produces one)."""
        return self.__next__()

    def close(self) -> None:
        """Stop the query."""
        self.job.cancel()


class StreamResult(TableResult):
    """The result of ``execute()`` on an unbounded table: the query starts on first use."""

    def __init__(self, t_env: "TableEnvironment", j_stream: Any, names: List[str], types: List[DataType],
                 updating: bool = False, changes: bool = False) -> None:
        super().__init__(names, types, ResultKind.SUCCESS_WITH_CONTENT, lambda: [])
        self._t_env = t_env
        self._j_stream = j_stream
        self._updating = updating
        self._changes = changes
        self._iterator: Optional[StreamIterator] = None

    def _started(self) -> StreamIterator:
        if self._iterator is None:
            self._iterator = StreamIterator(self._t_env, self._j_stream, self._types, self._updating, self._changes)
        return self._iterator

    def get_job_client(self) -> JobClient:  # type: ignore[override]
        """The running query's client."""
        return JobClient(self._started().job)

    def wait(self, timeout_ms: Optional[int] = None) -> None:
        """Wait for the query to end (an unbounded one ends when cancelled)."""
        self._started().job.wait(timeout_ms)

    def collect(self) -> CloseableIterator:
        """Rows as the query produces them; ``close()`` stops it."""
        return self._started()

    def print(self) -> None:
        """Print the tableau row by row as rows arrive, until the query ends."""
        widths = [2] + [max(_type_width(t), display_width(n), len(_NULL)) for n, t in zip(self._names, self._types)]
        border = "+" + "+".join("-" * (w + 2) for w in widths) + "+"

        def line(values: List[str]) -> str:
            return "|" + "|".join(" " + _fit(c, w) + " " for c, w in zip(values, widths)) + "|"

        print(border)
        print(line(["op"] + self._names))
        print(border, flush=True)
        count = 0
        with self.collect() as rows:
            for r in rows:
                print(line([str(r.get_row_kind())] + [format_value(v, t) for v, t in zip(r, self._types)]),
                      flush=True)
                count += 1
        print(border)
        print(f"{count} row{'s' if count != 1 else ''} in set")


class FinishedJob:
    """A job that ran to its end before its result was returned (an INSERT of bounded input)."""

    def __init__(self) -> None:
        self.job_id = uuid.uuid4().hex

    def status(self) -> JobStatus:
        """Always FINISHED."""
        return JobStatus.FINISHED

    def cancel(self) -> None:
        """Nothing runs any more."""

    def wait(self, timeout_ms: Optional[int]) -> None:
        """Returns at once."""


class InsertResult(TableResult):
    """The result of an INSERT in streaming mode: a stream's job runs on; ``wait`` blocks on it."""

    def __init__(self, jobs: List[Any], sinks: Optional[List[str]] = None) -> None:
        if sinks:  # Flink's shape: one BIGINT column per sink holding -1 (affected rows unknown)
            super().__init__(list(sinks), [parse_type_string("BIGINT")] * len(sinks), ResultKind.SUCCESS_WITH_CONTENT,
                             lambda: [Row(*([-1] * len(sinks)))])
        else:
            super().__init__(["result"], [parse_type_string("STRING")], ResultKind.SUCCESS, lambda: [Row("OK")])
        self._sinks = sinks
        self._jobs = jobs

    def get_job_client(self) -> JobClient:  # type: ignore[override]
        """The job's client (for a statement set, one client for all its queries)."""
        return JobClient(_JobGroup(self._jobs) if len(self._jobs) > 1 else self._jobs[0])

    def wait(self, timeout_ms: Optional[int] = None) -> None:
        """Wait for the job to end; ``timeout_ms`` raises ``TimeoutError`` when it runs longer."""
        for job in self._jobs:
            job.wait(timeout_ms)

    def print(self) -> None:
        """An INSERT's result prints as PyFlink's: the affected-rows column is not known for streams."""
        if self._sinks:
            super().print()
        else:
            print("OK")


class _JobGroup:
    """The queries of one statement set, seen as one job."""

    def __init__(self, jobs: List[Any]) -> None:
        self._jobs = jobs
        self.job_id = jobs[0].job_id

    def status(self) -> JobStatus:
        states = [j.status() for j in self._jobs]
        for s in (JobStatus.FAILED, JobStatus.RUNNING, JobStatus.CANCELED):
            if s in states:
                return s
        return JobStatus.FINISHED

    def cancel(self) -> None:
        for j in self._jobs:
            j.cancel()

    def wait(self, timeout_ms: Optional[int]) -> None:
        for j in self._jobs:
            j.wait(timeout_ms)


def start_insert(t_env: "TableEnvironment", insert_id: str) -> StreamJob:
    """Start the stream INSERT the JVM registered under ``insert_id``: each micro-batch goes to its sink."""
    streaming = bridge().streaming
    j_insert = streaming.StreamSinks.take(insert_id)
    checkpoint = checkpoint_location(t_env)
    # A job that can be restarted from its checkpoint writes each batch once: the sink's commit
    # records the batch id in the checkpoint, and a batch Spark runs again after a crash is skipped.
    marker = None if checkpoint[1] else os.path.join(checkpoint[0], _SINK_COMMIT_MARKER)

    def write(batch: Any, batch_id: int) -> None:
        printed = streaming.StreamSinks.writeBatch(j_insert, batch._jdf, batch_id, marker)
        if printed is not None:
            lines = list(printed)
            stream = sys.stderr if lines[0] == "stderr" else sys.stdout
            for text in lines[1:]:
                print(text, file=stream, flush=True)

    t_env._offer_worker_template()  # a temporal sort runs on a processor in the workers
    return StreamJob(t_env, bridge().streaming.Jobs.streamOf(t_env._j_env, j_insert.rows()), write,
                     checkpoint=checkpoint)
