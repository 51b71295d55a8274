"""Session windows over a bounded source in streaming mode (a CSV table without a monitor
interval), compared with PyFlink 2.3 (issue 15).

The bridge computes a bounded stream's sessions over rows regrouped by key, while late rows are
judged in the file's order: before the fix a key whose rows sorted after another key's later rows
was judged late and lost (b here)."""

import pytest

from harness import STREAMING_PRELUDE, Comparison, differential, python_aggregates  # noqa: F401

# b, 7 at 00:07 comes after a, 4 at 00:12 (watermark 00:11 with the 1 s delay).
LATE_B = ("a,1,1970-01-01 00:00:01\\na,2,1970-01-01 00:00:03\\nb,3,1970-01-01 00:00:06\\n"
          "a,4,1970-01-01 00:00:12\\nb,7,1970-01-01 00:00:07\\na,5,1970-01-01 00:00:13\\n")
IN_ORDER = ("a,1,1970-01-01 00:00:01\\na,2,1970-01-01 00:00:03\\nb,3,1970-01-01 00:00:06\\n"
            "b,7,1970-01-01 00:00:07\\na,4,1970-01-01 00:00:12\\na,5,1970-01-01 00:00:13\\n")


def bounded_session(rows: str, select: str) -> str:
    return (STREAMING_PRELUDE + "from pyflink.table.window import Session\n" + python_aggregates(merge=True)
            + "d = tempfile.mkdtemp()\n"
            + f"publish_file(d, 'f.csv', '{rows}')\n"
            + "t_env.execute_sql(\"CREATE TABLE evb (k STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - \"\n"
            + "                  \"INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '\" + d + \"', \"\n"
            + "                  \"'format' = 'csv')\")\n"
            + "w = t_env.from_path('evb').window(Session.with_gap(lit(2).seconds).on(col('ts')).alias('w'))\n"
            + f"result = w.group_by(col('w'), col('k')).select({select})\n")


programs = {
    # Built-ins only: b's session [00:06, 00:09) was lost.
    "builtin_in_order": bounded_session(IN_ORDER, "col('k'), col('w').end, col('v').sum, col('v').count"),
    # A general Python aggregate next to built-ins: PyFlink's Python window operator counts the
    # late b, 7 (b, 00:09, 10, 10).
    "mixed_late_row": bounded_session(LATE_B, "col('k'), col('w').end, col('v').sum, total(col('v'))"),
}


@pytest.mark.parametrize("name", sorted(programs))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same(name)
