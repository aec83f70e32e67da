"""The pencil-mark board a person keeps: every cell's value, or its candidates as a bitmask
(bit v-1 set: v may still go there), for any size and box shape.

Placing a value removes it from the candidates of the cell's peers: that is part of the
placement, never a step of its own. A board is in contradiction when a blank cell has no
candidate left, or a unit has no place left for a value it lacks.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ..grid import BLANK, Geometry, Grid, value_symbol

Candidate = tuple[int, int]  # (cell, value)


def bits(mask: int) -> list[int]:
    """The values of a candidate mask, smallest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length())
        mask ^= low
    return found


def cell_name(cell: int, size: int) -> str:
    """'r3c4' (1-based)."""
    row, column = divmod(cell, size)
    return f"r{row + 1}c{column + 1}"


def candidate_name(cell: int, value: int, size: int) -> str:
    """'r3c4=5'."""
    return f"{cell_name(cell, size)}={value_symbol(value)}"


@dataclass(frozen=True, eq=False)
class Sight:
    """Per geometry: which cells each cell sees, as bitmasks over cells (bit c: cell c)."""

    peers: tuple[int, ...]
    unit_names: tuple[str, ...]  # in Geometry.units order

    def common(self, *cells: int) -> list[int]:
        """The cells that see every one of `cells` (none of them included)."""
        mask = -1
        for cell in cells:
            mask &= self.peers[cell]
        return bits_to_cells(mask)


def bits_to_cells(mask: int) -> list[int]:
    return [value - 1 for value in bits(mask)]


@functools.cache
def sight(geo: Geometry) -> Sight:
    peers = tuple(sum(1 << peer for peer in geo.peers[cell]) for cell in geo.cells)
    return Sight(peers, tuple(geo.name_unit(index) for index in range(len(geo.units))))


class Board:
    """Values and candidates of a grid under deduction; copied to reason under an assumption."""

    __slots__ = ("geo", "sight", "values", "candidates", "full")

    def __init__(self, geo: Geometry, values: list[int], candidates: list[int]) -> None:
        self.geo = geo
        self.sight = sight(geo)
        self.values = values
        self.candidates = candidates
        self.full = (1 << geo.size) - 1

    @classmethod
    def of(cls, grid: Grid) -> Board:
        """The board of a puzzle: every blank cell keeps the values no given peer holds."""
        geo = grid.geometry
        full = (1 << geo.size) - 1
        candidates = [full if value == BLANK else 0 for value in grid.values]
        board = cls(geo, [BLANK] * len(grid.values), candidates)
        for cell, value in grid.givens().items():
            board.place(cell, value)
        return board

    def copy(self) -> Board:
        return Board(self.geo, list(self.values), list(self.candidates))

    @property
    def size(self) -> int:
        return self.geo.size

    def place(self, cell: int, value: int) -> None:
        """Put a value in a cell, and strike it from the candidates of the cell's peers."""
        self.values[cell] = value
        self.candidates[cell] = 0
        keep = ~(1 << (value - 1))
        candidates = self.candidates
        for peer in self.geo.peers[cell]:
            candidates[peer] &= keep

    def eliminate(self, cell: int, value: int) -> None:
        self.candidates[cell] &= ~(1 << (value - 1))

    def apply(self, placements: tuple[Candidate, ...], eliminations: tuple[Candidate, ...]) -> None:
        for cell, value in eliminations:
            self.eliminate(cell, value)
        for cell, value in placements:
            if self.values[cell] == BLANK:
                self.place(cell, value)

    def solved(self) -> bool:
        return BLANK not in self.values

    def grid(self, box: tuple[int, int]) -> Grid:
        return Grid(tuple(self.values), box)

    def contradiction(self) -> str | None:
        """Why no completion can follow from here, or None when nothing shows it yet."""
        values, candidates = self.values, self.candidates
        for cell, mask in enumerate(candidates):
            if mask == 0 and values[cell] == BLANK:
                return f"{cell_name(cell, self.size)} has no candidate left"
        for index, unit in enumerate(self.geo.units):
            seen = 0
            for cell in unit:
                value = values[cell]
                seen |= candidates[cell] if value == BLANK else 1 << (value - 1)
            if seen != self.full:
                missing = bits(self.full & ~seen)[0]
                return (
                    f"{self.sight.unit_names[index]} has no place left for {value_symbol(missing)}"
                )
        return None


__all__ = ["Board", "Candidate", "bits", "candidate_name", "cell_name", "sight"]
