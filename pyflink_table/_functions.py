"""The classes user-defined functions derive from, shared by the driver and Spark's Python workers.

A user's ``ScalarFunction``, ``TableFunction`` or ``AggregateFunction`` subclass is pickled by
reference to these classes, so the workers import this module to unpickle it. It therefore imports
only the standard library and the other shared modules (:mod:`pyflink_table.metrics`); the public
names are re-exported by :mod:`pyflink_table.udf`, as in ``pyflink.table.udf``.
"""

from __future__ import annotations

import abc
from typing import TYPE_CHECKING, Any, Callable, Dict, Generic, Iterable, Tuple, TypeVar, Union

from pyflink_table.metrics import MetricGroup

if TYPE_CHECKING:
    from pyflink_table.types import DataType

__all__ = [
    "FunctionContext",
    "UserDefinedFunction",
    "ScalarFunction",
    "TableFunction",
    "ImperativeAggregateFunction",
    "AggregateFunction",
    "TableAggregateFunction",
]

T = TypeVar("T")
ACC = TypeVar("ACC")


class FunctionContext:
    """What a user-defined function sees of its runtime in ``open()``.

    :param metric_group: the function's metric group.
    :param job_parameters: the ``pipeline.global-job-parameters`` of the environment.
    :param task_info: ``(task name, subtask index, number of subtasks, attempt number)``.
    """

    def __init__(self, metric_group: MetricGroup, job_parameters: Dict[str, str],
                 task_info: Tuple[str, int, int, int] = ("", 0, 1, 0)) -> None:
        self._metric_group = metric_group
        self._job_parameters = dict(job_parameters)
        self._task_info = task_info

    def get_metric_group(self) -> MetricGroup:
        """The metric group to register counters, gauges, meters and distributions in."""
        return self._metric_group

    def get_job_parameter(self, key: str, default_value: str) -> str:
        """A value of ``pipeline.global-job-parameters``, or ``default_value`` when it is not set."""
        return self._job_parameters.get(key, default_value)

    def get_task_name(self) -> str:
        """Name of the task running the function (the Spark stage)."""
        return self._task_info[0]

    def get_task_name_with_subtasks(self) -> str:
        """The task name followed by ``(index/parallelism)``, as Flink prints it."""
        name, index, parallelism, _ = self._task_info
        return f"{name} ({index + 1}/{parallelism})"

    def get_number_of_parallel_subtasks(self) -> int:
        """Number of partitions of the stage running the function."""
        return self._task_info[2]

    def get_max_number_of_parallel_subtasks(self) -> int:
        """Same as :meth:`get_number_of_parallel_subtasks` (Spark has no separate maximum)."""
        return self._task_info[2]

    def get_index_of_this_subtask(self) -> int:
        """Index of the partition this instance runs on, from 0."""
        return self._task_info[1]

    def get_attempt_number(self) -> int:
        """Attempt number of the Spark task, from 0."""
        return self._task_info[3]


class UserDefinedFunction(abc.ABC):  # noqa: B024 - subclasses define eval/accumulate, not an abstract hook
    """Base class of all user-defined functions: lifecycle hooks and determinism."""

    def open(self, function_context: FunctionContext) -> None:
        """Called once per worker task before the first row; set up state and metrics here.

        :param function_context: metrics and job parameters.
        """

    def close(self) -> None:
        """Called once per worker task after the last row."""

    def is_deterministic(self) -> bool:
        """Whether equal inputs always give equal results (False keeps every call)."""
        return True


class ScalarFunction(UserDefinedFunction):
    """A function mapping scalar arguments to one scalar value; implement ``eval(*args)``."""

    @abc.abstractmethod
    def eval(self, *args: Any) -> Any:
        """The function's result for one row's arguments (or pandas Series for pandas UDFs)."""


class _DelegatingScalarFunction(ScalarFunction):
    """A ScalarFunction calling a plain function or callable object."""

    def __init__(self, func: Callable[..., Any]) -> None:
        self.func = func

    def eval(self, *args: Any) -> Any:
        return self.func(*args)


class TableFunction(UserDefinedFunction):
    """A function mapping one row of arguments to zero, one or many rows; implement ``eval``.

    ``eval`` yields (or returns an iterable of) :class:`~pyflink_table.row.Row` objects, tuples or
    single values, one per output row.
    """

    def eval(self, *args: Any) -> Union[Iterable[Any], Any]:
        """The rows produced for one input row's arguments."""
        raise NotImplementedError("TableFunction.eval must be implemented")


class ImperativeAggregateFunction(UserDefinedFunction, Generic[T, ACC]):
    """Common base of aggregate and table aggregate functions: the accumulator life cycle."""

    def create_accumulator(self) -> ACC:
        """A new, empty accumulator."""
        raise NotImplementedError("create_accumulator must be implemented")

    def accumulate(self, accumulator: ACC, *args: Any) -> None:
        """Add one input row (or, for pandas functions, the group's Series) to ``accumulator``."""
        raise NotImplementedError("accumulate must be implemented")

    def retract(self, accumulator: ACC, *args: Any) -> None:
        """Remove one input row from ``accumulator`` (streaming updates; unused in batch)."""
        raise RuntimeError("Method retract is not implemented")

    def merge(self, accumulator: ACC, accumulators: Iterable[ACC]) -> None:
        """Merge ``accumulators`` into ``accumulator`` (session windows, two-phase aggregation)."""
        raise RuntimeError("Method merge is not implemented")

    def get_result_type(self) -> Union[DataType, str]:
        """The result type, when ``udaf`` is not given ``result_type``."""
        raise RuntimeError("Method get_result_type is not implemented")

    def get_accumulator_type(self) -> Union[DataType, str]:
        """The accumulator type, when ``udaf`` is not given ``accumulator_type``."""
        raise RuntimeError("Method get_accumulator_type is not implemented")


class AggregateFunction(ImperativeAggregateFunction[T, ACC]):
    """An aggregate function: many rows of a group to one value; implement ``get_value`` too."""

    def get_value(self, accumulator: ACC) -> T:
        """The result of the group from its accumulator."""
        raise NotImplementedError("get_value must be implemented")


class TableAggregateFunction(ImperativeAggregateFunction[T, ACC]):
    """A table aggregate function: many rows of a group to many rows; implement ``emit_value``."""

    def emit_value(self, accumulator: ACC) -> Iterable[T]:
        """The rows of the group (Rows, tuples or single values), from its accumulator."""
        raise NotImplementedError("emit_value must be implemented")
