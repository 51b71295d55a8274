"""Both type parsers (pyflink_table.types in Python, FlinkTypes in the bridge) read the shared list
tests/type_strings.txt the same way: each written form gives its canonical form, or is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any, List, Optional, Tuple

import pytest

from pyflink_table.java_gateway import bridge
from pyflink_table.types import parse_type_string, to_type_string

_FILE = Path(__file__).with_name("type_strings.txt")


def _cases() -> List[Tuple[str, Optional[str]]]:
    """(written form, canonical form or None where both parsers must refuse it)."""
    cases: List[Tuple[str, Optional[str]]] = []
    for line in _FILE.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("!"):
            cases.append((line[1:].strip(), None))
            continue
        written, _, canonical = line.partition("|")
        cases.append((written.strip(), canonical.strip() or written.strip()))
    return cases


def test_the_list_has_both_kinds() -> None:
    cases = _cases()
    assert len(cases) > 60
    assert any(c is None for _, c in cases) and any(c is not None for _, c in cases)


@pytest.mark.parametrize("written,canonical", _cases())
def test_python_parser(written: str, canonical: Optional[str]) -> None:
    if canonical is None:
        with pytest.raises(ValueError):
            parse_type_string(written)
    else:
        assert to_type_string(parse_type_string(written)) == canonical


def test_java_parser(t_env: Any) -> None:
    flink_types = bridge().types.FlinkTypes
    for written, canonical in _cases():
        try:
            read: Optional[str] = flink_types.parse(written).fullFlinkType()
        except Exception:  # noqa: BLE001 - Py4J wraps the bridge's ValidationException
            read = None
        assert read == canonical, written
