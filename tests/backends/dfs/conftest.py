"""Helpers for the dfs tests: the generated sets, and one puzzle's search wired from its parts."""

from __future__ import annotations

from dataclasses import dataclass

from sudoku_cp.backends.base import Deadline
from sudoku_cp.backends.dfs.mrv import MrvSearch
from sudoku_cp.backends.dfs.propagation import Propagation
from sudoku_cp.backends.dfs.rowmajor import RowMajorSearch
from sudoku_cp.grid import Grid

from ...conftest import DATA


def generated(name: str) -> list[str]:
    """The puzzles of a generated set in data/generated."""
    return [
        line
        for line in (DATA / "generated" / name).read_text().splitlines()
        if line and not line.startswith("#")
    ]


@dataclass
class Parts:
    """The parts DfsBackend wires for one puzzle."""

    propagation: Propagation
    search: MrvSearch
    lexmin: RowMajorSearch


def parts(grid: Grid, *, strong: bool = False) -> Parts:
    """One puzzle's propagation, MRV search and row-major search, without a time limit."""
    propagation = Propagation(grid, strong=strong)
    search = MrvSearch(propagation, Deadline(None))
    return Parts(propagation, search, RowMajorSearch(propagation, search))
