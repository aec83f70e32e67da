"""The `pumpkin` backend: the Pumpkin lazy-clause-generation solver (`pumpkin-solver`).

The model: an integer 1..N per cell (a given's domain is its value) and Pumpkin's
`AllDifferent` per row, column and box. Each puzzle gets a new model (building one is a
fraction of a millisecond per unit), so that a proof log (`proof=DIR`) is the puzzle's own.

Pumpkin's Python interface has no search control (no variable or value order), so lex-min is
the shared tightening loop (backends/lexmin.py): "x(i) < s" is the assumption [x(i) <= s - 1],
the fixed prefix the assumptions [x(j) == v]. Count: `count_by_blocking`, blocking with the
clause OR_{blank i} [x(i) != s_i]. Any: one call. Time limits: Pumpkin's `timeout`, the time
left, on every call; an Unknown answer is a TIMEOUT, never a "no".

With `proof=DIR`, each puzzle's model writes Pumpkin's proof log (DRCP) to
DIR/puzzle-PID-K.drcp, and the stats name the file; docs/backends.md says what can check it.
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path
from typing import Any, ClassVar

from ..errors import BackendFailure, BackendOptionError
from ..grid import Grid
from ..result import Mode, Status
from .base import Backend, BackendOption, Deadline, Outcome, TimeUp
from .lexmin import Count, Questions, count_by_blocking, lexmin_by_tightening

LEXMIN_ARGUMENT = (
    "Pumpkin's Python interface sets no search order, so the shared tightening loop asks it "
    "'a completion with this prefix and a smaller value here?' (assumptions) until the answer "
    "is no, then fixes the cell: each no is a refutation, so the fixed value is the smallest "
    "any completion with the prefix has, which by induction is the lex-min's"
)


def _proof_directory(text: str) -> str:
    """A directory for the proof logs ('' for none), made if missing.

    Raises:
        BackendOptionError: for a path that is not a directory or cannot be made.
    """
    if not text:
        return ""
    path = Path(text)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise BackendOptionError(
            f"option 'proof': cannot make the directory {text!r}: {error.strerror or error}"
        ) from None
    return str(path)


class _Puzzle:
    """One puzzle's Pumpkin model: the oracle of backends/lexmin.py."""

    def __init__(self, grid: Grid, deadline: Deadline, proof: str | None) -> None:
        import pumpkin_solver
        from pumpkin_solver import constraints

        self.pumpkin = pumpkin_solver
        self.deadline = deadline
        self.size = grid.size
        self.blanks = grid.blanks()
        self.model = model = pumpkin_solver.Model(proof=proof)
        self.cells = [
            model.new_integer_variable(value or 1, value or grid.size, name=f"x{cell}")
            for cell, value in enumerate(grid.values)
        ]
        for unit in grid.geometry.units:
            model.add_constraint(
                constraints.AllDifferent(
                    [self.cells[cell] for cell in unit], model.new_constraint_tag()
                )
            )
        self.prefix: list[Any] = []  # the fixed cells, as assumptions
        self.solution: Any = None
        self.calls = 0

    def _predicate(self, cell: int, comparator: Any, value: int) -> Any:
        return self.pumpkin.Predicate(self.cells[cell], comparator, value)

    def satisfiable(self, cell: int | None = None, below: int = 0) -> bool:
        pumpkin = self.pumpkin
        remaining = self.deadline.remaining()
        if remaining is not None and remaining <= 0:
            raise TimeUp
        assumptions = list(self.prefix)
        if cell is not None:
            assumptions.append(self._predicate(cell, pumpkin.Comparator.LessThanOrEqual, below - 1))
        self.calls += 1
        if assumptions:
            answer = self.model.satisfy_under_assumptions(assumptions, timeout=remaining)
            kinds = pumpkin.SatisfactionUnderAssumptionsResult
            refuted: tuple[type, ...] = (kinds.Unsatisfiable, kinds.UnsatisfiableUnderAssumptions)
        else:
            answer = self.model.satisfy(timeout=remaining)
            kinds = pumpkin.SatisfactionResult
            refuted = (kinds.Unsatisfiable,)
        if isinstance(answer, kinds.Satisfiable):
            self.solution = answer._0
            return True
        if isinstance(answer, refuted):
            return False
        if remaining is not None:
            raise TimeUp
        raise BackendFailure(f"Pumpkin answered {type(answer).__name__} without a time limit")

    def value(self, cell: int) -> int:
        return int(self.solution.int_value(self.cells[cell]))

    def fix(self, cell: int, value: int) -> None:
        self.prefix.append(self._predicate(cell, self.pumpkin.Comparator.Equal, value))

    def completion(self) -> tuple[int, ...]:
        return tuple(self.value(cell) for cell in range(self.size**2))

    def block(self, values: tuple[int, ...]) -> None:
        """The clause OR_{blank i} [x(i) != values[i]]."""
        from pumpkin_solver import constraints

        model = self.model
        tag = model.new_constraint_tag()
        differ = [
            model.predicate_as_boolean(
                self._predicate(cell, self.pumpkin.Comparator.NotEqual, values[cell]), tag
            )
            for cell in self.blanks
        ]
        model.add_constraint(constraints.Clause(differ, tag))


