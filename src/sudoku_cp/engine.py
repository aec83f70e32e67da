"""The one run engine under `solve`, `crosscheck`, `bench` and the Python API.

A run is a stream of puzzles, a list of configurations and the settings (mode, limits, repeats):
`execute` hands the puzzles to an executor running a `SolveJob` (each worker solves each puzzle
with every configuration, keeping its backends warm), checks every answer with the one verifier
(`runs.judge`), hands each checked puzzle to the results log when there is one, and yields it,
in input order. An input line that is not a puzzle comes through in its place as a
`SkippedLine` (its `reason` says why), so a caller can report it where it was.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Generator, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .backends import Backend
from .configurations import Configuration
from .executors import Executor, Job, JobWorker
from .executors.inline import InlineExecutor
from .formats import InputPuzzle
from .grid import Grid, Shape
from .judging import CheckedPuzzle, Judged, PuzzleRuns, SkippedLine, SolveSettings, judge
from .result import SolveResult, Status

if TYPE_CHECKING:
    from .certify import Certification

LOGGER = logging.getLogger(__name__)
DEADLINE_GRACE = 10.0  # seconds past the time limits before the fresh executor kills a solve


def peak_memory_mb() -> float | None:
    """This process's peak resident memory so far (Linux: kB; macOS: bytes), in MB."""
    try:
        import resource
        import sys
    except ImportError:  # pragma: no cover - not on Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


class SolveJob(Job):
    """Solve each puzzle with every configuration: the engine's job for every executor. Its
    parts are the configurations' labels."""

    def __init__(
        self,
        configurations: Sequence[Configuration],
        settings: SolveSettings,
        stopped: dict[str, int] | None = None,
    ) -> None:
        self.configurations = list(configurations)
        self.settings = settings
        # --stop-at-timeout: label -> the size it timed out at. Shared with the driver, so seen
        # by workers in this process or forked after the timeout (inline and fresh executors).
        self.stopped = {} if stopped is None else stopped

    @property
    def parts(self) -> Sequence[str]:
        return [configuration.label for configuration in self.configurations]

    def start(self) -> WarmBackends:
        return WarmBackends(self.configurations, self.settings, self.stopped)

    def only(self, part: str) -> SolveJob:
        chosen = [item for item in self.configurations if item.label == part]
        return SolveJob(chosen, self.settings, self.stopped)

    def failed(self, item: Any, part: str, reason: str) -> PuzzleRuns:
        return PuzzleRuns(item, errors={part: reason})

    def merge(self, item: Any, outputs: Sequence[Any]) -> PuzzleRuns:
        merged = PuzzleRuns(item)
        for output in outputs:
            merged.merge(output)
        return merged

    def seconds(self, output: Any) -> float:
        return float(output.solve_seconds)

    def deadline(self) -> float | None:
        """Every timed and untimed solve of an item's part at the time limit, half as much
        again, and `DEADLINE_GRACE` seconds for the set-up a solve's clock leaves out."""
        settings = self.settings
        if settings.time_limit is None:
            return None
        solves = settings.repeat + settings.warmup + settings.prime
        return 1.5 * solves * settings.time_limit + DEADLINE_GRACE

    def timed_out(self, item: Any, part: str, seconds: float) -> PuzzleRuns:
        (configuration,) = [item for item in self.configurations if item.label == part]
        timeout = SolveResult(
            backend=configuration.backend,
            mode=self.settings.mode,
            status=Status.TIMEOUT,
            seconds=seconds,
            reason=f"killed at its deadline of {seconds:g} s",
        )
        runs = PuzzleRuns(item)
        runs.results[part] = [timeout] * self.settings.repeat
        return runs

    def cold(self) -> SolveJob:
        """No priming: a single item's process would solve it twice."""
        cold = dataclasses.replace(self.settings, prime=False)
        return SolveJob(self.configurations, cold, self.stopped)


