"""What a solve returns: the mode asked for, our status, and the frozen `SolveResult`."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .grid import Grid


class Mode(str, enum.Enum):
    """What to compute for a puzzle."""

    LEXMIN = "lexmin"  # the completion whose row-major values are smallest
    ANY = "any"        # any completion, found however is fastest
    COUNT = "count"    # the number of completions, up to a limit

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
