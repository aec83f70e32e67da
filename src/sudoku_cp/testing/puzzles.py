"""The contract suite's puzzles: known puzzles with their answers, seeded random puzzles, and the
references an answer is held to (the naive row-major DFS of `sudoku_cp.naive`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from ..generate import pattern_grid
from ..grid import Grid, Shape
from ..naive import naive_count, naive_solve

BAEKJOON_2239 = "103000509002109400000704000300502006060000050700803004000401000009205800804000107"
BAEKJOON_2239_ANSWER = (
    "143628579572139468986754231391542786468917352725863914237481695619275843854396127"
)
EMPTY_4_LEXMIN = "1234341221434321"
EMPTY_6_LEXMIN = "123456456123214365365214531642642531"
EMPTY_9_LEXMIN = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
# Row 1 of the lex-min of the empty 16x16 is 1..16, row 2 is 5 6 7 8 1 2 3 4 13 14 15 16 9 10 11 12.
EMPTY_16_LEXMIN_ROWS_1_2 = "123456789ABCDEFG56781234DEFG9ABC"
# Built to defeat naive row-major backtracking; unique; starts 987654321.
ANTI_BACKTRACK = "000000000000003085001020000000507000004000100090000000500000073002010000000040009"
G17 = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
# No repeated given, yet no completion: cell (1,1) sees 1, 2 in its row and 3, 4 in its column.
UNSOLVABLE_4 = "0120300040000000"
SOLVED_GRIDS = {4: EMPTY_4_LEXMIN, 6: EMPTY_6_LEXMIN, 9: BAEKJOON_2239_ANSWER}

# A batch of random 9x9 puzzles, (givens, seed) -> completions counted up to COUNT_LIMIT by
# brute_force_count: counts that differ, so a backend that returns the wrong puzzle's count, or
# a warm backend that keeps a count from the previous puzzle, shows. Written down because the
# naive count of (28, 25) is slow.
COUNT_LIMIT = 10
KNOWN_COUNTS: Mapping[tuple[int, int], int] = {
    (28, 20): 10,
    (28, 21): 10,
    (28, 22): 10,
    (28, 23): 10,
    (28, 24): 10,
    (28, 25): 10,
    (36, 56): 1,
    (38, 53): 3,
    (34, 44): 6,
    (34, 48): 8,
}
# The quick suite's batch: the puzzles a naive search counts at once.
QUICK_BATCH = ((28, 20), (28, 24), (36, 56), (38, 53), (34, 44), (34, 48))


def random_multi_solution(size: int, givens: int, seed: int, *, box: Shape | None = None) -> Grid:
    """A random puzzle with `givens` clues taken from a random full grid (often many solutions);
    the same (size, givens, seed) always gives the same puzzle."""
    rng = random.Random(seed)
    solution = full_grid(size, rng, box=box)
    cells = rng.sample(range(size * size), givens)
    return solution.with_values({cell: 0 for cell in range(size * size) if cell not in cells})


def full_grid(size: int, rng: random.Random, *, box: Shape | None = None) -> Grid:
    """A random completed grid: the pattern grid with shuffled values, rows in bands and bands."""
    box_rows, box_cols = Grid.empty(size, box=box).box
    pattern = pattern_grid(size, box=box).values

    bands = rng.sample(range(size // box_rows), size // box_rows)
    rows = [b * box_rows + r for b in bands for r in rng.sample(range(box_rows), box_rows)]
    stacks = rng.sample(range(size // box_cols), size // box_cols)
    cols = [s * box_cols + c for s in stacks for c in rng.sample(range(box_cols), box_cols)]
    values = rng.sample(range(1, size + 1), size)
    return Grid.from_values(
        [values[pattern[r * size + c] - 1] for r in rows for c in cols], box=box
    )


def count_batch(keys: Sequence[tuple[int, int]] = tuple(KNOWN_COUNTS)) -> list[Grid]:
    """The 9x9 puzzles of KNOWN_COUNTS (or of the (givens, seed) keys given), in order."""
    return [random_multi_solution(9, givens, seed) for givens, seed in keys]


def naive_lexmin(grid: Grid) -> Grid | None:
    """The reference lex-min: the naive row-major DFS of `sudoku_cp.naive`."""
    return naive_solve(grid).solution


def brute_force_count(grid: Grid, limit: int) -> int:
    """Completions counted by the naive row-major DFS of `sudoku_cp.naive`, up to `limit`."""
    return naive_count(grid, limit)
