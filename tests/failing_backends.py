"""Backends that fail on purpose, for the runner's containment tests (registered by the tests)."""

import os

from sudoku_cp.backends.dfs import DfsBackend


class CrashingBackend(DfsBackend):
    """Kills its process on puzzles whose first cell is 9, raises on those starting with 8."""

    name = "crashing"
    description = "test only: dies on first value 9, raises on first value 8"

    def _solve(self, grid, **options):
        if grid.values[0] == 9:
            os._exit(3)
        if grid.values[0] == 8:
            raise RuntimeError("boom")
        return super()._solve(grid, **options)


class BrokenBackend(DfsBackend):
    """Raises BackendFailure on puzzles whose first cell is 8, like a native solver gone wrong."""

    name = "broken"
    description = "test only: BackendFailure on first value 8"

    def _solve(self, grid, **options):
        from sudoku_cp.errors import BackendFailure
        if grid.values[0] == 8:
            raise BackendFailure("solver returned status 99")
        return super()._solve(grid, **options)
