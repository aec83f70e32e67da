"""generate.filling: random completed grids of every size (above 25x25 a pattern and a swap
walk), shuffles, and swap cycles."""

from __future__ import annotations

import random

import pytest

from sudoku_cp.generate import random_completed_grid, shuffle_grid, swap_cycles
from sudoku_cp.grid import Grid

from .conftest import count, made


@pytest.mark.parametrize(
    "size, box", [(4, None), (6, (2, 3)), (6, (3, 2)), (9, None), (16, None), (25, None)]
)
def test_random_completed_grids_are_full_and_valid(size, box):
    rng = random.Random(size)
    grids = {random_completed_grid(rng, size, box=box) for _ in range(3)}
    assert len(grids) == 3
    for grid in grids:
        assert grid.is_complete() and grid.conflicts() == []
        assert grid.box == Grid.empty(size, box=box).box


def test_shuffle_keeps_a_grid_valid_and_a_puzzle_unique(dfs):
    rng = random.Random(1)
    full = random_completed_grid(rng, 9)
    assert shuffle_grid(full, rng).conflicts() == []
    puzzle = made("unique", 9, "24..28", count=1)[0].puzzle
    assert count(dfs, shuffle_grid(puzzle, rng), 2) == 1


def test_swapping_a_cycle_gives_another_completed_grid():
    full = random_completed_grid(random.Random(3), 9)
    for first, second in [(1, 2), (3, 7), (5, 9)]:
        cycles = swap_cycles(full, first, second)
        assert sorted(cell for cycle in cycles for cell in cycle) == sorted(
            cell for cell, value in enumerate(full.values) if value in (first, second)
        )
        for cycle in cycles:
            swapped = full.with_values({cell: first + second - full.values[cell] for cell in cycle})
            assert swapped != full and swapped.conflicts() == []


@pytest.mark.parametrize("size", [4, 6, 9, 12, 20, 30, 36])
def test_pattern_grid_is_complete_and_valid(size):
    from sudoku_cp.generate import pattern_grid

    grid = pattern_grid(size)
    assert is_full(grid) and not grid.conflicts()


def is_full(grid):
    return 0 not in grid.values


def test_swap_walk_keeps_the_grid_valid_and_moves_it():
    from sudoku_cp.generate import pattern_grid, swap_walk

    start = pattern_grid(12)
    walked = swap_walk(start, random.Random(3), steps=50)
    assert is_full(walked) and not walked.conflicts()
    assert walked != start
    assert swap_walk(start, random.Random(3), steps=50) == walked  # same seed, same grid


def test_swapped_twin_is_a_second_completion():
    from sudoku_cp.generate import smallest_swap_cycle, swapped

    solution = random_completed_grid(random.Random(4), 30)
    cycle = smallest_swap_cycle(solution, random.Random(4))
    twin = swapped(solution, cycle)
    assert twin != solution and not twin.conflicts() and 0 not in twin.values
    assert sum(a != b for a, b in zip(solution.values, twin.values, strict=True)) == len(cycle)
