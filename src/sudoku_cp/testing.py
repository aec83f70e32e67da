"""The backend contract suite, published so that a plugin author checks a backend in one line.

Every backend keeps one contract (see `sudoku_cp.backends.Backend`), for every mode and size:
lexmin gives exactly the row-major smallest completion (checked against the naive row-major DFS),
the givens are kept, counts are exact up to the limit (checked against a brute-force count),
contradictions are UNSATISFIABLE, a solved grid is its own answer, a time limit gives TIMEOUT or a
right answer, stats are plain JSON values, and a warm backend answers a batch like fresh ones.

Three ways to run it, on a registry name (a plugin's entry-point name) or on a Backend class:

    from sudoku_cp.testing import contract_tests
    test_contract = contract_tests("naive")          # in a pytest module: one test per case

    from sudoku_cp.testing import assert_backend, check_backend
    assert_backend("naive")                          # raises AssertionError listing failures
    failures = check_backend(MyBackend, sizes=(4, 9)) # the failures as lines ([] when all pass)

`sizes` chooses the grid sizes the cases use (a backend meant for small grids leaves out 16);
`quick=True` leaves out the cases that need a real solver on hard 9x9 puzzles (the grid built
against naive backtracking, a 17-clue puzzle counted to the end) and the 25x25 time-limit case.
Importing this module does not import pytest; `contract_tests` does.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .backends import Backend, BackendOption, backend_class, get_backend
from .errors import SudokuError
from .generate import pattern_grid
from .grid import Grid, Shape
from .naive import naive_count, naive_solve
from .result import Mode, SolveResult, Status

__all__ = [
    "ANTI_BACKTRACK",
    "BAEKJOON_2239",
    "BAEKJOON_2239_ANSWER",
    "COUNT_LIMIT",
    "ContractCase",
    "EMPTY_16_LEXMIN_ROWS_1_2",
    "EMPTY_4_LEXMIN",
    "EMPTY_6_LEXMIN",
    "EMPTY_9_LEXMIN",
    "G17",
    "KNOWN_COUNTS",
    "UNSOLVABLE_4",
    "assert_backend",
    "brute_force_count",
    "check_backend",
    "contract_cases",
    "contract_tests",
    "count_batch",
    "full_grid",
    "naive_lexmin",
    "random_multi_solution",
]

# -- known puzzles and answers -------------------------------------------------------------------

BAEKJOON_2239 = "103000509002109400000704000300502006060000050700803004000401000009205800804000107"
BAEKJOON_2239_ANSWER = (
    "143628579572139468986754231391542786468917352725863914237481695619275843854396127"
)
EMPTY_4_LEXMIN = "1234341221434321"
EMPTY_6_LEXMIN = "123456456123214365365214531642642531"
EMPTY_9_LEXMIN = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
# Row 1 of the lex-min of the empty 16x16 is 1..16, row 2 is 5 6 7 8 1 2 3 4 13 14 15 16 9 10 11 12.
EMPTY_16_LEXMIN_ROWS_1_2 = "123456789ABCDEFG56781234DEFG9ABC"
# Built to defeat naive row-major backtracking (69 M nodes); unique; starts 987654321.
ANTI_BACKTRACK = "000000000000003085001020000000507000004000100090000000500000073002010000000040009"
G17 = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
# No repeated given, yet no completion: cell (1,1) sees 1, 2 in its row and 3, 4 in its column.
UNSOLVABLE_4 = "0120300040000000"
SOLVED_GRIDS = {4: EMPTY_4_LEXMIN, 6: EMPTY_6_LEXMIN, 9: BAEKJOON_2239_ANSWER}

# A batch of random 9x9 puzzles, (givens, seed) -> completions counted up to COUNT_LIMIT by
# brute_force_count: counts that differ, so a backend that returns the wrong puzzle's count, or
# a warm backend that keeps a count from the previous puzzle, shows. Written down because the
# naive count of (28, 25) takes seconds.
COUNT_LIMIT = 10
KNOWN_COUNTS: Mapping[tuple[int, int], int] = {
    (28, 20): 10,
    (28, 21): 10,
    (28, 22): 10,
    (28, 23): 10,
    (28, 24): 10,
    (28, 25): 10,
    (36, 56): 1,
    (38, 53): 3,
    (34, 44): 6,
    (34, 48): 8,
}
# The quick suite's batch: the puzzles a naive search counts in well under a second.
QUICK_BATCH = ((28, 20), (28, 24), (36, 56), (38, 53), (34, 44), (34, 48))


# -- reference helpers ---------------------------------------------------------------------------


def random_multi_solution(size: int, givens: int, seed: int, *, box: Shape | None = None) -> Grid:
    """A random puzzle with `givens` clues taken from a random full grid (often many solutions);
    the same (size, givens, seed) always gives the same puzzle."""
    rng = random.Random(seed)
    solution = full_grid(size, rng, box=box)
    cells = rng.sample(range(size * size), givens)
    return solution.with_values({cell: 0 for cell in range(size * size) if cell not in cells})


def full_grid(size: int, rng: random.Random, *, box: Shape | None = None) -> Grid:
    """A random completed grid: the pattern grid with shuffled values, rows in bands and bands."""
    box_rows, box_cols = Grid.empty(size, box=box).box
    pattern = pattern_grid(size, box=box).values

    bands = rng.sample(range(size // box_rows), size // box_rows)
    rows = [b * box_rows + r for b in bands for r in rng.sample(range(box_rows), box_rows)]
    stacks = rng.sample(range(size // box_cols), size // box_cols)
    cols = [s * box_cols + c for s in stacks for c in rng.sample(range(box_cols), box_cols)]
    values = rng.sample(range(1, size + 1), size)
    return Grid.from_values(
        [values[pattern[r * size + c] - 1] for r in rows for c in cols], box=box
    )


def count_batch(keys: Sequence[tuple[int, int]] = tuple(KNOWN_COUNTS)) -> list[Grid]:
    """The 9x9 puzzles of KNOWN_COUNTS (or of the (givens, seed) keys given), in order."""
    return [random_multi_solution(9, givens, seed) for givens, seed in keys]


def naive_lexmin(grid: Grid) -> Grid | None:
    """The reference lex-min: the naive row-major DFS of `sudoku_cp.naive`."""
    return naive_solve(grid).solution


def brute_force_count(grid: Grid, limit: int) -> int:
    """Completions counted by the naive row-major DFS of `sudoku_cp.naive`, up to `limit`."""
    return naive_count(grid, limit)


# -- the cases -----------------------------------------------------------------------------------

Factory = Callable[[], Backend]


@dataclass(frozen=True)
class ContractCase:
    """One check of the contract: `check(backend, fresh)` raises AssertionError when broken;
    `backend` is the warm backend under test, `fresh()` builds a new one."""

    id: str
    check: Callable[[Backend, Factory], None]

    def run(self, backend: Backend, fresh: Factory) -> None:
        self.check(backend, fresh)


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise AssertionError(message)


def _solved(result: SolveResult, puzzle: Grid) -> Grid:
    _expect(
        result.status is Status.SOLVED,
        f"expected solved, got {result.status} ({result.reason or 'no reason'}) on "
        f"{puzzle.to_line()}",
    )
    _expect(
        result.solution is not None and result.solution.is_solution_of(puzzle),
        f"{result.solution.to_line() if result.solution else None} is not a completion of "
        f"{puzzle.to_line()}",
    )
    assert result.solution is not None
    return result.solution


def _known_answer(
    line: str, answer: str, *, time_limit: float | None = 60, prefix: bool = False
) -> Callable[[Backend, Factory], None]:
    def check(backend: Backend, fresh: Factory) -> None:
        puzzle = Grid.parse(line)
        got = _solved(backend.solve(puzzle, time_limit=time_limit), puzzle).to_line()
        _expect(
            got.startswith(answer) if prefix else got == answer,
            f"lexmin of {line}: expected {answer}{'...' if prefix else ''}, got {got}",
        )

    return check


def _matches_naive(size: int, givens: int, seed: int) -> Callable[[Backend, Factory], None]:
    def check(backend: Backend, fresh: Factory) -> None:
        puzzle = random_multi_solution(size, givens, seed)
        got = _solved(backend.solve(puzzle, time_limit=60), puzzle)
        expected = naive_lexmin(puzzle)
        _expect(
            expected is not None and got == expected,
            f"lexmin of {puzzle.to_line()}: expected "
            f"{expected.to_line() if expected else None}, got {got.to_line()}",
        )

    return check


def _keeps_givens(line: str, mode: Mode, count: int) -> Callable[[Backend, Factory], None]:
    def check(backend: Backend, fresh: Factory) -> None:
        puzzle = Grid.parse(line)
        result = backend.solve(puzzle, mode=mode, limit=3, time_limit=60)
        _solved(result, puzzle)
        _expect(
            result.backend == backend.name,
            f"result.backend is {result.backend!r}, not {backend.name!r}",
        )
        _expect(
            result.mode is mode and result.seconds >= 0,
            f"mode {result.mode}, seconds {result.seconds}",
        )
        if mode is Mode.COUNT:
            _expect(
                result.count == count,
                f"count of {line} (limit 3): expected {count}, got {result.count}",
            )

    return check


def _count_like_brute_force(
    size: int, givens: int, seed: int
) -> Callable[[Backend, Factory], None]:
    def check(backend: Backend, fresh: Factory) -> None:
        puzzle = random_multi_solution(size, givens, seed)
        result = backend.solve(puzzle, mode=Mode.COUNT, limit=50, time_limit=60)
        expected = brute_force_count(puzzle, 50)
        _expect(
            result.count == expected,
            f"count of {puzzle.to_line()} (limit 50): expected {expected}, "
            f"got {result.count} ({result.status})",
        )
        _expect(
            result.limit_reached == (expected == 50),
            f"limit_reached is {result.limit_reached} for a count of {expected} of 50",
        )

    return check


def _unsatisfiable(line: str, mode: Mode, reason: str | None) -> Callable[[Backend, Factory], None]:
    def check(backend: Backend, fresh: Factory) -> None:
        result = backend.solve(Grid.parse(line), mode=mode, time_limit=60)
        _expect(
            result.status is Status.UNSATISFIABLE and result.solution is None,
            f"{mode} of the contradiction {line}: expected unsatisfiable and no solution, "
            f"got {result.status}",
        )
        if reason:
            _expect(result.reason == reason, f"reason {result.reason!r}, expected {reason!r}")
        if mode is Mode.COUNT:
            _expect(result.count == 0, f"count {result.count}, expected 0")

    return check


def _returns_itself(line: str) -> Callable[[Backend, Factory], None]:
    def check(backend: Backend, fresh: Factory) -> None:
        answer = Grid.parse(line)
        got = backend.solve(answer, time_limit=60).solution
        _expect(got == answer, f"a solved grid gave {got.to_line() if got else None}")

    return check


def _honours_time_limit(puzzle: Grid, seconds: float) -> Callable[[Backend, Factory], None]:
    def check(backend: Backend, fresh: Factory) -> None:
        result = backend.solve(puzzle, time_limit=seconds)
        _expect(
            result.status in (Status.TIMEOUT, Status.SOLVED),
            f"time limit {seconds} s: expected timeout or solved, got {result.status}",
        )
        if result.status is Status.SOLVED:
            _expect(
                result.solution is not None and result.solution.is_solution_of(puzzle),
                "solved within the time limit, but not a completion",
            )
        else:
            _expect(result.solution is None, "a timeout with a solution")
        # Generous: the limit is 0.3 s; a backend that ignores it runs for minutes.
        _expect(result.seconds < 10, f"time limit {seconds} s, took {result.seconds:.1f} s")

    return check


def _stats_are_json(line: str) -> Callable[[Backend, Factory], None]:
    def check(backend: Backend, fresh: Factory) -> None:
        result = backend.solve(Grid.parse(line), time_limit=60)
        try:
            json.dumps(dict(result.stats))
        except (TypeError, ValueError) as error:
            raise AssertionError(f"stats are not plain JSON values: {error}") from None
        _expect(
            bool(result.stats),
            "no stats (record at least what the search did: nodes, conflicts, ...)",
        )

    return check


def _declares_itself(backend: Backend, fresh: Factory) -> None:
    cls = type(backend)
    _expect(isinstance(cls.name, str) and bool(cls.name), "name must be a non-empty str")
    _expect(isinstance(cls.description, str), "description must be a str")
    _expect(
        isinstance(cls.requires, tuple) and all(isinstance(m, str) for m in cls.requires),
        "requires must be a tuple of module names",
    )
    _expect(
        isinstance(cls.options, tuple) and all(isinstance(o, BackendOption) for o in cls.options),
        "options must be a tuple of BackendOption declarations",
    )
    _expect(
        isinstance(backend.option_values, Mapping)
        and set(backend.option_values) == {o.name for o in cls.options},
        "an instance's options must hold every declared option (call Backend.__init__)",
    )
    versions = cls.versions()
    _expect(
        isinstance(versions, Mapping)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in versions.items()),
        "versions() must map package names to version strings",
    )


def _warm_like_fresh(keys: Sequence[tuple[int, int]]) -> Callable[[Backend, Factory], None]:
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
        _expect(
            [r.solution for r in warm[1::2]] == [r.solution for r in cold[1::2]],
            "a warm backend's lexmin answers differ from fresh backends'",
        )
        _expect(
            [r.count for r in warm[::2]] == known,
            f"warm counts {[r.count for r in warm[::2]]}, expected {known}",
        )
        _expect(
            [r.count for r in cold[::2]] == known,
            f"fresh counts {[r.count for r in cold[::2]]}, expected {known}",
        )
        _expect(
            [r.limit_reached for r in warm[::2]] == [count == COUNT_LIMIT for count in known],
            "limit_reached does not say whether the count reached the limit",
        )

    return check


def contract_cases(*, sizes: Sequence[int] = (4, 6, 9), quick: bool = True) -> list[ContractCase]:
    """The contract's cases on grids of `sizes` (4, 6, 9, 16); `quick` leaves out the hard ones
    (see the module's docstring)."""
    cases = [ContractCase("declares-itself", _declares_itself)]

    def add(size: int, name: str, check: Callable[[Backend, Factory], None]) -> None:
        if size in sizes:
            cases.append(ContractCase(name, check))

    add(9, "lexmin-known-baekjoon2239", _known_answer(BAEKJOON_2239, BAEKJOON_2239_ANSWER))
    add(9, "lexmin-known-empty9", _known_answer("0" * 81, EMPTY_9_LEXMIN))
    add(4, "lexmin-known-empty4", _known_answer("0" * 16, EMPTY_4_LEXMIN))
    add(6, "lexmin-known-empty6", _known_answer("0" * 36, EMPTY_6_LEXMIN))
    add(16, "lexmin-known-empty16", _known_answer("0" * 256, EMPTY_16_LEXMIN_ROWS_1_2, prefix=True))
    if not quick:
        add(9, "lexmin-anti-backtracking", _known_answer(ANTI_BACKTRACK, "987654321", prefix=True))
    for size, givens, seed in [
        (4, 4, 1),
        (4, 6, 2),
        (6, 8, 3),
        (6, 12, 4),
        (9, 25, 5),
        (9, 30, 6),
        (9, 40, 7),
        (16, 200, 8),
    ]:
        add(size, f"lexmin-like-naive-{size}-{givens}-{seed}", _matches_naive(size, givens, seed))
    unique = G17 if not quick else BAEKJOON_2239
    for line, size, count in [(unique, 9, 1), ("0" * 16, 4, 3), ("0" * 36, 6, 3)]:
        for mode in Mode:
            add(size, f"keeps-givens-{mode}-{size}", _keeps_givens(line, mode, count))
    for size, givens, seed in [(4, 5, 11), (6, 14, 12), (9, 45, 13), (9, 50, 14)]:
        add(
            size,
            f"count-like-brute-force-{size}-{givens}-{seed}",
            _count_like_brute_force(size, givens, seed),
        )
    for mode in Mode:
        add(
            9,
            f"unsatisfiable-repeated-given-{mode}",
            _unsatisfiable("55" + "0" * 79, mode, "row 1 has two 5s"),
        )
        add(4, f"unsatisfiable-no-completion-{mode}", _unsatisfiable(UNSOLVABLE_4, mode, None))
    for size, line in SOLVED_GRIDS.items():
        add(size, f"solved-grid-returns-itself-{size}", _returns_itself(line))
    if not quick:
        cases.append(ContractCase("time-limit-empty25", _honours_time_limit(Grid.empty(25), 0.3)))
    else:
        add(9, "time-limit-anti-backtracking", _honours_time_limit(Grid.parse(ANTI_BACKTRACK), 0.3))
    add(9, "stats-are-json", _stats_are_json(unique))
    add(9, "warm-batch-like-fresh", _warm_like_fresh(QUICK_BATCH if quick else tuple(KNOWN_COUNTS)))
    return cases


# -- running them --------------------------------------------------------------------------------


def _factory(backend: str | type[Backend], options: Mapping[str, Any]) -> tuple[str, Factory]:
    """A label and a way to build the backend: through the registry for a name (so a plugin's
    entry point is what is checked), directly for a class.

    Raises:
        UnknownBackendError, BackendUnavailableError: for a name that cannot be built.
    """
    if isinstance(backend, str):
        name = backend
        cls = backend_class(name)  # a plugin that fails to import raises here, in one line
        _expect(cls.name == name, f"the class registered as {name!r} calls itself {cls.name!r}")
        return name, lambda: get_backend(name, **options)
    cls = backend
    return cls.__qualname__, lambda: cls(**options)


def _unavailable(backend: str | type[Backend]) -> str | None:
    """Why the backend cannot run here (a solver package not installed), or None."""
    cls = backend_class(backend) if isinstance(backend, str) else backend
    if cls.is_available():
        return None
    return f"needs {', '.join(cls.requires)}"


def check_backend(
    backend: str | type[Backend],
    *,
    sizes: Sequence[int] = (4, 6, 9),
    quick: bool = True,
    **options: Any,
) -> list[str]:
    """Run the contract suite on a backend (a registry name or a Backend class, built with
    `options`), one warm instance for all cases; the failures, one line each ('case: what').
    A backend that cannot be built or whose solver is missing is one failure."""
    try:
        label, fresh = _factory(backend, options)
        missing = _unavailable(backend)
        if missing:
            return [f"{label}: unavailable: {missing}"]
        warm = fresh()
    except SudokuError as error:  # an unknown name, a plugin that fails to load, an option
        return [f"{backend}: {error}"]
    except Exception as error:
        return [f"{backend}: cannot be built: {type(error).__name__}: {error}"]
    failures = []
    try:
        for case in contract_cases(sizes=sizes, quick=quick):
            try:
                case.run(warm, fresh)
            except AssertionError as error:
                failures.append(f"{label}: {case.id}: {error}")
            except Exception as error:  # the contract: never raise on a well-formed grid
                failures.append(f"{label}: {case.id}: raised {type(error).__name__}: {error}")
    finally:
        warm.close()
    return failures


def assert_backend(
    backend: str | type[Backend],
    *,
    sizes: Sequence[int] = (4, 6, 9),
    quick: bool = True,
    **options: Any,
) -> None:
    """`check_backend`, raising AssertionError with every failure when there is one."""
    failures = check_backend(backend, sizes=sizes, quick=quick, **options)
    if failures:
        raise AssertionError(f"{len(failures)} contract failure(s):\n" + "\n".join(failures))


class _Subject:
    """The backend under test in a pytest run: one warm instance, built on first use and
    closed when the test module is done."""

    def __init__(self, backend: str | type[Backend], options: Mapping[str, Any]) -> None:
        self.backend = backend
        self.options = options
        self.warm: Backend | None = None

    def fresh(self) -> Backend:
        return _factory(self.backend, self.options)[1]()

    def get(self) -> Backend:
        if self.warm is None:
            self.warm = self.fresh()
        return self.warm

    def close(self) -> None:
        if self.warm is not None:
            self.warm.close()
            self.warm = None


def contract_tests(
    backend: str | type[Backend],
    *,
    sizes: Sequence[int] = (4, 6, 9),
    quick: bool = True,
    **options: Any,
) -> Callable[..., None]:
    """A pytest test function that runs the contract suite, one test per case:

        from sudoku_cp.testing import contract_tests
        test_contract = contract_tests("naive")

    Assign it to a name that starts with `test` in a test module (one name per backend or
    configuration). The cases share one warm backend, closed at the end of the module; a backend
    whose solver package is not installed is skipped, one that fails to load fails every case
    with its one-line error.
    """
    import pytest

    subject = _Subject(backend, options)
    cases = contract_cases(sizes=sizes, quick=quick)

    def test(case: ContractCase, request: Any) -> None:
        missing = _unavailable(subject.backend)
        if missing:
            pytest.skip(missing)
        if subject.warm is None:
            request.node.getparent(pytest.Module).addfinalizer(subject.close)
        case.run(subject.get(), subject.fresh)

    label = backend if isinstance(backend, str) else backend.__qualname__
    test.__doc__ = f"The backend contract on {label}."
    parametrised: Callable[..., None] = pytest.mark.parametrize(
        "case", cases, ids=[case.id for case in cases]
    )(test)
    return parametrised
