"""The kept solver, its conflict allowance, the watchdog and time limits (backends/sat/kept.py)."""

import threading
import time

import pytest

pytest.importorskip("pysat")

from sudoku_cp.backends import get_backend  # noqa: E402
from sudoku_cp.backends.sat import (  # noqa: E402
    SatBackend,
    base_cnf,
)
from sudoku_cp.backends.sat.kept import Watchdog  # noqa: E402
from sudoku_cp.grid import Grid  # noqa: E402
from sudoku_cp.result import Mode, Status  # noqa: E402

from ...conftest import (  # noqa: E402
    BAEKJOON_2239,
    EMPTY_4_LEXMIN,
    EMPTY_9_LEXMIN,
    G17,
    brute_force_count,
    naive_lexmin,
    random_multi_solution,
)
from .conftest import (  # noqa: E402
    SCALING,
    first_puzzle,
    solution_of,
)


def test_kept_solver_gives_the_same_answers_as_fresh_ones():
    multi = [
        random_multi_solution(9, givens, seed) for givens, seed in ((30, 52), (32, 53), (36, 2))
    ]
    batch = [
        (multi[0], Mode.LEXMIN, None),
        (multi[0], Mode.COUNT, None),  # blocks every completion it finds
        (multi[0], Mode.LEXMIN, None),  # must still find the lex-min: those clauses are retired
        (multi[1], Mode.COUNT, None),
        (multi[1], Mode.ANY, None),
        (Grid.empty(9), Mode.LEXMIN, 1e-4),  # interrupted (or finished): an interrupted solver goes
        (multi[2], Mode.LEXMIN, None),
        (Grid.parse(BAEKJOON_2239), Mode.COUNT, None),
        (multi[1], Mode.LEXMIN, None),
        (multi[2], Mode.COUNT, None),
        (multi[0], Mode.COUNT, None),
    ]
    with SatBackend() as kept:
        warm = [kept.solve(p, mode=mode, limit=1000, time_limit=limit) for p, mode, limit in batch]
    for (puzzle, mode, limit), result in zip(batch, warm, strict=True):
        if result.status is Status.TIMEOUT:
            assert limit is not None and result.solution is None
            continue
        with SatBackend() as fresh:
            expected = fresh.solve(puzzle, mode=mode, limit=1000)
        assert result.count == expected.count
        solution_of(result, puzzle)
        if mode is Mode.LEXMIN:
            assert result.solution == expected.solution == naive_lexmin(puzzle)
    assert [r.stats["reused"] for r in warm[:5]] == [False, True, True, True, True]
    assert warm[1].count == warm[-1].count == brute_force_count(multi[0], 1000) > 1
    # A timeout that interrupted the solver retires it (the next puzzle says why it has a new
    # one); a limit that ran out before the solver was asked anything (the clock checked first,
    # the watchdog not yet run on a loaded machine) leaves it untouched, and it is kept.
    # test_timeout_interrupts_a_long_search_and_drops_the_solver pins the interrupted case.
    if warm[5].status is Status.TIMEOUT and not warm[6].stats["reused"]:
        assert warm[6].stats["rebuilt"] == "interrupted"


def test_a_puzzle_that_counts_blocks_nothing_for_the_next(backend):
    puzzle = random_multi_solution(9, 28, 51)
    everything = backend.solve(puzzle, mode=Mode.COUNT, limit=100000)
    again = backend.solve(puzzle, mode=Mode.COUNT, limit=100000)
    assert again.count == everything.count == 192 and again.stats["reused"]


def test_count_retires_its_activation_literal():
    # Without the unit clause -act the old blocking clauses stay live for the solver to satisfy.
    with SatBackend() as backend:
        backend.solve(random_multi_solution(9, 30, 52), mode=Mode.COUNT, limit=10)
        (kept,) = backend._solvers.values()
        activation = kept.top
        assert activation > kept.cnf.variables
        assert kept.solver.solve(assumptions=[activation]) is False
        assert kept.solver.get_core() == [activation]


