from __future__ import annotations

from sudoku_cp.explain.board import Board, bits, candidate_name, cell_name
from sudoku_cp.grid import Grid

from ..conftest import BAEKJOON_2239, UNSOLVABLE_4
from .helpers import cell, empty_board, mask


def test_bits_and_names() -> None:
    assert bits(mask(1, 3, 9)) == [1, 3, 9]
    assert cell_name(cell(3, 4), 9) == "r3c4"
    assert candidate_name(cell(3, 4), 5, 9) == "r3c4=5"


def test_a_placement_strikes_the_value_from_the_peers() -> None:
    board = empty_board()
    board.place(cell(1, 1), 5)
    assert board.values[cell(1, 1)] == 5
    for peer in board.geo.peers[cell(1, 1)]:
        assert not board.candidates[peer] & mask(5)
    assert board.candidates[cell(2, 4)] == board.full


def test_the_board_of_a_puzzle_keeps_what_no_given_peer_holds() -> None:
    grid = Grid.parse(BAEKJOON_2239)
    board = Board.of(grid)
    assert board.values == list(grid.values)
    for blank in grid.blanks():
        peers = {grid.values[peer] for peer in grid.geometry.peers[blank]}
        assert set(bits(board.candidates[blank])) == set(range(1, 10)) - peers


def test_contradictions_are_named() -> None:
    assert Board.of(Grid.parse(UNSOLVABLE_4)).contradiction() == "r1c1 has no candidate left"
    board = empty_board()
    for column in range(1, 10):
        board.eliminate(cell(1, column), 4)
    assert board.contradiction() == "row 1 has no place left for 4"
    assert empty_board().contradiction() is None


def test_a_copy_is_independent() -> None:
    board = empty_board()
    copy = board.copy()
    copy.place(0, 1)
    assert board.values[0] == 0 and board.candidates[1] == board.full
