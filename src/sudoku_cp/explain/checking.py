"""Every step of an explanation checked against the puzzle's completions: a placement must hold
in every completion, an elimination must remove a value no completion has there, and the status
must agree (solved: a completion; unsatisfiable: none). With one completion each step is
compared with it; otherwise each placement and elimination is one oracle call."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..grid import Grid, value_symbol
from .board import candidate_name, cell_name
from .oracle import Oracle
from .steps import Explanation

UNIQUE, NONE, SEVERAL = "unique", "none", "several"


@dataclass
class StepCheck:
    """The outcome of checking one explanation: how many steps, the completions seen, and one
    line per failure ('step 12 (x-wing): r3c4<>5, but a completion has 5 there')."""

    steps: int = 0
    completions: str = UNIQUE
    failures: list[str] = field(default_factory=list)

    @property
    def sound(self) -> bool:
        return not self.failures

    def to_dict(self) -> dict[str, object]:
        return {
            "steps": self.steps,
            "completions": self.completions,
            "sound": self.sound,
            "failures": list(self.failures),
        }


def check_explanation(grid: Grid, explanation: Explanation, oracle: Oracle) -> StepCheck:
    """Check every step (and the status) of an explanation of `grid`."""
    size = grid.size
    givens = oracle.literals(grid.givens().items())
    solution = oracle.completion(givens)
    result = StepCheck(steps=len(explanation.steps))
    if solution is None:
        result.completions = NONE
        if explanation.status == "solved":
            result.failures.append("says solved, but the puzzle has no completion")
        return result
    if oracle.other_completion(givens, solution):
        result.completions = SEVERAL
    if explanation.status == "unsatisfiable":
        result.failures.append(
            f"says unsatisfiable ({explanation.contradiction}), but the puzzle has a completion"
        )
    unique = result.completions == UNIQUE
    for number, step in enumerate(explanation.steps, start=1):
        where = f"step {number} ({step.technique})"
        for cell, value in step.placements:
            holds = (
                solution.values[cell] == value
                if unique
                else not oracle.satisfiable([*givens, -oracle.literals([(cell, value)])[0]])
            )
            if not holds:
                result.failures.append(
                    f"{where}: {candidate_name(cell, value, size)}, but a completion has "
                    f"another value there"
                )
        for cell, value in step.eliminations:
            holds = (
                solution.values[cell] != value
                if unique
                else not oracle.satisfiable([*givens, *oracle.literals([(cell, value)])])
            )
            if not holds:
                result.failures.append(
                    f"{where}: {cell_name(cell, size)}<>{value_symbol(value)}, but a completion "
                    f"has {value_symbol(value)} there"
                )
    return result


__all__ = ["NONE", "SEVERAL", "UNIQUE", "StepCheck", "check_explanation"]
