"""Counting completions: the exact questions every kind asks, with no time limit, so that which
backend answers changes the speed only."""

from __future__ import annotations

import contextlib
import functools
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ..backends import Backend, backend_class
from ..errors import SudokuError
from ..grid import Grid
from ..result import Mode
from ..text import plural

log = logging.getLogger(__name__)

# Counting up to 2 completions is the inner loop of the unique kind: dfs and sat tie on small
# grids, and sat wins from this size on (docs/decisions.md, "Generator: counting").
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


@dataclass
class Effort:
    """Where a run's time goes, for the progress display: the phase now (`PHASES`), the wall
    seconds spent in each phase so far, the solver questions asked (completion counts and
    uniqueness checks) and the seconds they took, and the givens of the puzzle being made."""

    phase: str = "filling"
    seconds: dict[str, float] = field(default_factory=dict)
    questions: int = 0
    question_seconds: float = 0.0
    givens: int | None = None
    since: float = field(default_factory=time.perf_counter)

    def enter(self, phase: str, *, givens: int | None = None) -> None:
        """Close the running phase's time and start `phase`."""
        now = time.perf_counter()
        self.seconds[self.phase] = self.seconds.get(self.phase, 0.0) + now - self.since
        self.phase, self.since, self.givens = phase, now, givens

    def note(self) -> str:
        """'removing givens, 301 left; 180 questions, 41.0 s': the phase, the givens left, the
        solver questions so far and the seconds they took (short: the line fits 80 columns)."""
        left = f", {self.givens} left" if self.givens is not None else ""
        return (
            f"{PHASES[self.phase]}{left}; {plural(self.questions, 'question')}, "
            f"{self.question_seconds:.1f} s"
        )


# The phases of a run, and how the progress display names them.
PHASES = {
    "filling": "filling a grid",
    "building": "building the SAT solver",
    "removing": "removing givens",
    "exchanging": "exchanging givens",
    "checking": "checking the kind",
}


class CompletionCounter:
    """Counts completions exactly (no time limit) with one kept backend.

    After each solver question (a count here, a uniqueness check in `UniquenessChecks`)
    `on_count`, if given, is called with the number of questions so far, and `on_progress`
    with the run's `Effort`.
    """

    def __init__(
        self,
        backend: Backend,
        on_count: Callable[[int], None] | None = None,
        on_progress: Callable[[Effort], None] | None = None,
    ) -> None:
        self.backend = backend
        self.calls = 0
        self.on_count = on_count
        self.on_progress = on_progress
        self.effort = Effort()

    def count(self, grid: Grid, limit: int) -> int:
        """Completions of `grid`, up to `limit`."""
        with self.question():
            result = self.backend.solve(grid, mode=Mode.COUNT, limit=limit)
        assert result.count is not None, "count mode without a time limit always counts"
        return result.count

    @contextlib.contextmanager
    def question(self) -> Iterator[None]:
        """Time one solver question and report it when it is answered."""
        start = time.perf_counter()
        yield
        self.calls += 1
        self.effort.questions += 1
        self.effort.question_seconds += time.perf_counter() - start
        if self.on_count is not None:
            self.on_count(self.calls)
        self.report()

    def enter(self, phase: str, *, givens: int | None = None) -> None:
        """A new phase of the run (see `Effort.enter`), reported at once."""
        self.effort.enter(phase, givens=givens)
        self.report()

    def report(self) -> None:
        if self.on_progress is not None:
            self.on_progress(self.effort)

    def is_unique(self, grid: Grid) -> bool:
        return self.count(grid, 2) == 1

    def has_completion(self, grid: Grid) -> bool:
        return self.count(grid, 1) == 1
