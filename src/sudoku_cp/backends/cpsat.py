"""The `cpsat` backend: Sudoku as an OR-Tools CP-SAT model.

Lex-min is found by a staged lexicographic objective: the blank cells, row-major, are cut into
chunks of `chunk_length(N)` cells; each stage minimises one chunk read as a base-N number,
``sum((value - 1) * N**(L - 1 - j))``, then freezes the chunk at its optimum and moves on. A
row-major / smallest-value decision strategy with fixed search, presolve off and one worker leads
each stage straight to its optimum, so most of the time goes into proving it; the objective, not
the strategy, guarantees the answer. The "search" strategy keeps only that fixed search (its first
solution is the lex-min exactly under those parameters) and is tested to agree.

Pitfalls of ortools 9.15 guarded against here (see ../shared/reference/lexmin-methods.md, §1):
with presolve on or more than one worker the fixed search's first solution is not the lex-min;
objective coefficients at or beyond 2**53 give wrong "optimal" answers or MODEL_INVALID, and
beyond int64 the Python layer silently switches to a floating-point objective; solution hints
between stages crash presolve (or-tools #5288, #5091), so none are given; enumerating with several
workers reports solutions twice, so counting uses one worker and de-duplicates anyway.

ortools is imported only inside functions: choosing another backend never pays for loading it.
"""

from __future__ import annotations

import functools
import itertools
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import BackendFailure, BackendOptionError
from ..grid import BLANK, Grid
from ..result import Mode, Status
from .base import Backend, Deadline, Outcome

if TYPE_CHECKING:  # only for annotations; never imported at run time from here
    from ortools.sat.python import cp_model

logger = logging.getLogger(__name__)

STRATEGIES = ("objective", "search")
EXACT_INTEGER_LIMIT = 2 ** 53  # every objective value must stay below this to be exact
DEFAULT_WORKERS = 1  # for `any`; on this 2-core machine one worker beat two (see CpSatBackend)
MODEL_KIND = "boolean"


def chunk_length(size: int) -> int:
    """The most cells a stage can minimise as one base-N number with N**k - 1 < 2**53."""
    if size < 2:
        raise ValueError(f"size must be >= 2, got {size}")
    length = 1
    while size ** (length + 1) - 1 < EXACT_INTEGER_LIMIT:
        length += 1
    return length


def ortools_version() -> str:
    """The installed OR-Tools version."""
    import ortools

    return str(ortools.__version__)


# -- the model ----------------------------------------------------------------------------------

