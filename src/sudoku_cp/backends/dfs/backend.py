"""`DfsBackend`: the `dfs` backend's options, and one puzzle's search wired from its parts."""

from __future__ import annotations

from itertools import islice
from typing import Any, ClassVar

from ...grid import Grid
from ...result import Mode, Status
from ..base import Backend, BackendOption, Deadline, Outcome, TimeUp
from .mrv import MrvSearch
from .propagation import Propagation
from .rowmajor import RowMajorSearch
from .tables import Candidates, values_of

PROPAGATION_LEVELS = ("auto", "singles", "strong")
STRONG_FROM_SIZE = 16  # auto: the strong level from this size on (it does not pay below)


class DfsBackend(Backend):
    """Hand-written depth-first search: bitmask candidates, naked and hidden singles, MRV.

    `lexmin` chooses what the lex-min search does at each node: `singles` (naked and hidden
    singles, MRV cell), `strong` (also locked candidates, all-different consistency from 25x25
    on, and a look-ahead on binary choices that keeps the values it refutes and picks the
    branching choice), or `auto` (singles below 16x16, strong from 16x16 on). `any` and `count`
    always use singles, so `any` keeps returning the same completion (the generator's grids
    depend on it).

    Raises:
        BackendOptionError: for an unknown propagation level.
    """

    name = "dfs"
    guarantees_lexmin = True
    description = (
        "pure-Python search: bitmasks, singles (+ locked candidates and look-ahead "
        "for large lex-min), MRV oracle for lex-min"
    )
    options: ClassVar[tuple[BackendOption, ...]] = (
        BackendOption(
            "lexmin",
            "how the lex-min search propagates: singles; strong (locked candidates, "
            "look-ahead on binary choices for the uniqueness proof); auto = strong from 16x16",
            "auto",
            choices=PROPAGATION_LEVELS,
            renamed_from=("propagation",),
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.level: str = self.option_values["lexmin"]  # auto, singles or strong

    def is_strong(self, grid: Grid, mode: Mode) -> bool:
        """Whether this search uses the strong level."""
        if mode is not Mode.LEXMIN or self.level == "singles":
            return False
        return self.level == "strong" or grid.size >= STRONG_FROM_SIZE

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        propagation = Propagation(grid, strong=self.is_strong(grid, mode))
        search = MrvSearch(propagation, deadline)
        lexmin = RowMajorSearch(propagation, search)
        solution: Candidates | None = None
        count = 0
        try:
            start = propagation.initial_candidates()
            if start is not None and mode is Mode.LEXMIN:
                solution = lexmin.lexmin(start)
            elif start is not None and mode is Mode.ANY:
                solution = search.first_completion(start)
            elif start is not None:
                for completion in islice(search.completions(start), limit):
                    solution = solution or completion
                    count += 1
        except TimeUp:
            timed_out = True
        else:
            timed_out = False
        stats: dict[str, object] = {
            "nodes": search.nodes,
            "oracle_calls": search.oracle_calls,
            "dives": lexmin.dives,
            "backtracks": lexmin.backtracks,
            "propagation": "strong" if self.is_strong(grid, mode) else "singles",
        }
        counted = count if mode is Mode.COUNT else None
        if timed_out:
            return Outcome.timeout(deadline, count=counted, stats=stats)
        if solution is None:
            return Outcome.unsatisfiable(
                "propagation and search found no completion", count=counted, stats=stats
            )
        return Outcome(Status.SOLVED, values_of(solution), counted, stats)
