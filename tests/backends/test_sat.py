"""The `sat` backend: encodings, the kept solver, lex-min by tightening, time limits, DIMACS."""

import io
import itertools
import json
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("pysat")

import sudoku_cp.backends.sat as sat  # noqa: E402
from sudoku_cp.backends import get_backend  # noqa: E402
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
from sudoku_cp.result import Mode, Status  # noqa: E402

from ..conftest import (  # noqa: E402
    BAEKJOON_2239,
    BAEKJOON_2239_ANSWER,
    EMPTY_4_LEXMIN,
    EMPTY_9_LEXMIN,
    G17,
    UNSOLVABLE_4,
    brute_force_count,
    full_grid,
    naive_lexmin,
    random_multi_solution,
)

EMPTY_16_ROW_2 = (5, 6, 7, 8, 1, 2, 3, 4, 13, 14, 15, 16, 9, 10, 11, 12)


@pytest.fixture(scope="module")
def backend():
    with SatBackend() as ready:
        yield ready


def solution_of(result, puzzle: Grid) -> Grid:
    assert result.status is Status.SOLVED, result
    assert result.solution is not None and result.solution.is_solution_of(puzzle)
    return result.solution


def blanked(answer: str, blanks: int, seed: int) -> Grid:
    """A solved grid with some cells blanked (a few completions at most)."""
    grid = Grid.parse(answer)
    cells = random.Random(seed).sample(range(len(grid.values)), blanks)
    return grid.with_values({cell: 0 for cell in cells})


# -- known answers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line, answer",
    [
        (BAEKJOON_2239, BAEKJOON_2239_ANSWER),
        ("0" * 81, EMPTY_9_LEXMIN),
        ("0" * 16, EMPTY_4_LEXMIN),
    ],
)
def test_lexmin_known_answers(backend, line, answer):
    puzzle = Grid.parse(line)
    assert solution_of(backend.solve(puzzle), puzzle).to_line() == answer


def test_lexmin_of_the_empty_16x16(backend):
    puzzle = Grid.empty(16)
    rows = solution_of(backend.solve(puzzle), puzzle).rows()
    assert rows[0] == tuple(range(1, 17)) and rows[1] == EMPTY_16_ROW_2


def test_lexmin_of_the_empty_6x6_with_2x3_boxes(backend):
    puzzle = Grid.empty(6, box=(2, 3))
    assert solution_of(backend.solve(puzzle), puzzle) == naive_lexmin(puzzle)


def test_a_full_grid_is_its_own_answer_in_every_mode(backend):
    answer = Grid.parse(BAEKJOON_2239_ANSWER)
    for mode in Mode:
        result = backend.solve(answer, mode=mode, limit=3)
        assert result.solution == answer
        assert result.count == (1 if mode is Mode.COUNT else None)


@pytest.mark.parametrize("mode", list(Mode))
def test_no_completion_without_repeated_givens_is_unsatisfiable(backend, mode):
    result = backend.solve(Grid.parse(UNSOLVABLE_4), mode=mode)
    assert result.status is Status.UNSATISFIABLE and result.solution is None
    assert result.count == (0 if mode is Mode.COUNT else None)


# -- counting --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "size, box, givens, seed",
    [(9, None, 50, 2), (9, None, 36, 2), (9, None, 30, 52), (9, None, 28, 51), (6, (2, 3), 8, 1)],
)
def test_count_equals_the_brute_force_count(backend, size, box, givens, seed):
    puzzle = random_multi_solution(size, givens, seed, box=box)
    expected = brute_force_count(puzzle, 1000)
    result = backend.solve(puzzle, mode=Mode.COUNT, limit=1000)
    assert result.count == expected and 1 < expected < 1000 and not result.limit_reached
    solution_of(result, puzzle)


def test_count_of_the_empty_4x4_is_288_and_stops_at_the_limit(backend):
    puzzle = Grid.empty(4)
    assert backend.solve(puzzle, mode=Mode.COUNT, limit=1000).count == 288
    limited = backend.solve(puzzle, mode=Mode.COUNT, limit=7)
    assert limited.count == 7 and limited.limit_reached
    # One blocking clause per completion except the last: the limit stops the search there.
    assert limited.stats["clauses"] == len(base_cnf(4, (2, 2), "extended", "pairwise").clauses) + 6


# -- lex-min against the reference DFS -------------------------------------------------------------

