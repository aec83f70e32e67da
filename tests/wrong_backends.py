"""Deliberately wrong backends for the crosscheck and engine tests, built on the dfs backend.

They use only the public backend contract (`Backend._solve` returning an `Outcome`), never the
internals of the dfs search. `WRONG_BACKENDS` maps registry names to class names; the
`wrong_backends` fixture puts them in the registry for the length of one test, through the one
public way to do so, `sudoku_cp.backends.registered` (forked workers inherit the registry).

The backends that end their process (`ProcessKillerBackend`, `KillOnceBackend`) only do so in a
worker: in the test process itself they raise instead, so a test run inline cannot kill pytest.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from typing import ClassVar

import pytest

from sudoku_cp.backends import registered
from sudoku_cp.backends.base import Deadline, Outcome
from sudoku_cp.backends.dfs import DfsBackend
from sudoku_cp.errors import BackendFailure
from sudoku_cp.grid import BLANK, Grid
from sudoku_cp.result import Mode, Status

TEST_PROCESS = os.getpid()  # forked workers inherit the value, so they can tell they are not it


def _die(code: int) -> None:
    """End this worker process at once, as a native solver aborting would."""
    if os.getpid() == TEST_PROCESS:
        raise RuntimeError("refusing to end the test process itself (run me in a worker)")
    os._exit(code)


class NotLexminBackend(DfsBackend):
    """Lexmin answers another valid completion: the next one after the lex-min, in row-major
    order (so, on a puzzle with one completion, the right answer)."""

    name = "notlexmin"
    guarantees_lexmin = False  # it says so: a portfolio does not race it in lexmin mode

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        outcome = super()._solve(grid, mode=mode, limit=limit, deadline=deadline)
        if mode is not Mode.LEXMIN or outcome.values is None:
            return outcome
        lexmin = outcome.values
        blanks = grid.blanks()
        # The lex-successor: the last blank that can take a larger value, the blanks before it
        # kept as in the lex-min, the ones after it solved again (smallest first).
        for position in reversed(range(len(blanks))):
            cell = blanks[position]
            prefix = {earlier: lexmin[earlier] for earlier in blanks[:position]}
            for value in range(lexmin[cell] + 1, grid.size + 1):
                trial = grid.with_values({**prefix, cell: value})
                if trial.conflicts():
                    continue
                successor = super()._solve(trial, mode=Mode.LEXMIN, limit=limit, deadline=deadline)
                if successor.values is not None:
                    return Outcome(Status.SOLVED, successor.values, stats=outcome.stats)
        return outcome


class RuleBreakerBackend(DfsBackend):
    """Swaps the values of the first two blank cells of the first row that has two (the row
    stays valid, their columns break), on puzzles with givens only."""

    name = "rulebreaker"

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        outcome = super()._solve(grid, mode=mode, limit=limit, deadline=deadline)
        if outcome.values is None or not grid.givens():
            return outcome
        values = list(outcome.values)
        size = grid.size
        for row in range(size):
            blanks = [
                row * size + column
                for column in range(size)
                if grid.values[row * size + column] == BLANK
            ]
            if len(blanks) >= 2:
                first, second = blanks[:2]
                values[first], values[second] = values[second], values[first]
                break
        outcome.values = tuple(values)
        return outcome


class GivenChangerBackend(DfsBackend):
    """Solves correctly, then overwrites the first given with another value."""

    name = "givenchanger"

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        outcome = super()._solve(grid, mode=mode, limit=limit, deadline=deadline)
        givens = grid.givens()
        if outcome.values is None or not givens:
            return outcome
        values = list(outcome.values)
        cell = min(givens)
        values[cell] = values[cell] % grid.size + 1
        outcome.values = tuple(values)
        return outcome


class UnsatisfiableBackend(DfsBackend):
    """Says every puzzle has no completion (and, searching nothing, takes no option)."""

    name = "nosolution"
    option_names: ClassVar[frozenset[str]] = frozenset()

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        return Outcome(
            Status.UNSATISFIABLE, count=0 if mode is Mode.COUNT else None, reason="says so"
        )


class OverCountBackend(DfsBackend):
    """Counts one completion too many (capped at the limit)."""

    name = "overcount"

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        outcome = super()._solve(grid, mode=mode, limit=limit, deadline=deadline)
        if mode is Mode.COUNT and outcome.count is not None and outcome.count < limit:
            outcome.count += 1
        return outcome


class CrashingBackend(DfsBackend):
    """Raises on puzzles whose first cell is blank (a backend bug the engine must contain)."""

    name = "crasher"

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        if grid.values[0] == BLANK:
            raise RuntimeError("boom")
        return super()._solve(grid, mode=mode, limit=limit, deadline=deadline)


class TimeoutBackend(DfsBackend):
    """Times out on puzzles whose first cell is blank, as if their time limit ran out."""

    name = "sleepy"

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        if grid.values[0] == BLANK:
            return Outcome(Status.TIMEOUT, reason="no answer within 0.001 s")
        return super()._solve(grid, mode=mode, limit=limit, deadline=deadline)


class InterruptingBackend(DfsBackend):
    """A correct backend that raises KeyboardInterrupt (Ctrl-C) once armed solves have passed."""

    name = "interrupting"
    solves_before_interrupt: ClassVar[int | None] = None  # set by a test; None: never interrupt

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        cls = InterruptingBackend
        if cls.solves_before_interrupt is not None:
            if cls.solves_before_interrupt == 0:
                cls.solves_before_interrupt = None
                raise KeyboardInterrupt
            cls.solves_before_interrupt -= 1
        return super()._solve(grid, mode=mode, limit=limit, deadline=deadline)


class ProcessKillerBackend(DfsBackend):
    """Kills its worker on puzzles whose first cell is 9, raises on those starting with 8.
    With `deaths` set, each death first appends a line to that file (to count the tries)."""

    name = "killer"
    deaths: ClassVar[str | None] = None

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        if grid.values[0] == 9:
            if ProcessKillerBackend.deaths is not None and os.getpid() != TEST_PROCESS:
                with open(ProcessKillerBackend.deaths, "a", encoding="utf-8") as log:
                    log.write(f"{os.getpid()}\n")
            _die(3)
        if grid.values[0] == 8:
            raise RuntimeError("boom")
        return super()._solve(grid, mode=mode, limit=limit, deadline=deadline)


class KillOnceBackend(DfsBackend):
    """Kills its worker on its first solve of the whole run, then solves correctly: a worker
    death that a retry cures. `flag` names a file that must not exist yet; the first solve to
    create it (atomically: one worker wins) dies, every later one sees it and solves."""

    name = "killonce"
    flag: ClassVar[str | None] = None  # set by a test; None: never kill

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        flag = KillOnceBackend.flag
        if flag is not None:
            try:
                os.close(os.open(flag, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:
                pass
            else:
                _die(3)
        return super()._solve(grid, mode=mode, limit=limit, deadline=deadline)


class FailingBackend(DfsBackend):
    """Raises BackendFailure on puzzles whose first cell is 8, like a native solver gone wrong."""

    name = "failing"

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        if grid.values[0] == 8:
            raise BackendFailure("solver returned status 99")
        return super()._solve(grid, mode=mode, limit=limit, deadline=deadline)


class SlowBackend(DfsBackend):
    """Solves correctly after a second's sleep (a member that loses a race it could win)."""

    name = "slow"

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        time.sleep(1)
        return super()._solve(grid, mode=mode, limit=limit, deadline=deadline)


