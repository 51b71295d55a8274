"""Notebook feedback: ``Table._repr_html_`` is a bounded, escaped HTML preview with names and types."""

from __future__ import annotations

import re

from pyflink_table import TableEnvironment
from pyflink_table.expressions import col


def _cells(html_text: str, tag: str) -> list[str]:
    return re.findall(rf"<{tag}>(.*?)</{tag}>", html_text)


def test_repr_html_previews_the_first_rows(t_env: TableEnvironment) -> None:
    many = t_env.from_elements([(i, f"<w{i}>", None if i == 0 else i / 2) for i in range(12)], ["id", "word", "half"])
    html_text = many.order_by(col("id"))._repr_html_()
    # Header: every column with its Flink type (from_elements infers BIGINT, STRING, DOUBLE).
    assert _cells(html_text, "th") == ["id<br><small>BIGINT</small>", "word<br><small>STRING</small>",
                                       "half<br><small>DOUBLE</small>"]
    # Bounded: 10 of the 12 rows, and a note saying so.
    cells = _cells(html_text, "td")
    assert len(cells) == 10 * 3
    # Values as Flink prints them (NULL as <NULL>), HTML-escaped; hand-computed from the input.
    assert cells[:6] == ["0", "&lt;w0&gt;", "&lt;NULL&gt;", "1", "&lt;w1&gt;", "0.5"]
    assert cells[-3:] == ["9", "&lt;w9&gt;", "4.5"]
    assert "first 10 rows shown" in html_text

    small = many.where(col("id") < 2)._repr_html_()
    assert len(_cells(small, "td")) == 2 * 3 and "2 rows" in small and "first 10" not in small
    empty = many.where(col("id") < 0)._repr_html_()
    assert _cells(empty, "td") == [] and "Empty set" in empty
