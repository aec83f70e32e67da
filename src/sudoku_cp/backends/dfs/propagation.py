"""What `dfs` does at a node: the propagation rules of one puzzle, applied to a fixpoint.

`Propagation(grid, strong=...)` holds the shape's tables and the level. With singles (the
default), a node gets naked and hidden singles (singles.py); at the strong level, also locked
candidates and, from MATCHING_FROM_SIZE on, all-different consistency (strong.py), the cheap
rules first. Every rule only removes values that occur in no completion, so propagation never
changes which completions exist, only how soon a dead end is seen.

    propagation = Propagation(grid)
    start = propagation.initial_candidates()         # None: the givens contradict
    child = propagation.assume(start, cell, bit)     # a propagated copy with cell set, or None
"""

from __future__ import annotations

from ...grid import BLANK, Grid
from .singles import singles
from .strong import MATCHING_FROM_SIZE, UnitMemo, all_different, locked_candidates
from .tables import Candidates, tables_of


class Propagation:
    """One puzzle's propagation rules at a level: singles, or `strong` (the level may change
    between searches: the lex-min's row-major loop stays with singles)."""

    def __init__(self, grid: Grid, *, strong: bool = False) -> None:
        self.grid = grid
        self.tables = tables_of(grid.size, grid.box)
        self.strong = strong
        self.matching = strong and grid.size >= MATCHING_FROM_SIZE  # all-different at strong
        self.unit_memo: UnitMemo = {}  # see strong.all_different

    def propagate(self, candidates: Candidates, decided: list[int], dirty: int = 0) -> bool:
        """Apply the rules in place until fixpoint; False on a contradiction.

        `decided` lists cells that became single-valued and whose value must still be removed
        from their peers; `dirty` the units whose candidates changed otherwise (a bitset).
        """
        tables = self.tables
        if not self.strong:
            return singles(tables, candidates, decided, dirty)
        while True:
            if not singles(tables, candidates, decided, dirty):
                return False
            dirty = locked_candidates(tables, candidates, decided)
            if dirty < 0:
                return False
            if not decided and not dirty and self.matching:
                dirty = all_different(tables, self.unit_memo, candidates, decided)
                if dirty < 0:
                    return False
            if not decided and not dirty:
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
