"""A PyFlink program using every Python function kind, run on the loopback cluster by test_cluster.py.

``python cluster_job.py OUT HELPER_DIR [MASTER PYTHON]``: with MASTER and PYTHON the program sets
``spark.master`` and ``python.executable`` itself; without them the launcher chooses (``pyflink-table
run --master`` or ``spark-submit --master``). It writes its results as JSON to OUT.
"""

import json
import os
import sys

import pandas as pd

from pyflink_table import Configuration, DataTypes, EnvironmentSettings, TableEnvironment
from pyflink_table.expressions import col
from pyflink_table.udf import AggregateFunction, TableAggregateFunction, udaf, udf, udtaf, udtf

out, helper_dir = sys.argv[1], sys.argv[2]
config = Configuration()
if len(sys.argv) > 3:
    config.set_string("spark.master", sys.argv[3])
    config.set_string("python.executable", sys.argv[4])
t_env = TableEnvironment.create(EnvironmentSettings.new_instance().in_batch_mode().with_configuration(config).build())
t_env.add_python_file(os.path.join(helper_dir, "cluster_helper.py"))

t = t_env.from_elements([(1, "a b", 1.0), (2, "b", 2.0), (3, "a", 3.0), (4, "b c", 4.0), (5, "a", 5.0)],
                        ["id", "words", "v"])


@udf(result_type=DataTypes.BIGINT())
def shifted(x):
    import cluster_helper  # shipped with add_python_file

    return cluster_helper.shift(x)


@udf(result_type=DataTypes.DOUBLE(), func_type="pandas")
def halved(s: pd.Series) -> pd.Series:
    return s / 2


@udtf(result_types=[DataTypes.STRING()])
def split(s):
    for w in s.split(" "):
        yield w


@udaf(result_type=DataTypes.DOUBLE(), func_type="pandas")
def mean(s: pd.Series) -> float:
    return float(s.mean())


class Total(AggregateFunction):
    def create_accumulator(self):
        return [0.0]

    def accumulate(self, acc, v):
        acc[0] += v

    def get_value(self, acc):
        return acc[0]


class Top2(TableAggregateFunction):
    def create_accumulator(self):
        return []

    def accumulate(self, acc, v):
        acc.append(v)

    def emit_value(self, acc):
        for v in sorted(acc, reverse=True)[:2]:
            yield v


total = udaf(Total(), result_type=DataTypes.DOUBLE(), accumulator_type=DataTypes.ARRAY(DataTypes.DOUBLE()))
top2 = udtaf(Top2(), result_type=DataTypes.DOUBLE(), accumulator_type=DataTypes.ARRAY(DataTypes.DOUBLE()))


@udf(result_type=DataTypes.STRING())
def where(x):
    # Where the Python worker runs: its interpreter and where it found the package.
    import logging

    import pyflink_table

    logging.getLogger("cluster_job").info("CLUSTER-LOG-MARKER %s", x)
    return f"{sys.executable}|{pyflink_table.__file__}"


def rows(table):
    return sorted([list(r) for r in table.execute().collect()], key=str)


k = col("id") % 2
results = {
    "master": t_env._spark.sparkContext.master,
    "udf": rows(t.select(col("id"), shifted(col("id")))),
    "pandas_udf": rows(t.select(col("id"), halved(col("v")))),
    "udtf": rows(t.join_lateral(split(col("words")).alias("w")).select(col("id"), col("w"))),
    "pandas_udaf": rows(t.group_by(k.alias("k")).select(col("k"), mean(col("v")))),
    "general_udaf": rows(t.group_by(k.alias("k")).select(col("k"), total(col("v")))),
    "flat_aggregate": rows(t.add_columns(k.alias("k")).group_by(col("k")).flat_aggregate(top2(col("v")).alias("t"))
                           .select(col("k"), col("t"))),
    "where": rows(t.select(where(col("id"))).distinct()),
}
with open(out, "w") as f:
    json.dump(results, f)
