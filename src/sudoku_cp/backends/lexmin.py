"""Lex-min and counting written once, over an incremental oracle, for solvers without a
lexicographic objective (`sat`, `z3`, `exact`, `dlx[lexmin=tightening]`).

A backend supplies an *oracle*: a solver that already holds the puzzle (its givens) and answers
"is there a completion that keeps every fixed cell, and, optionally, gives this cell a value
below b?", remembering the completion it found. The loops here turn such answers into the lex-min
(`lexmin_by_tightening`, whose docstring has the proof) or a count up to a limit
(`count_by_blocking`: find a completion, forbid exactly it, ask again; the oracle's `block`
scopes those constraints to the puzzle so a kept solver can take the next one).

`OracleBackend` is a backend over such a solver kept per shape (`z3`, `exact`), in this process
or in a solver process (`solver_process.py`).
"""

from __future__ import annotations

import functools
import time
from abc import abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from ..grid import Grid, Shape
from ..result import Mode, Status
from .base import Backend, Deadline, Outcome, TimeUp
from .solver_process import SolverProcess


class TighteningOracle(Protocol):
    """An incremental solver holding one puzzle, for `lexmin_by_tightening`."""

    def satisfiable(self, cell: int | None = None, below: int = 0) -> bool:
        """Whether a completion keeps the givens and the fixed cells (and, when `cell` is
        given, puts a value below `below` there); a found one is what `value` reads.

        Raises:
            TimeUp: when the answer could not be had within the puzzle's time.
        """
        ...

    def value(self, cell: int) -> int:
        """The cell's value in the last completion found."""
        ...

    def fix(self, cell: int, value: int) -> None:
        """Keep `cell` at `value` in every later question."""
        ...


class BlockingOracle(Protocol):
    """An incremental solver holding one puzzle, for `count_by_blocking`."""

    def satisfiable(self, cell: int | None = None, below: int = 0) -> bool:
        """Whether a completion keeps the givens and none of the blocked ones is repeated."""
        ...

    def completion(self) -> tuple[int, ...]:
        """The last completion found, every cell."""
        ...

    def block(self, values: tuple[int, ...]) -> None:
        """Forbid this completion in every later question about the puzzle."""
        ...


@dataclass
class Questions:
    """What a loop asked: solver calls, their yes answers, and the questions answered without
    a call (every smaller value held by a fixed peer)."""

    calls: int = 0
    yes: int = 0
    skipped: int = 0

    def stats(self) -> dict[str, int]:
        return {"oracle_calls": self.calls, "oracle_sat": self.yes, "oracle_skipped": self.skipped}


def lexmin_by_tightening(
    grid: Grid, oracle: TighteningOracle, deadline: Deadline | None, questions: Questions
) -> tuple[int, ...] | None:
    """The row-major smallest completion of `grid` (None when it has none), by iterative
    tightening over `oracle`; `questions` counts the calls. The deadline is checked before
    every call; None leaves the time to the oracle (one whose calls stop at the deadline).

    Let S be the completion found first. Walk the blank cells in row-major order; at cell i
    every earlier cell is fixed, to the values of the lex-min L (the induction hypothesis: a
    cell is fixed only to L's value, see below), and S agrees with that prefix. Ask for a
    completion with the prefix and x(i) < S(i):

    - yes: the new completion agrees with the prefix and is strictly smaller at i: it becomes
      S, and the question is asked again with its (smaller) value;
    - no: no completion extends the prefix with a value below S(i), and S extends it with
      S(i), so S(i) is the smallest value cell i takes in any completion that keeps the
      prefix; since L keeps the prefix (hypothesis) and is the smallest of those, L(i) = S(i):
      fix cell i to it.

    Each "yes" lowers S(i), so the questions at one cell end; when every cell is fixed the grid
    is L. A question is skipped (no solver call) when every value below S(i) is held by a fixed
    peer of cell i: then no completion can have x(i) < S(i), the "no" is known. The loop only
    needs the oracle to be sound and complete on each question; how it searches does not
    matter, which is why any solver fits. An answer it could not give (a time limit) raises
    `TimeUp`, never a "no"; a "yes" whose completion is not below the bound is an error.

    Raises:
        TimeUp: when the deadline passes (between calls, or inside one, from the oracle).
        AssertionError: when the oracle answers "yes" with a completion not below the bound.
    """
    questions.calls += 1
    if not oracle.satisfiable():
        return None
    questions.yes += 1
    fixed = list(grid.values)  # givens, then each blank cell once its value is final
    peer_values = grid.geometry.peer_getters
    below = _values_below(grid.size)
    satisfiable, value_of, fix = oracle.satisfiable, oracle.value, oracle.fix
    check = _no_deadline if deadline is None else deadline.check
    for cell in grid.blanks():
        current = value_of(cell)
        while current > 1:
            if below[current].issubset(peer_values[cell](fixed)):
                questions.skipped += 1
                break
            check()
            questions.calls += 1
            if not satisfiable(cell, current):
                break
            questions.yes += 1
            lower = value_of(cell)
            if lower >= current:  # a solver that breaks its promise: never a wrong lex-min
                raise AssertionError(f"cell {cell}: asked for below {current}, got {lower}")
            current = lower
        fixed[cell] = current
        fix(cell, current)
    return tuple(fixed)


