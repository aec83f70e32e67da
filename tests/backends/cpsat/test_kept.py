"""Tests of the kept models: the posed strategy, givens posed and taken away, solutions read."""

from __future__ import annotations

import pytest

from sudoku_cp.backends import get_backend
from sudoku_cp.backends.cpsat import call
from sudoku_cp.backends.cpsat.call import new_parameters
from sudoku_cp.backends.cpsat.kept import (
    GIVENS_AS_DOMAINS_FROM_SIZE,
    IntegerModel,
    solution_bits,
)
from sudoku_cp.backends.cpsat.model import ProtoWriter
from sudoku_cp.errors import BackendFailure
from sudoku_cp.grid import Grid

from .conftest import SERG_FIRST, SMALL_PUZZLES, generated, replace_status

cmh = pytest.importorskip("ortools.sat.python.cp_model_helper")
CpStatus = cmh.CpSolverStatus  # CP-SAT's statuses (ours are `Status`)


def test_the_lexmin_strategy_lists_the_blank_cells_in_order(solve_calls):
    """Boolean model: the candidate literals of the blank cells, cell by cell, values ascending
    (a value a given peer holds is false before the first decision); integer model: the blank
    cells. Either way nothing else, and the first unfixed one decides."""
    puzzle = Grid.parse(SERG_FIRST)
    boolean, integer = get_backend("cpsat"), get_backend("cpsat", model="integer")
    assert boolean.solve(puzzle).solution == integer.solve(puzzle).solution
    candidates = boolean._models[9, (3, 3), "boolean"].candidates(puzzle.values)
    literals = [
        cell * 9 + value - 1
        for cell in puzzle.blanks()
        for value in range(1, 10)
        if candidates[cell] >> value & 1
    ]
    assert [call["strategy"] for call in solve_calls] == [[literals], [puzzle.blanks()]]
    assert len(literals) < 9 * len(puzzle.blanks())


def test_solution_bits_read_the_text_or_fall_back():
    proto = cmh.CpModelProto()
    ProtoWriter(proto).new_bool_var_series(5)
    solution = call.call_cp_sat(cmh.SolveWrapper(), proto, new_parameters()).solution
    assert list(solution_bits(solution)) == list(solution)
    assert isinstance(solution_bits(solution), bytes)  # read from the C++ text
    assert solution_bits((1, 0, 1)) == [1, 0, 1]  # "(1, 0, 1)": not the expected text
    assert solution_bits([1, 2, 1]) == [1, 2, 1]  # not all 0/1


def test_givens_are_kept_and_values_are_whole_grids(backend):
    puzzle = SMALL_PUZZLES[-1]
    result = backend.solve(puzzle)
    assert len(result.solution.values) == 81
    assert all(result.solution.values[cell] == value for cell, value in puzzle.givens().items())


@pytest.mark.parametrize("mode", ["lexmin", "any", "count"])
@pytest.mark.parametrize("method", ["objective", "search"])
def test_the_kept_model_is_left_clean_even_after_a_failure(mode, method, monkeypatch):
    backend = get_backend("cpsat", lexmin=method)
    puzzle = Grid.parse(SERG_FIRST)
    backend.solve(puzzle, mode=mode)
    # staged lex-min: fail in the second stage, after a freeze; the rest: their one call
    staged = (mode, method) == ("lexmin", "objective")
    replace_status(monkeypatch, CpStatus.MODEL_INVALID, from_call=2 if staged else 1)
    with pytest.raises(BackendFailure):
        backend.solve(puzzle, mode=mode)
    monkeypatch.undo()
    proto = backend._models[9, (3, 3), "boolean"].proto
    assert len(proto.assumptions) == 0 and not proto.has_objective()
    assert len(proto.search_strategy) == 0
    assert backend.solve(puzzle, mode=mode).solution.is_solution_of(puzzle)


@pytest.mark.parametrize("mode", ["lexmin", "any", "count"])
@pytest.mark.parametrize("method", ["objective", "search"])
def test_from_16x16_the_boolean_model_fixes_the_givens_by_domain(mode, method):
    """Assumptions stay at a decision level and every learnt clause carries them; from
    GIVENS_AS_DOMAINS_FROM_SIZE the givens (and frozen chunks) narrow the literals' domains
    instead, and get them back, even after a failure."""
    puzzle = generated("multi-16x16.txt", [0])[0]
    backend = get_backend("cpsat", lexmin=method)
    assert GIVENS_AS_DOMAINS_FROM_SIZE == 16
    result = backend.solve(puzzle, mode=mode)
    assert result.solution.is_solution_of(puzzle)
    assert (result.stats["assumptions"], result.stats["givens"]) == (0, len(puzzle.givens()))
    if mode == "lexmin":
        assert result.solution == get_backend("dfs").solve(puzzle).solution
    proto = backend._models[16, (4, 4), "boolean"].proto
    assert all(list(v.domain) == [0, 1] for v in proto.variables)
    assert len(proto.assumptions) == 0 and len(proto.search_strategy) == 0
    small = backend.solve(Grid.parse(SERG_FIRST), mode=mode)  # below 16x16: assumptions
    assert small.stats["assumptions"] == small.stats["givens"] > 0


@pytest.mark.parametrize("mode", ["lexmin", "any", "count"])
@pytest.mark.parametrize("method", ["objective", "search"])
def test_the_integer_model_gets_its_domains_back_even_after_a_failure(mode, method, monkeypatch):
    backend = get_backend("cpsat", model="integer", lexmin=method)
    puzzle = Grid.parse(SERG_FIRST)
    backend.solve(puzzle, mode=mode)
    replace_status(
        monkeypatch,
        CpStatus.MODEL_INVALID,
        from_call=2 if (mode, method) == ("lexmin", "objective") else 1,
    )
    with pytest.raises(BackendFailure):
        backend.solve(puzzle, mode=mode)
    monkeypatch.undo()
    proto = backend._models[9, (3, 3), "integer"].proto
    assert [list(v.domain) for v in proto.variables] == [[1, 9]] * 81
    assert len(proto.assumptions) == 0 and not proto.has_objective()
    assert len(proto.search_strategy) == 0
    assert backend.solve(puzzle, mode=mode).solution.is_solution_of(puzzle)


def test_the_row_counts_read_only_the_cells_of_a_solution():
    shape = IntegerModel(4, (2, 2), row_counts=True)
    cells = [1, 2, 3, 4] * 4
    assert shape.values_from(cells + [0, 1] * 40) == bytes(cells)
    with pytest.raises(BackendFailure):
        shape.values_from(cells[:-1])
