"""An example sudoku-cp backend plugin: the naive row-major DFS as a backend.

Blank cells are filled in row-major order, values ascending, with one bitmask of used values per
row, column and box; the first full grid is the lex-min completion. No propagation: fine for 4x4
to 9x9 puzzles with a fair number of givens, hopeless on grids built against it. Its test is one
line: `test_contract = sudoku_cp.testing.contract_tests("naive")`.
"""

from __future__ import annotations

from sudoku_cp.backends import Backend, Deadline, Outcome
from sudoku_cp.grid import Grid
from sudoku_cp.result import Mode, Status

__all__ = ["NaiveBackend"]

CHECK_CLOCK_EVERY = 1024  # nodes between deadline checks


class NaiveBackend(Backend):
    """Row-major backtracking: lexmin and any return the first completion, count counts."""

    name = "naive"
    description = "example plugin: naive row-major DFS (small grids)"

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        size = grid.size
        box_rows, box_columns = grid.box
        full = (1 << size) - 1
        values = list(grid.values)
        rows, columns, boxes = [0] * size, [0] * size, [0] * size

        def units(cell: int) -> tuple[int, int, int]:
            row, column = divmod(cell, size)
            return row, column, (row // box_rows) * (size // box_columns) + column // box_columns

        for cell, value in enumerate(values):
            if value:
                row, column, box = units(cell)
                bit = 1 << (value - 1)
                rows[row] |= bit
                columns[column] |= bit
                boxes[box] |= bit
        blanks = [cell for cell, value in enumerate(values) if not value]
        places = [units(cell) for cell in blanks]
        wanted = limit if mode is Mode.COUNT else 1
        found = 0
        first: tuple[int, ...] | None = None
        nodes = 0
        # An explicit stack: each depth holds the values still to try and the value placed.
        untried = [0] * (len(blanks) + 1)
        placed = [0] * (len(blanks) + 1)
        depth = 0
        if blanks:
            row, column, box = places[0]
            untried[0] = full & ~(rows[row] | columns[column] | boxes[box])
        while depth >= 0:
            if depth == len(blanks):
                found += 1
                if first is None:
                    first = tuple(values)
                if found >= wanted:
                    break
                depth -= 1
                continue
            row, column, box = places[depth]
            if placed[depth]:
                bit = placed[depth]
                rows[row] ^= bit
                columns[column] ^= bit
                boxes[box] ^= bit
                placed[depth] = 0
            if not untried[depth]:
                values[blanks[depth]] = 0
                depth -= 1
                continue
            nodes += 1
            if nodes % CHECK_CLOCK_EVERY == 0 and deadline.expired():
                return Outcome(Status.TIMEOUT, stats={"nodes": nodes})
            bit = untried[depth] & -untried[depth]
            untried[depth] ^= bit
            placed[depth] = bit
            rows[row] |= bit
            columns[column] |= bit
            boxes[box] |= bit
            values[blanks[depth]] = bit.bit_length()
            depth += 1
            if depth < len(blanks):
                row, column, box = places[depth]
                untried[depth] = full & ~(rows[row] | columns[column] | boxes[box])
        stats = {"nodes": nodes}
        if mode is Mode.COUNT:
            return Outcome(
                Status.SOLVED if found else Status.UNSATISFIABLE,
                values=first,
                count=found,
                stats=stats,
            )
        if first is None:
            return Outcome(Status.UNSATISFIABLE, stats=stats)
        return Outcome(Status.SOLVED, values=first, stats=stats)
