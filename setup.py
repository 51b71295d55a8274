"""Builds the Java bridge jar as part of installing the package (offline: javac against pyspark's jars).

A wheel or a regular install compiles the jar straight into the build directory, and setuptools'
``build/`` and ``*.egg-info`` go to a temporary directory, so installing from a checkout writes
nothing into it. Only an editable install (a development checkout) builds the jar in place, where
the package finds it and rebuilds it when a ``.java`` file changes.
"""

import atexit
import importlib.util
import shutil
import sys
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def _load_builder():
    # Load the build helper by path: importing the package would import pyspark-dependent modules.
    spec = importlib.util.spec_from_file_location("_bridge_build", ROOT / "pyflink_table" / "_bridge_build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPyWithBridge(build_py):
    """build_py that also compiles java-bridge/ into pyflink_table/jars/pyflink-table-bridge.jar."""

    def run(self):
        builder = _load_builder()
        if self.editable_mode:
            jar = ROOT / "pyflink_table" / "jars" / builder.JAR_NAME
        else:
            jar = Path(self.build_lib) / "pyflink_table" / "jars" / builder.JAR_NAME
        try:
            builder.build_jar(ROOT / "java-bridge", jar)
        except builder.BridgeBuildError as e:
            raise SystemExit(f"error: {e}") from None
        super().run()


def _scratch_options():
    """build/ and egg-info in a temporary directory, unless the command line chose them."""
    if any(arg.startswith(("--build-base", "-b", "--egg-base", "-e")) for arg in sys.argv[1:]):
        return {}
    scratch = tempfile.mkdtemp(prefix="pyflink-table-build-")
    atexit.register(shutil.rmtree, scratch, True)
    return {"build": {"build_base": str(Path(scratch) / "build")}, "egg_info": {"egg_base": scratch}}


setup(cmdclass={"build_py": BuildPyWithBridge}, options=_scratch_options())
