"""Pandas UDAF mean: pyflink_table vs hand-written PySpark GROUPED_AGG pandas_udf vs built-in AVG.

pyflink_table runs twice: with its default (``pyflink_table.aggregate.packing=auto``: packed
aggregation, many groups per Arrow batch, unless statistics show few large groups; the cached
LONG keys here have none, so packed) and with ``pyflink_table.aggregate.packing=false`` (Spark's
grouped-aggregate UDF, as PySpark).

Then, for each key count up to 10,000, the same over an uncached Parquet file source (a
filesystem table, LONG and STRING keys): ``auto`` can only bound the groups by the files' footers
there (row counts, a LONG key's range, each row group's dictionary size); it prints the path auto
chose and the ratios ours / PySpark with packing automatic, off and on.

5,000,000 rows (default) grouped into 1,000 keys and into 1,000,000 keys. Every variant reads the
same cached Spark data, computes the per-key mean and ends in a global ``sum`` of the means so only
the aggregation is timed (nothing large is collected). Rounds are interleaved; the best time counts. Prints seconds per variant and the ratio
ours / PySpark (target: within 15%, i.e. a ratio of at most 1.15).

Run: ``timeout 900 .venv/bin/python benchmarks/bench_pandas_udaf.py [rows] [repeats] [keys,...] [pyspark-first]``.
"""

from __future__ import annotations

import os
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

ROWS = int(sys.argv[1]) if len(sys.argv) > 1 else 5_000_000
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 2
KEY_COUNTS = tuple(int(k) for k in sys.argv[3].split(",")) if len(sys.argv) > 3 else (1_000, 1_000_000)
# "pyspark-first" starts the single 1,000,000-key round with PySpark instead of pyflink_table.
PYSPARK_FIRST = len(sys.argv) > 4 and sys.argv[4] == "pyspark-first"
MAX_BYTES = "spark.sql.execution.arrow.maxBytesPerBatch"
SPARK_DEFAULT_MAX_BYTES = str(64 * 1024 * 1024)


def main() -> None:
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    spark = t_env.get_spark_session()

    ours_mean = udaf(lambda v: v.mean(), result_type="DOUBLE", func_type="pandas")

    @pandas_udf("double")  # type: ignore[untyped-decorator]
    def spark_mean(v: pd.Series) -> float:
        return v.mean()

    # Warm up Spark's Python workers for both UDAFs on a tiny input, so that no timed variant pays it.
    tiny = spark.range(100).select((F.col("id") % 3).alias("k"), F.col("id").cast("double").alias("v"))
    tiny_table = Table(t_env._j_env.fromDataset(tiny._jdf), t_env)
    tiny_table.group_by(col("k")).select(ours_mean(col("v"))).execute().collect()
    tiny.groupBy("k").agg(spark_mean("v")).collect()

    ours_max_bytes = spark.conf.get(MAX_BYTES)
    print(f"{ROWS:,} rows, mean per key then sum of the means, best of {REPEATS}", flush=True)
    ratios: List[Tuple[int, float, float]] = []
    for keys in KEY_COUNTS:
        source = spark.range(ROWS).select((F.col("id") % keys).alias("k"),
                                          (F.col("id") % 97).cast("double").alias("v")).cache()
        source.count()
        table = Table(t_env._j_env.fromDataset(source._jdf), t_env)

        def ours() -> Any:
            per_key = table.group_by(col("k")).select(ours_mean(col("v")).alias("m"))
            return list(per_key.select(col("m").sum).execute().collect())

        def ours_per_group() -> Any:
            # The option for few large groups: Spark's grouped-aggregate UDF, one Arrow stream per group.
            t_env.get_config().set("pyflink_table.aggregate.packing", "false")
            try:
                return ours()
            finally:
                t_env.get_config().set("pyflink_table.aggregate.packing", "auto")

        def pyspark() -> Any:
            # Hand-written PySpark runs with Spark's own Arrow byte cap (64 MB), not the one
            # pyflink_table sets for its session (none): the cap costs Spark's writer a size
            # check per row.
            spark.conf.set(MAX_BYTES, SPARK_DEFAULT_MAX_BYTES)
            try:
                return source.groupBy("k").agg(spark_mean("v").alias("m")).agg(F.sum("m")).collect()
            finally:
                spark.conf.set(MAX_BYTES, ours_max_bytes)

        def builtin() -> Any:
            return source.groupBy("k").agg(F.avg("v").alias("m")).agg(F.sum("m")).collect()

        variants: List[Tuple[str, Callable[[], Any]]] = [
            ("pyflink_table pandas UDAF", ours), ("PySpark GROUPED_AGG pandas_udf", pyspark),
            ("built-in AVG", builtin), ("pyflink_table, packing off", ours_per_group)]
        # Interleaved rounds with alternating order, so that neither side is always the first run
        # on fresh data; 1,000,000 keys gets one round (ours first) to stay within the time limit.
        rounds = REPEATS if keys < 1_000_000 else 1
        seconds: Dict[str, float] = {}
        cpu: Dict[str, float] = {}
        print(f"{keys:,} keys ({rounds} round(s)):", flush=True)
        for r in range(rounds):
            swapped = (r % 2 == 1) != (PYSPARK_FIRST and rounds == 1)
            for name, run in (variants[1::-1] + variants[2:] if swapped else variants):
                start, cpu_start = time.perf_counter(), _tree_cpu()
                run()
                elapsed, used = time.perf_counter() - start, _tree_cpu() - cpu_start
                seconds[name] = min(elapsed, seconds.get(name, elapsed))
                cpu[name] = min(used, cpu.get(name, used))
                print(f"    round {r + 1}: {name:32s} {elapsed:7.2f} s  cpu {used:6.2f} s  "
                      f"load {os.getloadavg()[0]:.1f}", flush=True)
        for name, _ in variants:
            print(f"  {name:32s} {seconds[name]:7.2f} s  {ROWS / seconds[name]:>12,.0f} rows/s", flush=True)
        ratio = seconds["pyflink_table pandas UDAF"] / seconds["PySpark GROUPED_AGG pandas_udf"]
        print(f"  ratio ours / PySpark: {ratio:.3f}  (built-in is {seconds['PySpark GROUPED_AGG pandas_udf'] / seconds['built-in AVG']:.1f}x faster than the pandas_udf)", flush=True)
        print(f"  CPU of the process tree, best: ours / PySpark {cpu['pyflink_table pandas UDAF'] / cpu['PySpark GROUPED_AGG pandas_udf']:.3f}, "
              f"packing off / PySpark {cpu['pyflink_table, packing off'] / cpu['PySpark GROUPED_AGG pandas_udf']:.3f}",
              flush=True)
        print(f"  ratio ours with pyflink_table.aggregate.packing=false / PySpark: "
              f"{seconds['pyflink_table, packing off'] / seconds['PySpark GROUPED_AGG pandas_udf']:.3f}", flush=True)
        ratios.append((keys, ratio, seconds["built-in AVG"]))
        source.unpersist()
    print("summary: " + ", ".join(f"{k:,} keys: ours/PySpark = {r:.3f}" for k, r, _ in ratios))
    for keys in KEY_COUNTS:
        if keys <= 10_000:  # many keys: PySpark's per-group UDF alone takes minutes
            uncached(t_env, ours_mean, spark_mean, keys)


