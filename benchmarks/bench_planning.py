"""Planning time of a wide select: pyflink_table vs the same ``DataFrame.select`` in PySpark.

A 200-column table (default) is projected three ways, each side by side with PySpark in one run:
plain field references, ``col + 1`` per column with the expressions built in the timed call (so the
Python expression DSL counts), and ``col + 1`` with the expressions built beforehand (the bridge's
compilation and Spark's analysis only). Nothing is executed: ``select`` returns once the result is
analysed, on both sides. Rounds are interleaved; the best time counts.

Run: ``.venv/bin/python benchmarks/bench_planning.py [columns] [repeats]``.
"""

from __future__ import annotations

import sys
import time
from typing import Any, Callable, Dict

from pyspark.sql import functions as F

from pyflink_table import EnvironmentSettings, TableEnvironment
from pyflink_table.expressions import col
from pyflink_table.table import Table

COLUMNS = int(sys.argv[1]) if len(sys.argv) > 1 else 200
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 5


def main() -> None:
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    spark = t_env.get_spark_session()
    names = [f"c{i}" for i in range(COLUMNS)]
    df = spark.range(10).select(*[(F.col("id") + i).alias(n) for i, n in enumerate(names)])
    table = Table(t_env._j_env.fromDataset(df._jdf), t_env)
    ours_built = [col(n) + 1 for n in names]
    spark_built = [F.col(n) + 1 for n in names]
    pairs: Dict[str, Dict[str, Callable[[], Any]]] = {
        "fields": {"ours": lambda: table.select(*[col(n) for n in names]),
                   "pyspark": lambda: df.select(*[F.col(n) for n in names])},
        "col + 1, built in the call": {"ours": lambda: table.select(*[col(n) + 1 for n in names]),
                                       "pyspark": lambda: df.select(*[F.col(n) + 1 for n in names])},
        "col + 1, prebuilt": {"ours": lambda: table.select(*ours_built),
                              "pyspark": lambda: df.select(*spark_built)},
    }
    best: Dict[str, Dict[str, float]] = {shape: {} for shape in pairs}
    for shape, sides in pairs.items():  # warm-up: the bridge's and Spark's first-call costs
        for run in sides.values():
            run()
    for r in range(REPEATS):
        for shape, sides in pairs.items():
            for side, run in (sides.items() if r % 2 == 0 else reversed(list(sides.items()))):
                start = time.perf_counter()
                run()
                elapsed = time.perf_counter() - start
                best[shape][side] = min(elapsed, best[shape].get(side, elapsed))
    print(f"{COLUMNS}-column select, planning only, best of {REPEATS}")
    for shape, times in best.items():
        print(f"  {shape:28s} ours {times['ours'] * 1000:8.1f} ms   PySpark {times['pyspark'] * 1000:8.1f} ms   "
              f"ratio ours / PySpark {times['ours'] / times['pyspark']:.2f} (target <= 3)", flush=True)


if __name__ == "__main__":
    main()
