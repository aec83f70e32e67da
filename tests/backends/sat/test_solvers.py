"""Which solver (backends/sat/solvers.py): `auto`, aliases, refused solvers and options."""

import pytest

pytest.importorskip("pysat")

from sudoku_cp.backends import get_backend  # noqa: E402
from sudoku_cp.backends.sat import (  # noqa: E402
    SatBackend,
    solver_for,
)
from sudoku_cp.errors import BackendOptionError  # noqa: E402
from sudoku_cp.grid import Grid  # noqa: E402

from ...conftest import (  # noqa: E402
    BAEKJOON_2239,
    BAEKJOON_2239_ANSWER,
)


def test_auto_solver_is_glucose_below_25_and_minisat_from_there():
    assert solver_for("auto", 24) == "glucose3" and solver_for("auto", 25) == "minicard"
    assert solver_for("auto", 24, cardinality=True) == "gluecard3"
    assert solver_for("glucose4", 49) == "glucose4"
    with SatBackend() as backend:
        assert backend.solve(Grid.empty(9)).stats["solver"] == "glucose3"


@pytest.mark.parametrize("solver", ["cadical195", "cadical103"])
def test_propagation_refuses_solvers_whose_propagate_is_not_trusted(solver):
    with pytest.raises(BackendOptionError, match="propagate"):
        SatBackend(solver=solver, lexmin="propagation")


@pytest.mark.parametrize(
    "options, words",
    [
        ({"solver": "kissat404"}, ["assumptions", "glucose4"]),
        ({"solver": "kissat"}, ["assumptions", "glucose4"]),
        ({"solver": "lingeling"}, ["glucose4"]),
        ({"solver": "no-such-solver"}, ["unknown", "glucose4", "minisat22"]),
        ({"encoding": "huge"}, ["minimal", "extended"]),
        ({"amo": "magic"}, ["pairwise", "ladder", "seqcounter"]),
    ],
)
def test_refused_options_raise_a_clear_error(options, words):
    with pytest.raises(BackendOptionError) as caught:
        SatBackend(**options)
    message = str(caught.value)
    assert "\n" not in message and all(word in message for word in words)


def test_solver_aliases_and_registry_options():
    assert SatBackend(solver="g3").sat_solver == "glucose3"
    assert SatBackend(solver="minisat-gh").sat_solver == "minisatgh"
    backend = get_backend("sat", solver="minisat22", encoding="minimal", amo="ladder")
    with pytest.raises(
        BackendOptionError,
        match=r"no option 'workers' \(its options: solver, "
        r"encoding, amo, lexmin\)",
    ):
        get_backend("sat", workers=4)  # a cpsat option is not silently dropped
    result = backend.solve(Grid.parse(BAEKJOON_2239))
    assert result.solution.to_line() == BAEKJOON_2239_ANSWER
    assert (result.stats["solver"], result.stats["encoding"], result.stats["amo"]) == (
        "minisat22",
        "minimal",
        "ladder",
    )
