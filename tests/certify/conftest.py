"""Shared by the certification tests: small 4x4 puzzles with their completions enumerated, and
a certifier for a module."""

from __future__ import annotations

import pytest

from sudoku_cp.certify import Certifier
from sudoku_cp.grid import Grid
from sudoku_cp.testing import random_multi_solution

SMALL_PUZZLES = [
    random_multi_solution(4, givens, seed)
    for givens, seed in [(0, 0), (2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (7, 6)]
]


def completions(puzzle: Grid) -> list[Grid]:
    """Every completion, by plain enumeration, in row-major (lexicographic) order."""
    values = list(puzzle.values)
    peers = puzzle.geometry.peers
    blanks = puzzle.blanks()
    found: list[Grid] = []
    if puzzle.conflicts():
        return found

    def search(k: int) -> None:
        if k == len(blanks):
            found.append(Grid(tuple(values), puzzle.box))
            return
        cell = blanks[k]
        for value in range(1, puzzle.size + 1):
            if all(values[peer] != value for peer in peers[cell]):
                values[cell] = value
                search(k + 1)
        values[cell] = 0

    search(0)
    return found


@pytest.fixture(scope="module")
def certifier() -> Certifier:
    return Certifier()
