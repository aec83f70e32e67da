"""The unique kind: givens removed from a completed grid while the completion stays unique."""

from __future__ import annotations

import logging
import random

from ..backends import Backend
from ..grid import BLANK, Grid
from .counting import CompletionCounter
from .filling import random_completed_grid
from .request import Request

log = logging.getLogger(__name__)

UNIQUE_ATTEMPTS = 3  # unique: completed grids tried when the range is not reached


def is_forced(values: list[int], cell: int, peers: tuple[int, ...], size: int) -> bool:
    """Whether the givens among a cell's peers hold every value but its own: then blanking it
    keeps exactly the same completions, with no count needed."""
    seen = {values[peer] for peer in peers}
    seen.discard(BLANK)
    return len(seen) == size - 1 and values[cell] not in seen


def remove_givens_while_unique(
    solution: Grid, rng: random.Random, counter: CompletionCounter, *, target: int
) -> Grid:
    """Blank the cells of a completed grid in random order, each only if the puzzle stays unique,
    until `target` givens are left or no given can go (a minimal puzzle)."""
    geo = solution.geometry
    values = list(solution.values)
    givens = len(values)
    order = list(geo.cells)
    rng.shuffle(order)
    for cell in order:
        if givens <= target:
            break
        if not is_forced(values, cell, geo.peers[cell], solution.size):
            kept = values[cell]
            values[cell] = BLANK
            still_unique = counter.is_unique(Grid(tuple(values), solution.box))
            values[cell] = kept
            if not still_unique:
                continue
        values[cell] = BLANK
        givens -= 1
    return Grid(tuple(values), solution.box)


def unique_puzzle(
    rng: random.Random, request: Request, counter: CompletionCounter, filler: Backend
) -> tuple[Grid, Grid]:
    """(puzzle, solution): a unique puzzle with givens in the range when the removal reaches it;
    otherwise, after UNIQUE_ATTEMPTS grids, the one with the fewest givens."""
    target = request.givens.draw(rng)
    best: tuple[Grid, Grid] | None = None
    for _ in range(UNIQUE_ATTEMPTS):
        solution = random_completed_grid(rng, request.size, box=request.box, filler=filler)
        puzzle = remove_givens_while_unique(solution, rng, counter, target=target)
        if len(puzzle.givens()) in request.givens:
            return puzzle, solution
        if best is None or len(puzzle.givens()) < len(best[0].givens()):
            best = puzzle, solution
    assert best is not None
    log.info(
        "unique: stopped at a minimal puzzle of %d givens, above %s",
        len(best[0].givens()),
        request.givens,
    )
    return best
