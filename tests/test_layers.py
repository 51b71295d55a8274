"""The layers of docs/architecture.rst hold in the code: the bridge's Java packages and the package's
Python modules import only what is listed below them, so there are no import circles.

Both orders are read from docs/architecture.rst, so the page and the code cannot drift apart. The
check reads the sources as text (Java imports and fully qualified names outside comments and
strings; Python imports outside ``if TYPE_CHECKING:``), nothing is run.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.rst"
JAVA = ROOT / "java-bridge" / "src" / "main" / "java" / "org" / "pyflink_table" / "bridge"
PYTHON = ROOT / "pyflink_table"

Graph = Dict[str, Dict[str, Set[str]]]  # from -> to -> the files that make the edge


def _code_blocks(text: str) -> List[List[str]]:
    """The lines of each ``.. code-block:: text`` of the page."""
    blocks: List[List[str]] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip() == ".. code-block:: text":
            block: List[str] = []
            for body in lines[i + 2:]:
                if body and not body.startswith(" "):
                    break
                block.append(body)
            blocks.append(block)
    return blocks


def _java_layers(text: str) -> List[str]:
    """The bridge's packages, top to bottom, as the layer drawing lists them."""
    for block in _code_blocks(text):
        start = next((i for i, line in enumerate(block) if line.strip().startswith("java-bridge/")), None)
        if start is None:
            continue
        layers: List[str] = []
        for line in block[start:]:
            body = line.strip()
            if body.startswith("|"):
                break
            m = re.match(r"(?:java-bridge/\s+)?([a-z]+)\s{1,}\S", body)
            # Continuation lines are indented past the package column.
            if m and len(line) - len(line.lstrip()) <= 17:
                layers.append(m.group(1))
        return layers
    raise AssertionError("docs/architecture.rst has no drawing of the java-bridge/ layers")


def _python_layers(text: str) -> List[Tuple[str, Optional[Set[str]]]]:
    """(group, its modules) top to bottom; None for the group holding every module not named."""
    for block in _code_blocks(text):
        rows = [line.split(None, 1) for line in block if line.strip()]
        if not rows or rows[0][0] != "api":
            continue
        groups: List[Tuple[str, Optional[Set[str]]]] = []
        for name, rest in rows:
            groups.append((name, None if rest.startswith("every module") else
                           {m.strip() for m in rest.split(",")}))
        return groups
    raise AssertionError("docs/architecture.rst has no list of the Python module groups (starting with api)")


def _strip_java(source: str) -> str:
    """Java source without comments, string and character literals (text blocks too)."""
    pattern = re.compile(r'//[^\n]*|/\*.*?\*/|"""(?:.|\n)*?"""|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])+\'', re.S)
    return pattern.sub(" ", source)


def java_graph() -> Graph:
    graph: Graph = {}
    for f in sorted(JAVA.rglob("*.java")):
        package = f.parent.relative_to(JAVA).parts[0]
        for m in re.finditer(r"\borg\.pyflink_table\.bridge\.(\w+)\.[A-Z]", _strip_java(f.read_text("utf-8"))):
            if m.group(1) != package:
                graph.setdefault(package, {}).setdefault(m.group(1), set()).add(f.name)
    return graph


def _module_name(f: Path) -> str:
    parts = list(f.relative_to(PYTHON.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def python_graph() -> Graph:
    """Module -> modules it imports (the package itself, ``pyflink_table``, is left out)."""
    modules = {_module_name(f): f for f in PYTHON.rglob("*.py")}

    def resolve(name: str) -> Optional[str]:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: Graph = {}
    for name, f in modules.items():
        tree = ast.parse(f.read_text("utf-8"))
        type_only: Set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                type_only.update(id(n) for n in ast.walk(node))
        package = name if f.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(tree):
            if id(node) in type_only:
                continue
            targets: List[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(parts + ([base] if base else []))
                targets = [base] + [f"{base}.{a.name}" for a in node.names]
            for t in targets:
                target = resolve(t) if t.startswith("pyflink_table") else None
                if target and target not in (name, "pyflink_table"):
                    graph.setdefault(name, {}).setdefault(target, set()).add(f.name)
    return graph


def circles(graph: Graph) -> List[List[str]]:
    """The strongly connected parts of more than one node (Tarjan)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    found: List[List[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part: List[str] = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def upward(graph: Graph, rank: Dict[str, int]) -> List[str]:
    """Edges from a layer to one listed above it (or beside it: rank equal), described."""
    return [f"{a} -> {b} ({', '.join(sorted(files))})" for a, targets in sorted(graph.items())
            for b, files in sorted(targets.items()) if rank[a] >= rank[b]]


def _python_rank(graph: Graph) -> Dict[str, int]:
    groups = _python_layers(DOC.read_text("utf-8"))
    named = {m for _, modules in groups if modules for m in modules}
    rank: Dict[str, int] = {}
    for name in {_module_name(f) for f in PYTHON.rglob("*.py")}:
        short = name.split(".", 1)[1] if "." in name else name
        top = short.split(".")[0]
        for i, (_, modules) in enumerate(groups):
            if (modules is None and top not in named) or (modules is not None and top in modules):
                rank[name] = i
    return rank


def test_the_documented_java_layers_are_the_bridge_packages() -> None:
    layers = _java_layers(DOC.read_text("utf-8"))
    assert len(layers) == len(set(layers)), layers
    assert set(layers) == {p.name for p in JAVA.iterdir() if p.is_dir()}


def test_java_packages_import_only_the_layers_below() -> None:
    graph = java_graph()
    rank = {p: i for i, p in enumerate(_java_layers(DOC.read_text("utf-8")))}
    assert circles(graph) == []
    assert upward(graph, rank) == []


def test_the_documented_python_groups_name_existing_modules() -> None:
    groups = _python_layers(DOC.read_text("utf-8"))
    tops = {_module_name(f).split(".")[1] for f in PYTHON.rglob("*.py") if "." in _module_name(f)}
    named = [m for _, modules in groups if modules for m in modules]
    assert len(named) == len(set(named)) and set(named) <= tops, set(named) - tops


def test_python_modules_import_only_the_groups_below() -> None:
    graph = python_graph()
    assert circles(graph) == []
    rank = _python_rank(graph)
    # Within a group (the api especially) modules may import each other; only circles are refused there.
    same_group_allowed = {a: {b: f for b, f in t.items() if rank[a] != rank[b]} for a, t in graph.items()}
    assert upward(same_group_allowed, rank) == []


def test_the_checker_finds_circles_and_upward_imports() -> None:
    graph: Graph = {"a": {"b": {"A.java"}}, "b": {"c": {"B.java"}}, "c": {"a": {"C.java"}}, "d": {"a": {"D.java"}}}
    assert circles(graph) == [["a", "b", "c"]]
    assert upward({"low": {"high": {"L.java"}}, "high": {"low": {"H.java"}}}, {"high": 0, "low": 1}) == [
        "low -> high (L.java)"]


def test_the_checker_reads_the_real_imports() -> None:
    java = java_graph()
    assert "GroupWindowedJTable.java" in java["window"]["table"]  # it imports table.JTable
    assert "table" not in java.get("types", {})
    python = python_graph()
    assert "pyflink_table.errors" in python["pyflink_table.java_gateway"]  # a module-level import
    assert "pyflink_table._streaming" in python["pyflink_table.table"]  # an import inside a function
    assert "pyflink_table.table" not in python["pyflink_table._streaming"]  # only under TYPE_CHECKING
