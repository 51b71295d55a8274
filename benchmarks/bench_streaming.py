"""Streaming: events per second and end-to-end latency, pyflink_table vs hand-written PySpark
Structured Streaming vs PyFlink 2.3, side by side in one run.

Four queries over a monitored CSV directory with an event-time attribute (watermark 1 s):
a 1-second tumbling window with a built-in ``SUM``, the same window with a pandas UDAF (a mean),
a session window (gap 500 ms) with a built-in ``SUM``, and an updating ``group_by(k)`` with a ``SUM``. Each engine runs in its own process, all three cases
in turn; the job's start-up is excluded.

- *Throughput*: one file per size in ``--events`` (default 5,000 then 20,000 events) is published
  into a running job, the next after the last result of the previous; events per second is N over
  the time from the file's arrival to its last result row (every window fired, or the final sum of
  the updating query). The first file meets a job that has processed nothing yet (cold code paths),
  the later ones a warm job, as in a long-running stream; small files measure the per-micro-batch
  fixed cost, large ones the per-event cost. For the two Spark engines each file's micro-batches
  are listed under the figures: their count and the sums of the parts of their durations from
  Spark's progress reports (``queryPlanning``; ``addBatch``, the execution including the sink;
  ``walCommit``/``commitOffsets``, the checkpoint's offset and commit logs; ``latestOffset``/
  ``getBatch``, listing the directory).
- *Latency*: small probe files published one at a time into a running job; the figure is the
  median time from a file's arrival (its rename into the directory) to its result row arriving at
  the program. A window probe carries its rows plus one row late enough to move the watermark past
  the window's end, so the window can fire at once in both engines.

With ``--rounds N`` the engines run N times in turn (interleaved) and the best figure of each is kept;
``--with-processor`` adds pyflink_table with ``pyflink_table.streaming.python-window=processor`` for the
pandas case.

Usage: ``python benchmarks/bench_streaming.py [--events 5000,20000] [--probes 3] [--rounds 1] [--cases a,b]
[--with-processor] [--variant NAME:KEY=VALUE,...] [--pyflink PYTHON | --no-pyflink]``

``--variant`` runs pyflink_table once more per round with the given options set (``spark.*`` keys pass
through to Spark), interleaved with the others, to measure a setting against the default.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any, Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_PYFLINK = os.environ.get("PYFLINK_PYTHON", os.path.join(ROOT, ".venv-pyflink", "bin", "python"))
CASES = ("tumble_builtin", "tumble_pandas", "session_builtin", "updating_group_by")
KEYS = 4
STEP_MS = 10  # event time between two events: 100 events per window of a second
# File sizes: the first meets a cold job (start-up excluded), the later ones a warm one.
DEFAULT_EVENTS = (5000, 20000)
# The parts of a Spark micro-batch's duration (StreamingQueryProgress.durationMs) the benchmark sums.
PARTS = ("latestOffset", "getBatch", "queryPlanning", "addBatch", "walCommit", "commitOffsets")

# Shared by the three engines: files and timing (pure Python, runs inside each engine's process).
COMMON = r'''
import os, sys, time, json, datetime, statistics
BASE = datetime.datetime(2026, 1, 1)
KEYS, STEP_MS = %(keys)d, %(step)d

def ts(ms):
    return (BASE + datetime.timedelta(milliseconds=ms)).strftime("%%Y-%%m-%%d %%H:%%M:%%S.%%f")[:-3]

def publish(directory, name, rows):
    hidden = os.path.join(directory, "." + name)
    with open(hidden, "w") as f:
        f.write("".join(f"{k},{v},{ts(t)}\n" for k, v, t in rows))
    os.rename(hidden, os.path.join(directory, name))
    return time.time()

def bulk(n, start):
    """n events over n * STEP_MS of event time from ``start`` (ms), then one far-later "end" event that
    closes every window; also the number of windows and where the next file's event time starts."""
    rows = [(f"k{i %% KEYS}", i %% 100, start + i * STEP_MS) for i in range(n)]
    windows = {(t // 1000, k) for k, _, t in rows}
    end = start + n * STEP_MS + 10000
    return rows + [("end", 1, end)], len(windows), end + 5000

def wait_rows(it, count, pred=lambda r: True):
    got = 0
    while got < count:
        r = next(it)
        if pred(r):
            got += 1
    return time.time()

PARTS = %(parts)s

def spark_time(query, t0, t1):
    """Where a Spark job's time went between t0 and t1: its micro-batches (by start time), their
    count and the sum of each part of their durations (ms); None for PyFlink."""
    if query is None:
        return None
    got = {"batches": 0}
    for p in query.recentProgress:
        start = datetime.datetime.fromisoformat(p["timestamp"].replace("Z", "+00:00")).timestamp()
        if t0 - 0.01 <= start <= t1:
            got["batches"] += 1
            for k in PARTS + ("triggerExecution",):
                got[k] = got.get(k, 0) + p["durationMs"].get(k, 0)
    return got

def measure(it, d, case, phase, n, probes, out, query=None):
    """One phase's figure from the result iterator ``it`` while files are published into ``d``."""
    if phase == "throughput":
        # One file per size, in order, into the same running job: the first meets a cold job, the
        # later ones a warm one (each starts after the previous file's "end" event in event time).
        start, out["throughput"] = 0, []
        for j, size in enumerate(n):
            rows, windows, next_start = bulk(size, start)
            t0 = publish(d, f"bulk{j}.csv", rows)
            if case == "updating_group_by":  # the "end" key's sum counts the files so far
                t1 = wait_rows(it, 1, lambda r: r[0] == "end" and r[1] == j + 1)
            elif case == "session_builtin":  # one session per key (its events are 40 ms apart)
                t1 = wait_rows(it, KEYS, lambda r: r[0] != "end")
            else:  # the previous file's "end" window fires now too: not counted
                t1 = wait_rows(it, windows, lambda r: r[0] != "end")
            out["throughput"].append([size, size / (t1 - t0)])
            out.setdefault("spans", []).append([t0, t1])
            start = next_start
        # A batch's progress is recorded once it has committed, after its rows reached the program.
        time.sleep(1)
        out["spark_ms"] = [spark_time(query, a, b) for a, b in out.pop("spans")]
    else:
        lat = []
        for j in range(probes):
            w0 = 3000 * (j + 1)
            t0 = publish(d, f"p{j}.csv", [("p", j + 1, w0 + 100), ("c", 1, w0 + 2001)])
            t1 = wait_rows(it, 1, lambda r: r[0] == "p")
            lat.append(t1 - t0)
        out["latency_ms"] = statistics.median(lat) * 1000
'''

# The pyflink_table / PyFlink program: only the imports differ (the porting rule).
PYFLINK_JOB = COMMON + r'''
from pyflink.table import EnvironmentSettings, TableEnvironment, DataTypes
from pyflink.table.expressions import col, lit
from pyflink.table.udf import udaf
from pyflink.table.window import Session, Tumble
case, n, probes, work = sys.argv[1], [int(x) for x in sys.argv[2].split(",")], int(sys.argv[3]), sys.argv[4]
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
for key, value in json.loads(os.environ.get("BENCH_CONF", "{}")).items():  # --variant settings (ours only)
    t_env.get_config().set(key, value)
mean = udaf(lambda v: v.mean(), result_type=DataTypes.DOUBLE(), func_type="pandas")
out = {}
for phase in ("throughput", "latency"):
    d = os.path.join(work, phase)
    os.makedirs(d)
    name = "ev_" + phase
    t_env.execute_sql(f"CREATE TABLE {name} (k STRING, v INT, ts TIMESTAMP(3), "
                      "WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', "
                      f"'path' = '{d}', 'format' = 'csv', 'source.monitor-interval' = '100ms')")
    ev = t_env.from_path(name)
    if case == "updating_group_by":
        q = ev.group_by(col("k")).select(col("k"), col("v").sum.alias("s"))
    elif case == "session_builtin":
        q = (ev.window(Session.with_gap(lit(500).millis).on(col("ts")).alias("w"))
             .group_by(col("w"), col("k")).select(col("k"), col("w").start, col("v").sum))
    else:
        agg = col("v").sum if case == "tumble_builtin" else mean(col("v"))
        q = (ev.window(Tumble.over(lit(1).seconds).on(col("ts")).alias("w"))
             .group_by(col("w"), col("k")).select(col("k"), col("w").start, agg))
    it = q.execute().collect()
    # Instrumentation only: pyflink_table's iterator holds its Spark query (PyFlink's has no .job).
    measure(it, d, case, phase, n, probes, out, getattr(getattr(it, "job", None), "_query", None))
    it.close()
print("RESULT " + json.dumps(out), flush=True)
'''

PYFLINK_TABLE_JOB = PYFLINK_JOB.replace("from pyflink.table", "from pyflink_table")
# The same with pandas UDAF windows on the transformWithStateInPandas processor instead of Spark's
# window aggregation collecting each window's rows (the default).
PROCESSOR_SETTING = 't_env.get_config().set("parallelism.default", "1")\n'
PYFLINK_TABLE_PROCESSOR_JOB = PYFLINK_TABLE_JOB.replace(
    PROCESSOR_SETTING, PROCESSOR_SETTING + 't_env.get_config().set("pyflink_table.streaming.python-window", "processor")\n')
assert PYFLINK_TABLE_PROCESSOR_JOB != PYFLINK_TABLE_JOB

# Hand-written PySpark Structured Streaming: the same queries, the result rows of each micro-batch
# handed to the program by foreachBatch.
PYSPARK_JOB = COMMON + r'''
import queue
import pandas as pd
from pyspark.sql import SparkSession, functions as F
from pyspark.sql.functions import pandas_udf
case, n, probes, work = sys.argv[1], [int(x) for x in sys.argv[2].split(",")], int(sys.argv[3]), sys.argv[4]
os.environ["PYSPARK_PYTHON"] = sys.executable  # the Python workers need this venv's pandas
spark = (SparkSession.builder.master("local[*]").config("spark.ui.enabled", "false")
         .config("spark.sql.shuffle.partitions", "2").getOrCreate())
spark.sparkContext.setLogLevel("ERROR")

@pandas_udf("double")
def mean(v: pd.Series) -> float:
    return v.mean()

class Rows:
    """The result rows as an iterator, like collect()."""
    def __init__(self, df, mode):
        self.q = queue.Queue()
        def on_batch(b, _):
            for r in b.collect():
                self.q.put(r)
        self.query = (df.writeStream.foreachBatch(on_batch).outputMode(mode)
                      .trigger(processingTime="100 milliseconds").start())
    def __next__(self):
        while True:
            try:
                return self.q.get(timeout=0.05)
            except queue.Empty:
                if not self.query.isActive:
                    raise RuntimeError(str(self.query.exception()))
    def close(self):
        self.query.stop()

out = {}
for phase in ("throughput", "latency"):
    d = os.path.join(work, phase)
    os.makedirs(d)
    ev = (spark.readStream.schema("k STRING, v INT, ts TIMESTAMP")
          .option("timestampFormat", "yyyy-MM-dd HH:mm:ss.SSS").csv(d).withWatermark("ts", "1 second"))
    if case == "updating_group_by":
        it = Rows(ev.groupBy("k").agg(F.sum("v").alias("s")), "update")
    elif case == "tumble_builtin":
        it = Rows(ev.groupBy(F.window("ts", "1 second"), "k").agg(F.sum("v"))
                  .select("k", F.col("window.start"), "sum(v)"), "append")
    elif case == "session_builtin":
        it = Rows(ev.groupBy(F.session_window("ts", "500 milliseconds"), "k").agg(F.sum("v"))
                  .select("k", F.col("session_window.start"), "sum(v)"), "append")
    else:
        # Spark refuses pandas UDAFs in streaming aggregations: the window's values are collected
        # natively, then the pandas function runs over the fired windows (mapInPandas).
        def apply_mean(batches):
            for b in batches:
                yield pd.DataFrame({"k": b["k"], "start": b["start"], "m": [pd.Series(v).mean() for v in b["vs"]]})
        it = Rows(ev.groupBy(F.window("ts", "1 second"), "k").agg(F.collect_list("v").alias("vs"))
                  .select("k", F.col("window.start").alias("start"), "vs")
                  .mapInPandas(apply_mean, "k string, start timestamp, m double"), "append")
    measure(it, d, case, phase, n, probes, out, it.query)
    it.close()
print("RESULT " + json.dumps(out), flush=True)
'''


def run(python: str, program: str, case: str, events: List[int], probes: int,
        env: Dict[str, str]) -> Optional[Dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="pyflink_table_bench_stream_") as work:
        script = os.path.join(work, "job.py")
        with open(script, "w") as f:
            f.write(program % {"keys": KEYS, "step": STEP_MS, "parts": repr(PARTS)})
        data = os.path.join(work, "data")
        os.makedirs(data)
        log = os.path.join(work, "log.txt")
        # Output to a file, not a pipe: a JVM the program launched may outlive it for a moment and
        # hold a pipe open.
        with open(log, "w+") as f:
            p = subprocess.Popen([python, script, case, ",".join(map(str, events)), str(probes), data], stdout=f,
                                 stderr=subprocess.STDOUT, env=env)
            try:
                p.wait(1800)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            f.seek(0)
            text = f.read()
        for line in text.splitlines():
            if line.startswith("RESULT "):
                return dict(json.loads(line[len("RESULT "):]))
        sys.stderr.write(f"{case} failed ({python}):\n{text[-2000:]}\n")
        return None


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", default=",".join(map(str, DEFAULT_EVENTS)),
                        help="comma-separated file sizes, published in this order into one running job")
    parser.add_argument("--probes", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--pyflink", default=DEFAULT_PYFLINK,
                        help="PyFlink 2.3's Python (default: $PYFLINK_PYTHON or the checkout's .venv-pyflink)")
    parser.add_argument("--no-pyflink", action="store_true", help="run without PyFlink 2.3")
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--with-processor", action="store_true")
    parser.add_argument("--variant", action="append", default=[], metavar="NAME:KEY=VALUE[,KEY=VALUE]",
                        help="also run pyflink_table with these options set (repeatable; interleaved)")
    args = parser.parse_args(argv)
    events = [int(x) for x in args.events.split(",")]
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    engines = [("pyflink_table", sys.executable, PYFLINK_TABLE_JOB), ("pyspark", sys.executable, PYSPARK_JOB)]
    if not args.no_pyflink:
        if not os.path.exists(args.pyflink):  # a run without the reference must be asked for
            parser.error(f"PyFlink 2.3's Python {args.pyflink} does not exist: pass --pyflink PYTHON "
                         "(or set PYFLINK_PYTHON; `make reference` creates it) or --no-pyflink")
        engines.append(("pyflink", args.pyflink, PYFLINK_JOB))
    print(f"events={args.events} probes={args.probes} rounds={args.rounds} load average={os.getloadavg()[0]:.1f}",
          flush=True)
    sizes = "".join(f" {f'ev/s @{n}':>13}" for n in events)
    print(f"{'case':20} {'engine':14}{sizes} {'latency ms':>11}  load  seconds", flush=True)
    failed = 0
    for case in args.cases.split(","):
        case_engines = list(engines)
        if args.with_processor and case == "tumble_pandas":
            case_engines.insert(1, ("ours_processor", sys.executable, PYFLINK_TABLE_PROCESSOR_JOB))
        for v in reversed(args.variant):
            case_engines.insert(1, ("ours_" + v.split(":", 1)[0], sys.executable, PYFLINK_TABLE_JOB, v))
        # Per engine: the best events/s of each file size and the best latency over the rounds.
        got: Dict[str, Dict[str, Any]] = {}
        for _ in range(args.rounds):
            for name, python, program, *variant in case_engines:
                started = time.time()
                conf = dict(kv.split("=", 1) for kv in variant[0].split(":", 1)[1].split(",")) if variant else {}
                r = run(python, program, case, events, args.probes, dict(env, BENCH_CONF=json.dumps(conf)))
                if r is None:
                    failed += 1
                    continue
                rates = [rate for _, rate in r["throughput"]]
                print(f"{case:20} {name:14}{''.join(f' {x:13.0f}' for x in rates)} {r['latency_ms']:11.0f}  "
                      f"{os.getloadavg()[0]:4.1f}  {time.time() - started:7.0f}", flush=True)
                for size, spent in zip(events, r.get("spark_ms") or []):
                    if spent:  # where a Spark job's time went, per file: sums over its micro-batches
                        print(f"{'':20} {'':14} @{size}: {spent['batches']} batches, "
                              + ", ".join(f"{k} {spent.get(k, 0) / 1000:.2f}" for k in ("triggerExecution",) + PARTS)
                              + " s", flush=True)
                best = got.setdefault(name, {"rates": rates, "latency_ms": r["latency_ms"]})
                best["rates"] = [max(a, b) for a, b in zip(best["rates"], rates)]
                best["latency_ms"] = min(best["latency_ms"], r["latency_ms"])
        if args.rounds > 1:
            for name, b in got.items():
                print(f"{case:20} {name:14}{''.join(f' {x:13.0f}' for x in b['rates'])} {b['latency_ms']:11.0f}  "
                      f"best of {args.rounds}", flush=True)
        for ours in ["pyflink_table", "ours_processor"] + ["ours_" + v.split(":", 1)[0] for v in args.variant]:
            for other in ("pyspark", "pyflink"):
                if ours in got and other in got:
                    ratios = ", ".join(f"{n}: {a / b:.2f}x" for n, a, b in
                                       zip(events, got[ours]["rates"], got[other]["rates"]))
                    print(f"{case:20} {ours}/{other:9} throughput {ratios}; "
                          f"latency {got[ours]['latency_ms'] / got[other]['latency_ms']:.2f}x", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
