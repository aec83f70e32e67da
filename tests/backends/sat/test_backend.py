"""`SatBackend` (backends/sat/backend.py): set-up outside the clock, rebuilds, stats, versions,
no python-sat import at import time."""

import json
import subprocess
import sys

import pytest

pytest.importorskip("pysat")

from sudoku_cp.backends.base import Deadline  # noqa: E402
from sudoku_cp.backends.sat import (  # noqa: E402
    SatBackend,
)
from sudoku_cp.backends.sat.backend import REBUILD_TOO_LONG  # noqa: E402
from sudoku_cp.grid import Grid  # noqa: E402
from sudoku_cp.result import Mode, Status  # noqa: E402

from ...conftest import (  # noqa: E402
    BAEKJOON_2239,
    EMPTY_4_LEXMIN,
)
from .conftest import (  # noqa: E402
    one_blank,
    solution_of,
)


def test_close_drops_the_solvers_and_the_backend_still_works():
    backend = SatBackend()
    backend.solve(Grid.empty(4))
    backend.close()
    result = backend.solve(Grid.empty(4))
    assert result.stats["reused"] is False and result.solution.to_line() == EMPTY_4_LEXMIN


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


def test_after_a_timeout_the_solver_is_rebuilt_within_the_next_time_limit():
    # The empty 25x25 lex-min by tightening needs seconds, so 0.3 s interrupts a SAT call. The
    # rebuild is the next puzzle's cost (a time limit bounds each puzzle's wall time): it runs
    # on that puzzle's clock, and only a shape's first build is set-up.
    with SatBackend(lexmin="tightening") as backend:
        timed_out = backend.solve(Grid.empty(25), time_limit=0.3)
        assert timed_out.status is Status.TIMEOUT and "setup_seconds" in timed_out.stats
        (interrupted,) = backend._solvers.values()
        assert interrupted.retired == "interrupted"
        puzzle = one_blank(25)
        result = backend.solve(puzzle, time_limit=60)
        (kept,) = backend._solvers.values()
    solution_of(result, puzzle)
    assert kept is not interrupted
    assert result.stats["rebuilt"] == "interrupted" and "setup_seconds" not in result.stats
    assert 0 < result.stats["build_seconds"] <= result.seconds


def test_a_rebuild_that_takes_longer_than_the_time_left_is_not_started():
    with SatBackend(lexmin="tightening") as backend:
        assert backend.solve(Grid.empty(25), time_limit=0.3).status is Status.TIMEOUT
        key = next(iter(backend._solvers))
        backend._build_seconds[key] = 5.0  # as if the last build had taken 5 s
        result = backend.solve(one_blank(25), time_limit=1)
        assert result.status is Status.TIMEOUT and REBUILD_TOO_LONG in result.reason
        (still,) = backend._solvers.values()
        assert still.retired == "interrupted"  # nothing was built


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

    with SatBackend() as backend:
        outcome = backend._solve(Grid.empty(4), mode=Mode.LEXMIN, limit=2, deadline=Deadline(None))
    assert outcome.values == tuple(int(c) for c in EMPTY_4_LEXMIN)
    assert outcome.stats["reused"] is False


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
