"""Deliberately wrong backends for the crosscheck tests, built on the dfs backend.

`WRONG_BACKENDS` maps registry names to class names; the tests add them to the registry for the
length of one test (worker processes are forked, so they inherit it).
"""

from __future__ import annotations

import os

from sudoku_cp.backends.base import Deadline, Outcome
from sudoku_cp.errors import BackendFailure
from sudoku_cp.backends.dfs import DfsBackend, _Search, _values
from sudoku_cp.grid import BLANK, Grid
from sudoku_cp.result import Mode, Status

COMPLETIONS_LOOKED_AT = 20


class NotLexminBackend(DfsBackend):
    """Lexmin answers another valid completion: the largest of the first few found by count."""

    name = "notlexmin"

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        if mode is not Mode.LEXMIN:
            return super()._solve(grid, mode=mode, limit=limit, deadline=deadline)
        search = _Search(grid, deadline)
        candidates = search.initial_candidates()
        found = [] if candidates is None else [
            _values(solution) for _, solution in zip(range(COMPLETIONS_LOOKED_AT),
                                                     search.completions(candidates))]
        if not found:
            return Outcome(Status.UNSATISFIABLE)
        return Outcome(Status.SOLVED, max(found))


class RuleBreakerBackend(DfsBackend):
    """Swaps two blank cells of the first row with two blanks (rows stay valid, columns break),
    on puzzles with givens only."""

    name = "rulebreaker"

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        outcome = super()._solve(grid, mode=mode, limit=limit, deadline=deadline)
        if outcome.values is None or not grid.givens():
            return outcome
        values = list(outcome.values)
        size = grid.size
        for row in range(size):
            blanks = [row * size + column for column in range(size)
                      if grid.values[row * size + column] == BLANK]
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
    """Says every puzzle has no completion."""

    name = "nosolution"

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        return Outcome(Status.UNSATISFIABLE, count=0 if mode is Mode.COUNT else None,
                       reason="says so")


class OverCountBackend(DfsBackend):
    """Counts one completion too many (capped at the limit)."""

    name = "overcount"

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        outcome = super()._solve(grid, mode=mode, limit=limit, deadline=deadline)
        if mode is Mode.COUNT and outcome.count is not None and outcome.count < limit:
            outcome.count += 1
        return outcome


class CrashingBackend(DfsBackend):
    """Raises on puzzles whose first cell is blank (a backend bug the runner must contain)."""

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
    solves_before_interrupt: int | None = None  # set by a test; None: never interrupt

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        cls = InterruptingBackend
        if cls.solves_before_interrupt is not None:
            if cls.solves_before_interrupt == 0:
                cls.solves_before_interrupt = None
                raise KeyboardInterrupt
            cls.solves_before_interrupt -= 1
        return super()._solve(grid, mode=mode, limit=limit, deadline=deadline)


class ProcessKillerBackend(DfsBackend):
    """Kills its process on puzzles whose first cell is 9, raises on those starting with 8."""

    name = "killer"

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        if grid.values[0] == 9:
            os._exit(3)
        if grid.values[0] == 8:
            raise RuntimeError("boom")
        return super()._solve(grid, mode=mode, limit=limit, deadline=deadline)


class FailingBackend(DfsBackend):
    """Raises BackendFailure on puzzles whose first cell is 8, like a native solver gone wrong."""

    name = "failing"

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        if grid.values[0] == 8:
            raise BackendFailure("solver returned status 99")
        return super()._solve(grid, mode=mode, limit=limit, deadline=deadline)


WRONG_BACKENDS = {cls.name: cls.__name__ for cls in (
    NotLexminBackend, RuleBreakerBackend, GivenChangerBackend, UnsatisfiableBackend,
    OverCountBackend, CrashingBackend, TimeoutBackend, InterruptingBackend)}
