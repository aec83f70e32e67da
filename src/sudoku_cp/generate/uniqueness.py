"""Whether a puzzle stays unique when one given goes, for puzzles of one known completion.

The removal of givens asks this question hundreds of times per grid, always about puzzles whose
one completion S is known, and each puzzle differs from the one before by a single cell. So
the question can be put more narrowly than a count up to 2: a puzzle P whose only completion is
S stays unique without its given c exactly when no completion of P - c holds another value at
c (a completion that agrees with S at c completes P, so it is S). That is one SAT call under
the assumptions "the givens of P - c, and not S[c] at c", on one solver kept for the run: the
base CNF never changes, so every clause it learns holds for every later question.

When the answer is no, the call's model is another completion, and the cells where it differs
from S are kept as a *witness*: as long as every one of those cells stays blank, that cell's
removal is known to fail without asking again (see `removal.exchange_givens`). Witnesses only
ever skip a question whose answer they prove; they never change an answer, so the puzzles do
not depend on which completion a solver happens to return.
"""

from __future__ import annotations

import logging
from typing import Any

from ..errors import solver_interrupts
from ..grid import BLANK, Grid, Shape
from .counting import CompletionCounter

log = logging.getLogger(__name__)

Witness = frozenset[int]  # the cells where another completion differs from the known one

# The python-sat solver of the uniqueness questions, the fastest on a 25x25 removal
# (docs/commands/generate.md has the figures).
UNIQUENESS_SOLVER = "cadical195"


class UniquenessChecks:
    """Answers "is this puzzle still unique without that given?" for puzzles of one completion.

    `start(solution)` sets the completion; the puzzles asked about after it must have it as
    their only completion. With `use_sat` (the sat backend's solver package is there, and the
    run counts with sat) the questions go to one kept SAT solver; otherwise to the counter (a
    count up to 2, which names no witness). Either way the answers are exact, so the puzzles are
    the same.
    """

    def __init__(self, counter: CompletionCounter, *, use_sat: bool) -> None:
        self.counter = counter
        self.use_sat = use_sat
        self._solver: Any = None  # a pysat Solver, built for the first grid of a shape
        self._shape: tuple[int, Shape] | None = None
        self._solution: Grid | None = None
        self._literals: list[int] = []
        self._every_cell: Witness = frozenset()

    def start(self, solution: Grid) -> None:
        """The completion of the puzzles asked about from now on."""
        self._solution = solution
        self._every_cell = frozenset(solution.geometry.cells)
        if not self.use_sat:
            return
        from ..backends.sat import variable

        size = solution.size
        if self._shape != (size, solution.box):
            self.close()
            # Its own phase on the progress line: on the biggest grids the build takes minutes,
            # and the line would otherwise stand still at the first removal.
            effort = self.counter.effort
            phase, givens = effort.phase, effort.givens
            self.counter.enter("building")
            self._build(size, solution.box)
            self.counter.enter(phase, givens=givens)
        self._literals = [variable(cell, value, size) for cell, value in enumerate(solution.values)]
        # The search starts from S: a second completion, when there is one, tends to lie near.
        self._solver.set_phases(self._literals)

    def _build(self, size: int, box: Shape) -> None:
        from pysat.solvers import Solver

        from ..backends.sat import base_cnf

        cnf = base_cnf(size, box, "extended", "pairwise")
        self._solver = Solver(name=UNIQUENESS_SOLVER, bootstrap_with=cnf.clauses)
        self._shape = (size, box)

    def alternative(self, values: list[int], cell: int) -> Witness | None:
        """For a puzzle (`values`, BLANK where not given) whose only completion is the started
        one and in which `cell` is given: None when the puzzle without `cell` still has only
        that completion, else a witness (every cell when the counter cannot name one)."""
        solution = self._solution
        assert solution is not None, "start() sets the completion first"
        if not self.use_sat:
            kept, values[cell] = values[cell], BLANK
            try:
                unique = self.counter.is_unique(Grid(tuple(values), solution.box))
            finally:
                values[cell] = kept
            return None if unique else self._every_cell
        from ..backends.sat import decode_model

        literals = self._literals
        assumptions = [literals[other] for other, value in enumerate(values) if value != BLANK]
        assumptions.remove(literals[cell])
        assumptions.append(-literals[cell])
        with self.counter.question(), solver_interrupts():
            found = self._solver.solve(assumptions=assumptions)
        if not found:
            return None
        other = decode_model(self._solver.get_model(), solution.size)
        return frozenset(
            place
            for place, (theirs, ours) in enumerate(zip(other, solution.values, strict=True))
            if theirs != ours
        )

    def close(self) -> None:
        """Free the kept solver."""
        if self._solver is not None:
            self._solver.delete()
            self._solver = None
            self._shape = None
