"""The shared lex-min and counting loops (backends/lexmin.py): on a fake oracle that knows every
completion, and through the two backends built on them (z3, exact; skipped where the solver is
not installed), against the naive row-major DFS and brute-force counts."""

from __future__ import annotations

import random
import re

import pytest

from sudoku_cp.backends import TimeUp, backend_class, get_backend
from sudoku_cp.backends.base import Deadline
from sudoku_cp.backends.lexmin import Count, Questions, count_by_blocking, lexmin_by_tightening
from sudoku_cp.grid import Grid
from sudoku_cp.result import Mode, Status
from sudoku_cp.testing import naive_lexmin

from ..conftest import EMPTY_9_LEXMIN, brute_force_count, random_multi_solution


def _configurations(*found: tuple[str, dict[str, str]]) -> list[object]:
    return [
        pytest.param(
            (name, options),
            id="-".join([name, *options.values()]),
            marks=pytest.mark.skipif(
                not backend_class(name).is_available(),
                reason=f"needs {backend_class(name).requires[0]}",
            ),
        )
        for name, options in found
    ]


ORACLE_BACKENDS = _configurations(
    ("z3", {"encoding": "bool"}),
    ("z3", {"encoding": "int", "process": "inline"}),
    ("exact", {"encoding": "extended"}),
    ("exact", {"encoding": "minimal", "process": "inline"}),
)
INLINE = _configurations(("z3", {"process": "inline"}), ("exact", {"process": "inline"}))


class Known:
    """An oracle that lists every completion of a small puzzle (by brute force)."""

    def __init__(self, grid: Grid) -> None:
        self.completions = sorted(_completions(grid), key=lambda values: random.random())
        self.fixed: dict[int, int] = {}
        self.found: tuple[int, ...] | None = None
        self.blocked: set[tuple[int, ...]] = set()
        self.asked: list[tuple[int | None, int]] = []

    def satisfiable(self, cell: int | None = None, below: int = 0) -> bool:
        self.asked.append((cell, below))
        for values in self.completions:
            if values in self.blocked or any(values[c] != v for c, v in self.fixed.items()):
                continue
            if cell is None or values[cell] < below:
                self.found = values
                return True
        return False

    def value(self, cell: int) -> int:
        assert self.found is not None
        return self.found[cell]

    def fix(self, cell: int, value: int) -> None:
        self.fixed[cell] = value

    def completion(self) -> tuple[int, ...]:
        assert self.found is not None
        return self.found

    def block(self, values: tuple[int, ...]) -> None:
        self.blocked.add(values)


def _completions(grid: Grid) -> list[tuple[int, ...]]:
    """Every completion, by a plain backtracking over the blank cells."""
    found: list[tuple[int, ...]] = []
    values = list(grid.values)
    peers = grid.geometry.peer_getters
    blanks = grid.blanks()

    def fill(index: int) -> None:
        if index == len(blanks):
            found.append(tuple(values))
            return
        cell = blanks[index]
        held = set(peers[cell](values))
        for value in range(1, grid.size + 1):
            if value not in held:
                values[cell] = value
                fill(index + 1)
        values[cell] = 0

    fill(0)
    return found


@pytest.mark.parametrize("seed", range(40))
def test_tightening_gives_the_lexmin_whatever_completions_the_oracle_picks(seed):
    random.seed(seed)
    puzzle = random_multi_solution(4, random.randint(3, 8), seed)
    oracle = Known(puzzle)
    questions = Questions()
    got = lexmin_by_tightening(puzzle, oracle, Deadline(None), questions)
    assert got == min(oracle.completions)
    assert Grid.from_values(got) == naive_lexmin(puzzle)
    assert questions.calls == len(oracle.asked) and questions.yes <= questions.calls


def test_tightening_says_none_for_no_completion():
    puzzle = Grid.parse("0120300040000000")
    assert lexmin_by_tightening(puzzle, Known(puzzle), Deadline(None), Questions()) is None


def test_a_question_the_fixed_peers_answer_is_not_asked():
    # Cell 0 at 2 with peer cell 1 fixed to 1: "below 2" is known to be no.
    puzzle = Grid.parse("0100000000000000")
    oracle = Known(puzzle)
    oracle.completions = sorted(oracle.completions, reverse=True)  # the largest first
    questions = Questions()
    lexmin_by_tightening(puzzle, oracle, Deadline(None), questions)
    assert questions.skipped > 0
    assert all(below > 1 for _, below in oracle.asked[1:])


def test_a_broken_promise_is_an_error_not_an_answer():
    class Liar(Known):
        def satisfiable(self, cell=None, below=0):
            super().satisfiable()
            return True  # "yes" to everything, with a completion that is not below

    puzzle = Grid.parse("0000000000000000")
    with pytest.raises(AssertionError, match="asked for below"):
        lexmin_by_tightening(puzzle, Liar(puzzle), Deadline(None), Questions())


def test_the_deadline_stops_the_loops():
    puzzle = Grid.empty(4)
    with pytest.raises(TimeUp):
        lexmin_by_tightening(puzzle, Known(puzzle), Deadline(0), Questions())
    counted = Count()
    with pytest.raises(TimeUp):
        count_by_blocking(Known(puzzle), 5, Deadline(0), counted, Questions())
    assert counted.count == 0


