import itertools
import random

import pytest

from sudoku_cp.backends.dfs.propagation import Propagation
from sudoku_cp.backends.dfs.strong import consistent, locked_candidates
from sudoku_cp.grid import Grid

from .conftest import generated, parts

# -- locked candidates (pointing and claiming) ----------------------------------------------------


def test_locked_candidates_point_and_claim():
    # Box 1 keeps 1 only in row 1 (pointing): 1 leaves the rest of row 1.
    # Column 9 keeps 2 only in box 9 (claiming): 2 leaves the rest of box 9.
    tables = Propagation(Grid.empty(9), strong=True).tables
    full = tables.full
    candidates = [full] * 81
    for cell in (9, 10, 11, 18, 19, 20):
        candidates[cell] &= ~1
    for row in range(6):
        candidates[row * 9 + 8] &= ~2
    decided: list[int] = []
    dirty = locked_candidates(tables, candidates, decided)
    assert dirty > 0
    assert all(not candidates[cell] & 1 for cell in range(3, 9))
    assert all(candidates[cell] & 1 for cell in range(3))
    assert all(not candidates[row * 9 + col] & 2 for row in (6, 7, 8) for col in (6, 7))
    assert candidates[6 * 9 + 8] & 2
    # The dirty units are those of the changed cells: row 1 and boxes 2, 3 (pointing), box 9.
    units = tables.units
    changed = {index for index in range(len(units)) if dirty >> index & 1}
    assert all(any(cell in units[index] for index in changed) for cell in (3, 8, 60, 70))
    untouched_box = {27, 28, 29, 36, 37, 38, 45, 46, 47}  # box 4: none of its cells changed
    assert not any(set(units[index]) == untouched_box for index in changed)


def test_locked_candidates_report_a_contradiction():
    tables = Propagation(Grid.empty(9), strong=True).tables
    candidates = [tables.full] * 81
    for cell in (9, 10, 11, 18, 19, 20):
        candidates[cell] &= ~1  # 1 must be in row 1 within box 1 ...
    candidates[3] = 1  # ... yet cell (1, 4) can only be 1: pointing empties it
    assert locked_candidates(tables, candidates, []) == -1


# -- all-different consistency (Régin's matching rule) --------------------------------------------


def _brute_consistent(masks):
    """The masks less every value that no assignment of distinct values to the cells allows."""
    size = len(masks)
    keep = [0] * size
    for values in itertools.permutations(range(size)):
        if all(masks[cell] >> value & 1 for cell, value in enumerate(values)):
            for cell, value in enumerate(values):
                keep[cell] |= 1 << value
    return tuple(keep) if any(keep) else ()


def test_consistent_removes_naked_and_hidden_pairs():
    # Cells 0 and 1 hold {1, 2} only (a naked pair): 1 and 2 leave cells 2 and 3.
    assert consistent((0b0011, 0b0011, 0b1111, 0b1111)) == (0b0011, 0b0011, 0b1100, 0b1100)
    # 3 and 4 fit only in cells 2 and 3 (a hidden pair): the rest of those cells goes.
    assert consistent((0b0011, 0b0011, 0b1111, 0b1101)) == (0b0011, 0b0011, 0b1100, 0b1100)
    # Three cells share two values: no assignment at all.
    assert consistent((0b0011, 0b0011, 0b0011, 0b1111)) == ()
    untouched = (0b1111, 0b1111, 0b1111, 0b1111)
    assert consistent(untouched) is untouched  # the same tuple: nothing to remove


def _unit_at_singles_fixpoint(rng, size):
    """Random masks of one unit, as propagation leaves them: no decided value elsewhere in the
    unit, no value with one place left. None when singles find a contradiction."""
    full = (1 << size) - 1
    masks = [rng.randrange(1, full + 1) for _ in range(size)]
    for cell in rng.sample(range(size), rng.randint(0, 2)):
        masks[cell] = 1 << rng.randrange(size)
    changed = True
    while changed:
        changed = False
        for cell, mask in enumerate(masks):
            if mask and not mask & (mask - 1):
                for other in range(size):
                    if other != cell and masks[other] & mask:
                        masks[other] &= ~mask
                        changed = True
        for value in range(size):
            places = [cell for cell in range(size) if masks[cell] >> value & 1]
            if not places or 0 in masks:
                return None
            if len(places) == 1 and masks[places[0]] != 1 << value:
                masks[places[0]] = 1 << value
                changed = True
    return tuple(masks)


@pytest.mark.parametrize("seed", range(300))
def test_consistent_equals_brute_force(seed):
    rng = random.Random(seed)
    masks = None
    while masks is None:
        masks = _unit_at_singles_fixpoint(rng, rng.randint(3, 7))
    assert consistent(masks) == _brute_consistent(masks)


def test_matching_cuts_the_unique_25x25_search():
    # unique-25x25 #2: the look-ahead alone needs 42 nodes to prove it unique, with matching 28.
    line = generated("unique-25x25.txt")[1]
    with_matching = parts(Grid.parse(line), strong=True)
    without = parts(Grid.parse(line), strong=True)
    without.propagation.matching = False
    found = []
    for puzzle in (with_matching, without):
        candidates = puzzle.propagation.initial_candidates()
        assert candidates is not None
        found.append(list(puzzle.search.completions(candidates)))
    assert len(found[0]) == 1 and found[0] == found[1]
    assert with_matching.search.nodes < without.search.nodes
