from __future__ import annotations

import pytest

from sudoku_cp.explain.core import UnsatCore, certify_core, is_minimal, unsat_core
from sudoku_cp.explain.oracle import Oracle
from sudoku_cp.grid import Grid

from ..conftest import BAEKJOON_2239, DATA, UNSOLVABLE_4
from .helpers import puzzles


def test_a_puzzle_with_a_completion_has_no_core() -> None:
    with Oracle(9, (3, 3)) as oracle:
        assert unsat_core(Grid.parse(BAEKJOON_2239), oracle) is None


def test_the_core_of_a_blocked_cell_is_its_four_givens() -> None:
    grid = Grid.parse(UNSOLVABLE_4)
    with Oracle(4, (2, 2)) as oracle:
        core = unsat_core(grid, oracle)
    assert core is not None and core.minimal
    assert core.givens == ((1, 1), (2, 2), (4, 3), (8, 4))
    assert core.grid(grid).to_line() == "0120300040000000"


def test_cores_of_generated_puzzles_are_minimal() -> None:
    for name in ("unsat-9x9", "unsat-6x6"):
        grids = puzzles(DATA / "generated" / f"{name}.txt", 10)
        with Oracle(grids[0].size, grids[0].box) as oracle:
            for grid in grids[:10]:
                core = unsat_core(grid, oracle)
                assert core is not None and core.minimal
                literals = oracle.literals(core.givens)
                assert is_minimal(literals, oracle)
                assert len(core.givens) <= len(grid.givens())


def test_minimality_is_checked_not_assumed() -> None:
    grid = Grid.parse(UNSOLVABLE_4)
    with Oracle(4, (2, 2)) as oracle:
        everything = oracle.literals(grid.givens().items())
        assert is_minimal(everything, oracle)  # the four givens are all the puzzle has
        assert not is_minimal([*everything, oracle.literals([(15, 1)])[0]], oracle)


def test_a_core_is_certified_by_a_checked_proof_and_verified_completions() -> None:
    pytest.importorskip("dratify")
    grid = Grid.parse(UNSOLVABLE_4)
    with Oracle(4, (2, 2)) as oracle:
        core = unsat_core(grid, oracle)
        assert core is not None and certify_core(core, grid, oracle) is None
        padded = UnsatCore((*core.givens, (15, 1)), minimal=False, calls=0)
        refused = certify_core(padded, grid.with_values({15: 1}), oracle)  # not minimal
        assert refused is not None and refused.endswith(": no checked completion")
        solvable = UnsatCore(((1, 1),), minimal=False, calls=0)
        refused = certify_core(solvable, grid, oracle)
        assert refused is not None and refused.startswith("no completion is not certified")
