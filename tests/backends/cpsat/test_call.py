"""Tests of the watched CP-SAT call: one budget, the helper thread, the statuses."""

from __future__ import annotations

import itertools
import threading

import pytest

from sudoku_cp.backends import get_backend
from sudoku_cp.backends.cpsat import call
from sudoku_cp.backends.cpsat.backend import LEXMIN_METHODS
from sudoku_cp.errors import BackendFailure
from sudoku_cp.grid import Grid
from sudoku_cp.result import Status

from .conftest import BAEKJOON_2239, EMPTY25_ROWS, EMPTY_LEXMIN, SERG_FIRST, replace_status

cmh = pytest.importorskip("ortools.sat.python.cp_model_helper")
CpStatus = cmh.CpSolverStatus  # CP-SAT's statuses (ours are `Status`)


@pytest.mark.parametrize("mode", ["lexmin", "any", "count"])
def test_time_limit_gives_timeout_or_a_right_answer(mode, backend):
    grid = Grid.empty(25)
    result = backend.solve(grid, mode=mode, limit=10**9, time_limit=0.5)
    assert result.seconds < 3.0
    if mode == "count":  # a billion completions cannot be enumerated in half a second
        assert result.status is Status.TIMEOUT and result.solution is None
        assert result.reason.startswith("no answer within 0.5 s (while counting, ")
        assert result.reason.endswith(f" {result.count} completions found)")
    elif result.status is Status.SOLVED:
        assert result.solution.is_solution_of(grid)
        if mode == "lexmin":
            assert {i: list(result.solution.rows()[i]) for i in EMPTY25_ROWS} == EMPTY25_ROWS
    else:
        assert result.status is Status.TIMEOUT and result.solution is None
        assert result.reason.startswith("no answer within 0.5 s (in the search")


def test_zero_time_limit_times_out_without_an_answer(backend):
    result = backend.solve(Grid.empty(9), time_limit=0.0)
    assert (result.status, result.solution) == (Status.TIMEOUT, None)
    assert result.reason == "no answer within 0 s (in the search)"


def test_one_budget_across_all_stages(solve_calls, staged):
    result = staged.solve(Grid.empty(9), time_limit=30.0)
    budgets = [call["max_time"] for call in solve_calls]
    # 81 blank cells: 16 while all 9 values are open, longer chunks once frozen cells close some
    assert len(budgets) == result.stats["stages"] == 4
    assert all(30.0 >= a >= b for a, b in itertools.pairwise(budgets))


@pytest.mark.parametrize("time_limit", [None, float("inf"), 1e30, 2e9])
@pytest.mark.parametrize("method", LEXMIN_METHODS)
def test_an_unbounded_time_limit_reaches_cp_sat_as_no_limit(time_limit, method, solve_calls):
    result = get_backend("cpsat", lexmin=method).solve(Grid.empty(9), time_limit=time_limit)
    assert result.solution.to_line() == EMPTY_LEXMIN[9, None]
    assert solve_calls and all(call["max_time"] == float("inf") for call in solve_calls)


def test_a_finite_time_limit_reaches_cp_sat(solve_calls, backend):
    backend.solve(Grid.parse(BAEKJOON_2239), time_limit=1e6)
    assert solve_calls and all(0 < call["max_time"] <= 1e6 for call in solve_calls)


def test_a_call_that_outlives_its_budget_is_left_behind(monkeypatch):
    """CP-SAT does not look at its limit while it copies, validates and expands a model (seconds
    on a 49x49). The backend does not wait for such a call: TIMEOUT at the deadline, the call told
    to stop, its kept model left alone until the next puzzle has waited for the call (on its own
    clock: a time limit bounds each puzzle's wall time) and cleaned the model. Here the call
    blocks until the test releases it."""
    released = threading.Event()
    real_call = call.call_cp_sat

    def stubborn(wrapper, proto, parameters):
        released.wait(60)  # a step that never looks at the limit
        return real_call(wrapper, proto, parameters)

    backend = get_backend("cpsat")
    puzzle = Grid.parse(SERG_FIRST)
    assert backend.prepare(puzzle)
    monkeypatch.setattr(call, "call_cp_sat", stubborn)
    result = backend.solve(puzzle, time_limit=0.05)
    assert not released.is_set()
    assert (result.status, result.solution) == (Status.TIMEOUT, None)
    assert "does not interrupt" in result.reason
    assert result.reason == (
        "no answer within 0.05 s (in the search: CP-SAT told to stop in a step it does not "
        "interrupt)"
    )
    shape = backend._models[9, (3, 3), "boolean"]
    assert shape.busy is not None and shape.busy.is_alive()  # back before the call ended
    assert len(shape.proto.assumptions) == len(puzzle.givens())  # untouched while it is read
    monkeypatch.undo()
    # the next puzzle waits for the call within its own limit, not in the set-up
    assert not backend.prepare(puzzle) and shape.busy is not None
    waited = backend.solve(puzzle, time_limit=0.2)
    assert waited.status is Status.TIMEOUT and shape.busy.is_alive()  # gave up waiting
    assert "waiting for an earlier puzzle's call" in waited.reason
    released.set()
    assert backend.solve(puzzle, time_limit=60).status is Status.SOLVED  # waited, cleaned
    assert shape.busy is None and not backend._busy
    assert len(shape.proto.assumptions) == 0 and len(shape.proto.search_strategy) == 0
    assert backend.solve(puzzle).solution == get_backend("dfs").solve(puzzle).solution


def test_a_call_within_its_budget_is_waited_for(solve_calls, backend):
    """Under a limit the call runs on a helper thread; one that ends in time is an answer."""
    result = backend.solve(Grid.parse(SERG_FIRST), time_limit=60.0)
    assert result.status is Status.SOLVED and len(solve_calls) == 1
    assert 0 < solve_calls[0]["max_time"] <= 60.0
    assert not backend._busy


@pytest.mark.parametrize("mode", ["lexmin", "any", "count"])
def test_nan_time_limit_is_refused(mode, backend):
    with pytest.raises(ValueError, match="nan"):
        backend.solve(Grid.empty(4), mode=mode, time_limit=float("nan"))


@pytest.mark.parametrize("mode", ["lexmin", "any", "count"])
def test_model_invalid_raises_backend_failure(mode, monkeypatch, backend):
    replace_status(monkeypatch, CpStatus.MODEL_INVALID)
    with pytest.raises(BackendFailure, match="MODEL_INVALID"):
        backend.solve(Grid.empty(4), mode=mode)


@pytest.mark.parametrize("mode", ["lexmin", "any", "count"])
def test_unknown_without_a_time_limit_raises_backend_failure(mode, monkeypatch, backend):
    replace_status(monkeypatch, CpStatus.UNKNOWN)
    with pytest.raises(BackendFailure, match="UNKNOWN"):
        backend.solve(Grid.empty(4), mode=mode, limit=1000)  # 288 completions: limit not reached


@pytest.mark.parametrize(("method", "from_call"), [("objective", 2), ("search", 1)])
def test_unknown_under_a_time_limit_is_a_timeout(method, from_call, monkeypatch):
    replace_status(monkeypatch, CpStatus.UNKNOWN, from_call=from_call)
    result = get_backend("cpsat", lexmin=method).solve(Grid.empty(9), time_limit=60.0)
    assert (result.status, result.solution) == (Status.TIMEOUT, None)
    assert result.reason == (
        "no answer within 60 s (in stage 2, 42 blank cells after it)"
        if method == "objective"
        else "no answer within 60 s (in the search)"
    )
