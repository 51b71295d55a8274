"""Shared runner of the expression probes (tests/reference/probe_<family>.py).

A probe module defines ``schema(DataTypes)``, ``DATA`` (rows; the first column is an ``id`` the
results are sorted by) and ``cases(E, X)`` returning ``[(label, expression), ...]`` built with
``E`` = the ``expressions`` module and ``X`` = the ``expression`` module of either PyFlink 2.3 or
pyflink_table. An optional ``GROUP_BY`` names a key column: the cases are then aggregates,
evaluated per key (sorted by key) and once globally (label suffix ``@global``).

Run a probe with PyFlink 2.3 to print the measured expectations::

    /work/.venv-pyflink/bin/python tests/reference/probe_strings.py

and with ``--ours`` to print what pyflink_table computes. The pytest files call :func:`measure`
with pyflink_table and compare against the pasted PyFlink output.
"""

from __future__ import annotations

import pprint
import sys
from typing import Any, Dict, List, Tuple


def _modules(ours: bool) -> Tuple[Any, Any, Any, Any]:
    if ours:
        import pyflink_table as tbl
        from pyflink_table import expression as X
        from pyflink_table import expressions as E
        return tbl, E, X, tbl.DataTypes
    from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment  # type: ignore
    from pyflink.table import expression as X  # type: ignore
    from pyflink.table import expressions as E  # type: ignore

    class _Tbl:
        pass

    tbl = _Tbl()
    tbl.EnvironmentSettings = EnvironmentSettings  # type: ignore[attr-defined]
    tbl.TableEnvironment = TableEnvironment  # type: ignore[attr-defined]
    return tbl, E, X, DataTypes


def _error_line(ex: BaseException) -> str:
    text = str(ex).strip().splitlines()
    return type(ex).__name__ + ": " + (text[0][:160] if text else "")


def measure(probe: Any, t_env: Any, E: Any, X: Any, DataTypes: Any) -> Dict[str, Any]:
    """label -> (values sorted by id/key, result type repr) or ('ERROR', message)."""
    table = t_env.from_elements(probe.DATA, probe.schema(DataTypes))
    group_by = getattr(probe, "GROUP_BY", None)
    built: List[Tuple[str, Any]] = []
    results: Dict[str, Any] = {}
    labels: List[str] = []
    for label, build in probe.cases(E, X):
        labels.append(label)
        try:
            built.append((label, build() if callable(build) else build))
        except Exception as ex:  # the probe records what the API refuses
            results[label] = ("ERROR", _error_line(ex))
    # Fast path: every case in one query. If that fails, one query per case to localise the error.
    try:
        results.update(_evaluate(table, group_by, E, built))
    except Exception:
        for case in built:
            try:
                results.update(_evaluate(table, group_by, E, [case]))
            except Exception as ex:
                results[case[0]] = ("ERROR", _error_line(ex))
    ordered: Dict[str, Any] = {}
    for label in labels:
        ordered[label] = results[label]
        if label + "@global" in results:
            ordered[label + "@global"] = results[label + "@global"]
    return ordered


def _evaluate(table: Any, group_by: Any, E: Any, cases: List[Tuple[str, Any]]) -> Dict[str, Any]:
    results: Dict[str, Any] = {}
    if not cases:
        return results
    items = [expr.alias(f"v{i}") for i, (_, expr) in enumerate(cases)]
    if group_by:
        t = table.group_by(E.col(group_by)).select(E.col(group_by).alias("k_"), *items)
    else:
        t = table.select(E.col("id").alias("k_"), *items)
    types = [repr(x) for x in t.get_schema().get_field_data_types()][1:]
    rows = [tuple(r) for r in t.execute().collect()]
    rows.sort(key=lambda r: (r[0] is not None, r[0]))
    for i, (label, _) in enumerate(cases):
        results[label] = ([r[i + 1] for r in rows], types[i])
    if group_by:
        g = table.select(*items)
        global_types = [repr(x) for x in g.get_schema().get_field_data_types()]
        global_row = [tuple(r) for r in g.execute().collect()]
        for i, (label, _) in enumerate(cases):
            results[label + "@global"] = ([r[i] for r in global_row], global_types[i])
    return results


def main(probe: Any) -> None:
    ours = "--ours" in sys.argv
    tbl, E, X, DataTypes = _modules(ours)
    t_env = tbl.TableEnvironment.create(tbl.EnvironmentSettings.in_batch_mode())
    t_env.get_config().set("parallelism.default", "1")
    t_env.get_config().set("table.local-time-zone", "UTC")
    results = measure(probe, t_env, E, X, DataTypes)
    print("EXPECTED = ", end="")
    pprint.pprint(results, width=110, sort_dicts=False)


def load_probe(family: str) -> Any:
    """The probe module tests/reference/probe_<family>.py."""
    import importlib.util
    import os

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"probe_{family}.py")
    spec = importlib.util.spec_from_file_location(f"probe_{family}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _same(a: Any, b: Any) -> bool:
    import math

    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12) or (math.isnan(a) and math.isnan(b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return bool(a == b)


def mismatches(expected: Dict[str, Any], actual: Dict[str, Any], type_differences: Dict[str, str],
               not_compared: Dict[str, str]) -> List[str]:
    """Human-readable differences between PyFlink's measured results and ours.

    ``type_differences`` maps labels whose result type knowingly differs to the reason;
    ``not_compared`` maps labels left out (e.g. PyFlink fails at run time) to the reason.
    A case PyFlink rejected must be rejected by us too.
    """
    out: List[str] = []
    for label, want in expected.items():
        if label in not_compared:
            continue
        got = actual.get(label)
        if got is None:
            out.append(f"{label}: not measured")
            continue
        if want[0] == "ERROR":
            if got[0] != "ERROR":
                out.append(f"{label}: PyFlink raised {want[1]!r}, we returned {got!r}")
            continue
        if got[0] == "ERROR":
            out.append(f"{label}: we raised {got[1]!r}, PyFlink returned {want!r}")
            continue
        if not _same(want[0], got[0]):
            out.append(f"{label}: values {got[0]!r} != PyFlink {want[0]!r}")
        if want[1] != got[1] and label not in type_differences:
            out.append(f"{label}: type {got[1]} != PyFlink {want[1]}")
    return out
