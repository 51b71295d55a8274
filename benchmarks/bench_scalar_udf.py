"""Throughput of Python scalar functions: pyflink_table vs hand-written PySpark, side by side.

Two functions, ``i + 1`` and a string function (``upper(s) + '!'``), over N rows (default
5,000,000) as (a) a built-in expression, (b) a general (row-at-a-time) UDF and (c) a pandas UDF,
each through pyflink_table and through PySpark (classic pickled ``@udf(useArrow=False)``,
Arrow-optimised ``@udf(useArrow=True)``, ``pandas_udf``). Every variant runs the same query shape
on the same cached input and ends in a ``sum``/``max`` aggregate so only the evaluation is timed.
A pyarrow UDF (our extension, ``pyarrow.compute`` kernels) runs next to PySpark's ``arrow_udf``.
Prints rows/s per variant and the ratio ours/PySpark, then sweeps the Arrow batch size.

Run: ``timeout 900 .venv/bin/python benchmarks/bench_scalar_udf.py [rows] [repeats] [--no-sweep]
[--general-only]`` (the last: only the general UDF, through mapInArrow and through Spark's
ArrowEvalPython, against PySpark's Arrow ``@udf``).
"""

from __future__ import annotations

import sys
import time
from typing import Any, Callable, Dict, List, Tuple

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from pyspark.sql import functions as F
from pyspark.sql.functions import arrow_udf
from pyspark.sql.pandas.functions import PandasUDFType, pandas_udf
from pyspark.sql.functions import udf as spark_udf

from pyflink_table import EnvironmentSettings, TableEnvironment
from pyflink_table.expressions import col, lit
from pyflink_table.table import Table
from pyflink_table.udf import udf

from _cpu import tree_cpu

_POSITIONAL = [a for a in sys.argv[1:] if not a.startswith("--")]
ROWS = int(_POSITIONAL[0]) if _POSITIONAL else 5_000_000
REPEATS = int(_POSITIONAL[1]) if len(_POSITIONAL) > 1 else 2
SWEEP = "--no-sweep" not in sys.argv
GENERAL_ONLY = "--general-only" in sys.argv


