"""Probe PyFlink 2.3 streaming mode for Python aggregates in SQL group windows and window TVFs over a
monitored directory: what each query emits after each published file (row kinds included).

Run once with the reference interpreter (not part of the test suite)::

    /work/main/.venv-pyflink/bin/python tests/reference/probe_stream_sql_windows.py [name ...]

Each case runs in its own process (a query PyFlink cannot plan fails at once; one that never fires
would block a collect() forever, so rows are drained by a thread and printed after each file).
The measured output is pasted into tests/differential/test_diff_streaming_sql_windows.py's notes.
"""

import os
import subprocess
import sys

CASE = r'''
import os, sys, tempfile, threading, time
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.udf import udaf, AggregateFunction
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
d = tempfile.mkdtemp()
def publish(name, text):
    tmp = os.path.join(d, '.' + name)
    with open(tmp, 'w') as f:
        f.write(text)
    os.rename(tmp, os.path.join(d, name))
t_env.execute_sql("CREATE TABLE ev (k STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) "
                  "WITH ('connector' = 'filesystem', 'path' = '" + d + "', 'format' = 'csv', "
                  "'source.monitor-interval' = '100ms')")
class Total(AggregateFunction):
    def create_accumulator(self):
        return [0]
    def accumulate(self, acc, v):
        acc[0] += v
    def retract(self, acc, v):
        acc[0] -= v
    def merge(self, acc, accs):
        for a in accs:
            acc[0] += a[0]
    def get_value(self, acc):
        return acc[0]
t_env.create_temporary_function('total', udaf(Total(), result_type=DataTypes.BIGINT(),
                                              accumulator_type=DataTypes.ARRAY(DataTypes.BIGINT())))
t_env.create_temporary_function('my_mean', udaf(lambda v: v.mean(), result_type=DataTypes.DOUBLE(),
                                                func_type='pandas'))
rows = []
try:
    result = t_env.execute_sql(QUERY)
    print("columns", result.get_resolved_schema())
    it = result.collect()
except Exception as e:
    print("ERROR", type(e).__name__, str(e).strip().splitlines()[0][:600])
    sys.exit(0)
def drain():
    try:
        for r in it:
            rows.append((str(r.get_row_kind()), [str(x) for x in r]))
    except Exception as e:
        rows.append(("ERROR", [type(e).__name__, str(e).strip().splitlines()[0][:600]]))
threading.Thread(target=drain, daemon=True).start()
files = [
    'a,1,1970-01-01 00:00:01\na,2,1970-01-01 00:00:03\nb,3,1970-01-01 00:00:06\n',
    'a,10,1970-01-01 00:00:02\nb,7,1970-01-01 00:00:05\na,4,1970-01-01 00:00:12\n',
    'a,5,1970-01-01 00:00:13\na,6,1970-01-01 00:00:20\n',
]
for i, text in enumerate(files):
    publish('f%d.csv' % i, text)
    time.sleep(float(os.environ.get("PROBE_WAIT", "6")))
    print("after file", i + 1, rows)
    del rows[:]
os._exit(0)
'''

T5 = "TUMBLE(ts, INTERVAL '5' SECOND)"
H = "HOP(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND)"
S2 = "SESSION(ts, INTERVAL '2' SECOND)"
TVF_T = "TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '5' SECOND))"
TVF_H = "TABLE(HOP(TABLE ev, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND))"
TVF_C = "TABLE(CUMULATE(TABLE ev, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND))"
TVF_S = "TABLE(SESSION(TABLE ev PARTITION BY k, DESCRIPTOR(ts), INTERVAL '2' SECOND))"
TVF_S_GLOBAL = "TABLE(SESSION(TABLE ev, DESCRIPTOR(ts), INTERVAL '2' SECOND))"
TVF_GROUP = " GROUP BY window_start, window_end, k"

