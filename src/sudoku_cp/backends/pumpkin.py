"""The `pumpkin` backend: the Pumpkin lazy-clause-generation solver (`pumpkin-solver`).

The model: an integer 1..N per cell (a given's domain is its value) and Pumpkin's
`AllDifferent` per row, column and box. Each puzzle gets a new model (building one is a
fraction of a millisecond per unit), so that a proof log (`proof=DIR`) is the puzzle's own.

Pumpkin's Python interface has no search control (no variable or value order), so lex-min is
the shared tightening loop (backends/lexmin.py): "x(i) < s" is the assumption [x(i) <= s - 1],
the fixed prefix the assumptions [x(j) == v]. Count: `count_by_blocking`, blocking with the
clause OR_{blank i} [x(i) != s_i]. Any: one call. Time limits: Pumpkin's `timeout`, the time
left, on every call; an Unknown answer is a TIMEOUT, never a "no". Pumpkin can overrun its
timeout by seconds, so by default (`process=helper`) all of this runs in a child process, killed
when it overruns the deadline (backends/solver_process.py).

With `proof=DIR`, each puzzle's model writes Pumpkin's proof log (DRCP) to
DIR/puzzle-PID-K.drcp, and the stats name the file; docs/backends.md says what can check it.
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from ..errors import BackendFailure, BackendOptionError
from ..grid import Grid, Shape
from ..result import Mode
from .base import BackendOption, Deadline, Outcome, TimeUp
from .lexmin import OracleBackend
from .solver_process import process_option

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


@dataclass(eq=False)
class _Shape:
    """What is kept per shape: nothing but the shape (each puzzle builds its own model)."""

    size: int
    box: Shape
    retired: bool = False

    def statistics(self) -> dict[str, int]:
        return {}


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

    def close(self) -> None:
        """Let the model go: its proof log is complete once it is dropped."""
        self.model = None


class PumpkinBackend(OracleBackend):
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
    solver_name = "Pumpkin"
    install_hint = (
        "pip install '.[pumpkin]' from a sudoku-cp checkout (or pip install pumpkin-solver)"
    )
    options: ClassVar[tuple[BackendOption, ...]] = (
        BackendOption(
            "proof",
            "a directory: each puzzle's DRCP proof log is written there "
            "(puzzle-PID-K.drcp; empty: none)",
            "",
            parse=_proof_directory,
        ),
        process_option("Pumpkin's own timeout can overrun by seconds"),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.proof: str = self.option_values["proof"]
        self._numbers = itertools.count(1)
        self._proof_file: str | None = None  # the last puzzle's, in this process

    def build(self, size: int, box: Shape) -> _Shape:
        import pumpkin_solver  # noqa: F401  (the one-off import, outside the clock)

        return _Shape(size, box)

    def oracle(self, model: _Shape, grid: Grid, deadline: Deadline) -> _Puzzle:
        self._proof_file = None
        if self.proof:
            name = f"puzzle-{os.getpid()}-{next(self._numbers)}.drcp"
            self._proof_file = os.path.join(self.proof, name)
        return _Puzzle(grid, deadline, self._proof_file)

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        outcome = super()._solve(grid, mode=mode, limit=limit, deadline=deadline)
        if self.solver_process is None and self._proof_file is not None:
            outcome.stats["proof_file"] = self._proof_file  # (a solver process's child says it)
        return outcome
