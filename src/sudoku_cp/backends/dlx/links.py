"""The dancing links of `dlx`: Sudoku as exact cover, and Knuth's Algorithm X over it.

A row per (cell, value) candidate covers four columns (the cell is filled; the value is in its
row, in its column, in its box), 4 N^2 columns in all. A completion is a set of rows covering
every column exactly once; the givens are rows selected before the search.

The links are arrays of ints, not node objects: node 0 is the root, nodes 1 .. 4 N^2 the column
headers (cell columns first, in row-major cell order, then row-value, column-value and box-value
columns), then four nodes per candidate row, laid out consecutively. Only the vertical links
(`up`, `down`), the column sizes and the header list change while searching; the rows'
horizontal links never do, so each node's three row-mates are a shared, static tuple.

    structure = structure_of(size, box)       # once per shape, every candidate row in place
    links = Links(structure, deadline)          # one puzzle: copies of the mutable arrays
    links.select(node); links.fixed.append(node)  # a given
    rows = links.first(rowmajor=True)           # the lex-min (see `Links.choose_rowmajor`)

The search chooses its column in one of two ways: `choose_mrv`, the column with the fewest rows
(Knuth's S heuristic), for any, count and the tightening loop's oracle; or `choose_rowmajor`,
whose first completion is the lex-min.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator
from dataclasses import dataclass

from ...grid import Shape
from ..base import Deadline, TimeUp

CHECK_CLOCK_EVERY = 256  # search nodes between deadline checks


class OverBudget(Exception):
    """Raised inside the search when it has used its node budget."""


@dataclass(frozen=True, eq=False)
class Structure:
    """The exact-cover matrix of one shape, with every candidate row present.

    The mutable parts (`up`, `down`, `size`, `left`, `right`) are templates that each puzzle
    copies; `column`, `mates` and the numbering are shared and never change.
    """

    size: int
    columns: int  # 4 N^2; node 0 is the root, nodes 1..columns the headers
    base: int  # the first row node: row r's nodes are base + 4r .. base + 4r + 3
    left: list[int]  # header list (nodes 0..columns)
    right: list[int]
    up: list[int]  # vertical links of every node (headers included)
    down: list[int]
    count: list[int]  # rows in each column (index 0 unused)
    column: list[int]  # each node's column header
    mates: list[tuple[int, ...]]  # each row node's three row-mates, in column order after it


@functools.cache
def structure_of(size: int, box: Shape) -> Structure:
    """The full matrix for `size` and `box`: row r = cell * N + (value - 1), covering the cell's
    column and its row-value, column-value and box-value columns, in that order."""
    box_rows, box_cols = box
    area = size * size
    columns = 4 * area
    base = columns + 1
    nodes = base + 4 * area * size
    left = [index - 1 for index in range(columns + 1)]
    right = [index + 1 for index in range(columns + 1)]
    left[0], right[columns] = columns, 0
    up = list(range(nodes))
    down = list(range(nodes))
    count = [0] * (columns + 1)
    column = list(range(nodes))
    mates: list[tuple[int, ...]] = [()] * nodes
    for cell in range(area):
        r, c = divmod(cell, size)
        b = (r // box_rows) * (size // box_cols) + c // box_cols
        for value in range(size):
            first = base + 4 * (cell * size + value)
            row_columns = (
                1 + cell,
                1 + area + r * size + value,
                1 + 2 * area + c * size + value,
                1 + 3 * area + b * size + value,
            )
            for offset, header in enumerate(row_columns):
                node = first + offset
                column[node] = header
                last = up[header]  # append at the bottom: rows stay in increasing order
                up[node], down[node] = last, header
                down[last] = up[header] = node
                count[header] += 1
                mates[node] = tuple(first + (offset + step) % 4 for step in (1, 2, 3))
    return Structure(size, columns, base, left, right, up, down, count, column, mates)


class Links:
    """One puzzle's dancing links: the copied arrays, the selected rows, the counters."""

    def __init__(self, structure: Structure, deadline: Deadline) -> None:
        self.structure = structure
        self.left = structure.left[:]
        self.right = structure.right[:]
        self.up = structure.up[:]
        self.down = structure.down[:]
        self.count = structure.count[:]
        self.column = structure.column
        self.mates = structure.mates
        self.deadline = deadline
        self.fixed: list[int] = []  # rows selected for good (givens, a lex-min prefix)
        self.nodes = 0
        self.updates = 0
        self.backtracks = 0
        self.oracle_calls = 0
        self.clock = CHECK_CLOCK_EVERY
        self._cover, self._uncover = self._dance()

    # -- the dance ------------------------------------------------------------------------------
    # cover and uncover are closures over the arrays (bound as default arguments, so they are
    # fast locals): the search calls them millions of times, and attribute lookups on `self`
    # would be a large part of their cost.

    def _dance(self) -> tuple[Callable[[int], int], Callable[[int], None]]:
        def cover(
            header: int,
            left: list[int] = self.left,
            right: list[int] = self.right,
            up: list[int] = self.up,
            down: list[int] = self.down,
            count: list[int] = self.count,
            column: list[int] = self.column,
            mates: list[tuple[int, ...]] = self.mates,
        ) -> int:
            """Take a column out of the header list and each of its rows out of the other
            columns; returns the number of links updated."""
            right[left[header]] = right[header]
            left[right[header]] = left[header]
            node = down[header]
            while node != header:
                for mate in mates[node]:
                    above = up[mate]
                    below = down[mate]
                    down[above] = below
                    up[below] = above
                    count[column[mate]] -= 1
                node = down[node]
            return 1 + 3 * count[header]

        def uncover(
            header: int,
            left: list[int] = self.left,
            right: list[int] = self.right,
            up: list[int] = self.up,
            down: list[int] = self.down,
            count: list[int] = self.count,
            column: list[int] = self.column,
            mates: list[tuple[int, ...]] = self.mates,
        ) -> None:
            """Undo `cover(header)`: rows back bottom-up, each row's mates in reverse order."""
            node = up[header]
            while node != header:
                for mate in reversed(mates[node]):
                    count[column[mate]] += 1
                    up[down[mate]] = mate
                    down[up[mate]] = mate
                node = up[node]
            right[left[header]] = header
            left[right[header]] = header

        return cover, uncover

    def cover(self, header: int) -> None:
        self.updates += self._cover(header)

    def uncover(self, header: int) -> None:
        self._uncover(header)

    def select(self, node: int) -> None:
        """Put the row of `node` in the cover: cover its column, then its mates' columns."""
        self.cover(self.column[node])
        for mate in self.mates[node]:
            self.cover(self.column[mate])

    def unselect(self, node: int) -> None:
        """Undo `select(node)`."""
        for mate in reversed(self.mates[node]):
            self.uncover(self.column[mate])
        self.uncover(self.column[node])

    def remove(self, node: int) -> None:
        """Take the row of `node` out of its four columns (`restore` puts it back)."""
        up, down, count, column = self.up, self.down, self.count, self.column
        for member in (node, *self.mates[node]):
            above, below = up[member], down[member]
            down[above] = below
            up[below] = above
            count[column[member]] -= 1
        self.updates += 4

    # -- choosing a column ----------------------------------------------------------------------

    def choose_mrv(self) -> int:
        """The column with the fewest rows (0 when every column is covered: a completion)."""
        right, count = self.right, self.count
        header = right[0]
        best, fewest = header, 1 << 30
        while header:
            rows = count[header]
            if rows < fewest:
                best, fewest = header, rows
                if rows <= 1:
                    break
            header = right[header]
        return best

    def choose_rowmajor(self) -> int:
        """A column with no row or one row if there is one, else the first open cell column.

        **Why the first completion of the search that chooses so is the lex-min.** A column with
        no row fails at once, and a column with one row is taken: its row is in every completion
        of the current partial cover, so taking it changes no set of completions. Every branching
        node splits on the first open cell in row-major order, its rows top-down, which is values
        ascending, and every cell before it is already filled; so the completions under the
        branch of value v all precede, in row-major order, those under any v' > v, and a
        depth-first search meets the completions in lexicographic order. Failed columns only cut
        subtrees without completions, and forced rows are in every completion below their node,
        so neither skips or reorders one.
        """
        right, count = self.right, self.count
        header = right[0]
        while header:
            if count[header] <= 1:
                return header
            header = right[header]
        return right[0]

    # -- the search -----------------------------------------------------------------------------

    def solutions(
        self, rowmajor: bool, budget: int | None = None
    ) -> Generator[list[int], None, None]:
        """Depth-first Algorithm X from the current state: yields each completion's rows (the
        fixed ones first), leaving the structure as it found it once exhausted or closed.
        Past `budget` nodes (checked with the clock) it raises OverBudget."""
        choose = self.choose_rowmajor if rowmajor else self.choose_mrv
        cover, uncover = self._cover, self._uncover
        down, column, mates = self.down, self.column, self.mates
        stack: list[tuple[int, int]] = []  # (column, row node chosen in it)
        nodes = backtracks = updates = 0
        clock = self.clock
        try:
            while True:
                nodes += 1
                clock -= 1
                if not clock:
                    clock = CHECK_CLOCK_EVERY
                    if self.deadline.expired():
                        raise TimeUp
                    if budget is not None and nodes > budget:
                        raise OverBudget
                header = choose()
                if not header:
                    yield self.fixed + [node for _, node in stack]
                elif down[header] != header:
                    updates += cover(header)
                    node = down[header]
                    for mate in mates[node]:
                        updates += cover(column[mate])
                    stack.append((header, node))
                    continue
                # a dead end or a completion: move to the next row of the deepest open column
                while stack:
                    header, node = stack.pop()
                    for mate in reversed(mates[node]):
                        uncover(column[mate])
                    backtracks += 1
                    node = down[node]
                    if node != header:
                        for mate in mates[node]:
                            updates += cover(column[mate])
                        stack.append((header, node))
                        break
                    uncover(header)
                else:
                    return
        except TimeUp:
            stack.clear()  # the puzzle is over: no need to restore (a 64x64's restore is slow)
            raise
        finally:  # closed early (a found completion, the budget): restore the structure
            self.nodes += nodes
            self.backtracks += backtracks
            self.updates += updates
            self.clock = clock
            while stack:
                header, node = stack.pop()
                self.unselect(node)

    def first(self, rowmajor: bool, budget: int | None = None) -> list[int] | None:
        """The first completion the search meets, with the structure left unchanged."""
        found = self.solutions(rowmajor, budget)
        try:
            return next(found, None)
        finally:
            found.close()

    def restore(self, node: int) -> None:
        """Undo `remove(node)` (rows put back in the reverse order they were removed)."""
        up, down, count, column = self.up, self.down, self.count, self.column
        for member in reversed((node, *self.mates[node])):
            count[column[member]] += 1
            down[up[member]] = member
            up[down[member]] = member

    def row_cell(self, node: int) -> int:
        """The cell of a row node."""
        return (node - self.structure.base) // 4 // self.structure.size

    def values(self, rows: list[int]) -> tuple[int, ...]:
        """The grid a set of rows (one per cell) fills in."""
        size, base = self.structure.size, self.structure.base
        values = [0] * size * size
        for node in rows:
            cell, value = divmod((node - base) // 4, size)
            values[cell] = value + 1
        return tuple(values)
