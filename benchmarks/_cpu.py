"""CPU time of the benchmark's process tree, shared by the benchmark scripts.

On the shared 2-core machine wall times swing with the other load; the CPU that the driver, its
JVM and Spark's Python workers spend is steadier, and on 2 cores it is what bounds the wall time.
"""

from __future__ import annotations


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
