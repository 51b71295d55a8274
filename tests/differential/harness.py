"""Runs the same Table API program text under PyFlink 2.3 and under pyflink_table, and compares.

A *program* is a snippet of Python that may use ``t_env`` (a fresh batch TableEnvironment),
``DataTypes``, ``Row``, ``col``, ``lit``, ``call``, ``datetime``, ``decimal`` and whatever it
imports itself from ``pyflink.table``/``pyflink.common``, and that assigns ``result`` to a
``Table`` or a ``TableResult`` (or prints). For each program the harness records the rows (as
JSON-able values), the column names and type strings, whatever the program printed, and the
exception type and first message line if it raised.

PyFlink runs in a subprocess (its own interpreter, ``PYFLINK_PYTHON``), one process for several
modules of a test run (``MODULES_PER_PROCESS``), which it serves in turn; pyflink_table runs in this process on the shared Spark session, meanwhile, with the
program text's ``pyflink.table``/``pyflink.common`` imports rewritten to ``pyflink_table``. Our side
runs each program under a timeout (``PYFLINK_TABLE_PROGRAM_TIMEOUT`` seconds, 300 by default): a
program still running then (say, awaiting a row that never comes) has its jobs cancelled and fails
its comparison with a message naming it; PyFlink's subprocess is given 900 s for a module's programs.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Dict, Iterator, Mapping, Sequence

import pytest

REPO = Path(__file__).resolve().parents[2]
DEFAULT_PYFLINK_PYTHON = str(REPO / ".venv-pyflink" / "bin" / "python")

# The start of the streaming programs over monitored directories: a streaming environment at
# parallelism 1, and publish_file, which makes a file appear at once (both engines ignore names
# that start with '.', so the rename publishes it atomically).
STREAMING_PRELUDE = """
import os, tempfile
from pyflink.table import EnvironmentSettings, TableEnvironment
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
def publish_file(d, name, text):
    tmp = os.path.join(d, '.' + name)
    with open(tmp, 'w') as f:
        f.write(text)
    os.rename(tmp, os.path.join(d, name))
def take(it, n):
    # The changes of one file, in a fixed order (the order among one file's changes may differ).
    rows = [next(it) for _ in range(n)]
    print(sorted([str(r.get_row_kind())] + [str(x) for x in r] for r in rows))
