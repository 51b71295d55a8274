"""Documentation: every public name has a docstring, and the Sphinx reference builds with -W."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator, List, Tuple

import pyflink_table
from pyflink_table import _options

ROOT = Path(__file__).resolve().parent.parent


def _public_modules() -> List[ModuleType]:
    names = ["pyflink_table"] + [f"pyflink_table.{m.name}" for m in pkgutil.iter_modules(pyflink_table.__path__)
                                 if not m.name.startswith("_") and not m.ispkg]
    return [importlib.import_module(n) for n in names]


def _public_names(module: ModuleType) -> List[str]:
    exported = getattr(module, "__all__", None)
    if exported is not None:
        return list(exported)
    # Without __all__, the public names are those the module defines itself (not its imports).
    return [n for n, v in vars(module).items() if not n.startswith("_")
            and getattr(v, "__module__", None) == module.__name__]


def _class_members(cls: type) -> Iterator[Tuple[str, Any]]:
    """Public methods and properties the class itself defines (inherited ones are checked where defined)."""
    for name, value in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if isinstance(value, property) or inspect.isfunction(value):
            yield name, value
        elif inspect.isclass(value) and value.__qualname__.startswith(cls.__qualname__ + "."):
            yield name, value  # nested classes such as EnvironmentSettings.Builder


def _missing_docstrings(obj: Any, path: str) -> Iterator[str]:
    if not (inspect.getdoc(obj) or "").strip():
        yield path
    if inspect.isclass(obj):
        for name, member in _class_members(obj):
            yield from _missing_docstrings(member, f"{path}.{name}")


def test_every_public_name_has_a_docstring() -> None:
    missing: List[str] = []
    for module in _public_modules():
        if not (module.__doc__ or "").strip():
            missing.append(module.__name__)
        for name in _public_names(module):
            obj = getattr(module, name)
            if getattr(obj, "__module__", module.__name__) != module.__name__:
                continue  # re-exported: checked in the module that defines it
            if inspect.isclass(obj) or inspect.isfunction(obj):
                missing.extend(_missing_docstrings(obj, f"{module.__name__}.{name}"))
    assert not missing, "public names without a docstring:\n  " + "\n  ".join(sorted(set(missing)))


def test_sphinx_builds_the_reference_without_warnings(tmp_path: Path) -> None:
    out = tmp_path / "html"
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-E", "-b", "html",
                           str(ROOT / "docs"), str(out)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-5000:]
    # One reference page per public module, each with its module docstring's first words.
    for module in _public_modules():
        page = out / "api" / f"{module.__name__}.html"
        assert page.exists(), f"no reference page for {module.__name__}"
    table_page = (out / "api" / "pyflink_table.table.html").read_text()
    assert "Table.select" in table_page or 'id="pyflink_table.table.Table.select"' in table_page
    # The configuration page lists every option and the Spark setting it becomes.
    config_page = (out / "configuration.html").read_text()
    for key, option in _options.OPTIONS.items():
        assert key in config_page, key
        if option.spark_key:
            assert option.spark_key in config_page, option.spark_key
    for key in _options.OWN_OPTIONS:
        assert key in config_page, key
    for page in ("getting_started", "porting", "command_line", "udfs", "pandas_udfs", "windows", "connectors",
                 "sql"):
        assert (out / f"{page}.html").exists(), page
