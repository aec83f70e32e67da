"""The crosscheck and bench sessions, written once for both faces (the Python API and the CLI).

A session owns everything around the engine: it opens and locks the results log (checking every
session header already in it on resume), replays the puzzles an earlier session finished -
checking every stored answer again with the one verifier - skips them in the input, runs the
rest through the engine, logs each checked puzzle as it completes, and tallies old and new
together. A log written by either face therefore resumes from the other. The faces only render
and show progress:

    with CrosscheckSession(puzzles, configurations, settings, inputs=["top95"],
                           results="r.jsonl", resume=True) as session:
        for entry in session.replay(): ...       # earlier sessions' entries, checked again
        for item in session.run(): ...           # CheckedPuzzle, or a SkippedLine
    summary = session.summary()

A stored answer that the verifier now finds wrong (a log changed after it was written, or
written by a faulty build) is reported as wrong - its entry gains the finding and its verdict
becomes `wrong` - and not run again: the log is what was claimed, and re-running would hide that
the claim was false.
"""

from __future__ import annotations

import os
import shlex
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from types import TracebackType
from typing import Any, ClassVar

from .agreement import CrosscheckTally, Summary
from .bench_statistics import SummaryRow
from .configurations import Configuration
from .engine import execute
from .environment import (
    check_set_names,
    environment,
    first_of_each_shape,
    import_solvers,
    measure_setup,
)
from .errors import BenchError, GridParseError, GridShapeError, ResultsFileError
from .executors import Executor, default_jobs
from .executors.inline import InlineExecutor
from .formats import InputPuzzle
from .grid import Grid
from .judging import Judged, SkippedLine, SolveSettings, stored_results
from .result import RunStatus
from .results_log.reader import RunRow
from .results_log.records import ConfigurationEntry, Header, PuzzleEntry
from .results_log.resume import make_header
from .results_log.writer import ResultsLog
from .scores import scored_summary
from .verify import compare


def rating_of(grid: Grid | None) -> dict[str, Any] | None:
    """A puzzle's rating by `sudoku_cp.explain` (the techniques alone, as `explain` rates)."""
    from .explain import explain

    return None if grid is None else explain(grid).rating.to_dict()


def command_line() -> str:
    """How this process was started, as a shell would read it (`sudoku-cp crosscheck ...`, or the
    Python program's own arguments)."""
    program = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "python"
    if program in ("sudoku-cp", "__main__.py"):
        program = "sudoku-cp"
    return shlex.join([program, *sys.argv[1:]])


