"""The one run engine under `solve`, `crosscheck`, `bench` and the Python API.

A run is a plan - a lazy stream of puzzles x backend configurations x repeats - handed to an
executor, which solves each puzzle with every configuration and yields the raw results in input
order. The engine verifies every answer with the one checker (`verify.compare`), appends each
puzzle's record to the results log when there is one, and yields `PuzzleResult`s. Callers render.

Executors (all keep their backends warm: one kept SAT solver per shape, OR-Tools imported once):

- `InlineExecutor`: in this process.
- `PoolExecutor`: a pool of worker processes fed chunks of puzzles, a bounded number in flight, so
  memory stays flat however long the input. A worker that dies (a native solver aborting, a kill)
  is replaced and its chunk retried; a chunk that keeps killing its worker is re-run one
  (puzzle, backend) at a time, so the culprit is named. Workers ignore Ctrl-C (their own process
  group; the driver stops them) and exit by themselves when the driver is gone.
- A cluster executor is one more subclass of `Executor` (see `executors_dask.py`).
"""

from __future__ import annotations

import abc
import collections
import itertools
import logging
import os
import signal
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the pool's modules load only when a pool runs (solve -j 1 stays quick)
    from concurrent.futures import Future, ProcessPoolExecutor

from .backends import Backend, get_backend
from .formats import PuzzleRecord
from .grid import Grid, Shape, default_box
from .result import Mode, SolveResult
from .verify import ERROR, compare

LOGGER = logging.getLogger(__name__)

IN_FLIGHT_PER_WORKER = 4  # chunks queued per worker: keeps workers busy, results flowing in order
CHUNK_SIZE = 16           # puzzles per task: dwarfs the pool's per-task cost, keeps order cheap
WORKER_RETRIES = 2        # a chunk whose worker died is re-sent this many times, then isolated


@dataclass(frozen=True)
class BackendSpec:
    """A backend configuration: a registry name, its options, and the label it is shown under."""

    name: str
    options: Mapping[str, Any] = field(default_factory=dict)
    label: str = ""

    def __post_init__(self) -> None:
        if not self.label:
            object.__setattr__(self, "label", self.name)

    def build(self) -> Backend:
        return get_backend(self.name, **dict(self.options))

    def describe(self) -> dict[str, Any]:
        """JSON-ready: label, backend name and options (what a results header records)."""
        return {"label": self.label, "backend": self.name, "options": dict(self.options)}


@dataclass(frozen=True)
class SolveSettings:
    """What to ask of every configuration for every puzzle."""

    mode: Mode = Mode.LEXMIN
    limit: int = 2
    time_limit: float | None = None
    warmup: int = 0       # untimed solves of each puzzle before its measured ones (bench)
    repeat: int = 1       # measured solves per (puzzle, configuration)
    prime: bool = False   # solve the first puzzle of each shape once, untimed, in each worker

    def to_dict(self) -> dict[str, Any]:
        return {"mode": str(self.mode), "limit": self.limit if self.mode is Mode.COUNT else None,
                "time_limit": self.time_limit, "repeat": self.repeat, "warmup": self.warmup}


@dataclass
class PuzzleRun:
    """What the configurations produced for one puzzle, before any check."""

    record: PuzzleRecord
    results: dict[str, list[SolveResult]] = field(default_factory=dict)  # label -> repeats
    cpu: dict[str, list[float]] = field(default_factory=dict)             # label -> CPU seconds
    errors: dict[str, str] = field(default_factory=dict)                  # label -> what failed
    max_rss: dict[str, float] = field(default_factory=dict)  # label -> MB, the process's peak

    def merge(self, other: PuzzleRun) -> None:
        """Take in what another run of the same puzzle produced (other configurations)."""
        self.results.update(other.results)
        self.cpu.update(other.cpu)
        self.errors.update(other.errors)
        self.max_rss.update(other.max_rss)

    def result(self, label: str) -> SolveResult | None:
        """The first measured result of a configuration, None when it failed."""
        found = self.results.get(label)
        return found[0] if found else None


