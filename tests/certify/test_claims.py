"""certify.claims: what a run claims, one type per kind, and an unstated claim for a run that
states none."""

from __future__ import annotations

import pytest

from sudoku_cp.certify import (
    AnyClaim,
    CountClaim,
    LexminClaim,
    UnsatClaim,
    UnstatedClaim,
    claim_of_run,
)
from sudoku_cp.grid import Grid

pytest.importorskip("dratify")


def test_claims_of_runs() -> None:
    puzzle = Grid.empty(4)
    answer = "1234341221434321"
    assert claim_of_run(puzzle, "lexmin", "timeout", solution=None) is None
    assert claim_of_run(puzzle, "lexmin", "error", solution=None) is None
    assert claim_of_run(puzzle, "lexmin", "solved", solution=answer) == LexminClaim(
        puzzle, Grid.parse(answer)
    )
    assert isinstance(claim_of_run(puzzle, "any", "wrong", solution=answer), AnyClaim)
    assert claim_of_run(puzzle, "lexmin", "wrong", solution=None) == UnsatClaim(puzzle)
    assert isinstance(
        claim_of_run(
            puzzle, "lexmin", "wrong", solution=None, reason="reported solved without a completion"
        ),
        UnstatedClaim,
    )
    assert claim_of_run(puzzle, "count", "solved", solution=answer, count=288) == CountClaim(
        puzzle, 288, True, Grid.parse(answer)
    )
    assert claim_of_run(
        puzzle, "count", "solved", solution=None, count=2, limit_reached=True
    ) == CountClaim(puzzle, 2, False)
    assert claim_of_run(puzzle, "count", "unsatisfiable", solution=None) == CountClaim(
        puzzle, 0, True
    )
    assert isinstance(claim_of_run(puzzle, "count", "wrong", solution=None), UnstatedClaim)
    assert isinstance(
        claim_of_run(puzzle, "count", "solved", solution=None, count=-1), UnstatedClaim
    )
