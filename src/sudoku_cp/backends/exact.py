"""The `exact` backend: the Exact pseudo-Boolean solver (pip `exact`), lex-min by iterative
tightening.

The model is 0-1 linear: a Boolean x(cell, value) per candidate and, as linear constraints over
them (option `encoding`, the names of the `sat` backend's CNF encodings):

    extended  sum_v x(cell, v) = 1 for every cell, sum_{cell in unit} x(cell, v) = 1 for every
              unit and value: 4 N^2 cardinality constraints;
    minimal   sum_v x(cell, v) >= 1 and sum_{cell in unit} x(cell, v) <= 1.

Exact reasons with these constraints natively (cutting-planes conflict analysis over PB
constraints rather than resolution over clauses).

One solver per (shape, encoding) is kept across puzzles, built in `prepare()` (outside the
clock). The givens and the fixed prefix are Exact assumptions; count mode's blocking
constraints are each guarded by a fresh activation variable of the puzzle, fixed to 0 for good
when the puzzle is done.

Lex-min: `lexmin_by_tightening` (backends/lexmin.py): "x(i) < s" is the assumptions
x(i, v) = 0 for v >= s. Count: `count_by_blocking`, blocking with "sum_{blank i} x(i, s_i) <=
K - 1" (K blanks). Any: one call. Time limits: Exact's own timeout (`runOnce(timeout)`,
"rough" in its documentation), the time left before each call; a call that answers TIMEOUT is
a timeout, never a "no", and its solver is retired. Stats: Exact's counters for the puzzle, and
the oracle calls.

By default (`process=helper`) all of this runs in a child process, killed when it overruns the
deadline (docs/backends.md says why). Exact is AGPL-3.0 licensed: an optional extra
(`pip install '.[exact]'`), never a dependency.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import BackendFailure
from ..grid import Grid, Shape, geometry
from .base import BackendOption, Deadline, TimeUp
from .lexmin import OracleBackend
from .solver_process import process_option

ENCODINGS = ("extended", "minimal")
_COUNTERS = ("conflicts", "decisions", "propagations", "restarts")


def _name(cell: int, value: int) -> str:
    return f"x{cell}_{value}"


@functools.cache
def _names(size: int) -> tuple[tuple[str, ...], ...]:
    """The variables' names, [cell][value] (value 0 unused)."""
    return tuple(
        ("",) + tuple(_name(cell, value) for value in range(1, size + 1))
        for cell in range(size * size)
    )


@dataclass(eq=False)
class _Model:
    """A kept Exact solver holding one shape's base model."""

    size: int
    solver: Any
    names: tuple[tuple[str, ...], ...]
    everything: list[str]  # every x(cell, value), cell by cell: what a completion is read from
    activations: int = 0
    retired: bool = False

    def statistics(self) -> dict[str, int]:
        stats = dict(self.solver.getStats())
        return {name: int(stats.get(name, 0)) for name in _COUNTERS}


def _build(size: int, box: Shape, encoding: str) -> _Model:
    """A new Exact solver with the base model of the shape (no givens)."""
    import exact

    solver = exact.Exact([("verbosity", "0")])
    names = _names(size)
    for row in names:
        for name in row[1:]:
            solver.addVariable(name, 0, 1)
    extended = encoding == "extended"
    for row in names:
        solver.addConstraint([(1, name) for name in row[1:]], True, 1, extended, 1)
    for unit in geometry(size, box).units:
        for value in range(1, size + 1):
            terms = [(1, names[cell][value]) for cell in unit]
            solver.addConstraint(terms, extended, 1, True, 1)
    everything = [name for row in names for name in row[1:]]
    return _Model(size, solver, names, everything)


