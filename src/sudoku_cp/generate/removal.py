"""The unique kind: givens removed from a completed grid while the completion stays unique.

The removal pass blanks the cells in random order, each only if the puzzle stays unique, down to
a target drawn from the givens range or to a minimal puzzle (every given left is needed). Random
removal ends at about the same count on every grid of a size; a range below that is reached by
the exchange search (`exchange_givens`), from EXCHANGE_FROM_SIZE on, where a new grid costs far
more than a move. The figures are in docs/commands/generate.md.
"""

from __future__ import annotations

import logging
import random

from ..backends import Backend
from ..grid import BLANK, Grid
from .filling import random_completed_grid
from .request import Request
from .uniqueness import UniquenessChecks, Witness

log = logging.getLogger(__name__)

UNIQUE_ATTEMPTS = 3  # unique: completed grids tried when the range is not reached
# The exchange search below a minimal puzzle, from this size on: below it a new grid costs
# milliseconds (and the 9x9 data files were made by trying new grids).
EXCHANGE_FROM_SIZE = 16
EXCHANGE_MOVES_PER_CELL = 1  # the exchange search's budget: this many moves per cell


def is_forced(values: list[int], cell: int, peers: tuple[int, ...], size: int) -> bool:
    """Whether the givens among a cell's peers hold every value but its own: then blanking it
    keeps exactly the same completions, with no count needed."""
    seen = {values[peer] for peer in peers}
    seen.discard(BLANK)
    return len(seen) == size - 1 and values[cell] not in seen


def remove_givens_while_unique(
    solution: Grid, rng: random.Random, checks: UniquenessChecks, *, target: int
) -> tuple[list[int], dict[int, Witness]]:
    """Blank the cells of a completed grid in random order, each only if the puzzle stays unique,
    until `target` givens are left or no given can go (a minimal puzzle): the puzzle's values,
    and a witness for each given whose removal was refused (see `UniquenessChecks`)."""
    geo = solution.geometry
    values = list(solution.values)
    givens = len(values)
    witnesses: dict[int, Witness] = {}
    order = list(geo.cells)
    rng.shuffle(order)
    checks.start(solution)
    counter = checks.counter
    for cell in order:
        if givens <= target:
            break
        counter.effort.givens = givens
        if not is_forced(values, cell, geo.peers[cell], solution.size):
            witness = checks.alternative(values, cell)
            if witness is not None:
                witnesses[cell] = witness
                continue
        values[cell] = BLANK
        givens -= 1
    return values, witnesses


def exchange_givens(
    solution: Grid,
    values: list[int],
    witnesses: dict[int, Witness],
    rng: random.Random,
    checks: UniquenessChecks,
    *,
    target: int,
    moves: int,
) -> list[int]:
    """Go below a minimal puzzle: up to `moves` exchanges of a given for a blank, each followed
    by a new try at removing the givens it may have freed, until `target` givens are left.

    A move blanks a random given g and gives a random blank peer a of it; it stands when the
    puzzle is still unique. Each given keeps the witnesses of its refused removals (other
    completions of the puzzle without it, see `UniquenessChecks`); one that avoids a completes
    the puzzle after the move too, so such a move is refused without asking. After a move, a
    given h can go only if the new given a cuts every witness of h: the givens are tried in random
    order, and only those whose witnesses all contain a are asked. `values` and `witnesses` (one
    for each given) are updated in place. Every draw of `rng` is made whatever the witnesses, and
    every answer is exact, so the puzzle depends on the seed alone.
    """
    peers = solution.geometry.peers
    counter = checks.counter
    known = {cell: [witness] for cell, witness in witnesses.items()}
    givens = sorted(cell for cell, value in enumerate(values) if value != BLANK)
    for _ in range(moves):
        if len(givens) <= target:
            break
        counter.effort.givens = len(givens)
        given = rng.choice(givens)
        blank_peers = [peer for peer in peers[given] if values[peer] == BLANK]
        if not blank_peers:
            continue
        added = rng.choice(blank_peers)
        if any(added not in witness for witness in known.setdefault(given, [])):
            continue  # that witness completes the exchanged puzzle: a second completion
        values[added] = solution.values[added]
        witness = checks.alternative(values, given)
        if witness is not None:
            values[added] = BLANK  # the exchange would leave a second completion
            known[given].append(witness)  # it avoids `added`: another witness for `given`
            continue
        values[given] = BLANK
        known[added] = known.pop(given)  # each completes the puzzle without `added` now
        givens.remove(given)
        givens.append(added)
        givens.sort()
        free_givens(solution, values, givens, known, added, rng, checks)
    witnesses.clear()
    witnesses.update((cell, found[-1]) for cell, found in known.items())
    return values


def free_givens(
    solution: Grid,
    values: list[int],
    givens: list[int],
    known: dict[int, list[Witness]],
    added: int,
    rng: random.Random,
    checks: UniquenessChecks,
) -> None:
    """After a move that gave `added`: blank, in random order, the givens it freed. A given with
    a witness that avoids `added` is still needed; the others are asked again. `values`, `givens`
    and `known` (each given's witnesses) are updated in place."""
    peers, size = solution.geometry.peers, solution.size
    for cell in rng.sample(givens, len(givens)):
        if cell == added:
            continue
        kept = [witness for witness in known.get(cell, ()) if added not in witness]
        if kept:
            known[cell] = kept  # those still complete the puzzle without `cell`
            continue
        witness = (
            None if is_forced(values, cell, peers[cell], size) else checks.alternative(values, cell)
        )
        if witness is None:
            values[cell] = BLANK
            del known[cell]
            givens.remove(cell)
        else:
            known[cell] = [witness]


def unique_puzzle(
    rng: random.Random, request: Request, checks: UniquenessChecks, filler: Backend
) -> tuple[Grid, Grid]:
    """(puzzle, solution): a unique puzzle with givens in the range when the removal (and, from
    EXCHANGE_FROM_SIZE on, the exchange search) reaches it; otherwise, after UNIQUE_ATTEMPTS
    grids, the one with the fewest givens."""
    target = request.givens.draw(rng)
    counter = checks.counter
    best: tuple[Grid, Grid] | None = None
    for _ in range(UNIQUE_ATTEMPTS):
        counter.enter("filling")
        solution = random_completed_grid(rng, request.size, box=request.box, filler=filler)
        counter.enter("removing", givens=len(solution.values))
        values, witnesses = remove_givens_while_unique(solution, rng, checks, target=target)
        givens = sum(value != BLANK for value in values)
        if request.size >= EXCHANGE_FROM_SIZE and givens > request.givens.high:
            counter.enter("exchanging", givens=givens)
            moves = EXCHANGE_MOVES_PER_CELL * len(values)
            exchange_givens(solution, values, witnesses, rng, checks, target=target, moves=moves)
        puzzle = Grid(tuple(values), solution.box)
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
