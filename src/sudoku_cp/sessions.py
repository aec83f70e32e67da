"""The crosscheck and bench sessions, written once for both faces (the Python API and the CLI).

A session owns everything around the engine: it opens and locks the results log (checking every
session header already in it on resume), replays the puzzles an earlier session finished -
checking every stored answer again with the one verifier - skips them in the input, runs the
rest through the engine, logs each checked puzzle as it completes, and tallies old and new
together. A log written by either face therefore resumes from the other. The faces only render
and show progress:

    with CrosscheckSession(puzzles, configurations, settings, inputs=["top95"],
                           results="r.jsonl", resume=True) as session:
        for record in session.replay(): ...      # earlier sessions' records, checked again
        for item in session.run(): ...           # CheckedPuzzle, or an invalid PuzzleRecord
    summary = session.summary()

A stored answer that the verifier now finds wrong (a log changed after it was written, or
written by a faulty build) is reported as wrong - its record gains the finding and its verdict
becomes `wrong` - and not run again: the log is what was claimed, and re-running would hide that
the claim was false.
"""

from __future__ import annotations

import os
import shlex
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any, ClassVar

from .agreement import Summary, Tally
from .configurations import Configuration
from .engine import execute
from .environment import (
    check_set_names,
    environment,
    first_of_each_shape,
    import_solvers,
    measure_setup,
)
from .errors import BenchError, GridParseError, ResultsFileError
from .executors import Executor, default_jobs
from .executors.inline import InlineExecutor
from .formats import PuzzleRecord
from .result import RunStatus, Verdict
from .results_log import ResultsLog
from .results_records import make_header
from .runs import CheckedPuzzle, SolveSettings, answers_of_record, uncertified_of_record
from .timings import SummaryRow, summarize
from .verify import compare

Record = dict[str, Any]


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
        puzzles: Iterable[PuzzleRecord],
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
        self.log: ResultsLog | None = None
        self.resumed = 0  # records replayed from the log
        self.invalid = 0  # input lines that are not puzzles
        self.new = 0  # puzzles checked in this session
        self.interrupted = False
        self.started = time.perf_counter()
        self.finished: float | None = None
        self._header: Record | None = None

    @property
    def labels(self) -> list[str]:
        return [configuration.label for configuration in self.configurations]

    def header(self) -> Record:
        """This session's header line: command, settings, configurations, inputs, machine."""
        if self._header is None:
            self._header = self._make_header()
        return self._header

    def _make_header(self) -> Record:
        return make_header(
            command=self.command,
            settings={**self.settings.to_dict(), **self.extra_settings},
            backends=[configuration.describe() for configuration in self.configurations],
            environment=environment(
                configurations=self.configurations, jobs=self.jobs, argv=self.argv
            ),
            inputs=self.inputs,
        )

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

    def replay(self) -> Iterator[Record]:
        """The puzzle records earlier sessions finished, each checked again, tallied."""
        if self.log is None:
            return
        for line, record in self.log.previous():
            record = self._rejudged(line, record)
            self.resumed += 1
            self.take(record, resumed=True)
            yield record

    def kept(self) -> int:
        """Puzzles this session finished and kept: counted in the results log when there is one
        (what 'Interrupted after N puzzles' says must be what the log holds)."""
        if self.log is not None:
            try:
                return self.log.records_written()
            except OSError:
                pass
        return self.new

    def _rejudged(self, line: int, record: Record) -> Record:
        """A stored record checked again by the one verifier; the same record when it holds.

        Raises:
            ResultsFileError: naming file and line for a record whose grids cannot be read.
        """
        assert self.log is not None
        try:
            puzzle, results, errors = answers_of_record(record, limit=self.settings.limit)
        except (GridParseError, KeyError, TypeError, ValueError) as error:
            raise ResultsFileError(
                f"{self.log.path}:{line}: not a whole puzzle record ({error})"
                f": repair or remove that line, or choose another results "
                f"file"
            ) from None
        found = compare(
            results, puzzle, self.settings.mode, errors, uncertified=uncertified_of_record(record)
        )
        stored = [RunStatus(run["status"]) for run in record["runs"]]
        if found.verdict == Verdict(record["verdict"]) and stored == list(found.statuses.values()):
            return record
        changed = dict(
            record,
            verdict=str(found.verdict),
            findings=[
                f"line {line} of {self.log.path} says {record['verdict']}; checked again: "
                f"{found.verdict}",
                *found.findings,
            ],
        )
        changed["runs"] = [
            dict(run, status=str(status), reason=found.reasons[name])
            for run, (name, status) in zip(record["runs"], found.statuses.items(), strict=True)
        ]
        return changed

    # -- this session -----------------------------------------------------------------------------

    def todo(self) -> Iterable[PuzzleRecord]:
        """The input without the puzzles an earlier session finished."""
        if self.log is None:
            return self.puzzles
        log = self.log
        return (record for record in self.puzzles if not log.is_done(record))

    def run(self) -> Iterator[CheckedPuzzle | PuzzleRecord]:
        """Every puzzle still to do, checked, logged and tallied, in input order; an input line
        that is not a puzzle comes in its place as its `PuzzleRecord`."""
        log = self.log

        def keep(checked: CheckedPuzzle) -> None:
            if log is not None:
                log.append(checked.to_record())
            self.new += 1

        outcomes = execute(
            self.todo(), self.configurations, self.settings, executor=self.executor, log=keep
        )
        try:
            for item in outcomes:
                if isinstance(item, PuzzleRecord):
                    self.invalid += 1
                else:
                    self.take(item.to_record(), resumed=False)
                yield item
        finally:
            outcomes.close()
            self.finished = time.perf_counter()

    def take(self, record: Record, *, resumed: bool) -> None:
        """Count one puzzle record in the session's summary."""
        raise NotImplementedError


