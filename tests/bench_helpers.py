"""Deliberately wrong backends and hand-made records for the bench and report tests."""

from __future__ import annotations

from typing import Any

from sudoku_cp.backends.base import Outcome
from sudoku_cp.backends.dfs import DfsBackend
from sudoku_cp.result import Status


class BrokenCellBackend(DfsBackend):
    """Solves like dfs, then changes the first blank cell: a completion that is not one."""

    name = "broken"
    description = "test only: a completion with one wrong cell"

    def _solve(self, grid, **options):
        outcome = super()._solve(grid, **options)
        if outcome.values is not None and grid.blanks():
            values = list(outcome.values)
            cell = grid.blanks()[0]
            values[cell] = values[cell] % grid.size + 1
            outcome.values = tuple(values)
        return outcome


class SwappedBackend(DfsBackend):
    """On a puzzle with no givens, the lex-min with values 1 and 2 swapped: valid, not lex-min."""

    name = "swapped"
    description = "test only: a valid completion that is not the lex-min"

    def _solve(self, grid, **options):
        outcome = super()._solve(grid, **options)
        if outcome.values is not None and not grid.givens():
            swap = {1: 2, 2: 1}
            outcome.values = tuple(swap.get(value, value) for value in outcome.values)
        return outcome


class NoCompletionBackend(DfsBackend):
    """Claims every puzzle is unsatisfiable."""

    name = "nothing"
    description = "test only: always unsatisfiable"

    def _solve(self, grid, **options):
        return Outcome(Status.UNSATISFIABLE, reason="says so")


TEST_BACKENDS = {"broken": "BrokenCellBackend", "swapped": "SwappedBackend",
                 "nothing": "NoCompletionBackend"}


def run_record(set_name: str, index: int, backend: str, status: str, seconds: float | None, *,
               repeat: int = 0, mode: str = "lexmin", size: int = 9,
               givens: int = 30, **extra: Any) -> dict[str, Any]:
    """A hand-made run record with every field of `bench.RUN_COLUMNS`."""
    record = {"set": set_name, "index": index, "line": index + 1, "puzzle": f"p{index}",
              "size": size, "givens": givens, "backend": backend, "mode": mode,
              "repeat": repeat, "status": status, "seconds": seconds, "build_seconds": None,
              "solve_seconds": None, "count": None, "reason": None, "solution": None,
              "stats": {}}
    record.update(extra)
    return record
