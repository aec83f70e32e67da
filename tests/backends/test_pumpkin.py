"""The pumpkin backend: what the contract suite does not check: the proof log of each puzzle
(proof=DIR) and its conclusion for a puzzle without a completion, the lex-min by tightening
(the stats count the questions), the options."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudoku_cp.backends import backend_class, get_backend
from sudoku_cp.errors import BackendOptionError
from sudoku_cp.grid import Grid
from sudoku_cp.result import Status
from sudoku_cp.testing.puzzles import EMPTY_9_LEXMIN, UNSOLVABLE_4

from ..conftest import BAEKJOON_2239

pytestmark = pytest.mark.skipif(
    not backend_class("pumpkin").is_available(),
    reason="needs pumpkin-solver (pip install pumpkin-solver)",
)


def test_the_lexmin_is_found_by_tightening():
    with get_backend("pumpkin") as backend:
        result = backend.solve(Grid.empty(9), time_limit=60)
    assert result.solution.to_line() == EMPTY_9_LEXMIN
    assert result.stats["oracle_calls"] > 1 and "proof_file" not in result.stats


def test_each_puzzle_writes_its_own_proof_log(tmp_path):
    folder = tmp_path / "proofs"
    with get_backend("pumpkin", proof=str(folder)) as backend:
        unsat = backend.solve(Grid.parse(UNSOLVABLE_4))
        solved = backend.solve(Grid.parse(BAEKJOON_2239))
    assert unsat.status is Status.UNSATISFIABLE and solved.status is Status.SOLVED
    assert unsat.stats["proof_file"] != solved.stats["proof_file"]
    refutation = (folder / unsat.stats["proof_file"].rsplit("/", 1)[1]).read_text()
    assert refutation.rstrip().endswith("c UNSAT")  # DRCP: the conclusion of the refutation
    assert "l:binary_not_equals" in refutation  # inferences labelled by their propagator
    assert (folder / solved.stats["proof_file"].rsplit("/", 1)[1]).stat().st_size > 0


def test_a_proof_directory_that_cannot_be_made_is_refused(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(BackendOptionError, match="option 'proof': cannot make the directory"):
        get_backend("pumpkin", proof=str(blocker / "proofs"))
    with pytest.raises(BackendOptionError, match="no option 'solver'"):
        get_backend("pumpkin", solver="gecode")


def test_the_proof_logs_are_written_by_the_solver_process_too(tmp_path):
    with get_backend("pumpkin", proof=str(tmp_path), process="inline") as inline:
        here = inline.solve(Grid.parse(UNSOLVABLE_4))
    with get_backend("pumpkin", proof=str(tmp_path)) as helper:  # process=helper, the default
        child = helper.solve(Grid.parse(UNSOLVABLE_4))
    assert here.stats["proof_file"] != child.stats["proof_file"]
    for result in (here, child):
        assert result.stats["proof"] == str(tmp_path)  # the option, as given
        assert Path(result.stats["proof_file"]).read_text().rstrip().endswith("c UNSAT")
