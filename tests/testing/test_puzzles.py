"""testing.puzzles: the contract suite's puzzles are what they say: the known answers solve
their puzzles, the lex-mins are the naive search's, the unsolvable 4x4 has no completion and no
clash, the random puzzles are reproducible, and the written-down counts are brute-force counts."""

from __future__ import annotations

import random

import pytest

from sudoku_cp.grid import Grid
from sudoku_cp.testing import (
    BAEKJOON_2239,
    BAEKJOON_2239_ANSWER,
    COUNT_LIMIT,
    KNOWN_COUNTS,
    UNSOLVABLE_4,
    brute_force_count,
    count_batch,
    full_grid,
    random_multi_solution,
)
from sudoku_cp.testing.puzzles import SOLVED_GRIDS, naive_lexmin


def test_the_known_answers_are_the_lexmins_of_their_puzzles() -> None:
    puzzle, answer = Grid.parse(BAEKJOON_2239), Grid.parse(BAEKJOON_2239_ANSWER)
    assert answer.is_solution_of(puzzle) and naive_lexmin(puzzle) == answer
    for size, line in SOLVED_GRIDS.items():
        assert Grid.parse(line).is_complete() and not Grid.parse(line).conflicts(), size
        if size != 9:  # the empty grid's lex-min
            assert naive_lexmin(Grid.empty(size)) == Grid.parse(line)


def test_the_unsolvable_4x4_has_no_clash_and_no_completion() -> None:
    puzzle = Grid.parse(UNSOLVABLE_4)
    assert puzzle.conflicts() == [] and brute_force_count(puzzle, 1) == 0


@pytest.mark.parametrize("size, box", [(4, None), (6, (3, 2)), (9, None), (16, None)])
def test_random_puzzles_are_reproducible_with_the_givens_asked(size: int, box) -> None:
    puzzle = random_multi_solution(size, size, 7, box=box)
    assert (
        puzzle
        == random_multi_solution(size, size, 7, box=box)
        != random_multi_solution(size, size, 8, box=box)
    )
    assert len(puzzle.givens()) == size and not puzzle.conflicts()
    full = full_grid(size, random.Random(3), box=box)
    assert full.is_complete() and not full.conflicts() and full.box == puzzle.box


def test_known_counts_are_brute_force_counts():
    for (givens, seed), puzzle in zip(KNOWN_COUNTS, count_batch(), strict=True):
        if (givens, seed) != (28, 25):  # the slow one
            assert brute_force_count(puzzle, COUNT_LIMIT) == KNOWN_COUNTS[givens, seed]
