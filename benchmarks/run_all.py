"""Runs every benchmark, one after the other, each in its own process (``make bench``).

Each benchmark prints its variants side by side and the ratios ours / hand-written PySpark (and
ours / PyFlink 2.3 where it is installed). Sizes are the issue's: 5M rows for functions, 200 MB for
the file word count. Pass ``--quick`` for a smoke run on small inputs.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    runs = [
        ["bench_scalar_udf.py"] + (["200000"] if quick else []),
        ["bench_pandas_udaf.py"] + (["200000", "1", "1000,100000"] if quick else []),
        ["bench_word_count_files.py"] + (["--mb", "10"] if quick else []),
    ]
    failed = 0
    for script, *args in runs:
        print(f"\n===== {script} {' '.join(args)}", flush=True)
        failed += subprocess.call([sys.executable, str(HERE / script), *args]) != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
