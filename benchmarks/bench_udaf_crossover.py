"""Where packing stops paying: pandas UDAF mean, packed vs Spark's per-group path vs PySpark.

For each key count, the same cached input (``k = id % keys``, a LONG key, and a DOUBLE value) is
aggregated by ``pyflink_table.aggregate.packing=true`` (many groups per Arrow batch through
``mapInArrow``), ``packing=false`` (Spark's grouped-aggregate UDF, one Arrow stream per group) and
hand-written PySpark ``GROUPED_AGG``; each query ends in a global ``sum`` so nothing large is
collected. Rounds are interleaved with a rotating order (the machine is shared); the median and
the best of the process tree's CPU (driver, JVM, Python workers) and of wall time are printed, with
the packed / per-group ratio that decides ``packing=auto``'s threshold of rows per group.

With a fourth argument (``parquet``, ``orc``, ``csv`` or ``json``) the input is instead an uncached
file source of that format (written once per key count; read by a ``filesystem`` table for ours and
by ``spark.read`` for PySpark), and a fifth (``string``) makes the key a STRING (``cast(id % keys)``);
the path ``auto`` chose is printed. Files are where the scan and decoding cost is shared by both
paths, so the crossover can lie elsewhere than for a cached input.

Run: ``timeout 900 .venv/bin/python benchmarks/bench_udaf_crossover.py [rows] [rounds] [keys,...] [format] [key type]``,
e.g. ``benchmarks/bench_udaf_crossover.py 3000000 4 300,1000,3000,10000`` or
``benchmarks/bench_udaf_crossover.py 3000000 4 1000,1500 parquet string``.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from typing import Any, Callable, Dict, List, Tuple

import pandas as pd
from pyspark.sql import functions as F
from pyspark.sql.functions import pandas_udf  # type: ignore[attr-defined]

from pyflink_table import EnvironmentSettings, TableEnvironment
from pyflink_table.expressions import col
from pyflink_table.table import Table
from pyflink_table.udf import udaf

from _cpu import tree_cpu as _tree_cpu

ROWS = int(sys.argv[1]) if len(sys.argv) > 1 else 3_000_000
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 4
KEY_COUNTS = tuple(int(k) for k in sys.argv[3].split(",")) if len(sys.argv) > 3 else (300, 1_000, 3_000, 10_000)
SOURCE = sys.argv[4] if len(sys.argv) > 4 else "cached"
KEY_TYPE = sys.argv[5] if len(sys.argv) > 5 else "bigint"
MAX_BYTES = "spark.sql.execution.arrow.maxBytesPerBatch"
SPARK_DEFAULT_MAX_BYTES = str(64 * 1024 * 1024)


def main() -> None:
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    spark = t_env.get_spark_session()
    ours_mean = udaf(lambda v: v.mean(), result_type="DOUBLE", func_type="pandas")

    @pandas_udf("double")  # type: ignore[untyped-decorator]
    def spark_mean(v: pd.Series) -> float:
        return v.mean()

    ours_max_bytes = spark.conf.get(MAX_BYTES)
    print(f"{ROWS:,} rows ({SOURCE}, {KEY_TYPE} key), mean per key then sum of the means, {ROUNDS} interleaved rounds",
          flush=True)
    tmp = tempfile.TemporaryDirectory(prefix="bench-crossover-")
    summary: List[Tuple[int, float, float, float]] = []
    for keys in KEY_COUNTS:
        data = spark.range(ROWS).select((F.col("id") % keys).cast(KEY_TYPE).alias("k"),
                                        (F.col("id") % 97).cast("double").alias("v"))
        if SOURCE == "cached":
            source = data.cache()
            source.count()
            table = Table(t_env._j_env.fromDataset(source._jdf), t_env)
        else:
            path = f"{tmp.name}/{keys}"
            data.write.format(SOURCE).save(path)
            source = spark.read.format(SOURCE).schema("k " + KEY_TYPE + ", v double").load(path)
            name = f"files_{keys}"
            flink_key = "BIGINT" if KEY_TYPE == "bigint" else "STRING"
            t_env.execute_sql(f"CREATE TEMPORARY TABLE {name} (k {flink_key}, v DOUBLE) WITH ("
                              f"'connector' = 'filesystem', 'path' = '{path}', 'format' = '{SOURCE}')")
            table = t_env.from_path(name)
            plan = table.group_by(col("k")).select(ours_mean(col("v"))).explain()
            print(f"  auto chose {'packed' if 'MapInArrow' in plan else 'per group'}", flush=True)

        def ours(packing: str) -> Callable[[], Any]:
            def run() -> Any:
                t_env.get_config().set("pyflink_table.aggregate.packing", packing)
                try:
                    per_key = table.group_by(col("k")).select(ours_mean(col("v")).alias("m"))
                    return list(per_key.select(col("m").sum).execute().collect())
                finally:
                    t_env.get_config().set("pyflink_table.aggregate.packing", "auto")
            return run

        def pyspark() -> Any:
            spark.conf.set(MAX_BYTES, SPARK_DEFAULT_MAX_BYTES)  # PySpark's own default, as written by hand
            try:
                return source.groupBy("k").agg(spark_mean("v").alias("m")).agg(F.sum("m")).collect()
            finally:
                spark.conf.set(MAX_BYTES, ours_max_bytes)

        variants: List[Tuple[str, Callable[[], Any]]] = [
            ("packed", ours("true")), ("per group", ours("false")), ("PySpark", pyspark)]
        # A first, untimed pass of each variant warms the JIT and the Python workers for this input.
        for _, run in variants:
            run()
        wall: Dict[str, List[float]] = {name: [] for name, _ in variants}
        cpu: Dict[str, List[float]] = {name: [] for name, _ in variants}
        print(f"{keys:,} keys ({ROWS // keys:,} rows per group):", flush=True)
        for r in range(ROUNDS):
            order = variants[r % 3:] + variants[:r % 3]
            for name, run in order:
                start, cpu_start = time.perf_counter(), _tree_cpu()
                run()
                wall[name].append(time.perf_counter() - start)
                cpu[name].append(_tree_cpu() - cpu_start)
            print(f"  round {r + 1}: " + ", ".join(f"{n} {wall[n][-1]:.2f} s / cpu {cpu[n][-1]:.2f} s"
                                                   for n, _ in variants)
                  + f"  load {os.getloadavg()[0]:.1f}", flush=True)
        med = {n: statistics.median(cpu[n]) for n, _ in variants}
        for name, _ in variants:
            print(f"  {name:10s} wall median {statistics.median(wall[name]):6.2f} best {min(wall[name]):6.2f} s;"
                  f" cpu median {med[name]:6.2f} best {min(cpu[name]):6.2f} s", flush=True)
        ratio = med["packed"] / med["per group"]
        print(f"  cpu medians: packed / per group {ratio:.3f}; packed / PySpark {med['packed'] / med['PySpark']:.3f};"
              f" per group / PySpark {med['per group'] / med['PySpark']:.3f}", flush=True)
        summary.append((keys, ratio, med["packed"] / med["PySpark"], med["per group"] / med["PySpark"]))
        if SOURCE == "cached":
            source.unpersist()
    tmp.cleanup()
    print("summary (cpu medians): " + "; ".join(
        f"{k:,} keys ({ROWS // k:,} rows/group): packed/per-group {r:.3f}, packed/PySpark {p:.3f}, "
        f"per-group/PySpark {g:.3f}" for k, r, p, g in summary), flush=True)


if __name__ == "__main__":
    main()
