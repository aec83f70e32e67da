"""The SAT oracle behind the checks and the unsatisfiable cores: the `sat` backend's CNF of the
puzzle's shape in one incremental python-sat solver, with the givens (and any other
candidates) passed as assumptions, so each question is one solver call."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..backends.sat.cnf import base_cnf, decode_model, variable
from ..grid import Grid, Shape

SOLVER = "glucose4"
Candidate = tuple[int, int]


class Oracle:
    """Questions about the completions of grids of one shape."""

    def __init__(self, size: int, box: Shape) -> None:
        from pysat.solvers import Solver

        amo = "native" if size >= 25 else "pairwise"
        cnf = base_cnf(size, box, "extended", amo)
        self.size = size
        self.box = box
        self.solver: Any = Solver(name="minicard" if amo == "native" else SOLVER)
        self.solver.append_formula(cnf.clauses)
        for literals, bound in cnf.cardinalities:
            self.solver.add_atmost(list(literals), bound)
        self.top = cnf.variables
        self.calls = 0

    def close(self) -> None:
        self.solver.delete()

    def __enter__(self) -> Oracle:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def literals(self, candidates: Iterable[Candidate]) -> list[int]:
        return [variable(cell, value, self.size) for cell, value in candidates]

    def satisfiable(self, assumptions: Sequence[int]) -> bool:
        self.calls += 1
        return bool(self.solver.solve(assumptions=list(assumptions)))

    def completion(self, assumptions: Sequence[int]) -> Grid | None:
        """A completion with the assumptions, or None when there is none."""
        if not self.satisfiable(assumptions):
            return None
        values = decode_model(self.solver.get_model(), self.size)
        return Grid(tuple(values), self.box)

    def other_completion(self, assumptions: Sequence[int], completion: Grid) -> bool:
        """Whether a completion other than `completion` keeps the assumptions; the clause that
        excludes `completion` is guarded by a fresh literal, so it binds this question only."""
        self.top += 1
        guard = self.top
        self.solver.add_clause(
            [-guard]
            + [-variable(cell, value, self.size) for cell, value in enumerate(completion.values)]
        )
        return self.satisfiable([*assumptions, guard])

    def core(self) -> list[int]:
        """The assumptions the last unsatisfiable answer rests on."""
        core: list[int] | None = self.solver.get_core()
        return list(core or [])


__all__ = ["Oracle"]
