"""generate.removal: the unique kind, givens removed while the puzzle stays unique down to a
minimal puzzle, and the exchange search that goes below one."""

from __future__ import annotations

import random
import re

import pytest

from sudoku_cp.generate import (
    exchange_givens,
    generate,
    is_forced,
    make_request,
    random_completed_grid,
)
from sudoku_cp.grid import BLANK, Grid
from sudoku_cp.result import Mode

from .conftest import count, made, minimal_puzzle, usable


@pytest.mark.parametrize(
    "size, givens, box",
    [(4, "4..8", None), (6, "9..16", None), (6, "9..16", (3, 2)), (9, "22..32", None)],
)
def test_unique_puzzles_have_one_completion(dfs, size, givens, box):
    for generated in made("unique", size, givens, box=box):
        assert count(dfs, generated.puzzle, 2) == 1
        assert generated.solution.is_solution_of(generated.puzzle)
        assert generated.puzzle.box == generated.solution.box == (box or generated.puzzle.box)
        assert not generated.puzzle.conflicts()
        assert generated.completions == 1


def test_unique_stops_at_a_minimal_puzzle_when_the_range_is_too_low(dfs):
    for generated in made("unique", 9, "0..5", count=2):
        assert generated.givens > 5  # no 9x9 puzzle with 5 givens is unique
        for cell in generated.puzzle.givens():  # every given is needed
            assert count(dfs, generated.puzzle.with_values({cell: 0}), 2) == 2


def test_a_forced_given_is_recognised():
    full = list(random_completed_grid(random.Random(4), 4).values)
    geometry = Grid.empty(4).geometry
    assert is_forced(full, 0, geometry.peers[0], 4)  # a full grid forces every cell
    assert not is_forced([0] * 16, 0, geometry.peers[0], 4)


def test_exchange_goes_below_a_minimal_16x16(dfs, second, sat_checks):
    # Random removal ends near 93 givens on every 16x16 grid; the exchange search keeps the
    # puzzle unique and goes lower (95 -> 89 on this seed).
    solution, values, witnesses, rng = minimal_puzzle(16, 0, sat_checks, dfs)
    minimal = sum(value != BLANK for value in values)
    exchange_givens(solution, values, witnesses, rng, sat_checks, target=0, moves=256)
    assert sum(value != BLANK for value in values) < minimal
    puzzle = Grid(tuple(values), solution.box)
    assert second.solve(puzzle, mode=Mode.COUNT, limit=2).count == 1  # dfs takes seconds here


def test_a_sparse_16x16_run_is_deterministic_and_unique(second):
    # Through generate(): the range lies below random removal's minimal puzzles, so the exchange
    # search runs; the same seed gives the same puzzle, and it has one completion.
    if not usable("sat"):
        pytest.skip("the sat backend is not installed")
    request = make_request("unique", size=16, givens="87..89", seed=1, count=1)
    seen: list[str] = []
    first = list(generate(request, on_progress=lambda effort: seen.append(effort.note())))
    again = list(generate(request))
    assert [p.puzzle for p in first] == [p.puzzle for p in again]
    (made,) = first
    assert second.solve(made.puzzle, mode=Mode.COUNT, limit=2).count == 1
    assert made.givens in request.givens
    assert any(note.startswith("exchanging givens") for note in seen)
    assert re.fullmatch(r"exchanging givens, \d+ left; \d+ questions, \d+\.\d s", seen[-1])
