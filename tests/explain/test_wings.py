from __future__ import annotations

from sudoku_cp.explain.wings import xy_wing, xyz_wing

from .helpers import cell, empty_board, mask


def test_xy_wing() -> None:
    board = empty_board()
    board.candidates[cell(1, 1)] = mask(1, 2)
    board.candidates[cell(1, 5)] = mask(1, 3)
    board.candidates[cell(5, 1)] = mask(2, 3)
    step = xy_wing(board)
    assert step is not None and step.technique == "xy-wing"
    assert step.eliminations == ((cell(5, 5), 3),)
    assert step.cells == (cell(1, 1), cell(1, 5), cell(5, 1))
    assert xyz_wing(board) is None


def test_xyz_wing() -> None:
    board = empty_board()
    board.candidates[cell(1, 1)] = mask(1, 2, 3)
    board.candidates[cell(1, 2)] = mask(1, 3)
    board.candidates[cell(2, 1)] = mask(2, 3)
    step = xyz_wing(board)
    assert step is not None and step.technique == "xyz-wing"
    assert set(step.eliminations) == {
        (cell(row, column), 3) for row, column in [(1, 3), (2, 2), (2, 3), (3, 1), (3, 2), (3, 3)]
    }


def test_no_wing_on_the_empty_grid() -> None:
    board = empty_board()
    assert xy_wing(board) is None and xyz_wing(board) is None
