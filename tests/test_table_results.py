"""TableResult: collected values, print() layout, schemas and explain.

Expected layouts and values were measured on PyFlink 2.3 (batch mode, Java 17) and pasted here;
the formatter unit tests need no Spark at all.
"""

import datetime
import decimal

from conftest import rows
from pyflink_table import DataTypes, Row
from pyflink_table.expressions import col
from pyflink_table.table_result import ResultKind, display_width, format_table, format_value
from pyflink_table.types import parse_type_string as T


def test_format_value_like_flink() -> None:
    # Java's Float/Double.toString (measured on PyFlink's print()).
    assert [format_value(v, T("DOUBLE")) for v in (1e7, 9999999.0, 1e-3, 0.00099, 1e21, 100.0, 123456789.123, -0.0)] == [
        "1.0E7", "9999999.0", "0.001", "9.9E-4", "1.0E21", "100.0", "1.23456789123E8", "-0.0"]
    assert [format_value(v, T("FLOAT")) for v in (0.1, 1e10, 3.4e38, 1e-10)] == ["0.1", "1.0E10", "3.4E38", "1.0E-10"]
    assert format_value(float("nan")) == "NaN" and format_value(float("-inf")) == "-Infinity"
    assert format_value(decimal.Decimal("1.5"), T("DECIMAL(10, 3)")) == "1.500"
    assert format_value(decimal.Decimal("0E-18"), T("DECIMAL(38, 18)")) == "0.000000000000000000"
    ts = datetime.datetime(2024, 1, 2, 3, 4, 5, 120000)
    assert [format_value(ts, T(f"TIMESTAMP({p})")) for p in (0, 1, 3, 6, 9)] == [
        "2024-01-02 03:04:05", "2024-01-02 03:04:05.1", "2024-01-02 03:04:05.120",
        "2024-01-02 03:04:05.120000", "2024-01-02 03:04:05.120000000"]
    assert format_value(ts, T("TIMESTAMP_LTZ(3)")) == "2024-01-02 03:04:05.120"
    tm = datetime.time(1, 2, 3, 450000)
    assert [format_value(tm, T(f"TIME({p})")) for p in (0, 1, 3)] == ["01:02:03", "01:02:03.4", "01:02:03.45"]
    assert format_value(bytearray(b"\x01\xff")) == "x'01ff'" and format_value(b"") == "x''"
    assert format_value([1, None, 3], T("ARRAY<INT>")) == "[1, NULL, 3]"
    assert format_value({"k": [1]}, T("MAP<STRING, ARRAY<INT>>")) == "{k=[1]}"
    assert format_value(Row(None, None)) == "(NULL, NULL)"
    assert format_value(Row(Row(1, "x"), [1.5])) == "((1, x), [1.5])"
    assert format_value(True) == "TRUE" and format_value(None) == "<NULL>"


def test_format_table_widths() -> None:
    # Column widths by type (measured): BOOLEAN/TINYINT/SMALLINT 6 (the width of <NULL>), INT 11,
    # BIGINT 20, DECIMAL(p, s) p + 2 even beyond 30, DATE 10, TIME(0) 8, TIMESTAMP(3) 23, others 30.
    names = ["b", "i", "bi", "dec", "dt", "tm", "ts", "s"]
    types = [T(t) for t in ("BOOLEAN", "INT", "BIGINT", "DECIMAL(38, 9)", "DATE", "TIME(0)", "TIMESTAMP(3)", "STRING")]
    text = format_table(names, types, [Row(None, None, None, None, None, None, None, None)])
    border = text.splitlines()[0]
    assert [len(cell) - 2 for cell in border.strip("+").split("+")] == [6, 11, 20, 40, 10, 8, 23, 30]
    assert text.endswith("1 row in set")
    assert format_table(["a"], [T("INT")], []) == "Empty set"


