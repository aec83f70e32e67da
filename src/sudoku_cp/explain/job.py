"""One puzzle explained as the command asks: the explanation, its check and the unsatisfiable
core when asked for, with one oracle per shape kept across puzzles."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..grid import Grid, Shape
from .checking import StepCheck, check_explanation
from .core import UnsatCore, certify_core, unsat_core
from .oracle import Oracle
from .path import explain
from .steps import Explanation


@dataclass
class Outcome:
    """A puzzle's explanation, with its check and core when they were asked for."""

    grid: Grid
    explanation: Explanation
    check: StepCheck | None = None
    core: UnsatCore | None = None
    certify: bool = False
    core_refused: str | None = None  # with certify: why the core is not certified

    def to_dict(self) -> dict[str, Any]:
        """The jsonl record (docs/commands/explain.md): rows, columns and values 1-based."""
        size = self.grid.size
        data: dict[str, Any] = {
            "puzzle": self.grid.to_line(),
            "status": self.explanation.status,
            "rating": self.explanation.rating.to_dict(),
            "steps": [step.to_dict(size) for step in self.explanation.steps],
        }
        if self.explanation.contradiction is not None:
            data["contradiction"] = self.explanation.contradiction
        if self.check is not None:
            data["check"] = self.check.to_dict()
        if self.core is not None:
            data["unsat_core"] = [
                [cell // size + 1, cell % size + 1, value] for cell, value in self.core.givens
            ]
            data["unsat_core_minimal"] = self.core.minimal
            if self.certified is not None:
                data["unsat_core_certified"] = self.certified
        return data

    @property
    def certified(self) -> bool | None:
        """With certify: whether the core is certified (None: not asked, or no core)."""
        return None if self.core is None or not self.certify else self.core_refused is None


class ExplainJob:
    """Explains puzzles one after another; close it (or use `with`) to free the oracles."""

    def __init__(
        self,
        techniques: Sequence[str],
        *,
        complete: bool,
        check: bool,
        why_unsat: bool,
        certify: bool = False,
    ) -> None:
        self.techniques = tuple(techniques)
        self.complete = complete
        self.check = check
        self.why_unsat = why_unsat
        self.certify = certify  # certify each core by a checked proof
        self.oracles: dict[tuple[int, Shape], Oracle] = {}

    def oracle(self, grid: Grid) -> Oracle:
        key = (grid.size, grid.box)
        if key not in self.oracles:
            self.oracles[key] = Oracle(grid.size, grid.box)
        return self.oracles[key]

    def run(self, grid: Grid) -> Outcome:
        explanation = explain(grid, techniques=self.techniques, complete=self.complete)
        outcome = Outcome(grid, explanation)
        if self.check:
            outcome.check = check_explanation(grid, explanation, self.oracle(grid))
        if self.why_unsat:
            outcome.core = unsat_core(grid, self.oracle(grid))
            if self.certify and outcome.core is not None:
                outcome.certify = True
                outcome.core_refused = certify_core(outcome.core, grid, self.oracle(grid))
        return outcome

    def close(self) -> None:
        for oracle in self.oracles.values():
            oracle.close()
        self.oracles.clear()

    def __enter__(self) -> ExplainJob:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


__all__ = ["ExplainJob", "Outcome"]