"""

# Snippets of program text that follow STREAMING_PRELUDE, so that each program writes only what is
# its own.


def monitored_table(name: str, columns: str, directory: str = "d", options: str = "") -> str:
    """Program text creating the CSV table ``name`` (``columns``) over the monitored directory whose
    path the program holds in the variable ``directory``, polled every 100 ms, with further
    ``options`` (text such as ``'csv.null-literal' = 'null'``) if given."""
    more = ", " + options if options else ""
    return (f't_env.execute_sql("CREATE TABLE {name} ({columns}) WITH (\'connector\' = \'filesystem\', "\n'
            f'                  "\'path\' = \'" + {directory} + "\', \'format\' = \'csv\', '
            f'\'source.monitor-interval\' = \'100ms\'{more})")\n')


# The columns of the event table ``ev``: a key, a value and a rowtime whose watermark is 1 s behind.
EVENT_COLUMNS = "k STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND"
# The same with a processing-time attribute ``pt`` too.
EVENT_PT_COLUMNS = "k STRING, v INT, ts TIMESTAMP(3), pt AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND"


def event_table(columns: str = EVENT_COLUMNS, options: str = "") -> str:
    """Program text: a fresh directory ``d``, ``publish(name, text)`` publishing a file in it, and the
    table ``ev`` (``columns``, further table ``options`` if given) monitoring it."""
    return ("d = tempfile.mkdtemp()\n"
            "publish = lambda name, text: publish_file(d, name, text)\n"
            + monitored_table("ev", columns, options=options))


# Three files of events for ``ev`` (k, v, ts), published in turn: after the first the watermark is
# 00:05, at or after which the second file's first three rows are (late for some operators); its
# a, 5 at 00:12 moves the watermark to 00:11, the third file's a, 7 at 00:20 to 00:19.
EVENT_FILES = (
    "a,1,1970-01-01 00:00:01\\na,2,1970-01-01 00:00:03\\na,4,1970-01-01 00:00:03\\nb,3,1970-01-01 00:00:06\\n",
    "a,10,1970-01-01 00:00:02\\na,8,1970-01-01 00:00:04\\nb,7,1970-01-01 00:00:05\\na,5,1970-01-01 00:00:12\\n",
    "a,6,1970-01-01 00:00:13\\na,7,1970-01-01 00:00:20\\n",
)


def collect_while_publishing(query: str, counts: Sequence[int], files: Sequence[str] = EVENT_FILES, first: int = 1,
                              query_after_first_file: bool = False, take: str = "take") -> str:
    """Program text: ``query`` assigns ``it`` (a collect iterator), then ``files`` are published in
    turn with ``publish`` (as ``f<first>.csv`` and the next numbers), ``counts[i]`` changes taken from
    ``it`` after file ``i`` with the function ``take`` (e.g. ``take_multisets``), and ``it`` is closed.
    With ``query_after_first_file`` the first file is published before ``query`` runs."""
    text = "" if query_after_first_file else query
    for i, (content, n) in enumerate(zip(files, counts)):
        text += f"publish('f{first + i}.csv', '{content}')\n"
        if i == 0 and query_after_first_file:
            text += query
        text += f"{take}(it, {n})\n"
    return text + "it.close()\n"


# take_multisets(it, n): take() printing a MULTISET (a dict) as its sorted items. A MULTISET has no
# element order: PyFlink 2.3 hands it over in its Java HashMap's order, pyflink_table in its Spark
# map's (measured different for one window's {2: 1, 5: 1}); LISTAGG's string keeps its order.
TAKE_MULTISETS = """
def take_multisets(it, n):
    rows = [next(it) for _ in range(n)]
    print(sorted([str(r.get_row_kind())] + [str(sorted(x.items())) if isinstance(x, dict) else str(x) for x in r]
                 for r in rows))
"""


# Two monitored directories dl, dr with the tables l (k STRING, a INT) and r (k2 STRING, b INT);
# publish(d, text) publishes the next file of the program, f1.csv, f2.csv, ..., in d.
JOIN_TABLES = """
dl, dr = tempfile.mkdtemp(), tempfile.mkdtemp()
n = [0]
def publish(d, text):
    # Each file gets the next name: f1.csv, f2.csv, ...
    n[0] += 1
    publish_file(d, 'f%d.csv' % n[0], text)
""" + monitored_table("l", "k STRING, a INT", "dl") + monitored_table("r", "k2 STRING, b INT", "dr")

# Two watermarked monitored directories: l (k, v, ts) over dl and r (k2, v2, ts2) over dr, both 1 s
# behind; publish(d, text) publishes the program's next file in d.
TWO_EVENT_TABLES = STREAMING_PRELUDE + """
dl, dr = tempfile.mkdtemp(), tempfile.mkdtemp()
n = [0]
def publish(d, text):
    n[0] += 1
    publish_file(d, 'f%d.csv' % n[0], text)
""" + monitored_table("l", "k STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND", "dl") \
    + monitored_table("r", "k2 STRING, v2 INT, ts2 TIMESTAMP(3), WATERMARK FOR ts2 AS ts2 - INTERVAL '1' SECOND", "dr")

# The general aggregate function class Total (the sum of an INT column), its body last so that a
# program may add methods.
TOTAL_CLASS = """
class Total(AggregateFunction):
    def create_accumulator(self):
        return [0]
    def accumulate(self, acc, v):
        acc[0] += v
    def get_value(self, acc):
        return acc[0]
