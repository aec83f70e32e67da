"""The backend contract: one small abstract base class shared by dfs, cpsat and sat.

A backend subclasses `Backend`, names itself, lists the packages it needs, and implements
`_solve`, which sees only well-formed puzzles without repeated givens and returns an `Outcome`.
Timing, the conflict check, the mapping to `SolveResult` and the deadline live here, once.
"""

from __future__ import annotations

import importlib.util
import logging
import math
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..errors import ArgumentError
from ..grid import Grid
from ..result import Mode, SolveResult, Status

# Limits above this many seconds (about 31 years) are no limit: native solvers and thread
# timeouts overflow on such values (time_t, int64 microseconds), and nobody waits that long.
UNLIMITED_SECONDS = 1e9


def normalize_time_limit(time_limit: float | None) -> float | None:
    """The limit a backend should honour: None for no limit (None, inf, or above 1e9 s).

    Raises:
        ArgumentError: for NaN or a negative limit.
    """
    if time_limit is None:
        return None
    time_limit = float(time_limit)
    if math.isnan(time_limit):
        raise ArgumentError("time limit must be a number of seconds, got nan")
    if time_limit < 0:
        raise ArgumentError(f"time limit must be >= 0, got {time_limit}")
    return None if time_limit > UNLIMITED_SECONDS else time_limit


class TimeUp(Exception):
    """The puzzle's time limit ran out: the one deadline exception. A backend raises it from
    wherever it notices (`Deadline.check`, a solver call that came back unfinished), with what
    it was doing (`when`) and, in count mode, the completions found so far (`count`);
    `Backend.solve` turns it into TIMEOUT (`Outcome.timeout`)."""

    def __init__(self, when: str | None = None, *, count: int | None = None) -> None:
        super().__init__(when or "time is up")
        self.when = when
        self.count = count


class Deadline:
    """A per-puzzle time budget on the monotonic clock; `None` (or inf) means no limit."""

    def __init__(self, time_limit: float | None) -> None:
        time_limit = normalize_time_limit(time_limit)
        self.time_limit = time_limit
        self.at = None if time_limit is None else time.perf_counter() + time_limit

    def remaining(self) -> float | None:
        """Seconds left (never negative), or None without a limit."""
        return None if self.at is None else max(0.0, self.at - time.perf_counter())

    def expired(self) -> bool:
        return self.at is not None and time.perf_counter() >= self.at

    def check(self) -> None:
        """Raise `TimeUp` when the time is out."""
        if self.at is not None and time.perf_counter() >= self.at:
            raise TimeUp


@dataclass
class Outcome:
    """What `_solve` returns: our status, the completion's values, the count, the stats."""

    status: Status
    values: tuple[int, ...] | None = None
    count: int | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    reason: str | None = None

    @classmethod
    def timeout(
        cls,
        deadline: Deadline,
        *,
        when: str | None = None,
        count: int | None = None,
        stats: dict[str, Any] | None = None,
    ) -> Outcome:
        """TIMEOUT, worded the one way: 'no answer within 2 s (in stage 3)'."""
        limit = deadline.time_limit or 0.0
        reason = f"no answer within {limit:g} s" + (f" ({when})" if when else "")
        return cls(Status.TIMEOUT, None, count, dict(stats or {}), reason)

    @classmethod
    def unsatisfiable(
        cls, reason: str, *, count: int | None = None, stats: dict[str, Any] | None = None
    ) -> Outcome:
        """UNSATISFIABLE, with what proved it ('CP-SAT proved there is no completion'); `count`
        is 0 in count mode."""
        return cls(Status.UNSATISFIABLE, None, count, dict(stats or {}), reason)


