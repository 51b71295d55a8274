"""The rows tests/reference/probe_windows.py runs on PyFlink 2.3, shared by the window tests.

Two keys, a row just before midnight, a tie at midnight for key a, a NULL value for key b; the time
field is TIMESTAMP(3).
"""

from __future__ import annotations

import datetime as dt
from typing import Any, List, Tuple

from pyflink_table import DataTypes

T = dt.datetime

DATA: List[Tuple[Any, ...]] = [
    ("a", 1, T(2024, 1, 1, 23, 55)),
    ("a", 2, T(2024, 1, 1, 23, 59, 59, 999000)),
    ("a", 3, T(2024, 1, 2, 0, 0)),
    ("a", 8, T(2024, 1, 2, 0, 0)),
    ("b", 4, T(2024, 1, 2, 0, 4, 0, 500000)),
    ("a", 5, T(2024, 1, 2, 0, 25)),
    ("b", 6, T(2024, 1, 2, 0, 31)),
    ("b", None, T(2024, 1, 2, 0, 32)),
]
SCHEMA = DataTypes.ROW([DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT()),
                        DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3))])
