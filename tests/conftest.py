"""Shared puzzles and helpers for the test suite."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudoku_cp.formats import InputPuzzle, read_puzzles
from sudoku_cp.grid import Grid

# The published contract suite's generators, shared with the tests (same seeds, same puzzles).
from sudoku_cp.testing import (  # noqa: F401
    brute_force_count,
    full_grid,  # noqa: F401
    random_multi_solution,
)

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
SHARED_DATA = ROOT.parent / "shared" / "data"
EXAMPLES = DATA / "examples"

BAEKJOON_2239 = "103000509002109400000704000300502006060000050700803004000401000009205800804000107"
BAEKJOON_2239_ANSWER = (
    "143628579572139468986754231391542786468917352725863914237481695619275843854396127"
)
EMPTY_9_LEXMIN = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
EMPTY_4 = "0" * 16
EMPTY_4_LEXMIN = "1234341221434321"
# Built to defeat naive row-major backtracking (69 M nodes); unique; starts 987654321.
ANTI_BACKTRACK = "000000000000003085001020000000507000004000100090000000500000073002010000000040009"
G17 = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
# Row 1 of the lex-min of the empty 16x16 is 1..16, row 2 is 5 6 7 8 1 2 3 4 13 14 15 16 9 10 11 12.
EMPTY_16_LEXMIN_ROWS_1_2 = "123456789ABCDEFG56781234DEFG9ABC"
# No repeated given, yet no completion: cell (1,1) needs a value, all of 1..4 are blocked.
UNSOLVABLE_4 = "0120300040000000"  # cell 0 sees 1,2 in its row and 3,4 in its column


def shared(name: str) -> Path:
    """A public puzzle set's verified file, by file or set name: fetched over real HTTP from a
    local mirror of ../shared/data, or taken from SUDOKU_CP_DATA or the user cache; the test is
    skipped only when none of them has it (never the internet)."""
    from .http_mirror import puzzle_set_path

    return puzzle_set_path(name.removesuffix(".txt"))


@pytest.fixture
def register():
    """`register(name, module, class)`: a backend in the registry for this test only, through
    the public `sudoku_cp.backends.registered` (forked workers inherit it)."""
    import contextlib

    from sudoku_cp.backends import registered

    with contextlib.ExitStack() as stack:
        yield lambda name, module, cls: stack.enter_context(registered(name, module, cls))


def naive_lexmin(grid: Grid, *, count_limit: int = 0) -> Grid | None:
    """The reference answer: the naive row-major DFS, values ascending, first full grid wins."""
    values = list(grid.values)
    geo = grid.geometry
    blanks = grid.blanks()

    def fits(cell: int, value: int) -> bool:
        return all(values[peer] != value for peer in geo.peers[cell])

    def search(k: int) -> bool:
        if k == len(blanks):
            return True
        cell = blanks[k]
        for value in range(1, grid.size + 1):
            if fits(cell, value):
                values[cell] = value
                if search(k + 1):
                    return True
        values[cell] = 0
        return False

    if grid.conflicts():
        return None
    return Grid(tuple(values), grid.box) if search(0) else None


def multi(seed: int) -> str:
    """A 9x9 puzzle (30 givens of a random grid: usually many completions), first cell blank."""
    values = list(random_multi_solution(9, 30, seed).values)
    values[0] = 0
    return "".join(map(str, values))


def records(*lines: str) -> list[InputPuzzle]:
    """The input puzzles of these lines, as read from p.txt."""
    return read_puzzles("\n".join(lines) + "\n", source="p.txt")[1]
