"""Lex-min by a row-major search over a SAT solver's unit propagation (`lexmin=propagation`).

`lexmin_by_propagation` walks the blank cells row-major, values ascending, and lets the kept
solver's `propagate()` refute values; its docstring has the argument why the first full grid is
the lex-min. The solver also holds the implied row counts (`cnf.row_count_cnf`). The search
consumes its solver (older cells become unit clauses), so the backend builds another for the
next puzzle; when the search gives up (`PropagationFailed`) the backend solves the puzzle again
by iterative tightening. `Walk` counts what the search did, `walk_stats` reports it.

`lexmin=auto` searches by propagation from `PROPAGATION_FROM_SIZE` on, for puzzles with at most
`PROPAGATION_MAX_GIVENS` of the cells given: the search learns only at its dead ends and cannot
undo a unit clause, so it suits sparse grids, where the row-major fill rarely meets one.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import BackendFailure
from ...grid import BLANK, Grid
from ...result import Status
from ..base import Outcome
from .cnf import variable
from .kept import PuzzleCalls

PROPAGATION_FROM_SIZE = 25
PROPAGATION_MAX_GIVENS = (1, 3)  # a fraction of the cells: numerator, denominator

# The search keeps the last WINDOW_ROWS * N cells as assumptions and makes older ones unit
# clauses: propagate() re-propagates every assumption and returns the whole trail on every call,
# and a unit clause cannot be taken back, so a dead end that reaches below the window gives up.
WINDOW_ROWS = 3


class PropagationFailed(Exception):
    """The row-major search by propagation gave up; the puzzle goes to iterative tightening."""


@dataclass
class Walk:
    """What the search by propagation did, for the stats."""

    cells_by_peers: int = 0  # cells whose smaller values all sit in fixed peers
    refuted: int = 0  # values refuted by a conflict of unit propagation
    backjumps: int = 0  # dead ends, each undone by one solver call and its core
    committed: int = 0  # cells turned into unit clauses
    calls: PuzzleCalls | None = None  # the calls it ran in (its solver calls and propagations)


def lexmin_by_propagation(calls: PuzzleCalls, grid: Grid, walk: Walk) -> Outcome:
    """The row-major smallest completion by a depth-first search over the solver's unit
    propagation: the blank cells row-major, values ascending; a value whose propagation
    conflicts (under the givens and the cells before it) is refuted, the first that does not
    is taken and the search moves on.

    Why the first full grid is the lex-min: propagation is sound, so every value passed over at
    a cell has no completion under the cells before it, and the search meets grids in
    lexicographic order. A dead end (no value of the next cell survives) is undone by one SAT
    call on the assumed cells, which is UNSAT; its core names the latest cell it rests on, whose
    value is refuted, and the search resumes there, every later cell blank again.

    The last `WINDOW_ROWS` * N cells are assumptions; older ones and the givens become unit
    clauses, so the solver is consumed. A unit clause cannot be taken back, so a dead end whose
    core holds no assumed cell (an older cell is wrong), or more than N^2/2 dead ends, gives
    the search up.

    Raises:
        PropagationFailed: when a dead end reaches below the window or the backjump budget
            runs out; the solver is then unusable (its unit clauses may be wrong).
        TimeUp: when the time budget runs out.
    """
    walk.calls = calls
    size = grid.size
    values = list(grid.values)
    for cell, value in grid.givens().items():
        calls.add_clause([variable(cell, value, size)])
    blanks = grid.blanks()
    position_of = {cell: position for position, cell in enumerate(blanks)}
    refuted: list[set[int]] = [set() for _ in blanks]
    window: list[int] = []  # the literals of the cells still assumed, oldest first
    window_cells = WINDOW_ROWS * size
    budget = size * size // 2
    position = 0
    while position < len(blanks):
        cell = blanks[position]
        chosen = _first_consistent(calls, grid, values, cell, refuted[position], window, walk)
        if chosen is None:
            walk.backjumps += 1
            if walk.backjumps > budget:
                raise PropagationFailed(f"over {budget} backjumps")
            refuted[position].clear()
            latest = culprit(calls, window, size)
            if latest is None:
                if walk.committed == 0:  # the dead end rests on the givens alone
                    return Outcome.unsatisfiable("no completion keeps the givens")
                raise PropagationFailed("a dead end below the window")
            position = undo(window, latest, values, refuted, position_of, size)
            continue
        values[cell] = chosen
        window.append(variable(cell, chosen, size))
        position += 1
        if len(window) > window_cells:
            calls.add_clause([window.pop(0)])
            walk.committed += 1
    return Outcome(Status.SOLVED, values=tuple(values))


def _first_consistent(
    calls: PuzzleCalls,
    grid: Grid,
    values: list[int],
    cell: int,
    tried: set[int],
    window: list[int],
    walk: Walk,
) -> int | None:
    """The cell's smallest value that its fixed peers leave, not refuted before and whose
    propagation meets no conflict (each conflict refutes one more: added to `tried`); None at
    a dead end."""
    size = grid.size
    held = set(grid.geometry.peer_getters[cell](values))
    base = variable(cell, 0, size)
    for value in range(1, size + 1):
        if value in held or value in tried:
            continue
        # The cell's literal first: one false at level 0 fails before the window is
        # propagated again.
        if calls.consistent([base + value, *window]):
            if held.issuperset(range(1, value)):
                walk.cells_by_peers += 1
            return value
        tried.add(value)
        walk.refuted += 1
    return None


def culprit(calls: PuzzleCalls, window: list[int], size: int) -> int | None:
    """At a dead end (every value of the next cell fails under the window): the index of the
    latest window literal in the core of one solver call on the window alone, which is UNSAT;
    None when that core holds no window literal (the dead end rests on the unit clauses).

    Raises:
        BackendFailure: when the solver finds a model that propagation had refuted.
    """
    if not window:
        return None
    if calls.satisfiable(window):
        raise BackendFailure("the SAT solver found a model that unit propagation refuted")
    in_core = set(calls.core())
    return max((index for index, literal in enumerate(window) if literal in in_core), default=None)


def undo(
    window: list[int],
    latest: int,
    values: list[int],
    refuted: list[set[int]],
    position_of: dict[int, int],
    size: int,
) -> int:
    """Backjump to window[latest]: its value is refuted (the core shows that it fails with the
    window before it), every later cell is blank again and loses its refutations (they held
    under a prefix that is gone). Returns the position to resume at."""
    for literal in window[latest + 1 :]:
        cell = (literal - 1) // size
        values[cell] = BLANK
        refuted[position_of[cell]].clear()
    cell = (window[latest] - 1) // size
    del window[latest:]
    refuted[position_of[cell]].add(values[cell])
    values[cell] = BLANK
    return position_of[cell]


def walk_stats(walk: Walk, *, prefix: str = "") -> dict[str, int]:
    """The search by propagation's counters (prefixed when a fallback's stats sit beside)."""
    stats = {
        "propagate_calls": 0 if walk.calls is None else walk.calls.propagations,
        "refuted_by_propagation": walk.refuted,
        "cells_by_peers": walk.cells_by_peers,
        "backjumps": walk.backjumps,
    }
    if prefix and walk.calls is not None:
        stats["sat_calls"] = walk.calls.sat_calls
    return {prefix + name: value for name, value in stats.items()}
