from __future__ import annotations

from sudoku_cp.explain import explain
from sudoku_cp.explain.board import Board
from sudoku_cp.grid import Grid
from sudoku_cp.render.explain import board_after, core_picture, headline, pencil_marks, step_lines

from ..conftest import BAEKJOON_2239, UNSOLVABLE_4


def test_the_headline_says_status_steps_and_rating() -> None:
    explanation = explain(Grid.parse(BAEKJOON_2239))
    count = len(explanation.steps)
    assert headline(explanation) == f"solved in {count} steps, rating 1 (hidden single)"
    stuck = explain(Grid.parse(BAEKJOON_2239), techniques=())
    assert headline(stuck) == "stuck after 0 steps, rating 11 (contradiction)"
    unsat = explain(Grid.parse(UNSOLVABLE_4))
    assert headline(unsat) == (
        "unsatisfiable after 0 steps (r1c1 has no candidate left), rating 1 (none)"
    )


def test_steps_are_numbered_and_the_board_replays_them() -> None:
    grid = Grid.parse(BAEKJOON_2239)
    explanation = explain(grid)
    lines = step_lines(explanation.steps, 9)
    assert lines[0].startswith("  1. hidden single {")
    assert board_after(grid, explanation.steps).solved()
    assert board_after(grid, []).values == list(grid.values)


def test_pencil_marks_draw_blocks_of_candidates_in_80_columns() -> None:
    board = Board.of(Grid.parse(BAEKJOON_2239))
    drawn = pencil_marks(board).splitlines()
    assert max(map(len, drawn)) <= 80
    assert drawn[0] == "+" + "+".join(["-" * 13] * 3) + "+"
    # r1c1 holds the given 1, in the middle line of its block; r1c2 has 4 (and 7, 8 below)
    assert drawn[2].startswith("|  1  ")
    assert drawn[2][5:9] == " 4.."


def test_sixteen_and_twenty_five_are_listed_in_80_columns() -> None:
    for size in (16, 25):
        drawn = pencil_marks(Board.of(Grid.empty(size)))
        assert max(map(len, drawn.splitlines())) <= 80
        assert "r1c1:123456789ABCDEFG" in drawn


def test_the_core_is_a_grid_of_its_givens() -> None:
    text = core_picture(Grid.parse(UNSOLVABLE_4), 4)
    assert text.splitlines()[0] == "no completion: a minimal core of 4 givens (of 4):"


def test_long_steps_wrap_at_80_columns_under_their_number() -> None:
    from sudoku_cp.explain.steps import Step

    step = Step("naked pair", eliminations=tuple((cell, 5) for cell in range(2, 16)), cells=(0, 1))
    lines = step_lines([step] * 12, 16)
    assert max(map(len, lines)) <= 80
    assert lines[0].startswith("  1. naked pair in r1c1 r1c2") and lines[1].startswith("     r1c")
    assert any(line.startswith("  12. ") for line in lines)
