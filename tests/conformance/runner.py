"""Run PyFlink's own Table API tests against pyflink_table and count what passes.

The upstream files (``flink-python/pyflink/table/tests/`` of apache/flink) are read from
``<project root>/../shared/conformance/flink_tests`` (override: ``PYFLINK_TABLE_CONFORMANCE_DIR``
naming the directory that holds ``flink_tests/``). Each file is copied into a temporary package
with only its imports renamed (``pyflink.table``/``pyflink.common`` -> ``pyflink_table``,
``pyflink.testing`` -> this directory's ``pyflink_testing`` shim, ``pyflink.table.tests`` -> the
temporary package) and Flink's Java ``test-sink`` connector named as the public ``print``
connector, whose printed rows the shim reads back. One pytest process runs per file (two at a
time), each test limited by ``CONFORMANCE_TEST_TIMEOUT`` seconds.

Tests are enumerated from the upstream source (not from pytest), so a file that fails to import
still counts each of its tests as failed. Each test is classed by its base class: ``batch``
(``PyFlinkBatchTableTestCase``), ``stream`` (``PyFlinkStreamTableTestCase``/``PyFlinkUTTestCase``)
or ``agnostic`` (anything else). ``exclusions.json`` names, by test, what cannot run outside
Flink's own build; ``known_failures.json`` names fair tests that still fail, with the cause.

Usage: ``python tests/conformance/runner.py [--json OUT] [--jobs N] [FILE ...]``
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

HERE = Path(__file__).resolve().parent
PROJECT_ROOT = HERE.parent.parent
PACKAGE = "flink_tests"

BATCH_BASES = {"PyFlinkBatchTableTestCase", "PyFlinkBatchTestCase"}
STREAM_BASES = {"PyFlinkStreamTableTestCase", "PyFlinkUTTestCase", "PyFlinkStreamingTestCase"}
TEST_BASES = BATCH_BASES | STREAM_BASES | {"PyFlinkTestCase", "PyFlinkITTestCase", "TestCase",
                                           "unittest.TestCase"}

# (pattern, replacement) applied in order to each upstream file: imports only, plus the sink name.
INTERNALS = "pyflink_testing.flink_internals"
RENAMES: List[Tuple[str, str]] = [
    # JVM internals (modules that do not exist in pyflink_table) -> loud stand-ins
    (r"\bpyflink\.(java_gateway|find_flink_home|serializers|pyflink_gateway_server|util\.java_utils|fn_execution(\.\w+)*"
     r"|datastream(\.\w+)*|common\.(serializer|typeinfo|watermark_strategy))\b", INTERNALS),
    (r"\bpyflink\.table\.tests\b", PACKAGE),
    (r"\bpyflink\.testing\b", "pyflink_testing"),
    (r"\bpyflink\.table\b", "pyflink_table"),
    (r"\bpyflink\.common\b", "pyflink_table"),
    (r"'connector'\s*=\s*'test-sink'", "'connector'='print'"),
]


def conformance_dir() -> Path:
    """Where the upstream files live: the env override, else ``<project root>/../shared/conformance``."""
    env = os.environ.get("PYFLINK_TABLE_CONFORMANCE_DIR")
    return Path(env) if env else PROJECT_ROOT.parent / "shared" / "conformance"


# JVM/DataStream names that upstream files import from a pyflink_table module next to public names
INTERNAL_NAMES = {"pyflink_table.types": ["_to_java_data_type", "_from_java_data_type"],
                  "pyflink_table": ["WatermarkStrategy"]}


def rename(source: str) -> str:
    for pattern, replacement in RENAMES:
        source = re.sub(pattern, replacement, source)
    for module, names in INTERNAL_NAMES.items():
        for name in names:
            # drop the name from a `from <module> import a, b` list, import it from the stand-ins
            head = r"(from " + re.escape(module) + r" import \(?[^)\n]*?(?:\n[^)]*?)?)"
            pattern = head + r",\s*" + name + r"\b"
            match = re.search(pattern, source)
            if match:
                source = (source[:match.start()] + f"from {INTERNALS} import {name}\n"
                          + match.group(1) + source[match.end():])
    return source


@dataclass
class TestId:
    file: str
    cls: str
    name: str
    mode: str

    @property
    def id(self) -> str:
        return f"{self.file}::{self.cls}::{self.name}"


def enumerate_tests(path: Path) -> List[TestId]:
    """The unittest tests of one upstream file, with inherited mixin tests, classed by mode."""
    tree = ast.parse(path.read_text())
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}

    def bases(c: ast.ClassDef) -> List[str]:
        return [ast.unparse(b) for b in c.bases]

    def ancestry(name: str, seen: Optional[set] = None) -> set:
        seen = set() if seen is None else seen
        if name in seen:
            return seen
        seen.add(name)
        if name in classes:
            for b in bases(classes[name]):
                ancestry(b, seen)
        return seen

    def methods(name: str) -> List[str]:
        out: List[str] = []
        if name not in classes:
            return out
        for b in bases(classes[name]):
            out += [m for m in methods(b) if m not in out]
        for n in classes[name].body:
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test") \
                    and n.name not in out:
                out.append(n.name)
        return out

    tests: List[TestId] = []
    for name, c in classes.items():
        anc = ancestry(name)
        if not anc & TEST_BASES and "PythonAPICompletenessTestCase" not in anc:
            continue
        mode = "batch" if anc & BATCH_BASES else "stream" if anc & STREAM_BASES else "agnostic"
        names = methods(name)
        if "PythonAPICompletenessTestCase" in anc:
            names = names + [m for m in ["test_completeness"] if m not in names]
        tests += [TestId(path.name, name, m, mode) for m in names]
    return tests


@dataclass
class FileResult:
    file: str
    outcomes: Dict[str, str] = field(default_factory=dict)  # test id -> passed/failed/excluded
    messages: Dict[str, str] = field(default_factory=dict)  # test id -> first line of the failure
    seconds: float = 0.0


def _package_root() -> str:
    """The directory holding the ``pyflink_table`` package this interpreter imports."""
    import importlib.util

    spec = importlib.util.find_spec("pyflink_table")
    if spec is None or not spec.submodule_search_locations:
        return str(PROJECT_ROOT)
    return str(Path(list(spec.submodule_search_locations)[0]).parent)


def _first_line(text: str) -> str:
    for line in (text or "").strip().splitlines():
        line = line.strip()
        if line.startswith("E "):
            return line[2:].strip()[:300]
    return (text or "").strip().splitlines()[0][:300] if (text or "").strip() else ""


def run_file(work: Path, tests: List[TestId], excluded: Dict[str, str], timeout: int,
             python: str) -> FileResult:
    file = tests[0].file
    result = FileResult(file)
    runnable = [t for t in tests if t.id not in excluded]
    for t in tests:
        if t.id in excluded:
            result.outcomes[t.id] = "excluded"
    if not runnable:
        return result
    junit = work / f"{file}.xml"
    cmd = [python, "-X", "faulthandler", "-m", "pytest", "-p", "no:cacheprovider", "-p",
           "pyflink_testing.timeout_plugin", "-s", "-q", "--rootdir", str(work), "-c",
           str(work / "pytest.ini"), f"--junitxml={junit}", f"{PACKAGE}/{file}"]
    cmd += [f"--deselect={PACKAGE}/{t.file}::{t.cls}::{t.name}" for t in tests if t.id in excluded]
    env = dict(os.environ)
    # The package the tests run against: the one this process imports (the installed wheel under
    # `make test`, the checkout in a developer's run), never the checkout by default.
    env["PYTHONPATH"] = os.pathsep.join([str(work), _package_root()]
                                        + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env["CONFORMANCE_TEST_TIMEOUT"] = str(timeout)
    env.setdefault("PYTHONUNBUFFERED", "1")
    started = time.monotonic()
    # a file may hang past the per-test alarm (e.g. in the JVM); bound the whole file too
    file_limit = 120 + timeout * max(1, len(runnable)) // 4
    log = work / f"{file}.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, cwd=work, env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            proc.wait(timeout=file_limit)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    result.seconds = time.monotonic() - started
    reported: Dict[str, Tuple[str, str]] = {}
    if junit.exists():
        for case in ET.parse(junit).getroot().iter("testcase"):
            cls = case.get("classname", "").rsplit(".", 1)[-1]
            tid = f"{file}::{cls}::{case.get('name')}"
            bad = [c for c in case if c.tag in ("failure", "error")]
            skipped = [c for c in case if c.tag == "skipped"]
            if bad:
                reported[tid] = ("failed", _first_line(bad[0].get("message", "") + "\n" + (bad[0].text or "")))
            elif skipped:
                reported[tid] = ("failed", "skipped: " + (skipped[0].get("message") or ""))
            else:
                reported.setdefault(tid, ("passed", ""))
    tail = log.read_text(errors="replace")[-2000:]
    for t in runnable:
        outcome, message = reported.get(t.id, ("failed", "no result (import error, crash or file timeout): "
                                               + _import_error(tail)))
        result.outcomes[t.id] = outcome
        if outcome == "failed":
            result.messages[t.id] = message
    return result


def _import_error(log_tail: str) -> str:
    lines = [ln for ln in log_tail.splitlines() if ln.startswith("E ") or "Error" in ln]
    return lines[-1].strip()[:300] if lines else log_tail.strip().splitlines()[-1][:300] if log_tail.strip() else ""


def prepare(work: Path, source: Path, files: List[Path]) -> None:
    pkg = work / PACKAGE
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for f in sorted((source / "flink_tests").glob("*.py")):
        (pkg / f.name).write_text(rename(f.read_text()))
    jsonplan = source / "flink_tests" / "jsonplan"
    if jsonplan.is_dir():
        shutil.copytree(jsonplan, pkg / "jsonplan")
    shutil.copytree(HERE / "pyflink_testing", work / "pyflink_testing",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (work / "pytest.ini").write_text("[pytest]\naddopts = -p no:randomly\n")


def load_json(name: str) -> Dict[str, str]:
    data = json.loads((HERE / name).read_text())
    return {k: v for k, v in data.items() if not k.startswith("_")}


def run(selected: Optional[List[str]] = None, jobs: int = 2, timeout: int = 300,
        python: str = sys.executable) -> Dict[str, object]:
    source = conformance_dir()
    if not (source / "flink_tests").is_dir():
        raise SystemExit(f"upstream tests not found at {source}/flink_tests "
                         "(set PYFLINK_TABLE_CONFORMANCE_DIR)")
    excluded = load_json("exclusions.json")
    files = sorted((source / "flink_tests").glob("test_*.py"))
    if selected:
        files = [f for f in files if f.name in selected or f.stem in selected]
    all_tests = {f.name: enumerate_tests(f) for f in files}
    unknown = set(excluded) - {t.id for ts in all_tests.values() for t in ts}
    if unknown and not selected:
        raise SystemExit(f"exclusions.json names tests that do not exist: {sorted(unknown)}")
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="pyflink-conformance-") as tmp:
        work = Path(tmp)
        prepare(work, source, files)
        todo = [ts for ts in all_tests.values() if ts]
        # the files with most runnable tests first, so the two workers finish together
        todo.sort(key=lambda ts: -len([t for t in ts if t.id not in excluded]))
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(lambda ts: run_file(work, ts, excluded, timeout, python), todo))
    elapsed = time.monotonic() - started
    modes = {t.id: t.mode for ts in all_tests.values() for t in ts}
    outcomes: Dict[str, str] = {}
    messages: Dict[str, str] = {}
    seconds: Dict[str, float] = {}
    for r in results:
        outcomes.update(r.outcomes)
        messages.update(r.messages)
        seconds[r.file] = r.seconds
    return {"outcomes": outcomes, "messages": messages, "modes": modes, "seconds": seconds,
            "elapsed": elapsed}


def summarize(report: Dict[str, object]) -> str:
    outcomes: Dict[str, str] = report["outcomes"]  # type: ignore[assignment]
    modes: Dict[str, str] = report["modes"]  # type: ignore[assignment]
    seconds: Dict[str, float] = report["seconds"]  # type: ignore[assignment]
    rows: Dict[Tuple[str, str], List[int]] = {}
    for tid, outcome in outcomes.items():
        key = (tid.split("::")[0], "stream" if modes[tid] == "stream" else "batch+agnostic")
        counts = rows.setdefault(key, [0, 0, 0, 0])
        if outcome == "excluded":
            counts[3] += 1
        else:
            counts[0] += 1
            counts[1 if outcome == "passed" else 2] += 1
    lines = [f"{'file':44} {'mode':15} {'counted':>7} {'passed':>6} {'failed':>6} {'excluded':>8} {'secs':>5}"]
    totals: Dict[str, List[int]] = {}
    for (file, mode), c in sorted(rows.items()):
        lines.append(f"{file:44} {mode:15} {c[0]:7} {c[1]:6} {c[2]:6} {c[3]:8} {seconds.get(file, 0):5.0f}")
        t = totals.setdefault(mode, [0, 0, 0, 0])
        for i in range(4):
            t[i] += c[i]
    for mode, t in sorted(totals.items()):
        rate = 100.0 * t[1] / t[0] if t[0] else 0.0
        lines.append(f"{'TOTAL':44} {mode:15} {t[0]:7} {t[1]:6} {t[2]:6} {t[3]:8}   pass rate {rate:.1f}%")
    lines.append(f"wall time {report['elapsed']:.0f} s")
    return "\n".join(lines)


def update_lists(report: Dict[str, object]) -> None:
    outcomes: Dict[str, str] = report["outcomes"]  # type: ignore[assignment]
    messages: Dict[str, str] = report["messages"]  # type: ignore[assignment]
    modes: Dict[str, str] = report["modes"]  # type: ignore[assignment]
    raw = json.loads((HERE / "known_failures.json").read_text())
    known = {k: v for k, v in raw.items() if not k.startswith("_") and outcomes.get(k) == "failed"}
    for tid, outcome in outcomes.items():
        if outcome == "failed" and tid not in known:
            prefix = "streaming mode: " if modes[tid] == "stream" else ""
            known[tid] = prefix + messages.get(tid, "")
    out = {k: v for k, v in raw.items() if k.startswith("_")}
    out.update(dict(sorted(known.items())))
    (HERE / "known_failures.json").write_text(json.dumps(out, indent=1) + "\n")
    path = HERE / "baseline.json"
    floor = json.loads(path.read_text()) if path.exists() else {"_comment": "pass counts may only rise"}
    for group in ("batch+agnostic", "stream"):
        counted = [t for t, o in outcomes.items() if o != "excluded"
                   and ("stream" if modes[t] == "stream" else "batch+agnostic") == group]
        passed = sum(1 for t in counted if outcomes[t] == "passed")
        old = floor.get(group, {"counted": 0, "passed": 0})
        floor[group] = {"counted": max(len(counted), old["counted"]), "passed": max(passed, old["passed"])}
    path.write_text(json.dumps(floor, indent=1) + "\n")


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="upstream test files to run (default: all)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=int(os.environ.get("CONFORMANCE_TEST_TIMEOUT", "300")))
    parser.add_argument("--json", help="write the full report (outcomes, messages) here")
    parser.add_argument("--failures", action="store_true", help="list each failed test and its message")
    parser.add_argument("--update-lists", action="store_true",
                        help="after a full run: drop passing tests from known_failures.json, add new failures "
                             "(cause = their message, to be edited), raise baseline.json to the current counts")
    args = parser.parse_args(argv)
    report = run(args.files, args.jobs, args.timeout)
    print(summarize(report))
    if args.update_lists and not args.files:
        update_lists(report)
    if args.failures:
        for tid, message in sorted(report["messages"].items()):  # type: ignore[attr-defined]
            print(f"FAILED {tid}: {message}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