class _Puzzle:
    """One puzzle's questions to a kept model: the oracle of backends/lexmin.py."""

    def __init__(self, model: _Model, grid: Grid, deadline: Deadline) -> None:
        self.model = model
        self.deadline = deadline
        self.blanks = grid.blanks()
        names = model.names
        self.assumptions: list[tuple[str, int]] = [
            (names[cell][value], 1) for cell, value in grid.givens().items()
        ]
        self.activation: str | None = None
        self.solution: list[int] = []  # the last completion's 0-1 values, cell by cell

    def satisfiable(self, cell: int | None = None, below: int = 0) -> bool:
        solver, names = self.model.solver, self.model.names
        extra: list[tuple[str, int]] = []
        if cell is not None:
            extra = [(names[cell][value], 0) for value in range(below, self.model.size + 1)]
        if self.activation is not None:
            extra.append((self.activation, 1))
        solver.clearAssumptions()
        solver.setAssumptions(self.assumptions + extra)
        while True:
            remaining = self.deadline.remaining()
            if remaining is not None and remaining <= 0:
                self.model.retired = True
                raise TimeUp
            # Exact reads 0 as no limit: a limit of nearly nothing is a millisecond.
            answer = solver.runOnce(0 if remaining is None else max(remaining, 0.001))
            if answer != "PAUSED":  # an inprocessing pause: carry on
                break
        if answer == "SAT":
            self.solution = [int(bit) for bit in solver.getLastSolutionFor(self.model.everything)]
            return True
        if answer in ("INCONSISTENT", "UNSAT"):
            if answer == "UNSAT":  # no solution whatever the assumptions: the solver is done
                self.model.retired = True
            return False
        self.model.retired = True
        if answer == "TIMEOUT":
            raise TimeUp
        raise BackendFailure(f"Exact answered {answer!r}")

    def value(self, cell: int) -> int:
        size = self.model.size
        start = cell * size
        bits = self.solution[start : start + size]
        if bits.count(1) != 1:
            raise BackendFailure(f"the Exact solution gives cell {cell} {bits.count(1)} values")
        return bits.index(1) + 1

    def fix(self, cell: int, value: int) -> None:
        self.assumptions.append((self.model.names[cell][value], 1))

    def completion(self) -> tuple[int, ...]:
        return tuple(self.value(cell) for cell in range(self.model.size**2))

    def block(self, values: tuple[int, ...]) -> None:
        """sum_{blank i} x(i, values[i]) <= K - 1 while this puzzle's activation is 1."""
        model = self.model
        if self.activation is None:
            model.activations += 1
            self.activation = f"act{model.activations}"
            model.solver.addVariable(self.activation, 0, 1)
        held = len(self.blanks)
        terms = [(1, model.names[cell][values[cell]]) for cell in self.blanks]
        model.solver.addConstraint([*terms, (held, self.activation)], False, 0, True, 2 * held - 1)

    def close(self) -> None:
        """Switch this puzzle's blocking constraints off for good."""
        if self.activation is not None and not self.model.retired:
            self.model.solver.clearAssumptions()
            self.model.solver.fix(self.activation, 0)


class ExactBackend(OracleBackend):
    """Exact (pip `exact`), pseudo-Boolean: a Boolean per (cell, value), exactly-one linear
    constraints per cell and per unit and value; lex-min by iterative tightening over a kept
    solver with assumptions.

    Raises:
        BackendOptionError: for an unknown encoding.
    """

    name = "exact"
    description = (
        "Exact pseudo-Boolean solver: 0-1 cardinality constraints, lex-min by "
        "iterative tightening over assumptions"
    )
    requires = ("exact",)
    packages = ("exact",)
    setup_modules = ("exact",)
    solver_name = "Exact"
    install_hint = (
        "pip install '.[exact]' from a sudoku-cp checkout "
        "(or pip install exact; Linux x86_64 wheels)"
    )
    options: ClassVar[tuple[BackendOption, ...]] = (
        BackendOption(
            "encoding",
            "extended: exactly one value per cell and each value exactly once "
            "per unit; minimal: at least one per cell, at most once per unit",
            "extended",
            choices=ENCODINGS,
        ),
        process_option("Exact's own limit is rough, and it takes over SIGINT and SIGTERM"),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.encoding: str = self.option_values["encoding"]

    def build(self, size: int, box: Shape) -> _Model:
        return _build(size, box, self.encoding)

    def oracle(self, model: _Model, grid: Grid, deadline: Deadline) -> _Puzzle:
        return _Puzzle(model, grid, deadline)
