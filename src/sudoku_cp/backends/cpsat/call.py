"""The watched CP-SAT call: parameters, one budget for a puzzle's calls, statuses.

Every CP-SAT call of the backend goes through `PuzzleCalls.solve`, which gives the call what is
left of the puzzle's budget, runs it (on a helper thread under a limit, so that a call stuck in a
step CP-SAT does not interrupt is abandoned at the deadline), and adds its branches, conflicts
and seconds to the puzzle's stats. The parameters are made once per purpose by `new_parameters`
and a `configure_*` function (`search.configure_fixed_search` for lex-min):

    calls = PuzzleCalls(parameters, deadline)
    status = calls.solve(model, when="in the search")  # raises TimeUp past the budget
    if status_name(status) == "OPTIMAL":
        values = model.values_from(calls.solution())

The models are solved through `cp_model_helper.SolveWrapper`, never through `cp_model` (which
imports pandas and numpy); ortools is imported only inside functions.
"""

from __future__ import annotations

import functools
import threading
import time
from dataclasses import dataclass
from typing import Any

from ...errors import BackendFailure
from ..base import Deadline, TimeUp
from .kept import CpSatModel
from .model import ProtoWriter

# How long past a call's budget the backend waits for CP-SAT to return by its own limit before it
# stops the call and reports TIMEOUT (see `PuzzleCalls`).
STOP_GRACE_SECONDS = 0.1
NO_COMPLETION = "CP-SAT proved there is no completion"
ABANDONED = "CP-SAT told to stop in a step it does not interrupt"


@functools.cache
def ortools_version() -> str:
    """The installed OR-Tools version."""
    import ortools

    # getattr: the package has no type information for mypy to find __version__ in.
    return str(getattr(ortools, "__version__"))  # noqa: B009


def new_parameters() -> Any:
    """Fresh CP-SAT parameters; CP-SAT's own Ctrl-C handler off.

    (CP-SAT's SIGINT handler kills the process on Ctrl-C after a first solve; Ctrl-C is left to
    Python so solve and crosscheck can stop cleanly and report what was done.)
    """
    from ortools.sat.python import cp_model_helper as cmh

    parameters = cmh.SatParameters()
    parameters.catch_sigint_signal = False
    return parameters


def configure_lean(parameters: Any) -> None:
    """Skip the root-level work that costs more than it saves on Sudoku: probing every Boolean
    at the root, SAT inprocessing (vivification), the LP relaxation of the exactly-ones (never
    read by a fixed search) and the detection of "greater than at least one of" relations (for
    scheduling models; none here). These only drop deductions made before the search, so the
    fixed search's order, and with it the lex-min, is untouched."""
    parameters.cp_model_probing_level = 0
    parameters.use_sat_inprocessing = False
    parameters.linearization_level = 0
    parameters.auto_detect_greater_than_at_least_one_of = False


def configure_enumeration(parameters: Any) -> None:
    """Enumerate every solution with one worker (several report duplicates and overshoot),
    without presolve (its enumeration reports duplicates too) or symmetry detection (it only
    costs time here), and lean."""
    parameters.enumerate_all_solutions = True
    parameters.num_workers = 1
    parameters.cp_model_presolve = False
    parameters.symmetry_level = 0
    configure_lean(parameters)


def configure_free_search(parameters: Any) -> None:
    """CP-SAT's own search for `any`, without presolve, symmetry detection or the root work of
    `configure_lean`: on the kept model with the givens posed, they cost more than the search."""
    parameters.cp_model_presolve = False
    parameters.symmetry_level = 0
    configure_lean(parameters)


def set_time_budget(parameters: Any, deadline: Deadline) -> float | None:
    """Give the solver what is left of the puzzle's budget; return it (None: no limit).

    Without a limit the field is cleared: CP-SAT keeps its own default (no limit), never a huge
    number, even on parameters that an earlier puzzle gave a limit.
    """
    remaining = deadline.remaining()
    if remaining is None:
        parameters.clear_max_time_in_seconds()
    else:
        parameters.max_time_in_seconds = remaining
    return remaining


def call_cp_sat(wrapper: Any, proto: Any, parameters: Any) -> Any:
    """The one place CP-SAT solves: `proto` under `parameters`, through a `SolveWrapper` (which
    holds any solution callback); returns CP-SAT's response."""
    wrapper.set_parameters(parameters)
    return wrapper.solve(proto)


def status_name(status: Any) -> str:
    """CP-SAT's name of a response status ("OPTIMAL", "MODEL_INVALID", ...), read by the
    status's number (the enum's own `name` is slow)."""
    try:
        return _status_names()[int(status)]
    except (KeyError, TypeError, ValueError):
        return str(getattr(status, "name", status))


