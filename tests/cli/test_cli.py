"""The `sudoku-cp` group: help for every command, the console script and `python -m sudoku_cp`,
a start-up that loads no solver for dfs, and the input errors every command reports alike."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sudoku_cp.cli import main

from ..conftest import BAEKJOON_2239, BAEKJOON_2239_ANSWER, EXAMPLES


def test_every_command_has_help(run):
    for command in main.commands:
        result = run(command, "--help")
        assert result.exit_code == 0 and "Usage:" in result.stdout


def test_console_script_and_module_entry_point():
    answer = subprocess.run(
        [
            sys.executable,
            "-m",
            "sudoku_cp",
            "solve",
            "--format",
            "line",
            str(EXAMPLES / "baekjoon2239.txt"),
        ],
        capture_output=True,
        text=True,
    )
    assert (answer.returncode, answer.stdout) == (0, BAEKJOON_2239_ANSWER + "\n")


def test_solve_with_dfs_never_imports_a_solver():
    # Nor the plugin scan (importlib.metadata reads every installed package) nor the API's
    # results log: start-up is part of every short run.
    code = (
        "import sys, runpy; sys.argv = ['sudoku-cp', 'solve', '--format', 'line', "
        f"{str(EXAMPLES / 'baekjoon2239.txt')!r}]\n"
        "try:\n    runpy.run_module('sudoku_cp', run_name='__main__')\n"
        "except SystemExit:\n    pass\n"
        "print(sorted(({m.split('.')[0] for m in sys.modules}\n"
        "              & {'ortools', 'pysat', 'z3', 'exact', 'pychoco'})\n"
        "             | ({'importlib.metadata', 'sudoku_cp.api', 'sudoku_cp.results'}\n"
        "                & set(sys.modules))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.splitlines() == [BAEKJOON_2239_ANSWER, "[]"]


@pytest.mark.parametrize("command", ["solve", "crosscheck", "bench"])
def test_a_box_that_fits_no_puzzle_is_one_error(run, command):
    """Issue 24.12: a wrong --box gave one 'invalid' line and one error line per puzzle."""
    lines = (BAEKJOON_2239.replace("\n", "") + "\n") * 50
    extra = ["--no-setup"] if command == "bench" else []
    result = run(command, "--box", "2x3", "-b", "dfs", *extra, stdin=lines)
    assert result.exit_code == 2
    assert "invalid" not in result.stdout
    assert result.stderr.strip().splitlines() == [
        "Error: <stdin>:1: a 2x3 box does not fit a 9x9 grid (81 symbols), as --box asks; "
        "nothing more is read from this source"
    ]


@pytest.mark.parametrize("command", ["solve", "crosscheck", "bench", "encode"])
def test_unreadable_input_stops_every_command_with_one_line(run, command):
    result = run(command, stdin=b"\x00binary")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        "Error: <stdin>:1: binary data, not a puzzle (a NUL byte at offset 0)\n"
    )
