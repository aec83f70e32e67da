"""The naive row-major DFS: the reference that the real solvers are compared with.

Blank cells are filled one by one in row-major order; each takes the values 1..N in ascending
order that no peer holds; the first full grid reached wins, so it is the lex-min completion. There
is no propagation and no clever cell order, which is the point: it shows how long a plain
backtracking search takes, and puzzles built against it (a solution whose first row is N..1) send
it through tens of millions of nodes.

A node is one node of the search tree: the root (the puzzle itself) and one per value placed in
a blank cell (the count the node limit bounds). The search is iterative (a 25x25 grid is 625
levels deep) and keeps one bitmask of used values per row, column and box, so a node costs a
few integer operations.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass

from .grid import Grid, Shape, geometry


@dataclass(frozen=True)
class NaiveResult:
    """The naive search's answer: the lex-min completion (or None) and the nodes spent.

    `finished` is False when the search stopped at the node limit; `nodes` is then a lower bound.
    """

    solution: Grid | None
    nodes: int
    finished: bool


@dataclass(frozen=True, eq=False)
class _Layout:
    """For each cell, the index of its row, column and box."""

    rows: tuple[int, ...]
    columns: tuple[int, ...]
    boxes: tuple[int, ...]


@functools.cache
def _layout(size: int, box: Shape) -> _Layout:
    geo = geometry(size, box)
    cells = geo.cells
    return _Layout(
        tuple(geo.row_of(c) for c in cells),
        tuple(geo.column_of(c) for c in cells),
        tuple(geo.box_of(c) for c in cells),
    )


def naive_solve(grid: Grid, *, node_limit: int | None = None) -> NaiveResult:
    """The lex-min completion by naive row-major backtracking, counting the values placed.

    With `node_limit`, the search stops after that many nodes with `finished=False` and no
    solution (unless the solution was reached exactly at the limit). A grid with repeated givens
    has no completion and costs no node.
    """
    search = NaiveSearch(grid, node_limit)
    first = next(search.completions(), None)
    return NaiveResult(first, search.nodes, first is not None or search.finished)


def naive_count(grid: Grid, limit: int) -> int:
    """The number of completions, counted by the same search run on, up to `limit`."""
    if limit < 1:
        raise ValueError(f"limit must be >= 1, got {limit}")
    found = 0
    for _ in NaiveSearch(grid, None).completions():
        found += 1
        if found >= limit:
            break
    return found


class NaiveSearch:
    """The naive search over one puzzle; `completions()` yields them in lexicographic order."""

    def __init__(self, grid: Grid, node_limit: int | None) -> None:
        if node_limit is not None and node_limit < 1:
            raise ValueError(f"node limit must be >= 1, got {node_limit}")
        self.grid = grid
        self.node_limit = node_limit
        self.nodes = 0
        self.finished = True  # False once the node limit stopped the search

    def completions(self) -> Iterator[Grid]:
        """The completions in lexicographic order (none for repeated givens), counting nodes."""
        grid = self.grid
        if grid.conflicts():
            return
        blanks = grid.blanks()
        self.nodes = 1  # the root
        if not blanks:
            yield grid
            return
        if self.node_limit == 1:
            self.finished = False  # the root alone
            return
        yield from self.fill(blanks)

    def fill(self, blanks: list[int]) -> Iterator[Grid]:
        """The backtracking over the blank cells, in row-major order, values ascending."""
        grid = self.grid
        size = grid.size
        layout = _layout(size, grid.box)
        cell_row, cell_column, cell_box = layout.rows, layout.columns, layout.boxes
        full = (1 << size) - 1
        # Used values per unit, as bitmasks (bit v-1 for value v).
        row_used, column_used, box_used = [0] * size, [0] * size, [0] * size
        for cell, value in grid.givens().items():
            bit = 1 << (value - 1)
            row_used[cell_row[cell]] |= bit
            column_used[cell_column[cell]] |= bit
            box_used[cell_box[cell]] |= bit
        depth_count = len(blanks)
        untried = [0] * depth_count  # values still to try at each depth
        placed = [0] * depth_count  # the value (as a bit) currently placed at each depth
        limit = self.node_limit if self.node_limit is not None else -1

        def free_values(cell: int) -> int:
            return full & ~(
                row_used[cell_row[cell]] | column_used[cell_column[cell]] | box_used[cell_box[cell]]
            )

        depth = 0
        untried[0] = free_values(blanks[0])
        while True:
            cell = blanks[depth]
            r, c, b = cell_row[cell], cell_column[cell], cell_box[cell]
            bit = placed[depth]
            if bit:  # back at this depth: take the previous value out before the next one
                row_used[r] ^= bit
                column_used[c] ^= bit
                box_used[b] ^= bit
                placed[depth] = 0
            mask = untried[depth]
            if not mask:
                depth -= 1
                if depth < 0:
                    return
                continue
            bit = mask & -mask  # the smallest untried value
            untried[depth] = mask ^ bit
            placed[depth] = bit
            row_used[r] |= bit
            column_used[c] |= bit
            box_used[b] |= bit
            self.nodes += 1
            if depth + 1 == depth_count:
                yield _filled(grid, blanks, placed)
                continue  # on to the next value at this depth
            if self.nodes == limit:
                self.finished = False
                return
            depth += 1
            untried[depth] = free_values(blanks[depth])


def _filled(grid: Grid, blanks: list[int], placed: list[int]) -> Grid:
    """The puzzle with each blank set to the value placed at its depth."""
    values = list(grid.values)
    for cell, bit in zip(blanks, placed, strict=True):
        values[cell] = bit.bit_length()
    return Grid(tuple(values), grid.box)
