"""The watermark of a stream group window is the source's (Flink assigns it at the scan): a row the
query's ``WHERE`` drops still advances it and fires a window, compared with PyFlink 2.3 while files
are published (SQL ``GROUP BY TUMBLE`` and the Table API's ``filter`` before ``window``)."""

import pytest

from harness import STREAMING_PRELUDE, Comparison, collect_while_publishing, differential, event_table  # noqa: F401

SETUP = STREAMING_PRELUDE + event_table() + """
from pyflink.table.expressions import col, lit
from pyflink.table.window import Tumble
"""
# Only b's rows move the watermark past a's windows: b at 00:07 makes it 00:06, so a [0, 5) fires
# after the first file although b's rows are filtered out; b at 00:17 fires a [10, 15) the same way
# (a watermark from a's rows alone would be 00:00, then 00:11: no window would fire).
FILES = ("a,1,1970-01-01 00:00:01\\nb,9,1970-01-01 00:00:07\\n", "a,2,1970-01-01 00:00:12\\nb,9,1970-01-01 00:00:17\\n")

programs = {
    "sql_filtered_row_advances_watermark": SETUP + collect_while_publishing(
        "it = t_env.execute_sql(\"SELECT k, TUMBLE_START(ts, INTERVAL '5' SECOND) AS s, SUM(v) AS t FROM ev "
        "WHERE k = 'a' GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND)\").collect()\n", (1, 1), FILES),
    "table_filtered_row_advances_watermark": SETUP + collect_while_publishing(
        "it = t_env.from_path('ev').filter(col('k') == 'a').window(Tumble.over(lit(5).seconds).on(col('ts'))"
        ".alias('w')).group_by(col('k'), col('w')).select(col('k'), col('w').start, col('v').sum)"
        ".execute().collect()\n", (1, 1), FILES),
}


@pytest.mark.parametrize("name", sorted(programs))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    assert differential.pyflink[name]["error"] is None, differential.pyflink[name]
    differential.assert_same(name)
    # The expected rows, by hand: a [0, 5) with 1, then a [10, 15) with 2.
    assert differential.ours[name]["stdout"] == ("[['+I', 'a', '1970-01-01 00:00:00', '1']]\n"
                                                 "[['+I', 'a', '1970-01-01 00:00:10', '2']]\n")
