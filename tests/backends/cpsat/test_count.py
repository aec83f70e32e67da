"""Tests of counting completions: exact counts, the limit, the tally."""

from __future__ import annotations

import pytest

from sudoku_cp.backends import get_backend
from sudoku_cp.backends.cpsat.count import SolutionTally
from sudoku_cp.grid import Grid
from sudoku_cp.result import Status

from .conftest import BAEKJOON_2239, BAEKJOON_2239_ANSWER, SMALL_PUZZLES, brute_count


@pytest.mark.parametrize("limit", [1, 2, 7, 1000])
def test_count_matches_brute_force(limit, backend):
    for grid in SMALL_PUZZLES[:80:4]:
        result = backend.solve(grid, mode="count", limit=limit)
        assert result.count == brute_count(grid, limit)
        assert result.status is Status.SOLVED
        assert result.solution.is_solution_of(grid)


def test_count_stops_at_the_limit(backend):
    result = backend.solve(Grid.empty(9), mode="count", limit=1000)
    assert (result.status, result.count, result.limit_reached) == (Status.SOLVED, 1000, True)


def test_count_of_an_exhausted_search_is_exact(backend):
    result = backend.solve(Grid.empty(4), mode="count", limit=500)
    assert (result.status, result.count, result.limit_reached) == (Status.SOLVED, 288, False)


def test_count_unique_puzzle(backend):
    result = backend.solve(Grid.parse(BAEKJOON_2239), mode="count", limit=2)
    assert (result.count, result.solution.to_line()) == (1, BAEKJOON_2239_ANSWER)


def test_tally_never_counts_a_solution_twice():
    tally = SolutionTally(limit=3)
    assert [tally.record(s) for s in [b"\1\2", b"\1\2", b"\2\1", b"\1\2", b"\2\2"]] == [
        False,
        False,
        False,
        False,
        True,
    ]
    assert (tally.count, tally.first, tally.reported) == (3, b"\1\2", 5)
    tally.record(b"\3\3")
    assert tally.count == 3  # never beyond the limit


def test_counting_uses_one_worker_even_when_more_are_asked(solve_calls):
    get_backend("cpsat", workers=2).solve(Grid.empty(4), mode="count", limit=50)
    assert [(c["workers"], c["enumerate"]) for c in solve_calls] == [(1, True)]
