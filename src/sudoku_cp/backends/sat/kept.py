"""A python-sat solver kept across puzzles, and one puzzle's calls to it under a time budget.

`KeptSolver` holds a shape's base CNF (and, for the search by propagation, the implied row
counts). The givens go in as assumptions, never as clauses, so every learnt clause follows from
the base CNF alone and stays valid for the next puzzle; the only clauses a puzzle adds are count
mode's blocking clauses, guarded by a fresh activation literal that is switched off after it.

`PuzzleCalls` is one puzzle's calls (`satisfiable`, `consistent`, `model`, `core`), used as a
context manager: it arms the `Watchdog`, one thread per backend that calls the solver's
interrupt() at the deadline (CaDiCaL, without interrupt() in python-sat, runs in conflict
slices instead, the clock read in between). A call the deadline stopped raises `TimeUp`; a
puzzle on a used solver that spends its conflict allowance raises `AllowanceSpent`. A solver
that was interrupted is marked `suspect` and never trusted again.

    with PuzzleCalls(kept, deadline, watchdog, allowance) as calls:
        if calls.satisfiable(assumptions):
            model = calls.model()
"""

from __future__ import annotations

import logging
import math
import threading
import time

from ...errors import BackendFailure
from ..base import Deadline, TimeUp
from .cnf import BaseCnf, CountCnf
from .solvers import BUDGETED_SOLVERS, constructor_name

logger = logging.getLogger(__name__)

# The conflicts a puzzle may run on a used kept solver before it is abandoned and solved again
# on a fresh one: whatever a kept solver carries over (variable order, saved phases, learnt
# clauses) can send a search-heavy lex-min far off, and no count of its past conflicts predicts
# when, while a bound on the attempt does. (Not for the CaDiCaL solvers, which already spend
# their conflict budget on time slices.)
KEPT_CONFLICT_ALLOWANCE = 2000

# A timed call on a solver without interrupt() runs in slices of this many conflicts, the clock
# read between slices.
CONFLICTS_PER_SLICE = 1000


class AllowanceSpent(Exception):
    """A puzzle on a used kept solver ran past its conflict allowance (not a time-up: the
    puzzle goes to a fresh solver)."""

    def __init__(self) -> None:
        super().__init__("past the kept solver's conflict allowance")
        self.conflicts = 0
        self.sat_calls = 0
        self.seconds = 0.0


class KeptSolver:
    """A python-sat solver loaded with a base CNF, kept for the puzzles of a batch."""

    def __init__(self, cnf: BaseCnf, solver_name: str, counts: CountCnf | None = None) -> None:
        from pysat.solvers import Solver

        self.cnf = cnf
        self.name = solver_name
        self.counts = counts  # the implied row counts, for lex-min by propagation only
        self.budgeted = solver_name in BUDGETED_SOLVERS  # time limit by conflict budgets
        self.solver = Solver(name=constructor_name(solver_name))
        self.solver.append_formula(cnf.clauses)
        if counts is not None:
            self.solver.append_formula(counts.clauses)
        for literals, bound in cnf.cardinalities + (() if counts is None else counts.cardinalities):
            self.solver.add_atmost(list(literals), bound)
        if self.budgeted:
            # CaDiCaL's first call preprocesses the whole formula before its first conflict,
            # which no conflict budget bounds (seconds on a 25x25): done here, in the set-up.
            self.solver.conf_budget(1)
            self.solver.solve_limited()
            self.solver.conf_budget(-1)
        # activation literals are numbered above everything else
        self.top = cnf.variables if counts is None else counts.variables
        self.used = False  # a puzzle has run on it: it is no longer a fresh solver
        self.retired: str | None = None  # why the next puzzle must have a new solver instead

    @property
    def clause_count(self) -> int:
        """The clauses and cardinality constraints loaded before any puzzle (base CNF, and the
        counts when there)."""
        counts = () if self.counts is None else self.counts.clauses + self.counts.cardinalities
        return len(self.cnf.clauses) + len(self.cnf.cardinalities) + len(counts)

    def fresh_activation(self) -> int:
        """A variable no clause has used yet, to guard one puzzle's clauses."""
        self.top += 1
        return self.top

    def statistics(self) -> dict[str, int]:
        """The solver's cumulative counters (empty when the solver exposes none)."""
        try:
            return {key: int(value) for key, value in self.solver.accum_stats().items()}
        except NotImplementedError:
            return {}

    def delete(self) -> None:
        try:
            self.solver.delete()
        except Exception:  # a broken solver may fail to free itself; it is dropped either way
            pass