"""
# Total's merge, for the windows that merge accumulators.
TOTAL_MERGE = """    def merge(self, acc, accs):
        for a in accs:
            acc[0] += a[0]
"""


def python_aggregates(merge: bool = False, registered: bool = False) -> str:
    """Program text: ``total``, a general Python aggregate function (``Total``, with ``merge`` if
    asked) returning BIGINT, and ``mean``, a pandas one returning DOUBLE, with their imports; if
    ``registered``, also as the temporary functions ``total_udaf`` and ``mean_udaf`` for SQL."""
    registration = ("t_env.create_temporary_function('total_udaf', total)\n"
                    "t_env.create_temporary_function('mean_udaf', mean)\n")
    return ("from pyflink.table import DataTypes\n"
            "from pyflink.table.udf import udaf, AggregateFunction\n"
            + TOTAL_CLASS + (TOTAL_MERGE if merge else "")
            + "total = udaf(Total(), result_type=DataTypes.BIGINT(), accumulator_type=DataTypes.ARRAY(DataTypes.BIGINT()))\n"
            "mean = udaf(lambda v: v.mean(), result_type=DataTypes.DOUBLE(), func_type='pandas')\n"
            + (registration if registered else ""))


# MySum: a general aggregate function with retract (for updating inputs), its types from its own
# get_*_type methods.
RETRACTING_SUM = """
from pyflink.table.udf import AggregateFunction, udaf
class MySum(AggregateFunction):
    def get_value(self, acc): return acc[0]
    def create_accumulator(self): return [0]
    def accumulate(self, acc, v):
        if v is not None: acc[0] += v
    def retract(self, acc, v):
        if v is not None: acc[0] -= v
    def get_accumulator_type(self): return 'ARRAY<BIGINT>'
    def get_result_type(self): return 'BIGINT'
