"""UDF logging (FLIP-58): what a Python function logs or prints in a Spark worker reaches the driver.

Every function kind logs a tag that is unique to its test; the records are caught on the driver
through the logger ``pyflink_table.udf``, printed lines on the driver's stdout. Expected names,
tasks and levels come from the test's own inputs: the function's declared name, Spark's task
numbering pattern, and Python's level rules.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from typing import Any, Iterator, List

import pandas as pd
import pytest

from pyflink_table import (DataTypes, EnvironmentSettings, Row, TableAggregateFunction, TableEnvironment,
                           TableException)
from pyflink_table import _udf_logs
from pyflink_table._worker import udf_logging
from pyflink_table.expressions import col, lit, row_interval
from pyflink_table.udf import AggregateFunction, TableFunction, udaf, udf, udtaf, udtf
from pyflink_table.window import Over

from conftest import sorted_rows

TASK = re.compile(r"task \d+\.\d+ in stage \d+ \(TID \d+\)")


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.NOTSET)
        self.records: List[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture()
def caught() -> Iterator[_Collect]:
    handler = _Collect()
    logger = logging.getLogger(_udf_logs.LOGGER_NAME)
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


def _tag() -> str:
    return uuid.uuid4().hex[:12]


def _logged(caught: _Collect, tag: str) -> List[logging.LogRecord]:
    _udf_logs.drain()
    return [r for r in caught.records if tag in getattr(r, "udf_message", "")]


def _check(records: List[logging.LogRecord], function: str, expected_messages: List[str]) -> None:
    assert sorted(r.udf_message for r in records) == sorted(expected_messages)  # type: ignore[attr-defined]
    for r in records:
        assert r.udf_function == function and r.udf_logger == "udf.test"  # type: ignore[attr-defined]
        assert TASK.fullmatch(r.udf_task), r.udf_task  # type: ignore[attr-defined]
        assert r.levelname == "INFO" and r.name == "pyflink_table.udf"
        assert r.getMessage() == f"[{function}, {r.udf_task}] udf.test: {r.udf_message}"  # type: ignore[attr-defined]


def _source(t_env: TableEnvironment) -> Any:
    return t_env.from_elements([(1, 5, "x y"), (1, 9, "z"), (2, 3, "u")], ["k", "v", "s"])


def test_scalar_function_logs_and_prints_reach_the_driver(t_env: TableEnvironment, caught: _Collect,
                                                          capsys: Any) -> None:
    tag = _tag()

    @udf(result_type=DataTypes.BIGINT(), name="plus_one")
    def plus_one(v: int) -> int:
        logging.getLogger("udf.test").info("%s saw %s", tag, v)
        logging.getLogger("udf.test").debug("%s debug is below the default INFO", tag)
        print(tag, "printed", v)
        return v + 1

    assert sorted_rows(_source(t_env).select(plus_one(col("v")))) == [(4,), (6,), (10,)]
    _check(_logged(caught, tag), "plus_one", [f"{tag} saw 3", f"{tag} saw 5", f"{tag} saw 9"])
    printed = [line for line in capsys.readouterr().out.splitlines() if tag in line]
    assert sorted(printed) == [f"{tag} printed 3", f"{tag} printed 5", f"{tag} printed 9"]


def test_pandas_scalar_function(t_env: TableEnvironment, caught: _Collect) -> None:
    tag = _tag()

    @udf(result_type=DataTypes.BIGINT(), func_type="pandas", name="doubled")
    def doubled(v: pd.Series) -> pd.Series:
        logging.getLogger("udf.test").info("%s batch of %d", tag, len(v))
        return v * 2

    assert sorted_rows(_source(t_env).select(doubled(col("v")))) == [(6,), (10,), (18,)]
    records = _logged(caught, tag)
    assert sum(int(r.udf_message.split()[-1]) for r in records) == 3  # type: ignore[attr-defined]
    _check(records, "doubled", [r.udf_message for r in records])  # type: ignore[attr-defined]


def test_table_function_in_lateral_join_and_flat_map(t_env: TableEnvironment, caught: _Collect) -> None:
    tag = _tag()

    class Split(TableFunction):
        def open(self, function_context: Any) -> None:
            logging.getLogger("udf.test").info("%s open", tag)

        def eval(self, s: str) -> Iterator[str]:
            logging.getLogger("udf.test").info("%s split %s", tag, s)
            yield from s.split(" ")

    split = udtf(Split(), result_types=DataTypes.STRING(), name="split")
    t = _source(t_env)
    assert sorted_rows(t.join_lateral(split(col("s")).alias("w")).select(col("w"))) == [("u",), ("x",), ("y",),
                                                                                        ("z",)]
    records = _logged(caught, tag)
    assert sorted(r.udf_message for r in records if "split" in r.udf_message) == [  # type: ignore[attr-defined]
        f"{tag} split u", f"{tag} split x y", f"{tag} split z"]
    _check(records, "split", [r.udf_message for r in records])  # type: ignore[attr-defined]
    assert any(r.udf_message == f"{tag} open" for r in records)  # type: ignore[attr-defined]

    caught.records.clear()
    assert sorted_rows(t.flat_map(split(col("s")))) == [("u",), ("x",), ("y",), ("z",)]
    assert len([r for r in _logged(caught, tag) if "split" in r.udf_message]) == 3  # type: ignore[attr-defined]


def _counting_aggregate(tag: str) -> Any:
    class Total(AggregateFunction):
        def create_accumulator(self) -> List[int]:
            return [0]

        def accumulate(self, accumulator: List[int], v: int) -> None:
            logging.getLogger("udf.test").info("%s add %s", tag, v)
            accumulator[0] += v

        def get_value(self, accumulator: List[int]) -> int:
            return accumulator[0]

    return udaf(Total(), result_type=DataTypes.BIGINT(), accumulator_type="ARRAY<BIGINT>", name="total")


def test_general_aggregate_in_group_by_and_over_window(t_env: TableEnvironment, caught: _Collect) -> None:
    tag = _tag()
    total = _counting_aggregate(tag)
    t = _source(t_env)
    assert sorted_rows(t.group_by(col("k")).select(col("k"), total(col("v")))) == [(1, 14), (2, 3)]
    _check(_logged(caught, tag), "total", [f"{tag} add 3", f"{tag} add 5", f"{tag} add 9"])

    # Over windows run the function as Spark's grouped aggregate (one call per frame).
    caught.records.clear()
    over = t.over_window(Over.partition_by(col("k")).order_by(col("v")).preceding(row_interval(1)).alias("w"))
    assert sorted_rows(over.select(col("v"), total(col("v")).over(col("w")))) == [(3, 3), (5, 5), (9, 14)]
    records = _logged(caught, tag)
    assert sorted(r.udf_message for r in records) == sorted(  # type: ignore[attr-defined]
        [f"{tag} add 3", f"{tag} add 5", f"{tag} add 5", f"{tag} add 9"])
    _check(records, "total", [r.udf_message for r in records])  # type: ignore[attr-defined]


def test_pandas_aggregate_and_row_based_aggregate(t_env: TableEnvironment, caught: _Collect) -> None:
    tag = _tag()

    def spread(v: pd.Series) -> Row:
        logging.getLogger("udf.test").info("%s group of %d", tag, len(v))
        return Row(int(v.min()), int(v.max()))

    min_max = udaf(spread, func_type="pandas", name="min_max",
                   result_type=DataTypes.ROW([DataTypes.FIELD("lo", DataTypes.BIGINT()),
                                              DataTypes.FIELD("hi", DataTypes.BIGINT())]))
    t = _source(t_env)
    result = t.group_by(col("k")).aggregate(min_max(col("v")).alias("lo", "hi")).select(col("k"), col("lo"), col("hi"))
    assert sorted_rows(result) == [(1, 5, 9), (2, 3, 3)]
    _check(_logged(caught, tag), "min_max", [f"{tag} group of 1", f"{tag} group of 2"])


def test_plain_pandas_aggregate_in_over_window_and_sql(t_env: TableEnvironment, caught: _Collect,
                                                       capsys: Any) -> None:
    # Spark plans these itself and calls the plain function as its grouped-aggregate pandas UDF.
    tag = _tag()

    def pandas_sum(v: pd.Series) -> int:
        logging.getLogger("udf.test").info("%s frame of %d", tag, len(v))
        print(f"{tag} printed")
        return int(v.sum())

    summed = udaf(pandas_sum, func_type="pandas", name="pandas_sum", result_type=DataTypes.BIGINT())
    t = _source(t_env)
    over = t.over_window(Over.partition_by(col("k")).order_by(col("v")).preceding(row_interval(1)).alias("w"))
    assert sorted_rows(over.select(col("v"), summed(col("v")).over(col("w")))) == [(3, 3), (5, 5), (9, 14)]
    records = _logged(caught, tag)
    assert len(records) >= 3  # one call per frame at least (Spark may evaluate a frame more than once)
    _check(records, "pandas_sum", [r.udf_message for r in records])  # type: ignore[attr-defined]
    assert {r.udf_message for r in records} == {f"{tag} frame of 1", f"{tag} frame of 2"}  # type: ignore[attr-defined]

    caught.records.clear()
    t_env.create_temporary_view("logged_source", t)
    t_env.create_temporary_function("pandas_sum", summed)
    result = t_env.sql_query("SELECT k, pandas_sum(v) FROM logged_source GROUP BY k")
    assert sorted_rows(result) == [(1, 14), (2, 3)]
    _check(_logged(caught, tag), "pandas_sum", [f"{tag} frame of 1", f"{tag} frame of 2"])
    assert f"{tag} printed" in capsys.readouterr().out


def test_table_aggregate_and_map(t_env: TableEnvironment, caught: _Collect) -> None:
    tag = _tag()

    class Largest(TableAggregateFunction):
        def create_accumulator(self) -> List[Any]:
            return [None]

        def accumulate(self, accumulator: List[Any], v: int) -> None:
            accumulator[0] = v if accumulator[0] is None else max(accumulator[0], v)

        def emit_value(self, accumulator: List[Any]) -> Iterator[Row]:
            logging.getLogger("udf.test").info("%s emit %s", tag, accumulator[0])
            yield Row(accumulator[0])

    largest = udtaf(Largest(), result_type=DataTypes.ROW([DataTypes.FIELD("m", DataTypes.BIGINT())]),
                    name="largest")
    t = _source(t_env)
    assert sorted_rows(t.group_by(col("k")).flat_aggregate(largest(col("v"))).select(col("k"), col("m"))) == [
        (1, 9), (2, 3)]
    _check(_logged(caught, tag), "largest", [f"{tag} emit 3", f"{tag} emit 9"])

    @udf(result_type=DataTypes.ROW([DataTypes.FIELD("a", DataTypes.BIGINT())]), name="as_row")
    def as_row(v: int) -> Row:
        logging.getLogger("udf.test").info("%s map %s", tag, v)
        return Row(v)

    caught.records.clear()
    assert sorted_rows(t.map(as_row(col("v")))) == [(3,), (5,), (9,)]
    _check(_logged(caught, tag), "as_row", [f"{tag} map 3", f"{tag} map 5", f"{tag} map 9"])


def test_streaming_mode(caught: _Collect) -> None:
    tag = _tag()
    st_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())

    @udf(result_type=DataTypes.STRING(), name="upper")
    def upper(s: str) -> str:
        logging.getLogger("udf.test").info("%s %s", tag, s)
        return s.upper()

    assert sorted_rows(_source(st_env).select(upper(col("s")))) == [("U",), ("X Y",), ("Z",)]
    _check(_logged(caught, tag), "upper", [f"{tag} u", f"{tag} x y", f"{tag} z"])


def test_levels_follow_pyflink_options(t_env: TableEnvironment, caught: _Collect) -> None:
    tag = _tag()

    @udf(result_type=DataTypes.BIGINT(), name="levels")
    def levels(v: int) -> int:
        logging.getLogger("udf.test").info("%s info", tag)
        logging.getLogger("udf.test").warning("%s warning", tag)
        logging.getLogger("udf.test.detail").debug("%s debug", tag)
        return v

    one = t_env.from_elements([(1,)], ["v"])
    t_env.get_config().set("python.logging.default.level", "WARN")
    assert sorted_rows(one.select(levels(col("v")))) == [(1,)]
    assert [(r.levelname, r.udf_message) for r in _logged(caught, tag)] == [  # type: ignore[attr-defined]
        ("WARNING", f"{tag} warning")]

    caught.records.clear()
    t_env.get_config().set("python.logging.level.overrides", "udf.test.detail:DEBUG")
    assert sorted_rows(one.select(levels(col("v")))) == [(1,)]
    assert sorted((r.levelname, r.udf_message) for r in _logged(caught, tag)) == [  # type: ignore[attr-defined]
        ("DEBUG", f"{tag} debug"), ("WARNING", f"{tag} warning")]

    t_env.get_config().set("python.logging.default.level", "LOUD")
    with pytest.raises(TableException, match="Invalid log level 'LOUD' for option python.logging.default.level"):
        one.select(levels(col("v"))).execute().collect()


def test_records_of_a_failing_function_arrive(t_env: TableEnvironment, caught: _Collect) -> None:
    tag = _tag()

    @udf(result_type=DataTypes.BIGINT(), name="fails")
    def fails(v: int) -> int:
        logging.getLogger("udf.test").info("%s before failing", tag)
        raise ValueError("bad value")

    with pytest.raises(Exception, match="bad value"):
        t_env.from_elements([(1,)], ["v"]).select(fails(col("v"))).execute().collect()
    assert [r.udf_message for r in _logged(caught, tag)][:1] == [f"{tag} before failing"]  # type: ignore[attr-defined]


def test_without_a_driver_to_reach_records_go_to_the_worker_stderr(capfd: Any) -> None:
    # The cluster path: outside a local-mode task the worker writes one line per record to its stderr.
    record = logging.LogRecord("udf.test", logging.WARNING, __file__, 1, "cluster %s", ("line",), None)
    udf_logging._TaskHandler().emit(record)
    err = capfd.readouterr().err
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} WARNING udf\.test \[python, pid \d+\] cluster line\n",
                        err), err


def test_idle_receiver_leaves_its_lock_free_for_each_jobs_drain() -> None:
    """Every job drains the receiver first (under its lock): an idle receiver thread must not hold
    the lock while it waits, or each job waits for it (it did: 50-500 ms per query)."""
    receiver = _udf_logs._Receiver()
    try:
        time.sleep(0.2)  # the thread is in its wait loop
        free = 0
        for _ in range(20):
            if receiver._lock.acquire(blocking=False):
                receiver._lock.release()
                free += 1
            time.sleep(0.01)
        assert free == 20
        started = time.monotonic()
        receiver.drain()
        assert time.monotonic() - started < 1.0
    finally:
        receiver.close()
