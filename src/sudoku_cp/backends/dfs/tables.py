"""A shape's geometry flattened into tuples of ints for the inner loops of `dfs`, and the words
for a node: `Candidates`, one bitmask per cell (bit v-1 for value v; a single bit means the cell
is decided), and its `places`, per value the bitset of the cells that hold it.

`tables_of(size, box)` is computed once per shape.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from operator import itemgetter

from ...grid import Shape, geometry

Candidates = list[int]  # one bitmask per cell; a single bit means the cell is decided
Settled = tuple[Candidates, list[int]]  # candidates and their places (see `places_of`)
Choice = tuple[int, int]  # a cell and the bit of one of its values
Frame = tuple[Candidates, list[Choice]]  # a node and its untried choices, the next one last


@dataclass(frozen=True, eq=False)
class Segments:
    """Where boxes meet rows and columns (segments), flattened for locked candidates.

    For segment i: `getters[i](candidates)` gives its cells' masks; `line_of[i]` numbers its row
    or column, `box_of[i]` its box and direction (row segments and column segments of one box
    are two groups); `line_rest[i]` and `box_rest[i]` are the other cells of its line and box.
    """

    getters: tuple[Callable[[Candidates], tuple[int, ...]], ...]
    line_of: tuple[int, ...]
    box_of: tuple[int, ...]
    line_rest: tuple[tuple[int, ...], ...]
    box_rest: tuple[tuple[int, ...], ...]
    line_count: int
    box_count: int


@dataclass(frozen=True, eq=False)
class Tables:
    """Geometry flattened into tuples of ints for the inner loops."""

    size: int
    full: int  # every value's bit
    peers: tuple[tuple[int, ...], ...]
    units: tuple[tuple[int, ...], ...]
    units_of: tuple[tuple[tuple[int, ...], ...], ...]
    unit_set_of: tuple[int, ...]  # each cell's three units as a bitset of unit indices
    unit_masks: tuple[Callable[[Candidates], tuple[int, ...]], ...]  # each unit's masks
    peer_bits: tuple[int, ...]  # each cell's peers as a bitset of cells
    unit_bits: tuple[int, ...]  # each unit's cells as a bitset of cells
    segments: Segments  # every box ∩ row and box ∩ column, for locked candidates


@functools.cache
def tables_of(size: int, box: Shape) -> Tables:
    """The tables of a shape (computed once)."""
    geo = geometry(size, box)
    unit_set_of = tuple(
        sum(1 << index for index, unit in enumerate(geo.units) if cell in unit)
        for cell in geo.cells
    )
    return Tables(
        size,
        (1 << size) - 1,
        geo.peers,
        geo.units,
        geo.units_of,
        unit_set_of,
        geo.unit_getters,
        tuple(sum(1 << peer for peer in peers) for peers in geo.peers),
        tuple(sum(1 << cell for cell in unit) for unit in geo.units),
        segments_of(geo.rows + geo.columns, geo.boxes),
    )


def segments_of(lines: tuple[tuple[int, ...], ...], boxes: tuple[tuple[int, ...], ...]) -> Segments:
    """The box-line intersections of every row and column (`lines`: rows, then columns)."""
    getters, line_of, box_of, line_rest, box_rest = [], [], [], [], []
    row_count = len(lines) // 2
    for line_index, line in enumerate(lines):
        for box_index, box_cells in enumerate(boxes):
            cells = tuple(cell for cell in line if cell in box_cells)
            if not cells:
                continue
            getters.append(itemgetter(*cells))
            line_of.append(line_index)
            box_of.append(2 * box_index + (line_index >= row_count))
            line_rest.append(tuple(cell for cell in line if cell not in cells))
            box_rest.append(tuple(cell for cell in box_cells if cell not in cells))
    return Segments(
        tuple(getters),
        tuple(line_of),
        tuple(box_of),
        tuple(line_rest),
        tuple(box_rest),
        len(lines),
        2 * len(boxes),
    )


def places_of(candidates: Candidates, size: int) -> list[int]:
    """For each value index, the bitset of cells that hold it."""
    found = [0] * size
    for cell, mask in enumerate(candidates):
        here = 1 << cell
        while mask:
            low = mask & -mask
            mask ^= low
            found[low.bit_length() - 1] |= here
    return found


def cell_choices(cell: int, mask: int) -> list[Choice]:
    """The values of a cell as (cell, bit) choices, the smallest last (it is popped first)."""
    choices = []
    while mask:
        bit = mask & -mask
        choices.append((cell, bit))
        mask ^= bit
    choices.reverse()
    return choices


def first_undecided(candidates: Candidates, start: int) -> int:
    """The first cell from `start` on (row-major) with more than one candidate, or -1."""
    for cell in range(start, len(candidates)):
        mask = candidates[cell]
        if mask & (mask - 1):
            return cell
    return -1


def most_constrained(candidates: Candidates) -> int:
    """The undecided cell with the fewest candidates (first in row-major order), or -1."""
    best, best_count = -1, 1 << 30
    for cell, mask in enumerate(candidates):
        if mask & (mask - 1):
            count = mask.bit_count()
            if count < best_count:
                best, best_count = cell, count
                if count == 2:
                    break
    return best


def values_of(candidates: Candidates) -> tuple[int, ...]:
    """A completion's values (each mask a single bit)."""
    return tuple(mask.bit_length() for mask in candidates)
