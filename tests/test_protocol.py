"""The names crossing the Python/Java boundary agree on both sides (pyflink_table/_protocol.py and
org.pyflink_table.bridge.protocol.Protocol), and the pieces built on them round-trip."""

from __future__ import annotations

import json
import pickle
from typing import Any, Dict

from pyflink_table import _protocol, errors
from pyflink_table.java_gateway import get_gateway


def _python_constants() -> Dict[str, Any]:
    return {k: v for k, v in vars(_protocol).items() if k.isupper() and k != "PYTHON_ONLY"}


def test_java_and_python_define_the_same_names(t_env: Any) -> None:
    java = dict(get_gateway().jvm.org.pyflink_table.bridge.protocol.Protocol.constants())
    python = _python_constants()
    crossing = {k: v for k, v in python.items() if k not in _protocol.PYTHON_ONLY}
    assert java == crossing
    assert _protocol.PYTHON_ONLY <= set(python)


def test_eval_types_are_pysparks() -> None:
    from pyspark.util import PythonEvalType

    assert _protocol.EVAL_ARROW_BATCHED_UDF == PythonEvalType.SQL_ARROW_BATCHED_UDF
    assert _protocol.EVAL_GROUPED_AGG_PANDAS_UDF == PythonEvalType.SQL_GROUPED_AGG_PANDAS_UDF
    assert _protocol.EVAL_MAP_ARROW_ITER_UDF == PythonEvalType.SQL_MAP_ARROW_ITER_UDF
    assert _protocol.EVAL_SCALAR_ARROW_UDF == PythonEvalType.SQL_SCALAR_ARROW_UDF
    assert _protocol.EVAL_ARROW_TABLE_UDF == PythonEvalType.SQL_ARROW_TABLE_UDF


def test_error_kinds_name_pyflink_exceptions() -> None:
    for name in ("ERROR_TABLE", "ERROR_VALIDATION", "ERROR_SQL_PARSER", "ERROR_PYTHON"):
        kind = getattr(_protocol, name)
        assert errors._KINDS[kind].__name__ == kind


def test_worker_names_exist() -> None:
    import importlib

    from pyflink_table._worker import scalar

    module = importlib.import_module(_protocol.PACKED_AGGREGATION_MODULE)
    assert callable(getattr(module, _protocol.PACKED_AGGREGATION_FUNCTION))
    assert scalar.UserFunctionError.__name__ == _protocol.USER_FUNCTION_ERROR


def test_jvm_written_command_unpickles_to_the_worker_call(t_env: Any) -> None:
    # The JVM writes (module.function(*args), None) with str and bytes arguments; here the
    # function is a stdlib one so that what the pickle calls can be checked by hand.
    from pyflink_table.java_gateway import to_java_array

    jvm = get_gateway().jvm
    command = jvm.org.pyflink_table.bridge.udf.PythonCommand
    text = to_java_array(jvm.java.lang.Object, ["ab\u00e9", "\u20ac"])
    assert pickle.loads(bytes(command.call("operator", "concat", text))) == ("ab\u00e9\u20ac", None)
    data = to_java_array(jvm.java.lang.Object, [bytearray(b"\x00\xff\x80a"), bytearray(b"b")])
    assert pickle.loads(bytes(command.call("operator", "concat", data))) == (b"\x00\xff\x80ab", None)


def test_jvm_written_json_is_read_by_json(t_env: Any) -> None:
    jvm = get_gateway().jvm
    layout = jvm.java.util.LinkedHashMap()
    layout.put(_protocol.LAYOUT_KEYS, 2)
    arguments = jvm.java.util.ArrayList()
    arguments.add(jvm.java.util.ArrayList())
    arguments.get(0).add(2)
    arguments.get(0).add(3)
    layout.put(_protocol.LAYOUT_ARGUMENTS, arguments)
    text = jvm.org.pyflink_table.bridge.udf.PythonCommand.json(layout)
    assert json.loads(text) == {"keys": 2, "arguments": [[2, 3]]}


# Call names valid only in a context: window properties in a window's select, range in withColumns.
_CONTEXT_ONLY_CALLS = {"start", "end", "rowtime", "proctime", "range"}


