"""`sudoku-cp generate`: the exact output, progress within a puzzle, JSON Lines, and bad options
as one line and exit 2."""

from __future__ import annotations

import functools
import io
import json
import re
import signal

import pytest
from click.testing import CliRunner

import sudoku_cp.cli.generate as cli
from sudoku_cp import __version__
from sudoku_cp.cli import main
from sudoku_cp.generate import Kind
from sudoku_cp.grid import Grid
from sudoku_cp.progress import Progress

from ..generate.conftest import made
from .conftest import cli as spawn
from .conftest import wait_for


def invoke(*args: str):
    return CliRunner().invoke(main, ["generate", *args])


def test_cli_line_format_exact_output():
    result = invoke(
        "--size", "4", "--count", "2", "--givens", "5..6", "--kind", "unique", "--seed", "9"
    )
    assert result.exit_code == 0, result.output
    puzzles = made("unique", 4, "5..6", seed=9, count=2)
    assert result.stdout == "\n".join(
        [
            "# sudoku-cp generate --kind unique --size 4 --count 2 --givens 5..6 --seed 9",
            f"# sudoku-cp {__version__}: the same command and version give the same puzzles",
            "# unique: exactly one completion; givens removed at random while it stays unique",
            "# each puzzle line (N*N symbols, 0 blank) follows a comment with its facts",
            f"# 1: givens={puzzles[0].givens} completions=1",
            puzzles[0].puzzle.to_line(),
            f"# 2: givens={puzzles[1].givens} completions=1",
            puzzles[1].puzzle.to_line(),
            f"# 2 puzzles, givens {min(p.givens for p in puzzles)}.."
            f"{max(p.givens for p in puzzles)}"
            f" (mean {sum(p.givens for p in puzzles) / 2:.1f})",
            "",
        ]
    )
    assert result.stderr == ""


def test_cli_shows_progress_within_a_puzzle(monkeypatch):
    # On a terminal, the display moves with every completion count, not only per puzzle (a
    # sparse 25x25 puzzle can take minutes).
    screen = io.StringIO()
    monkeypatch.setattr(
        cli, "Progress", functools.partial(Progress, stream=screen, enabled=True, interval=0)
    )
    result = invoke("--size", "9", "--givens", "22..28", "--seed", "2")
    assert result.exit_code == 0
    assert "\rgenerate 0 " in screen.getvalue()
    assert re.search(r"\rgenerate 0 removing givens, \d+ left; 1 question, ", screen.getvalue())
    assert re.search(r"; 2 questions, \d+\.\d s\x1b", screen.getvalue())


def test_cli_progress_fits_80_columns_and_shows_a_rate_only_once_there_is_one(monkeypatch):
    # Each redraw must fit the line (a longer one wraps, and every redraw leaves a copy), and
    # before the first puzzle there is no rate or ETA to show ('0/3 (0%) 0.0/s ETA 0:00').
    screen = io.StringIO()
    monkeypatch.setattr(
        cli, "Progress", functools.partial(Progress, stream=screen, enabled=True, interval=0)
    )
    result = invoke("--size", "9", "--count", "3", "--givens", "22..28", "--seed", "2")
    assert result.exit_code == 0
    draws = [draw.removesuffix("\x1b[K") for draw in screen.getvalue().strip().split("\r")[1:]]
    assert draws and all(len(draw) < 80 for draw in draws)
    before = [draw for draw in draws if draw.startswith("generate 0/3 (0%)")]
    assert before and not any("/s" in draw or "ETA" in draw for draw in before)
    assert any(
        re.match(r"generate 1/3 \(33%\) (\d+\.\d/s|\d+ s each) ETA ", draw) for draw in draws
    )


def test_cli_says_a_big_grid_takes_minutes(monkeypatch):
    # The note comes before the first puzzle, on stderr (a 26x26 is made small here by moving
    # the size it starts at).
    monkeypatch.setattr("sudoku_cp.generate.output.SLOW_FROM_SIZE", 4)
    result = invoke("--size", "4")
    assert result.exit_code == 0
    assert result.stderr.startswith("Note: a unique 4x4 puzzle takes many minutes to make")
    assert invoke("--size", "4", "--kind", "multi").stderr == ""


def test_cli_output_is_readable_by_solve(tmp_path):
    target = tmp_path / "multi.txt"
    assert (
        invoke(
            "--size", "6", "--count", "3", "--kind", "multi", "--seed", "1", "-o", str(target)
        ).exit_code
        == 0
    )
    result = CliRunner().invoke(main, ["solve", "--mode", "count", "--limit", "1000", str(target)])
    facts = [line for line in target.read_text().splitlines() if re.match(r"# \d+:", line)]
    counts = [re.search(r"completions=(\d+)", line).group(1) for line in facts]
    assert result.exit_code == 0
    assert [line.rstrip("+") for line in result.stdout.splitlines()] == counts


