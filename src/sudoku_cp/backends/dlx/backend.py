"""`DlxBackend`: the `dlx` backend's options and modes over the dancing links (links.py).

Lex-min by the option `lexmin`:

- `rowmajor`: the first completion of the row-major search (`Links.choose_rowmajor` says why it
  is the lex-min);
- `tightening`: the shared iterative tightening loop (backends/lexmin.py, where the argument for
  the lex-min is) over an MRV search as the oracle: cell by cell in row-major order, with the
  prefix selected, "is there a completion with x(cell) < s?" is one MRV search with the cell's
  rows of values >= s taken out of the matrix (and put back after);
- `auto` (the default): the row-major search within ROWMAJOR_BUDGET_PER_CELL nodes per cell,
  then the tightening loop from the same state: row-major is the fastest on most grids, but a
  wrong early value costs it a whole subtree, which the MRV oracle refutes in a few nodes.

Any and count search by MRV. The column structure of a shape is built once (`prepare`), outside
the clock; each puzzle copies its mutable arrays.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ...grid import Grid
from ...result import Mode, Status
from ..base import Backend, BackendOption, Deadline, Outcome, TimeUp
from ..lexmin import Questions, lexmin_by_tightening
from .links import Links, OverBudget, structure_of

LEXMIN_METHODS = ("auto", "rowmajor", "tightening")
ROWMAJOR_BUDGET_PER_CELL = 50  # auto lex-min: row-major nodes per cell before the loop


class Tightening:
    """The tightening oracle of backends/lexmin.py on the links: "x(cell) < s" takes the
    cell's rows of values >= s out of the matrix for one MRV search (and puts them back); a
    fixed cell is its row selected for good."""

    def __init__(self, links: Links) -> None:
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
    guarantees_lexmin = True
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
        cached = structure_of.cache_info().currsize
        structure_of(grid.size, grid.box)
        return structure_of.cache_info().currsize != cached

    def rowmajor(self, mode: Mode) -> bool:
        """Whether this mode's search chooses columns row-major (first): a lex-min that starts
        with the row-major search; any and count search by MRV."""
        return mode is Mode.LEXMIN and self.lexmin_method != "tightening"

    def lexmin(
        self, grid: Grid, links: Links, rowmajor: bool, stats: dict[str, object]
    ) -> tuple[int, ...] | None:
        """The lex-min: the row-major search (with `auto`, within a node budget, then the
        tightening loop), or the tightening loop over the MRV oracle."""
        if rowmajor:
            try:
                budget = None if self.lexmin_method == "rowmajor" else self.budget(links)
                rows = links.first(rowmajor=True, budget=budget)
                return None if rows is None else links.values(rows)
            except OverBudget:
                stats["order"] = "rowmajor+prefix"  # the budget ran out: the loop takes over
        return lexmin_by_tightening(grid, Tightening(links), links.deadline, Questions())

    @staticmethod
    def budget(links: Links) -> int:
        return ROWMAJOR_BUDGET_PER_CELL * links.structure.size**2

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        structure = structure_of(grid.size, grid.box)
        links = Links(structure, deadline)
        rowmajor = self.rowmajor(mode)
        size, base = grid.size, structure.base
        for cell, value in enumerate(grid.values):
            if value:
                node = base + 4 * (cell * size + value - 1)
                links.select(node)
                links.fixed.append(node)
        count = 0
        values: tuple[int, ...] | None = None
        stats: dict[str, object] = {"order": "rowmajor" if rowmajor else "mrv"}
        timed_out = False
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
        except TimeUp:
            timed_out = True
        stats.update(nodes=links.nodes, updates=links.updates, backtracks=links.backtracks)
        if links.oracle_calls:
            stats["oracle_calls"] = links.oracle_calls
        counted = count if mode is Mode.COUNT else None
        if timed_out:
            return Outcome.timeout(deadline, count=counted, stats=stats)
        if values is None:
            return Outcome.unsatisfiable(
                "the exact cover has no solution", count=counted, stats=stats
            )
        return Outcome(Status.SOLVED, values, counted, stats)