# Why Boolean per (cell, value) rather than an integer per cell with AllDifferent (measured on this
# 2-core machine, ortools 9.15, lexmin with the fixed search and presolve off, build included):
#   empty 16x16: Boolean 0.34 s (56k branches) vs integer 0.59 s (104k branches);
#   empty 25x25: Boolean 4.8 s vs integer 8.9 s; 9x9 medians: top95 8.5 vs 8.6 ms,
#   serg 5.9 vs 7.6 ms; `any` medians (1 worker): top95 3.4 vs 4.0 ms.
# Our reading of the branch counts: with presolve off, the per-unit exactly-ones of the Boolean
# model give CP-SAT hidden singles by plain clause propagation, which the integer AllDifferent
# propagator does not see as cheaply.
# Building costs more in Python (9x9 3 ms vs 1 ms, 25x25 70 ms vs 6 ms) but is small beside
# solving. A hybrid (both, channelled) was far slower (empty 16x16: 16 s).
class SudokuModel:
    """The puzzle as CP-SAT Booleans, one per (blank cell, candidate value).

    Givens are fixed by construction: a given cell has no variable and its value is no candidate
    of its peers. Each blank cell takes exactly one value; each unit holds each value it lacks
    exactly once (the extended encoding: it lets unit propagation find hidden singles).
    """

    def __init__(self, grid: Grid) -> None:
        from ortools.sat.python import cp_model

        self.grid = grid
        self.size = grid.size
        self.model = cp_model.CpModel()
        self.blanks = grid.blanks()
        self.candidates: dict[int, list[tuple[int, cp_model.IntVar]]] = {}
        for cell in self.blanks:
            # Unnamed: names cost a fifth of the 9x9 build time and nobody reads them.
            self.candidates[cell] = [(value, self.model.new_bool_var(""))
                                     for value in candidate_values(grid, cell)]
            self.model.add_exactly_one([literal for _, literal in self.candidates[cell]])
        for unit in grid.geometry.units:
            self._place_each_missing_value_once(unit)
        # The value each variable stands for, by variable index: a solution vector then reads
        # as the blank cells' values with one `compress` (row-major, one true literal per cell).
        self._value_of_variable = [0] * len(self.model.proto.variables)
        for cell in self.blanks:
            for value, literal in self.candidates[cell]:
                self._value_of_variable[literal.index] = value

    def _place_each_missing_value_once(self, unit: Sequence[int]) -> None:
        """Each value not given in the unit goes in exactly one of its blank cells."""
        given = {self.grid.values[cell] for cell in unit} - {BLANK}
        places: dict[int, list[Any]] = {value: [] for value in range(1, self.size + 1)
                                        if value not in given}
        for cell in unit:
            for value, literal in self.candidates.get(cell, ()):
                places[value].append(literal)
        for literals in places.values():
            self.model.add_exactly_one(literals)  # empty: no place left, the model is infeasible

    @property
    def literals(self) -> list[Any]:
        """Every literal, row-major by cell, values ascending: the lex-min decision order."""
        return [literal for cell in self.blanks for _, literal in self.candidates[cell]]

    def decide_row_major_smallest_first(self) -> None:
        """Branch on the first undecided cell, smallest candidate first (literal true first)."""
        from ortools.sat.python import cp_model

        self.model.add_decision_strategy(self.literals, cp_model.CHOOSE_FIRST,
                                         cp_model.SELECT_MAX_VALUE)

    def minimize_chunk(self, cells: Sequence[int]) -> None:
        """Replace the objective by the chunk read as a base-N number (its first cell weighs most).

        Raises:
            BackendFailure: when the chunk is too long for an exact objective (N**L - 1 >= 2**53)
                or CP-SAT did not keep the objective as integers.
        """
        from ortools.sat.python import cp_model

        if self.size ** len(cells) - 1 >= EXACT_INTEGER_LIMIT:
            raise BackendFailure(f"a chunk of {len(cells)} cells overflows an exact objective for "
                                 f"size {self.size} (at most {chunk_length(self.size)})")
        literals, coefficients = [], []
        for position, cell in enumerate(cells):
            place = self.size ** (len(cells) - 1 - position)
            for value, literal in self.candidates[cell]:
                if value > 1:  # value 1 is digit 0 of the base-N number
                    literals.append(literal)
                    coefficients.append(place * (value - 1))
        self.model.clear_objective()
        self.model.minimize(cp_model.LinearExpr.weighted_sum(literals, coefficients))
        check_integer_objective(self.model, len(literals))

    def freeze(self, cells: Sequence[int], values: Sequence[int]) -> None:
        """Fix these cells to their values in `values` (a constraint, never a hint)."""
        for cell in cells:
            self.model.add(self.literal(cell, values[cell]) == 1)

    def literal(self, cell: int, value: int) -> Any:
        """The Boolean "cell holds value" (KeyError when value is no candidate)."""
        return next(literal for candidate, literal in self.candidates[cell] if candidate == value)

    def blank_values(self, solution: Sequence[int]) -> bytes:
        """The blank cells' values, row-major, one byte each, from a CP-SAT solution vector.

        Compact and exact, so it also serves as the key that tells completions apart.
        """
        return bytes(itertools.compress(self._value_of_variable, solution))

    def values_from(self, solution: Sequence[int]) -> tuple[int, ...]:
        """The grid's values (givens included) from a CP-SAT solution vector."""
        return self.fill(self.blank_values(solution))

    def fill(self, blank_values: bytes) -> tuple[int, ...]:
        """The grid's values with the blank cells set to `blank_values`."""
        values = list(self.grid.values)
        if len(blank_values) != len(self.blanks):
            raise BackendFailure(f"CP-SAT gave {len(blank_values)} values for "
                                 f"{len(self.blanks)} blank cells")
        for cell, value in zip(self.blanks, blank_values):
            values[cell] = value
        return tuple(values)


def candidate_values(grid: Grid, cell: int) -> list[int]:
    """Values no peer of the cell holds as a given."""
    taken = {grid.values[peer] for peer in grid.geometry.peers[cell]}
    return [value for value in range(1, grid.size + 1) if value not in taken]


