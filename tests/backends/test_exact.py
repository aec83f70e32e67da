"""The exact backend: what the contract suite does not check (each encoding and process runs
it, in test_backend_contract.py): the 0-1 model, blocking constraints that die with their
puzzle, the options, and why Exact runs in a helper process; the shared loops are tested in
test_lexmin.py."""

from __future__ import annotations

import pytest

from sudoku_cp.backends import backend_class, get_backend
from sudoku_cp.errors import BackendOptionError
from sudoku_cp.grid import Grid
from sudoku_cp.result import Mode, Status

from ..conftest import random_multi_solution

pytestmark = pytest.mark.skipif(not backend_class("exact").is_available(), reason="needs exact")


@pytest.fixture(scope="module", params=["extended", "minimal"])
def backend(request):
    with get_backend("exact", encoding=request.param, process="inline") as ready:
        yield ready


def test_the_model_is_a_boolean_per_cell_and_value():
    from sudoku_cp.backends.exact import _build

    model = _build(9, (3, 3), "extended")
    assert len(model.everything) == 729 and len(model.solver.getVariables()) == 729


def test_blocking_constraints_die_with_their_puzzle(backend):
    empty = Grid.empty(4)
    for _ in range(3):  # each count would shrink if an earlier puzzle's blocks survived
        assert backend.solve(empty, mode=Mode.COUNT, limit=1000).count == 288


def test_helper_and_inline_agree():
    puzzles = [random_multi_solution(9, 22 + seed, 900 + seed) for seed in range(5)]
    with get_backend("exact") as helped, get_backend("exact", process="inline") as inline:
        for puzzle in puzzles:
            assert helped.solve(puzzle).solution == inline.solve(puzzle).solution
    assert helped.solver_process is not None and inline.solver_process is None


def test_the_helper_keeps_exacts_output_off_its_answer_channel():
    # Anything the solver prints on file descriptor 1 goes to stderr, not into the pickles.
    with get_backend("exact", encoding="minimal") as backend:
        result = backend.solve(Grid.empty(9), time_limit=60)
        assert result.status is Status.SOLVED and "helper_cpu_seconds" in result.stats


def test_unknown_options_are_refused():
    with pytest.raises(BackendOptionError, match="encoding"):
        get_backend("exact", encoding="pairwise")
    with pytest.raises(BackendOptionError, match="process"):
        get_backend("exact", process="thread")
