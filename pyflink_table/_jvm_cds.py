"""A class-data-sharing (CDS) archive for the driver JVM, for a faster cold start.

Starting Spark loads and verifies some 15,000 classes, most of a trivial job's start-up time. The
first program run writes the classes its JVM loaded into a dynamic CDS archive at the JVM's exit
(``-XX:ArchiveClassesAtExit``, JDK 13+) in the user's cache directory; later runs map that archive
(``-XX:SharedArchiveFile``) instead of loading the classes again. The archive is keyed by
everything its validity depends on (the Java runtime, PySpark's jars, the bridge jar and the extra
class path), so an upgrade starts a new one; the JVM itself ignores an archive that does not match
(``-Xshare:auto``), and its CDS messages are switched off so nothing reaches the program's output.

Set ``PYFLINK_TABLE_CDS=off`` to start without an archive (nothing is read or written).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from pathlib import Path
from typing import Dict, Mapping, Optional

#: Environment variable switching the archive off (``off``, ``false`` or ``0``).
CDS_ENV = "PYFLINK_TABLE_CDS"
# Archives of other keys kept (other installs or versions in use on the machine); older ones go.
_KEEP = 3
_SETTLE_SECONDS = 30


def _cache_dir() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "pyflink_table" / "cds"


def _stamp(path: str) -> str:
    try:
        st = os.stat(path)
    except OSError:
        return f"{path}:missing"
    return f"{path}:{st.st_size}:{int(st.st_mtime)}"


def _key(settings: Mapping[str, str], bridge_jar: str) -> str:
    import pyspark

    java_home = os.environ.get("JAVA_HOME", "")
    java = os.path.join(java_home, "bin", "java") if java_home else (shutil.which("java") or "java")
    jars = Path(pyspark.__file__).resolve().parent / "jars"
    parts = [_stamp(os.path.realpath(java)), pyspark.__version__, _stamp(str(jars)), _stamp(bridge_jar),
             settings.get("spark.driver.extraClassPath", ""), os.environ.get("SPARK_HOME", "")]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _promote_finished_dump(directory: Path, key: str) -> Optional[Path]:
    """The archive of ``key``, made from a dump a finished JVM left (``<key>.<pid>.jsa``) if needed."""
    archive = directory / f"{key}.jsa"
    for dump in directory.glob(f"{key}.*.jsa"):
        pid = dump.name[len(key) + 1:-len(".jsa")]
        # The JVM writes the dump at its exit, just after the Python process that started it ends.
        if not pid.isdigit() or _alive(int(pid)) or time.time() - dump.stat().st_mtime < _SETTLE_SECONDS:
            continue  # still being written
        if not archive.exists() and dump.stat().st_size > 0:
            os.replace(dump, archive)
        else:
            dump.unlink(missing_ok=True)
    return archive if archive.exists() else None


def _prune(directory: Path, key: str) -> None:
    others = sorted((p for p in directory.glob("*.jsa") if not p.name.startswith(key)),
                    key=lambda p: p.stat().st_mtime, reverse=True)
    for old in others[_KEEP:]:
        old.unlink(missing_ok=True)


def driver_java_options(settings: Mapping[str, str], bridge_jar: str) -> str:
    """JVM options for the driver: map the archive when there is one, else write it at exit.

    Empty when switched off, in cluster deploy mode (the driver starts elsewhere), when the user's
    own driver options already choose a CDS archive, or when the cache directory is not writable.
    """
    if os.environ.get(CDS_ENV, "").strip().lower() in ("off", "false", "0"):
        return ""
    if settings.get("spark.submit.deployMode", "client") == "cluster":
        return ""
    existing = settings.get("spark.driver.extraJavaOptions", "")
    if "SharedArchiveFile" in existing or "ArchiveClassesAtExit" in existing or "-Xshare" in existing:
        return ""
    try:
        directory = _cache_dir()
        directory.mkdir(parents=True, exist_ok=True)
        key = _key(settings, bridge_jar)
        archive = _promote_finished_dump(directory, key)
        _prune(directory, key)
        if archive is not None:
            os.utime(archive)
            option = f"-XX:SharedArchiveFile={archive}"
        else:
            option = f"-XX:ArchiveClassesAtExit={directory / f'{key}.{os.getpid()}.jsa'}"
    except OSError:
        return ""
    # Unknown -XX options (a JDK before 13) are ignored; CDS's own messages would reach stdout.
    return f"-XX:+IgnoreUnrecognizedVMOptions {option} -Xlog:cds*=off -Xlog:class+path=off"


def add_driver_java_options(settings: Dict[str, str], bridge_jar: str) -> None:
    """Append :func:`driver_java_options` to the ``spark.driver.extraJavaOptions`` of ``settings``."""
    options = driver_java_options(settings, bridge_jar)
    if options:
        existing = settings.get("spark.driver.extraJavaOptions")
        settings["spark.driver.extraJavaOptions"] = f"{existing} {options}" if existing else options
