"""The other kinds (multi, unsat, adversarial) and the run that makes puzzle after puzzle."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterator

from ..backends import Backend, get_backend
from ..errors import GenerateError
from ..grid import BLANK, Grid
from ..naive import naive_solve
from .counting import CompletionCounter, Effort, counting_backend_name
from .filling import (
    random_completed_grid,
    relabel_first_row_descending,
    shuffle_grid,
    smallest_swap_cycle,
    swapped,
)
from .removal import unique_puzzle
from .request import GeneratedPuzzle, Kind, Request
from .uniqueness import UniquenessChecks

log = logging.getLogger(__name__)

UNSAT_ATTEMPTS = 5  # unsat: unique puzzles tried before giving up


def multi_puzzle(
    rng: random.Random, request: Request, counter: CompletionCounter, filler: Backend
) -> tuple[Grid, int]:
    """(puzzle, completions up to the limit): givens drawn from outside a swap cycle, which is
    blank, so the grid and its swapped twin both complete the puzzle.

    With a limit of 2 or less the two known completions answer the count (each is checked to
    complete the puzzle), so no solver is asked.
    """
    target = request.givens.draw(rng)
    counter.enter("filling")
    solution = random_completed_grid(rng, request.size, box=request.box, filler=filler)
    counter.enter("checking")
    cycle = smallest_swap_cycle(solution, rng)
    in_cycle = set(cycle)
    outside = [cell for cell in solution.geometry.cells if cell not in in_cycle]
    kept = set(rng.sample(outside, min(target, len(outside))))
    puzzle = Grid(
        tuple(value if cell in kept else BLANK for cell, value in enumerate(solution.values)),
        solution.box,
    )
    if request.solution_limit <= 2:
        twin = swapped(solution, cycle)
        if not (
            solution.is_solution_of(puzzle) and twin.is_solution_of(puzzle) and twin != solution
        ):
            raise GenerateError("a swap cycle did not give a second completion (a bug)")
        return puzzle, request.solution_limit
    return puzzle, counter.count(puzzle, request.solution_limit)


# -- unsat ----------------------------------------------------------------------------------------


def changed_given_without_completion(
    puzzle: Grid, rng: random.Random, counter: CompletionCounter
) -> Grid | None:
    """The puzzle with one given changed to a value that none of its peers hold, chosen (in random
    order) so that no completion is left; None when every such change still completes."""
    geo = puzzle.geometry
    changes = []
    for cell, value in puzzle.givens().items():
        held = {puzzle.values[peer] for peer in geo.peers[cell]}
        changes += [
            (cell, other)
            for other in range(1, puzzle.size + 1)
            if other != value and other not in held
        ]
    rng.shuffle(changes)
    for cell, other in changes:
        candidate = puzzle.with_values({cell: other})
        if not counter.has_completion(candidate):
            return candidate
    return None


def unsat_puzzle(
    rng: random.Random, request: Request, checks: UniquenessChecks, filler: Backend
) -> Grid:
    """A puzzle with no completion and no repeated given, from a unique puzzle.

    Raises:
        GenerateError: when UNSAT_ATTEMPTS unique puzzles all complete after every change.
    """
    for _ in range(UNSAT_ATTEMPTS):
        puzzle, _solution = unique_puzzle(rng, request, checks, filler)
        checks.counter.enter("checking")
        changed = changed_given_without_completion(puzzle, rng, checks.counter)
        if changed is not None:
            return changed
    raise GenerateError(
        f"no unsat puzzle found in {UNSAT_ATTEMPTS} tries "
        f"({request.size}x{request.size}, givens {request.givens})"
    )


# -- adversarial ----------------------------------------------------------------------------------


def adversarial_puzzle(
    rng: random.Random, request: Request, checks: UniquenessChecks, filler: Backend
) -> tuple[Grid, Grid, int, bool]:
    """(puzzle, solution, naive nodes, finished): of `request.variants` symmetric variants of a
    unique puzzle, relabelled so the solution's first row is N..1, the costliest for naive DFS.

    A variant that reaches the node limit cannot be beaten, so the search stops there.
    """
    puzzle, solution = unique_puzzle(rng, request, checks, filler)
    checks.counter.enter("checking")
    best: tuple[Grid, Grid, int, bool] | None = None
    for _ in range(request.variants):
        variant_puzzle, variant_solution = symmetric_variant(puzzle, solution, rng)
        variant_puzzle, variant_solution = relabel_first_row_descending(
            variant_puzzle, variant_solution
        )
        naive = naive_solve(variant_puzzle, node_limit=request.node_limit)
        if best is None or naive.nodes > best[2]:
            best = variant_puzzle, variant_solution, naive.nodes, naive.finished
        if not naive.finished:
            break
    assert best is not None
    return best


def symmetric_variant(puzzle: Grid, solution: Grid, rng: random.Random) -> tuple[Grid, Grid]:
    """The same random symmetry applied to a puzzle and its solution."""
    state = rng.getstate()
    shuffled_puzzle = shuffle_grid(puzzle, rng)
    rng.setstate(state)  # replay the same draws, so both grids get the same symmetry
    shuffled_solution = shuffle_grid(solution, rng)
    return shuffled_puzzle, shuffled_solution


# -- runs -----------------------------------------------------------------------------------------


def puzzle_rngs(seed: int) -> Iterator[random.Random]:
    """One generator per puzzle, drawn in turn from the seed: puzzle i depends on i alone."""
    master = random.Random(seed)
    while True:
        yield random.Random(master.getrandbits(64))


def generate_one(
    index: int, rng: random.Random, request: Request, checks: UniquenessChecks, filler: Backend
) -> GeneratedPuzzle:
    """Puzzle `index` of a run, made from its own random generator."""
    kind = request.kind
    if kind is Kind.UNIQUE:
        puzzle, solution = unique_puzzle(rng, request, checks, filler)
        return GeneratedPuzzle(index, kind, puzzle, solution, 1)
    if kind is Kind.MULTI:
        puzzle, completions = multi_puzzle(rng, request, checks.counter, filler)
        return GeneratedPuzzle(
            index,
            kind,
            puzzle,
            None,
            completions,
            completions_capped=completions >= request.solution_limit,
        )
    if kind is Kind.UNSAT:
        return GeneratedPuzzle(index, kind, unsat_puzzle(rng, request, checks, filler), None, 0)
    puzzle, solution, nodes, finished = adversarial_puzzle(rng, request, checks, filler)
    return GeneratedPuzzle(
        index, kind, puzzle, solution, 1, naive_nodes=nodes, naive_finished=finished
    )


def generate(
    request: Request,
    *,
    counter_name: str | None = None,
    on_count: Callable[[int], None] | None = None,
    on_progress: Callable[[Effort], None] | None = None,
) -> Iterator[GeneratedPuzzle]:
    """The puzzles of a request, one at a time, in index order.

    `counter_name` overrides the counting backend (the puzzles stay the same, only the speed
    changes; with sat, the uniqueness checks of the removal go to a kept SAT solver of their
    own, see `UniquenessChecks`). `on_count` is called with the number of solver questions so
    far after each one, `on_progress` with the run's `Effort` after each question and at each
    new phase: the progress within a puzzle, which can take minutes on a sparse 25x25.
    """
    name = counter_name or counting_backend_name(request.size)
    with get_backend(name) as backend, get_backend("dfs") as filler:
        counter = CompletionCounter(backend, on_count, on_progress)
        checks = UniquenessChecks(counter, use_sat=name == "sat")
        log.info(
            "generate %s %dx%d: counting with %s", request.kind, request.size, request.size, name
        )
        try:
            for index, rng in zip(range(request.count), puzzle_rngs(request.seed), strict=False):
                yield generate_one(index, rng, request, checks, filler)
        finally:
            checks.close()
