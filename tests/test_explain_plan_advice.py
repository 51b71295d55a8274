"""ExplainDetail.PLAN_ADVICE: the section and advice PyFlink 2.3 prints (measured there with the same
programs: /tmp scripts running ``Table.explain(ExplainDetail.PLAN_ADVICE)`` in both modes)."""

from __future__ import annotations

from typing import Iterator

import pytest

from pyflink_table import EnvironmentSettings, TableEnvironment, TableException
from pyflink_table.explain_detail import ExplainDetail

SECTION = "== Optimized Physical Plan With Advice =="
NO_ADVICE = "No available advice..."
# PyFlink 2.3, streaming group_by(...).select(sum) and a global sum without mini-batch, verbatim.
TWO_PHASE = ("advice[1]: [ADVICE] You might want to enable local-global two-phase optimization by configuring "
             "('table.exec.mini-batch.enabled' to 'true', 'table.exec.mini-batch.allow-latency' to a positive long "
             "value, 'table.exec.mini-batch.size' to a positive long value).")


@pytest.fixture()
def s_env(_spark_started: None) -> Iterator[TableEnvironment]:
    yield TableEnvironment.create(EnvironmentSettings.in_streaming_mode())


def test_streaming_plan_advice_as_pyflink(s_env: TableEnvironment) -> None:
    t = s_env.from_elements([(1, "Hi", "Hello")], ["a", "b", "c"])
    for plain in (t.select(t.a + 1, t.b), t.where(t.a > 0)):
        text = plain.explain(ExplainDetail.PLAN_ADVICE)
        assert SECTION in text and NO_ADVICE in text and "[ADVICE]" not in text
    for grouped in (t.group_by(t.c).select(t.a.sum, t.c.alias("b")), t.select(t.a.sum),
                    t.group_by(t.c).select(t.a.count.distinct, t.c)):
        text = grouped.explain(ExplainDetail.CHANGELOG_MODE, ExplainDetail.PLAN_ADVICE)
        assert SECTION in text and TWO_PHASE in text and NO_ADVICE not in text
    assert SECTION not in t.group_by(t.c).select(t.a.sum).explain()
    # PyFlink 2.3 with mini-batch configured: the same aggregation has no advice.
    s_env.get_config().set("table.exec.mini-batch.enabled", "true")
    s_env.get_config().set("table.exec.mini-batch.allow-latency", "1s")
    s_env.get_config().set("table.exec.mini-batch.size", "100")
    text = t.group_by(t.c).select(t.a.sum, t.c.alias("b")).explain(ExplainDetail.PLAN_ADVICE)
    assert SECTION in text and NO_ADVICE in text and "[ADVICE]" not in text
    assert isinstance(s_env.explain_sql("SELECT * FROM (VALUES ('a', 1))", ExplainDetail.ESTIMATED_COST,
                                        ExplainDetail.CHANGELOG_MODE, ExplainDetail.JSON_EXECUTION_PLAN,
                                        ExplainDetail.PLAN_ADVICE), str)


def test_batch_plan_advice_refused_as_pyflink(t_env: TableEnvironment) -> None:
    # PyFlink 2.3: "EXPLAIN PLAN_ADVICE is not supported under batch mode." for every batch query.
    t = t_env.from_elements([(1, "Hi", "Hello")], ["a", "b", "c"])
    with pytest.raises(TableException, match="EXPLAIN PLAN_ADVICE is not supported under batch mode"):
        t.select(t.a).explain(ExplainDetail.PLAN_ADVICE)
