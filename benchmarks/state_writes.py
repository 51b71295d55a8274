"""State written per micro-batch by the stateful Python processors, for one key with many rows.

Two jobs over a monitored directory, each file one micro-batch, every row of key ``a``:
``distinct``: ``COUNT(DISTINCT v)`` (the retracting-aggregation processor), ``over``: ``SUM(v)``
over ``ORDER BY v`` (the non-time over window). The first file brings BIG rows, each later one
SMALL new rows (for ``over``: in order, plus one out of order in the last file). Printed per
micro-batch from Spark's query progress: the batch's time, the state operator's rows updated and
RocksDB's bytes written (``rocksdbTotalBytesWritten`` ... as Spark names them)."""

import json
import os
import sys
import tempfile
import time

from pyflink_table import EnvironmentSettings, TableEnvironment

BIG, SMALL, FILES = int(os.environ.get("BIG", 20000)), int(os.environ.get("SMALL", 20)), int(os.environ.get("FILES", 8))


def publish(d: str, name: str, text: str) -> None:
    tmp = os.path.join(d, "." + name)
    with open(tmp, "w") as f:
        f.write(text)
    os.rename(tmp, os.path.join(d, name))


def run(kind: str) -> None:
    env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    d = tempfile.mkdtemp()
    env.execute_sql(f"CREATE TABLE ev (k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '{d}', "
                    "'format' = 'csv', 'source.monitor-interval' = '100ms')")
    if kind == "distinct":
        query = "SELECT k, COUNT(DISTINCT v) AS c FROM ev GROUP BY k"
    else:
        query = "SELECT k, v, SUM(v) OVER (PARTITION BY k ORDER BY v) AS s FROM ev"
    it = env.execute_sql(query).collect()
    spark = env.get_spark_session()
    files = [range(0, BIG)] + [range(BIG + i * SMALL, BIG + (i + 1) * SMALL) for i in range(FILES - 1)]
    seen = 0
    for i, values in enumerate(files):
        text = "".join(f"a,{v}\n" for v in values)
        if kind == "over" and i == len(files) - 1:
            text += "a,-1\n"  # sorts before every row: all of them change
        publish(d, f"f{i}.csv", text)
        # Wait for this file's micro-batch to finish.
        while True:
            queries = spark.streams.active
            progress = [p for q in queries for p in q.recentProgress if p["numInputRows"] > 0]
            if len(progress) > seen:
                break
            time.sleep(0.2)
        seen = len(progress)
        p = progress[-1]
        op = p["stateOperators"][0] if p["stateOperators"] else {}
        m = op.get("customMetrics", {})
        print(json.dumps({"kind": kind, "file": i, "rows": p["numInputRows"],
                          "addBatchMs": p["durationMs"].get("addBatch"),
                          "rowsUpdated": op.get("numRowsUpdated"), "rowsTotal": op.get("numRowsTotal"),
                          "bytesWritten": m.get("rocksdbTotalBytesWritten"),
                          "flushBytes": m.get("rocksdbTotalBytesWrittenByFlush"),
                          "putLatencyMs": m.get("rocksdbPutLatency"),
                          "commitWriteBatchMs": m.get("rocksdbCommitWriteBatchLatency"),
                          "sstBytes": m.get("rocksdbSstFileSize")}), flush=True)
    it.close()


if __name__ == "__main__":
    for kind in sys.argv[1:] or ["distinct", "over"]:
        run(kind)