class StuckBackend(DfsBackend):
    """Sleeps ten minutes before solving, deadline or not: a native solver that ignores it."""

    name = "stuck"

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        time.sleep(600)
        return super()._solve(grid, mode=mode, limit=limit, deadline=deadline)


class HangingBackend(DfsBackend):
    """On puzzles whose first cell is blank: starts a helper process (its pid appended to the
    file `helpers`, when set) and never returns, whatever the time limit, as a stuck native
    solver would."""

    name = "hanging"
    helpers: ClassVar[str | None] = None

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        if grid.values[0] == BLANK:
            import subprocess

            helper = subprocess.Popen(["sleep", "600"])
            if HangingBackend.helpers is not None:
                with open(HangingBackend.helpers, "a", encoding="utf-8") as log:
                    log.write(f"{helper.pid}\n")
            while True:
                time.sleep(1)
        return super()._solve(grid, mode=mode, limit=limit, deadline=deadline)


WRONG_BACKENDS = {
    cls.name: cls.__name__
    for cls in (
        NotLexminBackend,
        RuleBreakerBackend,
        GivenChangerBackend,
        UnsatisfiableBackend,
        OverCountBackend,
        CrashingBackend,
        TimeoutBackend,
        InterruptingBackend,
        ProcessKillerBackend,
        KillOnceBackend,
        FailingBackend,
        SlowBackend,
        StuckBackend,
        HangingBackend,
    )
}


@pytest.fixture
def wrong_backends() -> Iterator[dict[str, str]]:
    """Every backend of this module in the registry, under its `name`, for one test only;
    the armed class switches are reset afterwards."""
    with contextlib.ExitStack() as stack:
        for name, class_name in WRONG_BACKENDS.items():
            stack.enter_context(registered(name, __name__, class_name))
        try:
            yield dict(WRONG_BACKENDS)
        finally:
            InterruptingBackend.solves_before_interrupt = None
            KillOnceBackend.flag = None
            ProcessKillerBackend.deaths = None
            HangingBackend.helpers = None
