"""``to_changelog()`` of updating tables over unbounded sources in streaming mode, compared with
PyFlink 2.3: the changes become insert-only rows (``+I``) whose first column ``op`` names their
kind, produced as the job runs (files are published while it runs, each file's rows awaited before
the next file is written).

By hand: a count per key over ``a,1 b,2 a,3`` gives INSERT a 1, INSERT b 1, UPDATE_BEFORE a 1,
UPDATE_AFTER a 2; ``b,5`` then UPDATE_BEFORE b 1, UPDATE_AFTER b 2. A left join's padded row is
deleted (DELETE) when its first match arrives.
"""

import pytest

from harness import (JOIN_TABLES, STREAMING_PRELUDE, Comparison, differential,  # noqa: F401 - the fixture
                     monitored_table)

COUNTS = (STREAMING_PRELUDE + "from pyflink.table.expressions import col\n"
          "d = tempfile.mkdtemp()\n"
          + monitored_table("src", "k STRING, v INT")
          + "counts = t_env.from_path('src').group_by(col('k')).select(col('k'), col('v').count.alias('c'))\n")

programs = {
    # A filter on the kind: the UPDATE_BEFORE rows are dropped like any other rows.
    "count_filtered_by_kind": COUNTS
    + "it = counts.to_changelog().where(col('op') != 'UPDATE_BEFORE').execute().collect()\n"
    "publish_file(d, 'f1.csv', 'a,1\\nb,2\\na,3\\n')\n"
    "take(it, 3)\n"
    "publish_file(d, 'f2.csv', 'b,5\\n')\n"
    "take(it, 1)\n"
    "it.close()\n",
    # Projected: the kind and the count only.
    "count_projected": COUNTS
    + "it = counts.to_changelog().select(col('op'), col('c')).execute().collect()\n"
    "publish_file(d, 'f1.csv', 'a,1\\n')\n"
    "take(it, 1)\n"
    "publish_file(d, 'f2.csv', 'a,2\\nb,3\\n')\n"
    "take(it, 3)\n"
    "it.close()\n",
    # SQL's GROUP BY, its changelog as a table.
    "sql_sum": COUNTS
    + "it = t_env.sql_query('SELECT k, SUM(v) AS s FROM src GROUP BY k').to_changelog().execute().collect()\n"
    "publish_file(d, 'f1.csv', 'a,1\\n')\n"
    "take(it, 1)\n"
    "publish_file(d, 'f2.csv', 'a,2\\n')\n"
    "take(it, 2)\n"
    "it.close()\n",
    # The schema: COUNT stays NOT NULL, the sum nullable, over unbounded and bounded input.
    "count_schema": COUNTS
    + "counts.to_changelog().print_schema()\n"
    "t_env.sql_query('SELECT k, COUNT(*) AS c, SUM(v) AS s FROM src GROUP BY k').to_changelog().print_schema()\n"
    "b = t_env.from_elements([('a', 1)], ['k', 'v'])\n"
    "b.group_by(col('k')).select(col('k'), col('v').count.alias('c')).to_changelog().print_schema()\n",
    # A left join: the padded row's DELETE when the first match arrives.
    "left_join_deletes": STREAMING_PRELUDE + JOIN_TABLES
    + "it = t_env.sql_query('SELECT k, a, b FROM l LEFT JOIN r ON k = k2').to_changelog().execute().collect()\n"
    "publish(dl, 'a,1\\n')\n"
    "take(it, 1)\n"
    "publish(dr, 'a,10\\n')\n"
    "take(it, 2)\n"
    "it.close()\n",
}


@pytest.mark.parametrize("name", sorted(programs))
def test_same_as_pyflink(differential: Comparison, name: str) -> None:
    differential.assert_same(name)