@functools.cache
def _status_names() -> dict[int, str]:
    from ortools.sat.python import cp_model_helper as cmh

    return {int(value): name for name, value in cmh.CpSolverStatus.__members__.items()}


@functools.cache
def warm_up() -> None:
    """Solve a one-Boolean model once per process: CP-SAT's first call pays a one-off set-up
    that belongs to no puzzle."""
    from ortools.sat.python import cp_model_helper as cmh

    proto = cmh.CpModelProto()
    ProtoWriter(proto).new_bool_var_series(1)
    parameters = new_parameters()
    parameters.num_workers = 1
    call_cp_sat(cmh.SolveWrapper(), proto, parameters)


@dataclass
class PuzzleCalls:
    """One puzzle's CP-SAT calls under one budget: the parameters, the deadline and the counters
    for the stats.

    **Time limits.** One budget covers every call of a puzzle; each call gets what is left.
    CP-SAT checks its limit only between steps, and some steps do not look at it: copying and
    validating the model, and expanding each `AllDifferent` of the integer model into a Boolean
    encoding before the search, which takes long on the biggest grids. So a call under a limit
    runs on a helper thread while the backend waits for what is left of the budget and
    `STOP_GRACE_SECONDS`; past them, the backend asks CP-SAT to stop, reports TIMEOUT and leaves
    the call to end on its own. The kept model it reads is left as it is until then: the next
    puzzle waits for the call on its own clock (a TIMEOUT when the call outlasts that puzzle's
    limit too), or `close` waits for it, and then cleans the model. Without a limit the call
    runs on the calling thread.
    """

    parameters: Any
    deadline: Deadline
    made: int = 0  # calls made (stats["stages"])
    branches: int = 0
    conflicts: int = 0
    solve_seconds: float = 0.0
    last_budget: float | None = None
    response: Any = None

    def solve(self, model: CpSatModel, callback: Any = None, *, when: str) -> Any:
        """One CP-SAT call on the kept model within what is left of the budget; returns its
        status (`response` holds the rest).

        Raises:
            TimeUp: when no time is left before the call, or the call outlived the budget (then
                `when` says so); `when` says what the call was for.
        """
        from ortools.sat.python import cp_model_helper as cmh

        budget = set_time_budget(self.parameters, self.deadline)
        if budget is not None and budget <= 0.0:
            raise TimeUp(when)
        wrapper = cmh.SolveWrapper()
        if callback is not None:
            wrapper.add_solution_callback(callback)
        self.last_budget = budget
        start = time.perf_counter()
        try:
            if budget is None:
                response = call_cp_sat(wrapper, model.proto, self.parameters)
            else:
                response = self._watched(wrapper, model, budget, when)
        finally:
            self.solve_seconds += time.perf_counter() - start
            self.made += 1
        if callback is not None:
            wrapper.clear_solution_callback(callback)
        self.response = response
        self.branches += response.num_branches
        self.conflicts += response.num_conflicts
        return response.status

    def _watched(self, wrapper: Any, model: CpSatModel, budget: float, when: str) -> Any:
        """The call on a helper thread, waited for at most the budget and the grace; past them
        CP-SAT is asked to stop and the model is marked busy until the call ends.

        Raises:
            TimeUp: when the call outlived the budget.
        """
        from ortools.sat.python import cp_model_helper as cmh

        answer: list[Any] = []
        done = threading.Event()
        # The backend reuses its parameters; the call reads its own copy, whatever follows.
        proto, parameters = model.proto, cmh.SatParameters()
        parameters.copy_from(self.parameters)

        def call() -> None:
            try:
                answer.append(call_cp_sat(wrapper, proto, parameters))
            except BaseException as error:  # handed to the waiting thread
                answer.append(error)
            finally:
                done.set()

        thread = threading.Thread(target=call, name="cp-sat call", daemon=True)
        thread.start()
        finished = False
        try:
            finished = done.wait(budget + STOP_GRACE_SECONDS)
        finally:  # also on Ctrl-C while waiting: CP-SAT is told to stop, the model kept busy
            if not finished:
                wrapper.stop_search()
                model.busy = thread
        if not finished:
            raise TimeUp(f"{when}: {ABANDONED}")
        if isinstance(answer[0], BaseException):
            raise answer[0]
        return answer[0]

    def ran_out_of_time(self) -> bool:
        """Whether the last call stopped short because of the time budget.

        Time is the only limit we give CP-SAT, so a call under a budget that stops unfinished
        ran out of it. The wall clock is not a reliable witness: CP-SAT also stops before its
        limit when too little of it is left after loading the model.
        """
        return self.last_budget is not None

    def solution(self) -> Any:
        """The last call's solution vector."""
        return self.response.solution

    def failure(self, status: Any, what: str) -> BackendFailure:
        """The error for a status that should not happen here."""
        return BackendFailure(f"CP-SAT returned {status_name(status)} {what}")
