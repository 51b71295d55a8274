"""Where a query's time goes: CPU per process (driver Python, driver JVM, Spark's Python workers).

``python benchmarks/cpu_split.py [rows] [rounds]`` runs the general UDF projection of
``bench_scalar_udf.py`` and the pandas UDAF mean into 1,000 keys of ``bench_pandas_udaf.py``, ours and
hand-written PySpark, interleaved, and prints the median CPU seconds of each process kind per query.
On the 2-core machine the wall time follows the total CPU, so this split says which side to work on.
"""

from __future__ import annotations

import statistics
import sys
from typing import Any, Callable, Dict, List, Tuple

import psutil
import pyspark.sql.functions as F
from pyspark.sql.functions import PandasUDFType, pandas_udf
from pyspark.sql.functions import udf as spark_udf

from _cpu import split_cpu
from pyflink_table import EnvironmentSettings, Table, TableEnvironment
from pyflink_table.expressions import col
from pyflink_table.udf import udaf, udf

ROWS = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000_000
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 5


def split() -> Dict[str, float]:
    """CPU seconds so far of this process, its JVM and the Python workers, by kind."""
    return split_cpu()


def main() -> None:
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    spark = t_env.get_spark_session()
    source = spark.range(ROWS).select(F.col("id").alias("i"), (F.col("id") % 1000).alias("k"),
                                      F.concat(F.lit("row"), F.col("id").cast("string")).alias("s")).cache()
    source.count()
    table = Table(t_env._j_env.fromDataset(source._jdf), t_env)  # both sides read the same cache

    plus_one = udf(lambda i: i + 1, result_type="BIGINT")
    shout = udf(lambda s: s.upper() + "!", result_type="STRING")
    mean = udaf(lambda v: v.mean(), result_type="DOUBLE", func_type="pandas")
    arrow_int = spark_udf(lambda i: i + 1, "bigint", useArrow=True)
    arrow_str = spark_udf(lambda s: s.upper() + "!", "string", useArrow=True)
    spark_mean = pandas_udf(lambda v: v.mean(), "double", PandasUDFType.GROUPED_AGG)

    variants: List[Tuple[str, Callable[[], Any]]] = [
        ("ours general UDF", lambda: table.select(plus_one(col("i")).alias("x"), shout(col("s")).alias("y"))
         .select(col("x").sum, col("y").max).execute().collect()),
        ("spark arrow @udf", lambda: source.select(arrow_int("i").alias("x"), arrow_str("s").alias("y"))
         .agg(F.sum("x"), F.max("y")).collect()),
        ("ours pandas UDAF, 1,000 keys", lambda: table.group_by(col("k")).select(mean(col("i")).alias("m"))
         .select(col("m").sum).execute().collect()),
        ("spark GROUPED_AGG, 1,000 keys", lambda: source.groupBy("k").agg(spark_mean("i").alias("m"))
         .agg(F.sum("m")).collect()),
    ]
    for _, run in variants:  # warm-up: workers started, imports done
        run()
    samples: Dict[str, List[Dict[str, float]]] = {name: [] for name, _ in variants}
    for r in range(ROUNDS):
        for name, run in (variants if r % 2 == 0 else variants[::-1]):
            before = split()
            run()
            after = split()
            samples[name].append({k: after[k] - before[k] for k in after})
    print(f"{ROWS:,} rows, median CPU seconds per query over {ROUNDS} interleaved rounds "
          f"(load average {psutil.getloadavg()[0]:.1f})")
    print(f"  {'variant':32} {'driver':>7} {'JVM':>7} {'workers':>8} {'total':>7}")
    for name, runs in samples.items():
        med = {k: statistics.median(s[k] for s in runs) for k in ("driver", "jvm", "workers")}
        print(f"  {name:32} {med['driver']:7.2f} {med['jvm']:7.2f} {med['workers']:8.2f} {sum(med.values()):7.2f}")


if __name__ == "__main__":
    main()
