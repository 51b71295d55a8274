"""A real Spark standalone cluster on 127.0.0.1: one master and two one-core workers.

Started from the Spark inside the installed pyspark, once per test run, and stopped by the PIDs it
started. Its executors run a Python that has pyspark, pandas and pyarrow but not pyflink_table
(``PYFLINK_TABLE_WORKER_PYTHON``, made by ``make test``; built here when unset), so every cluster
test also proves that the package ships what the executors need.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Dict, List, Optional

ROOT = Path(__file__).resolve().parent.parent
WORKERS = 2


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def spark_home() -> Path:
    import pyspark

    return Path(pyspark.__file__).resolve().parent


def worker_python() -> str:
    """A Python for the executors with PySpark's own requirements and no pyflink_table."""
    given = os.environ.get("PYFLINK_TABLE_WORKER_PYTHON")
    if given:
        return given
    venv = ROOT / ".venv-cluster-worker"
    python = venv / "bin" / "python"
    with open(Path("/tmp") / "pyflink-table-worker-venv.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (venv / ".installed").exists():
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
            subprocess.run([str(python), "-m", "pip", "install", "-q", "pyspark==4.3.0", "pyarrow>=18",
                            "pandas>=2.2,<3", "numpy"], check=True)
            (venv / ".installed").touch()
    return str(python)


class LoopbackCluster:
    """The running cluster: ``url`` to connect to, ``python`` of its executors, ``work_dir`` of its logs."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.python = worker_python()
        self.port = _free_port()
        self.ui_port = _free_port()
        self.url = f"spark://127.0.0.1:{self.port}"
        self.work_dir = base / "work"
        self._processes: List[subprocess.Popen[bytes]] = []

    def _env(self) -> Dict[str, str]:
        env = dict(os.environ)
        env.update(SPARK_HOME=str(spark_home()), SPARK_LOCAL_IP="127.0.0.1", SPARK_NO_DAEMONIZE="1",
                   SPARK_LOG_DIR=str(self.base / "logs"))
        # The executors must never find pyflink_table through an inherited path.
        env.pop("PYTHONPATH", None)
        return env

    def _spawn(self, name: str, *args: str) -> None:
        log = open(self.base / f"{name}.log", "wb")
        process = subprocess.Popen([str(spark_home() / "bin" / "spark-class"), *args], env=self._env(),
                                   stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self._processes.append(process)

    def start(self) -> "LoopbackCluster":
        self.work_dir.mkdir(parents=True, exist_ok=True)
        self._spawn("master", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                    "--port", str(self.port), "--webui-port", str(self.ui_port))
        for i in range(WORKERS):
            self._spawn(f"worker-{i}", "org.apache.spark.deploy.worker.Worker", self.url, "--host", "127.0.0.1",
                        "--cores", "1", "--memory", "1g", "--webui-port", "0",
                        "--work-dir", str(self.work_dir / f"worker-{i}"))
        self._wait_for_workers()
        return self

    def state(self) -> Optional[Dict[str, object]]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.ui_port}/json/", timeout=5) as r:
                return dict(json.load(r))
        except OSError:
            return None

    def _wait_for_workers(self, timeout: float = 180.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.state()
            if state is not None and state.get("aliveworkers") == WORKERS:
                return
            if any(p.poll() is not None for p in self._processes):
                break
            time.sleep(1)
        self.stop()
        logs = "\n".join(p.read_text(errors="replace")[-2000:] for p in sorted(self.base.glob("*.log")))
        raise RuntimeError(f"the loopback Spark cluster did not start:\n{logs}")

    def executor_logs(self) -> str:
        """Everything the executors wrote to their stderr (standalone keeps it under the work dir)."""
        return "\n".join(p.read_text(errors="replace") for p in sorted(self.work_dir.rglob("stderr")))

    def stop(self) -> None:
        for process in reversed(self._processes):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self._processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        self._processes.clear()
