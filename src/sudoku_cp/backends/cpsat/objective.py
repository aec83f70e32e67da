"""Lex-min by a staged exact objective (`cpsat[lexmin=objective]`).

One weighted objective over every blank cell would need weights up to N**(N*N), and CP-SAT's
objectives are exact only below 2**53, so the lex-min is minimised in stages, each answer resting
on proven objective bounds rather than on the search order:

1. a uniqueness probe, when the puzzle may have one completion only and the stages would be
   many (`PROBE_FROM_STAGES`): completions are enumerated up to two in one call;
2. the stages: the blank cells, row-major, are cut into chunks (`next_chunk`); each stage
   minimises one chunk read as a mixed-radix number (`minimize_chunk`), then freezes it at its
   optimum and moves on.

`lexmin_by_objective` runs both, and its docstring holds the argument that the answer is the
lex-min. The stages run the fixed search of `search.configure_fixed_search`, which walks
straight to a stage's optimum, so most of a stage is its proof.

    candidates = model.candidates(grid.values)
    with model.posed(grid, lexmin=True, candidates=candidates):
        outcome = lexmin_by_objective(grid, model, calls, stats, candidates)
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Sequence
from typing import Any

from ...errors import BackendFailure
from ...grid import BLANK, Grid
from ...result import Status
from ..base import Outcome, TimeUp
from .call import NO_COMPLETION, PuzzleCalls, status_name
from .count import SolutionTally, tallying_callback
from .kept import CpSatModel

logger = logging.getLogger(__name__)

EXACT_INTEGER_LIMIT = 2**53  # every objective value must stay below this to be exact
# The uniqueness probe is one extra call for a puzzle with several completions and saves every
# stage but one for a unique one: worth it from this many stages on (docs/decisions.md).
PROBE_FROM_STAGES = 3
# stats["probe"] of a lex-min by objective, by what the uniqueness probe found
PROBE_VERDICTS: dict[Status | None, str] = {
    Status.SOLVED: "one",
    None: "several",
    Status.UNSATISFIABLE: "none",
}


def lexmin_by_objective(
    grid: Grid,
    model: CpSatModel,
    calls: PuzzleCalls,
    stats: dict[str, Any],
    candidates: Sequence[int],
) -> Outcome:
    """The lex-min: the only completion if the probe finds one; else chunk after chunk of blank
    cells minimised as a number and frozen at its proven optimum.

    **Why the answer is the lex-min.** The probe: an enumeration that met exactly one completion
    and exhausted the search has proved it the only one, so it is the lex-min. The stages, by
    induction on the frozen prefix: suppose the cells before a chunk hold the lex-min `S*`'s values
    (true of the givens). The completions that keep them include `S*`, so the stage is feasible
    (with no completion at all, the first stage is INFEASIBLE); the chunk's objective reads the
    chunk's cells as one mixed-radix number, the first cell weighing most, each digit below its
    radix and increasing with the cell's value (Boolean model: the value's rank among the cell's
    candidates; integer model: the value less the smallest candidate, up to a constant). Two
    assignments of the chunk then compare as numbers exactly as they compare lexicographically, and
    every value of the objective is an integer below `2**53` (`next_chunk`, checked by
    `check_integer_objective`), so CP-SAT computes it exactly. OPTIMAL therefore gives the chunk
    the lexicographically smallest values among the completions that keep the prefix: `S*`'s
    values, as `S*` is lexicographically smallest overall. Freezing them keeps the induction going;
    after the last chunk the grid is `S*`. This holds whatever order the search takes (it does not
    rest on `lexmin_by_search`'s argument).

    Raises:
        TimeUp: when the budget runs out, saying in which stage.
        BackendFailure: for a status that should not happen, or an objective that would not be
            exact.
    """
    probed = may_be_unique(grid) and stages_at_least(
        grid.blanks(), model, candidates, PROBE_FROM_STAGES
    )
    stats["probe"] = "skipped"  # several completions for sure, or too few stages to save
    if probed:
        try:
            outcome = probe_uniqueness(model, calls)
        except TimeUp:
            stats["probe"] = "timeout"
            raise
        stats["probe"] = PROBE_VERDICTS[None if outcome is None else outcome.status]
        if outcome is not None:
            return outcome
    return minimize_stage_by_stage(grid, model, calls, stats, candidates, probed=probed)


def minimize_stage_by_stage(
    grid: Grid,
    model: CpSatModel,
    calls: PuzzleCalls,
    stats: dict[str, Any],
    candidates: Sequence[int],
    *,
    probed: bool,
) -> Outcome:
    """The stages of `lexmin_by_objective`: minimise a chunk, freeze it at its optimum, take
    the next one, until no blank cell is left (`probed`: an INFEASIBLE first stage would
    contradict the probe).

    Raises:
        TimeUp: when the budget runs out, saying in which stage.
        BackendFailure: for a status that should not happen.
    """
    known = list(grid.values)  # the givens and the frozen chunks
    left = grid.blanks()
    stage = 0
    while left:
        stage += 1
        if stage > 1:
            candidates = model.candidates(known)
        chunk = next_chunk(model, left, candidates)
        left = left[len(chunk) :]
        minimize_chunk(model, chunk, candidates)
        when = f"in stage {stage}, {len(left)} blank cells after it"
        status = _solve_stage(model, calls, stats, stage, when)
        name = status_name(status)
        if name == "OPTIMAL":
            values = model.values_from(calls.solution())
            model.freeze(chunk, values)
            for cell in chunk:
                known[cell] = values[cell]
        elif name == "INFEASIBLE" and stage == 1 and not probed:
            return Outcome.unsatisfiable(NO_COMPLETION)
        elif name in ("FEASIBLE", "UNKNOWN") and calls.ran_out_of_time():
            raise TimeUp(when)
        else:
            raise calls.failure(status, f"in lex-min stage {stage}")
    if "first_solution_seconds" in stats:
        stats["proof_seconds"] = calls.solve_seconds - stats["first_solution_seconds"]
    return Outcome(Status.SOLVED, values=tuple(known))


def _solve_stage(
    model: CpSatModel, calls: PuzzleCalls, stats: dict[str, Any], stage: int, when: str
) -> Any:
    """One stage's call; the first stage notes when its first solution came (the fixed search
    meets the lex-min first: everything after it is proof).

    Raises:
        TimeUp: when the budget runs out first.
    """
    clock = _first_solution_clock_class()() if stage == 1 else None
    start = time.perf_counter()
    status = calls.solve(model, clock, when=when)
    if clock is not None and clock.at is not None:
        stats["first_solution_seconds"] = clock.at - start
    logger.debug(
        "lex-min stage %d (%s): %s after %.3f s",
        stage,
        when,
        status_name(status),
        time.perf_counter() - start,
    )
    return status


def may_be_unique(grid: Grid) -> bool:
    """False when the puzzle surely has several completions: two values absent from the givens
    can be swapped in any completion. (Only decides whether the uniqueness probe is worth a call.)
    """
    return len(set(grid.values) - {BLANK}) >= grid.size - 1


def stages_at_least(
    blanks: list[int], model: CpSatModel, candidates: Sequence[int], stages: int
) -> bool:
    """Whether the staged objective would take at least this many stages, counting chunks by the
    candidates the givens leave (freezing a chunk can only shorten what follows)."""
    left = blanks
    for _ in range(stages - 1):
        left = left[len(next_chunk(model, left, candidates)) :]
        if not left:
            return False
    return True


def probe_uniqueness(model: CpSatModel, calls: PuzzleCalls) -> Outcome | None:
    """Enumerate completions up to two: the answer when there is at most one, else None.

    Raises:
        TimeUp: when the budget runs out first.
        BackendFailure: for a status that should not happen.
    """
    parameters = calls.parameters
    tally = SolutionTally(2)
    parameters.enumerate_all_solutions = True
    try:
        status = calls.solve(model, tallying_callback(tally, model), when="in the uniqueness probe")
    finally:
        parameters.enumerate_all_solutions = False
    name = status_name(status)
    if tally.reached():
        return None
    if name == "OPTIMAL" and tally.first is not None:
        return Outcome(Status.SOLVED, values=tuple(tally.first))
    if name in ("INFEASIBLE", "OPTIMAL"):
        return Outcome.unsatisfiable(NO_COMPLETION)
    if name in ("FEASIBLE", "UNKNOWN") and calls.ran_out_of_time():
        raise TimeUp("in the uniqueness probe")
    raise calls.failure(status, f"in the uniqueness probe after {tally.count} completions")


def chunk_length(size: int) -> int:
    """The most cells a stage can minimise as one base-N number with N**k - 1 < 2**53."""
    if size < 2:
        raise ValueError(f"size must be >= 2, got {size}")
    length = 1
    while size ** (length + 1) - 1 < EXACT_INTEGER_LIMIT:
        length += 1
    return length


def next_chunk(model: CpSatModel, cells: Sequence[int], candidates: Sequence[int]) -> list[int]:
    """The longest prefix of `cells` whose objective stays exact (never empty): the product of
    their radices, times the model's headroom, below 2**53. With every value a candidate on the
    Boolean model, `chunk_length(N)` cells."""
    chunk: list[int] = []
    product = model.headroom()
    for cell in cells:
        count = model.radix(candidates[cell])
        if chunk and product * count - 1 >= EXACT_INTEGER_LIMIT:
            break
        product *= count
        chunk.append(cell)
    return chunk


def minimize_chunk(
    model: CpSatModel, cells: Sequence[int], candidates: Sequence[int] | None = None
) -> None:
    """Make the model's objective the chunk read as one mixed-radix number, its first cell
    weighing most; each cell's digit (`digit_terms`) in its `radix`.

    Raises:
        BackendFailure: when the chunk is too long for an exact objective or CP-SAT did not
            keep the objective as integers.
    """
    if candidates is None:
        candidates = [model.all_values] * (model.size * model.size)
    variables: list[int] = []
    coefficients: list[int] = []
    place = 1
    for cell in reversed(cells):
        mask = candidates[cell]
        for variable, weight in model.digit_terms(cell, mask):
            variables.append(variable)
            coefficients.append(place * weight)
        place *= model.radix(mask)
    largest = model.headroom() * place - 1
    if largest >= EXACT_INTEGER_LIMIT:
        raise BackendFailure(
            f"a chunk of {len(cells)} cells overflows an exact objective "
            f"(its largest value is {largest} >= 2**53)"
        )
    proto = model.proto
    proto.clear_objective()
    proto.objective.vars.extend(variables)
    proto.objective.coeffs.extend(coefficients)
    check_integer_objective(proto, len(variables))


def check_integer_objective(proto: Any, terms: int) -> None:
    """Make sure the model proto holds the objective as `terms` exact integer terms.

    (The `cp_model` layer silently turns an objective with a coefficient beyond int64, or a
    float, into a floating-point objective, whose "optimum" is not exact; this backend writes the
    proto itself, and checks anyway.)

    Raises:
        BackendFailure: when the objective is floating point or lost terms.
    """
    if proto.has_floating_point_objective():
        raise BackendFailure("CP-SAT turned the lex-min objective into a floating-point one")
    coefficients = list(proto.objective.coeffs)
    if len(coefficients) != terms or any(abs(c) >= EXACT_INTEGER_LIMIT for c in coefficients):
        raise BackendFailure(
            f"the lex-min objective should have {terms} exact integer terms, "
            f"CP-SAT holds {len(coefficients)}"
        )


@functools.cache
def _first_solution_clock_class() -> type:
    """A callback that notes when the first solution arrives (where the lex-min time goes)."""
    from ortools.sat.python import cp_model_helper as cmh

    class FirstSolutionClock(cmh.SolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.at: float | None = None

        def OnSolutionCallback(self) -> None:  # noqa: N802 - the name CP-SAT calls
            if self.at is None:
                self.at = time.perf_counter()

    return FirstSolutionClock
