"""The contract's checks: each makes a `check(backend, fresh)` that raises AssertionError, with
one line saying what was expected and what came, when the backend breaks the contract.

`backend` is the warm backend under test (it has answered the cases before this one), `fresh()`
builds a new one. A `ContractCase` names a check; `cases.contract_cases` lists them.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence

from ..backends import Backend, BackendOption
from ..grid import Grid
from ..result import Mode, SolveResult, Status
from .puzzles import (
    COUNT_LIMIT,
    KNOWN_COUNTS,
    brute_force_count,
    count_batch,
    naive_lexmin,
    random_multi_solution,
)

Factory = Callable[[], Backend]
Check = Callable[[Backend, Factory], None]  # raises AssertionError when the contract breaks
OVERRUN_BOUND = 10.0  # seconds a solve under a short time limit may take before it fails


def expect(condition: bool, message: str) -> None:
    """AssertionError(message) unless `condition`."""
    if not condition:
        raise AssertionError(message)


def _solved(result: SolveResult, puzzle: Grid) -> Grid:
    expect(
        result.status is Status.SOLVED,
        f"expected solved, got {result.status} ({result.reason or 'no reason'}) on "
        f"{puzzle.to_line()}",
    )
    expect(
        result.solution is not None and result.solution.is_solution_of(puzzle),
        f"{result.solution.to_line() if result.solution else None} is not a completion of "
        f"{puzzle.to_line()}",
    )
    assert result.solution is not None
    return result.solution


def known_answer(
    line: str, answer: str, *, time_limit: float | None = 60, prefix: bool = False
) -> Check:
    """The lex-min of `line` is `answer` (or starts with it, with `prefix`)."""

    def check(backend: Backend, fresh: Factory) -> None:
        puzzle = Grid.parse(line)
        got = _solved(backend.solve(puzzle, time_limit=time_limit), puzzle).to_line()
        expect(
            got.startswith(answer) if prefix else got == answer,
            f"lexmin of {line}: expected {answer}{'...' if prefix else ''}, got {got}",
        )

    return check


@functools.cache
def _naive_answer(size: int, givens: int, seed: int) -> Grid | None:
    """The reference lex-min of a random puzzle, worked out once per process (the same puzzle
    is asked of every configuration)."""
    return naive_lexmin(random_multi_solution(size, givens, seed))


@functools.cache
def _brute_force_count(size: int, givens: int, seed: int, limit: int) -> int:
    """The reference count of a random puzzle, worked out once per process."""
    return brute_force_count(random_multi_solution(size, givens, seed), limit)


def matches_naive(size: int, givens: int, seed: int) -> Check:
    """The lex-min of a random puzzle is the naive row-major DFS's."""

    def check(backend: Backend, fresh: Factory) -> None:
        puzzle = random_multi_solution(size, givens, seed)
        got = _solved(backend.solve(puzzle, time_limit=60), puzzle)
        expected = _naive_answer(size, givens, seed)
        expect(
            expected is not None and got == expected,
            f"lexmin of {puzzle.to_line()}: expected "
            f"{expected.to_line() if expected else None}, got {got.to_line()}",
        )

    return check


def keeps_givens(line: str, mode: Mode, count: int) -> Check:
    """A completion that keeps the givens in `mode`, named and timed; in count mode, `count`."""

    def check(backend: Backend, fresh: Factory) -> None:
        puzzle = Grid.parse(line)
        result = backend.solve(puzzle, mode=mode, limit=3, time_limit=60)
        _solved(result, puzzle)
        expect(
            result.backend == backend.name,
            f"result.backend is {result.backend!r}, not {backend.name!r}",
        )
        expect(
            result.mode is mode and result.seconds >= 0,
            f"mode {result.mode}, seconds {result.seconds}",
        )
        if mode is Mode.COUNT:
            expect(
                result.count == count,
                f"count of {line} (limit 3): expected {count}, got {result.count}",
            )

    return check


def count_like_brute_force(size: int, givens: int, seed: int) -> Check:
    """The count of a random puzzle (limit 50) is the brute-force count, the limit flagged."""

    def check(backend: Backend, fresh: Factory) -> None:
        puzzle = random_multi_solution(size, givens, seed)
        result = backend.solve(puzzle, mode=Mode.COUNT, limit=50, time_limit=60)
        expected = _brute_force_count(size, givens, seed, 50)
        expect(
            result.count == expected,
            f"count of {puzzle.to_line()} (limit 50): expected {expected}, "
            f"got {result.count} ({result.status})",
        )
        expect(
            result.limit_reached == (expected == 50),
            f"limit_reached is {result.limit_reached} for a count of {expected} of 50",
        )

    return check