def uncached(t_env: TableEnvironment, ours_mean: Any, spark_mean: Any, keys: int) -> None:
    """The same aggregation over a Parquet file source (no statistics but its files' footers), LONG and STRING keys."""
    spark = t_env.get_spark_session()
    ours_max_bytes = spark.conf.get(MAX_BYTES)
    with tempfile.TemporaryDirectory(prefix="bench-udaf-") as tmp:
        for key_type, flink_type in (("bigint", "BIGINT"), ("string", "STRING")):
            path = f"{tmp}/{key_type}-{keys}"
            spark.range(ROWS).select((F.col("id") % keys).cast(key_type).alias("k"),
                                     (F.col("id") % 97).cast("double").alias("v")).write.parquet(path)
            name = f"files_{key_type}_{keys}"
            t_env.execute_sql(f"CREATE TEMPORARY TABLE {name} (k {flink_type}, v DOUBLE) WITH ("
                              f"'connector' = 'filesystem', 'path' = '{path}', 'format' = 'parquet')")
            files = spark.read.parquet(path)

            def ours(packing: str) -> Callable[[], Any]:
                def run() -> Any:
                    t_env.get_config().set("pyflink_table.aggregate.packing", packing)
                    try:
                        per_key = t_env.from_path(name).group_by(col("k")).select(ours_mean(col("v")).alias("m"))
                        return list(per_key.select(col("m").sum).execute().collect())
                    finally:
                        t_env.get_config().set("pyflink_table.aggregate.packing", "auto")
                return run

            def pyspark() -> Any:
                spark.conf.set(MAX_BYTES, SPARK_DEFAULT_MAX_BYTES)
                try:
                    return files.groupBy("k").agg(spark_mean("v").alias("m")).agg(F.sum("m")).collect()
                finally:
                    spark.conf.set(MAX_BYTES, ours_max_bytes)

            variants: List[Tuple[str, Callable[[], Any]]] = [
                ("ours (auto)", ours("auto")), ("PySpark", pyspark), ("ours, packing off", ours("false")),
                ("ours, packing on", ours("true"))]
            plan = t_env.from_path(name).group_by(col("k")).select(ours_mean(col("v"))).explain()
            chosen = "packed" if "MapInArrow" in plan else "per group"
            print(f"uncached Parquet, {key_type} key, {keys:,} keys ({ROWS // keys:,} rows per group; "
                  f"auto chose {chosen}), {REPEATS} round(s):", flush=True)
            for _, run in variants:
                run()  # untimed: warms the JIT and the Python workers for this file
            seconds: Dict[str, float] = {}
            cpu: Dict[str, float] = {}
            for r in range(REPEATS):
                for vname, run in variants[r % 4:] + variants[:r % 4]:
                    start, cpu_start = time.perf_counter(), _tree_cpu()
                    run()
                    elapsed, used = time.perf_counter() - start, _tree_cpu() - cpu_start
                    seconds[vname] = min(elapsed, seconds.get(vname, elapsed))
                    cpu[vname] = min(used, cpu.get(vname, used))
                    print(f"    round {r + 1}: {vname:20s} {elapsed:7.2f} s  cpu {used:6.2f} s  "
                          f"load {os.getloadavg()[0]:.1f}", flush=True)
            print(f"  uncached {key_type} {keys:,} keys, best: " + ", ".join(
                f"{v} {seconds[v]:.2f} s / cpu {cpu[v]:.2f} s" for v, _ in variants), flush=True)
            print(f"  uncached {key_type} {keys:,} keys: ours / PySpark {seconds['ours (auto)'] / seconds['PySpark']:.3f}"
                  f" (cpu {cpu['ours (auto)'] / cpu['PySpark']:.3f}); packing off "
                  f"{seconds['ours, packing off'] / seconds['PySpark']:.3f}, packing on "
                  f"{seconds['ours, packing on'] / seconds['PySpark']:.3f}", flush=True)


if __name__ == "__main__":
    main()
