import random

import pytest

import sudoku_cp.backends.dfs as dfs
from sudoku_cp.backends import get_backend
from sudoku_cp.grid import Grid
from sudoku_cp.result import Status

from ..conftest import ANTI_BACKTRACK, G17, naive_lexmin, random_multi_solution, shared


@pytest.fixture(scope="module")
def backend():
    return get_backend("dfs")


def test_hidden_singles_solve_hard_unique_puzzles_without_branching(backend):
    for line in (G17, ANTI_BACKTRACK):
        result = backend.solve(Grid.parse(line))
        assert result.status is Status.SOLVED and result.stats["nodes"] == 0


def test_unique_puzzle_needs_a_single_oracle_call(backend):
    assert backend.solve(Grid.parse(G17)).stats["oracle_calls"] == 1


def test_the_oracle_budget_does_not_change_the_answer(backend, monkeypatch):
    puzzles = [random_multi_solution(9, givens, seed) for seed, givens in enumerate(range(18, 30))]
    expected = [backend.solve(p).solution for p in puzzles]
    for budget in (0, 1000):
        monkeypatch.setattr(dfs, "ORACLE_BUDGET_PER_CELL", budget)
        assert [backend.solve(p).solution for p in puzzles] == expected


@pytest.mark.parametrize("seed", range(40))
def test_lexmin_equals_naive_on_random_small_grids(backend, seed):
    rng = random.Random(seed)
    size, box = rng.choice([(4, (2, 2)), (6, (2, 3)), (6, (3, 2)), (8, (2, 4))])
    puzzle = random_multi_solution(size, rng.randint(0, size * size // 3), seed, box=box)
    assert backend.solve(puzzle).solution == naive_lexmin(puzzle)


def test_propagation_finds_hidden_contradictions_without_search(backend):
    # Cell (1,1) must be 1 (its row holds 2-9) but column 1 already has a 1.
    puzzle = Grid.parse("023456789" + "0" * 36 + "100000000" + "0" * 27)
    assert naive_lexmin(puzzle) is None
    result = backend.solve(puzzle)
    assert result.status is Status.UNSATISFIABLE and result.stats["nodes"] == 0


def test_timeout_on_the_empty_25x25(backend):
    result = backend.solve(Grid.empty(25), time_limit=0.2)
    assert result.status is Status.TIMEOUT and "0.2" in result.reason


def test_serg_benchmark_sample_agrees_with_naive(backend):
    lines = shared("serg_benchmark.txt").read_text().split()[:30]
    for line in lines:
        puzzle = Grid.parse(line)
        assert backend.solve(puzzle).solution == naive_lexmin(puzzle)


def test_importing_dfs_loads_no_solver():
    import subprocess
    import sys
    code = ("import sys, sudoku_cp.cli, sudoku_cp.backends.dfs, sudoku_cp.backends; "
            "from sudoku_cp.backends import get_backend; get_backend('dfs'); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('ortools', 'pysat')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
