"""result: the words of a run print and compare as the words a results log holds, a checked run
says whether it answered, a verdict whether it is a problem, a count whether it hit its limit."""

from __future__ import annotations

import json

from sudoku_cp.result import Mode, RunStatus, SolveResult, Status, Verdict


def test_the_words_print_and_compare_as_the_log_holds_them() -> None:
    assert [str(mode) for mode in Mode] == ["lexmin", "any", "count"]
    assert Status.SOLVED == "solved" and f"{Verdict.AGREE}" == "agree"
    assert json.dumps([RunStatus.WRONG, Mode.COUNT]) == '["wrong", "count"]'
    assert {str(status) for status in Status} < {str(status) for status in RunStatus}


def test_answered_runs_and_problem_verdicts() -> None:
    answered = {status for status in RunStatus if status.answered}
    assert answered == {RunStatus.SOLVED, RunStatus.UNSATISFIABLE}
    problems = {verdict for verdict in Verdict if verdict.is_problem}
    assert problems == {Verdict.WRONG, Verdict.DISAGREE, Verdict.ERROR}


def test_a_count_at_its_limit_may_have_more() -> None:
    def counted(count: int | None, limit: int | None) -> SolveResult:
        return SolveResult("dfs", Mode.COUNT, Status.SOLVED, count=count, limit=limit)

    assert counted(2, 2).limit_reached and not counted(1, 2).limit_reached
    assert not counted(5, None).limit_reached and not counted(None, 2).limit_reached