class CrosscheckSession(Session):
    """Several configurations on the same puzzles, every answer checked and compared."""

    command = "crosscheck"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tally = Tally(self.labels, self.settings.mode)

    def take(self, record: Record, *, resumed: bool) -> None:
        self.tally.add(record, resumed=resumed)

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

    def __init__(self, puzzles: Iterable[PuzzleRecord], *args: Any, **kwargs: Any) -> None:
        """Raises:
        BenchError: for an input line that is not a puzzle, or two inputs that would be one
            set.
        """
        records = list(puzzles)
        bad = next((record for record in records if record.grid is None), None)
        if bad is not None:
            raise BenchError(f"{bad.error} (a benchmark needs clean puzzles)")
        super().__init__(records, *args, **kwargs)
        check_set_names(self.inputs or ["-"])
        self.records = records
        self.runs: list[Record] = []  # one flat row per run, for the statistics
        self.setup: dict[str, Any] = {}

    def take(self, record: Record, *, resumed: bool) -> None:
        self.runs.extend(flat_runs(record))

    def remaining(self) -> list[PuzzleRecord]:
        """The puzzles still to measure (all of them, unless resuming)."""
        return list(self.todo())

    def measure_setup(
        self,
        puzzles: Sequence[PuzzleRecord],
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
            self.log.append_header()
            self.log.append(
                {
                    key: header[key]
                    for key in ("kind", "format", "version", "command", "settings", "inputs")
                }
                | {"setup": self.setup, "setup_of": "session"}
            )
        return self.setup

    def run(self) -> Iterator[CheckedPuzzle | PuzzleRecord]:
        import_solvers(self.configurations)  # forked workers start with them loaded
        return super().run()

    def summary(self, baseline: str | None) -> list[SummaryRow]:
        """The statistics of old and new runs together, against `baseline`."""
        return summarize(
            self.runs,
            time_limit=self.settings.time_limit,
            baseline=baseline,
            intervals=self.settings.repeat > 1,
        )

    @property
    def failed(self) -> bool:
        """A wrong answer or a backend error in any run."""
        return any(run["status"] in (RunStatus.WRONG, RunStatus.ERROR) for run in self.runs)


def flat_runs(record: Mapping[str, Any]) -> list[Record]:
    """One row per run of a puzzle record: the puzzle's fields and the run's."""
    base = {
        key: record.get(key)
        for key in ("set", "number", "index", "puzzle", "size", "givens", "mode")
    }
    return [{**base, **run} for run in record["runs"]]


def inputs_of(sources: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> list[str]:
    """The inputs as a session header records them: the files or set names as given."""
    if isinstance(sources, (str, os.PathLike)):
        return [os.fspath(sources)]
    return [os.fspath(source) for source in sources]


__all__ = ["BenchSession", "CrosscheckSession", "Session", "command_line", "flat_runs", "inputs_of"]
