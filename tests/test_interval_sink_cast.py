"""An INTERVAL column inserted into an integer sink column, as Flink's INSERT casts it.

Expected values were measured on PyFlink 2.3 (from_elements with an INTERVAL SECOND(3) column,
inserted into a filesystem csv sink of each column type): whole seconds truncated toward zero,
wrapped to the column's width; DOUBLE, STRING, BOOLEAN and TIMESTAMP columns are refused.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any, List

import pytest

from pyflink_table import DataTypes
from pyflink_table.errors import ValidationException

VALUES = [datetime.timedelta(days=1, microseconds=10), datetime.timedelta(seconds=1.5),
          datetime.timedelta(seconds=-1.5), datetime.timedelta(milliseconds=999), datetime.timedelta(days=30000), None]


def _insert(t_env: Any, tmp_path: Path, column_type: str) -> List[str]:
    t = t_env.from_elements([(v,) for v in VALUES], DataTypes.ROW([DataTypes.FIELD("h", DataTypes.INTERVAL(DataTypes.SECOND(3)))]))
    t_env.execute_sql(f"CREATE TABLE interval_sink (h {column_type}) WITH ('connector'='filesystem', "
                      f"'path'='{tmp_path}', 'format'='csv')")
    t.execute_insert("interval_sink").wait()
    lines: List[str] = []
    for f in sorted(tmp_path.rglob("*")):
        if f.is_file() and not f.name.startswith((".", "_")):
            lines += f.read_text().splitlines()
    return sorted(lines)


@pytest.mark.parametrize("column_type,expected", [
    ("INT", ["86400", "1", "-1", "0", "-1702967296", ""]),
    ("BIGINT", ["86400", "1", "-1", "0", "2592000000", ""]),
    ("TINYINT", ["-128", "1", "-1", "0", "0", ""]),
    ("SMALLINT", ["20864", "1", "-1", "0", "-14336", ""]),
])
def test_interval_into_integer_column_gives_whole_seconds(t_env: Any, tmp_path: Path, column_type: str,
                                                          expected: List[str]) -> None:
    assert _insert(t_env, tmp_path, column_type) == sorted(expected)


@pytest.mark.parametrize("column_type", ["DOUBLE", "STRING", "BOOLEAN", "TIMESTAMP(3)"])
def test_interval_into_other_columns_is_refused(t_env: Any, tmp_path: Path, column_type: str) -> None:
    with pytest.raises(ValidationException, match="incompatible types for sink column 'h'"):
        _insert(t_env, tmp_path, column_type)
