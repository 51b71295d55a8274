"""A stream INSERT into a filesystem table, killed mid-stream and restarted from its checkpoint
directory, ends with every row exactly once: nothing lost, nothing duplicated, no half-written file.

The program runs in a child process (its own JVM) that inserts a monitored directory into a
filesystem table with ``execution.checkpointing.dir`` set. The test publishes input files while it
runs and kills it at several points, each followed by a restart of the same program:

1. the JVM halts right after micro-batch 1's files were committed, before Spark recorded the batch
   as done (test hook ``PYFLINK_TABLE_TEST_STREAM_CRASH_AFTER_BATCH``): Spark runs batch 1 again on
   restart, which a per-batch ``foreachBatch`` append would write twice;
2. the JVM halts in the middle of a batch's commit, after the commit journal was written and the
   first file moved in (``PYFLINK_TABLE_TEST_COMMIT_CRASH_STEP``);
3. the test SIGKILLs the JVM and the Python process while files are being published and batches
   commit, at a moment chosen by time, not by a hook.

After each kill the sink's visible files must each be whole and hold no row twice; after the last
run it must hold exactly the rows computed here by hand.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections import Counter
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

import pytest

ROWS_PER_FILE = 4

CHILD = textwrap.dedent("""
    import sys
    from pyflink_table import EnvironmentSettings, TableEnvironment

    root, fmt = sys.argv[1], sys.argv[2]
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.get_config().set("execution.checkpointing.dir", "file://" + root + "/checkpoints")
    t_env.get_config().set("execution.checkpointing.interval", "200 ms")
    t_env.execute_sql("CREATE TABLE src (k STRING, v INT) WITH ('connector' = 'filesystem', "
                      "'path' = '" + root + "/in', 'format' = 'csv', 'source.monitor-interval' = '100ms')")
    t_env.execute_sql("CREATE TABLE dst (k STRING, v INT) WITH ('connector' = 'filesystem', "
                      "'path' = '" + root + "/out', 'format' = '" + fmt + "')")
    result = t_env.execute_sql("INSERT INTO dst SELECT k, v * 10 FROM src")
    print("STARTED", flush=True)
    result.wait(900000)
""")


def file_rows(i: int) -> List[Tuple[str, int]]:
    """The input rows of file i."""
    return [(f"k{i}", i * 100 + j) for j in range(ROWS_PER_FILE)]


def expected(files: int) -> Counter:
    """The sink's rows once files 0..files-1 went through ``SELECT k, v * 10``: computed by hand."""
    return Counter((k, v * 10) for i in range(files) for k, v in file_rows(i))


def publish(directory: Path, i: int) -> None:
    """Write input file i under a hidden name, then rename it: the source sees it whole."""
    hidden = directory / f".f{i}.csv"
    hidden.write_text("".join(f"{k},{v}\n" for k, v in file_rows(i)))
    hidden.rename(directory / f"f{i}.csv")


def parse(fmt: str, line: str) -> Tuple[str, int]:
    if fmt == "csv":
        k, v = line.split(",")
        return k, int(v)
    record = json.loads(line)
    assert set(record) == {"k", "v"}, line
    return str(record["k"]), int(record["v"])


def sink_rows(out: Path, fmt: str) -> Counter:
    """The rows of the sink's visible files, as any reader of the directory sees them; each file
    must be whole (complete lines, each one a row)."""
    rows: Counter = Counter()
    if not out.is_dir():
        return rows
    for f in out.rglob("*"):
        if not f.is_file() or any(p.startswith((".", "_")) for p in f.relative_to(out).parts):
            continue
        text = f.read_text()
        assert text == "" or text.endswith("\n"), f"half-written file visible: {f.name}: {text!r}"
        rows.update(parse(fmt, line) for line in text.splitlines())
    return rows


