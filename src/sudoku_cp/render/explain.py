"""An explanation as text: a headline, one numbered line per step (a contradiction's chain
indented under it), and the grid with pencil marks after a chosen step, in 80 columns: each
cell a small block of its candidates when that fits, else one line per blank cell."""

from __future__ import annotations

import textwrap

from ..explain.board import Board, bits, cell_name
from ..explain.steps import Explanation, Step
from ..grid import BLANK, Grid, value_symbol
from ..text import plural

WIDTH = 80


def headline(explanation: Explanation) -> str:
    """'solved in 52 steps, rating 3 (hidden pair)' or 'stuck after 12 steps, ...'."""
    count = plural(len(explanation.steps), "step")
    rating = explanation.rating
    status = {
        "solved": f"solved in {count}",
        "stuck": f"stuck after {count}",
        "unsatisfiable": f"unsatisfiable after {count} ({explanation.contradiction})",
    }[explanation.status]
    return f"{status}, rating {rating.level} ({rating.technique})"


def step_lines(steps: list[Step], size: int, indent: str = "  ") -> list[str]:
    """One numbered item per step, wrapped at 80 columns; a contradiction's chain under it."""
    lines = []
    for number, step in enumerate(steps, start=1):
        head = f"{indent}{number}. "
        text = textwrap.fill(
            step.describe(size),
            WIDTH,
            initial_indent=head,
            subsequent_indent=" " * len(head),
            break_long_words=False,
        )
        lines += text.splitlines()
        if step.chain:
            lines += step_lines(list(step.chain), size, indent + "     ")
    return lines


def board_after(grid: Grid, steps: list[Step]) -> Board:
    """The board once the steps are applied."""
    board = Board.of(grid)
    for step in steps:
        board.apply(step.placements, step.eliminations)
    return board


def pencil_marks(board: Board) -> str:
    """The grid with every blank cell's candidates, fitting 80 columns."""
    drawn = _blocks(board)
    if max(len(line) for line in drawn) <= WIDTH:
        return "\n".join(drawn)
    return _listed(board)


def _blocks(board: Board) -> list[str]:
    """Each cell a box_rows x box_cols block of symbols: candidate v at its place in the block,
    a placed value in the middle of an empty block."""
    geo = board.geo
    height, width = geo.box_rows, geo.box_cols
    lines: list[str] = []
    rule = "+".join("-" * ((width + 1) * geo.box_cols + 1) for _ in range(geo.size // geo.box_cols))
    for row in range(geo.size):
        if row % geo.box_rows == 0:
            lines.append("+" + rule + "+")
        for inner in range(height):
            chunks = []
            for column in range(geo.size):
                chunks.append(_block_line(board, row * geo.size + column, inner, height, width))
            parts = [
                " " + " ".join(chunks[start : start + geo.box_cols]) + " "
                for start in range(0, geo.size, geo.box_cols)
            ]
            lines.append("|" + "|".join(parts) + "|")
        if row % geo.box_rows < geo.box_rows - 1:
            lines.append("|" + "|".join(" " * len(part) for part in rule.split("+")) + "|")
    lines.append("+" + rule + "+")
    return lines


def _block_line(board: Board, cell: int, inner: int, height: int, width: int) -> str:
    value = board.values[cell]
    if value != BLANK:
        if inner != height // 2:
            return " " * width
        return value_symbol(value).center(width) if width > 1 else value_symbol(value)
    mask = board.candidates[cell]
    symbols = []
    for offset in range(width):
        candidate = inner * width + offset + 1
        symbols.append(value_symbol(candidate) if mask >> (candidate - 1) & 1 else ".")
    return "".join(symbols)


def _listed(board: Board) -> str:
    """The values as a picture, then each blank cell's candidates, wrapped at 80 columns."""
    picture = board.grid(board.geo.box_shape).picture()
    lines = [picture, ""] if max(map(len, picture.splitlines())) <= WIDTH else []
    line = ""
    for cell, mask in enumerate(board.candidates):
        if board.values[cell] != BLANK:
            continue
        item = f"{cell_name(cell, board.size)}:{''.join(value_symbol(v) for v in bits(mask))}"
        if line and len(line) + 1 + len(item) > WIDTH:
            lines.append(line)
            line = ""
        line = f"{line} {item}" if line else item
    if line:
        lines.append(line)
    return "\n".join(lines)


def core_picture(core_grid: Grid, givens: int) -> str:
    """The unsatisfiable core as a grid holding only its givens, under a headline."""
    count = plural(len(core_grid.givens()), "given")
    return f"no completion: a minimal core of {count} (of {givens}):\n{core_grid.picture()}"


__all__ = ["board_after", "core_picture", "headline", "pencil_marks", "step_lines"]
