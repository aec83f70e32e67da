"""One puzzle in each mode (backends/sat/modes.py): known answers, counts, lex-min by the shared
tightening loop against the reference DFS, the calls it skips."""

import pytest

pytest.importorskip("pysat")

from sudoku_cp.backends.sat import (  # noqa: E402
    SatBackend,
    base_cnf,
)
from sudoku_cp.grid import Grid  # noqa: E402
from sudoku_cp.result import Mode, Status  # noqa: E402

from ...conftest import (  # noqa: E402
    BAEKJOON_2239,
    BAEKJOON_2239_ANSWER,
    EMPTY_4_LEXMIN,
    EMPTY_9_LEXMIN,
    G17,
    UNSOLVABLE_4,
    brute_force_count,
    naive_lexmin,
    random_multi_solution,
)
from .conftest import (  # noqa: E402
    EMPTY_16_ROW_2,
    RANDOM_CASES,
    solution_of,
)

# -- known answers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line, answer",
    [
        (BAEKJOON_2239, BAEKJOON_2239_ANSWER),
        ("0" * 81, EMPTY_9_LEXMIN),
        ("0" * 16, EMPTY_4_LEXMIN),
    ],
)
def test_lexmin_known_answers(backend, line, answer):
    puzzle = Grid.parse(line)
    assert solution_of(backend.solve(puzzle), puzzle).to_line() == answer


def test_lexmin_of_the_empty_16x16(backend):
    puzzle = Grid.empty(16)
    rows = solution_of(backend.solve(puzzle), puzzle).rows()
    assert rows[0] == tuple(range(1, 17)) and rows[1] == EMPTY_16_ROW_2


def test_lexmin_of_the_empty_6x6_with_2x3_boxes(backend):
    puzzle = Grid.empty(6, box=(2, 3))
    assert solution_of(backend.solve(puzzle), puzzle) == naive_lexmin(puzzle)


def test_a_full_grid_is_its_own_answer_in_every_mode(backend):
    answer = Grid.parse(BAEKJOON_2239_ANSWER)
    for mode in Mode:
        result = backend.solve(answer, mode=mode, limit=3)
        assert result.solution == answer
        assert result.count == (1 if mode is Mode.COUNT else None)


@pytest.mark.parametrize("mode", list(Mode))
def test_no_completion_without_repeated_givens_is_unsatisfiable(backend, mode):
    result = backend.solve(Grid.parse(UNSOLVABLE_4), mode=mode)
    assert result.status is Status.UNSATISFIABLE and result.solution is None
    assert result.count == (0 if mode is Mode.COUNT else None)


# -- counting --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "size, box, givens, seed",
    [(9, None, 50, 2), (9, None, 36, 2), (9, None, 30, 52), (9, None, 28, 51), (6, (2, 3), 8, 1)],
)
def test_count_equals_the_brute_force_count(backend, size, box, givens, seed):
    puzzle = random_multi_solution(size, givens, seed, box=box)
    expected = brute_force_count(puzzle, 1000)
    result = backend.solve(puzzle, mode=Mode.COUNT, limit=1000)
    assert result.count == expected and 1 < expected < 1000 and not result.limit_reached
    solution_of(result, puzzle)


def test_count_of_the_empty_4x4_is_288_and_stops_at_the_limit(backend):
    puzzle = Grid.empty(4)
    assert backend.solve(puzzle, mode=Mode.COUNT, limit=1000).count == 288
    limited = backend.solve(puzzle, mode=Mode.COUNT, limit=7)
    assert limited.count == 7 and limited.limit_reached
    # One blocking clause per completion except the last: the limit stops the search there.
    assert limited.stats["clauses"] == len(base_cnf(4, (2, 2), "extended", "pairwise").clauses) + 6


# -- lex-min against the reference DFS -------------------------------------------------------------


@pytest.mark.parametrize("size, box, givens, seed", RANDOM_CASES)
def test_lexmin_equals_the_naive_row_major_dfs(backend, size, box, givens, seed):
    puzzle = random_multi_solution(size, givens, seed, box=box)
    assert solution_of(backend.solve(puzzle), puzzle) == naive_lexmin(puzzle)


def expected_calls_for_a_unique_puzzle(puzzle: Grid, solution: Grid) -> int:
    """One call for the first model, then one (UNSAT) call per blank cell that still has a
    smaller value its fixed peers (givens, earlier cells) do not hold."""
    fixed = list(puzzle.values)
    calls = 1
    for cell in puzzle.blanks():
        held = {fixed[peer] for peer in puzzle.geometry.peers[cell]}
        calls += any(v not in held for v in range(1, solution.values[cell]))
        fixed[cell] = solution.values[cell]
    return calls


def test_calls_the_fixed_peers_already_answer_are_skipped(backend):
    for line in (BAEKJOON_2239, G17):
        puzzle = Grid.parse(line)
        result = backend.solve(puzzle)
        expected = expected_calls_for_a_unique_puzzle(puzzle, result.solution)
        assert result.stats["sat_calls"] == expected < len(puzzle.blanks())
        # A unique puzzle: the first call finds the answer, every later one proves a cell.
        assert (
            result.stats["unsat_calls"] == expected - 1 and result.stats["lexmin"] == "tightening"
        )


def test_count_timeout_reports_the_completions_found_so_far():
    with SatBackend(encoding="minimal", amo="seqcounter") as backend:
        result = backend.solve(Grid.empty(16), mode=Mode.COUNT, limit=10, time_limit=0.2)
    assert result.status is Status.TIMEOUT and result.solution is None
    assert result.count is not None and result.count < 10