class PumpkinBackend(Backend):
    """Pumpkin (`pumpkin-solver`), lazy clause generation: an integer per cell, `AllDifferent`
    per unit; lex-min by the shared tightening loop over assumptions; proof logs on request.

    Raises:
        BackendOptionError: for a proof directory that cannot be made.
    """

    name = "pumpkin"
    description = (
        "Pumpkin lazy-clause-generation CP solver: AllDifferent per unit; lex-min by "
        "iterative tightening over assumptions; proof logs (DRCP) with proof=DIR"
    )
    lexmin_reason = LEXMIN_ARGUMENT
    requires = ("pumpkin_solver",)
    packages = ("pumpkin-solver",)
    setup_modules = ("pumpkin_solver",)
    install_hint = "pip install 'sudoku-cp[pumpkin]' (or pip install pumpkin-solver)"
    options: ClassVar[tuple[BackendOption, ...]] = (
        BackendOption(
            "proof",
            "a directory: each puzzle's DRCP proof log is written there "
            "(puzzle-PID-K.drcp; empty: none)",
            "",
            parse=_proof_directory,
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.proof: str = self.option_values["proof"]
        self._numbers = itertools.count(1)
        self._imported = False

    def prepare(self, grid: Grid) -> bool:
        """Import Pumpkin once, outside the clock."""
        if self._imported:
            return False
        import pumpkin_solver  # noqa: F401

        self._imported = True
        return True

    def _proof_file(self) -> str | None:
        if not self.proof:
            return None
        return os.path.join(self.proof, f"puzzle-{os.getpid()}-{next(self._numbers)}.drcp")

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        proof = self._proof_file()
        puzzle = _Puzzle(grid, deadline, proof)
        questions, counted = Questions(), Count()
        values: tuple[int, ...] | None = None
        timed_out = False
        try:
            if mode is Mode.LEXMIN:
                values = lexmin_by_tightening(grid, puzzle, deadline, questions)
            elif mode is Mode.COUNT:
                count_by_blocking(puzzle, limit, deadline, counted, questions)
                values = counted.first
            else:
                questions.calls += 1
                if puzzle.satisfiable():
                    questions.yes += 1
                    values = puzzle.completion()
        except TimeUp:
            timed_out = True
        finally:
            del puzzle.model  # the proof log is complete once its model is gone
        stats: dict[str, Any] = {**questions.stats()}
        if proof is not None:
            stats["proof"] = proof
        count = counted.count if mode is Mode.COUNT else None
        if timed_out:
            return Outcome.timeout(deadline, count=count, stats=stats)
        if values is None:
            return Outcome.unsatisfiable(
                "Pumpkin proved that no completion exists", count=count, stats=stats
            )
        return Outcome(Status.SOLVED, values, count, stats)
