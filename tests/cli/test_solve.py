"""`sudoku-cp solve`: exact output in every layout, from files and stdin, counts, timeouts, box
shapes, a backend's failure, and bad input as one line and exit 2."""

from __future__ import annotations

import json
import os
import pty
import subprocess

import pytest

from ..conftest import (
    BAEKJOON_2239,
    BAEKJOON_2239_ANSWER,
    EMPTY_9_LEXMIN,
    EXAMPLES,
    random_multi_solution,
)
from ..wrong_backends import wrong_backends  # noqa: F401 (a fixture)
from .conftest import cli


def rows(line: str, size: int = 9) -> str:
    return "\n".join(line[r * size : (r + 1) * size] for r in range(size)) + "\n"


def test_baekjoon_2239_example_exact_output(run):
    result = run("solve", str(EXAMPLES / "baekjoon2239.txt"))
    assert result.exit_code == 0
    assert result.stdout == rows(BAEKJOON_2239_ANSWER)


def test_baekjoon_2239_from_stdin(run):
    result = run("solve", stdin=rows(BAEKJOON_2239))
    assert (result.exit_code, result.stdout) == (0, rows(BAEKJOON_2239_ANSWER))


def test_baekjoon_2580_spaced_in_spaced_out(run):
    result = run("solve", "--mode", "any", str(EXAMPLES / "baekjoon2580.txt"))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 9 and lines[0] == "1 3 5 4 6 9 2 7 8"


def test_line_in_line_out_keeps_one_line_per_puzzle(run):
    stdin = f"{'0' * 81}\n{'55' + '0' * 79}\n{'x' * 81}\n{BAEKJOON_2239}\n"
    result = run("solve", stdin=stdin)
    assert result.exit_code == 2  # one line was not a puzzle
    assert result.stdout.splitlines() == [
        EMPTY_9_LEXMIN,
        "unsatisfiable",
        "invalid",
        BAEKJOON_2239_ANSWER,
    ]
    assert result.stderr.splitlines() == [
        "<stdin>:2: unsatisfiable: row 1 has two 5s",
        "<stdin>:3:1: unknown symbol 'x' (a 9x9 puzzle uses 0 or . for blank and 1-9)",
    ]


def test_unsatisfiable_exits_1(run):
    result = run("solve", stdin="55" + "0" * 79 + "\n")
    assert (result.exit_code, result.stdout) == (1, "unsatisfiable\n")


def test_format_override(run):
    result = run("solve", "--format", "line", str(EXAMPLES / "baekjoon2239.txt"))
    assert result.stdout == BAEKJOON_2239_ANSWER + "\n"
    result = run("solve", "--format", "spaced", stdin="0" * 16 + "\n")
    assert result.stdout == "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n"


def test_jsonl_fields(run):
    result = run(
        "solve",
        "--format",
        "jsonl",
        "--mode",
        "count",
        "--count-limit",
        "3",
        stdin="0" * 16 + "\n" + "11" + "0" * 14 + "\n",
    )
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert result.exit_code == 1
    assert {
        "index",
        "puzzle",
        "status",
        "solution",
        "backend",
        "mode",
        "seconds",
        "stats",
        "count",
    } <= set(first)
    assert (
        first["index"],
        first["status"],
        first["count"],
        first["limit_reached"],
        first["backend"],
        first["mode"],
    ) == (0, "solved", 3, True, "dfs", "count")
    assert (second["status"], second["count"], second["solution"], second["reason"]) == (
        "unsatisfiable",
        0,
        None,
        "row 1 has two 1s",
    )


def test_count_text_output(run):
    given = f"{'0' * 16}\n{BAEKJOON_2239}\n"
    result = run("solve", "--mode", "count", "--count-limit", "5", stdin=given)
    assert (result.exit_code, result.stdout) == (0, "5+\n1\n")
    # The option's earlier flag still works, with one line naming the new one.
    old = run("solve", "--mode", "count", "--limit", "5", stdin=given)
    assert (old.exit_code, old.stdout) == (0, "5+\n1\n")
    assert old.stderr == "warning: --limit is now --count-limit (the old word still works)\n"


