"""The `dfs` backend: pure-Python depth-first search on candidate bitmasks.

Every cell holds a bitmask of its remaining candidates (bit v-1 for value v). Propagation applies
naked singles (a decided cell removes its value from its peers) and hidden singles (a value with one
place left in a unit goes there) until nothing changes; both only remove values that occur in no
completion, so they never change which completions exist.

- any / count: search on the cell with the fewest candidates (MRV), values ascending.
- lexmin: greedy row-major choice with an exact feasibility oracle. The lex-min completion is the
  one that, cell by cell in row-major order, takes the smallest value whose prefix can still be
  completed. We keep a *witness* (some completion of the current prefix, found by the MRV search):
  values at or above the witness's value need no check (the witness itself proves the witness
  value feasible), and each smaller candidate is tried with the MRV search as the oracle. A value
  the oracle refutes is removed for good and propagation runs again. The choice follows row-major
  order and ascending values only; the oracle may search in any order, which is what keeps the
  naive DFS's exponential blow-ups (69 M nodes on some 9x9 grids) away. A puzzle proved to have
  exactly one completion returns it at once.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass

from ..grid import BLANK, Grid, Shape, geometry
from ..result import Mode, Status
from .base import Backend, Deadline, Outcome

Candidates = list[int]  # one bitmask per cell; a single bit means the cell is decided

CHECK_CLOCK_EVERY = 64  # nodes between deadline checks: cheap, yet well under 10 ms apart
ORACLE_BUDGET_PER_CELL = 1  # oracle nodes per cell of the grid before the row-major search goes on


class _OutOfTime(Exception):
    """Raised inside the search when the deadline passes."""


@dataclass(frozen=True, eq=False)
class _Tables:
    """Geometry flattened into tuples of ints for the inner loops."""

    size: int
    full: int
    peers: tuple[tuple[int, ...], ...]
    units: tuple[tuple[int, ...], ...]
    units_of: tuple[tuple[tuple[int, ...], ...], ...]
    unit_ids_of: tuple[tuple[int, ...], ...]  # indices into `units` of each cell's three units


@functools.cache
def _tables(size: int, box: Shape) -> _Tables:
    geo = geometry(size, box)
    unit_ids_of = tuple(tuple(index for index, unit in enumerate(geo.units) if cell in unit)
                        for cell in geo.cells)
    return _Tables(size, (1 << size) - 1, geo.peers, geo.units, geo.units_of, unit_ids_of)


class _Search:
    """One puzzle's search: propagation, the MRV search and the lex-min greedy loop."""

    def __init__(self, grid: Grid, deadline: Deadline) -> None:
        self.tables = _tables(grid.size, grid.box)
        self.grid = grid
        self.deadline = deadline
        self.nodes = 0
        self.oracle_calls = 0

    # -- propagation ------------------------------------------------------------------------------

    def propagate(self, candidates: Candidates, decided: list[int]) -> bool:
        """Apply naked and hidden singles until fixpoint; False on a contradiction.

        `decided` lists cells that became single-valued and whose value must still be removed
        from their peers. Only the units where a candidate changed are scanned for hidden
        singles: the others cannot have gained one.
        """
        tables = self.tables
        peers, units, unit_ids_of, full = (tables.peers, tables.units, tables.unit_ids_of,
                                           tables.full)
        dirty: set[int] = set()
        while True:
            while decided:
                cell = decided.pop()
                dirty.update(unit_ids_of[cell])
                bit = candidates[cell]
                for peer in peers[cell]:
                    mask = candidates[peer]
                    if mask & bit:
                        mask ^= bit
                        if not mask:
                            return False
                        candidates[peer] = mask
                        dirty.update(unit_ids_of[peer])
                        if not mask & (mask - 1):
                            decided.append(peer)
            for unit_id in dirty:
                unit = units[unit_id]
                once = twice = 0
                for cell in unit:
                    mask = candidates[cell]
                    twice |= once & mask
                    once |= mask
                if once != full:
                    return False  # some value has no place left in this unit
                hidden = once & ~twice
                if hidden:
                    for cell in unit:
                        mask = candidates[cell]
                        only = mask & hidden
                        if only and only != mask:
                            if only & (only - 1):
                                return False  # two values need this one cell
                            candidates[cell] = only
                            decided.append(cell)
            dirty.clear()
            if not decided:
                return True

    def initial_candidates(self) -> Candidates | None:
        """Candidates of the puzzle after propagation, or None when it is contradictory."""
        full = self.tables.full
        candidates = [full if value == BLANK else 1 << (value - 1) for value in self.grid.values]
        decided = [cell for cell, value in enumerate(self.grid.values) if value != BLANK]
        return candidates if self.propagate(candidates, decided) else None

    def assume(self, candidates: Candidates, cell: int, bit: int) -> Candidates | None:
        """A propagated copy with `cell` set to `bit`, or None when that fails."""
        child = candidates[:]
        child[cell] = bit
        return child if self.propagate(child, [cell]) else None

    # -- MRV search ------------------------------------------------------------------------------

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes % CHECK_CLOCK_EVERY == 0 and self.deadline.expired():
            raise _OutOfTime

    @staticmethod
    def most_constrained(candidates: Candidates) -> int:
        """The undecided cell with the fewest candidates (first in row-major order), or -1."""
        best, best_count = -1, 1 << 30
        for cell, mask in enumerate(candidates):
            if mask & (mask - 1):
                count = mask.bit_count()
                if count < best_count:
                    best, best_count = cell, count
                    if count == 2:
                        break
        return best

    def completions(self, candidates: Candidates, *,
                    stop_at: int | None = None) -> Iterator[Candidates]:
        """Every completion below a propagated node, by MRV search with ascending values.

        With `stop_at`, the search ends quietly once `self.nodes` reaches it.
        """
        cell = self.most_constrained(candidates)
        if cell < 0:
            yield candidates
            return
        stack = [(candidates, cell, candidates[cell])]
        while stack:
            if stop_at is not None and self.nodes >= stop_at:
                return
            cell, child = self.next_child(stack)
            if child is None:
                continue
            next_cell = self.most_constrained(child)
            if next_cell < 0:
                yield child
            else:
                stack.append((child, next_cell, child[next_cell]))

    def next_child(self, stack: list[tuple[Candidates, int, int]]) -> tuple[int, Candidates | None]:
        """Take the smallest untried value of the top frame (`node`, `cell`, untried values),
        leave the rest on the stack, and return the cell with the propagated child (or None)."""
        node, cell, untried = stack.pop()
        bit = untried & -untried
        if untried != bit:
            stack.append((node, cell, untried ^ bit))
        self.tick()
        return cell, self.assume(node, cell, bit)

    def first_completion(self, candidates: Candidates) -> Candidates | None:
        """The oracle: some completion below a propagated node, or None when there is none."""
        self.oracle_calls += 1
        return next(self.completions(candidates), None)

    # -- lex-min ---------------------------------------------------------------------------------

    def bounded_completion(self, candidates: Candidates, budget: int) -> Candidates | None | bool:
        """The oracle with a node budget: a completion, None (refuted), or False (undecided)."""
        self.oracle_calls += 1
        stop_at = self.nodes + budget
        for solution in self.completions(candidates, stop_at=stop_at):
            return solution
        return False if self.nodes >= stop_at else None

    def lexmin(self, candidates: Candidates) -> Candidates | None:
        """The row-major smallest completion below a propagated node, or None.

        A depth-first search that branches on the first undecided cell in row-major order with
        ascending values, so the first completion it reaches is the lex-min. What keeps it fast:
        a *witness* completion of the current prefix; a child that agrees with the witness is
        known feasible, and then the lex-min lies below it and every later sibling is dropped.
        Other children are first put to the MRV oracle with a small node budget, which either
        refutes them, finds a new witness, or gives up (then the row-major search goes on).
        """
        self.oracle_calls += 1
        found = self.completions(candidates)
        witness = next(found, None)
        if witness is None or next(found, None) is None:
            return witness  # none, or exactly one completion: it is the lex-min
        budget = ORACLE_BUDGET_PER_CELL * len(candidates)
        units_of = self.tables.units_of
        cell = _first_undecided(candidates, 0)
        stack = [(candidates, cell, candidates[cell])]
        while stack:
            cell, child = self.next_child(stack)
            if child is None or not _hall_holds(child, units_of[cell]):
                continue
            if not _agrees(child, witness):
                verdict = self.bounded_completion(child, budget)
                if verdict is None:
                    continue
                if verdict is not False:
                    witness = verdict
            if _agrees(child, witness):
                stack.clear()  # this child is feasible: the lex-min lies below it
            next_cell = _first_undecided(child, cell + 1)
            if next_cell < 0:
                return child  # the first completion reached in row-major order
            stack.append((child, next_cell, child[next_cell]))
        return None


