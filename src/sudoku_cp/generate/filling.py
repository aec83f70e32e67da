"""Completed grids: a random first row and column filled by the dfs backend (up to 25x25) or the
pattern grid mixed by a walk of swap cycles (above), shuffled by a random symmetry; and the grid
operations the kinds share (swap cycles, transposition, relabelling)."""

from __future__ import annotations

import logging
import random

from ..backends import Backend, get_backend
from ..errors import GenerateError
from ..grid import BLANK, Grid, Shape, geometry
from ..result import Mode, Status
from ..text import article

log = logging.getLogger(__name__)

# A completed grid is filled by the dfs backend from a random first row and column, fast up to
# 25x25, so this limit only guards against a runaway search. Running out raises instead of
# falling back, so that the output never depends on the machine's speed.
FILL_TIME_LIMIT = 120.0
FILL_ATTEMPTS = 10  # first rows and columns drawn before giving up on a completed grid
# Above this size the dfs fill is not dependable (docs/decisions.md, "Generator: the fill and
# the givens"). So bigger grids start from the pattern grid and are mixed by a walk of random swap
# cycles (each step trades two values on one swap cycle, which keeps the grid valid), then
# shuffled like the others. No solver call at all.
PATTERN_FILL_ABOVE_SIZE = 25
SWAP_WALK_STEPS_PER_VALUE = 8  # walk length: this many steps per value


def random_completed_grid(
    rng: random.Random, size: int, *, box: Shape | None = None, filler: Backend | None = None
) -> Grid:
    """A random full grid: a random first row and first column completed by the dfs backend,
    then shuffled by a random symmetry (`shuffle_grid`). Above PATTERN_FILL_ABOVE_SIZE: the
    pattern grid mixed by a walk of swap cycles (`swap_walk`), then shuffled.

    Raises:
        GenerateError: when the dfs fill runs past FILL_TIME_LIMIT, or FILL_ATTEMPTS first rows
            and columns all fail to complete (neither has happened).
    """
    if size > PATTERN_FILL_ABOVE_SIZE:
        walked = swap_walk(pattern_grid(size, box=box), rng, steps=SWAP_WALK_STEPS_PER_VALUE * size)
        return shuffle_grid(walked, rng)
    solver = filler or get_backend("dfs")
    for _ in range(FILL_ATTEMPTS):
        seed_grid = random_first_row_and_column(rng, size, box=box)
        result = solver.solve(seed_grid, mode=Mode.ANY, time_limit=FILL_TIME_LIMIT)
        if result.status is Status.TIMEOUT:
            raise GenerateError(
                f"the dfs backend took over {FILL_TIME_LIMIT:g} s to complete "
                f"a random {size}x{size} grid"
            )
        if result.solution is not None:
            return shuffle_grid(result.solution, rng)
        log.info(
            "a random first row and column of %s %dx%d grid had no completion",
            article(size),
            size,
            size,
        )
    raise GenerateError(f"no completed {size}x{size} grid in {FILL_ATTEMPTS} tries")


