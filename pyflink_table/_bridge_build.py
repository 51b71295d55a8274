"""Builds the Java bridge jar offline: ``javac --release 17`` against the installed PySpark's jars.

Used by ``setup.py`` when the package is installed, and at start-up in a source checkout when the
jar is missing or older than its sources (so edits to ``java-bridge/`` take effect on the next run).
This module must not import pyspark or anything else outside the standard library at import time.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import List, Optional

JAR_NAME = "pyflink-table-bridge.jar"


class BridgeBuildError(RuntimeError):
    """The bridge jar could not be built (no JDK, or a compile error)."""


def pyspark_jars_dir() -> Path:
    """The ``jars`` folder of the installed PySpark, found without importing it."""
    import importlib.util

    spec = importlib.util.find_spec("pyspark")
    if spec is None or not spec.submodule_search_locations:
        raise BridgeBuildError("pyspark is not installed; install pyspark 4.3 first (pip install 'pyspark==4.3.*').")
    jars = Path(list(spec.submodule_search_locations)[0]) / "jars"
    if not jars.is_dir():
        raise BridgeBuildError(f"pyspark at {jars.parent} has no jars folder; reinstall pyspark 4.3.")
    return jars


def java_sources(source_root: Path) -> List[Path]:
    return sorted((source_root / "src" / "main" / "java").rglob("*.java"))


def is_stale(jar: Path, source_root: Path) -> bool:
    if not jar.exists():
        return True
    built = jar.stat().st_mtime
    return any(src.stat().st_mtime > built for src in java_sources(source_root))


def _find_javac() -> str:
    candidates = []
    if os.environ.get("JAVA_HOME"):
        candidates.append(str(Path(os.environ["JAVA_HOME"]) / "bin" / "javac"))
    found = shutil.which("javac")
    if found:
        candidates.append(found)
    for c in candidates:
        if Path(c).exists():
            return c
    raise BridgeBuildError(
        "No Java compiler found: pyflink_table needs a Java 17 JDK (javac) to build its bridge jar. "
        "Install one (e.g. apt-get install openjdk-17-jdk-headless) or set JAVA_HOME."
    )


def build_jar(source_root: Path, jar: Path, jars_dir: Optional[Path] = None) -> Path:
    """Compile ``source_root`` (the java-bridge folder) into ``jar``; atomic and safe to run concurrently."""
    jars_dir = jars_dir or pyspark_jars_dir()
    sources = java_sources(source_root)
    if not sources:
        raise BridgeBuildError(f"No Java sources under {source_root}/src/main/java.")
    jar.parent.mkdir(parents=True, exist_ok=True)
    # The lock lives outside the jar's folder, which a wheel ships whole.
    digest = hashlib.sha256(str(jar.resolve()).encode()).hexdigest()[:16]
    lock_path = Path(tempfile.gettempdir()) / f"pyflink-table-bridge-{digest}.lock"
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not is_stale(jar, source_root):
            return jar  # another process built it while we waited
        javac = _find_javac()
        with tempfile.TemporaryDirectory(prefix="pyflink-table-bridge-") as tmp:
            classes = Path(tmp) / "classes"
            args_file = Path(tmp) / "sources.txt"
            args_file.write_text("\n".join(str(s) for s in sources))
            cmd = [javac, "--release", "17", "-nowarn", "-encoding", "UTF-8",
                   "-cp", str(jars_dir / "*"), "-d", str(classes), f"@{args_file}"]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                raise BridgeBuildError("The pyflink_table bridge jar failed to compile:\n" + (proc.stderr or proc.stdout))
            partial = jar.with_suffix(".jar.partial")
            with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as zf:
                zf.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\nCreated-By: pyflink_table\n\n")
                for f in sorted(classes.rglob("*.class")):
                    zf.write(f, f.relative_to(classes).as_posix())
            os.replace(partial, jar)
    return jar


def main(argv: List[str]) -> int:
    """``python -m pyflink_table._bridge_build SOURCE_ROOT OUT_JAR``."""
    try:
        out = build_jar(Path(argv[1]), Path(argv[2]))
    except BridgeBuildError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
