"""Singles: the complete fixpoint, scanned (`singles`) and bit-parallel (`settle`)."""

import random

import pytest

from sudoku_cp.backends.dfs.singles import settle, singles
from sudoku_cp.backends.dfs.tables import places_of
from sudoku_cp.grid import Grid

from ...conftest import random_multi_solution
from .conftest import parts


def _singles_fixpoint(candidates, tables):
    """Naked and hidden singles applied one at a time until nothing changes, or None."""
    masks = list(candidates)
    changed = True
    while changed:
        changed = False
        for cell, mask in enumerate(masks):
            if mask and not mask & (mask - 1):
                for peer in tables.peers[cell]:
                    if masks[peer] & mask:
                        masks[peer] &= ~mask
                        changed = True
        if 0 in masks:
            return None
        for unit in tables.units:
            for value in range(tables.size):
                places = [cell for cell in unit if masks[cell] >> value & 1]
                if not places:
                    return None
                if len(places) == 1 and masks[places[0]] != 1 << value:
                    masks[places[0]] = 1 << value
                    changed = True
    return masks


def _two_values_one_cell(candidates, tables):
    """Whether some unit has an open cell that is the only place of two of its values."""
    for unit in tables.units:
        for cell in unit:
            mask = candidates[cell]
            alone = [
                value
                for value in range(tables.size)
                if mask >> value & 1
                and not any(candidates[other] >> value & 1 for other in unit if other != cell)
            ]
            if len(alone) >= 2:
                return True
    return False


def test_settle_refutes_a_cell_that_is_the_one_place_of_two_values():
    # Row 0 of a 4x4 (the rest open): once 1 leaves cell 1 and 2 leaves cell 2, values 1 and 2
    # fit only in cell 0, which can take one of them. settle() refutes it; singles() leaves it
    # to the search (its docstring says why), whose two children of cell 0 both fail.
    propagation = parts(Grid.empty(4)).propagation
    tables = propagation.tables
    start = [0b0011, 0b1101, 0b1110, 0b1100] + [0b1111] * 12
    removals = [(1, 0b0001), (2, 0b0010)]
    assert settle(tables, start, places_of(start, 4), removals) is None
    narrowed = [0b0011, 0b1100, 0b1100, 0b1100] + [0b1111] * 12
    assert _two_values_one_cell(narrowed, tables)
    assert singles(tables, narrowed, [], (1 << len(tables.units)) - 1)
    assert propagation.assume(narrowed, 0, 0b0001) is None
    assert propagation.assume(narrowed, 0, 0b0010) is None


@pytest.mark.parametrize("seed", range(60))
def test_settle_and_singles_reach_the_same_fixpoint(seed):
    # Random removals from a propagated multi-solution grid, some of them contradictory (8 of
    # the 60): the bit-parallel `settle` and the scanning `singles` both reach the one fixpoint
    # of the rules, or both refute it (`singles` may leave one kind of contradiction open).
    rng = random.Random(3000 + seed)
    size, box = rng.choice([(4, (2, 2)), (6, (2, 3)), (9, (3, 3)), (16, (4, 4))])
    puzzle = random_multi_solution(
        size, rng.randint(size * size // 5, size * size // 2), seed, box=box
    )
    propagation = parts(puzzle, strong=True).propagation
    tables = propagation.tables
    start = _singles_fixpoint(propagation.initial_candidates(), tables)
    assert start is not None
    places = places_of(start, size)
    assert places == [
        sum(1 << cell for cell, mask in enumerate(start) if mask >> value & 1)
        for value in range(size)
    ]
    open_cells = [cell for cell, mask in enumerate(start) if mask & (mask - 1)]
    removals = []
    for cell in rng.sample(open_cells, min(len(open_cells), rng.randint(1, 4))):
        mask = start[cell]
        if rng.random() < 0.5:
            removals.append((cell, mask & -mask))  # one value leaves the cell
        else:
            keep = 1 << rng.choice([value for value in range(size) if mask >> value & 1])
            removals.append((cell, mask & ~keep))  # the cell is set to one value
    narrowed = start[:]
    for cell, bits in removals:
        narrowed[cell] &= ~bits
    expected = None if 0 in narrowed else _singles_fixpoint(narrowed, tables)
    settled = settle(tables, start, places, removals)
    if expected is None:
        assert settled is None
    else:
        assert settled is not None
        assert settled[0] == expected and settled[1] == places_of(expected, size)
    scanned = narrowed[:]
    every_unit = (1 << len(tables.units)) - 1
    decided = [cell for cell, mask in enumerate(scanned) if mask and not mask & (mask - 1)]
    holds = 0 not in narrowed and singles(tables, scanned, decided, every_unit)
    if expected is not None:
        assert holds and scanned == expected
    else:  # refuted, or stopped at the one contradiction singles() leaves to the search
        assert not holds or _two_values_one_cell(scanned, tables)
    assert start == _singles_fixpoint(start, tables)  # settle works on copies