def test_timeout_exits_1(run):
    # The empty 64x64: dfs fills the empty 25x25 in about 0.1 s now, well inside 0.2 s.
    result = run("solve", "--time-limit", "0.2", stdin="0" * 64**2 + "\n")
    assert result.exit_code == 1
    assert result.stdout == "timeout\n"
    assert "timeout: no answer within 0.2 s" in result.stderr


def test_rectangular_box_option(run):
    result = run("solve", "--box", "3x2", stdin="0" * 36 + "\n")
    assert result.exit_code == 0
    # The shape is declared before the first answer, so the output reads back as 3x2 boxes.
    assert result.stdout == "# box: 3x2\n123456345612561234214365436521652143\n"
    again = run("solve", "--mode", "count", stdin=result.stdout)
    assert again.exit_code == 0 and again.stdout == "1\n"


def test_the_default_shape_is_never_declared(run):
    result = run("solve", "--format", "grid", stdin="0" * 36 + "\n")
    assert result.exit_code == 0 and not result.stdout.startswith("#")


def test_generated_files_read_back_with_their_box_shape(run, tmp_path):
    """Issue 24.11: a 6x6 generated with 3x2 boxes was read back with 2x3 ones, and its three
    valid puzzles reported unsatisfiable (crosscheck: '3 agree')."""
    path = tmp_path / "g6.txt"
    made = run(
        "generate", "--size", "6", "--box", "3x2", "--count", "3", "--seed", "1", "-o", str(path)
    )
    assert made.exit_code == 0 and "# box: 3x2" in path.read_text().splitlines()
    solved = run("solve", str(path))
    assert solved.exit_code == 0 and "unsatisfiable" not in solved.stdout
    checked = run("crosscheck", str(path), "-b", "dfs,sat")
    assert checked.exit_code == 0
    wrong = run("solve", str(path), "--box", "2x3")
    assert wrong.exit_code == 2 and wrong.stdout == ""
    assert wrong.stderr.strip().endswith(
        "the file declares box 3x2, --box says 2x3: drop --box, or give the file's shape"
    )
    assert len(wrong.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "args, stdin, message",
    [
        (
            ["solve", "missing.txt"],
            None,
            "Error: missing.txt: no such file, and not a known puzzle set",
        ),
        (["solve"], "", "Error: <stdin>: empty input: no puzzle found"),
        (
            ["solve"],
            b"\x00\x01garbage",
            "Error: <stdin>:1: binary data, not a puzzle (a NUL byte at offset 0)",
        ),
        (
            ["solve"],
            "1234567\n" * 7,
            "Error: <stdin>:1: no Sudoku has rows of 7 values (it is prime)",
        ),
        (
            ["solve"],
            rows(BAEKJOON_2239)[:-11],
            "Error: <stdin>:1: expected 9 rows for a 9x9 puzzle, got 8",
        ),
        (["solve", "--box", "2by3"], "0" * 36, "Error: expected a box shape like 2x3, got '2by3'"),
        (["solve", "--box", "2x2"], "0" * 36, "a 2x2 box does not fit a 6x6 grid"),
        (
            ["solve", "--backend", "nope"],
            "0" * 16,
            "Error: unknown backend 'nope' (choose from dfs, cpsat, sat, dlx",
        ),
        (["solve", "--workers", "2"], "0" * 16, "Error: --workers applies to cpsat, not to dfs"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(run, args, stdin, message):
    result = run(*args, stdin=stdin)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_ten_megabyte_line(run):
    result = run("solve", stdin="1" * 10_000_000 + "\n")
    assert result.exit_code == 2
    assert len(result.stderr) < 300


def test_a_backend_failure_is_reported_and_the_batch_goes_on(run, monkeypatch):
    from sudoku_cp.backends import registered

    stdin = "8" + "0" * 80 + "\n" + "0" * 16 + "\n"
    with registered("broken", "tests.wrong_backends", "FailingBackend"):
        result = run("solve", "--backend", "broken", stdin=stdin)
        assert result.exit_code == 1
        assert result.stdout.splitlines() == ["error", "1234341221434321"]
        assert result.stderr == (
            "<stdin>:1: broken error: BackendFailure: solver returned status 99\n"
        )
        result = run("solve", "--backend", "broken", "--format", "jsonl", stdin=stdin)
    first = json.loads(result.stdout.splitlines()[0])
    assert (first["status"], first["reason"]) == (
        "error",
        "BackendFailure: solver returned status 99",
    )


def test_solve_with_each_backend_through_the_cli(run):
    for backend in ("dfs", "cpsat", "sat"):
        result = run("solve", "--backend", backend, str(EXAMPLES / "baekjoon2239.txt"))
        assert (result.exit_code, result.stdout) == (0, rows(BAEKJOON_2239_ANSWER)), backend


def test_sat_solver_option_is_validated(run):
    result = run("solve", "--backend", "sat", "--sat-solver", "kissat404", stdin="0" * 16)
    assert result.exit_code == 2 and "kissat404" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_on_a_terminal_solve_says_it_reads_standard_input():
    # With no file, solve reads standard input: on a terminal it would seem to hang.
    leader, follower = pty.openpty()
    process = cli("solve", stdin=follower)
    os.close(follower)
    try:
        os.write(leader, f"{BAEKJOON_2239}\n".encode())
        os.write(leader, b"\x04")  # Ctrl-D at the start of a line: the end of the input
        stdout, stderr = process.communicate(timeout=120)
    finally:
        process.kill()
        os.close(leader)
    assert stderr == "Reading puzzles from standard input (Ctrl-D to end).\n"
    assert (process.returncode, stdout) == (0, BAEKJOON_2239_ANSWER + "\n")


def test_from_a_pipe_solve_reads_without_a_word():
    process = cli("solve", stdin=subprocess.PIPE)
    stdout, stderr = process.communicate(f"{BAEKJOON_2239}\n", timeout=120)
    assert (process.returncode, stdout, stderr) == (0, BAEKJOON_2239_ANSWER + "\n", "")


@pytest.mark.usefixtures("wrong_backends")
def test_certify_says_how_many_answers_are_certified_and_what_failed(run):
    # --certify was invisible in the text output: the answers looked the same with or without.
    pytest.importorskip("dratify")
    stdin = f"{BAEKJOON_2239}\n{random_multi_solution(9, 30, 1).to_line()}\n"
    certified = run("solve", "--certify", "--format", "line", stdin=stdin)
    assert certified.exit_code == 0
    assert certified.stderr == "2/2 answers certified\n"
    refused = run("solve", "-b", "notlexmin", "--certify", "--format", "line", stdin=stdin)
    assert refused.exit_code == 1
    assert refused.stderr.splitlines()[-1] == (
        "1/2 answers certified; 1 not certified, counted as wrong"
    )


def test_an_invalid_line_is_one_word_in_every_format_and_kept_whole_in_jsonl(run):
    long_line = "1234567890" * 8 + "123456"  # 86 characters: no size's square
    stdin = f"{long_line}\n{BAEKJOON_2239}\n"
    shown = {
        layout: run("solve", "--format", layout, stdin=stdin).stdout.splitlines()[0]
        for layout in ("line", "grid", "spaced")
    }
    jsonl = json.loads(run("solve", "--format", "jsonl", stdin=stdin).stdout.splitlines()[0])
    assert set(shown.values()) == {jsonl["status"]} == {"invalid"}
    assert jsonl["puzzle"] == long_line and "puzzle_length" not in jsonl


def test_a_runaway_invalid_line_is_cut_with_its_length_said(run):
    from sudoku_cp.results_log.records import INVALID_LINE_KEPT

    runaway = "7" * (INVALID_LINE_KEPT + 10)
    result = run("solve", "--format", "jsonl", stdin=runaway + "\n")
    line = json.loads(result.stdout)
    assert line["puzzle"] == runaway[:INVALID_LINE_KEPT]
    assert line["puzzle_length"] == INVALID_LINE_KEPT + 10


def test_certify_refuses_a_count_limit_it_could_not_certify(run):
    pytest.importorskip("dratify")
    result = run(
        "solve", "--mode", "count", "--count-limit", "1001", "--certify", stdin="0" * 16 + "\n"
    )
    assert result.exit_code == 2
    assert result.stderr == (
        "Error: --count-limit 1001 with --certify: certify enumerates at most 1000 "
        "completions, so a count above that could not be certified\n"
    )