@dataclass(frozen=True)
class Run:
    """One verified run: a configuration's answer on a puzzle, in the run vocabulary."""

    label: str
    repeat: int
    status: str                 # solved, unsatisfiable, timeout, wrong, error
    result: SolveResult | None  # None for an error
    reason: str | None = None
    disagrees: bool = False
    cpu_seconds: float | None = None
    max_rss_mb: float | None = None  # peak memory of the process that ran it, so far

    @property
    def seconds(self) -> float | None:
        return None if self.result is None else self.result.seconds

    def to_dict(self) -> dict[str, Any]:
        result = self.result
        stats = dict(result.stats) if result is not None else {}
        data: dict[str, Any] = {
            "backend": self.label, "repeat": self.repeat, "status": self.status,
            "seconds": _round(result.seconds) if result is not None else None,
            "cpu_seconds": _round(self.cpu_seconds),
            "max_rss_mb": None if self.max_rss_mb is None else round(self.max_rss_mb, 1),
            "build_seconds": _round(stats.pop("build_seconds", None)),
            "solve_seconds": _round(stats.pop("solve_seconds", None)),
            "solution": (result.solution.to_line()
                         if result is not None and result.solution is not None else None),
        }
        if result is not None and result.mode is Mode.COUNT:
            data.update(count=result.count, limit_reached=result.limit_reached)
        if self.reason:
            data["reason"] = self.reason
        if self.disagrees:
            data["disagrees"] = True
        data["stats"] = stats
        return data


@dataclass
class PuzzleResult:
    """One puzzle after every configuration ran and every answer was checked."""

    record: PuzzleRecord
    mode: Mode
    runs: list[Run] = field(default_factory=list)
    verdict: str | None = None   # None for input that is not a puzzle
    findings: list[str] = field(default_factory=list)

    def run(self, label: str) -> Run | None:
        """The first repeat of a configuration."""
        return next((run for run in self.runs if run.label == label), None)

    def to_record(self, *, set_name: str | None = None) -> dict[str, Any]:
        """The results-log record of this puzzle (also `crosscheck --format jsonl`)."""
        record = self.record
        grid = record.grid
        assert grid is not None, "only puzzles are logged"
        data: dict[str, Any] = {
            "kind": "puzzle", "index": record.index, "set": set_name or set_of(record.source),
            "number": record.number, "source": record.source, "line": record.line,
            "puzzle": record.text}
        if grid.box != default_box(grid.size):
            data["box"] = f"{grid.box[0]}x{grid.box[1]}"  # needed to read the grids back
        data.update(size=grid.size, givens=len(grid.values) - grid.values.count(0),
                    mode=str(self.mode),
                    verdict=self.verdict, findings=self.findings,
                    runs=[run.to_dict() for run in self.runs])
        return data


def set_of(source: str) -> str:
    """The set a source's puzzles belong to: 'top95' for '../shared/data/top95.txt'."""
    if source == "<stdin>":
        return "stdin"
    name = os.path.basename(source)
    return name.rsplit(".", 1)[0] if "." in name.strip(".") else name


def _round(seconds: float | None) -> float | None:
    return None if seconds is None else round(float(seconds), 7)


# -- the warm backends of one process --------------------------------------------------------------

def peak_memory_mb() -> float | None:
    """This process's peak resident memory so far (Linux: kB; macOS: bytes), in MB."""
    try:
        import resource
        import sys
    except ImportError:  # pragma: no cover - not on Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


