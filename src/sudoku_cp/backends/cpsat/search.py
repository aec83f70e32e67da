"""Lex-min by a fixed search (`cpsat[lexmin=search]`, the default), and the single solves.

`lexmin_by_search` takes the first solution of a fixed search: the decision strategy that
`kept.CpSatModel.posed` writes for the puzzle (its blank cells row-major, first unfixed one
first, smallest value first) under `configure_fixed_search`. Its docstring holds the argument
that this first solution is the lex-min. `any` mode takes the first solution of CP-SAT's own
search through the same `first_solution`.

    configure_fixed_search(parameters)
    with model.posed(grid, lexmin=True):
        outcome = lexmin_by_search(model, PuzzleCalls(parameters, deadline))
"""

from __future__ import annotations

from typing import Any

from ...result import Status
from ..base import Outcome, TimeUp
from .call import NO_COMPLETION, PuzzleCalls, configure_lean, status_name
from .kept import CpSatModel


def configure_fixed_search(parameters: Any) -> None:
    """Make CP-SAT follow the model's decision strategy and nothing else: `FIXED_SEARCH`, no
    presolve, no symmetry detection, one worker (why: `lexmin_by_search`), and lean.

    Presolve rewrites cells into functions of representatives and breaks symmetries, and other
    workers report their own solutions: either way the first solution is no longer the lex-min.
    Symmetry detection still runs with presolve off, and only costs time here.
    """
    from ortools.sat.python import cp_model_helper as cmh

    parameters.search_branching = cmh.SatParameters.SearchBranching.FIXED_SEARCH
    parameters.cp_model_presolve = False
    parameters.num_workers = 1
    parameters.symmetry_level = 0
    configure_lean(parameters)


def lexmin_by_search(model: CpSatModel, calls: PuzzleCalls) -> Outcome:
    """The lex-min: the first solution of the row-major, smallest-value fixed search.

    **Why the first solution of that search is the lex-min.** Under `configure_fixed_search` CP-SAT
    is one CDCL search over the model as written (no presolve: no variable is replaced by a
    representative or removed, no symmetry is broken) whose every decision is "the first
    not-yet-fixed cell, in row-major order, takes its smallest value still in its domain". The
    strategy lists only the blank cells and, on the Boolean model, only their candidates, ordered
    cell by cell and value by value; the first unfixed literal set true is the same decision. What
    it leaves out is fixed before the first decision: a given is an assumption or a one-value
    domain, and a value that a given peer holds is false once the givens propagate (the unit's
    exactly-one holding the given).

    Let `S*` be the lex-min completion. Invariant: every literal on the trail is implied by the
    model together with the decisions above it, since unit propagation, the `AllDifferent`
    propagators and learnt clauses are all sound (a learnt clause is implied by the model alone).
    Claim: as long as every decision agrees with `S*`, `S*` satisfies everything on the trail. Take
    the first decision that disagrees: cell c set to `v != S*[c]`. All cells before c are fixed (it
    is the first unfixed cell), and by induction to `S*`'s values. `S*[c]` was still in c's domain
    (`S*` satisfies the trail), and v is the smallest value in the domain, so `v < S*[c]`. A
    solution found under this decision would agree with `S*` before c and be smaller at c: smaller
    than `S*`, impossible. So the search below it fails, the conflict analysis learns a clause
    implied by the model that refutes it, and the search backjumps; it never reports a solution
    there. The only solution it can reach is therefore the one whose decisions all agree with `S*`:
    `S*` itself. A deduction made before the search (probing, which `configure_lean` switches off
    anyway) is also implied by the model and cannot exclude `S*`.

    Presolve or a second worker break this: presolve searches a rewritten model (the decision goes
    to a representative, whose smallest value is not the cell's), and another worker may report its
    own solution first. Both are tested pitfalls. The implied row counts keep the argument
    (`model.add_row_counts` says why).

    Raises:
        TimeUp: when the budget runs out first.
        BackendFailure: for a status that should not happen (MODEL_INVALID, ...).
    """
    return first_solution(model, calls)


def first_solution(model: CpSatModel, calls: PuzzleCalls) -> Outcome:
    """Solve once and translate the status: the first solution the search reports.

    Raises:
        TimeUp: when the budget runs out first.
        BackendFailure: for a status that should not happen (MODEL_INVALID, ...).
    """
    status = calls.solve(model, when="in the search")
    name = status_name(status)
    if name in ("OPTIMAL", "FEASIBLE"):
        return Outcome(Status.SOLVED, values=tuple(model.values_from(calls.solution())))
    if name == "INFEASIBLE":
        return Outcome.unsatisfiable(NO_COMPLETION)
    if name == "UNKNOWN" and calls.ran_out_of_time():
        raise TimeUp("in the search")
    raise calls.failure(status, "for a single solve")
