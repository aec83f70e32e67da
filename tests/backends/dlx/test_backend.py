import random

import pytest

import sudoku_cp.backends.dlx.backend as dlx_backend
from sudoku_cp.backends import get_backend
from sudoku_cp.errors import BackendOptionError
from sudoku_cp.grid import Grid
from sudoku_cp.result import Mode, Status
from sudoku_cp.testing import naive_lexmin

from ...conftest import (
    ANTI_BACKTRACK,
    BAEKJOON_2239,
    EMPTY_9_LEXMIN,
    G17,
    UNSOLVABLE_4,
    brute_force_count,
    random_multi_solution,
    shared,
)

LEXMIN_METHODS = ("rowmajor", "tightening")
SMALL_SHAPES = [(4, (2, 2)), (6, (2, 3)), (6, (3, 2)), (8, (2, 4)), (8, (4, 2)), (9, (3, 3))]


@pytest.fixture(scope="module", params=LEXMIN_METHODS)
def backend(request):
    return get_backend("dlx", lexmin=request.param)


def _random_puzzle(seed: int) -> Grid:
    rng = random.Random(seed)
    size, box = rng.choice(SMALL_SHAPES)
    return random_multi_solution(size, rng.randint(0, size * size // 2), seed, box=box)


@pytest.mark.parametrize("seed", range(60))
def test_lexmin_equals_naive_on_random_puzzles(backend, seed):
    puzzle = _random_puzzle(seed)
    assert backend.solve(puzzle).solution == naive_lexmin(puzzle)


def test_lexmin_equals_naive_on_random_9x9_with_few_givens(backend):
    for seed in range(15):
        puzzle = random_multi_solution(9, 18 + seed, 500 + seed)
        assert backend.solve(puzzle).solution == naive_lexmin(puzzle), puzzle.to_line()


def test_serg_benchmark_sample_agrees_with_naive(backend):
    for line in shared("serg_benchmark.txt").read_text().split()[:20]:
        puzzle = Grid.parse(line)
        assert backend.solve(puzzle).solution == naive_lexmin(puzzle)


@pytest.mark.parametrize("seed", range(20))
def test_counts_equal_brute_force(backend, seed):
    rng = random.Random(seed)
    size, box = rng.choice(SMALL_SHAPES[:5])
    puzzle = random_multi_solution(size, rng.randint(size, size * size // 2), seed, box=box)
    result = backend.solve(puzzle, mode=Mode.COUNT, limit=30)
    assert result.count == brute_force_count(puzzle, 30)


def test_any_finds_a_completion(backend):
    for seed in range(10):
        puzzle = _random_puzzle(100 + seed)
        result = backend.solve(puzzle, mode=Mode.ANY)
        assert result.solution is not None and result.solution.is_solution_of(puzzle)


def test_rowmajor_finds_the_lexmin_as_its_first_completion():
    # The row-major search needs no oracle: its first completion is the answer.
    result = get_backend("dlx", lexmin="rowmajor").solve(Grid.empty(9))
    assert result.solution.to_line() == EMPTY_9_LEXMIN
    assert result.stats["order"] == "rowmajor" and "oracle_calls" not in result.stats


def test_mrv_lexmin_uses_the_prefix_loop():
    result = get_backend("dlx", lexmin="tightening").solve(Grid.empty(9))
    assert result.solution.to_line() == EMPTY_9_LEXMIN
    assert result.stats["order"] == "mrv" and result.stats["oracle_calls"] >= 1


def test_auto_is_rowmajor_for_lexmin_and_mrv_otherwise():
    backend = get_backend("dlx")
    puzzle = Grid.parse(BAEKJOON_2239)
    assert backend.solve(puzzle).stats["order"] == "rowmajor"  # within the budget
    assert backend.solve(puzzle, mode=Mode.ANY).stats["order"] == "mrv"
    assert backend.solve(puzzle, mode=Mode.COUNT).stats["order"] == "mrv"


def test_singles_need_no_backtracking_on_g17():
    # Forced columns (one row left) are naked and hidden singles: G17 falls without a guess.
    result = get_backend("dlx", lexmin="rowmajor").solve(Grid.parse(G17))
    assert result.status is Status.SOLVED and result.stats["backtracks"] == 0


def test_stats_count_the_dance(backend):
    result = backend.solve(Grid.parse(ANTI_BACKTRACK))
    assert result.stats["nodes"] > 0 and result.stats["updates"] > result.stats["nodes"]
    assert isinstance(result.stats["backtracks"], int)


def test_unsatisfiable_without_repeated_givens(backend):
    for mode in Mode:
        result = backend.solve(Grid.parse(UNSOLVABLE_4), mode=mode)
        assert result.status is Status.UNSATISFIABLE and result.solution is None


@pytest.mark.parametrize("mode", [Mode.LEXMIN, Mode.ANY, Mode.COUNT])
def test_time_limit_on_the_empty_25x25(backend, mode):
    # lex-min and counting the empty 25x25 are far out of reach; `any` may finish in time.
    result = backend.solve(Grid.empty(25), mode=mode, limit=10**9, time_limit=0.2)
    assert result.seconds < 2
    if result.status is Status.TIMEOUT:
        assert result.solution is None and "0.2" in result.reason
    else:
        assert mode is Mode.ANY and result.solution.is_solution_of(Grid.empty(25))


def test_timeout_leaves_the_shape_reusable(backend):
    backend.solve(Grid.empty(25), limit=10**9, mode=Mode.COUNT, time_limit=0.05)
    assert backend.solve(Grid.empty(9)).solution.to_line() == EMPTY_9_LEXMIN


def test_unknown_lexmin_method_is_refused():
    with pytest.raises(BackendOptionError, match="lexmin"):
        get_backend("dlx", lexmin="random")


def test_auto_lexmin_falls_back_to_the_prefix_loop_past_its_budget(monkeypatch):
    monkeypatch.setattr(dlx_backend, "ROWMAJOR_BUDGET_PER_CELL", 0)
    puzzles = [_random_puzzle(300 + seed) for seed in range(10)]
    puzzles += [Grid.parse(ANTI_BACKTRACK), Grid.empty(9)]
    backend = get_backend("dlx")
    for puzzle in puzzles:
        result = backend.solve(puzzle)
        assert result.solution == naive_lexmin(puzzle)
    # (the clock and the budget are read every CHECK_CLOCK_EVERY nodes)
    assert backend.solve(Grid.empty(16)).stats["order"] == "rowmajor+prefix"
