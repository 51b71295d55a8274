"""PyFlink's own Table API tests, run by tests/conformance/runner.py: nothing that passed may fail.

Every counted upstream test must pass unless ``known_failures.json`` names it (with its cause);
a listed test that now passes must be removed from the list, so the list only shrinks; and the
number of passing tests per mode may not fall below ``baseline.json``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Dict

import pytest

HERE = Path(__file__).resolve().parent / "conformance"
sys.path.insert(0, str(HERE))

import runner  # noqa: E402


@pytest.fixture(scope="module")
def report() -> Dict[str, object]:
    if not (runner.conformance_dir() / "flink_tests").is_dir():
        pytest.fail(f"upstream tests not found at {runner.conformance_dir()} (set PYFLINK_TABLE_CONFORMANCE_DIR)")
    result = runner.run()
    print(runner.summarize(result))
    return result


def _known() -> Dict[str, str]:
    return runner.load_json("known_failures.json")


def test_no_new_failures(report: Dict[str, object]) -> None:
    outcomes: Dict[str, str] = report["outcomes"]  # type: ignore[assignment]
    messages: Dict[str, str] = report["messages"]  # type: ignore[assignment]
    known = _known()
    new = {t: messages.get(t, "") for t, o in outcomes.items() if o == "failed" and t not in known}
    assert not new, "upstream tests failing that are not known failures:\n" + "\n".join(
        f"{t}: {m}" for t, m in sorted(new.items()))


def test_known_failures_only_shrink(report: Dict[str, object]) -> None:
    outcomes: Dict[str, str] = report["outcomes"]  # type: ignore[assignment]
    known = _known()
    now_passing = sorted(t for t in known if outcomes.get(t) == "passed")
    assert not now_passing, "known failures that pass now; remove them from known_failures.json:\n" + \
        "\n".join(now_passing)
    stale = sorted(t for t in known if outcomes.get(t) not in ("passed", "failed"))
    assert not stale, "known_failures.json names tests that are not counted (excluded or gone):\n" + "\n".join(stale)


def test_pass_rate_does_not_fall(report: Dict[str, object]) -> None:
    outcomes: Dict[str, str] = report["outcomes"]  # type: ignore[assignment]
    modes: Dict[str, str] = report["modes"]  # type: ignore[assignment]
    floor = runner.load_json("baseline.json")
    for group, expected in floor.items():
        counted = [t for t, o in outcomes.items() if o != "excluded"
                   and ("stream" if modes[t] == "stream" else "batch+agnostic") == group]
        passed = [t for t in counted if outcomes[t] == "passed"]
        assert len(counted) >= expected["counted"], f"{group}: fewer tests counted than before"  # type: ignore[index]
        assert len(passed) >= expected["passed"], f"{group}: {len(passed)} pass, {expected['passed']} before"  # type: ignore[index]