@functools.cache
def _values_below(size: int) -> tuple[frozenset[int], ...]:
    """For each value v of a grid of this size, the values below it."""
    return tuple(frozenset(range(1, value)) for value in range(size + 1))


def _no_deadline() -> None:
    """The check of a loop whose oracle keeps the time itself."""


@dataclass
class Count:
    """A count so far: how many completions, and the first one found."""

    count: int = 0
    first: tuple[int, ...] | None = None


def count_by_blocking(
    oracle: BlockingOracle, limit: int, deadline: Deadline, counted: Count, questions: Questions
) -> None:
    """Count the completions up to `limit` into `counted` (kept as it grows, so a timeout
    still says how many were found), each one blocked once found.

    Raises:
        TimeUp: when the deadline passes.
    """
    while counted.count < limit:
        deadline.check()
        questions.calls += 1
        if not oracle.satisfiable():
            return
        questions.yes += 1
        values = oracle.completion()
        counted.first = counted.first or values
        counted.count += 1
        if counted.count < limit:
            oracle.block(values)


# -- a backend over a kept incremental solver ----------------------------------------------------


class ShapeSolver(Protocol):
    """A solver holding one shape's base model, kept across puzzles."""

    retired: bool  # timed out or failed: the next puzzle of the shape gets a new one

    def statistics(self) -> dict[str, int]:
        """The solver's cumulative counters (a puzzle reports their growth)."""
        ...


class PuzzleQuestions(TighteningOracle, BlockingOracle, Protocol):
    """The questions `answer` asks of one puzzle, for every mode."""


class PuzzleOracle(PuzzleQuestions, Protocol):
    """One puzzle's questions to a kept model; `close` undoes what the puzzle added."""

    def close(self) -> None: ...


def answer(
    grid: Grid,
    puzzle: PuzzleQuestions,
    mode: Mode,
    limit: int,
    deadline: Deadline,
    questions: Questions,
    counted: Count,
    *,
    lexmin: Callable[[], tuple[int, ...] | None] | None = None,
) -> tuple[int, ...] | None:
    """The completion `mode` asks for, by questions to `puzzle` (None: there is none): lex-min
    by `lexmin` when given, else by tightening; count by blocking (the first completion
    found); any by one question. Raises TimeUp past the deadline."""
    if mode is Mode.LEXMIN:
        if lexmin is not None:
            return lexmin()
        return lexmin_by_tightening(grid, puzzle, deadline, questions)
    if mode is Mode.COUNT:
        count_by_blocking(puzzle, limit, deadline, counted, questions)
        return counted.first
    questions.calls += 1
    if not puzzle.satisfiable():
        return None
    questions.yes += 1
    return puzzle.completion()


