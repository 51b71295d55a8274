"""Runs every benchmark, one after the other, each in its own process (``make bench``).

Each benchmark prints its variants side by side and the ratios ours / hand-written PySpark (and
ours / PyFlink 2.3 where it is installed), measured in the same run. The full run also shows how
costs grow: functions at 1M and 10M rows, the pandas UDAF from 10 to 1,000,000 keys and at 1M and
10M rows, a 200-column select's planning, cold start, a 200 MB file word count and three streaming
queries. Pass ``--quick`` for a smoke run on small inputs.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    if quick:
        runs = [
            ["bench_scalar_udf.py", "200000", "1", "--no-sweep"],
            ["bench_pandas_udaf.py", "200000", "1", "1000,100000"],
            ["bench_planning.py", "50", "2"],
            ["bench_cold_start.py", "1"],
            ["bench_word_count_files.py", "--mb", "10"],
            ["bench_streaming.py", "--events", "2000", "--probes", "2"],
        ]
    else:
        # Scaling: rows from 1M to 10M (functions; the UDAF at 1,000 keys) and keys from 10 to 1,000,000.
        runs = [
            ["bench_scalar_udf.py", "1000000", "3", "--no-sweep"],
            ["bench_scalar_udf.py", "10000000", "2"],
            ["bench_pandas_udaf.py", "1000000", "3", "10,1000,100000,1000000"],
            ["bench_pandas_udaf.py", "10000000", "2", "1000"],
            ["bench_planning.py", "200", "5"],
            ["bench_cold_start.py", "3"],
            ["bench_word_count_files.py"],
            ["bench_streaming.py"],
        ]
    failed = 0
    for script, *args in runs:
        print(f"\n===== {script} {' '.join(args)}", flush=True)
        failed += subprocess.call([sys.executable, str(HERE / script), *args]) != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
