"""Why a puzzle has no completion: a minimal set of its givens with no completion (an
unsatisfiable core), found by deletion over the solver's own core, and checked minimal by one
solver call per given (without it, the rest has a completion)."""

from __future__ import annotations

from dataclasses import dataclass

from ..grid import Grid
from .board import candidate_name
from .oracle import Candidate, Oracle


@dataclass(frozen=True)
class UnsatCore:
    """Givens with no completion; `minimal`: each one's removal leaves a puzzle with one."""

    givens: tuple[Candidate, ...]
    minimal: bool
    calls: int  # oracle calls, the minimality check included

    def grid(self, puzzle: Grid) -> Grid:
        """The puzzle with only the core's givens."""
        values = [0] * len(puzzle.values)
        for cell, value in self.givens:
            values[cell] = value
        return Grid(tuple(values), puzzle.box)


def unsat_core(grid: Grid, oracle: Oracle) -> UnsatCore | None:
    """A minimal unsatisfiable core over the givens of `grid`, None when it has a completion."""
    first_call = oracle.calls
    givens = list(grid.givens().items())
    literal_of = dict(zip(oracle.literals(givens), givens, strict=True))
    if oracle.satisfiable(list(literal_of)):
        return None
    core = _in_order(oracle.core(), literal_of)
    index = 0
    while index < len(core):
        trial = core[:index] + core[index + 1 :]
        if oracle.satisfiable(trial):
            index += 1  # this given is needed
        else:
            kept = set(oracle.core())
            core = [literal for literal in trial if literal in kept]  # the solver's shorter core
    minimal = is_minimal(core, oracle)
    return UnsatCore(
        tuple(sorted(literal_of[literal] for literal in core)),
        minimal,
        oracle.calls - first_call,
    )


def certify_core(core: UnsatCore, puzzle: Grid, oracle: Oracle) -> str | None:
    """Certify a core by certify's proof machinery: no completion, by a DRAT proof checked by
    dratify, and for each given a completion without it, checked by the one verifier. None when
    certified, else why not.

    Raises:
        CheckerUnavailableError: when dratify is not installed.
    """
    from ..certify import Certifier, UnsatClaim

    grid = core.grid(puzzle)
    certification = Certifier().certify(UnsatClaim(grid))
    if not certification.certified:
        return f"no completion is not certified: {certification.reason}"
    for cell, value in core.givens:
        smaller = grid.with_values({cell: 0})
        completion = oracle.completion(oracle.literals(smaller.givens().items()))
        if completion is None or not completion.is_solution_of(smaller):
            return f"without {candidate_name(cell, value, puzzle.size)}: no checked completion"
    return None


def is_minimal(core: list[int], oracle: Oracle) -> bool:
    """No completion with all of `core`, and one without each of its literals."""
    if oracle.satisfiable(core):
        return False
    return all(oracle.satisfiable(core[:i] + core[i + 1 :]) for i in range(len(core)))


def _in_order(core: list[int], literal_of: dict[int, Candidate]) -> list[int]:
    """The core's literals that are givens, in the order of the cells."""
    return sorted((literal for literal in core if literal in literal_of), key=literal_of.get)  # type: ignore[arg-type]


__all__ = ["UnsatCore", "certify_core", "is_minimal", "unsat_core"]