class Session:
    """One crosscheck or bench run (see the module docstring); use it as a context manager."""

    command: ClassVar[str]

    def __init__(
        self,
        puzzles: Iterable[InputPuzzle],
        configurations: Sequence[Configuration],
        settings: SolveSettings,
        *,
        inputs: Sequence[str],
        results: str | os.PathLike[str] | None = None,
        resume: bool = False,
        executor: Executor | None = None,
        jobs: int | None = None,
        argv: str | None = None,
        extra_settings: Mapping[str, Any] | None = None,
        rating: bool = False,
    ) -> None:
        """Raises:
        ResultsFileError: for `resume` without `results`.
        """
        if resume and results is None:
            raise ResultsFileError(
                "resuming needs the results log of the run to continue "
                "(--results FILE; results= in Python)"
            )
        self.puzzles = puzzles
        self.configurations = list(configurations)
        self.settings = settings
        self.inputs = list(inputs)
        self.results = results
        self.resume = resume
        self.executor = executor or InlineExecutor()
        self.jobs = jobs or default_jobs()
        self.argv = argv or command_line()
        self.extra_settings = dict(extra_settings or {})
        self.rating = rating  # each new entry gets the puzzle's explain rating
        if rating:
            self.extra_settings["rating"] = True
        self.log: ResultsLog | None = None
        self.resumed = 0  # records replayed from the log
        self.invalid = 0  # input lines that are not puzzles
        self.new = 0  # puzzles checked in this session
        self.interrupted = False
        self.started = time.perf_counter()
        self.finished: float | None = None
        self._header: Header | None = None

    @property
    def labels(self) -> list[str]:
        return [configuration.label for configuration in self.configurations]

    def short_labels(self) -> dict[str, str]:
        """Each configuration's label as a table shows it (`labels.short_texts`)."""
        from .labels import short_texts

        return short_texts(self.header().configurations, self.labels)

    def header(self) -> Header:
        """This session's header line: command, settings, configurations, inputs, machine."""
        if self._header is None:
            self._header = make_header(
                command=self.command,
                settings={**self.settings.to_dict(), **self.extra_settings},
                backends=[
                    ConfigurationEntry(item.label, item.backend, dict(item.options))
                    for item in self.configurations
                ],
                environment=environment(
                    configurations=self.configurations, jobs=self.jobs, argv=self.argv
                ),
                inputs=self.inputs,
            )
        return self._header

    def __enter__(self) -> Session:
        if self.results is not None:
            self.log = ResultsLog.open(self.results, self.header(), resume=self.resume)
        self.started = time.perf_counter()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.interrupted = kind is not None and issubclass(kind, KeyboardInterrupt)
        self.close()

    def close(self) -> None:
        """Stop the executor and close the log (every finished record is already in it)."""
        if self.finished is None:
            self.finished = time.perf_counter()
        try:
            self.executor.close()
        finally:
            if self.log is not None:
                self.log.close()

    @property
    def wall_seconds(self) -> float:
        """This session's wall time so far (older sessions' time is not known)."""
        return (self.finished or time.perf_counter()) - self.started

    # -- earlier sessions -------------------------------------------------------------------------

    def replay(self) -> Iterator[PuzzleEntry]:
        """The puzzle entries earlier sessions finished, each checked again, tallied."""
        if self.log is None:
            return
        for line, entry in self.log.previous():
            entry = self._rejudged(line, entry)
            self.resumed += 1
            self.take(entry, resumed=True)
            yield entry

    def kept(self) -> int:
        """Puzzles this session finished and kept: counted in the results log when there is one
        (what 'Interrupted after N puzzles' says must be what the log holds)."""
        if self.log is not None:
            try:
                return self.log.records_written()
            except OSError:
                pass
        return self.new

    def _rejudged(self, line: int, entry: PuzzleEntry) -> PuzzleEntry:
        """A stored entry checked again by the one verifier; the same entry when it holds.

        Raises:
            ResultsFileError: naming file and line for an entry whose grids cannot be read.
        """
        assert self.log is not None
        try:
            puzzle, results, errors, refused = stored_results(entry, limit=self.settings.limit)
        except (GridParseError, GridShapeError) as error:
            raise ResultsFileError(
                f"{self.log.path}:{line}: not a whole puzzle record ({error}): repair or "
                f"remove that line, or choose another results file"
            ) from None
        found = compare(results, puzzle, self.settings.mode, errors, uncertified=refused)
        statuses = [found.statuses[run.name] for run in entry.runs]
        if found.verdict is entry.verdict and statuses == [run.status for run in entry.runs]:
            return entry
        findings = (
            f"line {line} of {self.log.path} says {entry.verdict}; checked again: {found.verdict}",
            *found.findings,
        )
        runs = tuple(
            replace(run, status=status, reason=found.reasons[run.name])
            for run, status in zip(entry.runs, statuses, strict=True)
        )
        return replace(entry, verdict=found.verdict, findings=findings, runs=runs)

    # -- this session -----------------------------------------------------------------------------

    def todo(self) -> Iterable[InputPuzzle]:
        """The input without the puzzles an earlier session finished."""
        if self.log is None:
            return self.puzzles
        log = self.log
        return (
            puzzle
            for puzzle in self.puzzles
            if not log.is_done(puzzle.source, puzzle.number, puzzle.text)
        )

    def run(self) -> Iterator[Judged]:
        """Every puzzle still to do, checked, logged and tallied, in input order; an input line
        that is not a puzzle comes in its place as a `SkippedLine`."""
        outcomes = execute(self.todo(), self.configurations, self.settings, executor=self.executor)
        try:
            for item in outcomes:
                if isinstance(item, SkippedLine):
                    self.invalid += 1
                else:
                    entry = item.to_entry()
                    if self.rating:
                        entry = replace(entry, rating=rating_of(item.input.grid))
                    if self.log is not None:
                        self.log.append(entry)  # in the log before anyone sees it
                    self.new += 1
                    self.take(entry, resumed=False)
                yield item
        finally:
            outcomes.close()
            self.finished = time.perf_counter()

    def take(self, entry: PuzzleEntry, *, resumed: bool) -> None:
        """Count one puzzle entry in the session's summary."""
        raise NotImplementedError