"""

# The driver is plain text so that it runs unchanged under both implementations.
DRIVER = r'''
import contextlib, datetime, decimal, io, json, math, sys

from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import call, col, lit
from pyflink.common import Row


def _plain(v):
    """A JSON-able, implementation-neutral form of a collected value."""
    if v is None or isinstance(v, (bool, str, int)):
        return v
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            return "float:" + repr(v)
        return float("%.12g" % v)
    if isinstance(v, decimal.Decimal):
        return "decimal:" + str(v)
    if isinstance(v, (bytes, bytearray)):
        return type(v).__name__ + ":" + bytes(v).hex()
    if isinstance(v, datetime.datetime):
        return "datetime:" + v.isoformat() + ("" if v.tzinfo is None else "(aware)")
    if isinstance(v, datetime.date):
        return "date:" + v.isoformat()
    if isinstance(v, datetime.time):
        return "time:" + v.isoformat()
    if isinstance(v, Row):
        return {"row": [_plain(x) for x in v]}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {"map": sorted([[_plain(k), _plain(x)] for k, x in v.items()], key=repr)}
    return "other:" + type(v).__name__ + ":" + repr(v)


_KINDS = ("SqlParserException", "ValidationException", "TableException", "CatalogException",
          "PythonException")


def _error(e):
    """[kind, first message line]; PyFlink 2.3 raises some JVM errors as raw Py4J errors, whose
    Java exception chain names the Flink exception kind."""
    java = getattr(e, "java_exception", None)
    if java is None:
        text = str(e).strip()
        return [type(e).__name__, text.splitlines()[0] if text else ""]
    chain = []
    while java is not None:
        text = (java.getMessage() or "").strip()
        chain.append([java.getClass().getSimpleName(), text.splitlines()[0] if text else ""])
        java = java.getCause()
    for kind, message in chain:
        if kind in _KINDS:
            return [kind, message]
    return chain[0]


def _capture_jvm_prints():
    """PyFlink prints tables and schemas from the JVM: route those prints through sys.stdout."""
    try:
        import pyflink.table.table_result as tr
        import pyflink.table.table as tt
        from pyflink.java_gateway import get_gateway
    except ImportError:
        return

    def captured(method):
        def wrapper(self, *args, **kwargs):
            jvm = get_gateway().jvm
            old = jvm.System.out
            buf = jvm.java.io.ByteArrayOutputStream()
            jvm.System.setOut(jvm.java.io.PrintStream(buf, True, "UTF-8"))
            try:
                return method(self, *args, **kwargs)
            finally:
                jvm.System.out.flush()
                jvm.System.setOut(old)
                sys.stdout.write(buf.toString("UTF-8"))
        return wrapper

    tr.TableResult.print = captured(tr.TableResult.print)
    tt.Table.print_schema = captured(tt.Table.print_schema)


def _columns(schema):
    """[[name, Flink type string]] from the printed form of a ResolvedSchema."""
    lines = str(schema).strip().splitlines()[1:-1]
    out = []
    for line in lines:
        line = line.strip().rstrip(",")
        name, _, typ = line[1:].partition("` ")
        out.append([name, typ])
    return out


def _run_one(source):
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.get_config().set("parallelism.default", "1")
    env = {"t_env": t_env, "DataTypes": DataTypes, "Row": Row, "col": col, "lit": lit,
           "call": call, "datetime": datetime, "decimal": decimal, "result": None}
    out = {"rows": None, "columns": None, "stdout": "", "error": None}
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            exec(source, env)
            result = env["result"]
            if result is not None:
                if hasattr(result, "get_resolved_schema") and hasattr(result, "collect"):
                    schema = result.get_resolved_schema()
                    rows = list(result.collect())
                else:
                    schema = result.get_resolved_schema()
                    rows = list(result.execute().collect())
                out["columns"] = _columns(schema)
                out["rows"] = [_plain(list(r)) for r in rows]
    except Exception as e:  # the exception kind and first line are part of the behaviour
        out["error"] = _error(e)
    out["stdout"] = buf.getvalue()
    return out


def run_all(programs):
    _capture_jvm_prints()
    return {name: _run_one(source) for name, source in programs.items()}


def _cancel_jobs_left_running(results):
    """Cancels the jobs of ``results`` (PyFlink TableResults) that may still run (a program that
    raised before closing its collect iterator), so that they do not outlive their program in a
    process that serves many modules."""
    for result in results:
        try:
            client = result.get_job_client()
            if client is not None:
                client.cancel()  # a finished job's cancel fails: nothing to do
        except Exception:
            pass
    del results[:]


def serve(requests):
    """PyFlink's side as a server: each line of ``requests`` is a JSON pair [programs file, results
    file]; their results are written to the second (renamed into place once complete)."""
    import os
    import pyflink.table.table_result as tr
    _capture_jvm_prints()
    made = []
    init = tr.TableResult.__init__

    def recording_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        made.append(self)

    tr.TableResult.__init__ = recording_init
    for line in requests:
        programs_path, results_path = json.loads(line)
        with open(programs_path) as f:
            programs = json.load(f)
        results = {}
        for name, source in programs.items():
            results[name] = _run_one(source)
            _cancel_jobs_left_running(made)
        with open(results_path + ".part", "w") as f:
            json.dump(results, f)
        os.rename(results_path + ".part", results_path)


if __name__ == "__main__":
    serve(sys.stdin)
'''


def to_pyflink_table(source: str) -> str:
    """Program text for pyflink_table: PyFlink's imports read ``pyflink_table``."""
    return (source.replace("pyflink.table.expressions", "pyflink_table.expressions")
            .replace("pyflink.table.", "pyflink_table.")
            .replace("pyflink.table", "pyflink_table")
            .replace("pyflink.common", "pyflink_table"))


