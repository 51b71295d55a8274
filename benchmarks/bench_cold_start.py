"""Cold start: from a fresh ``python`` process to the first row of a trivial query.

pyflink_table (``TableEnvironment.create`` + ``from_elements(...).execute().collect()``) against
hand-written PySpark (``SparkSession.builder.getOrCreate()`` + ``createDataFrame(...).collect()``)
and, where installed (``.venv-pyflink``), PyFlink 2.3 running the same program as ours. Each is a
new process timed from its start to its exit; rounds are interleaved and the best time counts.
pyflink_table is also run with ``PYFLINK_TABLE_CDS=off`` (no class-data-sharing archive); the
first pyflink_table run writes the archive if there is none yet, so it runs once untimed first.

Run: ``.venv/bin/python benchmarks/bench_cold_start.py [repeats]``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

REPEATS = int(sys.argv[1]) if len(sys.argv) > 1 else 3
ROOT = Path(__file__).resolve().parent.parent
PYFLINK_PYTHON = os.environ.get("PYFLINK_PYTHON", str(ROOT / ".venv-pyflink" / "bin" / "python"))

OURS = """
from pyflink_table import EnvironmentSettings, TableEnvironment
t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
print(list(t_env.from_elements([(1, 'a')], ['i', 's']).execute().collect()))
"""
PYSPARK = """
from pyspark.sql import SparkSession
spark = SparkSession.builder.getOrCreate()
print(spark.createDataFrame([(1, 'a')], ['i', 's']).collect())
"""
PYFLINK = OURS.replace("pyflink_table", "pyflink.table")


def timed(python: str, program: str, env: Optional[Dict[str, str]] = None) -> float:
    start = time.perf_counter()
    subprocess.run([python, "-c", program], check=True, capture_output=True, env={**os.environ, **(env or {})})
    return time.perf_counter() - start


def main() -> None:
    # The directory of the worktree (our package) first, so that its copy is the one measured.
    env = {"PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    variants: List[Tuple[str, str, str, Dict[str, str]]] = [
        ("pyflink_table", sys.executable, OURS, env),
        ("PySpark", sys.executable, PYSPARK, {}),
        ("pyflink_table, no CDS archive", sys.executable, OURS, {**env, "PYFLINK_TABLE_CDS": "off"}),
    ]
    if Path(PYFLINK_PYTHON).exists():
        variants.append(("PyFlink 2.3", PYFLINK_PYTHON, PYFLINK, {}))
    else:
        print(f"PyFlink 2.3 not run: {PYFLINK_PYTHON} does not exist (set PYFLINK_PYTHON; `make reference`)",
              file=sys.stderr, flush=True)
    timed(sys.executable, OURS, env)  # writes the archive when there is none
    time.sleep(31)  # the dump is taken over once its JVM has ended and the file has settled
    best: Dict[str, float] = {}
    for r in range(REPEATS):
        for name, python, program, extra in (variants if r % 2 == 0 else variants[::-1]):
            seconds = timed(python, program, extra)
            best[name] = min(seconds, best.get(name, seconds))
            print(f"  round {r + 1}: {name:32s} {seconds:6.2f} s", flush=True)
    print(f"cold start to the first row, best of {REPEATS}")
    for name, _, _, _ in variants:
        print(f"  {name:32s} {best[name]:6.2f} s   ratio / PySpark {best[name] / best['PySpark']:.2f}", flush=True)
    print("target: pyflink_table / PySpark <= 0.80")


if __name__ == "__main__":
    main()
