"""The solving path: always the easiest technique that makes progress, until the grid is solved,
the techniques are stuck, or a contradiction shows the puzzle has no completion. With
`complete`, a stuck board goes on by the smallest proof by contradiction found: the candidate
whose assumption reaches a contradiction in the fewest steps is eliminated."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..grid import Grid
from .board import Board, bits, candidate_name
from .singles import claiming, hidden_single, naked_single, pointing
from .steps import CONTRADICTION, TECHNIQUES, Explanation, Step
from .subsets import fish, hidden, naked
from .wings import xy_wing, xyz_wing

Finder = Callable[[Board], Step | None]

FINDERS: dict[str, Finder] = {
    "hidden single": hidden_single,
    "naked single": naked_single,
    "pointing": pointing,
    "claiming": claiming,
    "naked pair": naked(2),
    "hidden pair": hidden(2),
    "naked triple": naked(3),
    "hidden triple": hidden(3),
    "naked quad": naked(4),
    "hidden quad": hidden(4),
    "x-wing": fish(2),
    "swordfish": fish(3),
    "jellyfish": fish(4),
    "xy-wing": xy_wing,
    "xyz-wing": xyz_wing,
}
assert list(FINDERS) == list(TECHNIQUES)


def explain(
    grid: Grid, *, techniques: Sequence[str] = tuple(TECHNIQUES), complete: bool = False
) -> Explanation:
    """The explanation of a puzzle whose givens repeat no value in a unit."""
    finders = [FINDERS[name] for name in TECHNIQUES if name in techniques]
    board = Board.of(grid)
    explanation = _walk(board, finders, limit=None)
    while complete and explanation.status == "stuck":
        step = smallest_contradiction(board, finders)
        if step is None:
            break
        board.apply(step.placements, step.eliminations)
        rest = _walk(board, finders, limit=None)
        explanation = Explanation(
            rest.status, [*explanation.steps, step, *rest.steps], rest.contradiction
        )
    return explanation


def _walk(board: Board, finders: Sequence[Finder], limit: int | None) -> Explanation:
    """Apply the easiest step that makes progress until solved, stuck, a contradiction, or
    `limit` steps (then: stuck)."""
    steps: list[Step] = []
    while True:
        problem = board.contradiction()
        if problem is not None:
            return Explanation("unsatisfiable", steps, problem)
        if board.solved():
            return Explanation("solved", steps)
        if limit is not None and len(steps) >= limit:
            return Explanation("stuck", steps)
        step = next_step(board, finders)
        if step is None:
            return Explanation("stuck", steps)
        board.apply(step.placements, step.eliminations)
        steps.append(step)


def next_step(board: Board, finders: Sequence[Finder]) -> Step | None:
    for finder in finders:
        step = finder(board)
        if step is not None:
            return step
    return None


def smallest_contradiction(board: Board, finders: Sequence[Finder]) -> Step | None:
    """The candidate whose assumption the techniques refute in the fewest steps, as a step that
    eliminates it; None when no assumption leads to a contradiction. Cells with fewer
    candidates are tried first, and each try stops once it is no shorter than the best."""
    best: Step | None = None
    order = sorted(
        (cell for cell, mask in enumerate(board.candidates) if mask),
        key=lambda cell: (board.candidates[cell].bit_count(), cell),
    )
    for cell in order:
        for value in bits(board.candidates[cell]):
            trial = board.copy()
            trial.place(cell, value)
            limit = None if best is None else len(best.chain) - 1
            if limit is not None and limit < 0:
                return best
            outcome = _walk(trial, finders, limit)
            if outcome.status != "unsatisfiable":
                continue
            best = Step(
                CONTRADICTION,
                eliminations=((cell, value),),
                cells=(cell,),
                values=(value,),
                chain=tuple(outcome.steps),
                contradiction=outcome.contradiction,
            )
            if not best.chain:
                return best
    return best


def assumption_name(step: Step, size: int) -> str:
    (cell, value), *_ = step.eliminations
    return candidate_name(cell, value, size)


__all__ = ["FINDERS", "assumption_name", "explain", "next_step", "smallest_contradiction"]
