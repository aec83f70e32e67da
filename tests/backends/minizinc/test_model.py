"""The shipped MiniZinc model and a puzzle's data: the model file is the package's, the data
holds the box shape and the givens, and MiniZinc itself (where it is installed) reads both and
finds the lex-min."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from sudoku_cp.backends import get_backend
from sudoku_cp.backends.minizinc.model import data_text, model_text
from sudoku_cp.grid import Grid

from ...conftest import BAEKJOON_2239


def test_the_model_is_the_shipped_file_with_the_lexmin_search():
    text = model_text()
    assert 'include "alldifferent.mzn";' in text
    assert "int_search([grid[r, c] | r, c in INDEX], input_order, indomain_min)" in text
    assert text.count("alldifferent(") == 3  # rows, columns, boxes


def test_the_data_holds_the_box_shape_and_the_givens_row_by_row():
    puzzle = Grid.parse("1.....2..3.....4")
    assert data_text(puzzle) == (
        "box_rows = 2;\nbox_cols = 2;\n"
        "givens = [| 1, 0, 0, 0\n  | 0, 0, 2, 0\n  | 0, 3, 0, 0\n  | 0, 0, 0, 4\n  |];\n"
    )
    assert "box_rows = 2;\nbox_cols = 3;" in data_text(Grid.empty(6))


@pytest.mark.skipif(
    shutil.which("minizinc") is None, reason="needs MiniZinc (apt-get install minizinc)"
)
@pytest.mark.parametrize("puzzle", [Grid.parse(BAEKJOON_2239), Grid.empty(6)], ids=["9x9", "6x6"])
def test_minizinc_reads_the_model_and_data_and_finds_the_lexmin(tmp_path, puzzle):
    (tmp_path / "sudoku.mzn").write_text(model_text())
    (tmp_path / "puzzle.dzn").write_text(data_text(puzzle))
    run = subprocess.run(
        ["minizinc", "--solver", "gecode", "sudoku.mzn", "puzzle.dzn"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    values = [
        int(word) for line in run.stdout.splitlines() if "-" not in line for word in line.split()
    ]
    with get_backend("dfs") as dfs:
        assert tuple(values) == dfs.solve(puzzle).solution.values
