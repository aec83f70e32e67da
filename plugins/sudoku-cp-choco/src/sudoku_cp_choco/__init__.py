"""The `choco` backend: the Choco constraint solver, through pychoco, as a sudoku-cp plugin.

The model: an integer variable per cell (a given is a constant) and, for each row, column and
box, the all-different constraint, posted as the option `alldiff` says:

- `ac`: Choco's global `AllDifferent` with arc consistency (Regin's matching algorithm, Zhang's
  improvement): every value left in a cell's domain is part of some assignment of the unit;
- `bc`: the global `AllDifferent` with bound consistency (Hall intervals on the domains' bounds);
- `decomposition`: a `!=` constraint for each pair of peers (each pair posted once), which only
  removes the value of a decided cell from its peers: the "decomposed" model of the literature.

Search, and why the first solution is the lex-min:

- lexmin: Choco's input-order strategy over the cells in row-major order with the smallest value
  first (`set_input_order_lb_search`): each decision takes the first cell not yet instantiated
  and tries x = min(domain), then x != min on backtrack. It is a depth-first search in
  lexicographic order over the row-major cell sequence; propagation only removes values that are
  in no solution of the current node, and Choco applies no presolve that renames variables (the
  pitfall of CP-SAT's fixed search), so the first solution found is the lex-min.
- any and count: the smallest domain first, smallest value (`set_min_dom_lb_search`); count
  calls `solve()` again for each further solution, up to the limit.

Time limits: the puzzle's remaining time, after the model is built, goes to Choco's own time
limit (`limit_time`); a search that stops on it reports `STOPPED`, which is TIMEOUT. Stats are
Choco's counters: nodes, fails, backtracks, and its own solving time.

`prepare()` imports pychoco and solves a 4x4 once (the native library's start-up), outside the
clock, and computes each shape's units and peer pairs once.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_cp.backends import Backend, BackendOption, Deadline, Outcome
from sudoku_cp.errors import BackendFailure
from sudoku_cp.grid import Grid, Shape, geometry
from sudoku_cp.result import Mode, Status

if TYPE_CHECKING:
    from pychoco.model import Model
    from pychoco.solver import Solver

__all__ = ["ALLDIFF", "ChocoBackend"]
__version__ = "0.1.0"

ALLDIFF = ("ac", "bc", "decomposition")
_ALGORITHM = {"ac": "AC", "bc": "BC"}  # pychoco's names for the consistency levels

_started = False  # whether this process has started the native library (prepare)


@functools.cache
def _units(size: int, box: Shape) -> tuple[tuple[int, ...], ...]:
    """The rows, columns and boxes of a shape, as tuples of cells."""
    geo = geometry(size, box)
    return geo.rows + geo.columns + geo.boxes


@functools.cache
def _pairs(size: int, box: Shape) -> tuple[tuple[int, int], ...]:
    """Each pair of peers once (a pair in a row and a box is one pair)."""
    geo = geometry(size, box)
    return tuple(
        (cell, peer) for cell in range(size * size) for peer in geo.peers[cell] if peer > cell
    )


def _native_counts(solver: Solver) -> dict[str, Any]:
    """Choco's counters. pychoco 0.4.0's `Solver.get_node_count` returns the time count (a copy
    and paste slip in its wrapper), so the nodes are read from the native call it should make."""
    from pychoco import backend as native

    handle = solver._handle
    return {
        "nodes": int(native.get_node_count(handle)),
        "fails": int(native.get_fail_count(handle)),
        "backtracks": int(native.get_backtrack_count(handle)),
        "solver_seconds": round(float(native.get_time_count(handle)), 6),
    }


class ChocoBackend(Backend):
    """Choco (pychoco): an integer per cell, an all-different per unit (global with arc or bound
    consistency, or decomposed into pairwise `!=`); lex-min by the row-major input-order search
    with the smallest value first, whose first solution is the lex-min.

    Raises:
        BackendOptionError: for an unknown `alldiff`.
    """

    name = "choco"
    guarantees_lexmin = True
    description = (
        "Choco CP solver (plugin sudoku-cp-choco): AllDifferent per unit, lex-min by "
        "a row-major smallest-value search"
    )
    requires = ("pychoco",)
    packages = ("pychoco", "sudoku-cp-choco")
    setup_modules = ("pychoco",)
    install_hint = "pip install pychoco (the dependency of sudoku-cp-choco)"
    options: ClassVar[tuple[BackendOption, ...]] = (
        BackendOption(
            "alldiff",
            "all-different per unit: global with arc consistency (ac), "
            "with bound consistency (bc), or pairwise != (decomposition)",
            "ac",
            choices=ALLDIFF,
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.alldiff: str = self.option_values["alldiff"]

    def prepare(self, grid: Grid) -> bool:
        """Start the native library once per process and tabulate the shape; True when there
        was something to do."""
        global _started
        done = False
        if not _started:
            model = self.model(Grid.empty(4))[0]
            model.get_solver().solve()
            _started = done = True
        cached = _units.cache_info().currsize
        _units(grid.size, grid.box)
        if self.alldiff == "decomposition":
            _pairs(grid.size, grid.box)
        return done or _units.cache_info().currsize != cached

    def model(self, grid: Grid) -> tuple[Model, list[Any]]:
        """The Choco model of a puzzle and its cell variables, row-major."""
        from pychoco.model import Model

        size = grid.size
        model = Model()
        cells = [
            model.intvar(value, value) if value else model.intvar(1, size) for value in grid.values
        ]
        if self.alldiff == "decomposition":
            for cell, peer in _pairs(size, grid.box):
                model.arithm(cells[cell], "!=", cells[peer]).post()
        else:
            algorithm = _ALGORITHM[self.alldiff]
            for unit in _units(size, grid.box):
                model.all_different([cells[cell] for cell in unit], algorithm).post()
        return model, cells

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        model, cells = self.model(grid)
        solver = model.get_solver()
        if mode is Mode.LEXMIN:
            solver.set_input_order_lb_search(*cells)
        else:
            solver.set_min_dom_lb_search(*cells)
        remaining = deadline.remaining()
        stats: dict[str, Any] = {"alldiff": self.alldiff}
        if remaining is not None:
            if remaining <= 0:
                return Outcome.timeout(deadline, stats=stats)
            solver.limit_time(f"{max(remaining, 0.001):.3f}s")
        wanted = limit if mode is Mode.COUNT else 1
        count = 0
        values: tuple[int, ...] | None = None
        while count < wanted and solver.solve():
            if values is None:
                values = tuple(int(cell.get_value()) for cell in cells)
            count += 1
        stats.update(_native_counts(solver))
        state = str(solver.get_search_state())
        if count < wanted and state != "TERMINATED":
            if state != "STOPPED":
                raise BackendFailure(f"Choco stopped in state {state!r}")
            return Outcome.timeout(deadline, stats=stats)
        if values is None:
            return Outcome.unsatisfiable(
                "Choco proved that no completion exists",
                count=0 if mode is Mode.COUNT else None,
                stats=stats,
            )
        return Outcome(Status.SOLVED, values, count if mode is Mode.COUNT else None, stats)
