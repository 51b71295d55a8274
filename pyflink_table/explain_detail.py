"""``ExplainDetail``: extra sections asked of :meth:`~pyflink_table.Table.explain`."""

from __future__ import annotations

from enum import IntEnum

__all__ = ["ExplainDetail"]


class ExplainDetail(IntEnum):
    """What :meth:`~pyflink_table.Table.explain` adds to Spark's plans.

    The values equal PyFlink's plain constants (0 to 3), so programs comparing them keep working.

    - ``ESTIMATED_COST``: the optimised plan annotated with Spark's size and row-count estimates.
    - ``CHANGELOG_MODE``: accepted and adds nothing: batch tables only insert, and Flink's batch
      plans carry no changelog annotations either.
    - ``JSON_EXECUTION_PLAN``: Spark's physical plan as JSON, in a section
      ``== Physical Execution Plan ==`` as Flink names it.
    - ``PLAN_ADVICE``: streaming mode only (Flink refuses it in batch mode, and so does this
      package): a section ``== Optimized Physical Plan With Advice ==`` with Flink's advice to
      enable mini-batch for group aggregations, else ``No available advice...``.
    """

    ESTIMATED_COST = 0
    CHANGELOG_MODE = 1
    JSON_EXECUTION_PLAN = 2
    PLAN_ADVICE = 3

    def __str__(self) -> str:
        return str(self.value)
