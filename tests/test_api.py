"""The Python API checks its arguments as the command line checks its options."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

import sudoku_cp
from sudoku_cp.errors import ArgumentError, GridParseError

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"
LINE = "".join((EXAMPLES / "baekjoon2239.txt").read_text().split())


def test_every_public_name_resolves() -> None:
    for name in sudoku_cp.__all__:
        assert getattr(sudoku_cp, name) is not None, name


@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        ({"time_limit": -1}, "time_limit"),
        ({"time_limit": math.nan}, "time_limit"),
        ({"time_limit": 0}, "time_limit"),  # the CLI refuses --time-limit 0 too
        ({"time_limit": "5"}, "time_limit"),
        ({"mode": "count", "limit": 0}, "limit"),
        ({"mode": "count", "limit": True}, "limit"),
        ({"mode": "bogus"}, "mode"),
    ],
)
def test_solve_refuses_an_argument_out_of_range(arguments: dict[str, Any], named: str) -> None:
    with pytest.raises(ArgumentError, match=f"^{named} must be"):
        sudoku_cp.solve(LINE, **arguments)


def test_an_infinite_time_limit_is_no_limit_in_both_faces() -> None:
    assert sudoku_cp.solve(LINE, time_limit=math.inf).status == "solved"


@pytest.mark.parametrize("jobs", [0, -3, 1.5])
def test_every_runner_refuses_jobs_below_one(jobs: Any) -> None:
    with pytest.raises(ArgumentError, match="^jobs must be an integer >= 1"):
        list(sudoku_cp.solve_many(LINE, jobs=jobs))
    with pytest.raises(ArgumentError, match="^jobs must be"):
        sudoku_cp.crosscheck(LINE, backends="dfs", jobs=jobs)


def test_bench_refuses_no_repeat(tmp_path: Path) -> None:
    with pytest.raises(ArgumentError, match="^repeat must be an integer >= 1"):
        sudoku_cp.bench([str(EXAMPLES / "baekjoon2239.txt")], backends="dfs", repeat=0)


def test_solve_many_refuses_an_unknown_invalid_policy() -> None:
    with pytest.raises(ArgumentError, match="invalid must be 'raise' or 'skip'"):
        list(sudoku_cp.solve_many(LINE, invalid="ignore"))


def test_solve_reads_utf8_bytes_as_text() -> None:
    assert sudoku_cp.solve(LINE.encode()).solution == sudoku_cp.solve(LINE).solution


def test_solve_refuses_bytes_that_are_not_utf8() -> None:
    with pytest.raises(GridParseError, match="not UTF-8"):
        sudoku_cp.solve(b"\xff\xfe")


def test_an_argument_error_is_a_value_error_for_older_callers() -> None:
    with pytest.raises(ValueError):
        sudoku_cp.solve(LINE, mode="bogus")
