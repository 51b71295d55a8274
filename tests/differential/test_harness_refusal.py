"""``Comparison.assert_same_refusal``: both sides must raise, with the same kind and the same first
message line once PyFlink's Java class name is removed (or the same start, when asked)."""

from typing import Any, Dict, List, Optional

import pytest

from harness import Comparison


def result(error: Optional[List[str]]) -> Dict[str, Any]:
    return {"rows": None if error else [], "columns": None if error else [], "stdout": "", "error": error}


PYFLINK = ["TableException", "org.apache.flink.table.api.TableException: The window can only be ordered in ASCENDING mode."]


def compare(ours: Optional[List[str]], pyflink: Optional[List[str]] = PYFLINK) -> Comparison:
    return Comparison({"p": ""}, {"p": result(pyflink)}, {"p": result(ours)})


def test_the_same_message_without_the_java_class_passes() -> None:
    compare(["TableException", "The window can only be ordered in ASCENDING mode."]).assert_same_refusal("p")


@pytest.mark.parametrize("ours", [
    None,  # ours runs
    ["ValidationException", "The window can only be ordered in ASCENDING mode."],  # another kind
    ["TableException", "The window can only be ordered."],  # another message
    ["TableException", "org.apache.flink.table.api.TableException: The window can only be ordered in ASCENDING mode."],
])
def test_a_different_outcome_fails(ours: Optional[List[str]]) -> None:
    with pytest.raises(AssertionError):
        compare(ours).assert_same_refusal("p")


def test_pyflink_running_fails() -> None:
    with pytest.raises(AssertionError):
        compare(["TableException", "x"], pyflink=None).assert_same_refusal("p", starts_with="")


def test_starts_with_compares_the_start_of_both_lines() -> None:
    ours = ["TableException", "The window can only be ordered in ASCENDING mode, not DESC."]
    compare(ours).assert_same_refusal("p", starts_with="The window can only be ordered in ")
    with pytest.raises(AssertionError):
        compare(ours).assert_same_refusal("p", starts_with="The window can only be ordered in ASCENDING mode, not")
    # The kind only.
    compare(["TableException", "Unsupported: DESC"]).assert_same_refusal("p", starts_with="")
    with pytest.raises(AssertionError):
        compare(["ValidationException", "Unsupported: DESC"]).assert_same_refusal("p", starts_with="")
