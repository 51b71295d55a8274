"""Makes the ``differential`` fixture (see ``harness.py``) available to every module here.

Both this file and ``tests/conftest.py`` are imported as the module ``conftest``; whichever ends
up in ``sys.modules``, ``from conftest import rows, sorted_rows`` must keep working for the tests
outside this folder, so those helpers are re-exported from the parent conftest.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from harness import differential  # noqa: F401 - registers the fixture for this folder

_spec = importlib.util.spec_from_file_location("_tests_parent_conftest", Path(__file__).resolve().parents[1] / "conftest.py")
assert _spec is not None and _spec.loader is not None
_parent = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_parent)
rows = _parent.rows
sorted_rows = _parent.sorted_rows