def _hall_holds(candidates: Candidates, units: tuple[tuple[int, ...], ...]) -> bool:
    """Whether each unit can still give its missing values to distinct open cells.

    A perfect matching between the open cells and their candidates (Hall's condition): it sees
    the pigeonhole dead ends that singles cannot, such as five cells left with four values.
    """
    for unit in units:
        open_masks = [candidates[cell] for cell in unit
                      if candidates[cell] & (candidates[cell] - 1)]
        owner: dict[int, int] = {}  # value bit -> index of the open cell holding it
        for index in range(len(open_masks)):
            if not _augment(index, open_masks, owner, [0]):
                return False
    return True


def _augment(index: int, open_masks: list[int], owner: dict[int, int], seen: list[int]) -> bool:
    """Find a value for open cell `index`, moving earlier cells along an augmenting path."""
    untried = open_masks[index] & ~seen[0]
    while untried:
        bit = untried & -untried
        untried ^= bit
        seen[0] |= bit
        holder = owner.get(bit)
        if holder is None or _augment(holder, open_masks, owner, seen):
            owner[bit] = index
            return True
    return False


def _first_undecided(candidates: Candidates, start: int) -> int:
    """The first cell from `start` on (row-major) with more than one candidate, or -1."""
    for cell in range(start, len(candidates)):
        mask = candidates[cell]
        if mask & (mask - 1):
            return cell
    return -1


