"""XY-wing and XYZ-wing: a pivot cell and two pincers it sees; whichever value the pivot takes,
one of the three cells holds z, so z leaves every cell that sees all the cells holding it."""

from __future__ import annotations

from .board import Board, bits, bits_to_cells
from .steps import Step


def _pincers(board: Board, pivot: int) -> list[int]:
    """The peers of the pivot with exactly two candidates."""
    candidates = board.candidates
    return [
        cell
        for cell in bits_to_cells(board.sight.peers[pivot])
        if candidates[cell].bit_count() == 2
    ]


def xy_wing(board: Board) -> Step | None:
    """Pivot {x,y}, pincers {x,z} and {y,z}: z leaves the cells that see both pincers."""
    return _wing(board, pivot_size=2)


def xyz_wing(board: Board) -> Step | None:
    """Pivot {x,y,z}, pincers {x,z} and {y,z}: z leaves the cells that see all three."""
    return _wing(board, pivot_size=3)


def _wing(board: Board, pivot_size: int) -> Step | None:
    candidates = board.candidates
    for pivot, mask in enumerate(candidates):
        if mask.bit_count() != pivot_size:
            continue
        pincers = _pincers(board, pivot)
        for first_index, first in enumerate(pincers):
            for second in pincers[first_index + 1 :]:
                z = _wing_value(mask, candidates[first], candidates[second], pivot_size)
                if z is None:
                    continue
                holders = (first, second) if pivot_size == 2 else (pivot, first, second)
                bit = 1 << (z - 1)
                gone = tuple(
                    (cell, z)
                    for cell in board.sight.common(*holders)
                    if cell not in (pivot, first, second) and candidates[cell] & bit
                )
                if gone:
                    return Step(
                        "xy-wing" if pivot_size == 2 else "xyz-wing",
                        eliminations=gone,
                        cells=(pivot, first, second),
                        values=tuple(bits(mask | candidates[first] | candidates[second])),
                    )
    return None


def _wing_value(pivot: int, first: int, second: int, pivot_size: int) -> int | None:
    """z when the masks make a wing, else None."""
    if first == second:
        return None
    shared = first & second
    if shared.bit_count() != 1:
        return None
    if pivot_size == 2:
        # pivot {x,y}; pincers {x,z}, {y,z}; z not in the pivot
        if shared & pivot or (first | second) & ~shared != pivot:
            return None
    elif (first | second) != pivot:
        return None  # pivot {x,y,z}, pincers two of its pairs, sharing z
    return shared.bit_length()


__all__ = ["xy_wing", "xyz_wing"]
