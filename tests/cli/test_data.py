"""`sudoku-cp data`: list the public sets (and which are here), fetch them, print a set's
verified path; a set name wherever a command reads puzzles."""

from __future__ import annotations

import os

from click.testing import CliRunner

from sudoku_cp import datasets
from sudoku_cp.cli.data import data

from ..conftest import BAEKJOON_2239_ANSWER
from ..datasets import conftest as sets
from ..http_mirror import Mirror

# The puzzle-set tests' fixtures: the cache isolated (autouse), TINY on a local mirror.
isolated, mirror, tiny_registered = sets.isolated, sets.mirror, sets.tiny_registered
TINY = sets.TINY


def test_data_list_shows_every_set() -> None:
    result = CliRunner().invoke(data, ["list"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    rows = [line.split()[0] for line in lines[1:] if line and not line.startswith(" ")]
    assert rows == [*datasets.names(), "HERE:"]
    assert result.output.splitlines()[1].split() == ["easy50", "50", "9x9", "4", "kB", "-"]
    assert "norvig/pytudes py/sudoku-easy50.txt @414fe25, licence: MIT" in result.output


def test_data_list_says_which_sets_are_here(tiny_registered: Mirror) -> None:
    datasets.fetch("tiny")
    result = CliRunner().invoke(data, ["list"])
    assert [line.split() for line in result.output.splitlines() if line.startswith("tiny")] == [
        ["tiny", "3", "9x9", "1", "kB", "cached"]
    ]


def test_data_path_prints_the_verified_file(tiny_registered: Mirror) -> None:
    result = CliRunner().invoke(data, ["path", "tiny"])
    assert (result.exit_code, result.output) == (
        0,
        os.path.join(os.environ[datasets.ENV_CACHE], "tiny.txt") + "\n",
    )
    assert CliRunner().invoke(data, ["path"]).output == os.environ[datasets.ENV_CACHE] + "\n"


def test_data_path_no_download_is_one_error_line(tiny_registered: Mirror) -> None:
    result = CliRunner().invoke(data, ["path", "--no-download", "tiny"])
    assert result.exit_code == 2
    assert result.output.startswith("Error: tiny: not downloaded yet and downloads are off")
    assert result.output.count("\n") == 1
    assert tiny_registered.requests_for(TINY) == 0


def test_data_fetch_tries_every_name_and_fails_with_2(tiny_registered: Mirror) -> None:
    result = CliRunner().invoke(data, ["fetch", "nope", "tiny"])
    assert result.exit_code == 2
    assert result.stdout == f"tiny\t{os.path.join(os.environ[datasets.ENV_CACHE], 'tiny.txt')}\n"
    assert result.stderr.startswith("Error: nope: not a known puzzle set (known: easy50, ")


def test_data_fetch_wants_names_or_all() -> None:
    for arguments in (["fetch"], ["fetch", "--all", "easy50"]):
        result = CliRunner().invoke(data, arguments)
        assert (result.exit_code, result.output) == (
            2,
            "Error: name the sets to fetch, or give --all (not both)\n",
        )


def test_sudoku_cp_has_the_data_commands() -> None:
    from sudoku_cp.cli import main

    result = CliRunner().invoke(main, ["data", "list"])
    assert result.exit_code == 0, result.output
    assert [
        line.split()[0] for line in result.output.splitlines() if line and not line.startswith(" ")
    ][1:12] == datasets.names()


def test_a_command_reading_puzzles_takes_a_set_name(tiny_registered: Mirror) -> None:
    from sudoku_cp.cli import main

    refused = CliRunner().invoke(main, ["solve", "--no-download", "tiny"])
    assert refused.exit_code == 2
    assert refused.stderr.startswith("Error: tiny: not downloaded yet and downloads are off")
    solved = CliRunner().invoke(main, ["solve", "tiny"])
    assert solved.exit_code == 0, solved.output
    assert solved.stdout.splitlines()[0] == BAEKJOON_2239_ANSWER
    assert tiny_registered.requests_for(TINY) == 1