def _agrees(candidates: Candidates, witness: Candidates) -> bool:
    """Whether the witness completion is still allowed by these candidates."""
    return all(mask & bit for mask, bit in zip(candidates, witness))


def _values(candidates: Candidates) -> tuple[int, ...]:
    return tuple(mask.bit_length() for mask in candidates)


class DfsBackend(Backend):
    """Hand-written depth-first search: bitmask candidates, naked and hidden singles, MRV."""

    name = "dfs"
    description = "pure-Python search: bitmasks, naked+hidden singles, MRV oracle for lex-min"

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        search = _Search(grid, deadline)
        stats = {"nodes": 0, "oracle_calls": 0}
        count = 0
        values: tuple[int, ...] | None = None
        status = Status.SOLVED
        try:
            candidates = search.initial_candidates()
            if candidates is None:
                status = Status.UNSATISFIABLE
            elif mode is Mode.LEXMIN:
                solution = search.lexmin(candidates)
                values = None if solution is None else _values(solution)
            elif mode is Mode.ANY:
                solution = search.first_completion(candidates)
                values = None if solution is None else _values(solution)
            else:
                for solution in search.completions(candidates):
                    if values is None:
                        values = _values(solution)
                    count += 1
                    if count >= limit:
                        break
            if status is Status.SOLVED and values is None:
                status = Status.UNSATISFIABLE
        except _OutOfTime:
            status, values = Status.TIMEOUT, None
        stats.update(nodes=search.nodes, oracle_calls=search.oracle_calls)
        reason = "propagation and search found no completion" \
            if status is Status.UNSATISFIABLE else None
        if status is Status.TIMEOUT:
            reason = f"no answer within {deadline.time_limit:g} s"
        return Outcome(status, values, count if mode is Mode.COUNT else None, stats, reason)