RANDOM_CASES = (
    [(4, None, givens, seed) for seed, givens in enumerate((0, 2, 3, 4, 5, 6))]
    + [(6, (2, 3), givens, seed) for seed, givens in enumerate((0, 4, 6, 8, 10, 12), 10)]
    + [(6, (3, 2), givens, seed) for seed, givens in enumerate((5, 9), 20)]
    + [(9, None, givens, seed) for seed, givens in enumerate((34, 38, 40, 44, 48), 30)]
)


@pytest.mark.parametrize("size, box, givens, seed", RANDOM_CASES)
def test_lexmin_equals_the_naive_row_major_dfs(backend, size, box, givens, seed):
    puzzle = random_multi_solution(size, givens, seed, box=box)
    assert solution_of(backend.solve(puzzle), puzzle) == naive_lexmin(puzzle)


def expected_calls_for_a_unique_puzzle(puzzle: Grid, solution: Grid) -> int:
    """One call for the first model, then one (UNSAT) call per blank cell that still has a
    smaller value its fixed peers (givens, earlier cells) do not hold."""
    fixed = list(puzzle.values)
    calls = 1
    for cell in puzzle.blanks():
        held = {fixed[peer] for peer in puzzle.geometry.peers[cell]}
        calls += any(v not in held for v in range(1, solution.values[cell]))
        fixed[cell] = solution.values[cell]
    return calls


def test_calls_the_fixed_peers_already_answer_are_skipped(backend):
    for line in (BAEKJOON_2239, G17):
        puzzle = Grid.parse(line)
        result = backend.solve(puzzle)
        expected = expected_calls_for_a_unique_puzzle(puzzle, result.solution)
        assert result.stats["sat_calls"] == expected < len(puzzle.blanks())
        # A unique puzzle: the first call finds the answer, every later one proves a cell.
        assert (
            result.stats["unsat_calls"] == expected - 1 and result.stats["lexmin"] == "tightening"
        )


# -- lex-min by propagation -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def propagating():
    with SatBackend(lexmin="propagation") as ready:
        yield ready


@pytest.mark.parametrize("size, box, givens, seed", RANDOM_CASES)
def test_lexmin_by_propagation_equals_the_naive_row_major_dfs(propagating, size, box, givens, seed):
    puzzle = random_multi_solution(size, givens, seed, box=box)
    result = propagating.solve(puzzle)
    assert solution_of(result, puzzle) == naive_lexmin(puzzle)
    assert result.stats["lexmin"].startswith("propagation")


