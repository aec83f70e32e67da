import pytest

from sudoku_cp.backends import get_backend
from sudoku_cp.grid import Grid
from sudoku_cp.naive import NaiveSearch, naive_count, naive_solve

from .conftest import (
    ANTI_BACKTRACK,
    BAEKJOON_2239,
    BAEKJOON_2239_ANSWER,
    DATA,
    EMPTY_4_LEXMIN,
    EMPTY_9_LEXMIN,
    EMPTY_16_LEXMIN_ROWS_1_2,
    UNSOLVABLE_4,
    naive_lexmin,
    random_multi_solution,
)


def test_empty_9x9_is_the_lexmin_in_392_nodes():
    # 392 is the count of the reference measurement (../shared/reference/lexmin-methods.md §3),
    # which counts the root too; so do G17 (26,590,294) and the anti-backtracking grid.
    result = naive_solve(Grid.empty(9))
    assert result.solution.to_line() == EMPTY_9_LEXMIN
    assert (result.nodes, result.finished) == (392, True)


def test_empty_4x4_and_16x16():
    assert naive_solve(Grid.empty(4)).solution.to_line() == EMPTY_4_LEXMIN
    result = naive_solve(Grid.empty(16))
    assert result.solution.to_line().startswith(EMPTY_16_LEXMIN_ROWS_1_2)
    assert result.nodes == 257  # the reference's count: no backtracking at all, plus the root


def test_anti_backtracking_example_file_is_the_known_grid():
    lines = [
        line
        for line in (DATA / "examples" / "anti-backtracking9.txt").read_text().splitlines()
        if not line.startswith("#")
    ]
    assert lines == [ANTI_BACKTRACK]


def test_baekjoon_2239():
    result = naive_solve(Grid.parse(BAEKJOON_2239))
    assert result.solution.to_line() == BAEKJOON_2239_ANSWER
    assert result.finished


def test_node_limit_stops_the_anti_backtracking_grid():
    result = naive_solve(Grid.parse(ANTI_BACKTRACK), node_limit=20_000)
    assert (result.solution, result.nodes, result.finished) == (None, 20_000, False)


def test_node_limit_of_one_is_the_root_alone():
    result = naive_solve(Grid.empty(4), node_limit=1)
    assert (result.solution, result.nodes, result.finished) == (None, 1, False)


def test_bad_node_limit():
    with pytest.raises(ValueError, match="node limit"):
        naive_solve(Grid.empty(4), node_limit=0)


def test_a_limit_above_the_need_changes_nothing():
    unlimited = naive_solve(Grid.parse(BAEKJOON_2239))
    assert naive_solve(Grid.parse(BAEKJOON_2239), node_limit=unlimited.nodes) == unlimited


def test_full_grid_is_its_own_solution_in_one_node():
    full = Grid.parse(BAEKJOON_2239_ANSWER)
    result = naive_solve(full)
    assert (result.solution, result.nodes, result.finished) == (full, 1, True)


def test_no_completion():
    result = naive_solve(Grid.parse(UNSOLVABLE_4))
    assert (result.solution, result.finished) == (None, True)


def test_repeated_givens_cost_no_node():
    result = naive_solve(Grid.parse("11" + "0" * 14))
    assert (result.solution, result.nodes, result.finished) == (None, 0, True)


@pytest.mark.parametrize(
    "size, givens, box",
    [(4, 3, None), (6, 8, (2, 3)), (6, 8, (3, 2)), (9, 30, None), (9, 36, None)],
)
def test_agrees_with_the_conftest_reference_and_dfs(size, givens, box):
    dfs = get_backend("dfs")
    for seed in range(6):
        puzzle = random_multi_solution(size, givens, seed, box=box)
        result = naive_solve(puzzle)
        expected = naive_lexmin(puzzle)
        assert result.solution == expected
        assert result.solution == dfs.solve(puzzle, mode="lexmin").solution
        assert result.solution.is_solution_of(puzzle)


def test_the_search_meets_the_completions_in_lexicographic_order():
    puzzle = random_multi_solution(4, 3, 0, box=(2, 2))
    completions = [grid.values for grid in NaiveSearch(puzzle, None).completions()]
    assert len(completions) == naive_count(puzzle, 10**6) > 1
    assert completions == sorted(completions) and completions[0] == naive_lexmin(puzzle).values
