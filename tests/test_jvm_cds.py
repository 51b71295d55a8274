"""The driver JVM's class-data-sharing archive (pyflink_table._jvm_cds): written at the first run's
exit, mapped by later runs, switched off on request. Real files in a temporary cache directory."""

from __future__ import annotations

import os
import subprocess
import sys

from pyflink_table import _jvm_cds
from pyflink_table.java_gateway import bridge_jar


def _options(monkeypatch, tmp_path, **settings):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return _jvm_cds.driver_java_options(settings, bridge_jar())


def test_first_run_dumps_then_later_runs_map_the_archive(monkeypatch, tmp_path):
    monkeypatch.delenv(_jvm_cds.CDS_ENV, raising=False)
    first = _options(monkeypatch, tmp_path)
    dump = first.split("-XX:ArchiveClassesAtExit=")[1].split()[0]
    assert dump.endswith(f".{os.getpid()}.jsa") and "-Xlog:cds*=off" in first
    # While this (the dumping) process lives, its dump is not used.
    with open(dump, "wb") as f:
        f.write(b"archive")
    assert "ArchiveClassesAtExit" in _options(monkeypatch, tmp_path)
    # A dump left by a process that has ended (and settled) becomes the archive.
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    finished = dump.replace(f".{os.getpid()}.jsa", f".{ended.stdout.strip()}.jsa")
    os.replace(dump, finished)
    os.utime(finished, (1, 1))
    later = _options(monkeypatch, tmp_path)
    archive = later.split("-XX:SharedArchiveFile=")[1].split()[0]
    assert archive == finished.replace(f".{ended.stdout.strip()}.jsa", ".jsa")
    assert open(archive, "rb").read() == b"archive" and not os.path.exists(finished)


def test_switched_off_cluster_mode_and_user_choice(monkeypatch, tmp_path):
    monkeypatch.setenv(_jvm_cds.CDS_ENV, "off")
    assert _options(monkeypatch, tmp_path) == ""
    assert not (tmp_path / "pyflink_table").exists()
    monkeypatch.delenv(_jvm_cds.CDS_ENV)
    assert _options(monkeypatch, tmp_path, **{"spark.submit.deployMode": "cluster"}) == ""
    assert _options(monkeypatch, tmp_path, **{"spark.driver.extraJavaOptions": "-Xshare:off"}) == ""
    settings = {"spark.driver.extraJavaOptions": "-Dx=1"}
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    _jvm_cds.add_driver_java_options(settings, bridge_jar())
    assert settings["spark.driver.extraJavaOptions"].startswith("-Dx=1 -XX:+IgnoreUnrecognizedVMOptions")


def test_the_jvm_writes_and_maps_the_archive(monkeypatch, tmp_path):
    # A real JVM dumps its classes at exit, and a later one maps that archive; neither prints CDS messages.
    monkeypatch.delenv(_jvm_cds.CDS_ENV, raising=False)
    first = _options(monkeypatch, tmp_path).split()
    run = subprocess.run(["java", *first, "-version"], capture_output=True, text=True)
    assert run.returncode == 0 and "cds" not in (run.stdout + run.stderr).lower()
    dump = first[1].split("=", 1)[1]
    assert os.path.getsize(dump) > 0
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    finished = dump.replace(f".{os.getpid()}.jsa", f".{ended.stdout.strip()}.jsa")
    os.replace(dump, finished)
    os.utime(finished, (1, 1))
    later = _options(monkeypatch, tmp_path).split()
    assert later[1].startswith("-XX:SharedArchiveFile=")
    run = subprocess.run(["java", *later, "-Xshare:on", "-version"], capture_output=True, text=True)
    assert run.returncode == 0 and "sharing" in run.stderr  # -version reports "sharing" when mapped
