"""The backend contract's one deadline: `Deadline.check` raises `TimeUp`, and a `TimeUp` that
escapes a backend's `_solve` is still a timeout, never an error."""

import time

import pytest

from sudoku_cp.backends import Backend, Deadline, Outcome, TimeUp
from sudoku_cp.grid import Grid
from sudoku_cp.result import Status


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
