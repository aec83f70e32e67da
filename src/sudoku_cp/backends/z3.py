"""The `z3` backend: the Z3 SMT solver (z3-solver), lex-min by iterative tightening.

Two models (option `model`), both on Z3's finite-domain solver (`SolverFor("QF_FD")`, which
bit-blasts bounded integers and keeps cardinality constraints for its SAT core):

    boolean  a Boolean b(cell, value) per candidate; each cell holds exactly one value, and each
             unit holds each value exactly once (`AtMost(..., 1)` and an `Or`: the `sat`
             backend's extended encoding, with native cardinality constraints).
    integer  an integer 1..N per cell and `Distinct` per unit. QF_FD refuses arithmetic added
             after the first check and answers "unknown" to an arithmetic assumption, so each
             cell also gets the order literals le(cell, v) <=> x <= v (v < N) in the base model,
             and every question is asked in them.

One solver per (shape, model) is kept across puzzles, built in `prepare()` (outside the
clock). The givens and the fixed prefix are assumptions, never assertions; count mode's
blocking clauses carry a fresh activation literal of the puzzle, switched off for good (the
unit clause not-act) when the puzzle is done.

Lex-min: `lexmin_by_tightening` (backends/lexmin.py): "x(i) < s" is the assumptions
not-b(i, v) for v >= s (boolean) or le(i, s-1) (integer). Count: `count_by_blocking`. Any: one
check. Time limits: Z3's `timeout` parameter, set before each check to the time left; a check
that returns unknown is a TIMEOUT, never a "no", and the solver is retired (the next puzzle of
the shape rebuilds it, on its own clock). Stats: Z3's counters for the puzzle, and the oracle calls.

By default (`process=helper`) all of this runs in a child process, killed when it overruns the
deadline (docs/backends.md says why).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..errors import BackendFailure
from ..grid import Grid, Shape, geometry
from .base import BackendOption, Deadline, TimeUp
from .lexmin import OracleBackend
from .solver_process import process_option

MODELS = ("boolean", "integer")
# Z3's counters that a puzzle reports, by the name the stats give them.
_COUNTERS = {
    "conflicts": ("sat conflicts", "conflicts"),
    "decisions": ("sat decisions", "decisions"),
    "propagations": (
        "sat propagations 2ary",
        "sat propagations nary",
        "propagations",
        "binary propagations",
    ),
    "restarts": ("sat restarts", "restarts"),
}


@functools.cache
def _units(size: int, box: Shape) -> tuple[tuple[int, ...], ...]:
    return geometry(size, box).units


@dataclass(eq=False)
class _Model:
    """A kept Z3 solver holding one shape's base model."""

    size: int
    kind: str  # the option `model`: boolean or integer
    solver: Any
    literals: list[
        list[Any]
    ]  # boolean: b(cell, value) at [cell][value]; integer: le(cell, v) at [cell][v]
    cells: list[Any]  # integer: the cell integers (boolean: empty)
    activations: int = 0
    retired: bool = False  # timed out or failed: the next puzzle of the shape gets a new one
    counters: dict[str, int] = field(default_factory=dict)

    def equal(self, cell: int, value: int) -> list[Any]:
        """The assumptions that say x(cell) = value."""
        import z3

        if self.kind == "boolean":
            return [self.literals[cell][value]]
        size, order = self.size, self.literals[cell]
        return ([order[value]] if value < size else []) + (
            [z3.Not(order[value - 1])] if value > 1 else []
        )

    def below(self, cell: int, bound: int) -> list[Any]:
        """The assumptions that say x(cell) < bound (bound >= 2)."""
        import z3

        if self.kind == "boolean":
            row = self.literals[cell]
            return [z3.Not(row[value]) for value in range(bound, self.size + 1)]
        return [self.literals[cell][bound - 1]]

    def value_in(self, model: Any, cell: int) -> int:
        """A cell's value in a Z3 model."""
        import z3

        if self.kind == "integer":
            return int(model.eval(self.cells[cell], model_completion=True).as_long())
        row = self.literals[cell]
        for value in range(1, self.size + 1):
            if z3.is_true(model.eval(row[value], model_completion=True)):
                return value
        raise BackendFailure(f"the Z3 model gives cell {cell} no value")

    def statistics(self) -> dict[str, int]:
        """The solver's cumulative counters, summed into our names."""
        stats = self.solver.statistics()
        names = stats.keys()  # a z3 Statistics object is no mapping
        found = {key: stats.get_key_value(key) for key in names}
        return {
            ours: int(sum(found.get(name, 0) for name in theirs))
            for ours, theirs in _COUNTERS.items()
        }


