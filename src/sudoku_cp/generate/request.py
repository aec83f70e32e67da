"""What a generation run is asked for: the kinds, the givens range, the request and its
checks, and the record of one generated puzzle."""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from typing import Any

from ..errors import GenerateError
from ..grid import Grid, Shape, geometry
from ..text import article

SOLUTION_LIMIT = 1000  # multi: completions are counted up to this many (up to 25x25)
# Above this size multi puzzles are counted up to 2 only, which the swap cycle already proves: a
# count is an exact solver question with no time limit, and on bigger grids it can take minutes
# (docs/decisions.md, "Generator: counting"). The count is only a fact printed beside the
# puzzle, never an input to it, so the puzzles are the same with either limit.
FULL_COUNT_UP_TO_SIZE = 25
# From this size on a puzzle that must be unique (unique, unsat, adversarial) takes many minutes,
# and on the biggest grids its kept SAT solver gigabytes: the run says so as it starts
# (docs/decisions.md, "Generator: big grids").
SLOW_FROM_SIZE = 26
NAIVE_NODE_LIMIT = 2_000_000  # adversarial: naive nodes are counted up to this many
ADVERSARIAL_VARIANTS = 8  # adversarial: symmetric variants tried per puzzle

# Default givens ranges, just above where random removal ends (a minimal puzzle): at about 4
# givens on 4x4, 9-10 on 6x6, 24 on 9x9, 90 on 16x16 and 264 on 25x25, where counts get slow.
DEFAULT_GIVENS = {4: (4, 8), 6: (9, 16), 9: (22, 32), 16: (86, 120), 25: (290, 340)}


class Kind(str, enum.Enum):
    """What kind of puzzle to make."""

    UNIQUE = "unique"
    MULTI = "multi"
    UNSAT = "unsat"
    ADVERSARIAL = "adversarial"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class GivensRange:
    """How many givens a puzzle should keep: low..high, both included."""

    low: int
    high: int

    def __str__(self) -> str:
        return f"{self.low}..{self.high}"

    def __contains__(self, givens: object) -> bool:
        return isinstance(givens, int) and self.low <= givens <= self.high

    def draw(self, rng: random.Random) -> int:
        """A target number of givens, uniform over the range."""
        return rng.randint(self.low, self.high)


def parse_givens_range(text: str, *, size: int) -> GivensRange:
    """Parse 'A..B' (or a single number A) into a range of givens for an N x N grid.

    Raises:
        GenerateError: when the text is not one or two numbers joined by '..', the low end is
            above the high end, or the high end is above N*N.
    """
    low_text, separator, high_text = text.strip().partition("..")
    if not separator:
        high_text = low_text
    if not low_text.strip().isdigit() or not high_text.strip().isdigit():
        raise GenerateError(f"expected givens as A..B (e.g. 24..30), got {text!r}")
    low, high = int(low_text), int(high_text)
    if low > high:
        raise GenerateError(f"givens {text}: the low end {low} is above the high end {high}")
    if high > size * size:
        raise GenerateError(
            f"givens {text}: {article(size)} {size}x{size} grid has only {size * size} cells"
        )
    return GivensRange(low, high)


@dataclass(frozen=True)
class Request:
    """Everything that decides the puzzles of a run (the output is a function of this alone)."""

    kind: Kind
    size: int
    box: Shape
    givens: GivensRange
    seed: int
    count: int = 1
    solution_limit: int = SOLUTION_LIMIT  # make_request sets it by size (multi_solution_limit)
    node_limit: int = NAIVE_NODE_LIMIT
    variants: int = ADVERSARIAL_VARIANTS


def make_request(
    kind: Kind | str,
    *,
    size: int,
    box: Shape | None = None,
    givens: GivensRange | str | None = None,
    seed: int,
    count: int = 1,
) -> Request:
    """A checked request; `givens` defaults to `default_givens(size)`.

    Raises:
        GridShapeError: for a size or box that no Sudoku has.
        GenerateError: for an unknown kind, a bad givens range (for multi, one above
            `most_multi_givens`), a count below 1, or a negative seed.
    """
    try:
        kind = Kind(kind)
    except ValueError:
        raise GenerateError(
            f"unknown kind {kind!r} (choose from {', '.join(str(k) for k in Kind)})"
        ) from None
    shape = geometry(size, box).box_shape
    if givens is None:
        givens = default_givens(size)
    elif isinstance(givens, str):
        givens = parse_givens_range(givens, size=size)
    if count < 1:
        raise GenerateError(f"count must be at least 1, got {count}")
    if seed < 0:
        # random.Random takes a negative seed's absolute value: -1 would give the puzzles of 1.
        raise GenerateError(f"the seed must be 0 or more, got {seed}")
    most = most_multi_givens(size)
    if kind is Kind.MULTI and givens.low > most:
        raise GenerateError(
            f"givens {givens}: a multi puzzle keeps at most {most} of the {size * size} cells "
            f"(its two completions differ in at least 4 cells, which stay blank)"
        )
    return Request(
        kind, size, shape, givens, seed, count, solution_limit=multi_solution_limit(size)
    )


def most_multi_givens(size: int) -> int:
    """The most givens a puzzle with two completions can keep: two completions of one puzzle
    differ in at least 4 cells (a cell that changes needs another change in each of its units),
    and the puzzle leaves those blank."""
    return size * size - 4


def multi_solution_limit(size: int) -> int:
    """How far multi puzzles of this size are counted: SOLUTION_LIMIT up to
    FULL_COUNT_UP_TO_SIZE, above it 2 (the construction's own proof; no solver call)."""
    return SOLUTION_LIMIT if size <= FULL_COUNT_UP_TO_SIZE else 2


@dataclass(frozen=True)
class GeneratedPuzzle:
    """One generated puzzle and the facts checked about it.

    `completions` is exact (1 for unique and adversarial, 0 for unsat) except for multi, where it
    stops at the solution limit (`completions_capped`). `naive_nodes` (adversarial only) is the
    naive row-major DFS's node count, a lower bound when `naive_finished` is False.
    """

    index: int
    kind: Kind
    puzzle: Grid
    solution: Grid | None  # the one completion of unique and adversarial puzzles
    completions: int
    completions_capped: bool = False
    naive_nodes: int | None = None
    naive_finished: bool | None = None

    @property
    def givens(self) -> int:
        return len(self.puzzle.givens())

    def facts(self) -> dict[str, Any]:
        """The facts as JSON-ready scalars (the JSON Lines fields and the comment line)."""
        data: dict[str, Any] = {"givens": self.givens, "completions": self.completions}
        if self.kind is Kind.MULTI:
            data["completions_capped"] = self.completions_capped
        if self.naive_nodes is not None:
            data["naive_nodes"] = self.naive_nodes
            data["naive_finished"] = self.naive_finished
        return data


def default_givens(size: int) -> GivensRange:
    """The givens range used when none is asked for: DEFAULT_GIVENS, else 45% to 55% of the
    cells."""
    low, high = DEFAULT_GIVENS.get(size, (round(0.45 * size * size), round(0.55 * size * size)))
    return GivensRange(low, high)
