"""Boards for the technique tests: the empty 9x9 with chosen candidates."""

from __future__ import annotations

from sudoku_cp.explain.board import Board
from sudoku_cp.grid import Grid


def empty_board() -> Board:
    return Board.of(Grid.empty(9))


def mask(*values: int) -> int:
    return sum(1 << (value - 1) for value in values)


def cell(row: int, column: int) -> int:
    """The cell at row, column (1-based)."""
    return (row - 1) * 9 + column - 1


def puzzles(path: object, first: int) -> list[Grid]:
    """The first puzzles of a file."""
    from pathlib import Path

    from sudoku_cp.formats import read_puzzles

    _, records = read_puzzles(Path(str(path)).read_text())
    return [record.grid for record in records if record.grid is not None][:first]
