"""certify.encoding: the certificate CNF's one property, checked against brute force on small
puzzles (every completion satisfies the clauses; smaller-than and blocking leave exactly the
right completions)."""

from __future__ import annotations

import pytest

from sudoku_cp.certify import encoding
from sudoku_cp.grid import Grid

from ..conftest import G17, UNSOLVABLE_4
from .conftest import SMALL_PUZZLES, completions

pytest.importorskip("dratify")


def satisfiable(formula: encoding.Formula) -> bool:
    from pysat.solvers import Solver

    with Solver(name="minisat22", bootstrap_with=formula.clauses) as solver:
        return bool(solver.solve())


def one_hot(grid: Grid) -> set[int]:
    return {cell * grid.size + value for cell, value in enumerate(grid.values)}


def holds(clause: list[int], true: set[int]) -> bool:
    return any((literal in true) if literal > 0 else (-literal not in true) for literal in clause)


@pytest.mark.parametrize("puzzle", SMALL_PUZZLES, ids=lambda grid: grid.to_line())
def test_every_completion_satisfies_the_completion_clauses(puzzle: Grid) -> None:
    formula = encoding.completion_formula(puzzle)
    every = completions(puzzle)
    assert every, "the test wants satisfiable puzzles"
    for completion in every:
        true = one_hot(completion)
        assert all(holds(clause, true) for clause in formula.clauses)
        assert formula.completion(sorted(true)) == completion
        assert all(
            value in cands
            for value, cands in zip(completion.values, formula.candidates, strict=True)
        )


@pytest.mark.parametrize("puzzle", SMALL_PUZZLES, ids=lambda grid: grid.to_line())
def test_smaller_than_is_satisfiable_exactly_above_the_lexmin(puzzle: Grid) -> None:
    every = completions(puzzle)
    for position, completion in enumerate(every[:12]):
        formula = encoding.lexmin_formula(puzzle, completion)
        assert satisfiable(formula) == (position > 0), completion.to_line()


@pytest.mark.parametrize("puzzle", SMALL_PUZZLES, ids=lambda grid: grid.to_line())
def test_blocking_leaves_exactly_the_other_completions(puzzle: Grid) -> None:
    every = completions(puzzle)[:20]
    assert not satisfiable(encoding.count_formula(puzzle, completions(puzzle)))
    if len(completions(puzzle)) > len(every):
        assert satisfiable(encoding.count_formula(puzzle, every))
    assert satisfiable(encoding.count_formula(puzzle, every[:-1]))


def test_conflicting_givens_and_a_blocked_cell_are_refuted_by_the_clauses() -> None:
    assert not satisfiable(encoding.completion_formula(Grid.parse("1100" + "0" * 12)))
    assert not satisfiable(encoding.completion_formula(Grid.parse(UNSOLVABLE_4)))


@pytest.mark.parametrize("puzzle", SMALL_PUZZLES, ids=lambda grid: grid.to_line())
def test_the_extended_clauses_hold_under_every_completion_too(
    puzzle: Grid, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Below EXTENDED_FROM_SIZE the formula holds the minimal clauses; the extended ones, which
    # bigger grids get, are held to the same property here on the small puzzles.
    minimal = len(encoding.completion_formula(puzzle).clauses)
    monkeypatch.setattr(encoding, "EXTENDED_FROM_SIZE", puzzle.size)
    formula = encoding.completion_formula(puzzle)
    assert len(formula.clauses) > minimal
    for completion in completions(puzzle):
        assert all(holds(clause, one_hot(completion)) for clause in formula.clauses)
    first = completions(puzzle)[0]
    assert not satisfiable(encoding.lexmin_formula(puzzle, first))


def test_nine_by_nine_formulas_are_minimal_and_sixteen_extended() -> None:
    def cell_pairs(puzzle: Grid) -> int:  # two values of one cell excluded by a clause
        size = puzzle.size
        formula = encoding.completion_formula(puzzle)
        return sum(
            len(clause) == 2 and (-clause[0] - 1) // size == (-clause[1] - 1) // size
            for clause in formula.clauses
            if clause[0] < 0 and clause[1] < 0
        )

    assert encoding.EXTENDED_FROM_SIZE == 16
    assert cell_pairs(Grid.parse(G17)) == 0
    assert cell_pairs(Grid.empty(16)) == 256 * 120


def test_candidates_leave_out_the_values_of_given_peers() -> None:
    puzzle = Grid.parse(UNSOLVABLE_4)  # cell 0 sees 1, 2 in its row and 3, 4 in its column
    cands = encoding.candidates(puzzle)
    assert cands[0] == () and cands[1] == (1,) and cands[15] == (1, 2, 3, 4)


def test_the_small_puzzles_cover_one_to_many_completions() -> None:
    # The tampering tests need a second completion (puzzles 2 and 3); the soundness tests
    # also cover a unique puzzle and the empty grid.
    assert [len(completions(puzzle)) for puzzle in SMALL_PUZZLES] == [288, 24, 12, 4, 3, 1, 2]