class WarmBackends(JobWorker):
    """The backends of one worker, built once and rebuilt after a failure."""

    def __init__(
        self,
        configurations: Sequence[Configuration],
        settings: SolveSettings,
        stopped: dict[str, int] | None = None,
    ) -> None:
        self.configurations = list(configurations)
        self.settings = settings
        self.stopped = {} if stopped is None else stopped
        self.backends: dict[str, Backend] = {item.label: item.build() for item in configurations}
        self.primed: set[tuple[int, Shape]] = set()

    def run(self, item: Any, part: str | None = None) -> PuzzleRuns:
        puzzle: InputPuzzle = item
        runs = PuzzleRuns(puzzle)
        grid = puzzle.grid
        if grid is None:
            return runs
        settings = self.settings
        shape = (grid.size, grid.box)
        prime = settings.prime and settings.warmup == 0 and shape not in self.primed
        self.primed.add(shape)
        for configuration in self.configurations:
            label = configuration.label
            if part is not None and label != part:
                continue
            if grid.size >= self.stopped.get(label, grid.size + 1):
                skipped = _not_run(configuration, settings, self.stopped[label])
                runs.results[label] = [skipped] * settings.repeat
                continue
            backend = self.backends[label]
            try:
                for _ in range(settings.warmup + prime):
                    self._solve_once(backend, grid)
                results, cpu = [], []
                for _ in range(settings.repeat):
                    started = time.process_time()
                    result = self._solve_once(backend, grid)
                    results.append(result)
                    # A backend that solves in a helper process reports that process's CPU.
                    helper = float(result.stats.get("helper_cpu_seconds", 0.0))
                    cpu.append(time.process_time() - started + helper)
                runs.results[label], runs.cpu[label] = results, cpu
                if settings.certifier is not None:  # after the clocks: not the solver's time
                    runs.certifications[label] = self._certified(grid, results)
                peak = peak_memory_mb()
                if peak is not None:
                    runs.max_rss[label] = peak
            except Exception as error:  # a backend bug must not end the run
                LOGGER.info("%s failed on %s: %r", label, puzzle.where, error)  # reported
                runs.errors[label] = f"{type(error).__name__}: {error}"
                self.rebuild(configuration)
        return runs

    def _solve_once(self, backend: Backend, grid: Grid) -> SolveResult:
        settings = self.settings
        return backend.solve(
            grid, mode=settings.mode, limit=settings.limit, time_limit=settings.time_limit
        )

    def _certified(self, grid: Grid, results: Sequence[SolveResult]) -> list[Certification | None]:
        from .certify import claim_of_result

        certifier = self.settings.certifier
        assert certifier is not None
        claims = [claim_of_result(grid, result) for result in results]
        return [None if claim is None else certifier.certify(claim) for claim in claims]

    def rebuild(self, configuration: Configuration) -> None:
        try:
            self.backends[configuration.label].close()
        except Exception:  # closing a broken solver may fail too; it is dropped either way
            pass
        self.backends[configuration.label] = configuration.build()

    def close(self) -> None:
        for backend in self.backends.values():
            backend.close()


def _not_run(configuration: Configuration, settings: SolveSettings, size: int) -> SolveResult:
    """A timeout not run: the configuration timed out at `size`, and this puzzle is as large."""
    return SolveResult(
        backend=configuration.backend,
        mode=settings.mode,
        status=Status.TIMEOUT,
        reason=f"not run: stopped after a timeout at {size}x{size}",
    )


def _note_timeouts(job: SolveJob, runs: PuzzleRuns) -> None:
    """--stop-at-timeout: each configuration's first size with a timeout in its series (a run
    of puzzles of rising size: a puzzle smaller than the size it stopped at starts a new one)."""
    grid = runs.input.grid
    if grid is None:
        return
    for label, results in runs.results.items():
        if grid.size < job.stopped.get(label, 0):
            del job.stopped[label]
        timed_out = any(result.status is Status.TIMEOUT for result in results)
        if timed_out and label not in job.stopped:
            job.stopped[label] = grid.size


def execute(
    puzzles: Iterable[InputPuzzle],
    configurations: Sequence[Configuration],
    settings: SolveSettings,
    *,
    executor: Executor | None = None,
    log: Callable[[CheckedPuzzle], None] | None = None,
) -> Generator[Judged, None, None]:
    """Run every configuration on every input puzzle, in input order, each answer verified.

    Yields a `CheckedPuzzle` per puzzle and, in its place, a `SkippedLine` for each input line
    that is not a puzzle. `log` is called with each checked puzzle before it is yielded (the
    results log). Closing the iterator, or an exception (Ctrl-C), stops the executor's work.
    """
    executor = executor or InlineExecutor()
    job = SolveJob(configurations, settings)
    outputs = executor.map(puzzles, job)
    try:
        for runs in outputs:
            if settings.stop_at_timeout:
                _note_timeouts(job, runs)
            if runs.input.grid is None:
                yield SkippedLine(runs.input)
                continue
            checked = judge(runs, configurations, settings.mode)
            if log is not None:
                log(checked)
            yield checked
    finally:
        close = getattr(outputs, "close", None)
        if close is not None:
            close()


__all__ = ["SolveJob", "WarmBackends", "execute", "peak_memory_mb"]
