"""The `dlx` backend: Knuth's Algorithm X with dancing links, in pure Python.

Sudoku as exact cover: a row per (cell, value) candidate, covering four columns (the cell is
filled; the value is in its row, in its column, in its box), 4 N^2 columns in all. A completion is
a set of rows covering every column exactly once; the givens are rows selected before the search.

The links are arrays of ints, not node objects: node 0 is the root, nodes 1 .. 4 N^2 the column
headers (cell columns first, in row-major cell order, then row-value, column-value and box-value
columns), then four nodes per candidate row, laid out consecutively. Only the vertical links (`up`,
`down`), the column sizes and the header list change while searching; the rows' horizontal links
never do, so each node's three row-mates are a shared, static tuple. The column structure of a
shape is built once (`prepare`), and each puzzle copies its mutable arrays.

Column choice (by the option `lexmin`: `rowmajor` for the lex-min's search, `mrv` for any, count and
the tightening loop's oracle):

- `mrv`: the column with the fewest rows (Knuth's S heuristic); ties go to the header order, so
  to the first cell in row-major order.
- `rowmajor`: a column with no row fails at once and a column with one row is taken (its row is
  in every completion of the current partial cover, so taking it changes no set of completions);
  otherwise the first open cell column in row-major order, its rows (values) in increasing order.

Lex-min, by the method itself:

- `lexmin=rowmajor`: the first completion found is the lex-min. Every branching node splits on the
  first open cell in row-major order, values ascending, and every cell before it is already
  filled; so the completions under the branch of value v all precede those under v' > v in
  row-major order, and a depth-first search meets the completions in lexicographic order. Failed
  columns only cut subtrees without completions, and forced rows (columns of size one) are in
  every completion below the node, so neither skips or reorders one.
- `lexmin=tightening`: a search branching on the smallest column meets completions in no particular
  order (a value of cell 40 is chosen before cell 3 is filled), so its first completion is not
  the lex-min in general. It is used as the oracle of the shared iterative tightening loop
  (backends/lexmin.py, where the argument for the lex-min is) instead: cell by cell in row-major
  order, with the prefix selected, "is there a completion with x(cell) < s?" is one MRV search
  with the cell's rows of values >= s taken out of the matrix (and put back after), so one
  search covers every smaller value at once.

`lexmin=auto` (the default) is the row-major search
within a budget of 50 nodes per cell, then the tightening loop: row-major is the fastest on most
9x9 grids, but a wrong early value costs it a whole subtree where the MRV oracle refutes the value
in a few nodes (the measurements are in docs/backends.md).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, ClassVar

from ..grid import Grid, Shape
from ..result import Mode, Status
from .base import Backend, BackendOption, Deadline, Outcome, TimeUp
from .lexmin import Questions, lexmin_by_tightening

LEXMIN_METHODS = ("auto", "rowmajor", "tightening")
CHECK_CLOCK_EVERY = 256  # search nodes between deadline checks
ROWMAJOR_BUDGET_PER_CELL = 50  # auto lex-min: row-major nodes per cell before the loop


class _OverBudget(Exception):
    """Raised inside the search when it has used its node budget."""


@dataclass(frozen=True, eq=False)
class _Structure:
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
def _structure(size: int, box: Shape) -> _Structure:
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
    return _Structure(size, columns, base, left, right, up, down, count, column, mates)


class _Links:
    """One puzzle's dancing links: the copied arrays, the selected rows, the counters."""

    def __init__(self, structure: _Structure, deadline: Deadline) -> None:
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
    # measured a fifth of their cost.

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
        """A column with no row or one row if there is one, else the first open cell column."""
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
        Past `budget` nodes (checked with the clock) it raises _OverBudget."""
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
                        raise _OverBudget
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
            stack.clear()  # the puzzle is over: no need to restore (a 64x64 took 0.3 s)
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


class _Tightening:
    """The tightening oracle of backends/lexmin.py on the links: "x(cell) < s" takes the
    cell's rows of values >= s out of the matrix for one MRV search (and puts them back); a
    fixed cell is its row selected for good."""

    def __init__(self, links: _Links) -> None:
        self.links = links
        self.found: dict[int, int] = {}  # cell -> row node of the last completion

    def satisfiable(self, cell: int | None = None, below: int = 0) -> bool:
        links = self.links
        removed: list[int] = []
        if cell is not None:
            header = 1 + cell
            node = links.down[header]
            while node != header:
                following = links.down[node]
                if self.value_of_node(node) >= below:
                    links.remove(node)
                    removed.append(node)
                node = following
        links.oracle_calls += 1
        try:
            rows = links.first(rowmajor=False)
        finally:
            for node in reversed(removed):
                links.restore(node)
        if rows is None:
            return False
        self.found = {links.row_cell(row): row for row in rows}
        return True

    def value_of_node(self, node: int) -> int:
        structure = self.links.structure
        return (node - structure.base) // 4 % structure.size + 1

    def value(self, cell: int) -> int:
        return self.value_of_node(self.found[cell])

    def fix(self, cell: int, value: int) -> None:
        node = self.found[cell]
        self.links.select(node)
        self.links.fixed.append(node)


class DlxBackend(Backend):
    """Knuth's Algorithm X with dancing links, in pure Python: exact cover with one row per
    candidate and four columns per row; lex-min by row-major branching (`lexmin=rowmajor`) or by
    the shared iterative tightening loop over an MRV oracle (`lexmin=tightening`).

    Raises:
        BackendOptionError: for an unknown lex-min method.
    """

    name = "dlx"
    description = "pure-Python exact cover: Knuth's Algorithm X with dancing links (arrays of ints)"
    options: ClassVar[tuple[BackendOption, ...]] = (
        BackendOption(
            "lexmin",
            "rowmajor: the first completion of the row-major search (forced columns, "
            "else the first open cell); tightening: the tightening loop over the MRV "
            "search; auto: rowmajor for 50 nodes per cell, then the tightening loop",
            "auto",
            choices=LEXMIN_METHODS,
            renamed_from=("order",),
            old_values=(("mrv", "tightening"),),
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.lexmin_method: str = self.option_values["lexmin"]

    def prepare(self, grid: Grid) -> bool:
        """Build the shape's column structure (once per shape, outside the clock)."""
        cached = _structure.cache_info().currsize
        _structure(grid.size, grid.box)
        return _structure.cache_info().currsize != cached

    def rowmajor(self, mode: Mode) -> bool:
        """Whether this mode's search chooses columns row-major (first): a lex-min that starts
        with the row-major search; any and count search by MRV."""
        return mode is Mode.LEXMIN and self.lexmin_method != "tightening"

    def lexmin(
        self, grid: Grid, links: _Links, rowmajor: bool, stats: dict[str, object]
    ) -> tuple[int, ...] | None:
        """The lex-min: the row-major search (with `auto`, within a node budget, then the
        tightening loop), or the tightening loop over the MRV oracle."""
        if rowmajor:
            try:
                budget = None if self.lexmin_method == "rowmajor" else self.budget(links)
                rows = links.first(rowmajor=True, budget=budget)
                return None if rows is None else links.values(rows)
            except _OverBudget:
                stats["order"] = "rowmajor+prefix"  # the budget ran out: the loop takes over
        return lexmin_by_tightening(grid, _Tightening(links), links.deadline, Questions())

    @staticmethod
    def budget(links: _Links) -> int:
        return ROWMAJOR_BUDGET_PER_CELL * links.structure.size**2

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        structure = _structure(grid.size, grid.box)
        links = _Links(structure, deadline)
        rowmajor = self.rowmajor(mode)
        size, base = grid.size, structure.base
        for cell, value in enumerate(grid.values):
            if value:
                node = base + 4 * (cell * size + value - 1)
                links.select(node)
                links.fixed.append(node)
        count = 0
        values: tuple[int, ...] | None = None
        status = Status.SOLVED
        stats: dict[str, object] = {"order": "rowmajor" if rowmajor else "mrv"}
        try:
            if mode is Mode.LEXMIN:
                values = self.lexmin(grid, links, rowmajor, stats)
            elif mode is Mode.COUNT:
                for rows in links.solutions(rowmajor):
                    if values is None:
                        values = links.values(rows)
                    count += 1
                    if count >= limit:
                        break
            else:
                found = links.first(rowmajor)
                values = None if found is None else links.values(found)
            if values is None:
                status = Status.UNSATISFIABLE
        except TimeUp:
            status, values = Status.TIMEOUT, None
        stats.update(nodes=links.nodes, updates=links.updates, backtracks=links.backtracks)
        if links.oracle_calls:
            stats["oracle_calls"] = links.oracle_calls
        reason = None
        if status is Status.UNSATISFIABLE:
            reason = "the exact cover has no solution"
        elif status is Status.TIMEOUT:
            reason = f"no answer within {deadline.time_limit:g} s"
        return Outcome(status, values, count if mode is Mode.COUNT else None, stats, reason)
