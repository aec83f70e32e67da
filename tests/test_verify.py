"""verify: the one checker. Each rule a completion can break, its one-line description, the
checks of counts, and the comparison of several answers per mode."""

from __future__ import annotations

import random
from typing import Any, NamedTuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudoku_cp.grid import Grid
from sudoku_cp.result import Mode, RunStatus, SolveResult, Status, Verdict
from sudoku_cp.verify import (
    WORST_FIRST,
    CompletionCheck,
    Rule,
    Violation,
    check_completion,
    check_result,
    compare,
    worst,
)

from .conftest import EMPTY_4_LEXMIN, full_grid

WRONG, ERROR, TIMEOUT, UNSATISFIABLE = (
    RunStatus.WRONG,
    RunStatus.ERROR,
    RunStatus.TIMEOUT,
    RunStatus.UNSATISFIABLE,
)
AGREE, DISAGREE = Verdict.AGREE, Verdict.DISAGREE


class Judged(NamedTuple):
    status: RunStatus
    reason: str | None
    disagrees: bool


def compared(*args: Any) -> tuple[dict[str, Judged], list[str], Verdict]:
    """`compare`'s findings per run, as (status, reason, disagrees), the findings, the verdict."""
    found = compare(*args)
    judged = {
        name: Judged(status, found.reasons[name], name in found.disagreeing)
        for name, status in found.statuses.items()
    }
    return judged, found.findings, found.verdict


EMPTY_4 = Grid.parse("0" * 16)
LEXMIN_4 = Grid.parse(EMPTY_4_LEXMIN)  # 1234 / 3412 / 2143 / 4321
OTHER_4 = "1234341223414123"  # another completion, larger than the lex-min
ONE_GIVEN_4 = Grid.parse("1" + "0" * 15)


def lone_ones(*cells: int) -> Grid:
    """A 4x4 grid holding 1 in `cells` and blanks elsewhere: repeats with nothing else wrong
    but the blanks."""
    return Grid.from_values([1 if cell in cells else 0 for cell in range(16)])


def solved(solution: str, mode: Mode = Mode.LEXMIN, **fields: Any) -> SolveResult:
    return SolveResult("x", mode, Status.SOLVED, Grid.parse(solution), seconds=0.001, **fields)


def status(state: Status, mode: Mode = Mode.LEXMIN, **fields: Any) -> SolveResult:
    return SolveResult("x", mode, state, seconds=0.002, **fields)


def counted(
    count: int | None,
    state: Status = Status.SOLVED,
    *,
    limit: int | None = 2,
    solution: str | None = EMPTY_4_LEXMIN,
) -> SolveResult:
    grid = Grid.parse(solution) if solution is not None else None
    return SolveResult("x", Mode.COUNT, state, grid, count=count, limit=limit)


# -- check_completion: one test per rule -----------------------------------------------------------


def test_a_correct_completion_has_no_violation() -> None:
    check = check_completion(EMPTY_4, LEXMIN_4)
    assert check == CompletionCheck(()) and check.ok and bool(check)
    assert check.describe() == "a correct completion"
    assert check_completion(ONE_GIVEN_4, LEXMIN_4).ok


def test_shape_a_grid_of_another_size_or_box_shape() -> None:
    check = check_completion(Grid.empty(9), LEXMIN_4)
    assert check.violations == (Violation(Rule.SHAPE, size=9),)
    assert not check
    assert check.describe() == "not a 9x9 grid of the puzzle's box shape"
    wide, tall = Grid.empty(6, box=(2, 3)), Grid.empty(6, box=(3, 2))
    assert [v.rule for v in check_completion(wide, tall).violations] == [Rule.SHAPE]


def test_given_changed_names_the_given_and_its_cell() -> None:
    answer = Grid.parse("2" + EMPTY_4_LEXMIN[1:])
    check = check_completion(ONE_GIVEN_4, answer)
    assert check.violations[0] == Violation(Rule.GIVEN_CHANGED, (0,), 1, size=4)
    assert check.violations[0].describe() == "changes the given 1 at row 1, column 1"


def test_blank_left_lists_every_blank_and_describes_the_first() -> None:
    answer = Grid.parse(EMPTY_4_LEXMIN[:5] + "0" + EMPTY_4_LEXMIN[6:15] + "0")
    check = check_completion(EMPTY_4, answer)
    assert check.violations == (Violation(Rule.BLANK_LEFT, (5, 15), size=4),)
    assert check.describe() == "leaves row 2, column 2 blank (and 1 more blanks)"
    one = check_completion(EMPTY_4, Grid.parse("0" + EMPTY_4_LEXMIN[1:]))
    assert one.describe() == "leaves row 1, column 1 blank"


