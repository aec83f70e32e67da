"""The CNF (backends/sat/cnf.py): every encoding and at-most-one agree, variable numbering,
clause counts, DIMACS."""

import io
import itertools

import pytest

pytest.importorskip("pysat")

from sudoku_cp.backends.sat import (  # noqa: E402
    AMO_ENCODINGS,
    ENCODINGS,
    SatBackend,
    base_cnf,
    decode_model,
    variable,
    write_dimacs,
)
from sudoku_cp.errors import BackendOptionError  # noqa: E402
from sudoku_cp.grid import Grid  # noqa: E402
from sudoku_cp.result import Mode  # noqa: E402

from ...conftest import (  # noqa: E402
    BAEKJOON_2239,
    BAEKJOON_2239_ANSWER,
    UNSOLVABLE_4,
    brute_force_count,
    naive_lexmin,
    random_multi_solution,
)
from .conftest import (  # noqa: E402
    blanked,
    solution_of,
)

AGREEMENT_PUZZLES = [
    Grid.parse(BAEKJOON_2239),
    Grid.empty(4),
    random_multi_solution(6, 6, 41, box=(2, 3)),
    random_multi_solution(9, 36, 42),
    blanked(BAEKJOON_2239_ANSWER, 20, 43),
]


@pytest.fixture(scope="module")
def expected_answers():
    return [(naive_lexmin(p), brute_force_count(p, 20)) for p in AGREEMENT_PUZZLES]


@pytest.mark.parametrize("encoding, amo", list(itertools.product(ENCODINGS, AMO_ENCODINGS)))
def test_every_encoding_and_amo_agree(encoding, amo, expected_answers):
    with SatBackend(encoding=encoding, amo=amo) as backend:
        for puzzle, (lexmin, count) in zip(AGREEMENT_PUZZLES, expected_answers, strict=True):
            assert solution_of(backend.solve(puzzle), puzzle) == lexmin
            assert backend.solve(puzzle, mode=Mode.COUNT, limit=20).count == count
            solution_of(backend.solve(puzzle, mode=Mode.ANY), puzzle)
            assert backend.solve(puzzle, mode=Mode.ANY).stats["amo"] == amo


def test_auxiliary_variables_start_above_the_cell_variables():
    plain = base_cnf(9, (3, 3), "extended", "pairwise")
    assert plain.variables == 729 and plain.first_auxiliary is None
    ladder = base_cnf(9, (3, 3), "extended", "ladder")
    used = {abs(literal) for clause in ladder.clauses for literal in clause}
    assert ladder.first_auxiliary == 730 and max(used) == ladder.variables > 729
    assert set(range(1, 730)) <= used


def test_pairwise_extended_clause_count_9x9():
    # 81 cell ALO + 81*36 cell AMO + 243 unit ALO + 9 values * 810 peer pairs.
    assert len(base_cnf(9, (3, 3), "extended", "pairwise").clauses) == 81 + 2916 + 243 + 7290


# -- DIMACS ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("amo", ["pairwise", "ladder"])
def test_dimacs_solved_directly_decodes_to_the_backend_answer(backend, amo):
    from pysat.formula import CNF
    from pysat.solvers import Solver

    puzzle = Grid.parse(BAEKJOON_2239)
    handle = io.StringIO()
    write_dimacs(puzzle, handle, amo=amo)
    text = handle.getvalue()
    header = [line for line in text.splitlines() if line.startswith("c")]
    assert any("cell * 9 + value" in line for line in header)
    assert any(("730.." in line) == (amo == "ladder") for line in header if "auxiliary" in line)
    cnf = CNF(from_string=text)
    base = base_cnf(9, (3, 3), "extended", amo)
    assert len(cnf.clauses) == len(base.clauses) + len(puzzle.givens())
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as solver:
        assert solver.solve()
        values = decode_model(solver.get_model(), 9)
    assert Grid.from_values(values) == backend.solve(puzzle).solution


def test_dimacs_of_an_impossible_puzzle_is_unsatisfiable():
    from pysat.formula import CNF
    from pysat.solvers import Solver

    handle = io.StringIO()
    write_dimacs(Grid.parse(UNSOLVABLE_4), handle, encoding="minimal")
    with Solver(name="glucose4", bootstrap_with=CNF(from_string=handle.getvalue())) as solver:
        assert not solver.solve()


def test_variable_numbering_is_the_documented_formula():
    assert variable(0, 1, 9) == 1 and variable(80, 9, 9) == 729 and variable(10, 3, 9) == 93
    model = [-v for v in range(1, 730)]
    model[variable(10, 3, 9) - 1] = variable(10, 3, 9)
    assert decode_model(model, 9)[10] == 3


def test_write_dimacs_refuses_unknown_encodings():
    with pytest.raises(BackendOptionError):
        write_dimacs(Grid.empty(4), io.StringIO(), amo="magic")


def test_native_at_most_ones_are_the_solvers_own_and_no_clauses():
    pairwise = base_cnf(9, (3, 3), "extended", "pairwise")
    native = base_cnf(9, (3, 3), "extended", "native")
    # only the at-least-ones are clauses: one per cell and one per unit and value
    assert len(native.clauses) == 81 + 3 * 9 * 9 and native.variables == 729
    assert len(native.cardinalities) == 81 + 3 * 9 * 9
    assert all(bound == 1 and len(literals) == 9 for literals, bound in native.cardinalities)
    assert len(pairwise.clauses) > 10 * len(native.clauses) and not pairwise.cardinalities
    with pytest.raises(BackendOptionError, match="not clauses"):
        write_dimacs(Grid.empty(9), io.StringIO(), amo="native")


def test_amo_auto_is_native_from_25_on_a_cardinality_solver_else_pairwise():
    from sudoku_cp.backends.sat.backend import amo_for

    assert amo_for("auto", 25, "minicard") == "native"
    assert amo_for("auto", 24, "gluecard3") == "pairwise"
    assert amo_for("auto", 49, "minisatgh") == "pairwise"
    assert amo_for("ladder", 49, "minicard") == "ladder"
    with SatBackend() as backend:
        assert backend.solve(Grid.empty(25), mode=Mode.ANY).stats["amo"] == "native"
        assert backend.solve(Grid.empty(16), mode=Mode.ANY).stats["amo"] == "pairwise"
    with pytest.raises(BackendOptionError, match="cardinality"):
        SatBackend(amo="native", solver="glucose4")
    with SatBackend(amo="native") as backend:  # auto picks a solver that has them
        result = backend.solve(Grid.parse(BAEKJOON_2239))
        assert result.stats["solver"] == "gluecard3" and result.stats["amo"] == "native"
        assert result.solution.to_line() == BAEKJOON_2239_ANSWER


def test_native_row_counts_are_two_cardinalities_per_cut():
    from sudoku_cp.backends.sat import row_count_cnf

    clauses = row_count_cnf(25, (5, 5), 25**3 + 1)
    native = row_count_cnf(25, (5, 5), 25**3 + 1, native=True)
    cuts = 25 * 4  # a cut after each box of a row but the last
    assert len(native.cardinalities) == 2 * cuts and native.variables == 25**3 + cuts * 25
    assert {bound for _, bound in native.cardinalities} == {5, 10, 15, 20}
    assert len(native.clauses) < len(clauses.clauses)