# The PyFlink JVM's flags (PyFlink's gateway launcher reads JVM_ARGS; a JVM_ARGS of the caller's own
# wins): the C1 compiler alone. A module's programs are short jobs of a few rows, for which C2's
# compilations cost more CPU than they save: measured on 4 streaming programs of over_unbounded, the
# process used 13.4 s of CPU against 20.7 s with the default tiers (wall 63 s against 76 s, load ~27).
PYFLINK_JVM_ARGS = "-XX:TieredStopAtLevel=1"


class _PyFlinkServer:
    """One PyFlink 2.3 process (``serve`` of the driver) for up to ``MODULES_PER_PROCESS`` modules
    (one by default: a process kept for the whole run grew without bound). It runs one request (a
    module's programs) at a time, in order; a request it fails or takes too long for ends it, and the
    next request starts a new one."""

    def __init__(self) -> None:
        python = os.environ.get("PYFLINK_PYTHON", DEFAULT_PYFLINK_PYTHON)
        if not Path(python).exists():
            raise RuntimeError(f"PyFlink 2.3 interpreter not found at {python}: run `make reference` "
                               "or set PYFLINK_PYTHON.")
        self._tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self._tmp.name)
        (self.dir / "driver.py").write_text(DRIVER)
        self.stderr = self.dir / "stderr.txt"
        self._requests = 0
        env = dict(os.environ)
        env.setdefault("JVM_ARGS", PYFLINK_JVM_ARGS)
        # Files, not pipes, for its output: nobody reads a pipe while it runs, and a full one would block it.
        with open(self.dir / "stdout.txt", "w") as out, open(self.stderr, "w") as err:
            self.proc = subprocess.Popen([python, str(self.dir / "driver.py")], stdin=subprocess.PIPE, stdout=out,
                                         stderr=err, text=True, env=env)

    def submit(self, programs: Mapping[str, str]) -> Path:
        """Queues ``programs``; returns the path their results will appear at."""
        self._requests += 1
        request = self.dir / f"programs-{self._requests}.json"
        request.write_text(json.dumps(dict(programs)))
        results = self.dir / f"results-{self._requests}.json"
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps([str(request), str(results)]) + "\n")
        self.proc.stdin.flush()
        return results

    @property
    def requests(self) -> int:
        """How many modules' programs this process was given."""
        return self._requests

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._tmp.cleanup()


_server: _PyFlinkServer | None = None

# Modules one PyFlink process serves; it is stopped once it has answered the last. One process for
# the whole run (a CI run of 2026-11-25) grew to 3.2 GB of metaspace and 230 Log4j scheduler threads
# after 20 modules and kept a core about 85% busy with no job running, which slowed both sides: the
# differential modules alone took 44 minutes (the whole suite took 47 the day before, with a process
# per module). So the default is a process per module, as before; more per process is for measuring.
MODULES_PER_PROCESS = int(os.environ.get("PYFLINK_TABLE_PYFLINK_MODULES_PER_PROCESS", "1"))


def _shared_server() -> _PyFlinkServer:
    global _server
    if _server is None or not _server.alive() or _server.requests >= MODULES_PER_PROCESS:
        if _server is not None:
            _server.stop()
        _server = _PyFlinkServer()
    return _server


@atexit.register
def _stop_shared_server() -> None:
    if _server is not None:
        _server.stop()


class PyFlinkRun:
    """PyFlink 2.3 running ``programs`` in the shared PyFlink process, at once, so that pyflink_table
    can run the same programs meanwhile; ``results()`` waits for them."""

    def __init__(self, programs: Mapping[str, str]) -> None:
        self._server = _shared_server()
        self._results = self._server.submit(programs)

    def results(self) -> Dict[str, Any]:
        """The results by program name, once all are in (after at most 900 s)."""
        deadline = time.monotonic() + 900
        while not self._results.exists():
            if not self._server.alive():
                raise RuntimeError("PyFlink driver failed:\n" + self._server.stderr.read_text()[-4000:])
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("PyFlink driver did not answer within 900 s")
            time.sleep(0.1)
        results = dict(json.loads(self._results.read_text()))
        if self._server.requests >= MODULES_PER_PROCESS:
            self.stop()  # its last module: it must not outlive it (see MODULES_PER_PROCESS)
        return results

    def stop(self) -> None:
        """Ends the shared process (it may still run these programs); the next run starts another."""
        self._server.stop()