def pattern_grid(size: int, *, box: Shape | None = None) -> Grid:
    """The completed grid whose cell (r, c) holds (C * (r mod R) + r div R + c) mod N + 1, for
    boxes of R rows and C columns (9x9: rows 123456789, 456789123, 789123456, 234567891, ...)."""
    geo = geometry(size, box)
    box_rows, box_cols = geo.box_rows, geo.box_cols
    return Grid(
        tuple(
            (box_cols * (row % box_rows) + row // box_rows + column) % size + 1
            for row in range(size)
            for column in range(size)
        ),
        geo.box_shape,
    )


def swap_walk(grid: Grid, rng: random.Random, *, steps: int) -> Grid:
    """The grid after `steps` random moves, each trading two random values on one random swap
    cycle of theirs (a move keeps every unit's values, so the grid stays complete and valid)."""
    for _ in range(steps):
        first, second = rng.sample(range(1, grid.size + 1), 2)
        cycle = rng.choice(swap_cycles(grid, first, second))
        grid = swapped(grid, cycle)
    return grid


def random_first_row_and_column(rng: random.Random, size: int, *, box: Shape | None = None) -> Grid:
    """A blank grid but for a random first row and a random first column that fit the boxes."""
    geo = geometry(size, box)
    values = [BLANK] * (size * size)
    first_row = rng.sample(range(1, size + 1), size)
    values[:size] = first_row
    # The column's cells inside the first box must avoid the values of that box's first row.
    in_first_box = set(first_row[: geo.box_cols])
    rest = [value for value in range(1, size + 1) if value != first_row[0]]
    top = rng.sample([value for value in rest if value not in in_first_box], geo.box_rows - 1)
    below = [value for value in rest if value not in top]
    rng.shuffle(below)
    for row, value in enumerate(top + below, start=1):
        values[row * size] = value
    return Grid.from_values(values, box=geo.box_shape)


def shuffle_grid(grid: Grid, rng: random.Random) -> Grid:
    """The grid under a random symmetry: values relabelled, rows within bands, bands, columns
    within stacks, stacks, and a transposition when the boxes are square.

    Every symmetry maps completions to completions, so a puzzle and its image have the same number
    of completions.
    """
    geo = grid.geometry
    size = grid.size
    relabel = [BLANK] + rng.sample(range(1, size + 1), size)
    rows = _shuffled_lines(rng, size, geo.box_rows)
    columns = _shuffled_lines(rng, size, geo.box_cols)
    values = [relabel[grid.values[row * size + column]] for row in rows for column in columns]
    shuffled = Grid(tuple(values), grid.box)
    if geo.box_rows == geo.box_cols and rng.random() < 0.5:
        return transpose(shuffled)
    return shuffled


def _shuffled_lines(rng: random.Random, size: int, band: int) -> list[int]:
    """Row (or column) indices: the bands of `band` lines in random order, each shuffled inside."""
    bands = rng.sample(range(size // band), size // band)
    return [b * band + line for b in bands for line in rng.sample(range(band), band)]


def transpose(grid: Grid) -> Grid:
    """Rows become columns (a symmetry only when the boxes are square)."""
    size = grid.size
    return Grid(
        tuple(grid.values[column * size + row] for row in range(size) for column in range(size)),
        grid.box[::-1],
    )


def relabel_first_row_descending(puzzle: Grid, solution: Grid) -> tuple[Grid, Grid]:
    """Puzzle and solution with values renamed so that the solution's first row reads N..1."""
    size = puzzle.size
    rename = [BLANK] * (size + 1)
    for column, value in enumerate(solution.values[:size]):
        rename[value] = size - column
    return (
        Grid(tuple(rename[v] for v in puzzle.values), puzzle.box),
        Grid(tuple(rename[v] for v in solution.values), solution.box),
    )


def swap_cycles(solution: Grid, first: int, second: int) -> list[list[int]]:
    """The groups of cells holding `first` or `second` whose two values can trade places.

    In each unit the cell of `first` and the cell of `second` are linked; a connected group swapped
    leaves every unit with both values once, so it turns the grid into another completed grid.
    """
    geo = solution.geometry
    cells = [cell for cell, value in enumerate(solution.values) if value in (first, second)]
    parent = {cell: cell for cell in cells}

    def root(cell: int) -> int:
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    for unit in geo.units:
        pair = [cell for cell in unit if solution.values[cell] in (first, second)]
        parent[root(pair[0])] = root(pair[1])
    groups: dict[int, list[int]] = {}
    for cell in cells:
        groups.setdefault(root(cell), []).append(cell)
    return list(groups.values())


def smallest_swap_cycle(solution: Grid, rng: random.Random) -> list[int]:
    """The cells of a smallest swap cycle over all pairs of values (ties broken at random)."""
    size = solution.size
    cycles = [
        cycle
        for first in range(1, size + 1)
        for second in range(first + 1, size + 1)
        for cycle in swap_cycles(solution, first, second)
    ]
    smallest = min(len(cycle) for cycle in cycles)
    return rng.choice([cycle for cycle in cycles if len(cycle) == smallest])


def swapped(solution: Grid, cycle: list[int]) -> Grid:
    """The completed grid with the two values of a swap cycle traded on its cells."""
    first, second = sorted({solution.values[cell] for cell in cycle})
    trade = {first: second, second: first}
    values = list(solution.values)
    for cell in cycle:
        values[cell] = trade[values[cell]]
    return Grid(tuple(values), solution.box)
