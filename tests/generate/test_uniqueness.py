"""generate.uniqueness: the removal's questions on a kept SAT solver, their witnesses, and
Ctrl-C during a question."""

from __future__ import annotations

import pytest

from sudoku_cp.backends import get_backend
from sudoku_cp.generate import CompletionCounter, UniquenessChecks, exchange_givens
from sudoku_cp.grid import BLANK, Grid

from ..conftest import EMPTY_9_LEXMIN
from .conftest import assert_minimal_and_unique, minimal_puzzle, usable


@pytest.mark.parametrize("seed", range(4))
def test_witnesses_only_skip_questions_they_answer(dfs, sat_checks, seed):
    # Every refused removal keeps a witness: the cells where another completion differs. The
    # exchange search skips a given whose witness holds no new given, so a wrong skip would leave
    # a given that can go; the final puzzle must be minimal, checked here by dfs alone.
    solution, values, witnesses, rng = minimal_puzzle(9, seed, sat_checks, dfs)
    assert sorted(witnesses) == [cell for cell, value in enumerate(values) if value != BLANK]
    for cell, witness in witnesses.items():  # the other completion differs at the cell itself
        assert cell in witness
        assert all(values[other] == BLANK for other in witness - {cell})
    exchange_givens(solution, values, witnesses, rng, sat_checks, target=0, moves=81)
    assert_minimal_and_unique(values, solution, dfs)
    for cell, witness in witnesses.items():  # still the witness of a second completion
        assert cell in witness and all(values[other] == BLANK for other in witness - {cell})


def test_the_sat_questions_give_the_counters_puzzle(dfs, sat_checks):
    # The witnesses and the kept solver change the speed only: asking every question as a count
    # up to 2 (no witness) makes the same puzzle from the same seed.
    solution, by_sat, sat_witnesses, rng = minimal_puzzle(9, 5, sat_checks, dfs)
    exchange_givens(solution, by_sat, sat_witnesses, rng, sat_checks, target=0, moves=81)
    counted = UniquenessChecks(CompletionCounter(dfs), use_sat=False)
    solution_again, by_count, witnesses, rng = minimal_puzzle(9, 5, counted, dfs)
    assert solution_again == solution
    exchange_givens(solution, by_count, witnesses, rng, counted, target=0, moves=81)
    assert by_count == by_sat
    assert sat_checks.counter.calls < counted.counter.calls  # the witnesses saved questions


def test_ctrl_c_during_a_uniqueness_question_is_a_keyboard_interrupt(sat_checks, monkeypatch):
    # python-sat's C solvers catch SIGINT during a call and raise `pysolvers.error: Caught
    # keyboard interrupt`; the question hands it on as KeyboardInterrupt, which the CLI ends
    # with one line and exit 130 (it was a traceback and exit 1).
    import pysolvers

    solution = Grid.parse(EMPTY_9_LEXMIN)
    sat_checks.start(solution)

    def interrupted(*args, **kwargs):
        raise pysolvers.error("Caught keyboard interrupt")

    monkeypatch.setattr(sat_checks._solver, "solve", interrupted)
    with pytest.raises(KeyboardInterrupt):
        sat_checks.alternative(list(solution.values), 0)

    def failed(*args, **kwargs):
        raise RuntimeError("out of memory")

    monkeypatch.setattr(sat_checks._solver, "solve", failed)
    with pytest.raises(RuntimeError, match="out of memory"):  # any other error stays itself
        sat_checks.alternative(list(solution.values), 0)


def test_building_the_kept_solver_is_a_phase_of_its_own(dfs):
    # On the biggest grids the build takes minutes: the progress line must say so rather than
    # stand still at the first removal.
    if not usable("sat"):
        pytest.skip("the sat backend is not installed")
    notes: list[str] = []
    with get_backend("sat") as sat:
        counter = CompletionCounter(sat, on_progress=lambda effort: notes.append(effort.note()))
        checks = UniquenessChecks(counter, use_sat=True)
        counter.enter("removing", givens=81)
        checks.start(Grid.parse(EMPTY_9_LEXMIN))
        checks.close()
    assert notes == [
        "removing givens, 81 left; 0 questions, 0.0 s",
        "building the SAT solver; 0 questions, 0.0 s",
        "removing givens, 81 left; 0 questions, 0.0 s",
    ]
