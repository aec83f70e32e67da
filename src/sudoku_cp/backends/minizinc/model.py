"""The MiniZinc model of Sudoku (`sudoku.mzn`, shipped with the package) and a puzzle's data.

The model is what the `minizinc` backend runs and what `sudoku-cp encode --format mzn` writes;
`data_text(grid)` is the puzzle as MiniZinc data (`--format dzn`). The model's search
annotation (row-major `input_order`, `indomain_min`) is what makes its first solution the
lex-min: `LEXMIN_ARGUMENT` says why.
"""

from __future__ import annotations

import functools
from importlib import resources

from ...grid import Grid

MODEL_FILE = "sudoku.mzn"

LEXMIN_ARGUMENT = (
    "the model's search is int_search(cells in row-major order, input_order, indomain_min): "
    "a complete depth-first search that branches on the first unfixed cell, smallest value "
    "first, so it visits completions in lexicographic order and the first one it finds is "
    "the lex-min (propagation only removes values that are in no completion)"
)


@functools.cache
def model_text() -> str:
    """The MiniZinc model, as shipped (`sudoku.mzn`)."""
    return resources.files(__package__).joinpath(MODEL_FILE).read_text(encoding="utf-8")


def data_text(grid: Grid) -> str:
    """The puzzle as MiniZinc data for `model_text()`: the box shape and the givens (0 for a
    blank), row by row."""
    box_rows, box_cols = grid.box
    rows = "\n  | ".join(", ".join(str(value) for value in row) for row in grid.rows())
    return f"box_rows = {box_rows};\nbox_cols = {box_cols};\ngivens = [| {rows}\n  |];\n"