def test_cli_jsonl_fields():
    result = invoke(
        "--size",
        "9",
        "--count",
        "2",
        "--kind",
        "adversarial",
        "--givens",
        "22..26",
        "--seed",
        "3",
        "--format",
        "jsonl",
    )
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["index"] for r in records] == [0, 1]
    first = records[0]
    assert {
        "kind",
        "size",
        "box",
        "seed",
        "puzzle",
        "solution",
        "givens",
        "completions",
        "naive_nodes",
        "naive_finished",
        "version",
        "command",
    } <= set(first)
    assert (first["kind"], first["size"], first["box"], first["completions"]) == (
        "adversarial",
        9,
        "3x3",
        1,
    )
    assert first["solution"].startswith("987654321")
    assert first["command"] == (
        "sudoku-cp generate --kind adversarial --size 9 --count 2 --givens 22..26 --seed 3"
    )
    assert Grid.parse(first["solution"]).is_solution_of(Grid.parse(first["puzzle"]))


def test_cli_unsat_multi_comments():
    result = invoke("--size", "4", "--kind", "multi", "--count", "1", "--givens", "4")
    assert re.search(r"^# 1: givens=4 completions=\d+$", result.stdout, re.M)
    result = invoke("--size", "4", "--kind", "unsat", "--count", "1")
    assert re.search(r"^# 1: givens=\d+ completions=0$", result.stdout, re.M)


def test_cli_notes_puzzles_outside_the_range():
    result = invoke("--size", "4", "--count", "2", "--givens", "0..1")
    assert result.exit_code == 0
    assert result.stderr == (
        "Note: 2 of 2 puzzles ended outside --givens 0..1: stopped at a minimal puzzle.\n"
    )
    assert "2 outside 0..1 (stopped at a minimal puzzle)" in result.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["--givens", "30..20"], "Error: givens 30..20: the low end 30 is above the high end 20"),
        (["--size", "7"], "Error: no box shape fits size 7 (it is prime)"),
        (["--size", "6", "--box", "2x2"], "Error: a 2x2 box does not fit a 6x6 grid"),
        (["--box", "3by3"], "Error: expected a box shape like 2x3, got '3by3'"),
        (
            ["--count", "0"],
            "Error: Invalid value for '--count': 0 is not in the range x>=1. "
            "(see sudoku-cp generate --help)",
        ),
        (["--givens", "x"], "Error: expected givens as A..B (e.g. 24..30), got 'x'"),
        (["--size", "4", "--givens", "17"], "Error: givens 17: a 4x4 grid has only 16 cells"),
        (
            ["--seed", "-1"],  # random.Random would take it as 1, and repeat seed 1's puzzles
            "Error: Invalid value for '--seed': -1 is not in the range x>=0. "
            "(see sudoku-cp generate --help)",
        ),
        (
            ["--kind", "multi", "--givens", "81"],
            "Error: givens 81..81: a multi puzzle keeps at most 77 of the 81 cells (its two "
            "completions differ in at least 4 cells, which stay blank)",
        ),
    ],
)
def test_cli_bad_options_one_line_exit_2(args, message):
    result = invoke(*args)
    assert result.exit_code == 2
    assert result.stderr == message + "\n"
    assert result.stdout == ""


def test_cli_kind_choices_are_the_library_kinds():
    """The `--kind` choices are read from the click command, so a kind added to `Kind` but
    not to the CLI (or the other way round) fails here."""
    (option,) = [param for param in main.commands["generate"].params if param.name == "kind"]
    choices = list(option.type.choices)
    assert choices == [kind.value for kind in Kind]
    assert option.default == Kind.UNIQUE.value
    result = invoke("--kind", "easy")
    assert result.exit_code == 2
    assert ", ".join(repr(choice) for choice in choices) in result.stderr


@pytest.mark.parametrize(
    ("signum", "code", "word"),
    [(signal.SIGINT, 130, "Interrupted"), (signal.SIGTERM, 143, "Terminated")],
    ids=["Ctrl-C", "SIGTERM"],
)
def test_a_stopped_run_keeps_a_valid_file_that_says_it_was_stopped(tmp_path, signum, code, word):
    # The header claims --count 100000; the file must say how many it holds and why, and still
    # be a puzzle file every reader takes (an empty 'sudoku-cp solve' is the test of that).
    target = tmp_path / "p.txt"
    process = spawn("generate", "--count", "100000", "-o", str(target))
    try:
        wait_for(lambda: "\n# 3:" in target.read_text() if target.exists() else False)
        process.send_signal(signum)
        _, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    lines = target.read_text().splitlines()
    puzzles = [line for line in lines if line and not line.startswith("#")]
    assert process.returncode == code, stderr
    assert stderr == f"{word} after {len(puzzles)} of 100000 puzzles (in {target}).\n"
    assert lines[-1] == (
        f"# {word} after {len(puzzles)} of 100000 puzzles: these {len(puzzles)} puzzles are "
        f"those of --count {len(puzzles)}"
    )
    assert lines[-2].startswith(f"# {len(puzzles)} puzzles, givens ")
    assert puzzles == [
        puzzle.puzzle.to_line()
        for puzzle in made("unique", 9, "22..32", seed=0, count=len(puzzles))
    ]
    solved = CliRunner().invoke(main, ["solve", str(target), "--format", "line"])
    assert solved.exit_code == 0 and len(solved.stdout.splitlines()) == len(puzzles)
