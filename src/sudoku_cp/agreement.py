"""The crosscheck tally: how far the configurations agree, puzzle entry by puzzle entry.

The checks and comparisons are `verify`'s (the one checker); the engine runs them. A
`CrosscheckTally` takes the puzzle entries - fresh ones, or read back from the results log on
resume - into a `Summary`, in constant memory per puzzle: only the entries worth showing (wrong
answers, disagreements, errors, the first timeouts) are kept. A configuration's median time is
over its answered runs (solved, or an uncontradicted unsatisfiable), as bench and report count
it; its total time counts every run. Rendering is in `render.py`.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .result import Mode, RunStatus, Verdict
from .results_log.records import PuzzleEntry

TIMEOUTS_SHOWN = 20


@dataclass
class BackendSummary:
    """One configuration's tallies over a run."""

    name: str
    solved: int = 0
    unsatisfiable: int = 0
    timeouts: int = 0
    wrong: int = 0
    disagreements: int = 0
    errors: int = 0
    total_seconds: float = 0.0  # every run's time, timeouts included
    median_seconds: float | None = None  # over the answered runs only


@dataclass
class Summary:
    """What a crosscheck run found, over old (resumed) and new records together."""

    mode: Mode
    backends: list[BackendSummary]
    verdicts: dict[Verdict, int]  # verdict -> puzzles
    puzzles: int
    resumed: int = 0  # records read back from the results log
    wall_seconds: float | None = None  # this session only: older sessions' time is not known
    interrupted: bool = False
    bad_input: int = 0  # input lines that are not puzzles (reported, not run)
    certifying: bool = False  # --certify: every answer's claim checked by a proof
    claims: int = 0  # runs whose answer claims something (not a timeout or an error)
    certified: int = 0  # of which certified

    @property
    def agreements(self) -> int:
        return self.verdicts.get(Verdict.AGREE, 0)

    @property
    def problems(self) -> int:
        """Puzzles with a wrong answer, a disagreement or a crash."""
        return sum(count for verdict, count in self.verdicts.items() if verdict.is_problem)

    @property
    def session_puzzles(self) -> int:
        return self.puzzles - self.resumed

    @property
    def puzzles_per_second(self) -> float | None:
        """This session's throughput (wall clock), None when unknown."""
        if not self.wall_seconds or not self.session_puzzles:
            return None
        return self.session_puzzles / self.wall_seconds

    def share(self, name: str) -> float | None:
        """The fraction of all configurations' solve time that this one took."""
        total = sum(backend.total_seconds for backend in self.backends)
        mine = next(backend.total_seconds for backend in self.backends if backend.name == name)
        return mine / total if total > 0 else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (scripts and benchmarks read it)."""
        return {
            "mode": str(self.mode),
            "puzzles": self.puzzles,
            "resumed": self.resumed,
            "verdicts": {str(verdict): count for verdict, count in self.verdicts.items()},
            "agreements": self.agreements,
            "wall_seconds": self.wall_seconds,
            "puzzles_per_second": self.puzzles_per_second,
            "interrupted": self.interrupted,
            "bad_input": self.bad_input,
            "claims": self.claims,
            "certified": self.certified,
            "backends": [
                dict(vars(backend), share=self.share(backend.name)) for backend in self.backends
            ],
        }


_STATUS_FIELD = {
    RunStatus.SOLVED: "solved",
    RunStatus.UNSATISFIABLE: "unsatisfiable",
    RunStatus.TIMEOUT: "timeouts",
    RunStatus.WRONG: "wrong",
    RunStatus.ERROR: "errors",
}


@dataclass
class CrosscheckTally:
    """Puzzle entries added one by one; `summary()` at any time. Memory: the seconds of each
    run (for the medians) and the entries worth showing, not every entry."""

    labels: Sequence[str]
    mode: Mode
    timeouts_shown: int = TIMEOUTS_SHOWN
    verdicts: dict[Verdict, int] = field(default_factory=lambda: dict.fromkeys(Verdict, 0))
    shown: list[PuzzleEntry] = field(default_factory=list)
    hidden_timeouts: int = 0
    puzzles: int = 0
    resumed: int = 0
    bad_input: int = 0
    certifying: bool = False
    claims: int = 0
    certified: int = 0

    def __post_init__(self) -> None:
        self.backends = {label: BackendSummary(label) for label in self.labels}
        self.seconds: dict[str, list[float]] = {label: [] for label in self.labels}
        self.answered: dict[str, list[float]] = {label: [] for label in self.labels}

    def add(self, entry: PuzzleEntry, *, resumed: bool = False) -> None:
        """Count one puzzle entry (a checked puzzle's `to_entry()`)."""
        verdict = entry.verdict
        self.puzzles += 1
        self.resumed += resumed
        self.verdicts[verdict] = self.verdicts.get(verdict, 0) + 1
        for run in entry.runs:
            tally = self.backends.get(run.backend)
            if tally is None or run.repeat:
                continue
            attribute = _STATUS_FIELD[run.status]
            setattr(tally, attribute, getattr(tally, attribute) + 1)
            tally.disagreements += run.disagrees
            if run.certified is not None:
                self.claims += 1
                self.certified += run.certified
            if run.seconds is not None:
                self.seconds[run.backend].append(run.seconds)
                if run.status.answered:
                    self.answered[run.backend].append(run.seconds)
        if verdict is Verdict.AGREE:
            return
        timeouts = sum(1 for kept in self.shown if kept.verdict is Verdict.TIMEOUT)
        if verdict is Verdict.TIMEOUT and timeouts >= self.timeouts_shown:
            self.hidden_timeouts += 1
        else:
            self.shown.append(entry)

    def note(self) -> str:
        """The progress line's tail: disagreements so far, and other findings once there are."""
        parts = [
            f"{self.verdicts.get(verdict, 0)} {verdict}"
            for verdict in (Verdict.WRONG, Verdict.DISAGREE, Verdict.ERROR, Verdict.TIMEOUT)
            if self.verdicts.get(verdict) or verdict is Verdict.WRONG
        ]
        return ", ".join(parts)

    def summary(self, *, wall_seconds: float | None = None, interrupted: bool = False) -> Summary:
        for label, tally in self.backends.items():
            tally.total_seconds = sum(self.seconds[label])
            answered = self.answered[label]
            tally.median_seconds = statistics.median(answered) if answered else None
        return Summary(
            self.mode,
            list(self.backends.values()),
            dict(self.verdicts),
            self.puzzles,
            self.resumed,
            wall_seconds,
            interrupted,
            self.bad_input,
            self.certifying,
            self.claims,
            self.certified,
        )


def summarize(
    entries: Iterable[PuzzleEntry],
    *,
    backends: Sequence[str],
    mode: Mode,
    resumed: int = 0,
    wall_seconds: float | None = None,
    interrupted: bool = False,
    bad_input: int = 0,
) -> Summary:
    """Tally puzzle entries per configuration and per verdict."""
    tally = CrosscheckTally(backends, mode)
    for number, entry in enumerate(entries):
        tally.add(entry, resumed=number < resumed)
    tally.bad_input = bad_input
    return tally.summary(wall_seconds=wall_seconds, interrupted=interrupted)


__all__ = ["BackendSummary", "CrosscheckTally", "Summary", "summarize"]
