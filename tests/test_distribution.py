"""The package as users install it: complete wheel and sdist, a clean build, a self-contained worker.

The wheel and the sdist are built from this checkout and their file lists compared with what git
tracks, so a new module or resource can never be left out of a distribution again. ``make test``
runs the whole suite against the installed wheel; the first test checks that it really does.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import textwrap
import zipfile
from pathlib import Path
from typing import Iterator, List, Set

import pytest

import pyflink_table

ROOT = Path(__file__).resolve().parent.parent
JAR = "pyflink_table/jars/pyflink-table-bridge.jar"


def _git_files() -> List[str]:
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT, capture_output=True, check=True).stdout
    return sorted(f for f in out.decode().split("\0") if f and (ROOT / f).exists())


def _tree_artifacts() -> Set[str]:
    """What a build may leave in the checkout: build/, *.egg-info, dist/, a (re)built jar."""
    found = {p.name for p in ROOT.iterdir() if p.name in ("build", "dist") or p.name.endswith(".egg-info")}
    jar = ROOT / JAR
    if jar.exists():
        found.add(f"{JAR}@{jar.stat().st_mtime_ns}")
    return found


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A wheel and an sdist of this checkout, built the way pip builds them."""
    out = tmp_path_factory.mktemp("dist")
    before = _tree_artifacts()
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(out),
                    str(ROOT)], check=True, capture_output=True)
    subprocess.run([sys.executable, "-c", f"from setuptools import build_meta; build_meta.build_sdist({str(out)!r})"],
                   cwd=ROOT, check=True, capture_output=True)
    assert _tree_artifacts() == before, "building wrote build artefacts into the checkout"
    yield out


def test_the_suite_runs_against_the_installed_package() -> None:
    package = Path(pyflink_table.__file__).resolve().parent
    if os.environ.get("PYFLINK_TABLE_TEST_INSTALLED") != "1":
        # Run from the checkout (a developer's quick run): the package comes from the source tree.
        assert package == ROOT / "pyflink_table"
        return
    # `make test` / CI: the installed wheel (in .venv's site-packages), never the checkout's sources.
    assert package != ROOT / "pyflink_table" and package.parent.name == "site-packages", package


def test_wheel_holds_every_package_file_and_the_jar(dists: Path) -> None:
    wheel = next(dists.glob("pyflink_table-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    shipped = {n for n in names if not n.split("/")[0].endswith(".dist-info")}
    expected = {f for f in _git_files() if f.startswith("pyflink_table/")} | {JAR}
    assert shipped == expected
    # The command line is installed too.
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "pyflink-table = pyflink_table.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_sdist_holds_the_whole_source_tree(dists: Path) -> None:
    sdist = next(dists.glob("pyflink*table-*.tar.gz"))
    with tarfile.open(sdist) as tar:
        members = [m.name.split("/", 1)[1] for m in tar.getmembers() if m.isfile() and "/" in m.name]
    generated = {"PKG-INFO", "setup.cfg"}
    shipped = {m for m in members if m not in generated and ".egg-info/" not in m}
    assert shipped == set(_git_files())
    assert not any(m.startswith("pyflink_table/jars/") for m in members), "the sdist builds its jar, never ships one"


def test_sdist_installs_and_builds_the_jar_offline(dists: Path, tmp_path: Path) -> None:
    sdist = next(dists.glob("pyflink*table-*.tar.gz"))
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--no-index",
                    "--target", str(target), str(sdist)], check=True, capture_output=True)
    jar = target / JAR
    assert jar.stat().st_size > 100_000
    with zipfile.ZipFile(jar) as zf:
        assert "org/pyflink_table/bridge/session/TableEnv.class" in zf.namelist()
    # The installed copy imports from where it was installed.
    probe = subprocess.run([sys.executable, "-P", "-c", "import pyflink_table._worker.scalar as s; print(s.__file__)"],
                           env={**os.environ, "PYTHONPATH": str(target)}, capture_output=True, text=True, check=True)
    assert probe.stdout.strip().startswith(str(target))


# What Spark's Python workers may load of the package: the worker layer and the modules it shares
# with the driver (plain Python, no JVM access).
SHARED_MODULES = {
    "pyflink_table",
    "pyflink_table.row",
    "pyflink_table.types",
    "pyflink_table.metrics",
    "pyflink_table.data_view",
    "pyflink_table._functions",
    "pyflink_table._protocol",
}

WORKER_PROBE = textwrap.dedent('''
    import pickle, sys
    import pyflink_table._worker.aggregates
    import pyflink_table._worker.lifecycle
    import pyflink_table._worker.packed_aggregation
    import pyflink_table._worker.scalar
    import pyflink_table._worker.table_functions
    from pyflink_table._worker.scalar import result_checker
    from pyflink_table.types import parse_type_string
    # What a task does besides: unpickle a user's function class and check a declared result type.
    from pyflink_table._functions import AggregateFunction, FunctionContext, ScalarFunction, TableFunction
    result_checker(parse_type_string("ROW<a INT, b ARRAY<STRING>>"))
    print("\\n".join(sorted(m for m in sys.modules if m.startswith(("pyflink_table", "py4j", "pyspark")))))
''')


def test_worker_layer_loads_no_driver_module_and_no_py4j() -> None:
    done = subprocess.run([sys.executable, "-P", "-c", WORKER_PROBE], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(Path(pyflink_table.__file__).parent.parent)})
    loaded = set(done.stdout.split())
    assert not {m for m in loaded if m.startswith(("py4j", "pyspark"))}
    package = {m for m in loaded if m.startswith("pyflink_table")}
    assert package - SHARED_MODULES == {m for m in package if m.startswith("pyflink_table._worker")}


def test_importing_the_package_loads_nothing_else() -> None:
    done = subprocess.run([sys.executable, "-P", "-c",
                           "import sys, pyflink_table; print(' '.join(m for m in sys.modules if 'py4j' in m "
                           "or m.startswith(('pyflink_table.', 'pyspark'))))"],
                          capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(Path(pyflink_table.__file__).parent.parent)})
    assert done.stdout.split() == []
    # The public names still resolve (loaded on first use).
    from pyflink_table import DataTypes, TableEnvironment, udf  # noqa: F401