class WarmBackends:
    """The backends of one process, built once and rebuilt after a failure."""

    def __init__(self, specs: Sequence[BackendSpec], settings: SolveSettings) -> None:
        self.specs = list(specs)
        self.settings = settings
        self.backends: dict[str, Backend] = {spec.label: spec.build() for spec in self.specs}
        self.primed: set[tuple[int, Shape]] = set()

    def solve(self, record: PuzzleRecord, only: str | None = None) -> PuzzleRun:
        run = PuzzleRun(record)
        grid = record.grid
        if grid is None:
            return run
        settings = self.settings
        shape = (grid.size, grid.box)
        prime = settings.prime and settings.warmup == 0 and shape not in self.primed
        self.primed.add(shape)
        for spec in self.specs:
            if only is not None and spec.label != only:
                continue
            backend = self.backends[spec.label]
            try:
                for _ in range(settings.warmup + prime):
                    self._solve_once(backend, grid)
                results, cpu = [], []
                for _ in range(settings.repeat):
                    started = time.process_time()
                    results.append(self._solve_once(backend, grid))
                    cpu.append(time.process_time() - started)
                run.results[spec.label], run.cpu[spec.label] = results, cpu
                peak = peak_memory_mb()
                if peak is not None:
                    run.max_rss[spec.label] = peak
            except Exception as error:  # a backend bug must not end the run
                LOGGER.info("%s failed on %s: %r", spec.label, record.where, error)  # reported
                run.errors[spec.label] = f"{type(error).__name__}: {error}"
                self.rebuild(spec)
        return run

    def _solve_once(self, backend: Backend, grid: Grid) -> SolveResult:
        settings = self.settings
        return backend.solve(grid, mode=settings.mode, limit=settings.limit,
                             time_limit=settings.time_limit)

    def rebuild(self, spec: BackendSpec) -> None:
        try:
            self.backends[spec.label].close()
        except Exception:  # closing a broken solver may fail too; it is dropped either way
            pass
        self.backends[spec.label] = spec.build()

    def close(self) -> None:
        for backend in self.backends.values():
            backend.close()


# -- executors -------------------------------------------------------------------------------------

class Executor(abc.ABC):
    """Solves a stream of puzzles with every configuration; yields `PuzzleRun`s in input order.

    `map` consumes `records` lazily (a bounded number ahead), so the first answer comes before the
    input ends. Closing the returned iterator (or `close()`) cancels what is still running.
    """

    name = "executor"

    @abc.abstractmethod
    def map(self, records: Iterable[PuzzleRecord], specs: Sequence[BackendSpec],
            settings: SolveSettings) -> Iterator[PuzzleRun]:
        """Every record's run, in order (records without a grid come back with no results)."""

    def close(self) -> None:
        """Release what the executor holds (processes, a cluster connection)."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class InlineExecutor(Executor):
    """Everything in this process: the simplest, and the one for timings with one core."""

    name = "inline"

    def map(self, records: Iterable[PuzzleRecord], specs: Sequence[BackendSpec],
            settings: SolveSettings) -> Iterator[PuzzleRun]:
        warm = WarmBackends(specs, settings)
        try:
            for record in records:
                yield warm.solve(record)
        finally:
            warm.close()


_WORKER: WarmBackends | None = None
_DRIVER_PID = 0
PR_SET_PDEATHSIG = 1


def _start_worker(specs: Sequence[BackendSpec], settings: SolveSettings, driver: int) -> None:
    global _WORKER, _DRIVER_PID
    os.setpgrp()  # Ctrl-C in the terminal goes to the driver only
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a stray SIGINT to a worker stops nothing
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _DRIVER_PID = driver
    _die_with_parent()
    _WORKER = WarmBackends(specs, settings)


def _die_with_parent() -> None:
    """Ask Linux to kill this worker when the driver dies; elsewhere the pid check suffices."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if os.getppid() != _DRIVER_PID:  # the driver died before prctl took effect
        os._exit(1)


def _check_driver() -> None:
    if _DRIVER_PID and os.getppid() != _DRIVER_PID:
        os._exit(1)  # orphaned: nobody will read the answers


def _solve_chunk(chunk: list[PuzzleRecord]) -> list[PuzzleRun]:
    assert _WORKER is not None
    answers = []
    for record in chunk:
        _check_driver()
        answers.append(_WORKER.solve(record))
    return answers


def _solve_one(record: PuzzleRecord, label: str) -> PuzzleRun:
    assert _WORKER is not None
    _check_driver()
    return _WORKER.solve(record, only=label)


class _Pool:
    """A process pool that can be replaced when a worker dies."""

    def __init__(self, specs: Sequence[BackendSpec], settings: SolveSettings, jobs: int) -> None:
        self.args = (list(specs), settings, os.getpid())
        self.jobs = jobs
        self.executor = self._new()

    def _new(self) -> ProcessPoolExecutor:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        # fork: workers inherit the registry (test and plugin backends) and start in milliseconds.
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
        try:  # join the pool's manager thread now, not at interpreter exit (EBADF noise)
            self.executor.shutdown(wait=True)
        except Exception:
            pass


