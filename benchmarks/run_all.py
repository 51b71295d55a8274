"""Runs every benchmark, one after the other, each in its own process (``make bench``).

Each benchmark prints its variants side by side and the ratios ours / hand-written PySpark (and
ours / PyFlink 2.3 where it is installed), measured in the same run. The full run also shows how
costs grow: functions at 1M and 10M rows, the pandas UDAF from 10 to 1,000,000 keys and at 1M and
10M rows, a 200-column select's planning, cold start, a 200 MB file word count and three streaming
queries. Pass ``--quick`` for a smoke run on small inputs.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple

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
    outputs: List[Tuple[List[str], str]] = []
    for script, *args in runs:
        print(f"\n===== {script} {' '.join(args)}", flush=True)
        child = subprocess.Popen([sys.executable, str(HERE / script), *args], stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None
        lines = []
        for line in child.stdout:  # shown as it comes, kept for the summary
            print(line, end="", flush=True)
            lines.append(line)
        failed += child.wait() != 0
        outputs.append(([script, *args], "".join(lines)))
    print(summary(outputs))
    return 1 if failed else 0


def _seconds(text: str, name: str) -> List[float]:
    """The best times printed for variant ``name`` (``  name   1.23 s``), in order."""
    return [float(m) for m in re.findall(r"^  " + re.escape(name) + r"\s+([\d.]+) s", text, re.M)]


def summary(outputs: List[Tuple[List[str], str]]) -> str:
    """Every ratio of issue 16 from this run, and how costs grow with rows and keys."""
    out = ["", "===== summary (ratios from this run; targets in brackets)"]
    scalar = [(int(cmd[1]), text) for cmd, text in outputs if cmd[0] == "bench_scalar_udf.py"]
    for rows, text in scalar:
        for line in re.findall(r"^  ours .* / spark .*$", text, re.M):
            out.append(f"  scalar, {rows:,} rows: {line.strip()}")
    out.append("  [general UDF / arrow @udf >= 1.20x; pandas UDF / pandas_udf >= 1.00x; higher is faster]")
    if len(scalar) >= 2:
        (small, a), (large, b) = scalar[0], scalar[-1]
        for name in ("ours general UDF", "spark arrow @udf", "ours pandas UDF", "ours pyarrow UDF"):
            ta, tb = _seconds(a, name), _seconds(b, name)
            if ta and tb:
                out.append(f"  growth {small:,} -> {large:,} rows, {name}: {tb[0] / ta[0]:.1f}x the time "
                           f"(rows x{large / small:.0f})")
    udaf = [(cmd, text) for cmd, text in outputs if cmd[0] == "bench_pandas_udaf.py"]
    for cmd, text in udaf:
        keys = re.findall(r"^([\d,]+) keys", text, re.M)
        ours = _seconds(text, "pyflink_table pandas UDAF")
        theirs = _seconds(text, "PySpark GROUPED_AGG pandas_udf")
        off = _seconds(text, "pyflink_table, packing off")
        for k, o, t, f in zip(keys, ours, theirs, off):
            out.append(f"  pandas UDAF, {int(cmd[1]):,} rows, {k} keys: ours {o:.2f} s / PySpark {t:.2f} s = {o / t:.2f}"
                       f" (packing off {f / t:.2f})")
        if len(keys) > 1 and ours:
            out.append(f"  growth {keys[0]} -> {keys[-1]} keys ({int(cmd[1]):,} rows): ours {ours[-1] / ours[0]:.1f}x, "
                       f"PySpark {theirs[-1] / theirs[0]:.1f}x the time")
        for line in re.findall(r"^  (uncached \w+ [\d,]+ keys: ours / PySpark .*)$", text, re.M):
            out.append(f"  pandas UDAF, {int(cmd[1]):,} rows, {line}")
    if len(udaf) >= 2:
        (ca, a), (cb, b) = udaf[0], udaf[-1]
        ka, kb = re.findall(r"^([\d,]+) keys", a, re.M), re.findall(r"^([\d,]+) keys", b, re.M)
        if "1,000" in ka and "1,000" in kb:
            oa, ob = _seconds(a, "pyflink_table pandas UDAF")[ka.index("1,000")], _seconds(b, "pyflink_table pandas UDAF")[kb.index("1,000")]
            ta, tb = (_seconds(a, "PySpark GROUPED_AGG pandas_udf")[ka.index("1,000")],
                      _seconds(b, "PySpark GROUPED_AGG pandas_udf")[kb.index("1,000")])
            out.append(f"  growth {int(ca[1]):,} -> {int(cb[1]):,} rows at 1,000 keys: ours {ob / oa:.1f}x, "
                       f"PySpark {tb / ta:.1f}x the time")
    out.append("  [pandas UDAF <= 1.10 at 1,000 keys; at 1,000,000 keys no slower than packing]")
    for cmd, text in outputs:
        if cmd[0] == "bench_planning.py":
            for line in re.findall(r"^  (.*ratio ours / PySpark.*)$", text, re.M):
                out.append(f"  planning, {cmd[1]} columns: {' '.join(line.split())}")
        elif cmd[0] == "bench_cold_start.py":
            for line in re.findall(r"^  (.*ratio / PySpark.*)$", text, re.M):
                out.append(f"  cold start: {' '.join(line.split())}  [pyflink_table <= 0.80]")
        elif cmd[0] == "bench_word_count_files.py":
            for line in re.findall(r"^(pyflink_table / .*)$", text, re.M):
                out.append(f"  word count: {' '.join(line.split())}")
    return "\n".join(out)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
