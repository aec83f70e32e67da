"""The backend contract's one deadline: `Deadline.check` raises `TimeUp`, and a `TimeUp` that
escapes a backend's `_solve` is still a timeout, never an error. The set-up before the clock:
`prepare(grid)` as plugins write it, and `prepare_for(grid, mode)` for set-up that needs the
mode."""

import time

import pytest

from sudoku_cp.backends import Backend, Deadline, Outcome, TimeUp
from sudoku_cp.grid import Grid
from sudoku_cp.result import Mode, Status


class SlowBackend(Backend):
    name = "slow"
    description = "waits for its deadline, then lets TimeUp escape"

    def _solve(self, grid, *, mode, limit, deadline):
        while True:
            deadline.check()
            time.sleep(0.001)
        return Outcome(Status.SOLVED)  # pragma: no cover


def test_check_raises_time_up_once_the_time_is_out():
    Deadline(None).check()
    Deadline(10).check()
    with pytest.raises(TimeUp):
        Deadline(0).check()


def test_an_escaping_time_up_is_a_timeout():
    result = SlowBackend().solve(Grid.parse("0" * 16), time_limit=0.02)
    assert result.status is Status.TIMEOUT and result.solution is None
    assert 0.02 <= result.seconds < 1


class Recording(Backend):
    """Solves nothing (every puzzle a timeout at once); records the set-up it is asked for."""

    name = "recording"
    description = "records its set-up calls"

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[object, ...]] = []

    def _solve(self, grid, *, mode, limit, deadline):
        return Outcome(Status.TIMEOUT)


class OldStyle(Recording):
    """A backend written against `prepare(self, grid)`, as plugins are (sudoku-cp-choco)."""

    def prepare(self, grid: Grid) -> bool:
        self.calls.append(("prepare", grid.size))
        return True


class ModeAware(Recording):
    """A backend whose set-up depends on the mode, as `sat`'s does."""

    def prepare(self, grid: Grid) -> bool:
        return self.prepare_for(grid, Mode.LEXMIN)

    def prepare_for(self, grid: Grid, mode: Mode | str) -> bool:
        self.calls.append(("prepare_for", grid.size, Mode(mode)))
        return True


def test_an_old_style_prepare_is_run_before_the_clock_in_every_mode():
    backend = OldStyle()
    for mode in Mode:
        result = backend.solve(Grid.empty(4), mode=mode)
        assert "setup_seconds" in result.stats  # it said there was set-up: timed apart
    assert backend.calls == [("prepare", 4)] * len(Mode)
    assert backend.prepare_for(Grid.empty(9), Mode.COUNT) and backend.calls[-1] == ("prepare", 9)


def test_a_mode_aware_backend_is_prepared_for_the_puzzles_mode():
    backend = ModeAware()
    for mode in Mode:
        backend.solve(Grid.empty(4), mode=mode.value)
    assert backend.calls == [("prepare_for", 4, mode) for mode in Mode]
    assert backend.prepare(Grid.empty(9)) and backend.calls[-1] == ("prepare_for", 9, Mode.LEXMIN)


def test_a_backend_without_set_up_has_none():
    backend = Recording()
    assert backend.prepare(Grid.empty(4)) is False
    assert backend.prepare_for(Grid.empty(4), Mode.ANY) is False
    assert "setup_seconds" not in backend.solve(Grid.empty(4)).stats
