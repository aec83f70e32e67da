"""Claims: what an answer asserts about a puzzle, one type per kind, ready to certify.

- `LexminClaim`: `solution` is a completion and no completion is smaller;
- `AnyClaim`: `solution` is a completion;
- `UnsatClaim`: the puzzle has no completion;
- `CountClaim`: the puzzle has exactly `count` completions (`exact`), or at least that many
  (the count reached its limit); `first`, when the run gave it, is one of them;
- `UnstatedClaim`: a run that states an answer which cannot be checked as written (solved
  without a grid, a grid that does not parse, count mode without a count): it always fails.

Claims are frozen and hashable (a certifier caches by claim) and picklable (workers certify).
`claim_of_run` and `claim_of_result` turn one run of a puzzle into its claim.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final

from ..errors import GridParseError, GridShapeError
from ..grid import Grid
from ..result import Mode, SolveResult, Status
from ..text import article

# The run statuses that answer nothing, so claim nothing.
NO_ANSWER: Final = frozenset({"timeout", "error", "invalid", "invalid input"})
# The reason `verify.check_result` gives a SOLVED run without a grid.
SOLVED_WITHOUT_GRID: Final = "reported solved without a completion"


@dataclass(frozen=True)
class LexminClaim:
    puzzle: Grid
    solution: Grid
    kind: ClassVar[str] = "lexmin"

    def describe(self) -> str:
        return "lex-min"


@dataclass(frozen=True)
class AnyClaim:
    puzzle: Grid
    solution: Grid
    kind: ClassVar[str] = "any"

    def describe(self) -> str:
        return "a completion"


@dataclass(frozen=True)
class UnsatClaim:
    puzzle: Grid
    kind: ClassVar[str] = "unsat"

    def describe(self) -> str:
        return "unsatisfiable"


@dataclass(frozen=True)
class CountClaim:
    puzzle: Grid
    count: int
    exact: bool
    first: Grid | None = None
    kind: ClassVar[str] = "count"

    def describe(self) -> str:
        return f"count {self.count}" if self.exact else f"count at least {self.count}"


@dataclass(frozen=True)
class UnstatedClaim:
    puzzle: Grid
    problem: str
    what: str = "an answer"
    kind: ClassVar[str] = "unstated"

    def describe(self) -> str:
        return self.what


Claim = LexminClaim | AnyClaim | UnsatClaim | CountClaim | UnstatedClaim


def claim_of_run(
    puzzle: Grid,
    mode: Mode | str,
    status: str,
    *,
    solution: str | Grid | None,
    count: int | None = None,
    limit_reached: bool = False,
    reason: str | None = None,
) -> Claim | None:
    """The claim of one run of `puzzle`, or None for a run that answered nothing (timeout,
    error). `status` is in the run vocabulary (`verify.RUN_STATUSES`): a run marked `wrong`
    still claims what its backend answered - a grid (solved), no grid (unsatisfiable, unless
    `reason` says it was reported solved without one), or its count.
    """
    mode = Mode(mode)
    if status in NO_ANSWER:
        return None
    grid = solution if isinstance(solution, Grid) or solution is None else _grid(solution, puzzle)
    if isinstance(grid, str):
        return UnstatedClaim(puzzle, grid, _what(mode))
    if mode is Mode.COUNT:
        return _count_claim(puzzle, status, grid, count, limit_reached)
    if status == "unsatisfiable" or (
        status == "wrong" and grid is None and reason != SOLVED_WITHOUT_GRID
    ):
        return UnsatClaim(puzzle)
    if status not in ("solved", "wrong"):
        return UnstatedClaim(puzzle, f"unknown status {status!r}", _what(mode))
    if grid is None:
        return UnstatedClaim(puzzle, "it says solved but gives no completion", _what(mode))
    return LexminClaim(puzzle, grid) if mode is Mode.LEXMIN else AnyClaim(puzzle, grid)


def claim_of_result(puzzle: Grid, result: SolveResult) -> Claim | None:
    """The claim of a backend's own result (before any verdict): what `--certify` checks."""
    if result.status is Status.TIMEOUT:
        return None
    return claim_of_run(
        puzzle,
        result.mode,
        str(result.status),
        solution=result.solution,
        count=result.count,
        limit_reached=result.limit_reached,
    )


def _count_claim(
    puzzle: Grid, status: str, first: Grid | None, count: int | None, limit_reached: bool
) -> Claim:
    if status not in ("solved", "unsatisfiable", "wrong"):
        return UnstatedClaim(puzzle, f"unknown status {status!r}", "a count")
    if count is None:
        if status == "unsatisfiable":
            count = 0
        else:
            return UnstatedClaim(puzzle, "it gives no count", "a count")
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        return UnstatedClaim(
            puzzle, f"the count {count!r} is not a number of completions", "a count"
        )
    return CountClaim(puzzle, count, exact=not limit_reached, first=first)


def _grid(text: str, puzzle: Grid) -> Grid | str:
    """The grid written in a record, or why it is not one of the puzzle's shape."""
    try:
        grid = Grid.parse(str(text), box=puzzle.box)
    except (GridParseError, GridShapeError) as error:
        return f"its completion is not a grid: {error}"
    if grid.size != puzzle.size:
        return (
            f"its completion is {article(grid.size)} {grid.size}x{grid.size} grid for "
            f"{article(puzzle.size)} {puzzle.size}x{puzzle.size} puzzle"
        )
    return grid


def _what(mode: Mode) -> str:
    return {Mode.LEXMIN: "lex-min", Mode.ANY: "a completion", Mode.COUNT: "a count"}[mode]


__all__ = [
    "AnyClaim",
    "Claim",
    "CountClaim",
    "LexminClaim",
    "UnsatClaim",
    "UnstatedClaim",
    "claim_of_result",
    "claim_of_run",
]