@pytest.mark.parametrize(
    "cells, rule, unit, description",
    [
        ((0, 3), Rule.ROW_REPEAT, 1, "row 1 has two 1s"),  # columns 1 and 4, boxes 1 and 2
        ((2, 14), Rule.COLUMN_REPEAT, 3, "column 3 has two 1s"),  # rows 1 and 4, boxes 2 and 4
        ((10, 15), Rule.BOX_REPEAT, 4, "box 4 has two 1s"),  # rows 3 and 4, columns 3 and 4
    ],
)
def test_each_repeat_rule_alone(
    cells: tuple[int, ...], rule: Rule, unit: int, description: str
) -> None:
    check = check_completion(EMPTY_4, lone_ones(*cells))
    repeats = [v for v in check.violations if v.rule is not Rule.BLANK_LEFT]
    assert repeats == [Violation(rule, cells, 1, unit, 4)]
    assert repeats[0].describe() == description


def test_one_changed_cell_breaks_its_row_column_and_box() -> None:
    check = check_completion(EMPTY_4, Grid.parse("1134" + EMPTY_4_LEXMIN[4:]))
    assert check.violations == (
        Violation(Rule.ROW_REPEAT, (0, 1), 1, 1, 4),
        Violation(Rule.COLUMN_REPEAT, (1, 9), 1, 2, 4),
        Violation(Rule.BOX_REPEAT, (0, 1), 1, 1, 4),
    )
    assert check.describe() == "row 1 has two 1s (and 2 more violations)"


def test_a_repeat_counts_its_cells_and_names_letters_by_symbol() -> None:
    three = check_completion(EMPTY_4, lone_ones(0, 1, 3)).violations
    assert [v.describe() for v in three if v.rule is Rule.ROW_REPEAT] == ["row 1 has three 1s"]
    letters = check_completion(Grid.empty(16), Grid.from_values([10, 10] + [0] * 254))
    assert [v.describe() for v in letters.violations if v.rule is Rule.ROW_REPEAT] == [
        "row 1 has two As"
    ]


def test_several_repeats_of_one_unit_are_one_violation_each() -> None:
    swapped = Grid.parse("1234214334124321")  # rows 2 and 3 swapped: only boxes break
    check = check_completion(EMPTY_4, swapped)
    assert {v.rule for v in check.violations} == {Rule.BOX_REPEAT}
    assert [(v.unit, v.value, v.cells) for v in check.violations][:2] == [
        (1, 1, (0, 5)),
        (1, 2, (1, 4)),
    ]
    assert len(check.violations) == 8


