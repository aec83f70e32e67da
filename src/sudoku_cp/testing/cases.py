"""The contract's cases: which checks run, on which puzzles and sizes, and on which configurations.

A `core` case runs on every configuration of a backend, the others on its defaults only (which
and why: `sudoku_cp.testing`). `contract_cases` lists them in the order they run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..backends import Backend
from ..grid import Grid
from ..result import Mode
from . import checks
from .checks import Check, Factory
from .puzzles import (
    ANTI_BACKTRACK,
    BAEKJOON_2239,
    BAEKJOON_2239_ANSWER,
    EMPTY_4_LEXMIN,
    EMPTY_6_LEXMIN,
    EMPTY_9_LEXMIN,
    EMPTY_16_LEXMIN_ROWS_1_2,
    G17,
    KNOWN_COUNTS,
    QUICK_BATCH,
    SOLVED_GRIDS,
    UNSOLVABLE_4,
)

# (size, givens, seed) of the random puzzles whose lex-min the naive DFS gives
NAIVE_PUZZLES = ((4, 4, 1), (4, 6, 2), (6, 8, 3), (6, 12, 4), (9, 25, 5), (9, 30, 6), (9, 40, 7))
NAIVE_PUZZLES_16 = ((16, 200, 8),)
# (size, givens, seed) of the random puzzles counted against the brute-force count
COUNTED_PUZZLES = ((4, 5, 11), (6, 14, 12), (9, 45, 13), (9, 50, 14))
TIME_LIMIT = 0.3  # seconds: a backend that ignores it runs for minutes on these grids


@dataclass(frozen=True)
class ContractCase:
    """One check of the contract: `check(backend, fresh)` raises AssertionError when broken;
    `backend` is the warm backend under test, `fresh()` builds a new one. A `core` case runs on
    every configuration, the others on the backend's defaults only."""

    id: str
    check: Check
    core: bool = True

    def run(self, backend: Backend, fresh: Factory) -> None:
        self.check(backend, fresh)


Add = Callable[..., None]  # add(size or None, case id, check, core=True)


def contract_cases(
    *, sizes: Sequence[int] = (4, 6, 9), quick: bool = True, core_only: bool = False
) -> list[ContractCase]:
    """The contract's cases on grids of `sizes` (4, 6, 9, 16); `quick` leaves out the hard ones
    (see `sudoku_cp.testing`), `core_only` those that run on a backend's defaults only."""
    cases: list[ContractCase] = []

    def add(size: int | None, name: str, check: Check, *, core: bool = True) -> None:
        if (size is None or size in sizes) and (core or not core_only):
            cases.append(ContractCase(name, check, core))

    unique = BAEKJOON_2239 if quick else G17
    add(None, "declares-itself", checks.declares_itself, core=False)
    _lexmin_cases(add, quick=quick)
    for line, size, count in [(unique, 9, 1), ("0" * 16, 4, 3), ("0" * 36, 6, 3)]:
        for mode in Mode:
            add(size, f"keeps-givens-{mode}-{size}", checks.keeps_givens(line, mode, count))
    for size, givens, seed in COUNTED_PUZZLES:
        check = checks.count_like_brute_force(size, givens, seed)
        add(size, f"count-like-brute-force-{size}-{givens}-{seed}", check)
    for mode in Mode:
        check = checks.unsatisfiable("55" + "0" * 79, mode, "row 1 has two 5s")
        add(9, f"unsatisfiable-repeated-given-{mode}", check)
        check = checks.unsatisfiable(UNSOLVABLE_4, mode, None)
        add(4, f"unsatisfiable-no-completion-{mode}", check)
    for size, line in SOLVED_GRIDS.items():
        add(size, f"solved-grid-returns-itself-{size}", checks.returns_itself(line))
    if quick:
        check = checks.honours_time_limit(Grid.parse(ANTI_BACKTRACK), TIME_LIMIT)
        add(9, "time-limit-anti-backtracking", check)
    else:
        add(None, "time-limit-empty25", checks.honours_time_limit(Grid.empty(25), TIME_LIMIT))
    add(9, "stats-are-json", checks.stats_are_json(unique))
    batch = QUICK_BATCH if quick else tuple(KNOWN_COUNTS)
    add(9, "warm-batch-like-fresh", checks.warm_like_fresh(batch), core=False)
    return cases


def _lexmin_cases(add: Add, *, quick: bool) -> None:
    """Lex-min answers: known ones, and the naive row-major DFS's on random puzzles."""
    add(9, "lexmin-known-baekjoon2239", checks.known_answer(BAEKJOON_2239, BAEKJOON_2239_ANSWER))
    add(9, "lexmin-known-empty9", checks.known_answer("0" * 81, EMPTY_9_LEXMIN))
    add(4, "lexmin-known-empty4", checks.known_answer("0" * 16, EMPTY_4_LEXMIN))
    add(6, "lexmin-known-empty6", checks.known_answer("0" * 36, EMPTY_6_LEXMIN))
    empty16 = checks.known_answer("0" * 256, EMPTY_16_LEXMIN_ROWS_1_2, prefix=True)
    add(16, "lexmin-known-empty16", empty16, core=False)
    if not quick:
        check = checks.known_answer(ANTI_BACKTRACK, "987654321", prefix=True)
        add(9, "lexmin-anti-backtracking", check, core=False)
    for size, givens, seed in NAIVE_PUZZLES:
        add(
            size,
            f"lexmin-like-naive-{size}-{givens}-{seed}",
            checks.matches_naive(size, givens, seed),
        )
    for size, givens, seed in NAIVE_PUZZLES_16:
        check = checks.matches_naive(size, givens, seed)
        add(size, f"lexmin-like-naive-{size}-{givens}-{seed}", check, core=False)
