from __future__ import annotations

from sudoku_cp.explain import explain
from sudoku_cp.explain.checking import NONE, SEVERAL, UNIQUE, check_explanation
from sudoku_cp.explain.oracle import Oracle
from sudoku_cp.explain.steps import Explanation, Step
from sudoku_cp.grid import Grid

from ..conftest import BAEKJOON_2239, BAEKJOON_2239_ANSWER, UNSOLVABLE_4


def test_a_sound_explanation_passes() -> None:
    grid = Grid.parse(BAEKJOON_2239)
    with Oracle(9, (3, 3)) as oracle:
        result = check_explanation(grid, explain(grid), oracle)
    assert result.sound and result.completions == UNIQUE and result.steps > 0


def test_a_wrong_placement_or_elimination_fails() -> None:
    grid = Grid.parse(BAEKJOON_2239)
    blank = grid.blanks()[0]
    right = int(BAEKJOON_2239_ANSWER[blank])
    wrong = right % 9 + 1
    bad = Explanation(
        "stuck",
        [
            Step("naked single", placements=((blank, wrong),)),
            Step("x-wing", eliminations=((blank, right),)),
        ],
    )
    with Oracle(9, (3, 3)) as oracle:
        result = check_explanation(grid, bad, oracle)
    assert not result.sound
    assert result.failures[0].startswith("step 1 (naked single): r1c2=")
    assert result.failures[1].startswith("step 2 (x-wing): r1c2<>")


def test_with_several_completions_each_step_is_asked() -> None:
    grid = Grid.empty(4)
    with Oracle(4, (2, 2)) as oracle:
        wrong = Explanation("stuck", [Step("hidden single", placements=((0, 1),))])
        result = check_explanation(grid, wrong, oracle)
        assert result.completions == SEVERAL and not result.sound
        right = Explanation("stuck", [Step("pointing", eliminations=())])
        assert check_explanation(grid, right, oracle).sound


def test_a_status_that_contradicts_the_completions_fails() -> None:
    with Oracle(4, (2, 2)) as oracle:
        unsat = Grid.parse(UNSOLVABLE_4)
        assert check_explanation(unsat, Explanation("solved"), oracle).completions == NONE
        assert not check_explanation(unsat, Explanation("solved"), oracle).sound
        said = Explanation("unsatisfiable", contradiction="made up")
        assert not check_explanation(Grid.empty(4), said, oracle).sound
