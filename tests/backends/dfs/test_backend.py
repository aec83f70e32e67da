import random

import pytest

from sudoku_cp.backends import get_backend
from sudoku_cp.grid import Grid
from sudoku_cp.result import Status

from ...conftest import ANTI_BACKTRACK, G17, naive_lexmin, random_multi_solution, shared
from .conftest import generated

TOP95_FIRST = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.fixture(scope="module")
def backend():
    return get_backend("dfs")


@pytest.fixture(scope="module")
def strong():
    return get_backend("dfs", lexmin="strong")


@pytest.fixture(scope="module")
def singles():
    return get_backend("dfs", lexmin="singles")


def test_hidden_singles_solve_hard_unique_puzzles_without_branching(backend):
    for line in (G17, ANTI_BACKTRACK):
        result = backend.solve(Grid.parse(line))
        assert result.status is Status.SOLVED and result.stats["nodes"] == 0


def test_unique_puzzle_needs_a_single_oracle_call(backend):
    assert backend.solve(Grid.parse(G17)).stats["oracle_calls"] == 1


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


def test_timeout_on_the_empty_64x64(backend):
    # (The empty 25x25 used to take seconds; the dive fills it in about 0.1 s.)
    result = backend.solve(Grid.empty(64), time_limit=0.2)
    assert result.status is Status.TIMEOUT and "0.2" in result.reason


def test_a_timeout_keeps_the_counters_and_in_count_mode_the_count(backend):
    result = backend.solve(Grid.empty(16), mode="count", limit=10**9, time_limit=0.2)
    assert result.status is Status.TIMEOUT and result.reason == "no answer within 0.2 s"
    assert result.count and result.count > 0 and result.stats["nodes"] > 0


@pytest.mark.parametrize(("size", "box"), [(25, None), (30, (6, 5)), (36, None), (36, (4, 9))])
def test_empty_grids_fill_without_a_backtrack(backend, size, box):
    # (Not every box shape: the empty 42x42 with 6x7 boxes backtracks 166 times in row 34.)
    result = backend.solve(Grid.empty(size, box=box))
    assert result.status is Status.SOLVED
    assert result.stats["backtracks"] == 0 and result.stats["oracle_calls"] == 1
    assert result.solution.values[:size] == tuple(range(1, size + 1))


def test_serg_benchmark_sample_agrees_with_naive(backend):
    lines = shared("serg_benchmark.txt").read_text().split()[:30]
    for line in lines:
        puzzle = Grid.parse(line)
        assert backend.solve(puzzle).solution == naive_lexmin(puzzle)


def test_importing_dfs_loads_no_solver():
    import subprocess
    import sys

    code = (
        "import sys, sudoku_cp.cli, sudoku_cp.backends.dfs, sudoku_cp.backends; "
        "from sudoku_cp.backends import get_backend; get_backend('dfs'); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('ortools', 'pysat')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# -- the levels: singles, strong, auto ------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_strong_lexmin_equals_naive_on_random_small_grids(strong, seed):
    rng = random.Random(1000 + seed)
    size, box = rng.choice([(4, (2, 2)), (6, (2, 3)), (6, (3, 2)), (8, (2, 4))])
    puzzle = random_multi_solution(size, rng.randint(0, size * size // 3), seed, box=box)
    result = strong.solve(puzzle)
    assert result.solution == naive_lexmin(puzzle)
    assert result.stats["propagation"] == "strong"


def test_strong_agrees_with_singles_on_generated_16x16(strong, singles):
    # (unique #2 is left out: singles need seconds on it)
    for lines in (generated("unique-16x16.txt")[2:8], generated("multi-16x16.txt")[:6]):
        for line in lines:
            puzzle = Grid.parse(line)
            assert strong.solve(puzzle).solution == singles.solve(puzzle).solution, line


def test_auto_is_singles_below_16_and_strong_from_16(backend):
    assert backend.solve(Grid.parse(G17)).stats["propagation"] == "singles"
    assert (
        backend.solve(Grid.parse(generated("unique-16x16.txt")[0])).stats["propagation"] == "strong"
    )


@pytest.mark.parametrize("mode", ["any", "count"])
def test_any_and_count_keep_the_original_search(strong, singles, mode):
    # generate.py fills grids with `any`: its answer must not depend on the level.
    for line in (TOP95_FIRST, generated("multi-16x16.txt")[0]):
        puzzle = Grid.parse(line)
        a, b = strong.solve(puzzle, mode=mode, limit=3), singles.solve(puzzle, mode=mode, limit=3)
        assert (a.solution, a.count, a.stats) == (b.solution, b.count, b.stats)
        assert a.stats["propagation"] == "singles"


def test_strong_refutes_contradictions(strong):
    puzzle = Grid.parse("023456789" + "0" * 36 + "100000000" + "0" * 27)
    assert strong.solve(puzzle).status is Status.UNSATISFIABLE
    for line in generated("unsat-16x16.txt")[:2]:
        assert strong.solve(Grid.parse(line)).status is Status.UNSATISFIABLE


def test_unknown_propagation_level_is_refused():
    from sudoku_cp.errors import BackendOptionError

    with pytest.raises(BackendOptionError, match="lexmin"):
        get_backend("dfs", lexmin="clever")
