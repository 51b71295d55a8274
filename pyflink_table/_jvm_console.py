"""What the embedded JVM prints: its stderr passes through a filter thread of the driver.

Spark's launcher starts the JVM with ``--add-modules jdk.incubator.vector``, for which Java prints
``WARNING: Using incubator modules: jdk.incubator.vector`` at start-up: a note on Spark's launch
command that says nothing about the user's program (and shows as an error box in notebooks). No
JVM option silences it, so the JVM is started with its stderr on a pipe; a thread copies it to the
process's stderr as it comes (chunks, so the progress bar's ``\\r`` updates keep flowing), leaving
out exactly that line, and the start-up lines Spark's transformWithStateInPandas helper prints.

The JVM runs in a session (process group) of its own. It never needed signals from the driver's
terminal (PySpark already makes it ignore SIGINT; it exits when its stdin closes, i.e. when the
driver's process ends), and Jupyter terminates a kernel by signalling the kernel's process group,
repeatedly: the JVM, in the middle of its shutdown hooks, then had its ``rm`` of Spark's temporary
directories killed and printed a long trace, and the kernel took seconds to go. Outside that group
the JVM shuts down undisturbed once the kernel has exited, and what it prints after the
interpreter's exit began is not the user's output and is dropped.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import threading
from typing import Any, List, Mapping, Optional, Tuple

#: The line Java prints for Spark's --add-modules jdk.incubator.vector.
INCUBATOR_WARNING = b"WARNING: Using incubator modules: jdk.incubator.vector\n"

_exiting = threading.Event()


class LineDropper:
    """Passes a byte stream through, leaving out every whole line equal to ``line``.

    Output is held back only while the start of a line still matches ``line``, so everything
    else (including partial lines such as a progress bar) passes at once.

    :param line: the line to drop, with its trailing newline.
    """

    def __init__(self, line: bytes) -> None:
        self._line = line
        self._held: Optional[bytes] = b""  # None: inside a line that does not match

    def feed(self, data: bytes) -> bytes:
        """The part of ``data`` (and of what was held back) to write now."""
        out: List[bytes] = []
        while data:
            if self._held is not None:
                candidate = self._held + data
                if candidate.startswith(self._line):
                    data, self._held = candidate[len(self._line):], b""
                    continue
                if self._line.startswith(candidate):
                    self._held = candidate
                    break
                data, self._held = candidate, None
            end = data.find(b"\n")
            if end < 0:
                out.append(data)
                break
            out.append(data[:end + 1])
            data, self._held = data[end + 1:], b""
        return b"".join(out)

    def flush(self) -> bytes:
        """What is still held back (at the end of the stream)."""
        held, self._held = self._held or b"", b""
        return held


def launch_gateway(settings: Mapping[str, str]) -> None:
    """Start the JVM for these Spark settings with its stderr filtered (no-op when a JVM runs).

    PySpark would start the same JVM from the same settings when the session is built; starting
    it first only adds the pipe. Under ``spark-submit`` the JVM exists already and is left as is.
    """
    from pyspark import SparkConf, SparkContext
    from pyspark.java_gateway import launch_gateway as pyspark_launch_gateway

    if SparkContext._gateway is not None or "PYSPARK_GATEWAY_PORT" in os.environ:
        return
    conf = SparkConf(loadDefaults=False).setAll(list(settings.items()))
    gateway = pyspark_launch_gateway(conf, {"stderr": subprocess.PIPE,  # type: ignore[no-untyped-call]
                                            "start_new_session": True})
    SparkContext._ensure_initialized(gateway=gateway)
    proc = getattr(gateway, "proc", None)
    if proc is not None and proc.stderr is not None:
        threading.Thread(target=_copy_stderr, args=(proc.stderr,), name="pyflink_table-jvm-stderr",
                         daemon=True).start()
        atexit.register(_exiting.set)


#: Spark's transformWithStateInPandas pre-init worker (``transform_with_state_driver_worker.py``)
#: announces itself with bare ``print()`` calls, each line followed by an empty one; Spark starts it
#: as a simple worker whose stdout it copies to the JVM's stderr. No logging setting reaches a print.
TWS_WORKER_PREFIXES = (b"Starting Streaming TransformWithStateInPandas Python worker",
                       b"Streaming TransformWithStateInPandas Python worker ")


class PrefixLineDropper:
    """Passes a byte stream through, leaving out whole lines that start with one of ``prefixes``,
    and the empty line right after each of them.

    Output is held back only while the start of a line could still be one of the prefixes.

    :param prefixes: the starts of the lines to drop.
    """

    def __init__(self, prefixes: Tuple[bytes, ...]) -> None:
        self._prefixes = prefixes
        self._held = b""
        self._passing = False  # inside a line that is shown
        self._dropping = False  # inside a line that is dropped
        self._after_drop = False  # at the start of the line after a dropped one

    def feed(self, data: bytes) -> bytes:
        """The part of ``data`` (and of what was held back) to write now."""
        out: List[bytes] = []
        while data:
            if self._passing or self._dropping:
                end = data.find(b"\n")
                if self._passing:
                    out.append(data if end < 0 else data[:end + 1])
                if end < 0:
                    break
                self._after_drop, self._passing, self._dropping = self._dropping, False, False
                data = data[end + 1:]
                continue
            data, self._held = self._held + data, b""
            if self._after_drop:
                self._after_drop = False
                if data.startswith(b"\n"):
                    data = data[1:]
                    continue
            if data.startswith(self._prefixes):
                self._dropping = True
            elif any(p.startswith(data) for p in self._prefixes):
                self._held = data  # too short to tell yet
                break
            else:
                self._passing = True
        return b"".join(out)

    def flush(self) -> bytes:
        """What is still held back (at the end of the stream)."""
        held, self._held = self._held, b""
        return held


def _copy_stderr(stream: Any) -> None:
    dropper = LineDropper(INCUBATOR_WARNING)
    worker_lines = PrefixLineDropper(TWS_WORKER_PREFIXES)
    fd = stream.fileno()
    while True:
        try:
            data = os.read(fd, 65536)
        except OSError:
            return
        if not data:
            _write(worker_lines.feed(dropper.flush()) + worker_lines.flush())
            return
        _write(worker_lines.feed(dropper.feed(data)))


def _write(data: bytes) -> None:
    if not data or _exiting.is_set():
        return
    try:
        while data:
            data = data[os.write(2, data):]
    except OSError:
        pass
