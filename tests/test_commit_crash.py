"""The filesystem sink's commit survives the process dying at any step of it.

Each run is a child Python process (its own JVM) that first reads the table (which finishes a
commit a dead process left), prints what it read, then writes a new generation into it. The JVM
halts, as SIGKILL would, right before commit step N (test hook
``PYFLINK_TABLE_TEST_COMMIT_CRASH_STEP``); the runs crash at the steps of ``CRASH_STEPS`` in turn,
until a run's commit has fewer steps and completes. Every run must read the old or the new
generation, whole. Each run costs a JVM start (a minute on a busy machine), so for the larger
partitioned overwrite the steps are sampled: every step up to the first moves (the journal's
rename, the first deletes and moves), then sparser. The JSON append and the single-file case are
crashed at every step of their commit, in turn, until the run after the last step completes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import List, Tuple

import pytest

ROWS = 4  # rows per generation; partition p = i % 2
CRASH_STEPS = [1, 2, 3, 4, 5, 7, 10, 14]
EXHAUSTIVE = {"append", "single_file_overwrite"}  # crashed at step 1, 2, 3, ... (every step)

# One table per case (each crash point costs a JVM start): the commit code is the same for every
# format, so the cases vary what a commit does: delete old files and move new ones into partition
# directories, only move new files in, replace one file.
CASES = {
    "partitioned_overwrite": ("CREATE TABLE t (g INT, i INT, p INT) PARTITIONED BY (p) WITH ("
                              "'connector'='filesystem', 'path'='{root}/t', 'format'='parquet')", "INSERT OVERWRITE t"),
    "append": ("CREATE TABLE t (g INT, i INT, p INT) WITH ("
               "'connector'='filesystem', 'path'='{root}/t', 'format'='json')", "INSERT INTO t"),
    "single_file_overwrite": ("CREATE TABLE t (g INT, i INT, p INT) WITH ("
                              "'connector'='filesystem', 'path'='{root}/t', 'format'='csv')", "INSERT INTO single"),
}

CHILD = textwrap.dedent("""
    import json, sys
    from pyflink_table import DataTypes, EnvironmentSettings, TableEnvironment
    from pyflink_table.sinks import CsvTableSink, WriteMode

    root, gen, ddl, insert, rows = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.execute_sql(ddl.format(root=root))
    t_env.register_table_sink("single", CsvTableSink(["g", "i", "p"], [DataTypes.INT()] * 3, f"{root}/t",
                                                     write_mode=WriteMode.OVERWRITE))
    if gen > 0:
        print("READ " + json.dumps(sorted(tuple(r) for r in t_env.from_path("t").execute().collect())), flush=True)
    t_env.get_config().set("parallelism.default", "1")  # one writing task: one file per directory
    values = ", ".join(f"({gen}, {i}, {i % 2})" for i in range(rows))
    t_env.execute_sql(f"{insert} SELECT * FROM (VALUES {values}) AS v(g, i, p) ORDER BY i").wait()
    print("DONE", flush=True)
""")


def generation(g: int) -> List[Tuple[int, int, int]]:
    return [(g, i, i % 2) for i in range(ROWS)]


def run(script: Path, root: Path, case: str, gen: int, crash_step: int) -> Tuple[int, str, str]:
    env = dict(os.environ)
    if crash_step > 0:
        env["PYFLINK_TABLE_TEST_COMMIT_CRASH_STEP"] = str(crash_step)
    ddl, insert = CASES[case]
    p = subprocess.run([sys.executable, str(script), str(root), str(gen), ddl, insert, str(ROWS)], env=env,
                       capture_output=True, text=True, timeout=900)
    return p.returncode, p.stdout, p.stderr


@pytest.mark.parametrize("case", list(CASES))
def test_every_crash_point_leaves_old_or_new_whole(tmp_path, case):
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    root = tmp_path / "tables"
    root.mkdir()
    code, out, err = run(script, root, case, 0, 0)
    assert code == 0 and "DONE" in out, err[-3000:]
    append = case == "append"
    held = [0]  # the generations the table holds (overwrite: exactly one)
    pending = 0  # the generation the previous run tried to write (0: none)
    crashes = 0
    gen = 1
    while True:
        step = gen if case in EXHAUSTIVE else CRASH_STEPS[gen - 1]
        code, out, err = run(script, root, case, gen, step)
        reads = [line for line in out.splitlines() if line.startswith("READ ")]
        assert len(reads) == 1, (code, out, err[-3000:])
        got = sorted(tuple(r) for r in json.loads(reads[0][5:]))
        options = [held] + ([held + [pending] if append else [pending]] if pending else [])
        match = [o for o in options if got == sorted(r for g in o for r in generation(g))]
        assert match, (case, gen, got, held, pending)
        held = match[0]
        if code == 0:
            assert "DONE" in out
            break
        assert f"halting before commit step {step}" in err, (code, err[-3000:])  # the hook's halt, not an error
        crashes += 1
        pending = gen
        gen += 1
    # The commit has at least: journal, a move, staging removal, journal removal.
    assert crashes >= 4
    # The completed write finished the last dead commit and removed every dead writer's leftovers.
    hidden = sorted(p.name for p in root.iterdir() if p.name.startswith(".") and not p.name.endswith(".crc"))
    assert hidden == [], hidden
