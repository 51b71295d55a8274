"""``mypy --strict`` on user programs: a correct one passes, wrong ones fail with the expected message.

The expected messages are mypy's own wording for the mistake (argument type, missing attribute).
All scripts are checked in one mypy run (mypy is slow to start); errors are matched per file.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Dict, List

ROOT = Path(__file__).resolve().parent.parent

CORRECT = textwrap.dedent('''
    from typing import List

    import pandas as pd

    from pyflink_table import DataTypes, EnvironmentSettings, Row, Table, TableEnvironment, TableResult
    from pyflink_table.expressions import and_, col, concat, if_then_else, lit, not_
    from pyflink_table.udf import udf


    @udf(result_type=DataTypes.BIGINT())
    def plus_one(i: int) -> int:
        return i + 1


    def build(t_env: TableEnvironment) -> Table:
        tab = t_env.from_elements([(1, 'Hi'), (2, 'Hello')], ['a', 'b'])
        return (tab.where(and_(col('a') > 0, not_(col('b').is_null)))
                   .select(col('a'), plus_one(col('a')).alias('a1'), concat(col('b'), '!').alias('c'),
                           if_then_else(col('a') > 1, 'big', 'small').alias('size'))
                   .group_by(col('size'))
                   .select(col('size'), col('a').count.alias('n'), col('a1').sum, lit(5).seconds))


    def run() -> List[Row]:
        t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
        t_env.get_config().set('parallelism.default', '1')
        result: TableResult = build(t_env).execute()
        frame: pd.DataFrame = build(t_env).to_pandas()
        print(frame.shape)
        return list(result.collect())
''')

# file name -> the mypy message its mistake must produce
WRONG: Dict[str, tuple[str, str]] = {
    "str_for_expression.py": (
        textwrap.dedent('''
            from pyflink_table import EnvironmentSettings, TableEnvironment
            from pyflink_table.expressions import col, not_

            t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
            t_env.from_elements([(1,)], ['a']).where(not_('a > 1'))
        '''),
        'Argument 1 to "not_" has incompatible type "str"; expected "Expression[bool]"',
    ),
    "misspelt_method.py": (
        textwrap.dedent('''
            from pyflink_table import EnvironmentSettings, TableEnvironment
            from pyflink_table.expressions import col

            t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
            t_env.from_elements([(1,)], ['a']).selekt(col('a'))
        '''),
        # `table.a` is a column, as in PyFlink, so a misspelt method reads as a column: not callable.
        '"Expression[Any]" not callable',
    ),
    "create_with_int.py": (
        textwrap.dedent('''
            from pyflink_table import TableEnvironment

            t_env = TableEnvironment.create(42)
        '''),
        'Argument 1 to "create" of "TableEnvironment" has incompatible type "int"',
    ),
}


def _errors_by_file(output: str) -> Dict[str, List[str]]:
    errors: Dict[str, List[str]] = {}
    for line in output.splitlines():
        match = re.match(r"(?:.*/)?([\w.]+\.py):\d+: error: (.*)", line)
        if match:
            errors.setdefault(match.group(1), []).append(match.group(2))
    return errors


def test_mypy_strict_accepts_correct_programs_and_rejects_wrong_ones(tmp_path: Path) -> None:
    (tmp_path / "correct_program.py").write_text(CORRECT)
    for name, (source, _) in WRONG.items():
        (tmp_path / name).write_text(source)
    files = sorted(str(p) for p in tmp_path.glob("*.py"))
    # The project's mypy settings (strict, stubs/ on the path); run from the root so the package
    # is analysed from its sources. A private cache: mypy's cache confuses same-named scripts.
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--config-file", str(ROOT / "pyproject.toml"),
                           "--no-error-summary", "--show-error-codes", "--cache-dir", str(tmp_path / "cache"), *files],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    errors = _errors_by_file(proc.stdout)
    assert "correct_program.py" not in errors, errors.get("correct_program.py")
    for name, (_, expected) in WRONG.items():
        assert any(expected in message for message in errors.get(name, [])), (name, errors.get(name), proc.stdout)


def test_package_and_examples_pass_mypy_strict(tmp_path: Path) -> None:
    # `make typecheck`: the package's own annotations and every example program.
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--config-file", str(ROOT / "pyproject.toml"),
                           "--cache-dir", str(tmp_path / "cache"), "pyflink_table", "examples"],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stdout[-5000:]
