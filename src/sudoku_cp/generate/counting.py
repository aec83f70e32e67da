"""Counting completions: the exact questions every kind asks, with no time limit, so that which
backend answers changes the speed only."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable

from ..backends import Backend, backend_class
from ..errors import SudokuError
from ..grid import Grid
from ..result import Mode

log = logging.getLogger(__name__)

# Counting up to 2 completions is the inner loop of the unique kind. Measured on minimal-puzzle
# runs of this generator (2-core VM, glucose4): dfs and sat tie on 8x8 and 9x9 (0.03 s, 0.10 s a
# puzzle), sat wins from 12x12 on (0.22 s vs 0.42 s; 16x16 1.9 s vs 93 s; on 25x25 below 300
# givens dfs needs up to 140 s for a single count where sat needs at most 7 s).
SAT_COUNTS_FROM_SIZE = 12


@functools.cache
def sat_backend_usable() -> bool:
    """Whether the sat backend is registered, importable and has its solver package."""
    try:
        return backend_class("sat").is_available()
    except (ImportError, AttributeError, SudokuError) as error:
        log.info("sat backend not usable (%s); counting with dfs", error)
        return False


def counting_backend_name(size: int) -> str:
    """The fastest exact counter for this size (see SAT_COUNTS_FROM_SIZE); dfs when the sat
    backend is not usable."""
    name = "sat" if size >= SAT_COUNTS_FROM_SIZE else "dfs"
    if name == "sat" and not sat_backend_usable():
        log.warning(
            "the sat backend is not usable: counting %dx%d completions with dfs, "
            "which is slower (the puzzles are the same)",
            size,
            size,
        )
        return "dfs"
    return name


class CompletionCounter:
    """Counts completions exactly (no time limit) with one kept backend; `on_count`, if given,
    is called with the number of counts so far after each one."""

    def __init__(self, backend: Backend, on_count: Callable[[int], None] | None = None) -> None:
        self.backend = backend
        self.calls = 0
        self.on_count = on_count

    def count(self, grid: Grid, limit: int) -> int:
        """Completions of `grid`, up to `limit`."""
        self.calls += 1
        result = self.backend.solve(grid, mode=Mode.COUNT, limit=limit)
        assert result.count is not None, "count mode without a time limit always counts"
        if self.on_count is not None:
            self.on_count(self.calls)
        return result.count

    def is_unique(self, grid: Grid) -> bool:
        return self.count(grid, 2) == 1

    def has_completion(self, grid: Grid) -> bool:
        return self.count(grid, 1) == 1
