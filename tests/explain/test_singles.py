from __future__ import annotations

from sudoku_cp.explain.singles import claiming, hidden_single, naked_single, pointing

from .helpers import cell, empty_board, mask


def test_nothing_applies_on_the_empty_grid() -> None:
    board = empty_board()
    assert [hidden_single(board), naked_single(board), pointing(board), claiming(board)] == [
        None
    ] * 4


def test_naked_single() -> None:
    board = empty_board()
    board.candidates[cell(4, 5)] = mask(7)
    step = naked_single(board)
    assert step is not None and step.placements == ((cell(4, 5), 7),)
    assert step.technique == "naked single" and step.cells == (cell(4, 5),)


def test_hidden_single_names_its_unit() -> None:
    board = empty_board()
    for column in range(2, 10):
        board.eliminate(cell(2, column), 6)
    step = hidden_single(board)
    assert step is not None and step.placements == ((cell(2, 1), 6),)
    assert step.units == ("row 2",)


def test_pointing_clears_the_line_outside_the_box() -> None:
    board = empty_board()
    for row in (2, 3):
        for column in (1, 2, 3):
            board.eliminate(cell(row, column), 1)
    step = pointing(board)
    assert step is not None and step.technique == "pointing"
    assert step.eliminations == tuple((cell(1, column), 1) for column in range(4, 10))
    assert step.units == ("box 1", "row 1")


def test_claiming_clears_the_box_outside_the_line() -> None:
    board = empty_board()
    for column in range(3, 10):
        board.eliminate(cell(1, column), 1)
    step = claiming(board)
    assert step is not None and step.technique == "claiming"
    assert set(step.eliminations) == {
        (cell(row, column), 1) for row in (2, 3) for column in (1, 2, 3)
    }
