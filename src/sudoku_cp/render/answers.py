"""Answers as `solve` prints them (pure: returns text or JSON-ready data): a grid in the input's
layout, a count, or the status; and the line of `solve --format jsonl` (`records.AnswerLine`)."""

from __future__ import annotations

from typing import Any

from ..formats import Layout, format_grid
from ..judging import Answer, SkippedLine, puzzle_fields
from ..result import Mode, RunStatus, SolveResult, Status
from ..results_log.records import INVALID, AnswerLine


def format_count(result: SolveResult) -> str:
    """'3', or '2+' when the count stopped at the limit."""
    return f"{result.count}+" if result.limit_reached else str(result.count)


def format_answer(answer: Answer, layout: Layout | str) -> str:
    """What stdout shows for one answer in a text layout: the solution, the count, or the status
    (a wrong answer is shown as 'wrong', never as a solution)."""
    result = answer.result
    if answer.status in (RunStatus.WRONG, RunStatus.ERROR) or result is None:
        return str(answer.status)
    if result.mode is Mode.COUNT and result.status is not Status.TIMEOUT:
        return format_count(result)
    if answer.solution is not None:
        return format_grid(answer.solution, layout)
    return str(answer.status)


def answer_json(answer: Answer, *, mode: Mode) -> dict[str, Any]:
    """The JSON Lines object of one answer for `solve --format jsonl`: the puzzle's fields and
    the run's, as a results log keeps the run (a wrong answer's grid under `answer`, never under
    `solution`)."""
    return answer.to_line(mode).to_json()


def skipped_json(skipped: SkippedLine, *, backend: str, mode: Mode) -> dict[str, Any]:
    """The JSON Lines object of an input line that is not a puzzle: status 'invalid' and why."""
    fields = puzzle_fields(skipped.input)
    line = AnswerLine(**fields, mode=mode, invalid=skipped.reason, backend=backend)
    return line.to_json()


__all__ = ["INVALID", "answer_json", "format_answer", "format_count", "skipped_json"]