class PoolExecutor(Executor):
    """`jobs` worker processes on this machine, each keeping its backends warm."""

    name = "local"

    def __init__(self, jobs: int, *, chunk_size: int = CHUNK_SIZE) -> None:
        self.jobs = max(1, jobs)
        self.chunk_size = max(1, chunk_size)

    def map(self, records: Iterable[PuzzleRecord], specs: Sequence[BackendSpec],
            settings: SolveSettings) -> Iterator[PuzzleRun]:
        from concurrent.futures.process import BrokenProcessPool

        chunks = _chunks(records, self.chunk_size)
        pool = _Pool(specs, settings, self.jobs)
        pending: collections.deque[tuple[list[PuzzleRecord], Future[list[PuzzleRun]], int]] = \
            collections.deque()

        def submit(chunk: list[PuzzleRecord], tries: int) -> None:
            pending.append((chunk, pool.executor.submit(_solve_chunk, chunk), tries))

        try:
            for chunk in itertools.islice(chunks, self.jobs * IN_FLIGHT_PER_WORKER):
                submit(chunk, 0)
            while pending:
                chunk, future, tries = pending.popleft()
                try:
                    answers = future.result()
                except BrokenProcessPool:
                    recovered = self._recover(pool, chunk, tries, pending, specs)
                    if recovered is None:
                        continue  # re-sent: it comes round again, still first in line
                    answers = recovered
                yield from answers
                next_chunk = next(chunks, None)
                if next_chunk is not None:
                    submit(next_chunk, 0)
        finally:
            pool.stop()

    def _recover(self, pool: _Pool, chunk: list[PuzzleRecord], tries: int,
                 pending: collections.deque[tuple[list[PuzzleRecord], Future[list[PuzzleRun]],
                                                  int]],
                 specs: Sequence[BackendSpec]) -> list[PuzzleRun] | None:
        """A worker died: renew the pool and re-send everything in flight; a chunk that has
        killed its worker too often is run one (puzzle, configuration) at a time instead."""
        pool.renew()
        queued = [(queued_chunk, queued_tries) for queued_chunk, _, queued_tries in pending]
        pending.clear()
        answers = None
        if tries < WORKER_RETRIES:
            pending.append((chunk, pool.executor.submit(_solve_chunk, chunk), tries + 1))
        else:
            answers = _isolate(chunk, pool, specs)
        for queued_chunk, queued_tries in queued:  # they died with the pool: send them again
            pending.append((queued_chunk, pool.executor.submit(_solve_chunk, queued_chunk),
                            queued_tries))
        return answers


class IsolatedExecutor(Executor):
    """Each configuration in a worker process of its own, run one after the other on each
    chunk: timings stay sequential (one solve at a time, as inline), and each run's
    `max_rss_mb` is the peak memory of its configuration's process alone."""

    name = "isolated"

    def __init__(self, *, chunk_size: int = CHUNK_SIZE) -> None:
        self.chunk_size = max(1, chunk_size)

    def map(self, records: Iterable[PuzzleRecord], specs: Sequence[BackendSpec],
            settings: SolveSettings) -> Iterator[PuzzleRun]:
        from concurrent.futures.process import BrokenProcessPool

        pools = {spec.label: _Pool([spec], settings, 1) for spec in specs}
        try:
            for chunk in _chunks(records, self.chunk_size):
                merged = [PuzzleRun(record) for record in chunk]
                for spec in specs:
                    pool = pools[spec.label]
                    try:
                        answers = pool.executor.submit(_solve_chunk, chunk).result()
                    except BrokenProcessPool:
                        answers = _isolate(chunk, pool, [spec])
                    for whole, part in zip(merged, answers):
                        whole.merge(part)
                yield from merged
        finally:
            for pool in pools.values():
                pool.stop()


def _chunks(records: Iterable[PuzzleRecord], size: int) -> Iterator[list[PuzzleRecord]]:
    iterator = iter(records)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk


