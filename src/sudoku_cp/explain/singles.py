"""The easiest techniques: hidden and naked singles, and locked candidates (pointing and
claiming). Each finder returns the first instance that makes progress on a board, or None."""

from __future__ import annotations

from ..grid import BLANK
from .board import Board, bits
from .steps import Step


def hidden_single(board: Board) -> Step | None:
    """A value with one place left in a unit goes there."""
    candidates = board.candidates
    for index, unit in enumerate(board.geo.units):
        once = twice = 0
        for cell in unit:
            mask = candidates[cell]
            twice |= once & mask
            once |= mask
        only = once & ~twice
        if only:
            bit = only & -only
            cell = next(cell for cell in unit if candidates[cell] & bit)
            value = bit.bit_length()
            return Step(
                "hidden single",
                placements=((cell, value),),
                cells=(cell,),
                values=(value,),
                units=(board.sight.unit_names[index],),
            )
    return None


def naked_single(board: Board) -> Step | None:
    """A cell with one candidate left holds it."""
    for cell, mask in enumerate(board.candidates):
        if mask and mask & (mask - 1) == 0:
            value = mask.bit_length()
            return Step("naked single", placements=((cell, value),), cells=(cell,), values=(value,))
    return None


def _locked(board: Board, technique: str, home: int, boxes: bool) -> Step | None:
    """Candidates of a value confined, within unit `home`, to its meeting with one box (or one
    row or column when `boxes` is false): the value leaves the rest of that unit."""
    geo, candidates = board.geo, board.candidates
    home_cells = geo.units[home]
    present = 0
    for cell in home_cells:
        present |= candidates[cell]
    for value in bits(present):
        bit = 1 << (value - 1)
        where = [cell for cell in home_cells if candidates[cell] & bit]
        first = where[0]
        if boxes:
            lines = [2 * geo.size + geo.box_of(first)]
        else:
            lines = [first // geo.size, geo.size + first % geo.size]
        for line in lines:
            line_cells = geo.units[line]
            if not all(cell in line_cells for cell in where):
                continue
            inside = set(home_cells)
            gone = tuple(
                (cell, value)
                for cell in line_cells
                if cell not in inside and candidates[cell] & bit
            )
            if gone:
                names = board.sight.unit_names
                return Step(
                    technique,
                    eliminations=gone,
                    cells=tuple(where),
                    values=(value,),
                    units=(names[home], names[line]),
                )
    return None


def pointing(board: Board) -> Step | None:
    """A box whose candidates for a value lie in one row or column: not elsewhere in that line."""
    n = board.size
    for box in range(2 * n, 3 * n):
        step = _locked(board, "pointing", box, boxes=False)
        if step is not None:
            return step
    return None


def claiming(board: Board) -> Step | None:
    """A row or column whose candidates for a value lie in one box: not elsewhere in that box."""
    n = board.size
    for line in range(0, 2 * n):
        step = _locked(board, "claiming", line, boxes=True)
        if step is not None:
            return step
    return None


def blank_cells(board: Board, unit: tuple[int, ...]) -> list[int]:
    return [cell for cell in unit if board.values[cell] == BLANK]


__all__ = ["blank_cells", "claiming", "hidden_single", "naked_single", "pointing"]
