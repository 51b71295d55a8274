"""``SqlDialect``: the SQL grammar an environment parses."""

from __future__ import annotations

from enum import IntEnum

__all__ = ["SqlDialect"]


class SqlDialect(IntEnum):
    """SQL compatibility modes; the values equal PyFlink's plain constants.

    - ``DEFAULT``: Flink SQL, read by Spark's SQL parser (which accepts most Flink queries).
    - ``HIVE``: Hive's grammar. Not available here: selecting it raises
      :class:`~pyflink_table.TableException`.
    """

    DEFAULT = 0
    HIVE = 1

    def __str__(self) -> str:
        return str(self.value)
