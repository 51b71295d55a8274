"""Sphinx configuration of the pyflink_table documentation.

Two parts are generated at build time so they cannot drift from the code:

* ``api/``: one reference page per public module of ``pyflink_table`` (every module whose name does
  not start with ``_``), found by listing the package, so new modules appear without editing here;
* ``_generated/options.rst``: the table of configuration options, from ``pyflink_table._options``.

Build: ``.venv/bin/python -m sphinx -W -b html docs docs/_build/html`` (``make docs``).
"""

from __future__ import annotations

import pkgutil
import sys
from pathlib import Path
from typing import List

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))

import pyflink_table  # noqa: E402  (after the path is set)
from pyflink_table import _options  # noqa: E402

project = "pyflink_table"
author = "pyflink_table contributors"
copyright = "the pyflink_table contributors; Apache Flink, Apache Spark and PyFlink are Apache Software Foundation projects"
release = pyflink_table.__version__
version = release

extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.viewcode"]
exclude_patterns = ["_build"]
html_theme = "alabaster"
html_theme_options = {"description": "PyFlink's Table API on Apache Spark", "fixed_sidebar": True}
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "show-inheritance": True}
# JVM handles and optional third-party types stay names; they need not resolve to pages.
nitpicky = False
napoleon_google_docstring = True
napoleon_numpy_docstring = False


def public_modules() -> List[str]:
    """Every public module of the package, in alphabetical order (the API reference's contents)."""
    found = []
    for info in pkgutil.iter_modules(pyflink_table.__path__):
        if not info.name.startswith("_") and not info.ispkg:
            found.append(f"pyflink_table.{info.name}")
    return sorted(found)


def _write_if_changed(path: Path, text: str) -> None:
    # Rewriting unchanged files would make Sphinx rebuild every page each time.
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def _api_pages() -> None:
    modules = public_modules()
    api = DOCS / "api"
    for stale in api.glob("pyflink_table.*.rst"):
        if stale.stem not in modules:
            stale.unlink()
    for module in modules:
        title = f"``{module}``"
        _write_if_changed(api / f"{module}.rst",
                          f"{title}\n{'=' * len(title)}\n\n.. automodule:: {module}\n")
    index = [
        "API reference",
        "=============",
        "",
        "Every public module of the package. The names of the top-level package ``pyflink_table``",
        "(``TableEnvironment``, ``DataTypes``, ``Row``, ...) are documented in the module that defines them;",
        ":doc:`pyflink_table` lists them.",
        "",
        ".. toctree::",
        "   :maxdepth: 1",
        "",
        "   pyflink_table",
    ] + [f"   {m}" for m in modules]
    _write_if_changed(api / "index.rst", "\n".join(index) + "\n")
    top = ["``pyflink_table``", "=================", "", ".. automodule:: pyflink_table", "   :no-members:", "",
           "Names exported by the package:", ""]
    for name in pyflink_table.__all__:
        obj = getattr(pyflink_table, name)
        top.append(f"* :py:obj:`{name} <{obj.__module__}.{obj.__qualname__}>`")
    _write_if_changed(api / "pyflink_table.rst", "\n".join(top) + "\n")


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _options_page() -> None:
    lines = [
        ".. list-table:: Flink options and the Spark settings they become",
        "   :header-rows: 1",
        "   :widths: 30 30 12 40",
        "",
        "   * - Flink option",
        "     - Spark setting",
        "     - Applied",
        "     - Meaning",
    ]
    for key in sorted(_options.OPTIONS):
        option = _options.OPTIONS[key]
        lines += [
            f"   * - ``{option.flink_key}``",
            f"     - ``{option.spark_key}``" if option.spark_key else "     - (none)",
            "     - at start-up" if option.static else "     - at once",
            f"     - {_cell(option.description)}",
        ]
    lines += [
        "",
        ".. list-table:: Options read by pyflink_table itself",
        "   :header-rows: 1",
        "   :widths: 35 65",
        "",
        "   * - Option",
        "     - Meaning",
    ]
    for key in sorted(_options.OWN_OPTIONS):
        lines += [f"   * - ``{key}``", f"     - {_cell(_options.OWN_OPTIONS[key])}"]
    _write_if_changed(DOCS / "_generated" / "options.rst", "\n".join(lines) + "\n")


_api_pages()
_options_page()
