"""The run vocabulary: what to ask of every configuration, what a worker sends back, and what a
puzzle becomes once every answer is checked.

The chain of one answer: a backend's `SolveResult` travels from a worker in `PuzzleRuns` (every
configuration's results for one puzzle, unchecked), is checked by the one verifier into an
`Answer` (a `RunStatus` and its reason), and a puzzle's answers with their `Verdict` make a
`CheckedPuzzle`, whose `to_record()` is the results log's record. `answers_of_record` reads such a
record back into results, so that a stored record can be checked again (resume, certify).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .configurations import Configuration
from .formats import PuzzleRecord
from .grid import Grid, Shape, default_box, parse_box
from .result import Mode, RunStatus, SolveResult, Status, Verdict
from .verify import compare

if TYPE_CHECKING:  # the proofs are loaded only by a run that certifies
    from .certify import Certification, Certifier


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

        Raises:
            CheckerUnavailableError: when certifying without the checker installed.
        """
        certifier = None
        if certify or keep_proofs is not None:
            from .certify import Certifier

            certifier = Certifier(
                keep_proofs=None if keep_proofs is None else os.fspath(keep_proofs)
            )
        return cls(Mode(mode), limit, time_limit, certifier=certifier, **more)

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
        return data


@dataclass
class PuzzleRuns:
    """What the configurations produced for one puzzle in a worker, before any check."""

    record: PuzzleRecord
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

    record: PuzzleRecord
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
        return self.record.grid

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

    def to_dict(self) -> dict[str, Any]:
        """The run's entry in a results-log record."""
        result = self.result
        stats = dict(result.stats) if result is not None else {}
        data: dict[str, Any] = {
            "backend": self.label,
            "repeat": self.repeat,
            "status": str(self.status),
            "seconds": _round(result.seconds) if result is not None else None,
            "cpu_seconds": _round(self.cpu_seconds),
            "max_rss_mb": None if self.max_rss_mb is None else round(self.max_rss_mb, 1),
            "build_seconds": _round(stats.pop("build_seconds", None)),
            "solve_seconds": _round(stats.pop("solve_seconds", None)),
            "solution": (
                result.solution.to_line()
                if result is not None and result.solution is not None
                else None
            ),
        }
        if result is not None and result.mode is Mode.COUNT:
            data.update(count=result.count, limit_reached=result.limit_reached)
        if self.reason:
            data["reason"] = self.reason
        if self.disagrees:
            data["disagrees"] = True
        certification = self.certification
        if certification is not None:
            data["certified"] = certification.certified
            data["certificate"] = (
                None if certification.certificate is None else certification.certificate.to_dict()
            )
        data["stats"] = stats
        return data


@dataclass
class CheckedPuzzle:
    """One puzzle after every configuration ran and every answer was checked."""

    record: PuzzleRecord
    mode: Mode
    answers: list[Answer] = field(default_factory=list)
    verdict: Verdict = Verdict.AGREE
    findings: list[str] = field(default_factory=list)

    def answer(self, label: str) -> Answer | None:
        """The first repeat of a configuration."""
        return next((answer for answer in self.answers if answer.label == label), None)

    def to_record(self, *, set_name: str | None = None) -> dict[str, Any]:
        """The results-log record of this puzzle (also `crosscheck --format jsonl`)."""
        record = self.record
        grid = record.grid
        assert grid is not None, "only puzzles are checked"
        data: dict[str, Any] = {
            "kind": "puzzle",
            "index": record.index,
            "set": set_name or set_of(record.source),
            "number": record.number,
            "source": record.source,
            "line": record.line,
            "puzzle": record.text,
        }
        if grid.box != default_box(grid.size):
            data["box"] = f"{grid.box[0]}x{grid.box[1]}"  # needed to read the grids back
        data.update(
            size=grid.size,
            givens=len(grid.values) - grid.values.count(0),
            mode=str(self.mode),
            verdict=str(self.verdict),
            findings=self.findings,
            runs=[answer.to_dict() for answer in self.answers],
        )
        return data


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
    record = runs.record
    puzzle = record.grid
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
    checked = CheckedPuzzle(record, mode, verdict=found.verdict, findings=found.findings)
    for name, status in found.statuses.items():
        label, repeat = names[name]
        cpu = runs.cpu.get(label, [])
        checked.answers.append(
            Answer(
                record,
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


# -- stored records read back ----------------------------------------------------------------------


def record_box(record: Mapping[str, Any]) -> Shape | None:
    """The box shape a results-log record names (None: the size's default)."""
    box = record.get("box")
    return parse_box(str(box)) if box else None


def uncertified_of_record(record: Mapping[str, Any]) -> dict[str, str]:
    """The runs of a stored record that a proof checker refused (`"certified": false`), by
    name, with the reason stored: checking the record again keeps them wrong."""
    found = {}
    for run in record["runs"]:
        if run.get("certified") is False:
            repeat = int(run.get("repeat") or 0)
            name = str(run["backend"]) if repeat == 0 else f"{run['backend']}#{repeat}"
            found[name] = str(run.get("reason") or "not certified")
    return found


def answers_of_record(
    record: Mapping[str, Any], *, limit: int | None = None
) -> tuple[Grid, dict[str, SolveResult | None], dict[str, str]]:
    """A stored puzzle record as the verifier sees it: the puzzle, each run's result by name
    (`label`, or `label#repeat` for repeats; None for an error) and the errors' reasons.
    `limit` is the session's count limit (count mode); without it, each run's own count says
    whether the limit was reached.

    Raises:
        GridParseError: for a stored puzzle or solution that is not a grid.
        KeyError, TypeError, ValueError: for a record without the fields of one.
    """
    box = record_box(record)
    puzzle = Grid.parse(str(record["puzzle"]), box=box)
    mode = Mode(record["mode"])
    results: dict[str, SolveResult | None] = {}
    errors: dict[str, str] = {}
    for run in record["runs"]:
        label, repeat = str(run["backend"]), int(run.get("repeat") or 0)
        name = label if repeat == 0 else f"{label}#{repeat}"
        stored = RunStatus(run["status"])
        if stored is RunStatus.ERROR:
            results[name], errors[name] = None, str(run.get("reason") or "error")
            continue
        results[name] = _stored_result(run, label, mode, stored, puzzle.box, limit)
    return puzzle, results, errors


def _stored_result(
    run: Mapping[str, Any], label: str, mode: Mode, stored: RunStatus, box: Shape, limit: int | None
) -> SolveResult:
    """A stored run as the backend's result. A run stored as wrong is taken as what the backend
    said: solved with its grid (or its count), so that checking it again finds the fault."""
    solution = Grid.parse(str(run["solution"]), box=box) if run.get("solution") else None
    count = run.get("count")
    if stored is RunStatus.WRONG:
        status = Status.SOLVED if solution is not None or (count or 0) > 0 else Status.UNSATISFIABLE
    else:
        status = Status(stored.value)
    if mode is not Mode.COUNT:
        limit = None
    elif limit is None and count is not None:
        limit = int(count) if run.get("limit_reached") else int(count) + 1
    return SolveResult(
        backend=label,
        mode=mode,
        status=status,
        solution=solution,
        count=None if count is None else int(count),
        limit=limit,
        seconds=float(run.get("seconds") or 0.0),
        reason=run.get("reason"),
    )


__all__ = [
    "Answer",
    "CheckedPuzzle",
    "PuzzleRuns",
    "SolveSettings",
    "answers_of_record",
    "judge",
    "record_box",
    "set_of",
    "uncertified_of_record",
]
