"""The choco plugin: the published contract suite (sudoku_cp.testing), which runs on every
all-different variant (every value of its one option), plus what is particular to it. Run after
`pip install ./plugins/sudoku-cp-choco`."""

import random

import pytest

from sudoku_cp.backends import backend_class, get_backend, plugins
from sudoku_cp.errors import BackendOptionError
from sudoku_cp.grid import Grid
from sudoku_cp.result import Mode, Status
from sudoku_cp.testing import (
    ANTI_BACKTRACK,
    EMPTY_9_LEXMIN,
    G17,
    contract_tests,
    naive_lexmin,
    random_multi_solution,
)

pytest.importorskip("pychoco", reason="pychoco is not installed")

FULL = {"sizes": (4, 6, 9, 16), "quick": False}

test_choco_contract = contract_tests("choco", **FULL)  # alldiff=ac, then bc and decomposition

ALLDIFF = ("ac", "bc", "decomposition")


def test_registered_through_the_entry_point():
    assert plugins()["choco"].distribution.startswith("sudoku-cp-choco ")
    assert backend_class("choco").is_available()


@pytest.mark.parametrize("alldiff", ALLDIFF)
def test_lexmin_equals_naive_on_random_puzzles(alldiff):
    backend = get_backend("choco", alldiff=alldiff)
    for seed in range(25):
        rng = random.Random(seed)
        size, box = rng.choice([(4, (2, 2)), (6, (2, 3)), (6, (3, 2)), (8, (2, 4)), (9, (3, 3))])
        puzzle = random_multi_solution(size, rng.randint(0, size * size // 2), seed, box=box)
        assert backend.solve(puzzle).solution == naive_lexmin(puzzle), puzzle.to_line()


@pytest.mark.parametrize("alldiff", ALLDIFF)
def test_stats_are_chocos_counters(alldiff):
    result = get_backend("choco", alldiff=alldiff).solve(Grid.parse(ANTI_BACKTRACK))
    assert result.status is Status.SOLVED
    assert result.stats["alldiff"] == alldiff
    assert all(isinstance(result.stats[key], int) for key in ("nodes", "fails", "backtracks"))
    assert result.stats["nodes"] >= 1


def test_arc_consistency_needs_no_more_nodes_than_the_decomposition():
    puzzle = Grid.parse(G17)
    nodes = {
        alldiff: get_backend("choco", alldiff=alldiff).solve(puzzle).stats["nodes"]
        for alldiff in ALLDIFF
    }
    assert nodes["ac"] <= nodes["decomposition"]


def test_empty_grid_lexmin():
    assert get_backend("choco").solve(Grid.empty(9)).solution.to_line() == EMPTY_9_LEXMIN


@pytest.mark.parametrize("mode", [Mode.LEXMIN, Mode.COUNT])
def test_time_limit_gives_timeout(mode):
    result = get_backend("choco", alldiff="decomposition").solve(
        Grid.empty(16), mode=mode, limit=10**9, time_limit=0.2
    )
    assert result.seconds < 3
    if mode is Mode.COUNT:
        assert result.status is Status.TIMEOUT and result.solution is None
        assert "0.2" in result.reason
    else:
        assert result.status in (Status.TIMEOUT, Status.SOLVED)


def test_a_spent_time_limit_is_a_timeout():
    result = get_backend("choco").solve(Grid.empty(9), time_limit=0)
    assert result.status is Status.TIMEOUT


def test_unknown_alldiff_is_refused():
    with pytest.raises(BackendOptionError, match="alldiff"):
        get_backend("choco", alldiff="gcc")
