from __future__ import annotations

import itertools

import pytest

from sudoku_cp.explain import SUBSETS_LEVEL, explain
from sudoku_cp.explain.checking import check_explanation
from sudoku_cp.explain.oracle import Oracle
from sudoku_cp.grid import Grid

from ..conftest import BAEKJOON_2239, BAEKJOON_2239_ANSWER, DATA, UNSOLVABLE_4, shared
from .helpers import puzzles


def test_singles_solve_an_easy_puzzle() -> None:
    explanation = explain(Grid.parse(BAEKJOON_2239))
    assert explanation.status == "solved"
    assert explanation.rating.level == 1
    values = list(Grid.parse(BAEKJOON_2239).values)
    for step in explanation.steps:
        for cell, value in step.placements:
            values[cell] = value
    assert Grid(tuple(values), (3, 3)).to_line() == BAEKJOON_2239_ANSWER


def test_stuck_without_techniques_and_unsatisfiable_when_shown() -> None:
    assert explain(Grid.parse(BAEKJOON_2239), techniques=()).status == "stuck"
    unsat = explain(Grid.parse(UNSOLVABLE_4))
    assert (unsat.status, unsat.contradiction) == ("unsatisfiable", "r1c1 has no candidate left")


@pytest.mark.parametrize(
    "name", ["unique-4x4", "unique-6x6", "unique-9x9", "multi-9x9", "unsat-9x9", "unique-16x16"]
)
def test_every_step_is_sound_on_the_bundled_puzzles(name: str) -> None:
    grids = puzzles(DATA / "generated" / f"{name}.txt", 12)
    with Oracle(grids[0].size, grids[0].box) as oracle:
        for grid in grids:
            explanation = explain(grid, complete=grid.size <= 9)
            assert check_explanation(grid, explanation, oracle).failures == []
            if name.startswith("unique") and grid.size <= 9:
                assert explanation.status == "solved"


def test_complete_goes_on_by_the_smallest_contradiction() -> None:
    grid = Grid.parse(
        "400030000000600800000000001000050090080000600070200000000102700503000040900000000"
    )
    stuck = explain(grid, techniques=("hidden single", "naked single"))
    done = explain(grid, techniques=("hidden single", "naked single"), complete=True)
    assert stuck.status == "stuck" and done.status == "solved"
    assert done.steps[: len(stuck.steps)] == stuck.steps
    first = done.steps[len(stuck.steps)]
    assert first.technique == "contradiction" and first.contradiction
    assert done.rating.technique == "contradiction"


def test_kaggle_is_singles_only() -> None:
    for grid in puzzles(shared("kaggle_1000"), 100):
        assert explain(grid).rating.level == 1


def test_the_hardest_need_more_than_subsets() -> None:
    for grid in itertools.islice(puzzles(shared("forum_hardest_1905_11plus"), 40), 40):
        assert explain(grid).rating.level > SUBSETS_LEVEL


@pytest.mark.parametrize(("name", "first"), [("top1465", 300), ("serg_benchmark", 100)])
def test_every_step_is_sound_on_public_puzzles(name: str, first: int) -> None:
    """Hundreds of public puzzles, every step checked: top1465 has one completion each, the serg
    benchmark several (each step then asked of the oracle)."""
    grids = puzzles(shared(name), first)
    with Oracle(9, (3, 3)) as oracle:
        for grid in grids:
            result = check_explanation(grid, explain(grid), oracle)
            assert result.failures == [], grid.to_line()
