import pytest

import sudoku_cp.backends.dfs.rowmajor as rowmajor
from sudoku_cp.backends import get_backend
from sudoku_cp.backends.dfs.tables import cell_choices, values_of
from sudoku_cp.grid import Grid

from ...conftest import naive_lexmin, random_multi_solution
from .conftest import parts


@pytest.fixture(scope="module")
def backend():
    return get_backend("dfs")


def test_the_oracle_budget_does_not_change_the_answer(backend, monkeypatch):
    puzzles = [random_multi_solution(9, givens, seed) for seed, givens in enumerate(range(18, 30))]
    expected = [backend.solve(p).solution for p in puzzles]
    for budget in (0, 1000):
        monkeypatch.setattr(rowmajor, "ORACLE_BUDGET_PER_CELL", budget)
        assert [backend.solve(p).solution for p in puzzles] == expected


def test_the_dive_does_not_change_the_answer(backend, monkeypatch):
    # A dive budget of 0 turns the dives off: the oracle-only search of before.
    puzzles = [random_multi_solution(9, givens, seed) for seed, givens in enumerate(range(8, 30))]
    puzzles += [
        random_multi_solution(16, givens, seed) for seed, givens in enumerate(range(0, 90, 15))
    ]
    puzzles += [Grid.empty(16), Grid.empty(12, box=(4, 3))]
    expected = [backend.solve(p).solution for p in puzzles]
    monkeypatch.setattr(rowmajor, "DIVE_NODES_PER_OPEN_CELL", 0)
    assert [backend.solve(p).solution for p in puzzles] == expected


def test_the_dive_from_the_top_settles_what_the_plain_search_does_not(backend, monkeypatch):
    # With no plain nodes before the look-ahead, the empty 25x25 is left to the dive from the
    # top, which must give the same lex-min as the dive below the first witness.
    expected = backend.solve(Grid.empty(25))
    monkeypatch.setattr(rowmajor, "SINGLES_FIRST_PER_CELL", 0)
    result = backend.solve(Grid.empty(25))
    assert result.solution == expected.solution
    assert result.stats["dives"] == 1 and result.stats["oracle_calls"] == 1


def test_a_dive_that_runs_out_leaves_its_stack_to_go_on_with():
    found = parts(Grid.empty(9))
    candidates = found.propagation.initial_candidates()
    stack = [(candidates, cell_choices(0, candidates[0]))]
    assert found.lexmin.dive(stack, 5) is None and stack  # out of nodes, not refuted
    solution = found.lexmin.dive(stack, 10_000)
    assert solution is not None and values_of(solution) == naive_lexmin(Grid.empty(9)).values
