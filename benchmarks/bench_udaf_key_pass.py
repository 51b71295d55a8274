"""What a first pass over the keys would cost, against what choosing the right aggregation path saves.

For an input without statistics (not cached; here ``spark.range`` with ``k = id % keys``, as a
LONG and as a STRING key), ``pyflink_table.aggregate.packing=auto`` cannot bound the number of
groups and packs. This measures, per interleaved round (CPU of the process tree and wall time):
the pandas UDAF mean packed and per group, and two candidate first passes that would decide:
``approx_count_distinct`` of the key over the whole input, and the distinct keys of its first
100,000 rows (a ``LIMIT``, which reads only the partitions it needs).

Run: ``timeout 900 .venv/bin/python benchmarks/bench_udaf_key_pass.py [rows] [rounds] [keys]``.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from typing import Any, Callable, Dict, List, Tuple

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from pyflink_table import EnvironmentSettings, TableEnvironment
from pyflink_table.expressions import col
from pyflink_table.table import Table
from pyflink_table.udf import udaf

from _cpu import tree_cpu as _tree_cpu

ROWS = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
KEYS = int(sys.argv[3]) if len(sys.argv) > 3 else 1_000
SAMPLE = 100_000


def main() -> None:
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    spark = t_env.get_spark_session()
    ours_mean = udaf(lambda v: v.mean(), result_type="DOUBLE", func_type="pandas")
    print(f"{ROWS:,} rows, {KEYS:,} keys, uncached, {ROUNDS} interleaved rounds", flush=True)
    for key_type in ("bigint", "string"):
        source: DataFrame = spark.range(ROWS).select((F.col("id") % KEYS).cast(key_type).alias("k"),
                                                     (F.col("id") % 97).cast("double").alias("v"))
        table = Table(t_env._j_env.fromDataset(source._jdf), t_env)

        def ours(packing: str) -> Callable[[], Any]:
            def run() -> Any:
                t_env.get_config().set("pyflink_table.aggregate.packing", packing)
                try:
                    per_key = table.group_by(col("k")).select(ours_mean(col("v")).alias("m"))
                    return list(per_key.select(col("m").sum).execute().collect())
                finally:
                    t_env.get_config().set("pyflink_table.aggregate.packing", "auto")
            return run

        def full_pass() -> Any:
            return source.agg(F.approx_count_distinct("k")).collect()

        def head_sample() -> Any:
            return source.select("k").limit(SAMPLE).agg(F.count_distinct("k")).collect()

        variants: List[Tuple[str, Callable[[], Any]]] = [
            ("packed", ours("true")), ("per group", ours("false")),
            ("approx_count_distinct pass", full_pass), (f"first {SAMPLE:,} rows", head_sample)]
        for _, run in variants:
            run()  # warm-up
        wall: Dict[str, List[float]] = {n: [] for n, _ in variants}
        cpu: Dict[str, List[float]] = {n: [] for n, _ in variants}
        for r in range(ROUNDS):
            for name, run in variants[r % 4:] + variants[:r % 4]:
                start, cpu_start = time.perf_counter(), _tree_cpu()
                run()
                wall[name].append(time.perf_counter() - start)
                cpu[name].append(_tree_cpu() - cpu_start)
            print(f"  {key_type} round {r + 1}: " + ", ".join(
                f"{n} {wall[n][-1]:.2f} s / cpu {cpu[n][-1]:.2f} s" for n, _ in variants)
                + f"  load {os.getloadavg()[0]:.1f}", flush=True)
        for name, _ in variants:
            print(f"  {key_type} {name:28s} wall median {statistics.median(wall[name]):6.2f} s;"
                  f" cpu median {statistics.median(cpu[name]):6.2f} best {min(cpu[name]):6.2f} s", flush=True)


if __name__ == "__main__":
    main()
