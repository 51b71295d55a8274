"""Rows written to the upstream tests' ``test-sink`` tables, read back from the ``print`` connector.

The runner rewrites ``'connector'='test-sink'`` to ``'connector'='print'``; pyflink_table's print
connector writes one ``+I[...]`` line per row to ``sys.stdout`` in the driver. A tee installed on
``sys.stdout`` when this module is imported keeps those lines until a test reads them.
"""

import re
import sys
import threading
from typing import Any, Dict, List, TextIO

_ROW_LINE = re.compile(r"^(?:[^\s>]+> )?([+-][IUD])(\[.*\])$")


class _PrintedRows:
    """A ``sys.stdout`` stand-in that passes everything through and keeps printed row lines."""

    def __init__(self, target: TextIO) -> None:
        self._target = target
        self._pending = ""
        self._lock = threading.Lock()
        self.rows: List[str] = []

    def write(self, text: str) -> int:
        with self._lock:
            self._pending += text
            *lines, self._pending = self._pending.split("\n")
            for line in lines:
                m = _ROW_LINE.match(line)
                if m:
                    self.rows.append(m.group(1) + m.group(2))
        return self._target.write(text)

    def take(self) -> List[str]:
        with self._lock:
            rows, self.rows = self.rows, []
        return rows

    def __getattr__(self, name: str) -> Any:
        return getattr(self._target, name)


def _install() -> _PrintedRows:
    current = sys.stdout
    if isinstance(current, _PrintedRows):
        return current
    tee = _PrintedRows(current)
    sys.stdout = tee
    return tee


_printed = _install()


def clear() -> None:
    """Forget rows printed so far (called before each test)."""
    _printed.take()


def results() -> List[str]:
    """Rows of an append sink, as Flink's test sink lists them (``+I[...]``)."""
    return retract_results()


def retract_results() -> List[str]:
    """Rows left after applying retractions (``-U``/``-D`` cancel an earlier ``+I``/``+U``)."""
    counts: Dict[str, int] = {}
    order: List[str] = []
    for line in _printed.take():
        kind, payload = line[:2], line[2:]
        if payload not in counts:
            counts[payload] = 0
            order.append(payload)
        counts[payload] += 1 if kind in ("+I", "+U") else -1
    out: List[str] = []
    for payload in order:
        out.extend(["+I" + payload] * max(counts[payload], 0))
    return out


def upsert_results(keys: List[int]) -> List[str]:
    """Rows of an upsert sink keyed on the given field positions (last write per key wins)."""
    latest: Dict[str, str] = {}
    for line in _printed.take():
        kind, payload = line[:2], line[2:]
        fields = [f.strip() for f in payload[1:-1].split(",")]
        key = ",".join(fields[k] for k in keys)
        if kind in ("+I", "+U"):
            latest[key] = "+I" + payload
        else:
            latest.pop(key, None)
    return list(latest.values())
