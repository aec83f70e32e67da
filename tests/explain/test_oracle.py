from __future__ import annotations

from sudoku_cp.explain.oracle import Oracle
from sudoku_cp.grid import Grid

from ..conftest import BAEKJOON_2239, BAEKJOON_2239_ANSWER, UNSOLVABLE_4


def test_a_completion_and_whether_it_is_the_only_one() -> None:
    grid = Grid.parse(BAEKJOON_2239)
    with Oracle(9, (3, 3)) as oracle:
        givens = oracle.literals(grid.givens().items())
        completion = oracle.completion(givens)
        assert completion is not None and completion.to_line() == BAEKJOON_2239_ANSWER
        assert not oracle.other_completion(givens, completion)
        # the excluding clause binds that question only
        assert oracle.completion(givens) == completion
        empty = oracle.completion([])
        assert empty is not None and oracle.other_completion([], empty)


def test_no_completion_and_its_core() -> None:
    grid = Grid.parse(UNSOLVABLE_4)
    with Oracle(4, (2, 2)) as oracle:
        givens = oracle.literals(grid.givens().items())
        assert oracle.completion(givens) is None
        assert set(oracle.core()) <= set(givens) and oracle.core()
        assert oracle.calls == 1


def test_rectangular_boxes_and_native_cardinality_for_big_grids() -> None:
    with Oracle(6, (2, 3)) as oracle:
        six = oracle.completion([])
        assert six is not None and six.is_solution_of(Grid.empty(6, box=(2, 3)))
    with Oracle(25, (5, 5)) as oracle:
        assert oracle.satisfiable(oracle.literals([(0, 1), (1, 2)]))
        assert not oracle.satisfiable(oracle.literals([(0, 1), (1, 1)]))