def _build(size: int, box: Shape, kind: str) -> _Model:
    """A new solver with the base model of the shape (no givens)."""
    import z3

    solver = z3.SolverFor("QF_FD")
    area = range(size * size)
    cells: list[Any] = []
    if kind == "boolean":
        literals = [
            [z3.BoolVal(False)] + [z3.Bool(f"b{cell}_{value}") for value in range(1, size + 1)]
            for cell in area
        ]
        groups = [literals[cell][1:] for cell in area] + [
            [literals[cell][value] for cell in unit]
            for unit in _units(size, box)
            for value in range(1, size + 1)
        ]
        for group in groups:
            solver.add(z3.AtMost(*group, 1), z3.Or(group))
    else:
        cells = [z3.Int(f"x{cell}") for cell in area]
        literals = [
            [z3.BoolVal(False)] + [z3.Bool(f"le{cell}_{value}") for value in range(1, size)]
            for cell in area
        ]
        for cell, number in enumerate(cells):
            solver.add(number >= 1, number <= size)
            solver.add(*(literals[cell][v] == (number <= v) for v in range(1, size)))
        for unit in _units(size, box):
            solver.add(z3.Distinct([cells[cell] for cell in unit]))
    return _Model(size, kind, solver, literals, cells)


class _Puzzle:
    """One puzzle's questions to a kept model: the oracle of backends/lexmin.py."""

    def __init__(self, model: _Model, grid: Grid, deadline: Deadline) -> None:
        self.model = model
        self.deadline = deadline
        self.blanks = grid.blanks()
        self.assumptions: list[Any] = []
        for cell, value in grid.givens().items():
            self.assumptions += model.equal(cell, value)
        self.activation: Any = None
        self.found: Any = None  # the last Z3 model

    def satisfiable(self, cell: int | None = None, below: int = 0) -> bool:
        import z3

        extra = [] if cell is None else self.model.below(cell, below)
        if self.activation is not None:
            extra.append(self.activation)
        remaining = self.deadline.remaining()
        if remaining is not None:
            if remaining <= 0:
                raise TimeUp
            self.model.solver.set("timeout", max(1, int(remaining * 1000)))
        answer = self.model.solver.check(*self.assumptions, *extra)
        if answer == z3.sat:
            self.found = self.model.solver.model()
            return True
        if answer == z3.unsat:
            return False
        self.model.retired = True
        reason = self.model.solver.reason_unknown()
        if remaining is not None and ("timeout" in reason or "canceled" in reason):
            raise TimeUp
        raise BackendFailure(f"Z3 answered unknown: {reason}")

    def value(self, cell: int) -> int:
        return self.model.value_in(self.found, cell)

    def fix(self, cell: int, value: int) -> None:
        self.assumptions += self.model.equal(cell, value)

    def completion(self) -> tuple[int, ...]:
        return tuple(self.value(cell) for cell in range(self.model.size**2))

    def block(self, values: tuple[int, ...]) -> None:
        import z3

        if self.activation is None:
            self.model.activations += 1
            self.activation = z3.Bool(f"act{self.model.activations}")
        differ = [z3.Not(z3.And(self.model.equal(cell, values[cell]))) for cell in self.blanks]
        self.model.solver.add(z3.Or(z3.Not(self.activation), *differ))

    def close(self) -> None:
        """Switch this puzzle's blocking clauses off for good."""
        import z3

        if self.activation is not None:
            self.model.solver.add(z3.Not(self.activation))


class Z3Backend(OracleBackend):
    """Z3 (z3-solver), SMT: a Boolean per (cell, value) with cardinality constraints, or an
    integer per cell with `Distinct`; lex-min by iterative tightening over a kept solver.

    Raises:
        BackendOptionError: for an unknown model.
    """

    name = "z3"
    description = "Z3 SMT solver (z3-solver): lex-min by iterative tightening over assumptions"
    requires = ("z3",)
    packages = ("z3-solver",)
    setup_modules = ("z3",)
    solver_name = "Z3"
    install_hint = "pip install '.[z3]' from a sudoku-cp checkout (or pip install z3-solver)"
    options: ClassVar[tuple[BackendOption, ...]] = (
        BackendOption(
            "model",
            "boolean: a Boolean per cell and value, exactly-one cardinality "
            "constraints; integer: an integer per cell, Distinct per unit (with order literals "
            "for the questions)",
            "boolean",
            choices=MODELS,
            renamed_from=("encoding",),
            old_values=(("bool", "boolean"), ("int", "integer")),
        ),
        process_option("Z3's own timeout is not always kept on a loaded machine"),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.model: str = self.option_values["model"]

    def build(self, size: int, box: Shape) -> _Model:
        return _build(size, box, self.model)

    def oracle(self, model: _Model, grid: Grid, deadline: Deadline) -> _Puzzle:
        return _Puzzle(model, grid, deadline)
