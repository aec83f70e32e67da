from __future__ import annotations

import pytest

from sudoku_cp.explain.subsets import fish, hidden, naked

from .helpers import cell, empty_board, mask


@pytest.mark.parametrize("size", [2, 3, 4])
def test_naked_subset_clears_its_values_from_the_unit(size: int) -> None:
    board = empty_board()
    values = tuple(range(1, size + 1))
    for column in range(1, size + 1):
        board.candidates[cell(1, column)] = mask(*values)
    step = naked(size)(board)
    assert step is not None and step.technique == f"naked {['pair', 'triple', 'quad'][size - 2]}"
    assert step.values == values and step.units == ("row 1",)
    assert set(step.eliminations) == {
        (cell(1, column), value) for column in range(size + 1, 10) for value in values
    }


@pytest.mark.parametrize("size", [2, 3, 4])
def test_hidden_subset_keeps_only_its_values(size: int) -> None:
    board = empty_board()
    values = tuple(range(1, size + 1))
    for column in range(size + 1, 10):
        for value in values:
            board.eliminate(cell(1, column), value)
    step = hidden(size)(board)
    assert step is not None and step.technique.startswith("hidden ")
    assert set(step.eliminations) == {
        (cell(1, column), value) for column in range(1, size + 1) for value in range(size + 1, 10)
    }


@pytest.mark.parametrize(("size", "name"), [(2, "x-wing"), (3, "swordfish"), (4, "jellyfish")])
def test_fish_clears_its_columns(size: int, name: str) -> None:
    board = empty_board()
    rows = [1, 4, 7, 2][:size]
    columns = [1, 5, 9, 2][:size]
    for row in rows:
        for column in range(1, 10):
            if column not in columns:
                board.eliminate(cell(row, column), 3)
    step = fish(size)(board)
    assert step is not None and step.technique == name and step.values == (3,)
    assert set(step.eliminations) == {
        (cell(row, column), 3) for column in columns for row in range(1, 10) if row not in rows
    }


def test_nothing_on_the_empty_grid() -> None:
    board = empty_board()
    assert all(find(board) is None for find in (naked(2), hidden(2), fish(2), fish(4)))