def test_format_table_truncates_by_display_width() -> None:
    text = format_table(["a", "b"], [T("STRING"), T("STRING")],
                        [Row("中文字符中文字符中文字符中文字符中文字符", "a much longer string that exceeds thirty characters wide")])
    # Measured on PyFlink 2.3: wide characters count twice; cut cells end with "...".
    assert text.splitlines()[3] == "|  中文字符中文字符中文字符中... | a much longer string that e... |"
    assert display_width("中文") == 4
    long_name = format_table(["a_really_long_column_name_exceeding_thirty_chars"], [T("INT")], [Row(3), Row(None)])
    assert long_name.splitlines()[3] == "|                                                3 |"


def test_print_and_collect(t_env, capsys) -> None:  # type: ignore[no-untyped-def]
    schema = DataTypes.ROW([
        DataTypes.FIELD("f", DataTypes.FLOAT()), DataTypes.FIELD("dec", DataTypes.DECIMAL(10, 3)),
        DataTypes.FIELD("by", DataTypes.BYTES()), DataTypes.FIELD("tm", DataTypes.TIME()),
        DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)), DataTypes.FIELD("arr", DataTypes.ARRAY(DataTypes.INT())),
        DataTypes.FIELD("m", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())),
        DataTypes.FIELD("r", DataTypes.ROW([DataTypes.FIELD("x", DataTypes.INT()), DataTypes.FIELD("y", DataTypes.STRING())]))])
    t = t_env.from_elements([(0.1, decimal.Decimal("1.5"), bytearray(b"\x01"), datetime.time(1, 2, 3),
                              datetime.datetime(2024, 1, 2, 3, 4, 5, 123000), [1, None], {"k": 1}, Row(1, "a"))], schema)
    result = t.execute()
    assert result.get_result_kind() == ResultKind.SUCCESS_WITH_CONTENT and str(result.get_result_kind()) == "1"
    (r,) = list(result.collect())
    # Types measured on PyFlink 2.3's collect(): FLOAT as the float32's shortest decimal, BYTES bytearray,
    # nested rows positional.
    assert r[0] == 0.1 and r[1] == decimal.Decimal("1.500") and type(r[2]) is bytearray
    assert r[3] == datetime.time(1, 2, 3) and r[4] == datetime.datetime(2024, 1, 2, 3, 4, 5, 123000)
    assert r[5] == [1, None] and r[6] == {"k": 1} and isinstance(r[7], Row) and tuple(r[7]) == (1, "a")
    t.select(col("dec"), col("tm"), col("ts"), col("arr"), col("r")).execute().print()
    assert capsys.readouterr().out == (
        "+--------------+----------+-------------------------+--------------------------------+--------------------------------+\n"
        "|          dec |       tm |                      ts |                            arr |                              r |\n"
        "+--------------+----------+-------------------------+--------------------------------+--------------------------------+\n"
        "|        1.500 | 01:02:03 | 2024-01-02 03:04:05.123 |                      [1, NULL] |                         (1, a) |\n"
        "+--------------+----------+-------------------------+--------------------------------+--------------------------------+\n"
        "1 row in set\n")


def test_schemas_and_explain(t_env, capsys) -> None:  # type: ignore[no-untyped-def]
    t = t_env.from_elements([(1, "x")], DataTypes.ROW([DataTypes.FIELD("a", DataTypes.INT(False)),
                                                      DataTypes.FIELD("b", DataTypes.STRING())]))
    assert str(t.get_schema()) == "root\n |-- a: INT NOT NULL\n |-- b: STRING\n"
    assert str(t.get_resolved_schema()) == "(\n  `a` INT NOT NULL,\n  `b` STRING\n)"
    t.print_schema()
    assert capsys.readouterr().out == "(\n  `a` INT NOT NULL,\n  `b` STRING\n)\n"
    plan = t.where(col("a") > 0).explain()
    assert "== Physical Plan ==" in plan and "Filter" in plan
    assert rows(t) == [(1, "x")]
