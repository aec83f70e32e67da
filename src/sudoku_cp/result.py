"""The words of a run: the mode asked for, a backend's status, the frozen `SolveResult` it
returns, and what checking adds: a checked run's `RunStatus` and a puzzle's `Verdict`.

The enums are `str`-valued: they compare equal to, and serialise as, the words the results log
has always held ('solved', 'agree', ...).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .grid import Grid


class Mode(str, enum.Enum):
    """What to compute for a puzzle."""

    LEXMIN = "lexmin"  # the completion whose row-major values are smallest
    ANY = "any"  # any completion, found however is fastest
    COUNT = "count"  # the number of completions, up to a limit

    def __str__(self) -> str:
        return self.value


class Status(str, enum.Enum):
    """A backend's outcome for one puzzle. Input that is not a puzzle is an input error
    (`GridParseError`), never a status; `verify` adds `wrong` and `error` for runs."""

    SOLVED = "solved"
    UNSATISFIABLE = "unsatisfiable"
    TIMEOUT = "timeout"

    def __str__(self) -> str:
        return self.value


class RunStatus(str, enum.Enum):
    """A checked run: the backend's own status, or `wrong` (the answer failed a check: its
    reason says which) or `error` (the backend raised, or its worker process died)."""

    SOLVED = "solved"
    UNSATISFIABLE = "unsatisfiable"
    TIMEOUT = "timeout"
    WRONG = "wrong"
    ERROR = "error"

    def __str__(self) -> str:
        return self.value

    @property
    def answered(self) -> bool:
        """A verified completion, or an uncontradicted 'unsatisfiable'."""
        return self in (RunStatus.SOLVED, RunStatus.UNSATISFIABLE)


class Verdict(str, enum.Enum):
    """A puzzle's verdict over all its runs: the worst finding, worst first."""

    WRONG = "wrong"  # an answer failed a check
    DISAGREE = "disagree"  # counts that differ, which no check can settle
    ERROR = "error"  # a backend raised or its worker died
    TIMEOUT = "timeout"  # reported, never held against anyone
    AGREE = "agree"

    def __str__(self) -> str:
        return self.value

    @property
    def is_problem(self) -> bool:
        """What makes a run exit 1: a wrong answer, a disagreement or a crash."""
        return self in (Verdict.WRONG, Verdict.DISAGREE, Verdict.ERROR)


@dataclass(frozen=True)
class SolveResult:
    """One backend's answer for one puzzle.

    `solution` is a completion for SOLVED (in count mode: the first completion found), else None.
    `count` is set in count mode: the number of completions found, at most `limit`; a count equal
    to the limit means "at least this many". `seconds` is the in-process solve time, model
    building included. `stats` are the backend's own counters (nodes, conflicts, SAT calls, ...).
    """

    backend: str
    mode: Mode
    status: Status
    solution: Grid | None = None
    count: int | None = None
    limit: int | None = None
    seconds: float = 0.0
    stats: Mapping[str, Any] = field(default_factory=dict)  # JSON-ready scalars
    reason: str | None = None  # why UNSATISFIABLE / TIMEOUT, when known

    @property
    def limit_reached(self) -> bool:
        """In count mode: the search stopped at the limit, so there may be more completions."""
        return self.count is not None and self.limit is not None and self.count >= self.limit
