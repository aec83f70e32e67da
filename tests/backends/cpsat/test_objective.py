"""Tests of lex-min by the staged objective: exact chunks, the stages' statuses, the probe."""

from __future__ import annotations

import pytest

from sudoku_cp.backends import get_backend
from sudoku_cp.backends.cpsat import backend as backend_module
from sudoku_cp.backends.cpsat import search
from sudoku_cp.backends.cpsat.kept import BooleanModel, IntegerModel
from sudoku_cp.backends.cpsat.model import ProtoWriter
from sudoku_cp.backends.cpsat.objective import (
    check_integer_objective,
    chunk_length,
    may_be_unique,
    minimize_chunk,
    next_chunk,
)
from sudoku_cp.errors import BackendFailure
from sudoku_cp.grid import Grid
from sudoku_cp.result import Status

from .conftest import EMPTY25_ROWS, G17, SERG_FIRST, SMALL_PUZZLES, brute_lexmin, replace_status

cmh = pytest.importorskip("ortools.sat.python.cp_model_helper")
CpStatus = cmh.CpSolverStatus  # CP-SAT's statuses (ours are `Status`)


def test_objective_still_guarantees_lexmin_when_the_search_is_not_lexmin(monkeypatch):
    fixed_search = search.configure_fixed_search

    def misleading(parameters):
        fixed_search(parameters)
        parameters.cp_model_presolve = True
        parameters.symmetry_level = 2
        parameters.num_workers = 2

    monkeypatch.setattr(backend_module, "configure_fixed_search", misleading)
    backend = get_backend("cpsat", lexmin="objective")
    for grid in SMALL_PUZZLES[::3]:
        assert backend.solve(grid).solution.values == brute_lexmin(grid)


@pytest.mark.parametrize("size", range(4, 26))
def test_chunk_length_keeps_the_objective_exact(size):
    length = chunk_length(size)
    assert size**length - 1 < 2**53 <= size ** (length + 1) - 1


def test_chunk_lengths_of_the_usual_sizes():
    assert [chunk_length(n) for n in (4, 9, 16, 25)] == [26, 16, 13, 11]


@pytest.mark.parametrize("size", [4, 9, 16])
def test_every_stage_objective_is_exact_integer_and_without_hints(size, solve_calls):
    result = get_backend("cpsat", lexmin="objective").solve(Grid.empty(size))
    assert result.stats["stages"] == len(solve_calls) >= (1 if size == 4 else 2)
    first_chunk = min(chunk_length(size), size * size)
    assert largest_objective(solve_calls[0], size) == size**first_chunk - 1
    for call in solve_calls:
        assert not call["hint"] and not call["floating"]  # hints crashed 9.15 (#5288, #5091)
        assert 0 < largest_objective(call, size) < 2**53