@dataclass(frozen=True)
class BackendOption:
    """One option a backend declares, as data: the one place its name, type, default, choices
    and help live. Every face derives from it: `backend[name=value]` configurations, the Python
    API's keyword arguments, `get_backend(name, **options)` and the command line's shorthand
    flag (`flag`, e.g. `--sat-solver`, when the option has one).

    `name` is the keyword the backend's constructor takes. `choices` is a tuple, or a function
    returning the accepted values (looked up only when needed: listing python-sat's solvers
    imports nothing, but is not free); `minimum` bounds whole numbers; `parse`, when given,
    turns an accepted text into its canonical value (an alias into the solver's name) and
    raises `BackendOptionError` for what it refuses.

    A renamed option keeps its old names working: `renamed_from` lists the option's earlier
    names, `old_values` its earlier values (old -> new), `old_flags` its earlier shorthand
    flags. Each is read as today's, with a one-line notice naming the new word
    (`Backend.resolve_option`); logs that hold the old words are read the same way.
    """

    name: str
    help: str
    default: Any = None
    kind: type = str
    choices: tuple[str, ...] | Callable[[], Sequence[str]] | None = None
    minimum: int | None = None
    flag: str | None = None
    parse: Callable[[str], Any] | None = None
    renamed_from: tuple[str, ...] = ()
    old_values: tuple[tuple[str, str], ...] = ()
    old_flags: tuple[str, ...] = ()

    def choice_list(self) -> list[str] | None:
        if self.choices is None:
            return None
        return list(self.choices() if callable(self.choices) else self.choices)

    def convert(self, value: Any) -> Any:
        """A value as written (text) or given (a number) turned into the option's type; the
        canonical value is returned unchanged, so converting twice is converting once.

        Raises:
            BackendOptionError: naming the option and what it accepts.
        """
        from ..errors import BackendOptionError

        if self.kind is int:
            try:
                number = int(value)
            except (TypeError, ValueError):
                raise BackendOptionError(
                    f"option {self.name!r} takes a whole number, got {value!r}"
                ) from None
            if (
                isinstance(value, bool)
                or (isinstance(value, float) and value != number)
                or (self.minimum is not None and number < self.minimum)
            ):
                bound = f" >= {self.minimum}" if self.minimum is not None else ""
                raise BackendOptionError(
                    f"option {self.name!r} takes a whole number{bound}, got {value!r}"
                )
            return number
        if not isinstance(value, str):
            raise BackendOptionError(f"option {self.name!r} takes text, got {value!r}")
        value = dict(self.old_values).get(value, value)
        if self.parse is not None:
            return self.parse(value)
        if isinstance(self.choices, tuple) and value not in self.choices:
            raise BackendOptionError(
                f"option {self.name!r} takes one of {', '.join(self.choices)}, got {value!r}"
            )
        return value

    def describe(self) -> str:
        """One line: 'solver=NAME  python-sat solver (default glucose3; ...)'."""
        choices = self.choice_list()
        shown = (
            "|".join(choices)
            if choices and len(choices) <= 6
            else f"one of {len(choices)}"
            if choices
            else "N"
            if self.kind is int
            else "TEXT"
        )
        bound = f", >= {self.minimum}" if self.minimum is not None else ""
        return f"{self.name}={shown}  {self.help} (default {self.default}{bound})"


_NOTICED: set[str] = set()


def renamed_notice(text: str) -> None:
    """Say once per process that an old word was read as a new one (the CLI shows it as one
    'warning:' line on stderr)."""
    if text not in _NOTICED:
        _NOTICED.add(text)
        logging.getLogger("sudoku_cp.backends").warning("%s (the old word still works)", text)


def forget_notices() -> None:
    """Let the next command say again what it read under an old word (each run of the command
    line, in one process too)."""
    _NOTICED.clear()