class OracleBackend(Backend):
    """A backend over an incremental solver kept per shape (`z3`, `exact`): the shape's model is
    built in `prepare()`, outside the clock, and rebuilt on the next puzzle's clock after a
    puzzle retired it; lex-min by `lexmin_by_tightening`, count by `count_by_blocking`, any by
    one question. A subclass says how to build the model (`build`) and how to ask it about one
    puzzle (`oracle`).

    With the option `process=helper` (a subclass declares it with
    `solver_process.process_option`) all of that happens in a child process instead
    (`SolverProcess`), killed when it overruns a deadline; this process then only passes
    puzzles and answers."""

    guarantees_lexmin = True  # `lexmin_by_tightening`
    solver_name: ClassVar[str]  # the solver, as the reasons name it ("Z3")

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._models: dict[tuple[int, Shape], ShapeSolver] = {}
        self._build_seconds: dict[tuple[int, Shape], float] = {}  # each shape's last build
        self.solver_process: SolverProcess | None = None
        if self.option_values.get("process") == "helper":
            # the child runs it inline
            self.solver_process = SolverProcess(self.name, self.option_values)

    @abstractmethod
    def build(self, size: int, box: Shape) -> ShapeSolver:
        """A new solver holding the base model of the shape (no givens)."""

    @abstractmethod
    def oracle(self, model: Any, grid: Grid, deadline: Deadline) -> PuzzleOracle:
        """The puzzle's questions to `model` (one that `build` made)."""

    def prepare(self, grid: Grid) -> bool:
        """Build the shape's solver the first time it is needed, outside the clock: here, or in
        the solver process. A rebuild (the solver retired by a failure, the solver process
        killed at a deadline) is the next puzzle's: `_solve` makes it, on that puzzle's clock."""
        key = (grid.size, grid.box)
        child = self.solver_process
        if child is not None:
            if key in child.built:
                return False
            child.build(grid.size, grid.box)
            return True
        if key in self._models:
            return False
        self._build(key)
        return True

    def close(self) -> None:
        if self.solver_process is not None:
            self.solver_process.stop()
            self.solver_process.built.clear()
        self._models.clear()

    def _rebuild(self, grid: Grid, deadline: Deadline) -> ShapeSolver:
        """A new solver for the shape, on the puzzle's clock. A build cannot be interrupted, so
        it is not started when the last one took longer than the time left.

        Raises:
            TimeUp: when the time left is shorter than the last build took.
        """
        key = (grid.size, grid.box)
        remaining = deadline.remaining()
        if remaining is not None and remaining < self._build_seconds.get(key, 0.0):
            raise TimeUp("a new solver would take longer than the time left")
        return self._build(key)

    def _build(self, key: tuple[int, Shape]) -> ShapeSolver:
        started = time.perf_counter()
        model = self._models[key] = self.build(*key)
        self._build_seconds[key] = time.perf_counter() - started
        return model

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        if self.solver_process is not None:
            outcome = self.solver_process.solve(grid, mode, limit, deadline)
            outcome.stats.update(self.option_values)
            return outcome
        self.prepare(grid)  # a no-op after Backend.solve's own call
        model = self._models[grid.size, grid.box]
        if model.retired:  # rebuilt on this puzzle's clock (a failure retired the last one)
            model = self._rebuild(grid, deadline)
        before = model.statistics()
        puzzle = self.oracle(model, grid, deadline)
        questions, counted = Questions(), Count()
        values: tuple[int, ...] | None = None
        timed_out = False
        try:
            values = answer(grid, puzzle, mode, limit, deadline, questions, counted)
        except TimeUp:
            timed_out = True
        except BaseException:
            model.retired = True
            raise
        finally:
            puzzle.close()
        after = model.statistics()
        stats: dict[str, Any] = {**self.option_values, **questions.stats()}
        stats.update({name: after[name] - before.get(name, 0) for name in after})
        count = counted.count if mode is Mode.COUNT else None
        if timed_out:
            return Outcome.timeout(deadline, count=count, stats=stats)
        if values is None:
            reason = f"{self.solver_name} proved that no completion exists"
            return Outcome.unsatisfiable(reason, count=count, stats=stats)
        return Outcome(Status.SOLVED, values, count, stats)