def test_fewer_candidates_make_longer_exact_chunks(solve_calls, staged):
    """A sparse multi-solution 9x9: its chunks are longer than 16 cells, yet exact."""
    puzzle = Grid.parse(SERG_FIRST)  # 35 givens, several completions, 46 blank cells
    result = staged.solve(puzzle)
    assert result.solution.values == get_backend("dfs").solve(puzzle).solution.values
    assert result.stats["probe"] == "skipped" and result.stats["stages"] == len(solve_calls) == 2
    cells = [{variable // 9 for variable in call["variables"]} for call in solve_calls]
    assert max(cells[0]) - min(cells[0]) >= 16
    for call in solve_calls:
        assert 0 < largest_objective(call, 9) < 2**53


def largest_objective(call: dict, size: int) -> int:
    """The largest value a chunk objective can take: one value per cell, so the sum over cells
    of each cell's largest term (variable cell * N + value - 1 belongs to cell)."""
    largest: dict[int, int] = {}
    for variable, coefficient in zip(call["variables"], call["coefficients"], strict=True):
        largest[variable // size] = max(largest.get(variable // size, 0), coefficient)
    return sum(largest.values())


def test_a_chunk_too_long_for_an_exact_objective_is_refused():
    shape = BooleanModel(9, (3, 3))
    minimize_chunk(shape, range(chunk_length(9)))
    with pytest.raises(BackendFailure, match="overflows"):
        minimize_chunk(shape, range(chunk_length(9) + 1))
    two_candidates = [0b110] * 81  # values 1 and 2 only: 2**53 - 1 fits, 2**54 - 1 does not
    minimize_chunk(shape, range(53), two_candidates)
    with pytest.raises(BackendFailure, match="overflows"):
        minimize_chunk(shape, range(54), two_candidates)
    assert next_chunk(shape, range(81), two_candidates) == list(range(53))


def test_integer_objective_chunks_are_exact():
    shape = IntegerModel(9, (3, 3))
    everything = shape.candidates([0] * 81)
    chunk = next_chunk(shape, range(81), everything)
    # Objective sum(place * value) <= 9 * (9**k - 1): below 2**53 for k cells, not for k + 1.
    assert 9 * 9 ** len(chunk) - 1 < 2**53 <= 9 * 9 ** (len(chunk) + 1) - 1
    minimize_chunk(shape, chunk, everything)
    proto = shape.proto
    assert sum(c * 9 for c in proto.objective.coeffs) < 2**53
    with pytest.raises(BackendFailure, match="overflows"):
        minimize_chunk(shape, range(len(chunk) + 1), everything)
    # Candidates 4..5 only: a radix of 2, so much longer chunks; a fixed cell adds no term.
    narrow = [0b110000] * 80 + [0b10000]
    assert len(next_chunk(shape, range(81), narrow)) == 49
    minimize_chunk(shape, range(75, 81), narrow)
    assert list(proto.objective.vars) == [79, 78, 77, 76, 75]
    assert list(proto.objective.coeffs) == [1, 2, 4, 8, 16]


def test_a_floating_point_objective_is_refused():
    cp_model = pytest.importorskip("ortools.sat.python.cp_model")
    model = cp_model.CpModel()
    x = model.new_int_var(0, 9, "x")
    model.minimize(2**70 * x)  # beyond int64: the Python layer silently goes floating point
    with pytest.raises(BackendFailure, match="floating"):
        check_integer_objective(model.proto, 1)


def test_an_objective_that_lost_terms_is_refused():
    proto = cmh.CpModelProto()
    ProtoWriter(proto).new_bool_var_series(2)
    proto.objective.vars.extend([0, 1])
    proto.objective.coeffs.extend([1, 1])
    check_integer_objective(proto, 2)
    with pytest.raises(BackendFailure, match="3 exact integer terms"):
        check_integer_objective(proto, 3)


def test_unproven_stage_is_never_an_answer(monkeypatch, staged):
    replace_status(monkeypatch, CpStatus.FEASIBLE, from_call=3)
    with pytest.raises(BackendFailure, match="FEASIBLE"):
        staged.solve(Grid.empty(9))
    assert staged.solve(Grid.empty(9), time_limit=60.0).status is Status.TIMEOUT


def test_infeasible_after_the_first_stage_is_a_solver_failure(monkeypatch, staged):
    replace_status(monkeypatch, CpStatus.INFEASIBLE, from_call=2)
    with pytest.raises(BackendFailure, match="INFEASIBLE"):
        staged.solve(Grid.empty(9))


def test_a_unique_puzzle_is_settled_by_the_probe_alone(solve_calls, staged):
    result = staged.solve(Grid.parse(G17))
    assert (result.stats["probe"], result.stats["stages"]) == ("one", 1)
    assert [call["enumerate"] for call in solve_calls] == [True]
    assert result.solution == get_backend("dfs").solve(Grid.parse(G17)).solution


def test_a_probe_that_meets_two_completions_hands_over_to_the_stages(staged):
    # Two givens fewer than a unique 17-clue puzzle: every value still given, several
    # completions, more than two stages.
    puzzle = Grid.parse(G17).with_values({9: 0, 76: 0})
    result = staged.solve(puzzle)
    assert result.stats["probe"] == "several" and result.stats["stages"] >= 3
    assert result.solution == get_backend("dfs").solve(puzzle).solution


def test_the_probe_is_skipped_when_two_values_are_absent(staged):
    puzzle = Grid.parse("12" + "0" * 79)  # 3..9 absent: swapping two of them is a completion too
    assert may_be_unique(Grid.parse(G17)) and not may_be_unique(puzzle)
    assert staged.solve(puzzle).stats["probe"] == "skipped"


def test_the_probe_finds_no_completion(staged):
    puzzle = Grid.parse(
        "000000010400000000020000000000050407008000300001090000300400200050100000000806001"
    )  # G17 with a 1 that no completion allows
    assert not puzzle.conflicts()
    result = staged.solve(puzzle)
    assert (result.status, result.stats["probe"]) == (Status.UNSATISFIABLE, "none")


def test_a_probe_stopped_by_the_time_limit_is_a_timeout(monkeypatch, staged):
    replace_status(monkeypatch, CpStatus.UNKNOWN)
    result = staged.solve(Grid.parse(G17), time_limit=60.0)
    assert (result.status, result.solution, result.stats["probe"]) == (
        Status.TIMEOUT,
        None,
        "timeout",
    )
    assert result.reason == "no answer within 60 s (in the uniqueness probe)"
    monkeypatch.undo()
    with pytest.raises(BackendFailure, match="UNKNOWN in the uniqueness probe"):
        replace_status(monkeypatch, CpStatus.UNKNOWN)
        staged.solve(Grid.parse(G17))  # no limit: UNKNOWN is a solver failure


@pytest.mark.slow
def test_empty_25x25_lexmin_by_objective(staged):
    result = staged.solve(Grid.empty(25))
    assert 625 / 11 > result.stats["stages"] > 1  # chunks of 11 cells at first, then longer
    assert {i: list(result.solution.rows()[i]) for i in EMPTY25_ROWS} == EMPTY25_ROWS
    assert result.solution.is_solution_of(Grid.empty(25))