def run_pyflink(programs: Mapping[str, str]) -> Dict[str, Any]:
    """Results of all ``programs`` under PyFlink 2.3, from the shared PyFlink process."""
    return PyFlinkRun(programs).results()


# How long one program may run on our side (seconds; PYFLINK_TABLE_PROGRAM_TIMEOUT overrides): a
# program awaiting a row that never comes would otherwise hang the test run.
PROGRAM_TIMEOUT_S = float(os.environ.get("PYFLINK_TABLE_PROGRAM_TIMEOUT", "300"))
# The error kind a program that ran out of time records instead of its result.
TIMED_OUT = "ProgramTimedOut"


def _stop_jobs() -> None:
    """Cancels this process's running stream jobs and Spark jobs, so that a program blocked on them
    (a collect iterator awaiting a row, ``wait()``) returns."""
    from pyspark import SparkContext

    from pyflink_table._streaming import cancel_running_jobs

    cancel_running_jobs()
    sc = SparkContext._active_spark_context
    if sc is not None:
        sc.cancelAllJobs()


def run_ours(programs: Mapping[str, str], timeout_s: float | None = None) -> Dict[str, Any]:
    """Results of all ``programs`` under pyflink_table, in this process.

    Each program runs in a thread of its own for at most ``timeout_s`` seconds (default
    ``PROGRAM_TIMEOUT_S``); one that runs longer has its jobs cancelled and records the error
    ``[TIMED_OUT, message]``, which fails its comparison with that message; the others still run."""
    limit = PROGRAM_TIMEOUT_S if timeout_s is None else timeout_s
    namespace: Dict[str, Any] = {"__name__": "differential_driver"}
    exec(compile(to_pyflink_table(DRIVER), "<differential driver>", "exec"), namespace)
    namespace["_capture_jvm_prints"]()
    results: Dict[str, Any] = {}
    # The driver prints nothing itself; programs' own prints are captured per program.
    with contextlib.redirect_stdout(io.StringIO()):
        for name, src in programs.items():
            box: Dict[str, Any] = {}
            worker = threading.Thread(target=lambda: box.update(result=namespace["_run_one"](to_pyflink_table(src))),
                                      name=f"differential-{name}", daemon=True)
            worker.start()
            worker.join(limit)
            if worker.is_alive():
                # Again and again: a job may still be starting when the time is up.
                for _ in range(60):
                    _stop_jobs()
                    worker.join(1)
                    if not worker.is_alive():
                        break
                _stop_jobs()
                message = (f"program {name!r} did not finish within {limit:g} s under pyflink_table (awaiting a row "
                           "that never comes?); its jobs were cancelled")
                results[name] = {"rows": None, "columns": None, "stdout": "", "error": [TIMED_OUT, message]}
            else:
                results[name] = box["result"]
    return results


def assert_prints(name: str, program: str, expected: str) -> None:
    """Runs ``program`` under pyflink_table alone (an extension, or where PyFlink 2.3 is no oracle)
    and checks that it raises nothing and prints ``expected``."""
    got = run_ours({name: program})[name]
    _fail_if_timed_out(got)
    assert got["error"] is None and got["stdout"] == expected, got


def _fail_if_timed_out(got: Mapping[str, Any]) -> None:
    if got["error"] is not None and got["error"][0] == TIMED_OUT:
        pytest.fail(got["error"][1], pytrace=False)


def _canonical_rows(rows: Any) -> Any:
    return None if rows is None else sorted(json.dumps(r, sort_keys=True) for r in rows)