def check_integer_objective(model: cp_model.CpModel, terms: int) -> None:
    """Make sure CP-SAT holds the objective as `terms` exact integer terms.

    The Python layer silently turns an objective with a coefficient beyond int64 (or a float) into
    a floating-point objective, whose "optimum" is not exact.

    Raises:
        BackendFailure: when the objective is floating point or lost terms.
    """
    proto = model.proto
    if proto.has_floating_point_objective():
        raise BackendFailure("CP-SAT turned the lex-min objective into a floating-point one")
    coefficients = list(proto.objective.coeffs)
    if len(coefficients) != terms or any(abs(c) >= EXACT_INTEGER_LIMIT for c in coefficients):
        raise BackendFailure(f"the lex-min objective should have {terms} exact integer terms, "
                             f"CP-SAT holds {len(coefficients)}")


# -- solver parameters --------------------------------------------------------------------------

def configure_fixed_search(parameters: Any) -> None:
    """Make CP-SAT follow the model's decision strategy and nothing else.

    Presolve rewrites cells into functions of representatives (and breaks symmetries), and other
    workers report their own solutions: either way the first solution is no longer the lex-min.
    """
    from ortools.sat.python import cp_model

    parameters.search_branching = cp_model.FIXED_SEARCH
    parameters.cp_model_presolve = False
    parameters.num_workers = 1
    # Symmetry detection still runs with presolve off; on an empty 25x25 it costs 0.2 s per call
    # (lexmin 4.4 s without it, 5.7 s with it; search-only 0.45 s vs 1.2 s), and symmetry
    # breaking has no place in a search whose first solution must be the lex-min.
    parameters.symmetry_level = 0


def configure_enumeration(parameters: Any) -> None:
    """Enumerate every solution with one worker (several report duplicates and overshoot)."""
    parameters.enumerate_all_solutions = True
    parameters.num_workers = 1
    # Presolve off: counting was as fast without it, and it avoids presolve's duplicate
    # enumeration (or-tools #4640). No symmetry detection: it only costs time here (empty 9x9,
    # 1000 completions: 0.22 s without, 0.28 s with) and on an empty 25x25 it ate a 0.4 s budget
    # before the first branch.
    parameters.cp_model_presolve = False
    parameters.symmetry_level = 0


def set_time_budget(parameters: Any, deadline: Deadline) -> float | None:
    """Give the solver what is left of the puzzle's budget; return it (None: no limit)."""
    remaining = deadline.remaining()
    if remaining is not None:
        parameters.max_time_in_seconds = remaining
    return remaining


# -- counting -----------------------------------------------------------------------------------

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


@functools.cache
def _tallying_callback_class() -> type:
    """The solution callback class (built on first use: its base class lives in ortools)."""
    from ortools.sat.python import cp_model

    class TallyingCallback(cp_model.CpSolverSolutionCallback):
        """Feeds each reported solution to a tally and stops the search at its limit."""

        def __init__(self, tally: SolutionTally, sudoku: SudokuModel) -> None:
            super().__init__()
            self.tally = tally
            self.sudoku = sudoku

        def on_solution_callback(self) -> None:
            if self.tally.reached():
                return  # a solution reported after stop_search: not counted
            if self.tally.record(self.sudoku.blank_values(self.response_proto.solution)):
                self.stop_search()

    return TallyingCallback


