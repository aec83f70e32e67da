"""api (and the package root that re-exports it): `solve`, `solve_many`, `crosscheck` and `bench`
return checked answers, refuse what is not a puzzle with the typed errors, and `bench` writes the
log that `load_results` reads back; every argument is checked as the command line checks its
option. The sessions behind `crosscheck` and `bench`, and resuming
across the two faces, are tested in test_sessions.py."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

import sudoku_cp
from sudoku_cp.errors import ArgumentError, ConfigurationError, GridParseError, InputError
from sudoku_cp.grid import Grid
from sudoku_cp.results_log.reader import Results, load_results
from sudoku_cp.verify import check_completion

from .bench_helpers import TINY
from .conftest import BAEKJOON_2239, BAEKJOON_2239_ANSWER, EMPTY_4, EMPTY_4_LEXMIN, EXAMPLES


def test_solve_returns_the_checked_lexmin_or_the_count() -> None:
    answer = sudoku_cp.solve(BAEKJOON_2239)
    assert (answer.status, answer.solution.to_line()) == ("solved", BAEKJOON_2239_ANSWER)
    assert sudoku_cp.solve(Grid.parse(EMPTY_4)).solution.to_line() == EMPTY_4_LEXMIN
    counted = sudoku_cp.solve(EMPTY_4, mode="count", limit=5)
    assert (counted.count, counted.limit_reached) == (5, True)


def test_solve_refuses_what_is_not_one_puzzle_and_an_option_no_backend_has() -> None:
    with pytest.raises(InputError, match="expected one puzzle, got 2: use solve_many"):
        sudoku_cp.solve(f"{BAEKJOON_2239}\n{BAEKJOON_2239}")
    with pytest.raises(GridParseError, match="<text>:1:1: unknown symbol 'x'"):
        sudoku_cp.solve("x" * 81)
    with pytest.raises(ConfigurationError, match="no chosen backend has an option 'solver'"):
        sudoku_cp.solve(BAEKJOON_2239, backend="dfs", solver="cadical195")


def test_solve_many_answers_in_order_and_skips_or_raises_at_a_bad_line() -> None:
    text = f"{EMPTY_4}\n{'x' * 16}\n{BAEKJOON_2239}\n"
    skipped = [answer.solution.to_line() for answer in sudoku_cp.solve_many(text, invalid="skip")]
    assert skipped == [EMPTY_4_LEXMIN, BAEKJOON_2239_ANSWER]
    answers = sudoku_cp.solve_many(text)
    assert next(answers).solution.to_line() == EMPTY_4_LEXMIN  # the answers before it first
    with pytest.raises(GridParseError, match="<text>:2:1: unknown symbol 'x'"):
        next(answers)


def test_crosscheck_reports_agreement_and_input_lines_that_are_not_puzzles() -> None:
    report = sudoku_cp.crosscheck(f"{EMPTY_4}\n{BAEKJOON_2239}\n", backends=["dfs", "sat"])
    assert report.ok and report.summary.puzzles == 2 and report.findings == []
    assert str(report).splitlines()[0] == "crosscheck --mode lexmin: dfs, sat"
    refused = sudoku_cp.crosscheck(f"{EMPTY_4}\nxx\n", backends=["dfs"])
    assert not refused.ok and refused.invalid[0].startswith("<text>:2: expected N*N symbols")


def test_api_bench_returns_results_and_writes_the_same_log(tmp_path: Path) -> None:
    log = tmp_path / "api.jsonl"
    results = sudoku_cp.bench(
        [str(TINY[0]), str(TINY[1])], backends=["dfs", "sat"], time_limit=5, results=log
    )
    assert isinstance(results, Results)
    assert results.labels() == ["dfs", "sat"] and results.time_limit == 5.0
    assert load_results(log).entries == results.entries
    for entry in results.entries:  # solutions are kept: the log can be checked again
        puzzle = Grid.parse(entry.puzzle)
        for run in entry.runs:
            assert (
                run.solution is not None and check_completion(puzzle, Grid.parse(run.solution)).ok
            )


@pytest.mark.parametrize("name", sudoku_cp.__all__)
def test_every_name_of_the_package_root_loads(name: str) -> None:
    """The root loads its names on first use (PEP 562): each is listed and loads."""
    value = getattr(sudoku_cp, name)
    assert name in dir(sudoku_cp)
    assert name == "__version__" or value.__module__.startswith("sudoku_cp.")


# The arguments, checked as the command line checks its options.

LINE = "".join((EXAMPLES / "baekjoon2239.txt").read_text().split())


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
