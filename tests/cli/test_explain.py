"""`sudoku-cp explain`: text and jsonl output, --check, --why-unsat, and bad input as one line
and exit 2."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import sudoku_cp.explain.job as job_module
from sudoku_cp.cli import main
from sudoku_cp.explain.steps import Step

from ..conftest import BAEKJOON_2239, UNSOLVABLE_4

HARD = "400030000000600800000000001000050090080000600070200000000102700503000040900000000"


def invoke(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, ["explain", *args], input=stdin)


def test_text_shows_steps_and_the_grid_after_the_chosen_step() -> None:
    result = invoke("-", "--step", "0", stdin=BAEKJOON_2239 + "\n")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("<stdin>:1: solved in ") and lines[0].endswith(
        "rating 1 (hidden single)"
    )
    assert lines[1].startswith("  1. hidden single")
    assert "the start:" in lines
    assert max(map(len, lines)) <= 80


def test_stuck_says_after_how_many_steps_and_complete_goes_on() -> None:
    stuck = invoke("-", stdin=HARD + "\n")
    assert (
        stuck.exit_code == 0 and "stuck after 20 steps, rating 11 (contradiction)" in stuck.stdout
    )
    done = invoke("-", "--complete", "--techniques", "singles", "--format", "jsonl", stdin=HARD)
    record = json.loads(done.stdout)
    assert record["status"] == "solved" and record["rating"]["level"] == 11
    assert any(step["technique"] == "contradiction" for step in record["steps"])


def test_jsonl_one_record_per_puzzle_with_check_and_core() -> None:
    result = invoke(
        "-",
        "--format",
        "jsonl",
        "--check",
        "--why-unsat",
        stdin=f"{BAEKJOON_2239}\n{UNSOLVABLE_4}\n",
    )
    assert result.exit_code == 0, result.output
    first, second = map(json.loads, result.stdout.splitlines())
    assert first["source"] == "<stdin>:1" and first["status"] == "solved"
    assert first["check"]["sound"] and first["check"]["completions"] == "unique"
    assert second["status"] == "unsatisfiable" and second["unsat_core"] == [
        [1, 2, 1],
        [1, 3, 2],
        [2, 1, 3],
        [3, 1, 4],
    ]


def test_why_unsat_draws_the_core() -> None:
    result = invoke("-", "--why-unsat", stdin=UNSOLVABLE_4)
    assert "no completion: a minimal core of 4 givens (of 4):" in result.stdout
    assert "minimal: checked" in result.stdout


def test_a_step_that_fails_its_check_is_wrong_exit_1(monkeypatch) -> None:
    real = job_module.explain

    def broken(grid, **options):
        explanation = real(grid, **options)
        blank = grid.blanks()[0]
        explanation.steps.insert(0, Step("x-wing", eliminations=((blank, 1), (blank, 4))))
        return explanation

    monkeypatch.setattr(job_module, "explain", broken)
    result = invoke("-", "--check", stdin=BAEKJOON_2239)
    assert result.exit_code == 1
    assert (
        "<stdin>:1: wrong: step 1 (x-wing): r1c2<>4, but a completion has 4 there" in result.stdout
    )


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (("--techniques", "singles,magic"), BAEKJOON_2239, "Error: unknown technique 'magic'"),
        ((), "11" + BAEKJOON_2239[2:], "Error: <stdin>:1: not a valid puzzle: row 1 has two 1s"),
        ((), "12345", "Error: <stdin>:1: expected N*N symbols"),
        (("--step", "500"), BAEKJOON_2239, "Error: --step 500: <stdin>:1 has "),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, stdin: str, message: str) -> None:
    result = invoke("-", *args, stdin=stdin)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(message)
    assert len(result.stderr.splitlines()) == 1
    assert "Traceback" not in result.output


def test_why_unsat_certify_certifies_the_core() -> None:
    pytest.importorskip("dratify")
    result = invoke("-", "--why-unsat", "--certify", "--format", "jsonl", stdin=UNSOLVABLE_4)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["unsat_core_certified"] is True
    refused = invoke("-", "--certify", stdin=UNSOLVABLE_4)
    assert refused.exit_code == 2
    assert (
        refused.stderr == "Error: --certify certifies unsatisfiable cores: it needs --why-unsat\n"
    )
