"""report_html/answers.py: each distinct answer once, the reference, and the cells the verifier
objects to (or that differ from the reference) marked."""

from __future__ import annotations

from sudoku_cp.grid import Grid
from sudoku_cp.report_html.answers import DIFFERS, MARKS, answers_of
from sudoku_cp.result import Mode, RunStatus
from sudoku_cp.results_log.records import PuzzleEntry, Run

from ..conftest import BAEKJOON_2239, BAEKJOON_2239_ANSWER, naive_lexmin
from ..wrong_backends import NotLexminBackend
from .logs import NINE

RULES = {name: code for code, name in enumerate(MARKS)}


def record(puzzle: str, *runs: tuple[str, str, str | None], mode: str = "lexmin") -> PuzzleEntry:
    """A puzzle entry; a wrong run's grid is its answer, as a log keeps it."""
    return PuzzleEntry(
        0,
        "p.txt",
        1,
        puzzle,
        mode=Mode(mode),
        runs=tuple(
            Run(
                backend,
                RunStatus(status),
                solution=None if status == "wrong" else solution,
                answer=solution if status == "wrong" else None,
            )
            for backend, status, solution in runs
        ),
    )


def swapped(line: str, first: int, second: int) -> str:
    cells = list(line)
    cells[first], cells[second] = cells[second], cells[first]
    return "".join(cells)


def test_answers_judged_right_and_alike_are_one_grid_without_marks() -> None:
    found = answers_of(
        record(
            BAEKJOON_2239,
            ("dfs", "solved", BAEKJOON_2239_ANSWER),
            ("sat", "solved", BAEKJOON_2239_ANSWER),
            ("cpsat", "timeout", None),
        )
    )
    assert found.grids == [BAEKJOON_2239_ANSWER]
    assert (found.reference, found.marks, found.problems) == (0, [[]], [[]])
    assert found.index(BAEKJOON_2239_ANSWER) == 0 and found.index(None) is None


def test_a_valid_answer_that_is_not_the_lexmin_has_its_differing_cells_marked() -> None:
    puzzle = Grid.parse(NINE[0])
    other = NotLexminBackend().solve(puzzle).solution
    assert other is not None
    solved = naive_lexmin(puzzle)
    assert solved is not None
    lexmin = solved.to_line()
    found = answers_of(
        record(NINE[0], ("notlexmin", "wrong", other.to_line()), ("dfs", "solved", lexmin))
    )
    assert found.grids == [other.to_line(), lexmin]
    assert found.reference == 1  # the smallest valid completion
    differing = [
        cell for cell, (a, b) in enumerate(zip(other.to_line(), lexmin, strict=True)) if a != b
    ]
    assert differing and found.marks[0] == [(cell, DIFFERS) for cell in differing]
    assert found.marks[1] == [] and found.problems == [[], []]


def test_a_rule_broken_is_marked_with_the_rule_and_described() -> None:
    # Swap the first two blanks of row 1: the row stays whole, two columns repeat a value.
    blanks = [cell for cell in range(9) if BAEKJOON_2239[cell] == "0"]
    broken = swapped(BAEKJOON_2239_ANSWER, blanks[0], blanks[1])
    found = answers_of(
        record(
            BAEKJOON_2239,
            ("rulebreaker", "wrong", broken),
            ("dfs", "solved", BAEKJOON_2239_ANSWER),
        )
    )
    marks = dict(found.marks[0])
    assert marks[blanks[0]] == marks[blanks[1]] == RULES["column repeat"]
    repeats = {RULES["column repeat"], RULES["box repeat"]}  # their partners in column and box
    assert set(marks.values()) <= repeats and len(marks) >= 4
    assert found.problems[0][0].startswith("column ") and " has two " in found.problems[0][0]


def test_a_changed_given_is_marked_as_such() -> None:
    changed = "2" + BAEKJOON_2239_ANSWER[1:]  # the given 1 at cell 0 is now a 2
    found = answers_of(
        record(
            BAEKJOON_2239,
            ("givenchanger", "wrong", changed),
            ("sat", "solved", BAEKJOON_2239_ANSWER),
        )
    )
    assert dict(found.marks[0])[0] == RULES["given changed"]
    assert "changes the given 1 at row 1, column 1" in found.problems[0]


def test_the_reference_outside_lexmin_is_the_most_common_answer() -> None:
    blanks = [cell for cell in range(9) if BAEKJOON_2239[cell] == "0"]
    odd = swapped(BAEKJOON_2239_ANSWER, blanks[0], blanks[1])
    found = answers_of(
        record(
            BAEKJOON_2239,
            ("a", "solved", odd),
            ("b", "solved", BAEKJOON_2239_ANSWER),
            ("c", "solved", BAEKJOON_2239_ANSWER),
            mode="any",
        )
    )
    assert found.reference == 1


def test_no_answer_and_unreadable_answers() -> None:
    assert answers_of(record(BAEKJOON_2239, ("dfs", "timeout", None))).grids == []
    found = answers_of(
        record(BAEKJOON_2239, ("a", "wrong", "12x"), ("b", "solved", BAEKJOON_2239_ANSWER))
    )
    assert found.grids == ["12x", BAEKJOON_2239_ANSWER]
    assert found.problems[0][0].startswith("cannot be checked: ")