def test_a_kept_solver_past_its_allowance_hands_the_puzzle_to_a_fresh_one():
    # The allowance is checked when the solver restarts, so this needs a search with restarts:
    # minimal + ladder on the empty 9x9 after G17 runs ~200 conflicts (measured, deterministic).
    multi = random_multi_solution(9, 30, 52)
    with SatBackend(encoding="minimal", amo="ladder") as backend:
        backend.solve(Grid.parse(G17))
        (used,) = backend._solvers.values()
        backend.kept_allowance = 1
        result = backend.solve(Grid.empty(9))
        (fresh,) = backend._solvers.values()
        assert fresh is not used and used.retired == "slow" and fresh.retired is None
        # The next puzzles run on that solver, now used, in every mode.
        count = backend.solve(multi, mode=Mode.COUNT, limit=1000)
        lexmin = backend.solve(multi)
    assert result.solution.to_line() == EMPTY_9_LEXMIN
    assert result.stats["rebuilt"] == "slow" and result.stats["reused"] is False
    assert result.stats["abandoned_conflicts"] > 1 and result.stats["abandoned_sat_calls"] >= 1
    assert result.stats["build_seconds"] > 0 and "setup_seconds" not in result.stats
    # The fresh solver ran the whole puzzle again, with no allowance.
    assert result.stats["conflicts"] > 1
    assert count.count == brute_force_count(multi, 1000)
    assert lexmin.solution == naive_lexmin(multi)


def test_no_fallback_when_the_allowance_is_off():
    with SatBackend() as backend:
        backend.kept_allowance = None
        backend.solve(Grid.parse(G17))
        again = backend.solve(Grid.empty(9))
    assert again.stats["reused"] is True and "rebuilt" not in again.stats
    assert again.solution.to_line() == EMPTY_9_LEXMIN


def test_a_fresh_solver_has_no_allowance():
    with SatBackend() as backend:
        backend.kept_allowance = 1
        first = backend.solve(Grid.empty(9))
    assert first.stats["conflicts"] > 1 and "abandoned_conflicts" not in first.stats
    assert first.solution.to_line() == EMPTY_9_LEXMIN


# -- time limits -----------------------------------------------------------------------------------


def test_timeout_interrupts_a_long_search_and_drops_the_solver():
    # minimal + sequential counter needs well over 10 s on the empty 16x16 (measured 20 s+).
    puzzle = Grid.empty(16)
    with SatBackend(encoding="minimal", amo="seqcounter") as backend:
        # A long budget first: the watchdog, asleep until then, must wake for the shorter one.
        assert backend.solve(Grid.empty(4), time_limit=60).status is Status.SOLVED
        result = backend.solve(puzzle, time_limit=0.3)
        assert result.status is Status.TIMEOUT and result.solution is None
        assert result.seconds < 3 and "0.3" in result.reason
        assert backend.solve(Grid.empty(4)).solution.to_line() == EMPTY_4_LEXMIN
        # the interrupted solver is rebuilt, on the next puzzle's clock
        again = backend.solve(puzzle, mode=Mode.ANY, time_limit=60)
        assert again.stats["reused"] is False and again.stats["rebuilt"] == "interrupted"


@pytest.mark.parametrize("mode", [Mode.ANY, Mode.LEXMIN])
def test_a_long_call_on_a_big_grid_stops_at_the_time_limit(mode):
    # Half of a 36x36 given, near the hardness peak: one SAT call for a completion runs on for
    # minutes (no python-sat solver found one in 90 s). Lex-min goes to tightening (over a
    # third given), so in both modes the first call is the long one. The default solver there,
    # minicard (MiniSat), reads the interrupt before every decision; Glucose would run to its
    # next restart. The bound is loose on purpose: it tests the interrupt, not the machine.
    puzzle = first_puzzle(SCALING / "multi50-36x36.txt")
    with SatBackend() as backend:
        result = backend.solve(puzzle, mode=mode, time_limit=0.5)
    assert result.status is Status.TIMEOUT and result.stats["sat_calls"] == 1
    assert result.stats["solver"] == "minicard" and result.seconds < 5


@pytest.mark.parametrize("solver", ["cadical153", "cadical195"])
def test_cadical_keeps_the_time_limit_by_conflict_budgets(solver):
    # No interrupt() for CaDiCaL in python-sat: the limit is read between conflict slices.
    # minimal + sequential counter on the empty 16x16 takes CaDiCaL far longer than 0.3 s.
    with SatBackend(solver=solver, encoding="minimal", amo="seqcounter") as backend:
        result = backend.solve(Grid.empty(16), time_limit=0.3)
        assert result.status is Status.TIMEOUT and result.seconds < 3
        assert backend.solve(Grid.empty(4), time_limit=5).solution.to_line() == EMPTY_4_LEXMIN


class CountedDeadline:
    """A deadline that expires once `left` checks have been made (the clock is not read)."""

    def __init__(self, left):
        self.left = left
        self.at = 1.0  # timed

    def expired(self):
        self.left -= 1
        return self.left < 0