@pytest.mark.parametrize("size, box", [(16, None), (12, (3, 4)), (8, (2, 4))])
def test_lexmin_by_propagation_agrees_with_tightening(size, box):
    from sudoku_cp.backends import get_backend

    dfs = get_backend("dfs")
    puzzles = [Grid.empty(size, box=box)] + [
        random_multi_solution(size, size * size // divisor, seed, box=box)
        for seed, divisor in enumerate((3, 4, 5))
    ]
    with SatBackend(lexmin="propagation") as propagating, SatBackend() as tightening:
        for puzzle in puzzles:
            result = propagating.solve(puzzle)
            expected = tightening.solve(puzzle).solution
            assert solution_of(result, puzzle) == expected == dfs.solve(puzzle).solution
            assert result.stats["propagate_calls"] >= len(puzzle.blanks())


def test_lexmin_by_propagation_of_the_empty_16x16(propagating):
    result = propagating.solve(Grid.empty(16))
    assert solution_of(result, Grid.empty(16)).values[16:32] == EMPTY_16_ROW_2
    assert result.stats["lexmin"] == "propagation" and result.stats["sat_calls"] == 0


# Puzzles whose row-major fill by propagation meets dead ends (found by a search over seeds).
DEAD_END_PUZZLES = [
    *(random_multi_solution(9, givens, seed) for givens, seed in ((20, 23), (20, 26), (25, 4))),
    *(random_multi_solution(12, 48, seed, box=(3, 4)) for seed in (8, 17)),
]


@pytest.fixture(scope="module")
def dead_end_answers():
    from sudoku_cp.backends import get_backend

    dfs = get_backend("dfs")
    return [dfs.solve(puzzle).solution for puzzle in DEAD_END_PUZZLES]


def test_backjumps_undo_a_dead_end(propagating, dead_end_answers):
    for puzzle, expected in zip(DEAD_END_PUZZLES, dead_end_answers, strict=True):
        result = propagating.solve(puzzle)
        assert solution_of(result, puzzle) == expected
        assert result.stats["backjumps"] >= 1 and result.stats["lexmin"] == "propagation"
        assert result.stats["sat_calls"] == result.stats["backjumps"]  # one call per dead end


def test_a_dead_end_below_the_window_hands_the_puzzle_to_tightening(monkeypatch, dead_end_answers):
    # With no window every cell is a unit clause at once, so the first dead end rests on them:
    # the search gives up and tightening, on the kept solver, answers.
    monkeypatch.setattr(sat, "WINDOW_ROWS", 0)
    with SatBackend(lexmin="propagation") as backend:
        for puzzle, expected in zip(DEAD_END_PUZZLES, dead_end_answers, strict=True):
            result = backend.solve(puzzle)
            assert solution_of(result, puzzle) == expected
            assert result.stats["lexmin"] == "propagation, then tightening"
            assert result.stats["propagation_backjumps"] == 1
            assert "below the window" in result.stats["propagation_gave_up"]


@pytest.mark.parametrize("line", [UNSOLVABLE_4])
def test_lexmin_by_propagation_finds_no_completion(propagating, line):
    result = propagating.solve(Grid.parse(line))
    assert result.status is Status.UNSATISFIABLE and result.solution is None


def test_the_propagation_solver_is_consumed_and_rebuilt_outside_the_clock(propagating):
    first = propagating.solve(Grid.empty(9))
    again = propagating.solve(Grid.empty(9))
    assert first.solution == again.solution and first.solution.to_line() == EMPTY_9_LEXMIN
    assert again.stats["rebuilt"] == "consumed" and again.stats["setup_seconds"] > 0
    # any and count run on the kept solver without the row counts, which stays.
    assert propagating.solve(Grid.empty(9), mode=Mode.ANY).status is Status.SOLVED
    assert propagating.solve(Grid.empty(9), mode=Mode.ANY).stats["reused"] is True


def test_auto_searches_by_propagation_only_on_big_sparse_grids():
    backend = SatBackend()
    assert backend.by_propagation(Grid.empty(25)) and not backend.by_propagation(Grid.empty(20))
    assert not backend.by_propagation(one_blank(25))  # more than a third given: tightening
    assert not SatBackend(solver="cadical195").by_propagation(Grid.empty(25))
    assert not SatBackend(lexmin="tightening").by_propagation(Grid.empty(36))
    assert SatBackend(lexmin="propagation").by_propagation(Grid.empty(4))


def test_auto_solver_is_glucose_below_25_and_minisat_from_there():
    assert sat.solver_for("auto", 24) == "glucose3" and sat.solver_for("auto", 25) == "minisatgh"
    assert sat.solver_for("glucose4", 49) == "glucose4"
    with SatBackend() as backend:
        assert backend.solve(Grid.empty(9)).stats["solver"] == "glucose3"


@pytest.mark.parametrize("solver", ["cadical195", "cadical103"])
def test_propagation_refuses_solvers_whose_propagate_is_not_trusted(solver):
    with pytest.raises(BackendOptionError, match="propagate"):
        SatBackend(solver=solver, lexmin="propagation")


class ExpiringDeadline(sat.Deadline):
    """A deadline that runs out at its k-th check: a time limit met at a known point."""

    def __init__(self, checks: int) -> None:
        super().__init__(3600.0)
        self.checks = checks

    def expired(self) -> bool:
        self.checks -= 1
        return self.checks < 0


def test_the_search_by_propagation_stops_at_the_deadline_between_two_propagations():
    with SatBackend(lexmin="propagation") as backend:
        backend.prepare(Grid.empty(16))
        # The session checks once on entry, then before every propagate() call.
        outcome = backend._solve(
            Grid.empty(16), mode=Mode.LEXMIN, limit=2, deadline=ExpiringDeadline(51)
        )
    assert outcome.status is Status.TIMEOUT
    assert outcome.stats["propagate_calls"] == 50


# -- encodings -------------------------------------------------------------------------------------

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


# -- the kept solver -------------------------------------------------------------------------------


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
    if warm[5].status is Status.TIMEOUT:
        assert warm[6].stats["reused"] is False


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


def test_close_drops_the_solvers_and_the_backend_still_works():
    backend = SatBackend()
    backend.solve(Grid.empty(4))
    backend.close()
    result = backend.solve(Grid.empty(4))
    assert result.stats["reused"] is False and result.solution.to_line() == EMPTY_4_LEXMIN


def one_blank(size: int) -> Grid:
    """A full grid of this size with its last cell blank: one SAT call solves it."""
    full = full_grid(size, random.Random(size))
    return full.with_values({size * size - 1: 0})


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


@pytest.mark.parametrize("size, time_limit", [(16, 0.02), (25, 0.2)])
def test_the_first_build_of_a_shape_is_set_up_outside_the_time_limit(size, time_limit):
    # Loading the 16x16 CNF takes ~50 ms and the 25x25 one ~0.35 s, both over their limit;
    # the 25x25 one-blank solve itself takes 5-18 ms of CPU, too close to 0.02 s on a busy box.
    puzzle = one_blank(size)
    with SatBackend() as backend:
        result = backend.solve(puzzle, time_limit=time_limit)
    solution_of(result, puzzle)
    assert result.stats["setup_seconds"] > 0 and result.stats["reused"] is False
    assert "rebuilt" not in result.stats


def test_after_a_timeout_the_solver_is_rebuilt_outside_the_next_time_limit():
    # The empty 25x25 lex-min by tightening needs seconds (13,157 conflicts), so 0.3 s
    # interrupts a SAT call.
    with SatBackend(lexmin="tightening") as backend:
        timed_out = backend.solve(Grid.empty(25), time_limit=0.3)
        assert timed_out.status is Status.TIMEOUT
        (interrupted,) = backend._solvers.values()
        assert interrupted.retired == "interrupted"
        puzzle = one_blank(25)
        # The rebuild takes about 0.25 s, the one-blank solve milliseconds: 0.2 s holds only
        # the solve (0.02 s failed on a loaded machine).
        result = backend.solve(puzzle, time_limit=0.2)
        (kept,) = backend._solvers.values()
    solution_of(result, puzzle)
    assert kept is not interrupted  # (it may be retired again if 0.2 s ran out after its answer)
    assert result.stats["rebuilt"] == "interrupted" and result.stats["setup_seconds"] > 0


def test_solve_prepares_the_solver_of_the_puzzles_mode():
    """`Backend.solve` passes the mode to `prepare_for` (sat has no `solve` of its own): a lex-min
    by propagation gets the solver with the row counts, any and count the kept one, each built
    before the clock; a direct `prepare(grid)` prepares for lex-min."""
    assert "solve" not in vars(SatBackend)
    grid = Grid.empty(9)
    with SatBackend(lexmin="propagation") as backend:
        assert "setup_seconds" in backend.solve(grid, mode=Mode.ANY).stats
        assert [key[-1] for key in backend._solvers] == [False]  # the kept one, no row counts
        assert "setup_seconds" in backend.solve(grid).stats
        assert sorted(key[-1] for key in backend._solvers) == [False, True]
    with SatBackend(lexmin="propagation") as backend:
        assert backend.prepare(grid) and [key[-1] for key in backend._solvers] == [True]
        assert backend.prepare_for(grid, "count") and len(backend._solvers) == 2
        assert not backend.prepare_for(grid, Mode.ANY)  # built already: nothing to do


def test_a_puzzle_without_prepare_still_gets_a_solver():
    # Backend.solve always prepares; a direct _solve call builds on the clock instead.
    from sudoku_cp.backends.base import Deadline

    with SatBackend() as backend:
        outcome = backend._solve(Grid.empty(4), mode=Mode.LEXMIN, limit=2, deadline=Deadline(None))
    assert outcome.values == tuple(int(c) for c in EMPTY_4_LEXMIN)
    assert outcome.stats["reused"] is False


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
        assert backend.solve(puzzle, mode=Mode.ANY, time_limit=0.3).stats["reused"] is False


SCALING = Path(__file__).resolve().parents[2] / "data" / "generated" / "scaling"


def first_puzzle(path: Path) -> Grid:
    return Grid.parse(next(line for line in path.read_text().splitlines() if line[:1] != "#"))


def test_the_empty_36x36_lexmin_keeps_a_tight_time_limit():
    # The case: a 0.5 s limit ended after 8-58 s, inside one uninterruptible Glucose
    # call. The search by propagation needs ~2,300 propagate() calls of up to a millisecond
    # here and reads the clock before each, so 0.05 s stops it early. The bound is the issue's
    # own, max(1 s, 10 %) past the limit.
    with SatBackend() as backend:
        result = backend.solve(Grid.empty(36), time_limit=0.05)
    assert result.status is Status.TIMEOUT and result.stats["lexmin"] == "propagation"
    assert result.stats["propagate_calls"] < 36 * 36 and result.seconds < 0.05 + 1.0


@pytest.mark.parametrize("mode", [Mode.ANY, Mode.LEXMIN])
def test_a_long_call_on_a_big_grid_stops_at_the_time_limit(mode):
    # Half of a 36x36 given, near the hardness peak: one SAT call for a completion runs on for
    # minutes (no python-sat solver found one in 90 s). Lex-min goes to tightening (over a
    # third given), so in both modes the first call is the long one. The default solver there,
    # minisatgh, reads the interrupt before every decision; Glucose would run to its next
    # restart. The bound is loose on purpose: it tests the interrupt, not the machine.
    puzzle = first_puzzle(SCALING / "multi50-36x36.txt")
    with SatBackend() as backend:
        result = backend.solve(puzzle, mode=mode, time_limit=0.5)
    assert result.status is Status.TIMEOUT and result.stats["sat_calls"] == 1
    assert result.stats["solver"] == "minisatgh" and result.seconds < 5


@pytest.mark.parametrize("solver", ["cadical153", "cadical195"])
def test_cadical_keeps_the_time_limit_by_conflict_budgets(solver):
    # No interrupt() for CaDiCaL in python-sat: the limit is read between conflict slices.
    # minimal + sequential counter on the empty 16x16 takes CaDiCaL far longer than 0.3 s.
    with SatBackend(solver=solver, encoding="minimal", amo="seqcounter") as backend:
        result = backend.solve(Grid.empty(16), time_limit=0.3)
        assert result.status is Status.TIMEOUT and result.seconds < 3
        assert backend.solve(Grid.empty(4), time_limit=5).solution.to_line() == EMPTY_4_LEXMIN


@pytest.mark.parametrize("solver", ["cadical153", "cadical195"])
def test_cadical_lexmin_matches_dfs(solver):
    from sudoku_cp.backends import get_backend

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
    watchdog = sat._Watchdog()
    long, short, cancelled = FakeSession(), FakeSession(), FakeSession()
    watchdog.arm(long, time.perf_counter() + 60)
    time.sleep(0.05)  # the thread now sleeps until the long deadline
    watchdog.disarm()
    watchdog.arm(short, time.perf_counter() + 0.05)
    assert short.interrupted.wait(1.0)
    watchdog.arm(cancelled, time.perf_counter() + 0.05)
    watchdog.disarm()
    assert not cancelled.interrupted.wait(0.2) and not long.interrupted.is_set()


@pytest.fixture
def thread_errors(monkeypatch):
    """Every exception a thread does not catch (what would print 'Exception in thread ...')."""
    caught = []
    monkeypatch.setattr(threading, "excepthook", caught.append)
    return caught


@pytest.mark.parametrize("far", [1e10, 1e30, float("inf")])
def test_watchdog_survives_a_deadline_too_far_for_the_clock(far, thread_errors):
    watchdog = sat._Watchdog()
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


def test_count_timeout_reports_the_completions_found_so_far():
    with SatBackend(encoding="minimal", amo="seqcounter") as backend:
        result = backend.solve(Grid.empty(16), mode=Mode.COUNT, limit=10, time_limit=0.2)
    assert result.status is Status.TIMEOUT and result.solution is None
    assert result.count is not None and result.count < 10


# -- options, stats, versions ----------------------------------------------------------------------


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


def test_stats_are_honest_json_scalars(backend):
    backend.close()
    first = backend.solve(Grid.parse(BAEKJOON_2239))
    second = backend.solve(Grid.parse(BAEKJOON_2239))
    for result in (first, second):
        json.dumps(dict(result.stats))
        assert all(isinstance(v, (int, float, str, bool)) for v in result.stats.values())
        assert result.stats["variables"] == 729 and result.stats["sat_calls"] >= 1
        assert {"conflicts", "decisions", "propagations", "solve_seconds"} <= set(result.stats)
    assert first.stats["build_seconds"] > 0 and first.stats["reused"] is False
    assert second.stats["build_seconds"] == 0 and second.stats["reused"] is True
    assert second.stats["propagations"] > 0


def test_versions_names_python_sat():
    assert SatBackend.versions()["python-sat"].startswith("1.9")


def test_importing_the_module_loads_no_pysat():
    code = (
        "import sys, sudoku_cp.backends.sat as sat; sat.SatBackend.versions(); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pysat'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


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