def best_time(run: Callable[[], Any], repeats: int = REPEATS) -> float:
    """The best wall time of ``repeats`` runs (the first run also warms the Python workers)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    spark = t_env.get_spark_session()
    source = spark.range(ROWS).select(F.col("id").alias("i"),
                                      F.concat(F.lit("row"), F.col("id").cast("string")).alias("s")).cache()
    source.count()
    # Both sides read the same cached Spark data.
    table = Table(t_env._j_env.fromDataset(source._jdf), t_env)

    # --- pyflink_table functions
    plus_one = udf(lambda i: i + 1, result_type="BIGINT")
    shout = udf(lambda s: s.upper() + "!", result_type="STRING")
    plus_one_pd = udf(lambda i: i + 1, result_type="BIGINT", func_type="pandas")
    shout_pd = udf(lambda s: s.str.upper() + "!", result_type="STRING", func_type="pandas")

    def add_one_arrow(i: pa.Array) -> pa.Array:
        return pc.add(i, 1)

    def shout_arrow(s: pa.Array) -> pa.Array:
        return pc.binary_join_element_wise(pc.utf8_upper(s), "!", "")

    plus_one_pa = udf(add_one_arrow, result_type="BIGINT", func_type="pyarrow")
    shout_pa = udf(shout_arrow, result_type="STRING", func_type="pyarrow")

    def ours(int_expr: Any, str_expr: Any, map_in_arrow: bool = True) -> Callable[[], Any]:
        def run() -> Any:
            t_env.get_config().set("pyflink_table.python.scalar.map-in-arrow", str(map_in_arrow).lower())
            projected = table.select(int_expr.alias("x"), str_expr.alias("y"))
            return projected.select(col("x").sum, col("y").max).execute().collect()
        return run

    # --- PySpark functions
    classic_int = spark_udf(lambda i: i + 1, "bigint", useArrow=False)
    classic_str = spark_udf(lambda s: s.upper() + "!", "string", useArrow=False)
    arrow_int = spark_udf(lambda i: i + 1, "bigint", useArrow=True)
    arrow_str = spark_udf(lambda s: s.upper() + "!", "string", useArrow=True)

    def add_one_series(i: pd.Series) -> pd.Series:
        return i + 1

    def shout_series(s: pd.Series) -> pd.Series:
        return s.str.upper() + "!"

    pd_int = pandas_udf(add_one_series, "bigint", PandasUDFType.SCALAR)
    pd_str = pandas_udf(shout_series, "string", PandasUDFType.SCALAR)
    pa_int = arrow_udf(add_one_arrow, "bigint")
    pa_str = arrow_udf(shout_arrow, "string")

    def theirs(int_col: Any, str_col: Any) -> Callable[[], Any]:
        def run() -> Any:
            return source.select(int_col.alias("x"), str_col.alias("y")).agg(F.sum("x"), F.max("y")).collect()
        return run

    variants: List[Tuple[str, Callable[[], Any]]] = [
        ("ours built-in", ours(col("i") + lit(1), col("s").upper_case + lit("!"))),
        ("spark built-in", theirs(F.col("i") + 1, F.concat(F.upper("s"), F.lit("!")))),
        ("ours general UDF", ours(plus_one(col("i")), shout(col("s")))),
        ("ours general UDF, ArrowEvalPython", ours(plus_one(col("i")), shout(col("s")), map_in_arrow=False)),
        ("spark classic pickled @udf", theirs(classic_int("i"), classic_str("s"))),
        ("spark arrow @udf", theirs(arrow_int("i"), arrow_str("s"))),
        ("ours pandas UDF", ours(plus_one_pd(col("i")), shout_pd(col("s")))),
        ("spark pandas_udf", theirs(pd_int("i"), pd_str("s"))),
        ("ours pyarrow UDF", ours(plus_one_pa(col("i")), shout_pa(col("s")))),
        ("spark arrow_udf", theirs(pa_int("i"), pa_str("s"))),
    ]
    if GENERAL_ONLY:  # the general UDF's two routes against PySpark's Arrow @udf only
        variants = [(n, r) for n, r in variants if "general UDF" in n or n == "spark arrow @udf"]
    rates: Dict[str, float] = {}
    cpu: Dict[str, float] = {}  # best CPU of the process tree (driver, JVM, Python workers) per variant
    print(f"{ROWS:,} rows, i + 1 and upper(s) + '!' in one projection, best of {REPEATS} interleaved rounds")
    for name, run in variants:  # warm-up: starts the Python workers and imports of every variant
        run()
    for r in range(REPEATS):
        for name, run in (variants if r % 2 == 0 else variants[::-1]):
            start, cpu_start = time.perf_counter(), tree_cpu()
            run()
            rates[name] = max(ROWS / (time.perf_counter() - start), rates.get(name, 0.0))
            cpu[name] = min(tree_cpu() - cpu_start, cpu.get(name, float("inf")))
    for name, _ in variants:
        print(f"  {name:36s} {ROWS / rates[name]:7.2f} s  {rates[name]:>12,.0f} rows/s  cpu {cpu[name]:6.2f} s",
              flush=True)
    print("ratios ours / PySpark:")
    for ours_name, theirs_name in [("ours built-in", "spark built-in"),
                                   ("ours general UDF", "spark classic pickled @udf"),
                                   ("ours general UDF", "spark arrow @udf"),
                                   ("ours general UDF, ArrowEvalPython", "spark arrow @udf"),
                                   ("ours pandas UDF", "spark pandas_udf"),
                                   ("ours pyarrow UDF", "spark arrow_udf"),
                                   ("ours pyarrow UDF", "spark pandas_udf")]:
        if ours_name in rates and theirs_name in rates:
            print(f"  {ours_name} / {theirs_name}: {rates[ours_name] / rates[theirs_name]:.2f}x")
    print("CPU of the process tree (best round), PySpark / ours (higher means ours uses less):")
    for ours_name, theirs_name in [("ours general UDF", "spark arrow @udf"),
                                   ("ours general UDF, ArrowEvalPython", "spark arrow @udf"),
                                   ("ours pandas UDF", "spark pandas_udf")]:
        if ours_name in cpu and theirs_name in cpu:
            print(f"    {ours_name} vs {theirs_name}: {cpu[theirs_name] / cpu[ours_name]:.2f}x")
    print("targets: general UDF / arrow @udf >= 1.20x; pandas UDF / pandas_udf >= 1.00x")
    if SWEEP:
        sweep(t_env, ours, plus_one, shout, plus_one_pd, shout_pd)


def sweep(t_env: Any, ours: Callable[[Any, Any], Callable[[], Any]], plus_one: Any, shout: Any,
          plus_one_pd: Any, shout_pd: Any) -> None:
    """Throughput over Arrow batch sizes."""
    print("arrow batch size sweep (python.fn-execution.arrow.batch.size):")
    for size in (1000, 10000, 100000):
        t_env.get_config().set("python.fn-execution.arrow.batch.size", str(size))
        general = ROWS / best_time(ours(plus_one(col("i")), shout(col("s"))), 1)
        vectorized = ROWS / best_time(ours(plus_one_pd(col("i")), shout_pd(col("s"))), 1)
        print(f"  {size:>6}: general {general:>12,.0f} rows/s   pandas {vectorized:>12,.0f} rows/s", flush=True)


if __name__ == "__main__":
    main()
