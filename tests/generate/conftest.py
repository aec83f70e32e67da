"""Shared by the generation tests: the counting backends, and puzzles made by `generate`."""

from __future__ import annotations

import random

import pytest

from sudoku_cp.backends import backend_class, get_backend
from sudoku_cp.generate import (
    CompletionCounter,
    UniquenessChecks,
    generate,
    make_request,
    random_completed_grid,
    remove_givens_while_unique,
)
from sudoku_cp.grid import BLANK, Grid
from sudoku_cp.result import Mode

from ..conftest import DATA

GENERATED = DATA / "generated"


def usable(name: str) -> bool:
    try:
        return backend_class(name).is_available()
    except ImportError:
        return False


@pytest.fixture(scope="module")
def dfs():
    with get_backend("dfs") as backend:
        yield backend


@pytest.fixture(scope="module")
def second():
    """A second backend, independent of dfs, to confirm that unsat puzzles have no completion."""
    for name in ("sat", "cpsat"):
        if usable(name):
            with get_backend(name) as backend:
                yield backend
            return
    pytest.skip("need python-sat or ortools for a second backend")


@pytest.fixture(scope="module")
def big_counter(dfs):
    """The counter for 16x16 and 25x25 checks: sat (dfs needs minutes on some 25x25 counts)."""
    if not usable("sat"):
        yield None
        return
    with get_backend("sat") as backend:
        yield backend


@pytest.fixture
def sat_checks():
    if not usable("sat"):
        pytest.skip("the sat backend is not installed")
    with get_backend("sat") as sat:
        checks = UniquenessChecks(CompletionCounter(sat), use_sat=True)
        yield checks
        checks.close()


def count(backend, puzzle: Grid, limit: int) -> int:
    return backend.solve(puzzle, mode="count", limit=limit).count


def made(kind: str, size: int, givens: str, *, seed: int = 7, count: int = 4, box=None):
    return list(
        generate(make_request(kind, size=size, box=box, givens=givens, seed=seed, count=count))
    )


def minimal_puzzle(size, seed, checks, filler):
    """(solution, values, witnesses, rng): a random removal down to a minimal puzzle."""
    rng = random.Random(seed)
    solution = random_completed_grid(rng, size, filler=filler)
    values, witnesses = remove_givens_while_unique(solution, rng, checks, target=0)
    return solution, values, witnesses, rng


def assert_minimal_and_unique(values, solution, dfs):
    """One completion, the known one; and every given is needed (without it, two or more)."""
    puzzle = Grid(tuple(values), solution.box)
    result = dfs.solve(puzzle, mode=Mode.COUNT, limit=2)
    assert result.count == 1
    assert dfs.solve(puzzle, mode=Mode.LEXMIN).solution == solution
    for cell in puzzle.givens():
        without = list(values)
        without[cell] = BLANK
        assert dfs.solve(Grid(tuple(without), solution.box), mode=Mode.COUNT, limit=2).count == 2