# PyFlink's first message line of a JVM error often starts with the Java class's name
# ("org.apache.flink.table.api.TableException: "), where ours has the message alone.
_JAVA_CLASS_PREFIX = re.compile(r"^(?:[a-z_$][\w$]*\.)+[A-Z][\w$]*: ")


def without_java_class(message: str) -> str:
    """``message`` without the Java class name PyFlink may put before it."""
    return _JAVA_CLASS_PREFIX.sub("", message, count=1)


class Comparison:
    """Both sides' results for a module's programs; ``assert_same(name)`` compares one program."""

    def __init__(self, programs: Mapping[str, str], pyflink: Dict[str, Any], ours: Dict[str, Any]) -> None:
        self.programs = dict(programs)
        self.pyflink = pyflink
        self.ours = ours

    def assert_same(self, name: str, ordered: bool = False, compare_error_message: bool = False,
                    compare_types: bool = True) -> None:
        """Same columns, rows (as a multiset unless ``ordered``), printed text and error kind;
        ``compare_types=False`` compares column names only (for documented type differences)."""
        ref, got = self.pyflink[name], self.ours[name]
        _fail_if_timed_out(got)
        context = f"program {name!r}:\n{self.programs[name]}\nPyFlink: {ref}\nours:    {got}"
        if ref["error"] is not None or got["error"] is not None:
            assert (ref["error"] or [None])[0] == (got["error"] or [None])[0], context
            if compare_error_message:
                assert ref["error"][1] == got["error"][1], context
            return
        if compare_types:
            assert got["columns"] == ref["columns"], context
        else:
            assert [c[0] for c in got["columns"]] == [c[0] for c in ref["columns"]], context
        if ordered:
            assert got["rows"] == ref["rows"], context
        else:
            assert _canonical_rows(got["rows"]) == _canonical_rows(ref["rows"]), context
        assert got["stdout"] == ref["stdout"], context

    def assert_same_refusal(self, name: str, starts_with: str | None = None) -> None:
        """Both sides raise for program ``name``: the same exception kind and the same first message
        line (PyFlink's without its Java class name); with ``starts_with``, both lines start with it
        instead (for messages that differ further on, e.g. in plan node ids; ``""``: the kind only)."""
        ref, got = self.pyflink[name], self.ours[name]
        _fail_if_timed_out(got)
        context = f"program {name!r}:\n{self.programs[name]}\nPyFlink: {ref}\nours:    {got}"
        assert ref["error"] is not None and got["error"] is not None, context
        assert ref["error"][0] == got["error"][0], context
        pyflink_message, message = without_java_class(ref["error"][1]), got["error"][1]
        if starts_with is None:
            assert pyflink_message == message, context
        else:
            assert pyflink_message.startswith(starts_with) and message.startswith(starts_with), context


@pytest.fixture(scope="module")
def differential(request: pytest.FixtureRequest, _spark_started: None) -> Iterator[Comparison]:
    """Each test module's ``programs`` run once per side, then compared by name.

    Import it into the test module (``from harness import Comparison, differential``): a second
    ``conftest.py`` here would shadow ``tests/conftest.py`` for modules that import its helpers.
    """
    programs = getattr(request.module, "programs")
    if getattr(request.module, "SIDES_IN_TURN", False):
        # Timing-sensitive modules (state TTL, bundle timers) run each side on a machine the other
        # does not load.
        yield Comparison(programs, run_pyflink(programs), run_ours(programs))
        return
    # Both sides at once: each spends most of its time waiting (JVM start, monitored directories,
    # micro-batch triggers, the programs' own sleeps), so the module takes about the longer of the two.
    pyflink = PyFlinkRun(programs)
    try:
        ours = run_ours(programs)
    except BaseException:
        pyflink.stop()
        raise
    yield Comparison(programs, pyflink.results(), ours)
