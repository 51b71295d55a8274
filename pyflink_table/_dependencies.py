"""Python dependencies of UDFs (driver side): shipping files, requirements and archives to Spark's Python workers.

Driver side: files and zips go through ``SparkContext.addPyFile`` (the workers put them on
``sys.path`` before unpickling the functions, so a UDF may import a shipped module at any level);
directories are zipped first; requirements are installed with ``pip install --target`` and shipped
as such a zip; archives go through ``SparkContext.addArchive``, extracted next to the workers'
shipped files, where a UDF reaches them relative to its working directory (the worker changes
into that directory when archives were shipped).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from typing import Any, Optional, Set

_shipped: Set[str] = set()
_shipped_names: Set[str] = set()
_archives: Set[int] = set()


def _zip_directory(directory: str) -> str:
    """A zip of ``directory`` whose entries are relative to it (packages importable from the zip)."""
    name = os.path.basename(os.path.normpath(directory)) or "python_files"
    out_dir = tempfile.mkdtemp(prefix="pyflink_table_files_")
    target = os.path.join(out_dir, name + ".zip")
    parent = os.path.dirname(os.path.normpath(directory))
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for root, _dirs, files in os.walk(directory):
            for f in files:
                if f.endswith(".pyc"):
                    continue
                full = os.path.join(root, f)
                # A directory holding __init__.py is a package: keep its name in the zip.
                base = parent if os.path.exists(os.path.join(directory, "__init__.py")) else directory
                zf.write(full, os.path.relpath(full, base))
    return target


def add_python_file(sc: Any, file_path: str) -> None:
    """Ship a .py file, a zip/egg, or a directory (zipped) to the workers' sys.path."""
    from pyflink_table.errors import ValidationException

    path = os.path.abspath(file_path)
    if not os.path.exists(path):
        raise ValidationException(f"Python file '{file_path}' does not exist.")
    if path in _shipped:
        return
    shipped = _zip_directory(path) if os.path.isdir(path) else path
    name = os.path.basename(shipped)
    if name in _shipped_names:
        # Spark refuses a second file of the same name; ship it under a unique one (a later file
        # comes first on the workers' sys.path, so its modules win, as PyFlink's later files do)
        shipped = _unique_copy(shipped, len(_shipped))
    sc.addPyFile(shipped)
    _shipped.add(path)
    _shipped_names.add(name)


def _unique_copy(path: str, n: int) -> str:
    """``path`` under a name no other shipped file has (``n`` counts the files shipped before):
    a .py file in a zip, other files copied."""
    out_dir = tempfile.mkdtemp(prefix="pyflink_table_files_")
    base = os.path.basename(path)
    if base.endswith(".py"):
        target = os.path.join(out_dir, f"pyfile{n}_{base[:-3]}.zip")
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.write(path, base)
        return target
    target = os.path.join(out_dir, f"pyfile{n}_{base}")
    shutil.copyfile(path, target)
    return target


def set_python_requirements(sc: Any, requirements_file: str, cache_dir: Optional[str]) -> None:
    """pip-install ``requirements_file`` into a directory and ship it as a zip on sys.path."""
    from pyflink_table.errors import TableException, ValidationException

    if not os.path.exists(requirements_file):
        raise ValidationException(f"Requirements file '{requirements_file}' does not exist.")
    target = tempfile.mkdtemp(prefix="pyflink_table_requirements_")
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
               "--target", target, "-r", requirements_file]
    if cache_dir:
        # offline: source packages of the cache are built with this interpreter's setuptools
        # (an isolated build would have to download its build requirements)
        command += ["--no-index", "--find-links", cache_dir, "--no-build-isolation"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise TableException(f"Installing Python requirements from '{requirements_file}' failed:\n"
                             f"{done.stderr.strip()}")
    # a name of its own per call: Spark refuses a second, different file of the same name
    from pyflink_table._worker.lifecycle import REQUIREMENTS_ARCHIVE_PREFIX

    archive = os.path.join(tempfile.mkdtemp(prefix="pyflink_table_requirements_zip_"),
                           f"{REQUIREMENTS_ARCHIVE_PREFIX}{len(_shipped)}.zip")
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for root, _dirs, files in os.walk(target):
            for f in files:
                full = os.path.join(root, f)
                zf.write(full, os.path.relpath(full, target))
    shutil.rmtree(target, ignore_errors=True)
    sc.addPyFile(archive)
    _shipped.add(archive)


def add_python_archive(sc: Any, archive_path: str, target_dir: Optional[str]) -> None:
    """Ship an archive, extracted in the workers under ``target_dir`` (default: its file name)."""
    from pyflink_table.errors import ValidationException

    path = os.path.abspath(archive_path)
    if not os.path.exists(path):
        raise ValidationException(f"Python archive '{archive_path}' does not exist.")
    key = f"{path}#{target_dir}" if target_dir else path
    if key in _shipped:
        return
    sc.addArchive(key)
    _shipped.add(key)
    _archives.add(id(sc))


def has_archives(sc: Any) -> bool:
    """True when archives were shipped on ``sc`` (the workers then work in the files directory)."""
    return id(sc) in _archives


def apply_option(sc: Any, key: str, value: str) -> None:
    """``python.files`` (comma-separated), ``python.archives`` (``path[#dir]``, comma-separated) or
    ``python.requirements`` (``file[#cache_dir]``)."""
    if key == "python.files":
        for item in value.split(","):
            if item.strip():
                add_python_file(sc, item.strip())
    elif key == "python.archives":
        for item in value.split(","):
            if item.strip():
                path, _, target = item.strip().partition("#")
                add_python_archive(sc, path, target or None)
    elif key == "python.requirements":
        if ("requirements", value) in _requirements_done:
            return
        path, _, cache = value.partition("#")
        set_python_requirements(sc, path, cache or None)
        _requirements_done.add(("requirements", value))


_requirements_done: Set[Any] = set()
