"""`SatBackend`: a CNF solved by python-sat, lex-min by iterative tightening or, on big sparse
grids, by a row-major search over the solver's unit propagation.

One solver per (size, box, encoding, at-most-one, solver name) is kept and reused across puzzles
(`kept.KeptSolver`); the search by propagation runs on another, with the implied row counts,
which it consumes. Set-up is not solving: the pysat import, the base CNF and loading it into a
solver happen in `prepare_for()` the first time a shape needs them, before the puzzle's clock
starts (`Backend.solve`), so a time limit below the build time still solves an easy puzzle of a
new shape. A solver that was consumed, interrupted or raised is never asked again: the next
puzzle of its shape builds a new one on its own clock (a cost paid per puzzle, which the time
limit bounds), and says so in stats["rebuilt"].

A kept solver is not a fresh one: its variable order, saved phases and learnt clauses come from
earlier puzzles, and a fresh solver's order (row-major, values ascending) happens to suit
lex-min. So a puzzle on a used solver gets `KEPT_CONFLICT_ALLOWANCE` conflicts; past them it is
abandoned and solved again on a fresh solver (built on the clock: stats["rebuilt"] = "slow",
with the abandoned attempt's conflicts, calls and seconds). A build on the clock is not started
when the shape's last build took longer than the time left.

    with SatBackend(solver="auto", lexmin="auto") as backend:
        result = backend.solve(grid, time_limit=2)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from ...errors import BackendFailure, BackendOptionError, is_solver_interrupt
from ...grid import Grid, Shape
from ...result import Mode
from ..base import Backend, BackendOption, Deadline, Outcome, TimeUp
from .cnf import (
    AMO_ENCODINGS,
    DEFAULT_AMO,
    DEFAULT_ENCODING,
    ENCODINGS,
    NATIVE_AMO,
    base_cnf,
    row_count_cnf,
)
from .kept import KEPT_CONFLICT_ALLOWANCE, AllowanceSpent, KeptSolver, PuzzleCalls, Watchdog
from .modes import MODES
from .propagation import (
    PROPAGATION_FROM_SIZE,
    PROPAGATION_MAX_GIVENS,
    PropagationFailed,
    Walk,
    lexmin_by_propagation,
    walk_stats,
)
from .solvers import (
    AUTO_SOLVER,
    BIG_GRID_SIZE,
    BIG_GRID_SOLVER,
    CARDINALITY_SOLVERS,
    DEFAULT_SOLVER,
    PROPAGATING_SOLVERS,
    check_solver,
    solver_choices,
    solver_for,
)

LEXMIN_METHODS = ("auto", "tightening", "propagation")
# The reason of a puzzle that timed out because a new solver would not fit in its time left.
REBUILD_TOO_LONG = "a new solver would take longer than the time left"

AUTO_AMO = "auto"
# `amo=auto` takes the solver's own cardinality constraints from this size on (when the solver
# has them, as the `auto` solver there does), pairwise clauses below: pairwise needs ~N^4
# clauses, gigabytes of them at 64x64.
NATIVE_AMO_FROM_SIZE = 25


def amo_for(amo: str, size: int, solver: str) -> str:
    """The at-most-one encoding a grid of this size gets on this solver: the named one, or the
    `auto` choice."""
    if amo != AUTO_AMO:
        return amo
    if size >= NATIVE_AMO_FROM_SIZE and solver in CARDINALITY_SOLVERS:
        return NATIVE_AMO
    return DEFAULT_AMO


# size, box, encoding, at-most-one, solver name, with the row counts (the propagation solver)
_SolverKey = tuple[int, Shape, str, str, str, bool]


@dataclass(frozen=True)
class _Setup:
    """A solver build done for the next puzzle: which solver, how long, and what it replaced."""

    key: _SolverKey
    seconds: float
    rebuilt: str | None  # the retired solver's reason, None for a shape's first solver


class SatBackend(Backend):
    """CNF + python-sat: a kept incremental solver, lex-min by iterative tightening or, on big
    grids, by a row-major search over the solver's unit propagation."""

    name: ClassVar[str] = "sat"
    guarantees_lexmin = True
    description: ClassVar[str] = (
        "SAT (python-sat): CNF encoding, lex-min by iterative tightening "
        "or by a row-major search over unit propagation"
    )
    requires: ClassVar[tuple[str, ...]] = ("pysat",)
    packages: ClassVar[tuple[str, ...]] = ("python-sat",)
    setup_modules: ClassVar[tuple[str, ...]] = ("pysat.solvers",)
    options: ClassVar[tuple[BackendOption, ...]] = (
        BackendOption(
            "solver",
            f"python-sat solver (aliases such as g4 allowed); auto: {DEFAULT_SOLVER} below "
            f"{BIG_GRID_SIZE}x{BIG_GRID_SIZE}, {BIG_GRID_SOLVER} from there",
            AUTO_SOLVER,
            choices=solver_choices,
            flag="--sat-solver",
            parse=check_solver,
            renamed_from=("sat_solver",),
        ),
        BackendOption(
            "encoding",
            "CNF encoding: minimal (cell and unit at-least-one, "
            "at-most-one per unit) or extended (both in all four)",
            DEFAULT_ENCODING,
            choices=ENCODINGS,
            flag="--encoding",
        ),
        BackendOption(
            "amo",
            "at-most-one encoding: clauses (pysat.card), or native: the solver's own "
            f"cardinality constraints; auto: native from {NATIVE_AMO_FROM_SIZE}x"
            f"{NATIVE_AMO_FROM_SIZE} on a solver that has them, else pairwise",
            AUTO_AMO,
            choices=(AUTO_AMO, *AMO_ENCODINGS),
            flag="--amo",
        ),
        BackendOption(
            "lexmin",
            "lex-min method: tightening (SAT calls on a kept solver), propagation (row-major "
            f"search over unit propagation, with implied row counts), auto (propagation from "
            f"{PROPAGATION_FROM_SIZE}x{PROPAGATION_FROM_SIZE}, at most a third of the cells given)",
            "auto",
            choices=LEXMIN_METHODS,
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.sat_solver: str = self.option_values["solver"]
        self.encoding: str = self.option_values["encoding"]
        self.amo: str = self.option_values["amo"]
        self.lexmin: str = self.option_values["lexmin"]
        if self.lexmin == "propagation" and self.sat_solver not in {
            AUTO_SOLVER,
            *PROPAGATING_SOLVERS,
        }:
            raise BackendOptionError(
                f"lexmin=propagation needs a solver whose propagate() can be trusted "
                f"(choose from {', '.join(sorted(PROPAGATING_SOLVERS))})"
            )
        if self.amo == NATIVE_AMO and self.sat_solver not in {AUTO_SOLVER, *CARDINALITY_SOLVERS}:
            raise BackendOptionError(
                f"amo=native needs a solver with cardinality constraints "
                f"(choose from {', '.join(sorted(CARDINALITY_SOLVERS))})"
            )
        # Conflicts a puzzle may run on a used kept solver before a fresh one takes it over
        # (None: no bound, the kept solver finishes whatever it costs).
        self.kept_allowance: int | None = KEPT_CONFLICT_ALLOWANCE
        self._solvers: dict[_SolverKey, KeptSolver] = {}
        self._build_seconds: dict[_SolverKey, float] = {}  # the last build of each key
        self._watchdog = Watchdog()
        self._setup: _Setup | None = None  # what prepare_for() did for the puzzle about to run

    def close(self) -> None:
        """Delete the kept solvers."""
        for kept in self._solvers.values():
            kept.delete()
        self._solvers.clear()
        self._setup = None

    def by_propagation(self, grid: Grid) -> bool:
        """Whether a lex-min of this grid starts with the search by propagation."""
        if self.lexmin == "auto":
            return (
                grid.size >= PROPAGATION_FROM_SIZE
                and self._key(grid)[4] in PROPAGATING_SOLVERS
                and len(grid.givens()) * PROPAGATION_MAX_GIVENS[1]
                <= grid.size**2 * PROPAGATION_MAX_GIVENS[0]
            )
        return self.lexmin == "propagation"

    def _key(self, grid: Grid, *, counts: bool = False) -> _SolverKey:
        solver = solver_for(self.sat_solver, grid.size, cardinality=self.amo == NATIVE_AMO)
        amo = amo_for(self.amo, grid.size, solver)
        return (grid.size, grid.box, self.encoding, amo, solver, counts)

    def prepare(self, grid: Grid) -> bool:
        """`prepare_for` a lex-min puzzle of this grid's shape."""
        return self.prepare_for(grid, Mode.LEXMIN)

    def prepare_for(self, grid: Grid, mode: Mode | str) -> bool:
        """Build the solver a puzzle of this mode will use (the one with the row counts, or the
        kept one) before the puzzle's clock starts, the first time this backend needs it (the
        pysat import, the CNF and loading it are set-up, not solving); `Backend.solve` calls
        it with the puzzle's mode. A solver that an earlier puzzle retired (consumed by the
        search by propagation, interrupted, abandoned) is rebuilt by the next puzzle on its own
        clock: that build is paid per puzzle, and a time limit bounds each puzzle's wall time."""
        lexmin = Mode(mode) is Mode.LEXMIN
        key = self._key(grid, counts=lexmin and self.by_propagation(grid))
        self._setup = None
        if key in self._solvers or key in self._build_seconds:
            return False
        self._setup = self._build(key)
        return True

    def _build(self, key: _SolverKey) -> _Setup:
        """A new kept solver for this key, replacing a retired one."""
        start = time.perf_counter()
        retired = self._solvers.pop(key, None)
        reason = None
        if retired is not None:
            reason = retired.retired
            retired.delete()
        size, box, encoding, amo, solver_name, counts = key
        cnf = base_cnf(size, box, encoding, amo)
        native = amo == NATIVE_AMO
        extra = row_count_cnf(size, box, cnf.variables + 1, native=native) if counts else None
        self._solvers[key] = KeptSolver(cnf, solver_name, extra)
        seconds = time.perf_counter() - start
        self._build_seconds[key] = seconds
        return _Setup(key, seconds, reason)

    def _build_on_the_clock(self, key: _SolverKey, deadline: Deadline) -> _Setup:
        """A build inside a puzzle's time (a fallback, a direct call). A build cannot be
        interrupted, so it is not started when the last build of this shape took longer than
        the time left.

        Raises:
            TimeUp: when the time left is shorter than the last build took.
        """
        remaining = deadline.remaining()
        if remaining is not None:
            expected = max(
                (seconds for known, seconds in self._build_seconds.items() if known[:2] == key[:2]),
                default=0.0,
            )
            if remaining < expected:
                raise TimeUp(REBUILD_TOO_LONG)
        return self._build(key)

    # -- one puzzle ------------------------------------------------------------------------------

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        if mode is Mode.LEXMIN and self.by_propagation(grid):
            return self._solve_by_propagation(grid, deadline)
        return self._solve_kept(grid, mode, limit, deadline)

    def _solve_kept(self, grid: Grid, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        """The puzzle on the kept solver (built on the clock when prepare() did not)."""
        key = self._key(grid)
        setup = self._taken_setup(key)
        kept = self._solvers.get(key)
        if kept is None or kept.retired is not None:
            # Only when prepare() was skipped (a subclass, a direct call) or for a fallback.
            try:
                setup = self._build_on_the_clock(key, deadline)
            except TimeUp as stop:
                return Outcome.timeout(deadline, when=stop.when)
            kept = self._solvers[key]
        allowance = self.kept_allowance if kept.used and not kept.budgeted else None
        run = MODES[mode]

        def attempt(calls: PuzzleCalls) -> Outcome:
            return run(calls, grid, limit)

        try:
            outcome = self._solve_on(kept, grid, attempt, deadline, setup, allowance)
        except AllowanceSpent as abandoned:
            # The kept solver went far off where a fresh one may not: a fresh one takes over
            # (built on the clock, unavoidably) and stays as the kept solver.
            try:
                fresh = self._build_on_the_clock(key, deadline)
            except TimeUp as stop:
                return Outcome.timeout(deadline, when=stop.when)
            outcome = self._solve_on(self._solvers[key], grid, attempt, deadline, fresh, None)
            outcome.stats.update(
                abandoned_conflicts=abandoned.conflicts,
                abandoned_sat_calls=abandoned.sat_calls,
                abandoned_seconds=abandoned.seconds,
            )
        if mode is Mode.LEXMIN:
            outcome.stats["lexmin"] = "tightening"
        return outcome

    def _taken_setup(self, key: _SolverKey) -> _Setup | None:
        """What prepare() built for this puzzle, if it built this key (taken once)."""
        setup, self._setup = self._setup, None
        return setup if setup is not None and setup.key == key else None

    def _solve_by_propagation(self, grid: Grid, deadline: Deadline) -> Outcome:
        """Lex-min by the search over propagation on a solver with the row counts, which it
        consumes; when the search gives up, iterative tightening on the kept solver.

        Raises:
            TimeUp: when the time runs out before a solver could be built.
        """
        key = self._key(grid, counts=True)
        setup = self._taken_setup(key)
        kept = self._solvers.get(key)
        if kept is None or kept.retired is not None:
            setup = self._build_on_the_clock(key, deadline)
            kept = self._solvers[key]
        walk = Walk()
        start = time.perf_counter()
        try:
            outcome = self._solve_on(
                kept,
                grid,
                lambda calls: lexmin_by_propagation(calls, grid, walk),
                deadline,
                setup,
                None,
            )
        except PropagationFailed as failure:
            self._discard(key)
            outcome = self._solve_kept(grid, Mode.LEXMIN, 0, deadline)
            outcome.stats.update(
                lexmin="propagation, then tightening",
                propagation_gave_up=str(failure),
                propagation_seconds=time.perf_counter() - start,
                **walk_stats(walk, prefix="propagation_"),
            )
            return outcome
        kept.retired = kept.retired or "consumed"  # its unit clauses belong to this puzzle
        outcome.stats.update(lexmin="propagation", **walk_stats(walk))
        return outcome

    def _solve_on(
        self,
        kept: KeptSolver,
        grid: Grid,
        run: Callable[[PuzzleCalls], Outcome],
        deadline: Deadline,
        setup: _Setup | None,
        allowance: int | None,
    ) -> Outcome:
        """One attempt at the puzzle on one solver.

        Raises:
            AllowanceSpent: past the allowance (the solver is then retired as "slow").
            PropagationFailed: when the search by propagation gave up.
            BackendFailure: when the solver raised (the solver is then dropped).
        """
        kept.used = True
        before = kept.statistics()
        solve_start = time.perf_counter()
        calls = PuzzleCalls(kept, deadline, self._watchdog, allowance)
        try:
            with calls:
                outcome = run(calls)
        except TimeUp as stop:
            outcome = Outcome.timeout(deadline, when=stop.when, count=stop.count)
        except AllowanceSpent as abandoned:
            kept.retired = "slow"
            abandoned.conflicts = kept.statistics().get("conflicts", 0) - before.get("conflicts", 0)
            abandoned.sat_calls = calls.sat_calls
            abandoned.seconds = time.perf_counter() - solve_start
            raise
        except PropagationFailed:
            raise  # the solver is consumed either way; the caller discards it
        except Exception as error:
            self._discard_solver(kept)
            if is_solver_interrupt(error):
                raise KeyboardInterrupt from error
            raise BackendFailure(f"SAT solver {kept.name} failed: {error}") from error
        except BaseException:  # Ctrl-C between calls, ...: the solver may be mid-change
            self._discard_solver(kept)
            raise
        solve_seconds = time.perf_counter() - solve_start

        outcome.stats = {
            **self._stats(
                kept, before, kept.statistics(), calls, setup=setup, solve_seconds=solve_seconds
            ),
            **outcome.stats,  # what the mode counted itself
        }
        if calls.suspect:
            # Only answers of calls that finished were used; the solver itself is not trusted
            # again (the watchdog firing, even between calls, counts as an interrupt).
            kept.retired = "interrupted"
        return outcome

    def _discard(self, key: _SolverKey) -> None:
        kept = self._solvers.pop(key, None)
        if kept is not None:
            kept.delete()

    def _discard_solver(self, kept: KeptSolver) -> None:
        for key, known in list(self._solvers.items()):
            if known is kept:
                self._discard(key)

    def _stats(
        self,
        kept: KeptSolver,
        before: dict[str, int],
        after: dict[str, int],
        calls: PuzzleCalls,
        *,
        setup: _Setup | None,
        solve_seconds: float,
    ) -> dict[str, Any]:
        counters: dict[str, int] = {
            name: after[name] - before.get(name, 0)
            for name in ("conflicts", "decisions", "propagations")
            if name in after
        }
        stats: dict[str, Any] = {
            "variables": kept.top,
            "clauses": kept.clause_count + calls.clauses_added,
            "sat_calls": calls.sat_calls,
            **counters,
            "build_seconds": 0.0 if setup is None else setup.seconds,
            "solve_seconds": solve_seconds,
            "solver": kept.name,
            "encoding": self.encoding,
            "amo": kept.cnf.amo,
            "reused": setup is None,
        }
        if setup is not None and setup.rebuilt is not None:
            stats["rebuilt"] = setup.rebuilt  # "interrupted" or "slow": why the last one went
        return stats
