"""Per-micro-batch cost of a streaming 1 s tumbling-window SUM over small files, one engine per run
(WINDOW=session: a session window of gap 500 ms instead; each file's rows of a key form one session).

Publishes N small files (ROWS events each plus one later row that moves the watermark past the
window) into a running job, one after the other's 4 window rows arrived, and prints the median
latency (file arrival to its last window row) and the medians of Spark's progress-report parts for
the data micro-batches and the no-data ones that fire the windows (first 3 files skipped as warm-up).
RULES=1 also prints Spark's RuleExecutor metrics (run counts and time per rule, analysis,
optimization and physical preparation) over the measured batches; PLAN=1 the last batch's plans.
It also prints the CPU seconds per measured file of the driver's Python, its JVM and Spark's Python
workers (with the reaped ones' CPU, as the daemon forks them), steadier than times on a shared machine.

Usage: python benchmarks/stream_batch_costs.py ours|pyspark N ROWS ['{"option": "value"}']
(from the checkout whose pyflink_table is to be measured; options are set on ours' config, or on
PySpark's session builder)
"""
import os, sys, time, json, datetime, statistics, tempfile, queue
# The checkout's package, not an installed one (sys.path[0] is benchmarks/), as the other benchmarks'
# children import it.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from _cpu import split_cpu  # noqa: E402 - benchmarks/ is sys.path[0] when run as a script
engine, nfiles, rows_per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
conf = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {}
session = os.environ.get("WINDOW") == "session"
def cpu():
    """CPU seconds so far by kind: this process, its JVM, the Python workers (the reaped ones counted by their parent)."""
    return split_cpu(with_reaped=True)
BASE = datetime.datetime(2026, 1, 1)
def ts(ms): return (BASE + datetime.timedelta(milliseconds=ms)).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]
def publish(d, name, rows):
    h = os.path.join(d, "." + name)
    with open(h, "w") as f: f.write("".join(f"{k},{v},{ts(t)}\n" for k, v, t in rows))
    os.rename(h, os.path.join(d, name)); return time.time()
d = tempfile.mkdtemp(prefix="tput_plan_")
if engine == "ours":
    from pyflink_table import EnvironmentSettings, TableEnvironment
    from pyflink_table.expressions import col, lit
    from pyflink_table.window import Session, Tumble
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.get_config().set("parallelism.default", "1")
    for k, v in conf.items(): t_env.get_config().set(k, v)
    t_env.execute_sql(f"CREATE TABLE ev (k STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) "
                      f"WITH ('connector'='filesystem','path'='{d}','format'='csv','source.monitor-interval'='100ms')")
    w = Session.with_gap(lit(500).millis) if session else Tumble.over(lit(1).seconds)
    q = (t_env.from_path("ev").window(w.on(col("ts")).alias("w"))
         .group_by(col("w"), col("k")).select(col("k"), col("w").start, col("v").sum))
    it = q.execute().collect(); query = it.job._query
else:
    from pyspark.sql import SparkSession, functions as F
    b = SparkSession.builder.master("local[*]").config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "1")
    for k, v in conf.items(): b = b.config(k, v)
    spark = b.getOrCreate(); spark.sparkContext.setLogLevel("ERROR")
    ev = (spark.readStream.schema("k STRING, v INT, ts TIMESTAMP").option("timestampFormat", "yyyy-MM-dd HH:mm:ss.SSS").csv(d)
          .withWatermark("ts", "1 second"))
    qq = queue.Queue()
    def on_batch(b, _):
        for r in b.collect(): qq.put(r)
    w = F.session_window("ts", "500 milliseconds").alias("window") if session else F.window("ts", "1 second")
    query = (ev.groupBy(w, "k").agg(F.sum("v")).select("k", F.col("window.start"), "sum(v)")
             .writeStream.foreachBatch(on_batch).outputMode("append").option("checkpointLocation", tempfile.mkdtemp())
             .trigger(processingTime=conf.get("_trigger", "100 milliseconds")).start())
    class It:
        def __next__(self): return qq.get()
    it = It()
lat = []
jvm = (t_env._spark if engine == "ours" else spark)._jvm
RE = jvm.org.apache.spark.sql.catalyst.rules.RuleExecutor
for j in range(nfiles):
    if j == 3: RE.resetMetrics(); cpu0 = cpu()
    w0 = 3000 * (j + 1)
    rows = [(f"k{i % 4}", 1, w0 + i % 900) for i in range(rows_per)] + [("c", 1, w0 + 2001)]
    t0 = publish(d, f"p{j}.csv", rows)
    got = 0
    while got < 4:
        r = next(it)
        if r[0] != "c": got += 1
    lat.append(time.time() - t0)
time.sleep(1.5)
cpu1 = cpu()
prog = query.recentProgress
data = [p for p in prog if p["numInputRows"] > 0]
nodata = [p for p in prog if p["numInputRows"] == 0]
def med(ps, k): return statistics.median([p["durationMs"].get(k, 0) for p in ps]) if ps else -1
skip = 3  # warm-up
print("RESULT", engine, json.dumps(conf), "latency med ms %.0f" % (1000 * statistics.median(lat[skip:])),
      "| data batches %d: trig %.0f plan %.0f add %.0f wal %.0f commit %.0f list %.0f" % (
          len(data), med(data[skip:], "triggerExecution"), med(data[skip:], "queryPlanning"), med(data[skip:], "addBatch"),
          med(data[skip:], "walCommit"), med(data[skip:], "commitOffsets"), med(data[skip:], "latestOffset")),
      "| nodata %d: trig %.0f plan %.0f add %.0f wal %.0f commit %.0f" % (
          len(nodata), med(nodata[skip:], "triggerExecution"), med(nodata[skip:], "queryPlanning"), med(nodata[skip:], "addBatch"),
          med(nodata[skip:], "walCommit"), med(nodata[skip:], "commitOffsets")),
      "| CPU s per file: " + " ".join("%s %.3f" % (k, (cpu1[k] - cpu0[k]) / (nfiles - 3)) for k in cpu1),
      "| load %.1f" % os.getloadavg()[0], flush=True)
# The stateful operator's own figures (Spark's progress, medians over the measured batches): commit
# time (RocksDB: a snapshot or, with changelog checkpointing, the batch's changes) and the
# transformWithState state variables the processor declares.
ops = [p["stateOperators"][0] for p in prog[2 * skip:] if p.get("stateOperators")]
if ops:
    custom = lambda k: statistics.median([o.get("customMetrics", {}).get(k, -1) for o in ops])
    print("STATE", engine, "commit ms %.0f" % statistics.median([o.get("commitTimeMs", -1) for o in ops]),
          "| partitions %d" % ops[-1].get("numShufflePartitions", -1),
          "| list state vars %d" % custom("numListStateVars"), "| timers %d" % custom("numRegisteredTimers"),
          "| rocksdb checkpoint ms %.0f" % custom("rocksdbCommitCheckpointLatency"),
          "| rocksdb upload ms %.0f" % custom("rocksdbCommitFileSyncLatencyMs"), flush=True)
if os.environ.get("RULES"): print(RE.dumpTimeSpent())
if os.environ.get("PLAN"): print(query._jsq.streamingQuery().lastExecution().toString())
query.stop()
