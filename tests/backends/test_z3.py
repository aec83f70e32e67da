"""The z3 backend: what the contract suite does not check (each model and process runs it, in
test_backend_contract.py): the stats name the model, the order literals of the integer model, the
options; the shared loops are tested in test_lexmin.py."""

from __future__ import annotations

import pytest

from sudoku_cp.backends import backend_class, get_backend
from sudoku_cp.errors import BackendOptionError
from sudoku_cp.grid import Grid
from sudoku_cp.result import Mode, Status

from ..conftest import BAEKJOON_2239

pytestmark = pytest.mark.skipif(not backend_class("z3").is_available(), reason="needs z3-solver")


@pytest.fixture(scope="module", params=["boolean", "integer"])
def backend(request):
    with get_backend("z3", model=request.param, process="inline") as ready:
        yield ready


def test_the_stats_name_the_model_in_every_mode(backend):
    puzzle = Grid.parse(BAEKJOON_2239)
    for mode in Mode:
        result = backend.solve(puzzle, mode=mode, limit=3, time_limit=60)
        assert result.status is Status.SOLVED
        assert result.stats["model"] == backend.model


def test_the_questions_are_boolean_atoms_in_both_models():
    # QF_FD answers "unknown" to an arithmetic assumption: the int model asks in order literals.
    import z3

    from sudoku_cp.backends.z3 import _build

    for kind in ("boolean", "integer"):
        model = _build(4, (2, 2), kind)
        for literal in model.below(5, 3) + model.equal(5, 2) + model.equal(5, 4):
            atom = literal.arg(0) if z3.is_not(literal) else literal
            assert z3.is_const(atom) and z3.is_bool(atom)


def test_the_integer_model_has_order_literals_per_cell():
    from sudoku_cp.backends.z3 import _build

    model = _build(9, (3, 3), "integer")
    assert len(model.cells) == 81
    assert all(len(row) == 9 for row in model.literals)  # le(cell, 1..8), index 0 unused


def test_unknown_model_and_options_are_refused():
    with pytest.raises(BackendOptionError, match="model"):
        get_backend("z3", model="bitvector")
    with pytest.raises(BackendOptionError, match="no option 'solver'"):
        get_backend("z3", solver="cvc5")
