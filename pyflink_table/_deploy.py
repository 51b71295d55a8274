"""What a Spark cluster needs from the driver: the package's code, the bridge jar and an interpreter.

On a local master the executors are threads of the driver's JVM and its Python workers run the
driver's interpreter, which has the package. On any other master (standalone, YARN, Kubernetes)
the executors are other processes, usually on other machines, with a Python that has pyspark,
pandas and pyarrow (what PySpark itself needs) but not pyflink_table: the session then ships a zip
of the package (built once per installed version and content, cached) and the bridge jar, and
leaves the choice of interpreter to the user's settings, never the driver's own venv path.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Dict, Mapping, Optional

from pyflink_table.errors import TableException

__all__ = ["is_local_master", "package_zip", "executor_python", "PYTHON_OPTIONS"]

_PACKAGE_DIR = Path(__file__).resolve().parent

#: Where the executors' interpreter can be set, in the order they are honoured.
PYTHON_OPTIONS = ("python.executable", "spark.pyspark.python", "PYSPARK_PYTHON")


def is_local_master(master: str) -> bool:
    """True for ``local``, ``local[N]``, ``local[N,F]`` and ``local[*]``: executors share the driver's host."""
    return master == "local" or master.startswith("local[")


# The master URL forms Spark accepts (SparkSubmit's and SparkContext's checks, as patterns).
_MASTER_FORMS = re.compile(
    r"local|local\[(\d+|\*)\]|local\[(\d+|\*)\s*,\s*\d+\]|local-cluster\[\s*\d+\s*,\s*\d+\s*,\s*\d+\s*\]"
    r"|spark://\S+|yarn|k8s://\S+")


def check_master(master: str) -> None:
    """Raise TableException naming ``spark.master`` when ``master`` is no Spark master URL.

    Spark would only find out in its launcher, which exits and leaves PySpark's
    JAVA_GATEWAY_EXITED error and the launcher's usage text on stderr.
    """
    if not _MASTER_FORMS.fullmatch(master.strip()):
        raise TableException(
            f"Invalid value '{master}' for option spark.master; use local, local[N], local[*], local[N,F], "
            "local-cluster[N,C,M], spark://HOST:PORT, yarn or k8s://HOST:PORT.")


def _package_files() -> Dict[str, Path]:
    """The package's Python sources and resources by archive name (no jar, no byte code)."""
    files: Dict[str, Path] = {}
    for path in sorted(_PACKAGE_DIR.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts or path.suffix in (".pyc", ".jar", ".lock"):
            continue
        files["pyflink_table/" + path.relative_to(_PACKAGE_DIR).as_posix()] = path
    return files


def package_zip(cache_dir: Optional[Path] = None) -> Path:
    """A zip of the installed package for the executors' ``sys.path``, reused while its content is unchanged."""
    files = _package_files()
    digest = hashlib.sha256()
    for name, path in files.items():
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    from pyflink_table import __version__

    cache = cache_dir or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "pyflink_table"
    target = cache / f"pyflink_table-{__version__}-{digest.hexdigest()[:16]}.zip"
    if target.exists():
        return target
    cache.mkdir(parents=True, exist_ok=True)
    # Written beside the target and renamed: concurrent drivers never see half a zip.
    fd, partial = tempfile.mkstemp(dir=cache, suffix=".partial")
    os.close(fd)
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, path in files.items():
            zf.write(path, name)
    os.replace(partial, target)
    return target


def executor_python(settings: Mapping[str, str], master: str) -> Optional[str]:
    """The interpreter Spark's Python workers run, or None for Spark's default (``python3``).

    The user's choice wins (``python.executable``, ``spark.pyspark.python``, ``PYSPARK_PYTHON``);
    without one a local master runs the driver's own interpreter (it has pyflink_table and the
    user's packages) and a cluster runs Spark's default.
    """
    for key in PYTHON_OPTIONS[:2]:
        if settings.get(key):
            return settings[key]
    if os.environ.get("PYSPARK_PYTHON"):
        return os.environ["PYSPARK_PYTHON"]
    return sys.executable if is_local_master(master) else None