def _isolate(chunk: list[PuzzleRecord], pool: _Pool,
             specs: Sequence[BackendSpec]) -> list[PuzzleRun]:
    """Re-run a chunk whose worker kept dying, one (puzzle, configuration) at a time, each
    given one more try, so that the one that kills its worker is named."""
    from concurrent.futures.process import BrokenProcessPool

    answers = []
    for record in chunk:
        run = PuzzleRun(record)
        for spec in specs:
            if record.grid is None:
                break
            for attempt in range(2):
                try:
                    one = pool.executor.submit(_solve_one, record, spec.label).result()
                except BrokenProcessPool:
                    pool.renew()
                    if attempt == 1:
                        LOGGER.warning("%s killed its worker twice on %s", spec.label,
                                       record.where)
                        run.errors[spec.label] = (
                            f"worker process died while running {spec.label} on this puzzle "
                            f"({WORKER_RETRIES + 3} tries)")
                    continue
                run.merge(one)
                break
        answers.append(run)
    return answers


def default_jobs() -> int:
    """The machine's cores (what `--jobs` defaults to for crosscheck)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def make_executor(kind: str | Executor | None = None, *, jobs: int = 1,
                  scheduler: str | None = None, client: Any = None) -> Executor:
    """An executor by name: 'inline', 'local' (a pool of `jobs` processes; inline for one job),
    'isolated' (a process per configuration) or 'dask'; an `Executor` instance is returned as is.

    Raises:
        ExecutorError: for an unknown name, or dask without its extra installed.
    """
    from .errors import ExecutorError

    if isinstance(kind, Executor):
        return kind
    if kind in (None, "local"):
        return PoolExecutor(jobs) if jobs > 1 else InlineExecutor()
    if kind == "inline":
        return InlineExecutor()
    if kind == "isolated":
        return IsolatedExecutor()
    if kind == "dask":
        from .executors_dask import DaskExecutor
        dask: Executor = DaskExecutor(jobs=jobs, scheduler=scheduler, client=client)
        return dask
    raise ExecutorError(f"unknown executor {kind!r} (choose from local, isolated, dask)")


# -- the engine ------------------------------------------------------------------------------------

def judge(run: PuzzleRun, specs: Sequence[BackendSpec], mode: Mode) -> PuzzleResult:
    """Check every answer of one puzzle with the one verifier, then compare them."""
    record = run.record
    puzzle = record.grid
    outcome = PuzzleResult(record, mode)
    if puzzle is None:
        return outcome
    names: dict[str, tuple[str, int]] = {}
    results: dict[str, SolveResult | None] = {}
    errors: dict[str, str] = {}
    for spec in specs:
        repeats = run.results.get(spec.label, [])
        if spec.label in run.errors or not repeats:
            results[spec.label] = None
            errors[spec.label] = run.errors.get(spec.label, "no result")
            names[spec.label] = (spec.label, 0)
            continue
        for repeat, result in enumerate(repeats):
            name = spec.label if repeat == 0 else f"{spec.label}#{repeat}"
            results[name] = result
            names[name] = (spec.label, repeat)
    judged, findings, verdict = compare(results, puzzle, mode, errors)
    for name, entry in judged.items():
        label, repeat = names[name]
        cpu = run.cpu.get(label, [])
        outcome.runs.append(Run(label, repeat, entry.status, results[name], entry.reason,
                                entry.disagrees, cpu[repeat] if repeat < len(cpu) else None,
                                run.max_rss.get(label)))
    outcome.verdict, outcome.findings = verdict, findings
    return outcome


def execute(records: Iterable[PuzzleRecord], specs: Sequence[BackendSpec],
            settings: SolveSettings, *, executor: Executor | None = None,
            log: Callable[[PuzzleResult], None] | None = None
            ) -> Generator[PuzzleResult, None, None]:
    """Run every configuration on every record, in input order, each answer verified.

    `log` is called with each puzzle's result before it is yielded (the results log). Closing
    the iterator, or an exception (Ctrl-C), stops the executor's work.
    """
    executor = executor or InlineExecutor()
    runs = executor.map(records, specs, settings)
    try:
        for run in runs:
            result = judge(run, specs, settings.mode)
            if log is not None and result.verdict is not None:
                log(result)
            yield result
    finally:
        close = getattr(runs, "close", None)
        if close is not None:
            close()


__all__ = ["BackendSpec", "ERROR", "Executor", "InlineExecutor", "IsolatedExecutor",
           "PoolExecutor", "PuzzleResult", "PuzzleRun", "Run", "SolveSettings", "WarmBackends", "default_jobs", "execute",
           "judge", "make_executor", "set_of"]
