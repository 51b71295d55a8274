"""Driver side of UDF logging: the levels sent to the workers and, in local mode, the receiver.

The receiver listens on a loopback socket; each Python worker connects once, proves it belongs to
this driver with a random token, and sends one JSON line per log record or printed line (see
:mod:`pyflink_table._worker.udf_logging`). Records are handed to the logger ``pyflink_table.udf``
with the function and task in the message; printed lines are written to ``sys.stdout`` as they
were printed, as PyFlink does in local mode.
"""

from __future__ import annotations

import atexit
import json
import logging
import secrets
import selectors
import socket
import sys
import threading
import time
from typing import Any, Dict, Optional

from pyflink_table._worker import udf_logging
from pyflink_table.errors import TableException

#: The driver-side logger of what user functions log.
LOGGER_NAME = "pyflink_table.udf"
DEFAULT_LEVEL_OPTION = "python.logging.default.level"
LEVEL_OVERRIDES_OPTION = "python.logging.level.overrides"

# Flink's level names (the option's documented values) next to Python's own.
_FLINK_LEVELS = {"OFF": logging.CRITICAL + 10, "TRACE": 5, "WARN": logging.WARNING}


def parse_level(value: str, option: str) -> int:
    """A level number for a level name (Flink's or Python's) or number given to ``option``."""
    text = value.strip().upper()
    if text.isdecimal():
        return int(text)
    level = _FLINK_LEVELS.get(text, logging.getLevelName(text))
    if not isinstance(level, int):
        raise TableException(f"Invalid log level '{value}' for option {option}; use one of OFF, CRITICAL, "
                             "ERROR, WARN, INFO, DEBUG, TRACE or a number.")
    return level


def worker_levels(default_level: Optional[str], overrides: Optional[str]) -> str:
    """The levels property for the workers from the two PyFlink options (``""`` = root logger)."""
    levels: Dict[str, int] = {"": parse_level(default_level or "INFO", DEFAULT_LEVEL_OPTION)}
    for item in (overrides or "").replace(";", ",").split(","):
        if not item.strip():
            continue
        name, sep, level = item.rpartition(":")
        if not sep or not name.strip():
            raise TableException(f"Invalid entry '{item.strip()}' in option {LEVEL_OVERRIDES_OPTION}; "
                                 "use logger.name:LEVEL pairs separated by commas.")
        levels[name.strip()] = parse_level(level, LEVEL_OVERRIDES_OPTION)
    return json.dumps(levels, sort_keys=True)


def before_job(sc: Any, default_level: Optional[str], overrides: Optional[str]) -> None:
    """Set the local properties the workers read: levels always, the receiver in local mode."""
    sc.setLocalProperty(udf_logging.LEVELS_PROPERTY, worker_levels(default_level, overrides))
    target = ""
    if str(sc.master).startswith("local"):
        receiver = _receiver()
        receiver.drain()
        target = receiver.target
    sc.setLocalProperty(udf_logging.TARGET_PROPERTY, target)