class Watchdog:
    """One thread per backend that interrupts the solver of the running puzzle at its deadline.

    One thread rather than a `threading.Timer` per puzzle, whose start and join would cost a
    fast puzzle more than its solving. The thread is started on the first timed puzzle and ends
    by itself after `IDLE_SECONDS` without one, so a backend that is never closed leaves no
    thread behind for long.
    """

    IDLE_SECONDS = 2.0
    # The longest single sleep: Condition.wait() raises OverflowError past
    # threading.TIMEOUT_MAX, which a far deadline would reach; it is waited for in steps.
    LONGEST_WAIT = 3600.0

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._armed: tuple[PuzzleCalls, float] | None = None
        self._thread: threading.Thread | None = None
        self._waking_at: float | None = None  # when the thread wakes next (None: on notify)

    def arm(self, calls: PuzzleCalls, at: float) -> None:
        """Call `calls.interrupt()` when the monotonic clock reaches `at` (never, for a
        deadline that is not a finite number)."""
        with self._condition:
            if not math.isfinite(at):
                self._armed = None
                return
            self._armed = (calls, at)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._watch, name="sat-watchdog", daemon=True
                )
                self._thread.start()
            elif self._waking_at is None or at < self._waking_at:
                self._condition.notify()
            # else: the thread wakes earlier anyway and then reads the new deadline; not waking
            # it for every puzzle of a batch keeps arming at a lock and an assignment.

    def disarm(self) -> None:
        """Cancel the pending interrupt; once this returns, none can still be delivered."""
        with self._condition:  # the interrupt is sent holding this lock, so it is done or void
            self._armed = None

    def _watch(self) -> None:
        try:
            self._watch_until_idle()
        except Exception as error:  # never a thread traceback; the next arm() starts a new thread
            logger.warning("the SAT watchdog stopped: %s", error)
            with self._condition:
                self._thread = None

    def _watch_until_idle(self) -> None:
        with self._condition:
            while True:
                if self._armed is None:
                    self._waking_at = None
                    if not self._condition.wait(self.IDLE_SECONDS) and self._armed is None:
                        self._thread = None
                        return
                    continue
                calls, at = self._armed
                remaining = at - time.perf_counter()
                if remaining > 0:
                    self._waking_at = at
                    self._condition.wait(min(remaining, self.LONGEST_WAIT))
                    continue
                calls.interrupt()
                self._armed = None


class PuzzleCalls:
    """One puzzle's calls to a kept solver under one time budget.

    The watchdog interrupts the solver when the budget runs out; an interrupt that lands between
    two calls stops the next one (see `satisfiable`).
    """

    def __init__(
        self,
        kept: KeptSolver,
        deadline: Deadline,
        watchdog: Watchdog,
        allowance: int | None = None,
    ) -> None:
        self.kept = kept
        self.solver = kept.solver
        self.deadline = deadline
        self.watchdog = watchdog
        self.allowance = allowance  # conflicts this puzzle may run (None: no bound)
        self.timed = deadline.at is not None
        self.sat_calls = 0  # satisfiable() calls
        self.propagations = 0  # propagate() calls: answers by unit propagation alone
        self.clauses_added = 0
        self.suspect = False  # interrupted (or stopped) during a call: never ask this solver again

    def __enter__(self) -> PuzzleCalls:
        """Arm the watchdog and the allowance.

        Raises:
            TimeUp: when the deadline has passed already.
        """
        if self.deadline.at is not None:
            if self.deadline.expired():
                raise TimeUp
            if not self.kept.budgeted:
                self.watchdog.arm(self, self.deadline.at)
        if self.allowance is not None:
            # One budget for the whole puzzle: the solver counts it from its conflicts so far.
            self.solver.conf_budget(self.allowance)
        return self

    def interrupt(self) -> None:
        """Called by the watchdog at the deadline."""
        self.suspect = True
        self.solver.interrupt()

    def __exit__(self, *exc_info: object) -> None:
        if self.timed and not self.kept.budgeted:
            self.watchdog.disarm()
            self.solver.clear_interrupt()
        if self.allowance is not None:
            self.solver.conf_budget(-1)  # python-sat: -1 (or 0) switches the budget off

    def satisfiable(self, assumptions: list[int]) -> bool:
        """Whether the base CNF has a model under these assumptions.

        Raises:
            TimeUp: when the budget ran out before the call finished.
            AllowanceSpent: when the call ran out of the puzzle's conflict allowance.
        """
        if self.suspect:
            # The watchdog fired between calls. Calls answered by propagation alone ignore
            # the interrupt flag, so stop here rather than run past the deadline.
            raise TimeUp
        self.sat_calls += 1
        if self.kept.budgeted:
            return self._satisfiable_in_slices(assumptions)
        answer = self.solver.solve_limited(assumptions=assumptions, expect_interrupt=self.timed)
        if answer is None:
            if self.allowance is not None and not self.suspect and not self.deadline.expired():
                raise AllowanceSpent
            self.suspect = True
            raise TimeUp
        return bool(answer)

    def _satisfiable_in_slices(self, assumptions: list[int]) -> bool:
        """For solvers without interrupt(): conflict-budget slices, the clock read before the
        call and between slices (most calls of a lex-min end within one slice, so reading it
        only between slices let the calls run on past the deadline one after another).

        Raises:
            TimeUp: when the deadline has passed before the call or between two slices.
        """
        if not self.timed:
            return bool(self.solver.solve(assumptions=assumptions))
        if self.deadline.expired():
            raise TimeUp
        while True:
            self.solver.conf_budget(CONFLICTS_PER_SLICE)
            answer = self.solver.solve_limited(assumptions=assumptions)
            if answer is not None:
                return bool(answer)
            if self.deadline.expired():
                self.suspect = True
                raise TimeUp

    def consistent(self, assumptions: list[int]) -> bool:
        """Whether unit propagation from these assumptions meets no conflict (a conflict proves
        that no model has them all; no conflict proves nothing).

        Raises:
            TimeUp: when the budget has run out (propagate() itself cannot be interrupted, but
                one call is short).
        """
        if self.suspect or self.deadline.expired():
            raise TimeUp
        self.propagations += 1
        consistent, _ = self.solver.propagate(assumptions=assumptions)
        return bool(consistent)

    def core(self) -> list[int]:
        """The assumptions the last UNSAT answer rests on (empty: it rests on clauses alone)."""
        core: list[int] | None = self.solver.get_core()
        return core or []

    def add_clause(self, clause: list[int]) -> None:
        self.clauses_added += 1
        self.solver.add_clause(clause)

    def model(self) -> list[int]:
        """The last SAT answer's model.

        Raises:
            BackendFailure: when the solver has none.
        """
        model: list[int] | None = self.solver.get_model()
        if model is None:
            raise BackendFailure("the SAT solver answered SAT without a model")
        return model
