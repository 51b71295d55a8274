"""CPU time of the benchmark's process tree, shared by the benchmark scripts.

On the shared 2-core machine wall times swing with the other load; the CPU that the driver, its
JVM and Spark's Python workers spend is steadier, and on 2 cores it is what bounds the wall time.
"""

from __future__ import annotations

from typing import Dict


def tree_cpu() -> float:
    """CPU seconds (user + system) of this process and all its descendants (the JVM, Python workers)."""
    import psutil

    total = 0.0
    me = psutil.Process()
    for p in [me] + me.children(recursive=True):
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except psutil.Error:
            pass
    return total


def split_cpu(with_reaped: bool = False) -> Dict[str, float]:
    """CPU seconds so far of this process ("driver"), its JVM ("jvm") and Spark's Python workers
    ("workers"); ``with_reaped`` adds what each child's own exited children spent (reaped workers)."""
    import psutil

    me = psutil.Process()
    out = {"driver": 0.0, "jvm": 0.0, "workers": 0.0}
    for p in [me] + me.children(recursive=True):
        try:
            t = p.cpu_times()
            kind = "driver" if p.pid == me.pid else "jvm" if "java" in p.name() else "workers"
            reaped = t.children_user + t.children_system if with_reaped and p.pid != me.pid else 0.0
            out[kind] += t.user + t.system + reaped
        except psutil.Error:
            pass
    return out
