"""Metrics of user-defined functions, mirroring ``pyflink.metrics``.

A UDF registers metrics in ``open()`` through ``function_context.get_metric_group()``. The
metrics live in the Spark Python worker that runs the function; their values travel back to the
driver with the task's result (a Spark accumulator) and can be read there after the job with
:meth:`pyflink_table.TableEnvironment.get_metrics`.

Metric names are the group path joined with dots, prefixed by the function's name, e.g.
``my_udf.requests.count``.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Dict, List, Optional, Tuple

__all__ = ["MetricGroup", "Metric", "Counter", "Gauge", "Meter", "Distribution"]


class Metric:
    """Base class of the metric types."""


class Counter(Metric):
    """A metric that counts up and down.

    :param name: the metric's full name.
    """

    def __init__(self, name: str) -> None:
        self._name = name
        self._count = 0

    def inc(self, n: int = 1) -> None:
        """Add ``n`` (default 1)."""
        self._count += n

    def dec(self, n: int = 1) -> None:
        """Subtract ``n`` (default 1)."""
        self._count -= n

    def get_count(self) -> int:
        """The current count."""
        return self._count


class Gauge(Metric):
    """A metric whose value is read from a function when the metrics are reported.

    :param name: the metric's full name.
    :param obj: function returning the current value.
    """

    def __init__(self, name: str, obj: Callable[[], Any]) -> None:
        self._name = name
        self._obj = obj

    def get_value(self) -> Any:
        """The gauge's current value."""
        return self._obj()


class Meter(Metric):
    """A metric counting events; the driver reports the count and the rate per second.

    :param name: the metric's full name.
    :param time_span_in_seconds: the span of the rate, as in Flink (kept for compatibility).
    """

    def __init__(self, name: str, time_span_in_seconds: int = 60) -> None:
        self._name = name
        self._time_span = time_span_in_seconds
        self._count = 0
        self._start = time.monotonic()

    def mark_event(self, value: int = 1) -> None:
        """Record ``value`` events (default 1)."""
        self._count += value

    def get_count(self) -> int:
        """Events recorded so far."""
        return self._count

    def _elapsed(self) -> float:
        return time.monotonic() - self._start


class Distribution(Metric):
    """A metric recording values; the driver reports count, sum, min, max and mean.

    :param name: the metric's full name.
    """

    def __init__(self, name: str) -> None:
        self._name = name
        self._count = 0
        self._sum = 0
        self._min: Optional[Any] = None
        self._max: Optional[Any] = None

    def update(self, value: Any) -> None:
        """Record one value."""
        self._count += 1
        self._sum += value
        self._min = value if self._min is None or value < self._min else self._min
        self._max = value if self._max is None or value > self._max else self._max


class MetricGroup:
    """A named group of metrics; nested groups extend the metric names.

    :param scope: the names of this group and its parents (the first is the function's name).
    :param registry: where the metrics of one function instance are collected.
    """

    def __init__(self, scope: List[str], registry: Optional[Dict[str, Metric]] = None) -> None:
        self._scope = list(scope)
        self._registry: Dict[str, Metric] = registry if registry is not None else {}

    def add_group(self, name: str, extra: Optional[str] = None) -> "MetricGroup":
        """A sub-group ``name``, or with ``extra`` the key/value group ``name.extra``."""
        scope = self._scope + ([name] if extra is None else [name, extra])
        return MetricGroup(scope, self._registry)

    def _full_name(self, name: str) -> str:
        return ".".join(self._scope + [name])

    def _register(self, metric: Any) -> Any:
        existing = self._registry.get(metric._name)
        if existing is not None and type(existing) is type(metric):
            return existing
        self._registry[metric._name] = metric
        return metric

    def counter(self, name: str) -> Counter:
        """A counter named ``name`` in this group (the same one when asked twice)."""
        return self._register(Counter(self._full_name(name)))  # type: ignore[no-any-return]

    def gauge(self, name: str, obj: Callable[[], Any]) -> None:
        """A gauge named ``name`` whose value is ``obj()`` when reported."""
        gauge = Gauge(self._full_name(name), obj)
        self._registry[gauge._name] = gauge

    def meter(self, name: str, time_span_in_seconds: int = 60) -> Meter:
        """A meter named ``name`` in this group."""
        return self._register(Meter(self._full_name(name), time_span_in_seconds))  # type: ignore[no-any-return]

    def distribution(self, name: str) -> Distribution:
        """A distribution named ``name`` in this group."""
        return self._register(Distribution(self._full_name(name)))  # type: ignore[no-any-return]


# --- shipping values to the driver -----------------------------------------------------------
# One snapshot is a dict metric name -> (kind, value); snapshots of several tasks are merged.


def _snapshot(registry: Dict[str, Metric]) -> Dict[str, Tuple[str, Any]]:
    out: Dict[str, Tuple[str, Any]] = {}
    for name, m in registry.items():
        if isinstance(m, Counter):
            out[name] = ("counter", m._count)
        elif isinstance(m, Meter):
            out[name] = ("meter", (m._count, m._elapsed()))
        elif isinstance(m, Distribution):
            out[name] = ("distribution", (m._count, m._sum, m._min, m._max))
        elif isinstance(m, Gauge):
            out[name] = ("gauge", m.get_value())
    return out


def _merge(left: Dict[str, Tuple[str, Any]], right: Dict[str, Tuple[str, Any]]) -> Dict[str, Tuple[str, Any]]:
    merged = dict(left)
    for name, (kind, value) in right.items():
        if name not in merged or merged[name][0] != kind:
            merged[name] = (kind, value)
            continue
        old = merged[name][1]
        if kind == "counter":
            merged[name] = (kind, old + value)
        elif kind == "meter":
            merged[name] = (kind, (old[0] + value[0], max(old[1], value[1])))
        elif kind == "distribution":
            mins = [v for v in (old[2], value[2]) if v is not None]
            maxs = [v for v in (old[3], value[3]) if v is not None]
            merged[name] = (kind, (old[0] + value[0], old[1] + value[1],
                                   min(mins) if mins else None, max(maxs) if maxs else None))
        else:  # gauge: the latest report wins
            merged[name] = (kind, value)
    return merged


def _readable(snapshot: Dict[str, Tuple[str, Any]]) -> Dict[str, Any]:
    """The user-facing values: numbers for counters and gauges, dicts for meters and distributions."""
    out: Dict[str, Any] = {}
    for name, (kind, value) in sorted(snapshot.items()):
        if kind == "meter":
            count, elapsed = value
            out[name] = {"count": count, "rate": count / elapsed if elapsed > 0 else 0.0}
        elif kind == "distribution":
            count, total, lo, hi = value
            out[name] = {"count": count, "sum": total, "min": lo, "max": hi,
                         "mean": total / count if count else None}
        else:
            out[name] = value
    return out


class _SnapshotParam:
    """Spark AccumulatorParam merging metric snapshots (duck-typed to avoid importing PySpark here)."""

    def zero(self, value: Dict[str, Tuple[str, Any]]) -> Dict[str, Tuple[str, Any]]:
        return {}

    def addInPlace(self, left: Dict[str, Tuple[str, Any]],  # noqa: N802 - Spark's method name
                   right: Dict[str, Tuple[str, Any]]) -> Dict[str, Tuple[str, Any]]:
        return _merge(left, right)
