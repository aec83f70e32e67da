"""The contract every backend keeps, for every mode and for sizes 4, 6, 9 and 16."""

import pytest

from sudoku_cp.backends import backend_class, backend_names, get_backend
from sudoku_cp.grid import Grid
from sudoku_cp.result import Mode, SolveResult, Status

from .conftest import (ANTI_BACKTRACK, BAEKJOON_2239, BAEKJOON_2239_ANSWER, EMPTY_4_LEXMIN,
                       EMPTY_9_LEXMIN, EMPTY_16_LEXMIN_ROWS_1_2, G17, UNSOLVABLE_4, brute_force_count,
                       naive_lexmin, random_multi_solution)


@pytest.fixture(scope="module", params=backend_names())
def backend(request):
    cls = backend_class(request.param)
    if not cls.is_available():
        pytest.skip(f"need {', '.join(cls.requires)}")
    with get_backend(request.param) as ready:
        yield ready


def solved(result: SolveResult, puzzle: Grid) -> Grid:
    assert result.status is Status.SOLVED, result
    assert result.solution is not None and result.solution.is_solution_of(puzzle)
    return result.solution


@pytest.mark.parametrize("line, answer", [
    (BAEKJOON_2239, BAEKJOON_2239_ANSWER),
    ("0" * 81, EMPTY_9_LEXMIN),
    ("0" * 16, EMPTY_4_LEXMIN),
    ("0" * 36, "123456456123214365365214531642642531"),
])
def test_lexmin_known_answers(backend, line, answer):
    puzzle = Grid.parse(line)
    assert solved(backend.solve(puzzle), puzzle).to_line() == answer


def test_lexmin_empty_16x16(backend):
    puzzle = Grid.empty(16)
    solution = solved(backend.solve(puzzle, time_limit=60), puzzle)
    assert solution.to_line()[:32] == EMPTY_16_LEXMIN_ROWS_1_2


def test_anti_backtracking_grid(backend):
    puzzle = Grid.parse(ANTI_BACKTRACK)
    assert solved(backend.solve(puzzle, time_limit=60), puzzle).to_line().startswith("987654321")


@pytest.mark.parametrize("size, givens, seed", [(4, 4, 1), (4, 6, 2), (6, 8, 3), (6, 12, 4),
                                                (9, 25, 5), (9, 30, 6), (9, 40, 7), (16, 200, 8)])
def test_lexmin_matches_the_naive_row_major_dfs(backend, size, givens, seed):
    puzzle = random_multi_solution(size, givens, seed)
    assert solved(backend.solve(puzzle, time_limit=60), puzzle) == naive_lexmin(puzzle)


@pytest.mark.parametrize("mode", list(Mode))
@pytest.mark.parametrize("line", [G17, "0" * 16, "0" * 36])
def test_every_mode_keeps_the_givens(backend, mode, line):
    puzzle = Grid.parse(line)
    result = backend.solve(puzzle, mode=mode, limit=3)
    solved(result, puzzle)
    assert result.backend == backend.name and result.mode is mode and result.seconds >= 0
    if mode is Mode.COUNT:
        assert result.count == (1 if line == G17 else 3)


@pytest.mark.parametrize("size, givens, seed", [(4, 5, 11), (6, 14, 12), (9, 45, 13), (9, 50, 14)])
def test_count_equals_brute_force(backend, size, givens, seed):
    puzzle = random_multi_solution(size, givens, seed)
    result = backend.solve(puzzle, mode=Mode.COUNT, limit=50)
    assert result.count == brute_force_count(puzzle, 50)
    assert result.count <= 50 and result.limit_reached == (result.count == 50)


@pytest.mark.parametrize("mode", list(Mode))
@pytest.mark.parametrize("line, reason", [
    ("55" + "0" * 79, "row 1 has two 5s"),
    (UNSOLVABLE_4, None),
])
def test_contradictions_are_unsatisfiable(backend, mode, line, reason):
    result = backend.solve(Grid.parse(line), mode=mode)
    assert result.status is Status.UNSATISFIABLE and result.solution is None
    if reason:
        assert result.reason == reason
    if mode is Mode.COUNT:
        assert result.count == 0


def test_a_solved_grid_returns_itself(backend):
    answer = Grid.parse(BAEKJOON_2239_ANSWER)
    assert backend.solve(answer).solution == answer


def test_time_limit_gives_timeout_or_a_right_answer(backend):
    puzzle = Grid.empty(25)
    result = backend.solve(puzzle, time_limit=0.3)
    assert result.status in (Status.TIMEOUT, Status.SOLVED)
    if result.status is Status.SOLVED:
        assert result.solution.is_solution_of(puzzle)
    else:
        assert result.solution is None
    assert result.seconds < 10


def test_stats_are_plain_json_values(backend):
    import json
    result = backend.solve(Grid.parse(G17))
    json.dumps(dict(result.stats))
    assert result.stats


# A batch of random 9x9 puzzles, (givens, seed) -> completions counted up to COUNT_LIMIT by
# brute_force_count: counts that differ, so a backend that returns the wrong puzzle's count, or
# a warm backend that keeps a count from the previous puzzle, shows. Written down because the
# naive count of (28, 25) takes seconds; test_known_counts_are_brute_force_counts rechecks the rest.
COUNT_LIMIT = 10
KNOWN_COUNTS = {(28, 20): 10, (28, 21): 10, (28, 22): 10, (28, 23): 10, (28, 24): 10,
                (28, 25): 10, (36, 56): 1, (38, 53): 3, (34, 44): 6, (34, 48): 8}


def count_batch() -> list[Grid]:
    return [random_multi_solution(9, givens, seed) for givens, seed in KNOWN_COUNTS]


def test_known_counts_are_brute_force_counts():
    for (givens, seed), puzzle in zip(KNOWN_COUNTS, count_batch()):
        if (givens, seed) != (28, 25):  # the slow one
            assert brute_force_count(puzzle, COUNT_LIMIT) == KNOWN_COUNTS[givens, seed]


def test_warm_backend_answers_a_batch_like_fresh_ones(backend):
    puzzles = count_batch()
    modes = ("count", "lexmin")
    warm = [backend.solve(p, mode=mode, limit=COUNT_LIMIT) for p in puzzles for mode in modes]
    fresh = []
    for p in puzzles:
        for mode in modes:
            with get_backend(backend.name) as new:
                fresh.append(new.solve(p, mode=mode, limit=COUNT_LIMIT))
    assert [r.solution for r in warm[1::2]] == [r.solution for r in fresh[1::2]]
    known = list(KNOWN_COUNTS.values())
    assert [r.count for r in warm[::2]] == known
    assert [r.count for r in fresh[::2]] == known
    assert [r.limit_reached for r in warm[::2]] == [count == COUNT_LIMIT for count in known]


def test_counts_agree_across_backends():
    names = [name for name in backend_names() if backend_class(name).is_available()]
    if len(names) < 2:
        pytest.skip("need two backends to compare")
    counts = {}
    for name in names:
        with get_backend(name) as ready:
            counts[name] = [ready.solve(p, mode=Mode.COUNT, limit=COUNT_LIMIT).count
                            for p in count_batch()]
    assert counts == {name: list(KNOWN_COUNTS.values()) for name in names}