def unsatisfiable(line: str, mode: Mode, reason: str | None) -> Check:
    """A contradiction is UNSATISFIABLE with no solution (count 0), for `reason` when given."""

    def check(backend: Backend, fresh: Factory) -> None:
        result = backend.solve(Grid.parse(line), mode=mode, time_limit=60)
        expect(
            result.status is Status.UNSATISFIABLE and result.solution is None,
            f"{mode} of the contradiction {line}: expected unsatisfiable and no solution, "
            f"got {result.status}",
        )
        if reason:
            expect(result.reason == reason, f"reason {result.reason!r}, expected {reason!r}")
        if mode is Mode.COUNT:
            expect(result.count == 0, f"count {result.count}, expected 0")

    return check


def returns_itself(line: str) -> Check:
    """A solved grid is its own answer."""

    def check(backend: Backend, fresh: Factory) -> None:
        answer = Grid.parse(line)
        got = backend.solve(answer, time_limit=60).solution
        expect(got == answer, f"a solved grid gave {got.to_line() if got else None}")

    return check


def honours_time_limit(puzzle: Grid, seconds: float) -> Check:
    """Under a short time limit: TIMEOUT without a solution, or a right answer, and soon."""

    def check(backend: Backend, fresh: Factory) -> None:
        result = backend.solve(puzzle, time_limit=seconds)
        expect(
            result.status in (Status.TIMEOUT, Status.SOLVED),
            f"time limit {seconds} s: expected timeout or solved, got {result.status}",
        )
        if result.status is Status.SOLVED:
            expect(
                result.solution is not None and result.solution.is_solution_of(puzzle),
                "solved within the time limit, but not a completion",
            )
        else:
            expect(result.solution is None, "a timeout with a solution")
        # Generous, for a loaded machine: a backend that ignores the limit runs for minutes.
        expect(
            result.seconds < OVERRUN_BOUND,
            f"time limit {seconds} s, took {result.seconds:.1f} s",
        )

    return check


def stats_are_json(line: str) -> Check:
    """The stats are plain JSON values, and there are some."""

    def check(backend: Backend, fresh: Factory) -> None:
        result = backend.solve(Grid.parse(line), time_limit=60)
        try:
            json.dumps(dict(result.stats))
        except (TypeError, ValueError) as error:
            raise AssertionError(f"stats are not plain JSON values: {error}") from None
        expect(
            bool(result.stats),
            "no stats (record at least what the search did: nodes, conflicts, ...)",
        )

    return check


def declares_itself(backend: Backend, fresh: Factory) -> None:
    """The class declares its name, description, requirements, options and versions as data."""
    cls = type(backend)
    expect(isinstance(cls.name, str) and bool(cls.name), "name must be a non-empty str")
    expect(isinstance(cls.description, str), "description must be a str")
    expect(
        isinstance(cls.requires, tuple) and all(isinstance(m, str) for m in cls.requires),
        "requires must be a tuple of module names",
    )
    expect(
        isinstance(cls.options, tuple) and all(isinstance(o, BackendOption) for o in cls.options),
        "options must be a tuple of BackendOption declarations",
    )
    expect(
        isinstance(backend.option_values, Mapping)
        and set(backend.option_values) == {o.name for o in cls.options},
        "an instance's options must hold every declared option (call Backend.__init__)",
    )
    versions = cls.versions()
    expect(
        isinstance(versions, Mapping)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in versions.items()),
        "versions() must map package names to version strings",
    )


def warm_like_fresh(keys: Sequence[tuple[int, int]]) -> Check:
    """A batch answered by one warm backend as by a fresh backend per puzzle, counts exact."""

    def check(backend: Backend, fresh: Factory) -> None:
        puzzles = count_batch(keys)
        known = [KNOWN_COUNTS[key] for key in keys]
        modes = (Mode.COUNT, Mode.LEXMIN)
        warm = [
            backend.solve(p, mode=mode, limit=COUNT_LIMIT, time_limit=60)
            for p in puzzles
            for mode in modes
        ]
        cold = []
        for p in puzzles:
            for mode in modes:
                new = fresh()
                try:
                    cold.append(new.solve(p, mode=mode, limit=COUNT_LIMIT, time_limit=60))
                finally:
                    new.close()
        expect(
            [r.solution for r in warm[1::2]] == [r.solution for r in cold[1::2]],
            "a warm backend's lexmin answers differ from fresh backends'",
        )
        expect(
            [r.count for r in warm[::2]] == known,
            f"warm counts {[r.count for r in warm[::2]]}, expected {known}",
        )
        expect(
            [r.count for r in cold[::2]] == known,
            f"fresh counts {[r.count for r in cold[::2]]}, expected {known}",
        )
        expect(
            [r.limit_reached for r in warm[::2]] == [count == COUNT_LIMIT for count in known],
            "limit_reached does not say whether the count reached the limit",
        )

    return check
