"""Every program in ``examples/`` (and the README's tour) runs and prints what PyFlink 2.3 prints.

The expected outputs in ``tests/examples_expected/`` were measured by running the same programs on
PyFlink 2.3 (imports rewritten to ``pyflink.table``/``pyflink.common``) and their values checked by
hand. All programs run in one ``pyflink-table run`` process, so Spark starts once; that process is
also the end-to-end check of the command line with the flagship word count.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Dict, List, Tuple

ROOT = Path(__file__).resolve().parent.parent
EXPECTED = Path(__file__).resolve().parent / "examples_expected"
CLI = str(Path(sys.executable).with_name("pyflink-table"))
EXAMPLES = ["word_count", "udfs", "pandas_udaf_windows", "connectors_and_sql"]

DRIVER = textwrap.dedent('''
    import runpy
    import sys

    runs = {runs!r}
    for name, path, argv in runs:
        print(f"=== {{name}}", flush=True)
        sys.argv = [path] + argv
        runpy.run_path(path, run_name="__main__")
    print("=== end", flush=True)
''')

# Rows of Flink's print connector: +I[...], -U[...] ... in whatever order the sink received them.
_CHANGELOG_ROW = re.compile(r"^[+-][IUD]\[")


def _readme_tour() -> str:
    text = (ROOT / "README.md").read_text()
    match = re.search(r"## A short tour\s+```python\n(.*?)```", text, re.S)
    assert match, "README has no tour code block"
    return match.group(1)


def _split(output: str) -> Dict[str, str]:
    sections: Dict[str, str] = {}
    name = None
    for line in output.splitlines(keepends=True):
        if line.startswith("=== "):
            name = line[4:].strip()
            sections[name] = ""
        elif name is not None:
            sections[name] += line
    return sections


def _normalise(text: str) -> Tuple[List[str], List[str]]:
    """(other lines in order, print-connector rows sorted): sink rows have no defined order."""
    lines = [line.rstrip() for line in text.splitlines() if line.strip()]
    return ([line for line in lines if not _CHANGELOG_ROW.match(line)],
            sorted(line for line in lines if _CHANGELOG_ROW.match(line)))


def test_examples_print_what_pyflink_prints(tmp_path: Path) -> None:
    lines_file = tmp_path / "lines.txt"
    lines_file.write_text("a b a\nc a\n")
    out_dir = tmp_path / "counts"
    tour = tmp_path / "readme_tour.py"
    tour.write_text(_readme_tour())
    runs = [(name, str(ROOT / "examples" / f"{name}.py"), []) for name in EXAMPLES]
    runs.append(("word_count_files", str(ROOT / "examples" / "word_count.py"),
                 ["--input", str(lines_file), "--output", str(out_dir)]))
    runs.append(("readme_tour", str(tour), []))
    driver = tmp_path / "run_examples.py"
    driver.write_text(DRIVER.format(runs=runs))

    env = {k: v for k, v in os.environ.items() if not k.startswith("PYFLINK_TABLE_")}
    proc = subprocess.run([CLI, "run", str(driver)], capture_output=True, text=True, cwd=tmp_path, env=env,
                          timeout=900)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    sections = _split(proc.stdout)
    assert "end" in sections, proc.stdout[-2000:]

    for name in EXAMPLES:
        expected = (EXPECTED / f"{name}.txt").read_text()
        assert _normalise(sections[name]) == _normalise(expected), f"{name}:\n{sections[name]}"

    # --input/--output: the counts of "a b a / c a" as CSV files (hand-computed).
    assert sections["word_count_files"].strip() == ""
    written = [line for f in sorted(out_dir.rglob("*")) if f.is_file() and not f.name.startswith((".", "_"))
               for line in f.read_text().splitlines()]
    assert sorted(written) == ["a,3", "b,1", "c,1"]

    # The README's tour runs; its group totals and UDF output (hand-computed) are printed.
    tour_out = sections["readme_tour"]
    assert re.search(r"\|\s+apple \|\s+5 \|", tour_out) and re.search(r"\|\s+pear \|\s+1 \|", tour_out), tour_out
    assert "APPLE!" in tour_out and "PEAR!" in tour_out