def test_every_call_name_python_sends_is_known_to_the_bridge(t_env: Any) -> None:
    import re
    from pathlib import Path

    from pyflink_table.java_gateway import bridge, to_java_array

    package = Path(_protocol.__file__).parent
    pattern = re.compile(r"""(?:_call_node|_call|_fn|\.call)\(\s*"([A-Za-z_]+)\"""")
    names = set()
    for source in package.glob("*.py"):
        names.update(pattern.findall(source.read_text(encoding="utf-8")))
    assert len(names) > 150
    ex = bridge().expressions
    table = t_env.from_elements([(1, "a")], ["x", "s"])
    unknown = []
    for name in sorted(names - _CONTEXT_ONLY_CALLS):
        call = ex.Exprs.call(name, to_java_array(ex.Expr, [ex.Exprs.col("x")]))
        try:
            table._j_table.select(to_java_array(ex.Expr, [call]))
        except Exception as e:  # noqa: BLE001 - wrong arguments are fine here, an unknown name is not
            if "Undefined function" in str(e):
                unknown.append(name)
    assert unknown == []
    assert not _CONTEXT_ONLY_CALLS - names  # the exceptions are still used


def test_the_worker_reads_result_types_as_flink_strings_and_derives_the_bridges_spark_type(t_env: Any) -> None:
    """A result type reaches the worker only as its Flink string (no Spark JSON travels beside it);
    the Spark type the worker derives from it is the one the bridge's FlinkTypes gives the string."""
    from pathlib import Path

    from pyflink_table._worker.spark_types import arrow_type, spark_type
    from pyflink_table.types import parse_type_string

    def plain(value: Any) -> Any:
        """Spark's JSON of a type without field metadata (the bridge keeps Flink types there)."""
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items() if k != "metadata"}
        return [plain(v) for v in value] if isinstance(value, list) else value

    flink_types = get_gateway().jvm.org.pyflink_table.bridge.types.FlinkTypes
    checked = 0
    for line in Path(__file__).with_name("type_strings.txt").read_text(encoding="utf-8").splitlines():
        written = line.partition("|")[0].strip()
        if not written or written.startswith(("#", "!")):
            continue
        # Compared as JSON: PySpark reads "time(0)" back as TIME(6).
        java = plain(json.loads(str(flink_types.toSparkJson(written))))
        assert plain(json.loads(spark_type(parse_type_string(written)).json())) == java, written
        checked += 1
    assert checked > 50
    # A table aggregate's emitted rows: a non-ROW type is the one field f0 of a row.
    import pyarrow as pa

    assert arrow_type(parse_type_string("BIGINT"), as_row=True) == pa.struct([pa.field("f0", pa.int64())])
    assert arrow_type(parse_type_string("ROW<`a` INT>"), as_row=True) == pa.struct([pa.field("a", pa.int32())])


def test_evaluators_carry_no_spark_type() -> None:
    import inspect

    from pyflink_table._worker.aggregates import AggregateEvaluator
    from pyflink_table._worker.scalar import ScalarEvaluator

    for evaluator in (ScalarEvaluator, AggregateEvaluator):
        names = set(inspect.signature(evaluator.__init__).parameters)
        assert "result_type" in names and not any("json" in n or "spark" in n for n in names)


def test_function_types_cross_to_the_bridge_as_flink_strings(t_env: Any) -> None:
    """The Python function wrappers send Flink type strings; the bridge derives the Spark type the
    workers produce (no field metadata, microsecond times) and PySpark's UDF declarations read it."""
    from pyflink_table._function_wrapper import _spark_type

    written = "ROW<`a` TIME(0) NOT NULL, `b` ARRAY<DECIMAL(5, 2)>, `c` MAP<STRING, ROW<`d` TIME(3)>>>"
    expected = {"type": "struct", "fields": [
        {"name": "a", "type": "time(6)", "nullable": False, "metadata": {}},
        {"name": "b", "type": {"type": "array", "elementType": "decimal(5,2)", "containsNull": True},
         "nullable": True, "metadata": {}},
        {"name": "c", "type": {"type": "map", "keyType": "string", "valueContainsNull": True, "valueType": {
            "type": "struct", "fields": [{"name": "d", "type": "time(6)", "nullable": True, "metadata": {}}]}},
         "nullable": True, "metadata": {}}]}
    j_function = get_gateway().jvm.org.pyflink_table.bridge.udf.PythonFunction
    assert json.loads(str(j_function.workerTypeJson(written))) == expected
    assert json.loads(_spark_type(written).json()) == expected