QUERIES = {
    "tumble_general": f"SELECT k, TUMBLE_START(ts, INTERVAL '5' SECOND) AS s, TUMBLE_END(ts, INTERVAL '5' SECOND) AS e, "
                      f"TUMBLE_ROWTIME(ts, INTERVAL '5' SECOND) AS r, total(v) AS t FROM ev GROUP BY k, {T5}",
    "tumble_pandas": f"SELECT k, TUMBLE_START(ts, INTERVAL '5' SECOND) AS s, my_mean(v) AS m FROM ev GROUP BY k, {T5}",
    "tumble_no_keys": f"SELECT TUMBLE_END(ts, INTERVAL '5' SECOND) AS e, total(v) AS t, my_mean(v) AS m FROM ev GROUP BY {T5}",
    "tumble_mixed": f"SELECT k, total(v) AS t, SUM(v) AS s, COUNT(*) AS c, MAX(v) AS x FROM ev GROUP BY k, {T5}",
    "tumble_pandas_mixed": f"SELECT k, my_mean(v) AS m, SUM(v) AS s, AVG(v) AS a FROM ev GROUP BY k, {T5}",
    "tumble_expr": f"SELECT k, total(v) * 2 + 1 AS t, my_mean(v) + 1 AS m FROM ev GROUP BY k, {T5}",
    "hop_general": f"SELECT k, HOP_START(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND) AS s, total(v) AS t "
                   f"FROM ev GROUP BY k, {H}",
    "hop_pandas": f"SELECT k, HOP_END(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND) AS e, my_mean(v) AS m "
                  f"FROM ev GROUP BY k, {H}",
    "session_general": f"SELECT k, SESSION_START(ts, INTERVAL '2' SECOND) AS s, SESSION_END(ts, INTERVAL '2' SECOND) AS e, "
                       f"total(v) AS t FROM ev GROUP BY k, {S2}",
    "session_pandas": f"SELECT k, SESSION_START(ts, INTERVAL '2' SECOND) AS s, my_mean(v) AS m FROM ev GROUP BY k, {S2}",
    "tvf_tumble_general": f"SELECT window_start, window_end, k, total(v) AS t FROM {TVF_T}{TVF_GROUP}",
    "tvf_tumble_pandas": f"SELECT window_start, window_end, k, my_mean(v) AS m FROM {TVF_T}{TVF_GROUP}",
    "tvf_tumble_builtin": f"SELECT window_start, window_end, k, SUM(v) AS t FROM {TVF_T}{TVF_GROUP}",
    "tvf_hop_general": f"SELECT window_start, window_end, k, total(v) AS t FROM {TVF_H}{TVF_GROUP}",
    "tvf_hop_pandas": f"SELECT window_start, window_end, k, my_mean(v) AS m FROM {TVF_H}{TVF_GROUP}",
    "tvf_cumulate_general": f"SELECT window_start, window_end, k, total(v) AS t FROM {TVF_C}{TVF_GROUP}",
    "tvf_session_general": f"SELECT window_start, window_end, k, total(v) AS t FROM {TVF_S}{TVF_GROUP}",
    "tvf_session_pandas": f"SELECT window_start, window_end, k, my_mean(v) AS m FROM {TVF_S}{TVF_GROUP}",
    "tvf_session_general_builtin": f"SELECT window_start, window_end, k, total(v) AS t, SUM(v) AS s FROM {TVF_S}{TVF_GROUP}",
    "tvf_session_general_global": f"SELECT window_start, window_end, total(v) AS t FROM {TVF_S_GLOBAL} "
                                  "GROUP BY window_start, window_end",
    # Grouping keys other than the PARTITION BY keys, and the rows read without an aggregation.
    "tvf_session_fewer_keys": f"SELECT window_start, window_end, SUM(v) AS s FROM {TVF_S} GROUP BY window_start, window_end",
    "tvf_session_more_keys": f"SELECT window_start, window_end, k, v, COUNT(*) AS c FROM {TVF_S} "
                             "GROUP BY window_start, window_end, k, v",
    "tvf_session_other_keys": f"SELECT window_start, window_end, v, COUNT(*) AS c FROM {TVF_S} "
                              "GROUP BY window_start, window_end, v",
    "tvf_session_global_by_k": f"SELECT window_start, window_end, k, SUM(v) AS s FROM {TVF_S_GLOBAL}{TVF_GROUP}",
    "tvf_session_rows": f"SELECT * FROM {TVF_S}",
    "tvf_session_rows_projected": f"SELECT k, v, window_start, window_end FROM {TVF_S} WHERE v > 1",
}

if __name__ == "__main__":
    names = sys.argv[1:] or list(QUERIES)
    for name in names:
        print("==", name, flush=True)
        try:
            out = subprocess.run([sys.executable, "-c", CASE.replace("QUERY", repr(QUERIES[name]))],
                                 capture_output=True, text=True,
                                 timeout=float(os.environ.get("PROBE_TIMEOUT", "120")))
            lines = [line for line in out.stdout.splitlines()]
            print("\n".join(lines) if lines else out.stderr[-2000:], flush=True)
        except subprocess.TimeoutExpired:
            print("TIMEOUT", flush=True)