class CrosscheckSession(Session):
    """Several configurations on the same puzzles, every answer checked and compared."""

    command = "crosscheck"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tally = CrosscheckTally(
            self.labels, self.settings.mode, certifying=self.settings.certifier is not None
        )

    def take(self, entry: PuzzleEntry, *, resumed: bool) -> None:
        self.tally.add(entry, resumed=resumed)

    def summary(self) -> Summary:
        """The tally of old and new records together."""
        self.tally.bad_input = self.invalid
        return self.tally.summary(wall_seconds=self.wall_seconds, interrupted=self.interrupted)


class BenchSession(Session):
    """Configurations timed over puzzle sets (one set per input), every answer checked.

    A benchmark reads its sets whole before it starts: broken data would mislead, so a line that
    is not a puzzle stops it before any timing.
    """

    command = "bench"

    def __init__(self, puzzles: Iterable[InputPuzzle], *args: Any, **kwargs: Any) -> None:
        """Raises:
        BenchError: for an input line that is not a puzzle, or two inputs that would be one
            set.
        """
        given = list(puzzles)
        bad = next((puzzle for puzzle in given if puzzle.grid is None), None)
        if bad is not None:
            raise BenchError(f"{bad.error} (a benchmark needs clean puzzles)")
        super().__init__(given, *args, **kwargs)
        check_set_names(self.inputs or ["-"])
        self.total = len(given)  # the puzzles to measure, this session's and earlier ones
        self.rows: list[RunRow] = []  # every run with its puzzle, for the statistics
        self.setup: dict[str, Any] = {}

    def take(self, entry: PuzzleEntry, *, resumed: bool) -> None:
        self.rows.extend(RunRow(entry, run) for run in entry.runs)

    def remaining(self) -> list[InputPuzzle]:
        """The puzzles still to measure (all of them, unless resuming)."""
        return list(self.todo())

    def measure_setup(
        self,
        puzzles: Sequence[InputPuzzle],
        *,
        starting: Callable[[Configuration], None] | None = None,
    ) -> dict[str, Any]:
        """One-off set-up of each configuration, in fresh interpreters, on the first puzzle of
        each shape; written to the log as a set-up line of this session."""
        self.setup = measure_setup(
            self.configurations, first_of_each_shape(puzzles), self.settings, starting=starting
        )
        if self.log is not None and self.setup:
            header = self.header()
            self.log.append(
                Header(
                    header.command,
                    header.settings,
                    header.configurations,
                    inputs=header.inputs,
                    setup=self.setup,
                    setup_of="session",
                )
            )
        return self.setup

    def run(self) -> Iterator[Judged]:
        import_solvers(self.configurations)  # forked workers start with them loaded
        return super().run()

    def summary(self, baseline: str | None) -> list[SummaryRow]:
        """The statistics and scores of old and new runs together, against `baseline`."""
        return scored_summary(
            self.rows,
            time_limit=self.settings.time_limit,
            baseline=baseline,
            intervals=self.settings.repeat > 1,
        )

    @property
    def failed(self) -> bool:
        """A wrong answer or a backend error in any run."""
        return any(row.status in (RunStatus.WRONG, RunStatus.ERROR) for row in self.rows)


def inputs_of(sources: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> list[str]:
    """The inputs as a session header records them: the files or set names as given."""
    if isinstance(sources, (str, os.PathLike)):
        return [os.fspath(sources)]
    return [os.fspath(source) for source in sources]


__all__ = ["BenchSession", "CrosscheckSession", "Session", "command_line", "inputs_of"]
