"""A pytest plugin of the conformance runner: each test fails after ``CONFORMANCE_TEST_TIMEOUT`` seconds.

SIGALRM interrupts the main thread even while it waits on the JVM socket (PEP 475 runs the
handler, whose exception ends the wait), so a hung test fails alone instead of the whole file.
"""

import faulthandler
import os
import signal
import sys
from typing import Any, Generator

import pytest

_SECONDS = int(os.environ.get("CONFORMANCE_TEST_TIMEOUT", "300"))


class ConformanceTimeout(Exception):
    """A test ran longer than the runner's per-test limit."""


def _on_alarm(signum: int, frame: Any) -> None:
    faulthandler.dump_traceback(file=sys.stderr, all_threads=False)
    raise ConformanceTimeout(f"test exceeded the per-test timeout of {_SECONDS} s")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: Any, nextitem: Any) -> Generator[None, None, None]:
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.alarm(_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
