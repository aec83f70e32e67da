"""Naked and hidden subsets (pairs, triples, quads) in a unit, and the fish (X-wing, swordfish,
jellyfish) of a value across rows or columns."""

from __future__ import annotations

import itertools
from collections.abc import Callable

from .board import Board, bits
from .steps import Step

NAMES = {2: "pair", 3: "triple", 4: "quad"}
FISH = {2: "x-wing", 3: "swordfish", 4: "jellyfish"}


def naked(size: int) -> Callable[[Board], Step | None]:
    """k cells of a unit whose candidates together are k values: those values leave the rest."""

    def find(board: Board) -> Step | None:
        candidates = board.candidates
        for index, unit in enumerate(board.geo.units):
            small = [cell for cell in unit if 1 < candidates[cell].bit_count() <= size]
            if len(small) < size:
                continue
            for group in itertools.combinations(small, size):
                union = 0
                for cell in group:
                    union |= candidates[cell]
                if union.bit_count() != size:
                    continue
                gone = tuple(
                    (cell, value)
                    for cell in unit
                    if cell not in group
                    for value in bits(candidates[cell] & union)
                )
                if gone:
                    return Step(
                        f"naked {NAMES[size]}",
                        eliminations=gone,
                        cells=group,
                        values=tuple(bits(union)),
                        units=(board.sight.unit_names[index],),
                    )
        return None

    return find


def hidden(size: int) -> Callable[[Board], Step | None]:
    """k values of a unit with k cells left between them: those cells hold nothing else."""

    def find(board: Board) -> Step | None:
        candidates = board.candidates
        for index, unit in enumerate(board.geo.units):
            places: dict[int, int] = {}  # value -> mask over positions in the unit
            for position, cell in enumerate(unit):
                for value in bits(candidates[cell]):
                    places[value] = places.get(value, 0) | 1 << position
            few = [value for value, where in places.items() if 1 < where.bit_count() <= size]
            if len(few) < size or len(places) <= size:
                continue
            for group in itertools.combinations(sorted(few), size):
                union = 0
                for value in group:
                    union |= places[value]
                if union.bit_count() != size:
                    continue
                keep = sum(1 << (value - 1) for value in group)
                cells = tuple(unit[position - 1] for position in bits(union))
                gone = tuple(
                    (cell, value) for cell in cells for value in bits(candidates[cell] & ~keep)
                )
                if gone:
                    return Step(
                        f"hidden {NAMES[size]}",
                        eliminations=gone,
                        cells=cells,
                        values=group,
                        units=(board.sight.unit_names[index],),
                    )
        return None

    return find


def fish(size: int) -> Callable[[Board], Step | None]:
    """k rows whose candidates for a value lie in k columns: the value leaves the rest of those
    columns (and the same with rows and columns swapped)."""

    def find(board: Board) -> Step | None:
        n = board.size
        for value in range(1, n + 1):
            for across_rows in (True, False):
                step = _fish(board, size, value, across_rows)
                if step is not None:
                    return step
        return None

    return find


def _fish(board: Board, size: int, value: int, across_rows: bool) -> Step | None:
    n, candidates = board.size, board.candidates
    bit = 1 << (value - 1)

    def cell(line: int, position: int) -> int:
        return line * n + position if across_rows else position * n + line

    lines: dict[int, int] = {}  # base line -> mask over cover positions
    for line in range(n):
        where = sum(
            1 << position for position in range(n) if candidates[cell(line, position)] & bit
        )
        if 1 < where.bit_count() <= size:
            lines[line] = where
    for group in itertools.combinations(sorted(lines), size):
        union = 0
        for line in group:
            union |= lines[line]
        if union.bit_count() != size:
            continue
        covers = [position - 1 for position in bits(union)]
        gone = tuple(
            (cell(line, position), value)
            for position in covers
            for line in range(n)
            if line not in group and candidates[cell(line, position)] & bit
        )
        if gone:
            base, cover = ("row", "column") if across_rows else ("column", "row")
            return Step(
                FISH[size],
                eliminations=tuple(sorted(gone)),
                cells=tuple(
                    cell(line, position)
                    for line in group
                    for position in covers
                    if candidates[cell(line, position)] & bit
                ),
                values=(value,),
                units=tuple(f"{base} {line + 1}" for line in group)
                + tuple(f"{cover} {position + 1}" for position in covers),
            )
    return None


__all__ = ["fish", "hidden", "naked"]
