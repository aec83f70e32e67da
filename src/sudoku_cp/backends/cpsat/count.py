"""Counting completions with CP-SAT: enumerate distinct completions up to a limit.

CP-SAT enumerates solutions (`call.configure_enumeration`) and reports each to a solution
callback, which feeds a `SolutionTally` and stops the search at the limit. Solutions are
de-duplicated by their values, whatever CP-SAT reports. The uniqueness probe of the staged
objective counts the same way, up to two.

    tally = SolutionTally(limit)
    status = calls.solve(model, tallying_callback(tally, model), when="while counting")
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from ...result import Status
from ...text import plural
from ..base import Outcome, TimeUp
from .call import NO_COMPLETION, PuzzleCalls, status_name
from .kept import CpSatModel


@dataclass
class SolutionTally:
    """Distinct solutions seen, up to a limit; the first one kept."""

    limit: int
    seen: set[bytes] = field(default_factory=set)
    first: bytes | None = None
    reported: int = 0  # callbacks, duplicates included

    def record(self, solution: bytes) -> bool:
        """Count a solution once; return True when the limit is reached."""
        self.reported += 1
        if len(self.seen) < self.limit and solution not in self.seen:
            self.seen.add(solution)
            if self.first is None:
                self.first = solution
        return self.reached()

    def reached(self) -> bool:
        return len(self.seen) >= self.limit

    @property
    def count(self) -> int:
        return len(self.seen)


def tallying_callback(tally: SolutionTally, model: CpSatModel) -> Any:
    """A solution callback that feeds each reported solution to the tally and stops the search
    at its limit."""
    return _tallying_callback_class()(tally, model)


@functools.cache
def _tallying_callback_class() -> type:
    """The solution callback class (built on first use: its base class lives in ortools)."""
    from ortools.sat.python import cp_model_helper as cmh

    class TallyingCallback(cmh.SolutionCallback):
        """Feeds each reported solution to a tally and stops the search at its limit."""

        def __init__(self, tally: SolutionTally, model: CpSatModel) -> None:
            super().__init__()
            self.tally = tally
            self.model = model

        def OnSolutionCallback(self) -> None:  # noqa: N802 - the name CP-SAT calls
            if self.tally.reached():
                return  # a solution reported after StopSearch: not counted
            response: Any = self.Response()  # type: ignore[no-untyped-call]
            if self.tally.record(self.model.values_from(response.solution)):
                self.StopSearch()

    return TallyingCallback


def count_completions(
    model: CpSatModel, calls: PuzzleCalls, limit: int, stats: dict[str, Any]
) -> Outcome:
    """Enumerate distinct completions until the limit, the end of the search or the budget.

    Raises:
        TimeUp: when the budget runs out first, with the completions found so far.
        BackendFailure: for a status that should not happen (MODEL_INVALID, ...).
    """
    tally = SolutionTally(limit)
    try:
        status = calls.solve(model, tallying_callback(tally, model), when="while counting")
    except TimeUp as stop:
        stats.update(reported_solutions=tally.reported)
        found = plural(tally.count, "completion")
        raise TimeUp(f"{stop.when}, {found} found", count=tally.count) from None
    stats.update(reported_solutions=tally.reported)
    first = None if tally.first is None else tuple(tally.first)
    name = status_name(status)
    if name not in ("OPTIMAL", "FEASIBLE", "INFEASIBLE", "UNKNOWN"):
        raise calls.failure(status, "while counting")  # MODEL_INVALID or a new status
    if tally.reached() or (name == "OPTIMAL" and tally.count > 0):
        return Outcome(Status.SOLVED, values=first, count=tally.count)
    if name in ("INFEASIBLE", "OPTIMAL") and tally.count == 0:
        return Outcome.unsatisfiable(NO_COMPLETION, count=0)
    if calls.ran_out_of_time():
        found = plural(tally.count, "completion")
        raise TimeUp(f"while counting, {found} found", count=tally.count)
    raise calls.failure(status, f"after {tally.count} of at most {limit} completions")
