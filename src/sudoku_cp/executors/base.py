"""What every executor shares: the `Job` it runs, the `Executor` contract, chunking.

An executor knows nothing of Sudoku: it hands a stream of items to workers that each run a `Job`
(the engine's job solves a puzzle with every configuration; certification is another), and
yields each item's output in input order. A job is picklable; `Job.start()` runs in the worker
and builds the worker's state once (warm backends, a kept SAT solver). An item's work can be
split into independent `parts` (the configurations): when an item keeps killing its worker, the
executor runs it part by part, so the part that kills is named (`Job.failed`) and the others
still get their output (`Job.merge`).
"""

from __future__ import annotations

import abc
import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

IN_FLIGHT_PER_WORKER = 4  # chunks queued per worker: keeps workers busy, results flowing in order
CHUNK_SIZE = 16  # items per task: dwarfs a process pool's per-task cost
WORKER_RETRIES = 2  # a chunk whose worker died is re-sent this many times, then isolated


class JobWorker(abc.ABC):
    """A job's state in one worker (process or thread), built by `Job.start`."""

    @abc.abstractmethod
    def run(self, item: Any, part: str | None = None) -> Any:
        """One item's output (only `part` of it when given). Never raises for a failure of the
        work itself: that is recorded in the output."""

    def close(self) -> None:
        """Release what the worker holds."""


class Job(abc.ABC):
    """The work an executor hands its workers: picklable (a Dask worker reuses its state for a
    job that pickles like the last one)."""

    @property
    @abc.abstractmethod
    def parts(self) -> Sequence[str]:
        """The independent parts of an item's work, for running an item part by part."""

    @abc.abstractmethod
    def start(self) -> JobWorker:
        """The worker's state, built in the worker."""

    @abc.abstractmethod
    def only(self, part: str) -> Job:
        """This job restricted to one of its parts (a worker that builds only that part's
        state: the isolated executor's worker for one configuration)."""

    @abc.abstractmethod
    def failed(self, item: Any, part: str, reason: str) -> Any:
        """The output of a part whose worker died on it, saying why."""

    @abc.abstractmethod
    def merge(self, item: Any, outputs: Sequence[Any]) -> Any:
        """One item's output made from its parts' outputs."""

    def seconds(self, output: Any) -> float:
        """The work time an output took (sizes the tasks of executors that adapt them)."""
        return 0.0

    def deadline(self) -> float | None:
        """Seconds an item's part may run before the fresh executor kills it (None: no end)."""
        return None

    def timed_out(self, item: Any, part: str, seconds: float) -> Any:
        """The output of a part killed at its deadline."""
        return self.failed(item, part, f"killed at its deadline of {seconds:g} s")

    def cold(self) -> Job:
        """This job for a worker that runs a single item (the fresh executor's child): without
        work that only pays off over several items."""
        return self


class Executor(abc.ABC):
    """Runs a job on a stream of items; yields the outputs in input order.

    `map` consumes `items` lazily (a bounded number ahead), so the first output comes before the
    input ends. Closing the returned iterator (or `close()`) cancels what is still running.
    """

    name = "executor"

    @abc.abstractmethod
    def map(self, items: Iterable[Any], job: Job) -> Iterator[Any]:
        """Every item's output, in input order."""

    def close(self) -> None:
        """Release what the executor holds (processes, a cluster connection)."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def chunks(items: Iterable[Any], size: int, *, growing: bool = False) -> Iterator[list[Any]]:
    """The items in lists of `size` (the last one shorter). `growing` starts with one item and
    doubles up to `size`, so that the first outputs come back at once (and an interrupted run
    has kept something) while later tasks stay long enough to hide their cost."""
    iterator = iter(items)
    length = 1 if growing else size
    while chunk := list(itertools.islice(iterator, length)):
        yield chunk
        length = min(size, 2 * length)


__all__ = [
    "CHUNK_SIZE",
    "IN_FLIGHT_PER_WORKER",
    "WORKER_RETRIES",
    "Executor",
    "Job",
    "JobWorker",
    "chunks",
]