@given(st.sampled_from([4, 6, 9]), st.integers(0, 2**32), st.data())
def test_any_one_changed_value_of_a_completion_breaks_its_three_units(
    size: int, seed: int, data: st.DataObject
) -> None:
    solution = full_grid(size, random.Random(seed))
    cells = data.draw(st.sets(st.integers(0, size * size - 1), max_size=size * size // 2))
    puzzle = solution.with_values({cell: 0 for cell in cells})  # some givens kept
    assert check_completion(puzzle, solution).ok
    cell = data.draw(st.integers(0, size * size - 1))
    value = data.draw(st.integers(1, size).filter(lambda v: v != solution.values[cell]))
    check = check_completion(puzzle, solution.with_values({cell: value}))
    broken = {v.rule for v in check.violations if cell in v.cells and v.value == value}
    assert broken == {Rule.ROW_REPEAT, Rule.COLUMN_REPEAT, Rule.BOX_REPEAT}
    assert (
        Violation(Rule.GIVEN_CHANGED, (cell,), solution.values[cell], size=size) in check.violations
    ) == (cell not in cells)


RULE_EXAMPLES = [
    (Grid.empty(9), LEXMIN_4),
    (ONE_GIVEN_4, Grid.parse("2" + EMPTY_4_LEXMIN[1:])),
    (EMPTY_4, Grid.parse("0" * 16)),
    (EMPTY_4, lone_ones(0, 3)),
    (EMPTY_4, lone_ones(2, 14)),
    (EMPTY_4, lone_ones(10, 15)),
]


@pytest.mark.parametrize("puzzle, answer", RULE_EXAMPLES)
def test_describe_is_one_short_line(puzzle: Grid, answer: Grid) -> None:
    check = check_completion(puzzle, answer)
    assert not check.ok
    for text in [check.describe(), *(v.describe() for v in check.violations)]:
        assert "\n" not in text and 0 < len(text) < 80


def test_every_rule_is_exercised() -> None:
    rules = {
        v.rule
        for puzzle, answer in RULE_EXAMPLES
        for v in check_completion(puzzle, answer).violations
    }
    assert rules == set(Rule)


# -- check_result: counts and statuses -------------------------------------------------------------


@pytest.mark.parametrize(
    "result, reason",
    [
        (counted(2), None),
        (counted(1), None),
        (counted(0, Status.UNSATISFIABLE, solution=None), None),
        (counted(3), "count 3 is outside 0..2"),
        (counted(-1), "count -1 is outside 0..2"),
        (counted(None), "count None is outside 0..2"),
        (counted(0), "count 0 does not fit the status solved"),
        (
            counted(1, Status.UNSATISFIABLE, solution=None),
            "count 1 does not fit the status unsatisfiable",
        ),
        (counted(7, limit=None), None),  # no limit: any count >= 0
        (counted(5, Status.TIMEOUT, solution=None), None),  # a timeout's count is not held
        (counted(2, solution=None), None),  # a count needs no completion
        (
            counted(2, solution="1134" + EMPTY_4_LEXMIN[4:]),
            "its first completion row 1 has two 1s (and 2 more violations)",
        ),
    ],
)
def test_check_result_on_counts(result: SolveResult, reason: str | None) -> None:
    assert check_result(EMPTY_4, result) == reason


def test_check_result_on_completions() -> None:
    assert check_result(EMPTY_4, solved(EMPTY_4_LEXMIN)) is None
    assert check_result(EMPTY_4, status(Status.SOLVED)) == "reported solved without a completion"
    assert check_result(EMPTY_4, status(Status.UNSATISFIABLE)) is None  # compare() judges it
    assert check_result(ONE_GIVEN_4, solved("2" + EMPTY_4_LEXMIN[1:], Mode.ANY)) == (
        "changes the given 1 at row 1, column 1 (and 3 more violations)"
    )


# -- compare: several answers, per mode ------------------------------------------------------------


def test_lexmin_names_the_larger_completion_as_wrong() -> None:
    judged, findings, verdict = compared(
        {"a": solved(OTHER_4), "b": solved(EMPTY_4_LEXMIN)}, EMPTY_4, Mode.LEXMIN
    )
    assert verdict == WRONG
    assert (judged["a"].status, judged["b"].status) == (WRONG, "solved")
    assert findings == [
        "a: wrong: not the lex-min: b's completion is smaller (first difference at row 3, column 2)"
    ]


def test_a_valid_completion_proves_unsatisfiable_wrong_in_any_mode() -> None:
    judged, findings, verdict = compared(
        {
            "a": solved(OTHER_4, Mode.ANY),
            "b": solved(EMPTY_4_LEXMIN, Mode.ANY),
            "c": status(Status.UNSATISFIABLE, Mode.ANY),
        },
        EMPTY_4,
        Mode.ANY,
    )
    assert verdict == WRONG  # a and b differ, which any mode allows; c is proven wrong
    assert [judged[name].status for name in "abc"] == ["solved", "solved", WRONG]
    assert findings == ["c: wrong: says unsatisfiable, but a's completion is valid"]


def test_any_mode_agrees_on_different_valid_completions() -> None:
    judged, findings, verdict = compared(
        {"a": solved(OTHER_4, Mode.ANY), "b": solved(EMPTY_4_LEXMIN, Mode.ANY)}, EMPTY_4, Mode.ANY
    )
    assert (verdict, findings) == (AGREE, [])


def test_an_invalid_completion_proves_nothing() -> None:
    """A rule-breaking answer is wrong on its own and refutes no one: 'unsatisfiable' stands."""
    judged, findings, verdict = compared(
        {"a": solved("1134" + EMPTY_4_LEXMIN[4:]), "b": status(Status.UNSATISFIABLE)},
        EMPTY_4,
        Mode.LEXMIN,
    )
    assert (judged["a"].status, judged["b"].status) == (WRONG, UNSATISFIABLE)
    assert findings == ["a: wrong: row 1 has two 1s (and 2 more violations)"]


def test_counts_differ_the_majority_is_the_reference_and_a_tie_marks_everyone() -> None:
    two, one = counted(2), counted(1)
    judged, findings, verdict = compared({"a": two, "b": two, "c": one}, EMPTY_4, Mode.COUNT)
    assert verdict == DISAGREE
    assert [judged[name].disagrees for name in "abc"] == [False, False, True]
    assert [judged[name].status for name in "abc"] == ["solved"] * 3  # not provably wrong
    assert findings == ["counts differ: a 2+, b 2+, c 1"]
    judged, _, verdict = compared({"a": two, "c": one}, EMPTY_4, Mode.COUNT)
    assert verdict == DISAGREE and [judged[name].disagrees for name in "ac"] == [True, True]
    assert compare({"a": two, "b": two}, EMPTY_4, Mode.COUNT).verdict == AGREE


def test_in_count_mode_a_valid_completion_proves_unsatisfiable_wrong() -> None:
    none = counted(0, Status.UNSATISFIABLE, solution=None)
    judged, findings, verdict = compared(
        {"a": counted(2), "b": none, "c": none}, EMPTY_4, Mode.COUNT
    )
    assert verdict == WRONG
    assert [judged[name].status for name in "abc"] == ["solved", WRONG, WRONG]
    assert not judged["a"].disagrees
    assert findings[:2] == [
        "b: wrong: says unsatisfiable, but a's completion is valid",
        "c: wrong: says unsatisfiable, but a's completion is valid",
    ]


def test_a_count_mode_completion_that_breaks_a_rule_is_wrong() -> None:
    bad = counted(2, solution=EMPTY_4_LEXMIN[:-2] + "11")
    judged, findings, verdict = compared({"a": bad}, EMPTY_4, Mode.COUNT)
    assert verdict == WRONG
    assert findings == ["a: wrong: its first completion row 4 has two 1s (and 2 more violations)"]


@pytest.mark.parametrize("order", ["good first", "bad first"])
def test_each_count_is_checked_even_when_runs_share_their_first_completion(order: str) -> None:
    runs = {"good": counted(2), "bad": counted(5)}
    if order == "bad first":
        runs = dict(reversed(runs.items()))
    judged, findings, verdict = compared(runs, EMPTY_4, Mode.COUNT)
    assert (judged["good"].status, judged["bad"].status) == ("solved", WRONG)
    assert findings == ["bad: wrong: count 5 is outside 0..2"]


def test_timeout_is_no_disagreement_and_error_is_its_own_verdict() -> None:
    judged, findings, verdict = compared(
        {"a": solved(EMPTY_4_LEXMIN), "b": status(Status.TIMEOUT, reason="after 1 s")},
        EMPTY_4,
        Mode.LEXMIN,
    )
    assert (verdict, judged["b"].status, judged["b"].disagrees) == (TIMEOUT, TIMEOUT, False)
    assert findings == ["b: timeout (after 1 s)"]
    judged, findings, verdict = compared(
        {"a": solved(EMPTY_4_LEXMIN), "b": None}, EMPTY_4, Mode.LEXMIN, {"b": "RuntimeError: boom"}
    )
    assert verdict == ERROR
    assert judged["b"].status == ERROR and judged["b"].reason == "RuntimeError: boom"
    assert findings == ["b: error: RuntimeError: boom"]


def test_wrong_comes_first_and_beats_every_other_verdict() -> None:
    changed = "2" + EMPTY_4_LEXMIN[1:]
    judged, findings, verdict = compared(
        {
            "a": solved(changed),
            "b": solved(OTHER_4),
            "c": solved(EMPTY_4_LEXMIN),
            "d": None,
            "e": status(Status.TIMEOUT),
        },
        ONE_GIVEN_4,
        Mode.LEXMIN,
        {"d": "boom"},
    )
    assert verdict == WRONG
    assert [judged[name].status for name in "abcde"] == [WRONG, WRONG, "solved", ERROR, TIMEOUT]
    assert findings[0].startswith("a: wrong: changes the given 1 at row 1, column 1")
    assert findings[1].startswith("b: wrong: not the lex-min: c's completion is smaller")
    assert findings[2:] == ["d: error: boom", "e: timeout"]


def test_verdicts_worst_first_and_worst_run_status() -> None:
    assert list(Verdict) == [Verdict.WRONG, DISAGREE, Verdict.ERROR, Verdict.TIMEOUT, AGREE]
    assert WORST_FIRST == (WRONG, ERROR, TIMEOUT, UNSATISFIABLE, RunStatus.SOLVED)
    assert worst(["solved", "timeout", "solved"]) == TIMEOUT
    assert worst(["unsatisfiable", "error", "wrong"]) == WRONG
    assert worst(["solved", "unsatisfiable"]) == UNSATISFIABLE
