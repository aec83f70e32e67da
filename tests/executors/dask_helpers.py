"""Shared by the Dask tests (test_dask.py, test_dask_cluster.py): puzzles, records, verdicts."""

from __future__ import annotations

import time

from sudoku_cp.formats import read_puzzles
from sudoku_cp.judging import SkippedLine

from ..conftest import random_multi_solution


def puzzle_lines(count: int, *, seed: int = 0) -> list[str]:
    """Distinct 9x9 puzzles, most with several completions (lexmin has work to do)."""
    return [random_multi_solution(9, 30, seed * 1000 + number).to_line() for number in range(count)]


def records_of(lines: list[str]):
    return read_puzzles("\n".join(lines) + "\n")[1]


def verdicts(outcomes) -> list[tuple[int, str | None, list[tuple[str, str, str | None]]]]:
    return [
        (outcome.input.index, None, [])
        if isinstance(outcome, SkippedLine)
        else (
            outcome.input.index,
            outcome.verdict,
            [
                (
                    run.label,
                    run.status,
                    run.result.solution.to_line()
                    if run.result is not None and run.result.solution is not None
                    else None,
                )
                for run in outcome.answers
            ],
        )
        for outcome in outcomes
    ]


def wait_until(condition, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()
