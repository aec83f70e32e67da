"""Running several backends over many puzzles: in this process, or in a pool of warm workers.

Shared by `crosscheck` and `bench`. Each worker process builds its backends once and keeps them
(one persistent SAT solver, OR-Tools imported once); puzzles travel in chunks big enough to dwarf
the pool's per-task cost; results come back in input order. What can go wrong is contained:

- an exception from a backend on one puzzle becomes an error for that (puzzle, backend), and the
  backend is rebuilt, since a solver that raised may hold a broken state;
- a worker process that dies (a native solver aborting) is replaced, and the chunk it was on is
  re-run one (puzzle, backend) at a time, so the one that kills the process is named;
- workers sit in their own process group, so Ctrl-C reaches only the driver, which stops the pool
  and lets the caller report what was done.
"""

from __future__ import annotations

import collections
import logging
import math
import multiprocessing
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from .backends import Backend, get_backend
from .formats import PuzzleRecord
from .grid import Grid
from .result import Mode, SolveResult

LOGGER = logging.getLogger(__name__)

IN_FLIGHT_PER_WORKER = 4  # chunks queued per worker: keeps workers busy, results flowing in order


@dataclass(frozen=True)
class BackendSpec:
    """A backend to run, by registry name, with its options."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)

    def build(self) -> Backend:
        return get_backend(self.name, **self.options)


@dataclass(frozen=True)
class SolveSettings:
    """What to ask of every backend for every puzzle."""

    mode: Mode = Mode.LEXMIN
    limit: int = 2
    time_limit: float | None = None
    warmup: int = 0   # untimed solves before the measured ones (bench)
    repeat: int = 1   # measured solves per (puzzle, backend)


@dataclass
class PuzzleRun:
    """Everything the backends produced for one puzzle."""

    record: PuzzleRecord
    results: dict[str, list[SolveResult]] = field(default_factory=dict)  # backend -> repeats
    errors: dict[str, str] = field(default_factory=dict)  # backend -> what went wrong

    def result(self, backend: str) -> SolveResult | None:
        """The (first) measured result of a backend, None when it failed on this puzzle."""
        found = self.results.get(backend)
        return found[0] if found else None


# One task: (position in the run, grid); the answer: (position, results, errors).
_Task = tuple[int, Grid]
_Answer = tuple[int, dict[str, list[SolveResult]], dict[str, str]]


class _WarmBackends:
    """The backends of one process, built once and rebuilt after a failure."""

    def __init__(self, specs: Sequence[BackendSpec], settings: SolveSettings) -> None:
        self.specs = list(specs)
        self.settings = settings
        self.backends: dict[str, Backend] = {spec.name: spec.build() for spec in self.specs}

    def solve(self, task: _Task, only: str | None = None) -> _Answer:
        position, grid = task
        results: dict[str, list[SolveResult]] = {}
        errors: dict[str, str] = {}
        settings = self.settings
        for spec in self.specs:
            if only is not None and spec.name != only:
                continue
            backend = self.backends[spec.name]
            try:
                for _ in range(settings.warmup):
                    backend.solve(grid, mode=settings.mode, limit=settings.limit,
                                  time_limit=settings.time_limit)
                results[spec.name] = [
                    backend.solve(grid, mode=settings.mode, limit=settings.limit,
                                  time_limit=settings.time_limit)
                    for _ in range(settings.repeat)]
            except Exception as error:  # a backend bug must not end the run
                LOGGER.warning("%s failed on puzzle %d: %r", spec.name, position, error)
                errors[spec.name] = f"{type(error).__name__}: {error}"
                self.rebuild(spec)
        return position, results, errors

    def rebuild(self, spec: BackendSpec) -> None:
        try:
            self.backends[spec.name].close()
        except Exception:  # closing a broken solver may fail too; it is dropped either way
            pass
        self.backends[spec.name] = spec.build()

    def close(self) -> None:
        for backend in self.backends.values():
            backend.close()


_WORKER: _WarmBackends | None = None


def _start_worker(specs: Sequence[BackendSpec], settings: SolveSettings) -> None:
    global _WORKER
    os.setpgrp()  # Ctrl-C in the terminal goes to the driver only
    _WORKER = _WarmBackends(specs, settings)


def _solve_chunk(chunk: list[_Task]) -> list[_Answer]:
    assert _WORKER is not None
    return [_WORKER.solve(task) for task in chunk]


def _solve_one(task: _Task, backend: str) -> _Answer:
    assert _WORKER is not None
    return _WORKER.solve(task, only=backend)


def default_jobs() -> int:
    """The machine's cores (what `--jobs` defaults to)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def run(records: Sequence[PuzzleRecord], specs: Sequence[BackendSpec], settings: SolveSettings,
        *, jobs: int = 1, chunk_size: int | None = None) -> Iterator[PuzzleRun]:
    """Solve every puzzle (records without a grid are skipped) with every backend, in order.

    Raises:
        KeyboardInterrupt: after stopping the workers, so the caller can report what was done.
    """
    runnable = [record for record in records if record.grid is not None]
    if jobs <= 1 or len(runnable) <= 1:
        yield from _run_here(runnable, specs, settings)
    else:
        size = chunk_size or max(1, min(32, math.ceil(len(runnable) / (jobs * 8))))
        yield from _run_pool(runnable, specs, settings, jobs, size)


