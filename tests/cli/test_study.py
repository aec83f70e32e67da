"""`sudoku-cp bench --config STUDY.toml`: the file's keys are bench's long options, the command
line overrides them, several modes make a log each, the reports are written at the end, resume
continues each log, and a bad file is one line naming the file and the key, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ..bench_helpers import TINY, bench_table, invoke, lines_of, puzzles_of


def study(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "study.toml"
    path.write_text(text)
    return path


def test_a_study_file_gives_bench_its_options(tmp_path: Path) -> None:
    log, scores = tmp_path / "r.jsonl", tmp_path / "scores.json"
    path = study(
        tmp_path,
        f"inputs = {json.dumps([str(TINY[1]), str(TINY[0])])}\n"
        'backends = ["dfs", "sat[amo=pairwise|ladder]"]\n'
        "time-limit = 5\nrepeat = 2\nsetup = false\n"
        f'results = "{log}"\nreport = ["{scores}"]\n',
    )
    result = invoke("bench", "--config", path)
    assert result.exit_code == 0, result.output
    table = bench_table(result.stdout)
    assert {label for _, label in table} == {"dfs", "sat pairwise", "sat ladder", "VBS"}
    header = lines_of(log)[0]
    assert header["settings"]["time_limit"] == 5.0 and header["settings"]["repeat"] == 2
    assert [entry["label"] for entry in header["settings"]["backends"]] == [
        "dfs",
        "sat[amo=pairwise]",
        "sat[amo=ladder]",
    ]
    assert header["inputs"] == [str(TINY[1]), str(TINY[0])]
    assert "bench set-up" not in result.stderr  # setup = false
    assert json.loads(scores.read_text())["time_limit"] == 5.0
    assert f"Wrote {scores}" in result.stderr


def test_the_command_line_overrides_the_study_file(tmp_path: Path) -> None:
    log = tmp_path / "r.jsonl"
    path = study(
        tmp_path,
        f'sets = ["{TINY[0]}", "{TINY[1]}"]\nbackends = "dfs,sat"\ntime-limit = 5\n'
        f'no-setup = true\nresults = "{tmp_path / "file.jsonl"}"\n',
    )
    result = invoke(
        "bench", "--config", path, "--backends", "dfs", "--time-limit", 1, "--results", log
    )
    assert result.exit_code == 0, result.output
    header = lines_of(log)[0]
    assert header["settings"]["time_limit"] == 1.0
    assert [entry["label"] for entry in header["settings"]["backends"]] == ["dfs"]
    assert not (tmp_path / "file.jsonl").exists()
    assert len(puzzles_of(log)) == 2  # the inputs still come from the file


def test_several_modes_write_a_log_each_and_resume_continues_them(tmp_path: Path) -> None:
    path = study(
        tmp_path,
        f'inputs = ["{TINY[1]}"]\nbackends = ["dfs"]\nmode = ["lexmin", "any"]\n'
        f'setup = false\nresults = "{tmp_path / "r.jsonl"}"\n'
        'report = ["both.csv"]\n',  # beside the logs
    )
    result = invoke("bench", "--config", path)
    assert result.exit_code == 0, result.output
    assert "Mode lexmin" in result.stdout and "Mode any" in result.stdout
    logs = [tmp_path / f"r-{mode}.jsonl" for mode in ("lexmin", "any")]
    assert [lines_of(log)[0]["settings"]["mode"] for log in logs] == ["lexmin", "any"]
    assert [len(puzzles_of(log)) for log in logs] == [1, 1]
    summary = (tmp_path / "both.csv").read_text()
    assert "lexmin" in summary and "any" in summary  # one report of both logs
    again = invoke("bench", "--config", path, "--resume")
    assert again.exit_code == 0, again.output
    assert again.stderr.count("were already measured") == 2
    assert [len(puzzles_of(log)) for log in logs] == [1, 1]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('modes = "any"\n', "unknown key 'modes' (the keys: "),
        ('first = "3"\n', "first must be a whole number, not '3'"),
        ("setup = 1\n", "setup must be true or false, not 1"),
        ('mode = "lexmn"\n', "mode: 'lexmn' is not one of lexmin, any, count"),
        ('mode = "any,any"\n', "mode: 'any,any' names a mode twice"),
        ('time-limit = "soon"\n', "time-limit: 'soon' is not a number of seconds"),
        ("backends = [1]\n", "backends must be a string or a list of strings, not [1]"),
        ("inputs = 3\n", "inputs must be a list of strings, not 3"),
        ("x = [\n", "not a TOML file: "),
        ('executor = "far"\n', "executor: 'far' is not one of"),
    ],
)
def test_a_bad_study_file_is_one_line_naming_the_file_and_key(
    tmp_path: Path, text: str, message: str
) -> None:
    path = study(tmp_path, text)
    result = invoke("bench", "--config", path)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: {path}: {message}"), result.stderr
    assert result.stderr.count("\n") == 1 and result.stdout == ""


def test_the_unknown_key_line_lists_the_long_options(tmp_path: Path) -> None:
    result = invoke("bench", "--config", study(tmp_path, "modes = 1\n"))
    keys = result.stderr.split("(the keys: ")[1].rstrip(")\n").split(", ")
    assert {"inputs", "sets", "backends", "mode", "time-limit", "report", "setup"} <= set(keys)
    assert "config" not in keys and "out" not in keys  # nor hidden earlier names


def test_a_missing_study_file_is_one_line(tmp_path: Path) -> None:
    result = invoke("bench", "--config", tmp_path / "none.toml")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: {tmp_path / 'none.toml'}: cannot read")


def test_report_needs_results() -> None:
    result = invoke("bench", TINY[1], "--report", "x.md")
    assert (result.exit_code, result.stderr) == (
        2,
        "Error: --report needs --results FILE (the results log the report is made of)\n",
    )
