"""The ``differential`` fixture: each test module's ``programs`` run once per side, then compared."""

from __future__ import annotations

from typing import Iterator

import pytest

from harness import Comparison, run_ours, run_pyflink


@pytest.fixture(scope="module")
def differential(request: pytest.FixtureRequest, _spark_started: None) -> Iterator[Comparison]:
    programs = getattr(request.module, "programs")
    yield Comparison(programs, run_pyflink(programs), run_ours(programs))