def _run_here(records: Sequence[PuzzleRecord], specs: Sequence[BackendSpec],
              settings: SolveSettings) -> Iterator[PuzzleRun]:
    warm = _WarmBackends(specs, settings)
    try:
        for position, record in enumerate(records):
            assert record.grid is not None
            _, results, errors = warm.solve((position, record.grid))
            yield PuzzleRun(record, results, errors)
    finally:
        warm.close()


class _Pool:
    """A process pool that can be replaced when a worker dies."""

    def __init__(self, specs: Sequence[BackendSpec], settings: SolveSettings, jobs: int) -> None:
        self.args = (list(specs), settings)
        self.jobs = jobs
        self.executor = self._new()

    def _new(self) -> ProcessPoolExecutor:
        # fork: workers inherit the registry (test backends included) and start in milliseconds.
        return ProcessPoolExecutor(max_workers=self.jobs, initializer=_start_worker,
                                   initargs=self.args,
                                   mp_context=multiprocessing.get_context("fork"))

    def renew(self) -> None:
        self.stop()
        self.executor = self._new()

    def stop(self) -> None:
        processes = list(getattr(self.executor, "_processes", {}).values())
        self.executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:  # workers ignore Ctrl-C (own process group): end them here
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(timeout=5)


def _run_pool(records: Sequence[PuzzleRecord], specs: Sequence[BackendSpec],
              settings: SolveSettings, jobs: int, chunk_size: int) -> Iterator[PuzzleRun]:
    chunks = [[(position, records[position].grid)
               for position in range(start, min(start + chunk_size, len(records)))]
              for start in range(0, len(records), chunk_size)]
    pool = _Pool(specs, settings, jobs)
    pending: collections.deque[tuple[list[_Task], Future[list[_Answer]]]] = collections.deque()
    next_chunk = 0
    try:
        while next_chunk < len(chunks) or pending:
            while next_chunk < len(chunks) and len(pending) < jobs * IN_FLIGHT_PER_WORKER:
                chunk = chunks[next_chunk]
                pending.append((chunk, pool.executor.submit(_solve_chunk, chunk)))  # type: ignore[arg-type]
                next_chunk += 1
            chunk, future = pending.popleft()
            try:
                answers = future.result()
            except BrokenProcessPool:
                answers = _isolate(chunk, pool, specs)
                requeue = [queued for queued, _ in pending]
                pending.clear()
                for queued in requeue:  # they died with the pool: send them again
                    pending.append((queued, pool.executor.submit(_solve_chunk, queued)))  # type: ignore[arg-type]
            for position, results, errors in answers:
                yield PuzzleRun(records[position], results, errors)
    finally:
        pool.stop()


def _isolate(chunk: list[_Task], pool: _Pool, specs: Sequence[BackendSpec]) -> list[_Answer]:
    """Re-run a chunk whose worker died, one (puzzle, backend) at a time, naming the killer."""
    pool.renew()
    answers = []
    for task in chunk:
        results: dict[str, list[SolveResult]] = {}
        errors: dict[str, str] = {}
        for spec in specs:
            try:
                _, one_results, one_errors = pool.executor.submit(
                    _solve_one, task, spec.name).result()
            except BrokenProcessPool:
                LOGGER.warning("%s killed its worker on puzzle %d", spec.name, task[0])
                errors[spec.name] = "worker process died while solving this puzzle"
                pool.renew()
                continue
            results.update(one_results)
            errors.update(one_errors)
        answers.append((task[0], results, errors))
    return answers