class _FallbackHandler(logging.Handler):
    """Prints UDF records on the driver's stderr when the program configured no logging of its own."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(logging.Formatter("%(levelname)s %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        try:
            stream = sys.stderr
            stream.write(self.format(record) + "\n")
            stream.flush()
        except Exception:  # noqa: BLE001
            self.handleError(record)

    def filter(self, record: logging.LogRecord) -> bool:
        # Someone else's handler up the chain prints it already (e.g. logging.basicConfig()).
        logger: Optional[logging.Logger] = logging.getLogger(LOGGER_NAME)
        while logger is not None:
            if any(h is not self for h in logger.handlers):
                return False
            if not logger.propagate:
                break
            logger = logger.parent
        return True


class _Receiver:
    """A loopback server thread reading the workers' entries."""

    def __init__(self) -> None:
        self._token = secrets.token_hex(16)
        self._server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._server.bind(("127.0.0.1", 0))
        self._server.listen(64)
        self._server.setblocking(False)
        self.target = f"127.0.0.1:{self._server.getsockname()[1]}:{self._token}"
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._server, selectors.EVENT_READ, None)
        self._lock = threading.Lock()
        self._closed = False
        self._logger = logging.getLogger(LOGGER_NAME)
        if not any(isinstance(h, _FallbackHandler) for h in self._logger.handlers):
            self._logger.addHandler(_FallbackHandler())
        self._thread = threading.Thread(target=self._run, name="pyflink_table-udf-logs", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._closed:
            # Wait without the lock: holding it through the wait starved drain() (an unfair lock
            # retaken at once), which cost every job 50-500 ms before it started.
            try:
                ready = bool(self._selector.select(0.05))
            except (OSError, ValueError, KeyError):  # closed under us
                return
            if not ready:
                continue
            with self._lock:
                if self._closed:
                    return
                try:
                    self._poll(0)  # entries drain() has not handled meanwhile
                except Exception:  # noqa: BLE001 - a malformed entry must not stop the receiver
                    pass

    def drain(self) -> None:
        """Handle the entries already sent (so a job's records print before what follows it);
        at most a second's worth, since a running streaming query may keep sending."""
        deadline = time.monotonic() + 1.0
        with self._lock:
            if not self._closed:
                while self._poll(0) and time.monotonic() < deadline:
                    pass

    def close(self) -> None:
        """Handle what is left and stop listening."""
        self.drain()
        with self._lock:
            self._closed = True
            for key in list(self._selector.get_map().values()):
                key.fileobj.close()  # type: ignore[union-attr]
            self._selector.close()

    def _poll(self, timeout: float) -> bool:
        """One round of reading; True when anything was read."""
        events = self._selector.select(timeout)
        for key, _ in events:
            if key.data is None:
                self._accept()
            else:
                self._read(key.fileobj, key.data)  # type: ignore[arg-type]
        return bool(events)

    def _accept(self) -> None:
        try:
            conn, _ = self._server.accept()
        except OSError:
            return
        conn.setblocking(False)
        self._selector.register(conn, selectors.EVENT_READ, {"buffer": b"", "trusted": False})

    def _read(self, conn: socket.socket, state: Dict[str, Any]) -> None:
        try:
            data = conn.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._selector.unregister(conn)
            conn.close()
            return
        state["buffer"] += data
        *lines, state["buffer"] = state["buffer"].split(b"\n")
        for line in lines:
            if not state["trusted"]:
                if line.decode("ascii", "replace") != self._token:
                    self._selector.unregister(conn)
                    conn.close()
                    return
                state["trusted"] = True
                continue
            try:
                self._handle(json.loads(line))
            except (ValueError, KeyError, TypeError):
                continue  # not an entry of ours: nothing to show

    def _handle(self, entry: Dict[str, Any]) -> None:
        if entry.get("kind") == "print":
            sys.stdout.write(entry["message"] + "\n")
            sys.stdout.flush()
            return
        level = int(entry["level"])
        if self._logger.level and level < self._logger.level:
            return
        record = logging.makeLogRecord({
            "name": LOGGER_NAME, "levelno": level, "levelname": entry["levelname"],
            "msg": f"[{entry['function']}, {entry['task']}] {entry['logger']}: {entry['message']}",
            "created": entry["created"], "msecs": entry["created"] % 1 * 1000, "udf_function": entry["function"], "udf_task": entry["task"],
            "udf_logger": entry["logger"], "udf_message": entry["message"],
        })
        self._logger.handle(record)


_lock = threading.Lock()
_instance: Optional[_Receiver] = None


def _receiver() -> _Receiver:
    global _instance
    with _lock:
        if _instance is None:
            _instance = _Receiver()
            atexit.register(_instance.close)
        return _instance


def drain() -> None:
    """Print what the workers have sent so far (no-op when nothing listens)."""
    if _instance is not None:
        _instance.drain()