@pytest.mark.parametrize("limit", [1, 5, 288, 1000])
def test_counting_by_blocking_counts_up_to_the_limit(limit):
    puzzle = Grid.empty(4)
    oracle, counted = Known(puzzle), Count()
    count_by_blocking(oracle, limit, Deadline(None), counted, Questions())
    assert counted.count == min(limit, 288) and counted.first in oracle.completions
    assert len(oracle.blocked) == min(limit, 288) - (limit <= 288)  # the last one is not blocked


# -- through the backends ------------------------------------------------------------------------


@pytest.fixture(scope="module", params=ORACLE_BACKENDS)
def backend(request):
    name, options = request.param
    with get_backend(name, **options) as ready:
        yield ready


@pytest.mark.parametrize("seed", range(12))
def test_lexmin_equals_naive_on_random_puzzles(backend, seed):
    rng = random.Random(seed)
    size, box = rng.choice([(4, (2, 2)), (6, (2, 3)), (6, (3, 2)), (9, (3, 3))])
    puzzle = random_multi_solution(size, rng.randint(0, size * size // 2), seed, box=box)
    assert backend.solve(puzzle, time_limit=60).solution == naive_lexmin(puzzle)


@pytest.mark.parametrize("seed", range(6))
def test_counts_equal_brute_force(backend, seed):
    puzzle = random_multi_solution(6, 12 + seed, 40 + seed)
    result = backend.solve(puzzle, mode=Mode.COUNT, limit=30, time_limit=60)
    assert result.count == brute_force_count(puzzle, 30)


def test_a_counted_puzzle_blocks_nothing_for_the_next(backend):
    empty = Grid.empty(4)
    assert backend.solve(empty, mode=Mode.COUNT, limit=300).count == 288
    assert backend.solve(empty, mode=Mode.COUNT, limit=300).count == 288
    assert backend.solve(empty).solution.to_line() == "1234341221434321"


def test_the_model_is_built_in_prepare_once_per_shape(backend):
    backend.close()  # a new model (in a new solver process, for the helped ones)
    assert "setup_seconds" in backend.solve(Grid.empty(9)).stats
    second = backend.solve(Grid.empty(9))
    assert "setup_seconds" not in second.stats
    assert second.solution.to_line() == EMPTY_9_LEXMIN


def test_stats_are_the_solvers_counters_and_the_questions(backend):
    stats = backend.solve(Grid.empty(9)).stats
    assert stats["oracle_calls"] >= stats["oracle_sat"] >= 1
    assert stats["oracle_skipped"] > 0
    for counter in ("conflicts", "decisions", "propagations"):
        assert isinstance(stats[counter], int) and stats[counter] >= 0
    assert stats["decisions"] > 0


@pytest.mark.parametrize("mode", [Mode.LEXMIN, Mode.COUNT])
def test_a_timeout_is_no_answer_and_the_shape_stays_usable(backend, mode):
    result = backend.solve(Grid.empty(16), mode=mode, limit=10**9, time_limit=0.05)
    assert result.status is Status.TIMEOUT and result.solution is None
    assert "0.05" in result.reason and result.seconds < 2
    again = backend.solve(Grid.empty(16), mode=Mode.ANY, time_limit=60)
    assert again.solution.is_solution_of(Grid.empty(16))


@pytest.mark.parametrize("configuration", INLINE)
def test_an_inline_solver_that_timed_out_is_rebuilt_on_the_next_clock(configuration):
    name, options = configuration
    with get_backend(name, **options) as backend:
        backend.prepare(Grid.empty(16))
        model = backend._models[16, (4, 4)]
        model.retired = True  # what a check cut short by the time limit does
        again = backend.solve(Grid.empty(16), mode=Mode.ANY, time_limit=60)
        assert "setup_seconds" not in again.stats and backend._models[16, (4, 4)] is not model
        # a rebuild that would not fit in the time left is not started
        backend._models[16, (4, 4)].retired = True
        backend._build_seconds[16, (4, 4)] = 30.0
        late = backend.solve(Grid.empty(16), mode=Mode.ANY, time_limit=1)
        assert late.status is Status.TIMEOUT and "a new solver would take" in late.reason


def test_a_zero_time_limit_is_a_timeout(backend):
    result = backend.solve(Grid.empty(9), time_limit=0)
    assert result.status is Status.TIMEOUT and result.solution is None


@pytest.mark.parametrize(("name", "extra"), [("z3", "z3"), ("exact", "exact")])
def test_a_missing_solver_is_listed_with_its_install_line_and_breaks_nothing(
    name, extra, monkeypatch
):
    from click.testing import CliRunner

    from sudoku_cp.cli import main
    from sudoku_cp.errors import BackendUnavailableError

    monkeypatch.setattr(backend_class(name), "requires", (f"{name}_not_installed",))
    listed = CliRunner().invoke(main, ["backends"])
    assert listed.exit_code == 0
    assert f"missing {name}_not_installed" in listed.output
    unwrapped = " ".join(listed.output.split())  # the listing wraps at 80 columns
    assert f"install: pip install '.[{extra}]' from a sudoku-cp checkout" in unwrapped
    with pytest.raises(BackendUnavailableError, match=re.escape(f"pip install '.[{extra}]'")):
        get_backend(name)
    assert get_backend("dfs").solve(Grid.empty(4)).solution.to_line() == "1234341221434321"
