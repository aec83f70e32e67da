"""Judging answers: what to ask of every configuration, what a worker sends back, and what a
puzzle becomes once every answer is checked.

The chain of one answer: a backend's `SolveResult` travels from a worker in `PuzzleRuns` (every
configuration's results for one puzzle, unchecked), is checked by the one verifier into an
`Answer` (a `RunStatus` and its reason), and a puzzle's answers with their `Verdict` make a
`CheckedPuzzle`, whose `to_entry()` is the results log's entry. An input line that is not a
puzzle becomes a `SkippedLine` in its place. `stored_results` reads a log's entry back into
results, so that a stored answer can be checked again (resume).
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .backends.base import normalize_time_limit
from .configurations import Configuration
from .errors import ArgumentError
from .formats import InputPuzzle
from .grid import Grid, Shape, default_box
from .result import Mode, RunStatus, SolveResult, Status, Verdict
from .results_log.records import AnswerLine, PuzzleEntry, Run
from .verify import compare

if TYPE_CHECKING:  # the proofs are loaded only by a run that certifies
    from .certify import Certification, Certifier


def checked_arguments(
    mode: Mode | str, limit: int, time_limit: float | None, **more: Any
) -> tuple[Mode, float | None]:
    """The mode and time limit a caller asked for, checked (see `SolveSettings.of`).

    Raises:
        ArgumentError: for an argument out of its range, naming it.
    """
    try:
        mode = Mode(mode)
    except ValueError:
        choices = ", ".join(str(each) for each in Mode)
        raise ArgumentError(f"mode must be one of {choices}, got {mode!r}") from None
    for name, value, least in (("limit", limit, 1), *_counts(more)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise ArgumentError(f"{name} must be an integer >= {least}, got {value!r}")
    if time_limit is None:
        return mode, None
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)):
        raise ArgumentError(f"time_limit must be a number of seconds, got {time_limit!r}")
    if math.isnan(time_limit) or time_limit <= 0:
        raise ArgumentError(
            f"time_limit must be a positive number of seconds (None or inf for no limit), "
            f"got {time_limit!r}"
        )
    return mode, normalize_time_limit(time_limit)


def _counts(more: dict[str, Any]) -> list[tuple[str, Any, int]]:
    """The counting settings among `more`, with the least value each may take."""
    least = {"repeat": 1, "warmup": 0}
    return [(name, more[name], least[name]) for name in least if name in more]


@dataclass(frozen=True)
class SolveSettings:
    """What to ask of every configuration for every puzzle."""

    mode: Mode = Mode.LEXMIN
    limit: int = 2
    time_limit: float | None = None
    warmup: int = 0  # untimed solves of each puzzle before its measured ones (bench)
    repeat: int = 1  # measured solves per (puzzle, configuration)
    prime: bool = False  # solve the first puzzle of each shape once, untimed, in each worker
    certifier: Certifier | None = None  # --certify: each answer certified in its worker
    # bench --stop-at-timeout: a configuration that timed out at a size runs no later puzzle of
    # that size or larger (each is recorded as a timeout, not run)
    stop_at_timeout: bool = False

    @classmethod
    def of(
        cls,
        mode: Mode | str = Mode.LEXMIN,
        limit: int = 2,
        time_limit: float | None = None,
        *,
        certify: bool = False,
        keep_proofs: str | os.PathLike[str] | None = None,
        **more: Any,
    ) -> SolveSettings:
        """The settings both faces ask for: `certify` (implied by `keep_proofs`, a folder for
        every CNF and proof) certifies each answer with the default proof solver and checker.

        The arguments are checked as the command line checks its options: a mode by name, a
        count limit of at least 1 (and, certifying, at most `certify.certifier.COUNT_CAP`), a
        time limit of positive seconds (None or inf for none).

        Raises:
            ArgumentError: for an argument out of its range, naming it.
            CheckerUnavailableError: when certifying without the checker installed.
        """
        mode, time_limit = checked_arguments(mode, limit, time_limit, **more)
        certifier = None
        if certify or keep_proofs is not None:
            from .certify import Certifier
            from .certify.certifier import COUNT_CAP

            if mode is Mode.COUNT and limit > COUNT_CAP:
                # A count past the cap could not be certified, and would be counted as wrong.
                raise ArgumentError(
                    f"limit must be at most {COUNT_CAP} when certifying (certify enumerates "
                    f"at most {COUNT_CAP} completions), got {limit}"
                )

            certifier = Certifier(
                keep_proofs=None if keep_proofs is None else os.fspath(keep_proofs)
            )
        return cls(mode, limit, time_limit, certifier=certifier, **more)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "mode": str(self.mode),
            "limit": self.limit if self.mode is Mode.COUNT else None,
            "time_limit": self.time_limit,
            "repeat": self.repeat,
            "warmup": self.warmup,
        }
        if self.certifier is not None:  # only then: logs written without it resume as before
            data["certify"] = {"solver": self.certifier.solver, "engine": self.certifier.engine}
        if self.stop_at_timeout:
            data["stop_at_timeout"] = True
        return data


@dataclass
class PuzzleRuns:
    """What the configurations produced for one puzzle in a worker, before any check."""

    input: InputPuzzle
    results: dict[str, list[SolveResult]] = field(default_factory=dict)  # label -> repeats
    cpu: dict[str, list[float]] = field(default_factory=dict)  # label -> CPU seconds
    errors: dict[str, str] = field(default_factory=dict)  # label -> what failed
    max_rss: dict[str, float] = field(default_factory=dict)  # label -> MB, the process's peak
    # label -> each repeat's certification (None: nothing claimed, a timeout); --certify only
    certifications: dict[str, list[Certification | None]] = field(default_factory=dict)

    def merge(self, other: PuzzleRuns) -> None:
        """Take in what another run of the same puzzle produced (other configurations)."""
        self.results.update(other.results)
        self.certifications.update(other.certifications)
        self.cpu.update(other.cpu)
        self.errors.update(other.errors)
        self.max_rss.update(other.max_rss)

    @property
    def solve_seconds(self) -> float:
        """The time spent solving, every configuration and repeat together."""
        return sum(result.seconds for results in self.results.values() for result in results)


@dataclass(frozen=True)
class Answer:
    """One configuration's answer to one puzzle, checked by the verifier.

    `status` is the backend's own (solved, unsatisfiable, timeout), or wrong (the answer failed
    a check: `reason` says how) or error (the backend raised or its worker died). `result` is the
    backend's raw result, None for an error.
    """

    input: InputPuzzle
    label: str
    status: RunStatus
    result: SolveResult | None
    reason: str | None = None
    repeat: int = 0
    disagrees: bool = False  # count mode: its count differs from the reference
    cpu_seconds: float | None = None
    max_rss_mb: float | None = None  # peak memory of the process that ran it, so far
    certification: Certification | None = None  # --certify: the proof checker's outcome

    @property
    def puzzle(self) -> Grid | None:
        return self.input.grid

    @property
    def record(self) -> InputPuzzle:
        """The input puzzle answered: the name of `input` before 0.2, kept for scripts."""
        return self.input

    @property
    def solution(self) -> Grid | None:
        """The completion, when the status is solved (never a wrong answer's grid)."""
        if self.status is not RunStatus.SOLVED or self.result is None:
            return None
        return self.result.solution

    @property
    def count(self) -> int | None:
        return None if self.result is None else self.result.count

    @property
    def limit_reached(self) -> bool:
        return self.result is not None and self.result.limit_reached

    @property
    def seconds(self) -> float | None:
        return None if self.result is None else self.result.seconds

    def to_run(self) -> Run:
        """The run as the results log keeps it."""
        result = self.result
        stats = dict(result.stats) if result is not None else {}
        build, solve = stats.pop("build_seconds", None), stats.pop("solve_seconds", None)
        grid = None if result is None or result.solution is None else result.solution.to_line()
        count_mode = result is not None and result.mode is Mode.COUNT
        certification = self.certification
        return Run(
            backend=self.label,
            status=self.status,
            repeat=self.repeat,
            seconds=None if result is None else result.seconds,
            cpu_seconds=self.cpu_seconds,
            max_rss_mb=self.max_rss_mb,
            build_seconds=build,
            solve_seconds=solve,
            solution=grid if self.status is not RunStatus.WRONG else None,
            answer=grid if self.status is RunStatus.WRONG else None,
            count=result.count if count_mode and result is not None else None,
            limit_reached=result.limit_reached if count_mode and result is not None else None,
            reason=self.reason,
            disagrees=self.disagrees,
            certified=None if certification is None else certification.certified,
            certificate=(
                None
                if certification is None or certification.certificate is None
                else certification.certificate.to_dict()
            ),
            stats=stats,
        )

    def to_line(self, mode: Mode) -> AnswerLine:
        """The answer as `solve --format jsonl` prints it: the puzzle's fields and the run's."""
        return AnswerLine(**puzzle_fields(self.input), mode=mode, run=self.to_run())


@dataclass
class CheckedPuzzle:
    """One puzzle after every configuration ran and every answer was checked."""

    input: InputPuzzle
    mode: Mode
    answers: list[Answer] = field(default_factory=list)
    verdict: Verdict = Verdict.AGREE
    findings: list[str] = field(default_factory=list)

    def answer(self, label: str) -> Answer | None:
        """The first repeat of a configuration."""
        return next((answer for answer in self.answers if answer.label == label), None)

    def to_entry(self, *, set_name: str | None = None) -> PuzzleEntry:
        """The results log's entry of this puzzle (also `crosscheck --format jsonl`)."""
        grid = self.input.grid
        assert grid is not None, "only puzzles are checked"
        return PuzzleEntry(
            **puzzle_fields(self.input),
            set=set_name or set_of(self.input.source),
            number=self.input.number,
            size=grid.size,
            givens=len(grid.values) - grid.values.count(0),
            mode=self.mode,
            verdict=self.verdict,
            findings=tuple(self.findings),
            runs=tuple(answer.to_run() for answer in self.answers),
        )


@dataclass(frozen=True)
class SkippedLine:
    """An input line that is not a puzzle, in its place among the checked puzzles: `reason`
    says why; nothing ran on it."""

    input: InputPuzzle

    @property
    def reason(self) -> str:
        return str(self.input.error)

    @property
    def where(self) -> str:
        return self.input.where


Judged = CheckedPuzzle | SkippedLine  # what the engine yields for each input item, in order


def puzzle_fields(puzzle: InputPuzzle) -> dict[str, Any]:
    """The fields every line about an input puzzle starts with (`records.PuzzleFields`)."""
    grid = puzzle.grid
    box = None
    if grid is not None and grid.box != default_box(grid.size):
        box = f"{grid.box[0]}x{grid.box[1]}"  # needed to read the grids back
    return {
        "index": puzzle.index,
        "source": puzzle.source,
        "line": puzzle.line,
        "puzzle": puzzle.text,
        "box": box,
    }


def set_of(source: str) -> str:
    """The set a source's puzzles belong to: 'top95' for 'data/top95.txt'."""
    if source == "<stdin>":
        return "stdin"
    name = os.path.basename(source)
    return name.rsplit(".", 1)[0] if "." in name.strip(".") else name


def _round(seconds: float | None) -> float | None:
    return None if seconds is None else round(float(seconds), 7)


def judge(runs: PuzzleRuns, configurations: Sequence[Configuration], mode: Mode) -> CheckedPuzzle:
    """Check every answer of one puzzle with the one verifier, then compare them."""
    puzzle_input = runs.input
    puzzle = puzzle_input.grid
    assert puzzle is not None, "only puzzles are judged"
    names: dict[str, tuple[str, int]] = {}
    results: dict[str, SolveResult | None] = {}
    errors: dict[str, str] = {}
    certifications: dict[str, Certification | None] = {}
    for configuration in configurations:
        label = configuration.label
        repeats = runs.results.get(label, [])
        if label in runs.errors or not repeats:
            results[label], errors[label], names[label] = (
                None,
                runs.errors.get(label, "no result"),
                (label, 0),
            )
            continue
        certified = runs.certifications.get(label, [])
        for repeat, result in enumerate(repeats):
            name = label if repeat == 0 else f"{label}#{repeat}"
            results[name], names[name] = result, (label, repeat)
            certifications[name] = certified[repeat] if repeat < len(certified) else None
    found = compare(
        results,
        puzzle,
        mode,
        errors,
        uncertified={
            name: f"not certified: {item.reason}"
            for name, item in certifications.items()
            if item is not None and not item.certified
        },
    )
    checked = CheckedPuzzle(puzzle_input, mode, verdict=found.verdict, findings=found.findings)
    for name, status in found.statuses.items():
        label, repeat = names[name]
        cpu = runs.cpu.get(label, [])
        checked.answers.append(
            Answer(
                puzzle_input,
                label,
                status,
                results[name],
                found.reasons[name],
                repeat,
                name in found.disagreeing,
                cpu[repeat] if repeat < len(cpu) else None,
                runs.max_rss.get(label),
                certifications.get(name),
            )
        )
    return checked


# -- stored entries read back ---------------------------------------------------------------------


def stored_results(
    entry: PuzzleEntry, *, limit: int | None = None
) -> tuple[Grid, dict[str, SolveResult | None], dict[str, str], dict[str, str]]:
    """A stored puzzle entry as the verifier sees it: the puzzle, each run's result by name
    (`Run.name`; None for an error), the errors' reasons, and the runs a proof checker refused
    (`certified: false`, with the reason stored: checking the entry again keeps them wrong).
    `limit` is the session's count limit (count mode); without it, each run's own count says
    whether the limit was reached.

    Raises:
        GridParseError, GridShapeError: for a stored puzzle or grid that is not a grid.
    """
    puzzle = entry.grid()
    results: dict[str, SolveResult | None] = {}
    errors: dict[str, str] = {}
    refused: dict[str, str] = {}
    for run in entry.runs:
        if run.certified is False:
            refused[run.name] = run.reason or "not certified"
        if run.status is RunStatus.ERROR:
            results[run.name], errors[run.name] = None, run.reason or "error"
            continue
        results[run.name] = _stored_result(run, entry.mode, puzzle.box, limit)
    return puzzle, results, errors, refused


def _stored_result(run: Run, mode: Mode, box: Shape, limit: int | None) -> SolveResult:
    """A stored run as the backend's result. A run stored as wrong is taken as what the backend
    said: solved with its grid (or its count), so that checking it again finds the fault."""
    text = run.grid_text
    solution = Grid.parse(text, box=box) if text else None
    count = run.count
    if run.status is RunStatus.WRONG:
        status = Status.SOLVED if solution is not None or (count or 0) > 0 else Status.UNSATISFIABLE
    else:
        status = Status(run.status.value)
    if mode is not Mode.COUNT:
        limit = None
    elif limit is None and count is not None:
        limit = count if run.limit_reached else count + 1
    return SolveResult(
        backend=run.backend,
        mode=mode,
        status=status,
        solution=solution,
        count=count,
        limit=limit,
        seconds=run.seconds or 0.0,
        reason=run.reason,
    )


__all__ = [
    "Answer",
    "CheckedPuzzle",
    "Judged",
    "PuzzleRuns",
    "SkippedLine",
    "SolveSettings",
    "judge",
    "puzzle_fields",
    "set_of",
    "stored_results",
]
