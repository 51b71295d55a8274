"""Word count from a CSV file to a CSV directory: pyflink_table vs hand-written PySpark vs PyFlink 2.3.

The program has FLIP-38's word count shape without the user-defined functions (those measure the
UDF runtime, not the connectors): a filesystem CSV source of words, ``group_by(word)`` with a count,
written by a filesystem CSV sink. Each engine runs in its own fresh process; the figure is the wall
time of the job (source to committed sink files), engine start-up excluded and shown separately.

Usage: ``python benchmarks/bench_word_count_files.py [--mb 200] [--pyflink .venv-pyflink/bin/python]``
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import time
from typing import Dict, List, Optional

DATA_DIR = "/tmp/pyflink_table_bench_wc"

PYSPARK_JOB = r'''
import sys, time
t0 = time.time()
from pyspark.sql import SparkSession, functions as F
spark = (SparkSession.builder.master("local[*]").config("spark.ui.enabled", "false")
         .config("spark.sql.shuffle.partitions", str(__import__("os").cpu_count() or 2))
         .config("spark.driver.memory", "2g").getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
src, out = sys.argv[1], sys.argv[2]
t1 = time.time()
(spark.read.schema("word STRING").csv(src).groupBy("word").agg(F.count("word").alias("cnt"))
    .write.mode("overwrite").csv(out))
t2 = time.time()
print(f"RESULT {t2 - t1:.3f} {t1 - t0:.3f}")
'''

PYFLINK_JOB = r'''
import sys, time
t0 = time.time()
from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col
t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
src, out = sys.argv[1], sys.argv[2]
t1 = time.time()  # the job: DDL (which lists the input, as spark.read does) to committed files
t_env.execute_sql(f"CREATE TABLE words (word STRING) WITH ('connector'='filesystem','path'='{src}','format'='csv')")
t_env.execute_sql(f"CREATE TABLE results (word STRING, cnt BIGINT) WITH ('connector'='filesystem','path'='{out}','format'='csv')")
t_env.from_path("words").group_by(col("word")).select(col("word"), col("word").count.alias("cnt")) \
    .execute_insert("results").wait()
t2 = time.time()
print(f"RESULT {t2 - t1:.3f} {t1 - t0:.3f}")
'''

# The same program on pyflink_table: only the imports differ (the porting rule).
PYFLINK_TABLE_JOB = PYFLINK_JOB.replace("from pyflink.table", "from pyflink_table")


def generate(path: str, megabytes: int) -> Dict[str, int]:
    """A CSV of one word per line drawn from a 5000-word vocabulary (Zipf-like); returns the true counts."""
    rng = random.Random(42)
    vocabulary = ["w" + "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 8))) + str(i)
                  for i in range(5000)]
    weights = [1.0 / (i + 1) for i in range(len(vocabulary))]
    counts: Dict[str, int] = {}
    target = megabytes * 1024 * 1024
    written = 0
    with open(path, "w") as f:
        while written < target:
            chunk = rng.choices(vocabulary, weights=weights, k=200_000)
            text = "\n".join(chunk) + "\n"
            f.write(text)
            written += len(text)
            for w in chunk:
                counts[w] = counts.get(w, 0) + 1
    return counts


def read_counts(directory: str) -> Dict[str, int]:
    counts: Dict[str, int] = {}
    for root, _, files in os.walk(directory):
        for name in files:
            if name.startswith((".", "_")):
                continue
            with open(os.path.join(root, name)) as f:
                for line in f:
                    word, cnt = line.rstrip("\n").split(",")
                    counts[word] = int(cnt)
    return counts


def run(python: str, code: str, src: str, out: str, env: Optional[Dict[str, str]] = None) -> List[float]:
    shutil.rmtree(out, ignore_errors=True)
    started = time.time()
    proc = subprocess.run([python, "-c", code, src, out], capture_output=True, text=True, timeout=1200, env=env)
    total = time.time() - started
    line = [x for x in proc.stdout.splitlines() if x.startswith("RESULT ")]
    if proc.returncode != 0 or not line:
        raise RuntimeError(f"{python} failed:\n{proc.stderr[-3000:]}")
    job, startup = (float(v) for v in line[0].split()[1:])
    return [job, startup, total]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=200)
    parser.add_argument("--pyflink", default=os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), ".venv-pyflink", "bin", "python"))
    args = parser.parse_args()
    os.makedirs(DATA_DIR, exist_ok=True)
    src = os.path.join(DATA_DIR, f"words_{args.mb}mb.csv")
    print(f"generating {src} ...", flush=True)
    truth = generate(src, args.mb)
    print(f"input: {os.path.getsize(src) / 1e6:.1f} MB, {sum(truth.values())} words, {len(truth)} distinct", flush=True)
    results = {}
    engines = [("pyflink_table", sys.executable, PYFLINK_TABLE_JOB), ("pyspark", sys.executable, PYSPARK_JOB)]
    if os.path.exists(args.pyflink):
        engines.append(("pyflink 2.3", args.pyflink, PYFLINK_JOB))
    else:
        print(f"PyFlink 2.3 not run: {args.pyflink} does not exist (pass --pyflink; `make reference`)",
              file=sys.stderr, flush=True)
    for name, python, code in engines:
        out = os.path.join(DATA_DIR, "out_" + name.replace(" ", "_"))
        job, startup, total = run(python, code, src, out)
        ok = read_counts(out) == truth
        results[name] = job
        print(f"{name:14s} job {job:8.2f} s   start-up {startup:6.2f} s   process {total:8.2f} s   counts correct: {ok}",
              flush=True)
    base = results["pyspark"]
    print(f"pyflink_table / pyspark     = {results['pyflink_table'] / base:.3f}")
    if "pyflink 2.3" in results:
        print(f"pyflink_table / pyflink 2.3 = {results['pyflink_table'] / results['pyflink 2.3']:.3f}")
        print(f"pyspark / pyflink 2.3       = {base / results['pyflink 2.3']:.3f}")


if __name__ == "__main__":
    main()