@pytest.mark.parametrize("solver", ["cadical153", "cadical300"])
def test_cadical_reads_the_deadline_before_every_call(solver):
    # Most calls of a lex-min end within one conflict slice, so a deadline read only between
    # slices let call after call run past it (the empty 25x25: 0.3 s became 30 s).
    from sudoku_cp.backends.base import TimeUp
    from sudoku_cp.backends.sat.kept import KeptSolver, PuzzleCalls

    kept = KeptSolver(base_cnf(9, (3, 3), "extended", "pairwise"), solver)
    calls = PuzzleCalls(kept, CountedDeadline(1), Watchdog())  # __enter__ reads it once
    with calls, pytest.raises(TimeUp):
        calls.satisfiable([1])
    assert not calls.suspect  # stopped between calls: the solver is as good as before
    kept.delete()


def test_cadical_preprocesses_while_it_is_built(monkeypatch):
    # CaDiCaL's first call preprocesses before any conflict (seconds on a 25x25, which no
    # conflict budget bounds): KeptSolver makes that call itself, in the set-up.
    from pysat.solvers import Solver

    from sudoku_cp.backends.sat.kept import KeptSolver

    calls = []
    real = Solver.solve_limited
    monkeypatch.setattr(
        Solver, "solve_limited", lambda self, *a, **k: calls.append(a) or real(self, *a, **k)
    )
    cnf = base_cnf(4, (2, 2), "extended", "pairwise")
    KeptSolver(cnf, "cadical195").delete()
    assert len(calls) == 1
    KeptSolver(cnf, "glucose3").delete()
    assert len(calls) == 1


@pytest.mark.parametrize("solver", ["cadical153", "cadical195"])
def test_cadical_lexmin_matches_dfs(solver):

    dfs = get_backend("dfs")
    puzzles = [random_multi_solution(9, 26, seed) for seed in range(5)]
    with SatBackend(solver=solver) as backend:
        for puzzle in puzzles:
            expected = dfs.solve(puzzle).solution
            for time_limit in (None, 30):
                assert backend.solve(puzzle, time_limit=time_limit).solution == expected


class FakeSession:
    def __init__(self):
        self.interrupted = threading.Event()

    def interrupt(self):
        self.interrupted.set()


def test_watchdog_interrupts_at_the_deadline_and_never_after_disarm():
    watchdog = Watchdog()
    long, short, cancelled = FakeSession(), FakeSession(), FakeSession()
    watchdog.arm(long, time.perf_counter() + 60)
    time.sleep(0.05)  # the thread now sleeps until the long deadline
    watchdog.disarm()
    watchdog.arm(short, time.perf_counter() + 0.05)
    assert short.interrupted.wait(1.0)
    watchdog.arm(cancelled, time.perf_counter() + 0.05)
    watchdog.disarm()
    assert not cancelled.interrupted.wait(0.2) and not long.interrupted.is_set()


@pytest.mark.parametrize("far", [1e10, 1e30, float("inf")])
def test_watchdog_survives_a_deadline_too_far_for_the_clock(far, thread_errors):
    watchdog = Watchdog()
    never, soon = FakeSession(), FakeSession()
    watchdog.arm(never, time.perf_counter() + far)
    time.sleep(0.1)  # the thread is now asleep on the far deadline (or dead, before the fix)
    watchdog.arm(soon, time.perf_counter() + 0.05)
    assert soon.interrupted.wait(1.0)
    assert not never.interrupted.is_set()
    assert [error.exc_type for error in thread_errors] == []


@pytest.mark.parametrize("time_limit", [float("inf"), 1e10, 1e30])
def test_non_finite_or_huge_time_limits_mean_no_limit(backend, time_limit, thread_errors):
    puzzle = Grid.parse(G17)
    for mode in Mode:
        solution_of(backend.solve(puzzle, mode=mode, time_limit=time_limit), puzzle)
    time.sleep(0.05)
    assert [error.exc_type for error in thread_errors] == []


def test_nan_time_limit_is_refused(backend):
    with pytest.raises(ValueError, match="nan"):
        backend.solve(Grid.parse(G17), time_limit=float("nan"))


def test_zero_time_limit_is_a_timeout_that_keeps_the_clean_solver(backend):
    backend.solve(Grid.empty(9))
    result = backend.solve(Grid.empty(9), time_limit=0)
    assert result.status is Status.TIMEOUT and result.solution is None
    assert backend.solve(Grid.empty(9)).stats["reused"] is True
