"""The solver process (backends/solver_process.py): z3 and exact with `process=helper` run their
solver in a child that is killed past the deadline (skipped where the solver is not installed)."""

from __future__ import annotations

import pytest

import sudoku_cp.backends.solver_process as solver_process
from sudoku_cp.backends import backend_class, get_backend
from sudoku_cp.grid import Grid
from sudoku_cp.result import Status

from ..conftest import EMPTY_9_LEXMIN
from .test_lexmin import _configurations

HELPED = _configurations(("z3", {}), ("exact", {}))


@pytest.mark.parametrize("configuration", HELPED)
def test_a_solver_process_that_overruns_is_killed_and_the_next_puzzle_gets_a_new_one(
    configuration, monkeypatch
):
    name, options = configuration
    with get_backend(name, **options) as backend:
        backend.prepare(Grid.empty(9))
        child = backend.solver_process.process
        monkeypatch.setattr(
            solver_process, "KILL_GRACE_SECONDS", -5.0
        )  # killed before it can answer
        result = backend.solve(Grid.empty(9), time_limit=1)
        assert result.status is Status.TIMEOUT and result.stats["helper"] == "killed"
        assert child.poll() is not None  # the child is gone
        monkeypatch.setattr(solver_process, "KILL_GRACE_SECONDS", 0.25)
        # restarted and rebuilt on the next puzzle's clock (each puzzle's wall time is bounded)
        again = backend.solve(Grid.empty(9), time_limit=60)
        assert "setup_seconds" not in again.stats and backend.solver_process.process is not child
        assert again.solution.to_line() == EMPTY_9_LEXMIN
        assert again.stats["helper_cpu_seconds"] > 0


@pytest.mark.parametrize("configuration", HELPED)
def test_a_rebuild_that_overruns_the_next_puzzles_limit_is_killed_too(configuration, monkeypatch):
    name, options = configuration
    with get_backend(name, **options) as backend:
        backend.prepare(Grid.empty(9))
        monkeypatch.setattr(solver_process, "KILL_GRACE_SECONDS", -5.0)
        assert backend.solve(Grid.empty(9), time_limit=1).status is Status.TIMEOUT
        # the restarted child cannot build the model before this puzzle's deadline
        late = backend.solve(Grid.empty(9), time_limit=0.01)
        assert late.status is Status.TIMEOUT and "rebuilding the helper" in late.reason
        assert not backend.solver_process.alive()
        monkeypatch.setattr(solver_process, "KILL_GRACE_SECONDS", 0.25)
        assert backend.solve(Grid.empty(9), time_limit=60).status is Status.SOLVED


@pytest.mark.parametrize("configuration", HELPED)
def test_close_ends_the_solver_process(configuration):
    name, options = configuration
    backend = get_backend(name, **options)
    backend.solve(Grid.empty(4))
    child = backend.solver_process.process
    backend.close()
    assert child.poll() is not None and backend.solver_process.process is None


def test_the_parent_keeps_its_signal_handlers_with_exact():
    # Exact installs C handlers for SIGINT and SIGTERM; in the solver process they never reach us.
    import signal

    if not backend_class("exact").is_available():
        pytest.skip("needs exact")
    before = signal.getsignal(signal.SIGTERM)
    caught = []
    signal.signal(signal.SIGTERM, lambda number, frame: caught.append(number))
    try:
        with get_backend("exact") as backend:
            backend.solve(Grid.empty(9))
            signal.raise_signal(signal.SIGTERM)
        assert caught == [signal.SIGTERM]
    finally:
        signal.signal(signal.SIGTERM, before)


def test_a_child_whose_parent_is_gone_exits_without_a_word():
    # When the driver was killed (SIGTERM, SIGKILL), its helpers' answers met a closed pipe and
    # each printed a BrokenPipeError traceback on the terminal they share.
    import pickle
    import subprocess
    import sys

    child = subprocess.Popen(
        [sys.executable, "-m", "sudoku_cp.backends.solver_process"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdin is not None and child.stdout is not None
    child.stdout.close()  # the parent's end of the answers, gone
    pickle.dump(("build", "dfs", {}, 4, (2, 2)), child.stdin)  # any request gets an answer
    child.stdin.close()
    assert child.wait(timeout=60) == 0
    assert child.stderr is not None and child.stderr.read().decode() == ""
    child.stderr.close()