class Backend(ABC):
    """A way of solving Sudoku, for every size and mode.

    The contract, for every backend, mode and size: `solve` returns a `SolveResult` and never
    raises on a well-formed grid; contradictory givens give UNSATISFIABLE; the givens are kept;
    `lexmin` gives exactly the row-major smallest completion; `count` counts exactly up to the
    limit; `time_limit` is honoured with TIMEOUT, never with a wrong answer; `stats` are honest.
    Backends may keep solver state between puzzles (a warm SAT solver); `close()` releases it.
    One-off set-up (a solver import, a shape's base model) goes in `prepare(grid)`, or in
    `prepare_for(grid, mode)` when it depends on the mode: `solve` runs it before its clock.
    """

    name: ClassVar[str]
    description: ClassVar[str]
    # Whether lexmin mode's answer is the lex-min by construction, whatever the options (the
    # method is argued in the backend's docs): a portfolio takes lex-min answers only from
    # backends that say so. False until a backend declares it.
    guarantees_lexmin: ClassVar[bool] = False
    requires: ClassVar[tuple[str, ...]] = ()  # importable modules the backend needs
    packages: ClassVar[tuple[str, ...]] = ()  # distributions whose versions a run records
    setup_modules: ClassVar[tuple[str, ...]] = ()  # modules whose import is the one-off cost
    options: ClassVar[tuple[BackendOption, ...]] = ()  # the options, as data
    install_hint: ClassVar[str] = ""  # one line: how to install `requires` (default: pip)
    lexmin_reason: ClassVar[str] = ""  # why its lex-min is the lex-min (`sudoku-cp backends NAME`)

    def __init__(self, **options: Any) -> None:
        """Take the declared options (unknown ones refused, values converted, defaults filled
        in) as `self.option_values`.

        Raises:
            BackendOptionError: for an option not declared, or a value it refuses.
        """
        self.option_values: Mapping[str, Any] = self.configure(options)

    @classmethod
    def option(cls, name: str) -> BackendOption | None:
        """The declared option called `name`."""
        return next((option for option in cls.options if option.name == name), None)

    @classmethod
    def resolve_option(cls, key: str, *, notice: bool = True) -> BackendOption | None:
        """The declared option that `key` names, today's name or an earlier one (then, with
        `notice`, a one-line notice naming today's, once per process); None for neither."""
        found = cls.option(key)
        if found is not None:
            return found
        for option in cls.options:
            if key in option.renamed_from:
                if notice:
                    renamed_notice(f"{cls.name}: option {key!r} is now {option.name!r}")
                return option
        return None

    @classmethod
    def canonical_options(cls, given: Mapping[str, Any]) -> dict[str, Any]:
        """Options as an earlier release may have written them (old names, old values), in
        today's words, without a notice: what a results log's header is compared by. A value
        the declaration refuses is kept as written (the comparison then names it)."""
        from ..errors import BackendOptionError

        canonical: dict[str, Any] = {}
        for key, value in given.items():
            option = cls.resolve_option(key, notice=False)
            if option is None:
                canonical[key] = value
                continue
            try:
                canonical[option.name] = value if value is None else option.convert(value)
            except BackendOptionError:
                canonical[option.name] = value
        return canonical

    @classmethod
    def option_names(cls) -> list[str]:
        """The declared options' names, in declaration order."""
        return [option.name for option in cls.options]

    @classmethod
    def configure(cls, given: Mapping[str, Any]) -> dict[str, Any]:
        """Every declared option's value: the given ones converted by their declaration, the
        rest at their defaults. A value of None means the default.

        Raises:
            BackendOptionError: naming an option this backend does not declare, with the ones
                it does, or a value its declaration refuses.
        """
        from ..errors import BackendOptionError

        named: dict[str, Any] = {}
        for key, value in given.items():
            option = cls.resolve_option(key)
            if option is None:
                choices = ", ".join(cls.option_names()) or "none"
                raise BackendOptionError(
                    f"backend {cls.name!r} has no option {key!r} (its options: {choices})"
                )
            named[option.name] = value
        return {
            option.name: option.default
            if named.get(option.name) is None
            else option.convert(named[option.name])
            for option in cls.options
        }

    @classmethod
    def is_available(cls) -> bool:
        """Whether the solver packages can be imported (checked without importing them)."""
        return all(importlib.util.find_spec(module) is not None for module in cls.requires)

    @classmethod
    def versions(cls) -> Mapping[str, str]:
        """Versions of the packages this backend uses (`packages`; empty for pure Python)."""
        import importlib.metadata

        found = {}
        for package in cls.packages:
            try:
                found[package] = importlib.metadata.version(package)
            except importlib.metadata.PackageNotFoundError:
                found[package] = "not installed"
        return found

    def solve(
        self,
        grid: Grid,
        *,
        mode: Mode | str = Mode.LEXMIN,
        limit: int = 2,
        time_limit: float | None = None,
    ) -> SolveResult:
        """Solve one puzzle.

        `mode` is lexmin (the row-major smallest completion), any (some completion) or count
        (completions up to `limit`). `time_limit` is in seconds for this puzzle, all stages
        included; when it runs out the status is TIMEOUT.

        Raises:
            ArgumentError: for a limit below 1 or a negative time limit.
            BackendFailure: when the native solver misbehaves (never for an ordinary puzzle).
        """
        mode = Mode(mode)
        if limit < 1:
            raise ArgumentError(f"limit must be >= 1, got {limit}")
        time_limit = normalize_time_limit(time_limit)
        # One-off set-up (a solver import, a base model for this shape) before the clock starts:
        # it is not this puzzle's cost, and must not eat its time limit.
        setup_start = time.perf_counter()
        prepared = self.prepare_for(grid, mode)
        setup_seconds = time.perf_counter() - setup_start
        start = time.perf_counter()
        deadline = Deadline(time_limit)
        conflicts = grid.conflicts()
        if conflicts:
            outcome = Outcome.unsatisfiable(
                conflicts[0].describe(), count=0 if mode is Mode.COUNT else None
            )
        else:
            try:
                outcome = self._solve(grid, mode=mode, limit=limit, deadline=deadline)
            except TimeUp as stop:
                outcome = Outcome.timeout(deadline, when=stop.when, count=stop.count)
        seconds = time.perf_counter() - start
        if prepared:
            outcome.stats["setup_seconds"] = round(setup_seconds, 6)
        solution = None if outcome.values is None else Grid(tuple(outcome.values), grid.box)
        return SolveResult(
            backend=self.name,
            mode=mode,
            status=outcome.status,
            solution=solution,
            count=outcome.count if mode is Mode.COUNT else None,
            limit=limit if mode is Mode.COUNT else None,
            seconds=seconds,
            stats=outcome.stats,
            reason=outcome.reason,
        )

    def prepare(self, grid: Grid) -> bool:
        """Do the one-off set-up that solving this grid's shape needs (import the solver, build
        the base model), outside the puzzle's clock; True when there was set-up to do.

        A backend whose set-up does not depend on the mode overrides this method only. One
        whose set-up does overrides `prepare_for` instead, and makes this method its set-up for
        lex-min (`return self.prepare_for(grid, Mode.LEXMIN)`), so that direct callers of
        `prepare(grid)` still get a backend ready to solve."""
        return False

    def prepare_for(self, grid: Grid, mode: Mode | str) -> bool:
        """The set-up for a puzzle of this grid's shape in this mode: what `solve` runs before
        its clock starts, with the puzzle's mode. By default `prepare(grid)`, which does not
        need the mode; override this method (not `solve`) when the set-up depends on it."""
        return self.prepare(grid)

    @abstractmethod
    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        """Solve a puzzle with no repeated givens; see `solve` for the meaning of the options."""

    def close(self) -> None:
        """Release solver state kept between puzzles."""

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
