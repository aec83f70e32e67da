"""One puzzle in each mode on a kept solver: any, lex-min by iterative tightening, count.

Each function takes the puzzle's `PuzzleCalls` and returns an `Outcome`; the givens are
assumptions. Any is one SAT call. Lex-min is the shared `lexmin_by_tightening` loop
(backends/lexmin.py, where its proof is) over `TighteningCalls`, which asks "x(i) < s" as the
assumptions not-x(i, v) for every v >= s and fixes a cell by one more assumption. Count blocks
each completion found by a clause guarded by an activation literal of the puzzle, which is
switched off for good when the puzzle is done.
"""

from __future__ import annotations

from collections.abc import Callable

from ...errors import BackendFailure
from ...grid import Grid
from ...result import Mode, Status
from ..base import Outcome, TimeUp
from ..lexmin import Questions, lexmin_by_tightening
from .cnf import decode_model, variable
from .kept import PuzzleCalls

NO_COMPLETION = "no completion keeps the givens"


def given_assumptions(grid: Grid) -> list[int]:
    """The givens as assumptions: x(cell, value) for each."""
    size = grid.size
    return [variable(cell, value, size) for cell, value in grid.givens().items()]


def solve_any(calls: PuzzleCalls, grid: Grid, limit: int) -> Outcome:
    """One SAT call: the first completion the solver finds."""
    if not calls.satisfiable(given_assumptions(grid)):
        return Outcome.unsatisfiable(NO_COMPLETION)
    return Outcome(Status.SOLVED, values=tuple(decode_model(calls.model(), grid.size)))


class TighteningCalls:
    """The tightening loop's oracle over one puzzle's calls: the givens and the fixed cells are
    assumptions; "below b at cell i" adds not-x(i, v) for v >= b."""

    def __init__(self, calls: PuzzleCalls, grid: Grid) -> None:
        self.calls = calls
        self.size = grid.size
        self.assumptions = given_assumptions(grid)
        self.model: list[int] = []

    def satisfiable(self, cell: int | None = None, below: int = 0) -> bool:
        """Whether a completion keeps the givens and the fixed cells (and puts a value below
        `below` in `cell`); a found one becomes `model`.

        Raises:
            TimeUp: when the budget ran out before the call finished.
            AllowanceSpent: when the call ran out of the puzzle's conflict allowance.
        """
        assumptions = self.assumptions
        if cell is not None:
            start = cell * self.size
            assumptions = assumptions + [-(start + v) for v in range(below, self.size + 1)]
        if not self.calls.satisfiable(assumptions):
            return False
        self.model = self.calls.model()
        return True

    def value(self, cell: int) -> int:
        """The cell's value in the last completion found: the model lists literals by variable,
        so the cell's N literals are one slice, and its one true literal (the only positive
        one) is their maximum, a C-level pass.

        Raises:
            BackendFailure: when the model gives the cell no value.
        """
        size = self.size
        start = cell * size
        value: int = max(self.model[start : start + size]) - start
        if not 1 <= value <= size:
            raise BackendFailure(f"the SAT model gives cell {cell} no value")
        return value

    def fix(self, cell: int, value: int) -> None:
        """Keep `cell` at `value` in every later call: one more assumption."""
        self.assumptions.append(cell * self.size + value)


def solve_lexmin(calls: PuzzleCalls, grid: Grid, limit: int) -> Outcome:
    """The row-major smallest completion by the shared iterative tightening loop.

    Its stats: `unsat_calls`, the calls answered UNSAT (each made a cell final).
    """
    questions = Questions()
    # No deadline for the loop to check: every call stops at it (the watchdog), and a deadline
    # that passed between calls stops the next one.
    values = lexmin_by_tightening(grid, TighteningCalls(calls, grid), None, questions)
    if values is None:
        return Outcome.unsatisfiable(NO_COMPLETION)
    return Outcome(
        Status.SOLVED, values=values, stats={"unsat_calls": questions.calls - questions.yes}
    )


def solve_count(calls: PuzzleCalls, grid: Grid, limit: int) -> Outcome:
    """Completions up to `limit`, each found one blocked by a clause guarded for this puzzle.

    Raises:
        TimeUp: when the budget ran out, with the completions found so far as its `count`.
    """
    size = grid.size
    blanks = grid.blanks()
    kept = calls.kept
    activation = kept.fresh_activation()
    assumptions = given_assumptions(grid) + [activation]
    first: tuple[int, ...] | None = None
    count = 0
    try:
        while calls.satisfiable(assumptions):
            values = decode_model(calls.model(), size)
            first = first or tuple(values)
            count += 1
            if count == limit:
                break
            calls.add_clause(
                [-activation] + [-variable(cell, values[cell], size) for cell in blanks]
            )
    except TimeUp as stop:
        stop.count = count
        raise
    finally:
        kept.solver.add_clause([-activation])  # retire this puzzle's clauses for good
    if count == 0:
        return Outcome.unsatisfiable(NO_COMPLETION, count=0)
    return Outcome(Status.SOLVED, values=first, count=count)


MODES: dict[Mode, Callable[[PuzzleCalls, Grid, int], Outcome]] = {
    Mode.ANY: solve_any,
    Mode.LEXMIN: solve_lexmin,
    Mode.COUNT: solve_count,
}
