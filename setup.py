"""Builds the Java bridge jar as part of installing the package (offline: javac against pyspark's jars)."""

import importlib.util
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
        source_jar = ROOT / "pyflink_table" / "jars" / builder.JAR_NAME
        try:
            builder.build_jar(ROOT / "java-bridge", source_jar)
        except builder.BridgeBuildError as e:
            raise SystemExit(f"error: {e}") from None
        super().run()
        if not self.editable_mode:
            target = Path(self.build_lib) / "pyflink_table" / "jars" / builder.JAR_NAME
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source_jar.read_bytes())


setup(cmdclass={"build_py": BuildPyWithBridge})
