"""Shared fixtures and puzzles of the `sat` backend's tests."""

import random
import threading
from pathlib import Path

import pytest

from sudoku_cp.backends.sat import SatBackend
from sudoku_cp.grid import Grid
from sudoku_cp.result import Status

from ...conftest import full_grid

EMPTY_16_ROW_2 = (5, 6, 7, 8, 1, 2, 3, 4, 13, 14, 15, 16, 9, 10, 11, 12)


@pytest.fixture(scope="module")
def backend():
    with SatBackend() as ready:
        yield ready


def solution_of(result, puzzle: Grid) -> Grid:
    assert result.status is Status.SOLVED, result
    assert result.solution is not None and result.solution.is_solution_of(puzzle)
    return result.solution


def blanked(answer: str, blanks: int, seed: int) -> Grid:
    """A solved grid with some cells blanked (a few completions at most)."""
    grid = Grid.parse(answer)
    cells = random.Random(seed).sample(range(len(grid.values)), blanks)
    return grid.with_values({cell: 0 for cell in cells})


RANDOM_CASES = (
    [(4, None, givens, seed) for seed, givens in enumerate((0, 2, 3, 4, 5, 6))]
    + [(6, (2, 3), givens, seed) for seed, givens in enumerate((0, 4, 6, 8, 10, 12), 10)]
    + [(6, (3, 2), givens, seed) for seed, givens in enumerate((5, 9), 20)]
    + [(9, None, givens, seed) for seed, givens in enumerate((34, 38, 40, 44, 48), 30)]
)


def one_blank(size: int) -> Grid:
    """A full grid of this size with its last cell blank: one SAT call solves it."""
    full = full_grid(size, random.Random(size))
    return full.with_values({size * size - 1: 0})


SCALING = Path(__file__).resolve().parents[3] / "data" / "generated" / "scaling"


def first_puzzle(path: Path) -> Grid:
    return Grid.parse(next(line for line in path.read_text().splitlines() if line[:1] != "#"))


@pytest.fixture
def thread_errors(monkeypatch):
    """Every exception a thread does not catch (what would print 'Exception in thread ...')."""
    caught = []
    monkeypatch.setattr(threading, "excepthook", caught.append)
    return caught