def descendants(pid: int) -> List[int]:
    """The processes below ``pid`` (the JVM the child launched, its Python workers, ...)."""
    children: Dict[int, List[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


class Run:
    """One start of the program, in its own process; the JVM it launches is its child."""

    def __init__(self, script: Path, root: Path, fmt: str, env_extra: Optional[Dict[str, str]] = None) -> None:
        env = dict(os.environ)
        env.pop("PYFLINK_TABLE_TEST_STREAM_CRASH_AFTER_BATCH", None)
        env.pop("PYFLINK_TABLE_TEST_COMMIT_CRASH_STEP", None)
        env.update(env_extra or {})
        self.log = open(root / f"run-{time.monotonic_ns()}.log", "w+")
        self.proc = subprocess.Popen([sys.executable, str(script), str(root), fmt], env=env, stdout=self.log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        self.jvms: List[int] = []

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read()

    def wait_started(self) -> None:
        wait_for(lambda: "STARTED" in self.output(), self)
        self.jvms = [p for p in descendants(self.proc.pid) if _is_java(p)]
        assert self.jvms, "the child's JVM was not found"

    def jvm_halted(self) -> bool:
        return all(not _alive(p) for p in self.jvms)

    def kill(self) -> None:
        """SIGKILL everything: the JVM first (no shutdown hooks run), then the Python process."""
        for pid in descendants(self.proc.pid) + [self.proc.pid]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.wait(60)


def _is_java(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"java" in f.read().split(b"\0")[0]
    except OSError:
        return False


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_for(condition: Callable[[], bool], run: Run, seconds: float = 600.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if run.proc.poll() is not None:
            raise AssertionError(f"the program ended early:\n{run.output()[-3000:]}")
        assert time.monotonic() < deadline, f"timed out; the program's output:\n{run.output()[-3000:]}"
        time.sleep(0.1)


def check_no_duplicates(out: Path, fmt: str, files: int) -> Counter:
    """After a kill: every visible row is one of the published rows, none of them twice."""
    rows = sink_rows(out, fmt)
    assert not set(rows) - set(expected(files)), "rows that were never published"
    assert all(n == 1 for n in rows.values()), f"duplicated rows: {[r for r, n in rows.items() if n > 1]}"
    return rows


# Each run costs a JVM start (a minute on a busy machine): CSV goes through every kill point, JSON
# (the other text format the stream insert writes; the commit code is shared) through the first.
@pytest.mark.parametrize("fmt, every_kill_point", [("csv", True), ("json", False)])
def test_killed_stream_insert_restarts_exactly_once(tmp_path: Path, fmt: str, every_kill_point: bool) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    source, out = tmp_path / "in", tmp_path / "out"
    source.mkdir()
    runs: List[Run] = []
    try:
        # 1. Halt right after batch 1 was committed to the sink, before Spark's commit log has it.
        run = Run(script, tmp_path, fmt, {"PYFLINK_TABLE_TEST_STREAM_CRASH_AFTER_BATCH": "1"})
        runs.append(run)
        run.wait_started()
        publish(source, 0)
        wait_for(lambda: sink_rows(out, fmt) == expected(1), run)
        publish(source, 1)
        wait_for(run.jvm_halted, run)
        run.kill()
        assert "halting after batch 1" in run.output()
        assert not (tmp_path / "checkpoints" / "query-1" / "commits" / "1").exists()  # Spark will run it again
        assert check_no_duplicates(out, fmt, 2) == expected(2)

        if not every_kill_point:
            # Restart: batch 1 runs again (and is skipped), then a new file.
            run = Run(script, tmp_path, fmt)
            runs.append(run)
            run.wait_started()
            publish(source, 2)
            wait_for(lambda: sum(sink_rows(out, fmt).values()) >= sum(expected(3).values()), run)
            time.sleep(2)  # a batch run twice would show up now
            assert sink_rows(out, fmt) == expected(3)
            return

        # 2. Restart: batch 1 runs again (and is skipped); halt in the middle of batch 2's commit.
        run = Run(script, tmp_path, fmt, {"PYFLINK_TABLE_TEST_COMMIT_CRASH_STEP": "4"})
        runs.append(run)
        run.wait_started()
        publish(source, 2)
        wait_for(run.jvm_halted, run)
        run.kill()
        assert "halting before commit step 4" in run.output()
        check_no_duplicates(out, fmt, 3)

        # 3. Restart; SIGKILL from outside while files arrive and batches commit.
        run = Run(script, tmp_path, fmt)
        runs.append(run)
        run.wait_started()
        publish(source, 3)
        wait_for(lambda: sink_rows(out, fmt) == expected(4), run)
        publish(source, 4)
        time.sleep(0.15)
        publish(source, 5)
        wait_for(lambda: sum(sink_rows(out, fmt).values()) > sum(expected(4).values()), run)
        run.kill()
        check_no_duplicates(out, fmt, 6)

        # 4. Restart and run to the end: every published row exactly once.
        run = Run(script, tmp_path, fmt)
        runs.append(run)
        run.wait_started()
        publish(source, 6)
        wait_for(lambda: sum(sink_rows(out, fmt).values()) >= sum(expected(7).values()), run)
        time.sleep(2)  # a batch run twice would show up now
        assert sink_rows(out, fmt) == expected(7)
        run.kill()
    finally:
        for r in runs:
            if r.proc.poll() is None:
                r.kill()
            r.log.close()