@functools.cache
def _first_solution_clock_class() -> type:
    """A callback that notes when the first solution arrives (where the lex-min time goes)."""
    from ortools.sat.python import cp_model

    class FirstSolutionClock(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.at: float | None = None

        def on_solution_callback(self) -> None:
            if self.at is None:
                self.at = time.perf_counter()

    return FirstSolutionClock


# -- the backend --------------------------------------------------------------------------------

class _TimedOut(Exception):
    """Raised inside a solve when the budget ran out; turned into TIMEOUT."""


@dataclass
class _Run:
    """One puzzle's solver calls: the solver, the budget and the counters for the stats."""

    solver: Any
    deadline: Deadline
    stages: int = 0
    branches: int = 0
    conflicts: int = 0
    solve_seconds: float = 0.0
    last_budget: float | None = None

    def solve(self, model: Any, callback: Any = None) -> Any:
        """One CP-SAT call within what is left of the budget; returns its raw status.

        Raises:
            _TimedOut: when no time is left before the call.
        """
        budget = set_time_budget(self.solver.parameters, self.deadline)
        if budget is not None and budget <= 0.0:
            raise _TimedOut
        start = time.perf_counter()
        status = self.solver.solve(model, callback)
        self.solve_seconds += time.perf_counter() - start
        self.stages += 1
        self.branches += self.solver.num_branches
        self.conflicts += self.solver.num_conflicts
        self.last_budget = budget
        return status

    def ran_out_of_time(self) -> bool:
        """Whether the last call stopped short because of the time budget.

        Time is the only limit we give CP-SAT, so a call under a budget that stops unfinished
        ran out of it. The wall clock is not a reliable witness: CP-SAT also charges its
        deterministic time against the limit (symmetry detection on an empty 25x25 stopped a
        0.4 s call after 0.22 s).
        """
        return self.last_budget is not None

    def failure(self, status: Any, what: str) -> BackendFailure:
        """The error for a status that should not happen here."""
        return BackendFailure(f"CP-SAT returned {self.solver.status_name(status)} {what}")


class CpSatBackend(Backend):
    """OR-Tools CP-SAT: lex-min by a staged lexicographic objective, for every size and mode.

    `workers` is the number of CP-SAT workers for `any` (lex-min stages and counting always use
    one: see the module docstring). Default 1, measured on this 2-core machine: `any` medians
    with 1 / 2 workers (two runs each, other jobs running): top95 4.1-5.0 / 5.1-5.4 ms,
    serg_benchmark[:200] 6.8-7.0 / 7.7-8.7 ms, empty 25x25 1.7-2.2 / 2.1-2.2 s; only the empty
    16x16 gained from two (0.33-0.51 / 0.27-0.36 s). Earlier, quieter: 4 workers were slower still.
    """

    name = "cpsat"
    description = "OR-Tools CP-SAT model; lex-min by a staged lexicographic objective"
    requires = ("ortools",)
    option_names = frozenset({"workers", "cpsat_strategy"})

    def __init__(self, *, workers: int | None = None, cpsat_strategy: str = "objective") -> None:
        if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                    or workers < 1):
            raise BackendOptionError(f"workers must be a whole number >= 1, got {workers!r}")
        if cpsat_strategy not in STRATEGIES:
            raise BackendOptionError(f"unknown cpsat strategy {cpsat_strategy!r} "
                                     f"(choose from {', '.join(STRATEGIES)})")
        self.workers = DEFAULT_WORKERS if workers is None else workers
        self.strategy = cpsat_strategy

    @classmethod
    def versions(cls) -> dict[str, str]:
        """The OR-Tools version (empty when it is not installed)."""
        return {"ortools": ortools_version()} if cls.is_available() else {}

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        from ortools.sat.python import cp_model

        start = time.perf_counter()
        sudoku = SudokuModel(grid)
        build_seconds = time.perf_counter() - start
        run = _Run(cp_model.CpSolver(), deadline)
        # CP-SAT's own SIGINT handler kills the process on Ctrl-C after a first solve; leave
        # Ctrl-C to Python so solve and crosscheck can stop cleanly and report what was done.
        run.solver.parameters.catch_sigint_signal = False
        stats: dict[str, Any] = {"model": MODEL_KIND, "ortools": ortools_version(),
                                 "variables": len(sudoku.model.proto.variables),
                                 "constraints": len(sudoku.model.proto.constraints)}
        if mode is Mode.LEXMIN and self.strategy == "objective":
            stats.update(strategy="objective", workers=1)
            outcome = self._lexmin_by_objective(sudoku, run, stats)
        elif mode is Mode.LEXMIN:
            stats.update(strategy="search", workers=1)
            outcome = self._lexmin_by_search(sudoku, run)
        elif mode is Mode.ANY:
            stats.update(strategy="portfolio", workers=self.workers)
            outcome = self._any(sudoku, run)
        else:
            stats.update(strategy="enumerate", workers=1)
            outcome = self._count(sudoku, run, limit, stats)
        outcome.stats = {**stats, "build_seconds": build_seconds,
                         "solve_seconds": run.solve_seconds, "stages": run.stages,
                         "branches": run.branches, "conflicts": run.conflicts, **outcome.stats}
        return outcome

    # -- lexmin ---------------------------------------------------------------------------------

    def _lexmin_by_objective(self, sudoku: SudokuModel, run: _Run,
                             stats: dict[str, Any]) -> Outcome:
        """Minimise chunk after chunk of blank cells, freezing each at its proven optimum."""
        from ortools.sat.python import cp_model

        sudoku.decide_row_major_smallest_first()
        configure_fixed_search(run.solver.parameters)
        values = sudoku.grid.values
        length = chunk_length(sudoku.size)
        chunks = [sudoku.blanks[a:a + length] for a in range(0, len(sudoku.blanks), length)]
        stats["chunk_length"] = length
        for number, chunk in enumerate(chunks, start=1):
            sudoku.minimize_chunk(chunk)
            clock = _first_solution_clock_class()() if number == 1 else None
            stage_start = time.perf_counter()
            try:
                status = run.solve(sudoku.model, clock)
            except _TimedOut:
                return self._timeout(f"stage {number} of {len(chunks)}")
            if clock is not None and clock.at is not None:
                # The fixed search meets the lex-min first; everything after it is proof.
                stats["first_solution_seconds"] = clock.at - stage_start
            logger.debug("lex-min stage %d of %d: %s after %.3f s", number, len(chunks),
                         run.solver.status_name(status), time.perf_counter() - stage_start)
            if status == cp_model.OPTIMAL:
                values = sudoku.values_from(run.solver.response_proto.solution)
                sudoku.freeze(chunk, values)
            elif status == cp_model.INFEASIBLE and number == 1:
                return Outcome(Status.UNSATISFIABLE, reason="CP-SAT proved there is no completion")
            elif status in (cp_model.FEASIBLE, cp_model.UNKNOWN) and run.ran_out_of_time():
                return self._timeout(f"stage {number} of {len(chunks)}")
            else:
                raise run.failure(status, f"in lex-min stage {number} of {len(chunks)}")
        if "first_solution_seconds" in stats:
            stats["proof_seconds"] = run.solve_seconds - stats["first_solution_seconds"]
        return Outcome(Status.SOLVED, values=values)

    def _lexmin_by_search(self, sudoku: SudokuModel, run: _Run) -> Outcome:
        """The first solution of the row-major, smallest-value fixed search (no objective)."""
        sudoku.decide_row_major_smallest_first()
        configure_fixed_search(run.solver.parameters)
        return self._first_solution(sudoku, run)

    # -- any, count -----------------------------------------------------------------------------

    def _any(self, sudoku: SudokuModel, run: _Run) -> Outcome:
        """Whatever completion CP-SAT finds first, with its default search."""
        run.solver.parameters.num_workers = self.workers
        return self._first_solution(sudoku, run)

    def _first_solution(self, sudoku: SudokuModel, run: _Run) -> Outcome:
        """Solve once and translate the status."""
        from ortools.sat.python import cp_model

        try:
            status = run.solve(sudoku.model)
        except _TimedOut:
            return self._timeout("before the search")
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Outcome(Status.SOLVED,
                           values=sudoku.values_from(run.solver.response_proto.solution))
        if status == cp_model.INFEASIBLE:
            return Outcome(Status.UNSATISFIABLE, reason="CP-SAT proved there is no completion")
        if status == cp_model.UNKNOWN and run.ran_out_of_time():
            return self._timeout("during the search")
        raise run.failure(status, "for a single solve")

    def _count(self, sudoku: SudokuModel, run: _Run, limit: int,
               stats: dict[str, Any]) -> Outcome:
        """Enumerate distinct completions until the limit, the end of the search or the budget."""
        from ortools.sat.python import cp_model

        configure_enumeration(run.solver.parameters)
        tally = SolutionTally(limit)
        try:
            status = run.solve(sudoku.model, _tallying_callback_class()(tally, sudoku))
        except _TimedOut:
            return self._timeout("before counting", count=0)
        stats.update(reported_solutions=tally.reported)
        first = None if tally.first is None else sudoku.fill(tally.first)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE,
                          cp_model.UNKNOWN):
            raise run.failure(status, "while counting")  # MODEL_INVALID or a new status
        if tally.reached() or (status == cp_model.OPTIMAL and tally.count > 0):
            return Outcome(Status.SOLVED, values=first, count=tally.count)
        if status in (cp_model.INFEASIBLE, cp_model.OPTIMAL) and tally.count == 0:
            return Outcome(Status.UNSATISFIABLE, count=0,
                           reason="CP-SAT proved there is no completion")
        if run.ran_out_of_time():
            return self._timeout(f"after {tally.count} completions", count=tally.count)
        raise run.failure(status, f"after {tally.count} of at most {limit} completions")

    @staticmethod
    def _timeout(when: str, count: int | None = None) -> Outcome:
        return Outcome(Status.TIMEOUT, count=count, reason=f"time limit reached {when}")

