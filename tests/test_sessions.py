"""sessions: one crosscheck and one bench session under both faces. A log written by the command
line resumes through the Python API and the reverse; a resumed log is checked again, record by
record, header by header."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import sudoku_cp
from sudoku_cp.cli import main
from sudoku_cp.errors import ResultsFileError

from .conftest import BAEKJOON_2239, random_multi_solution


def puzzles(tmp_path: Path, count: int = 6) -> Path:
    path = tmp_path / "p.txt"
    path.write_text(
        "".join(random_multi_solution(9, 30, seed).to_line() + "\n" for seed in range(count))
    )
    return path


def cli(*args: str) -> object:
    return CliRunner().invoke(main, list(args))


def puzzle_records(log: Path) -> list[dict]:
    return [
        record
        for record in map(json.loads, log.read_text().splitlines())
        if record["kind"] == "puzzle"
    ]


def headers(log: Path) -> list[dict]:
    return [
        record
        for record in map(json.loads, log.read_text().splitlines())
        if record["kind"] == "header"
    ]


@pytest.fixture
def half_done(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A puzzle file and a crosscheck log holding its first three puzzles."""
    source = puzzles(tmp_path)
    first = tmp_path / "first.txt"
    first.write_text("".join(source.read_text().splitlines(keepends=True)[:3]))
    monkeypatch.chdir(tmp_path)
    return source, first


def test_a_crosscheck_log_of_the_cli_resumes_through_the_api(half_done, tmp_path) -> None:
    source, _ = half_done
    log = tmp_path / "r.jsonl"
    done = cli("crosscheck", "p.txt", "-b", "dfs,sat", "-j", "1", "--results", str(log))
    assert done.exit_code == 0, done.output
    lines = log.read_text().splitlines()
    log.write_text("\n".join(lines[:4]) + "\n")  # the header and three puzzles: interrupted
    report = sudoku_cp.crosscheck("p.txt", backends=["dfs", "sat"], results=log, resume=True)
    assert report.ok and report.summary.puzzles == 6 and report.summary.resumed == 3
    assert [record["number"] for record in puzzle_records(log)] == list(range(6))
    assert [header.get("resumed", False) for header in headers(log)] == [False, True]


def test_a_crosscheck_log_of_the_api_resumes_through_the_cli(half_done, tmp_path) -> None:
    log = tmp_path / "r.jsonl"
    report = sudoku_cp.crosscheck("p.txt", backends=["dfs", "sat"], results=log)
    assert report.ok
    lines = log.read_text().splitlines()
    log.write_text("\n".join(lines[:3]) + "\n")
    done = cli("crosscheck", "p.txt", "-b", "dfs,sat", "-j", "1", "--results", str(log), "--resume")
    assert done.exit_code == 0, done.output
    assert "resumed: 2 puzzles from the results log" in done.stdout
    assert [record["number"] for record in puzzle_records(log)] == list(range(6))
    first = headers(log)[0]
    assert first["inputs"] == ["p.txt"] and "environment" in first  # the API records both


def test_a_bench_log_resumes_across_the_faces_both_ways(half_done, tmp_path) -> None:
    log = tmp_path / "b.jsonl"
    results = sudoku_cp.bench(
        ["p.txt"], backends=["dfs"], results=log, first=3, setup=False, executor="inline"
    )
    assert len(results.entries) == 3
    done = cli(
        "bench",
        "p.txt",
        "-b",
        "dfs",
        "--first",
        "3",
        "--results",
        str(log),
        "--resume",
        "--no-setup",
        "--executor",
        "inline",
    )
    assert done.exit_code == 0, done.output
    assert "3 of 3 puzzles were already measured" in done.stderr
    again = sudoku_cp.bench(
        ["p.txt"],
        backends=["dfs"],
        results=log,
        first=3,
        resume=True,
        setup=False,
        executor="inline",
    )
    assert len(again.entries) == 3 and len(puzzle_records(log)) == 3


def test_the_api_bench_measures_set_up_and_records_the_environment(tmp_path) -> None:
    path = tmp_path / "one.txt"
    path.write_text(BAEKJOON_2239 + "\n")
    results = sudoku_cp.bench([path], backends=["dfs"], results=tmp_path / "b.jsonl")
    header = results.headers[0]
    assert header.environment and header.inputs == (str(path),)
    assert header.setup is not None
    assert "dfs" in header.setup and "create_seconds" in header.setup["dfs"]
    assert results.entries[0].runs[0].max_rss_mb is not None  # its own process


# -- a resumed log is checked again ----------------------------------------------------------------


def crosscheck_log(tmp_path: Path, count: int = 4) -> tuple[Path, Path]:
    source = puzzles(tmp_path, count)
    log = tmp_path / "r.jsonl"
    done = cli("crosscheck", str(source), "-b", "dfs,sat", "-j", "1", "--results", str(log))
    assert done.exit_code == 0, done.output
    return source, log


def rewrite(log: Path, change) -> None:
    records = [json.loads(line) for line in log.read_text().splitlines()]
    change(records)
    log.write_text("".join(json.dumps(record) + "\n" for record in records))


def test_a_stored_answer_changed_by_one_digit_is_reported_wrong(tmp_path: Path) -> None:
    source, log = crosscheck_log(tmp_path)

    def tamper(records: list[dict]) -> None:
        run = records[2]["runs"][1]  # puzzle 2, sat: a valid grid no more
        run["solution"] = ("9" if run["solution"][0] != "9" else "1") + run["solution"][1:]

    rewrite(log, tamper)
    done = cli(
        "crosscheck", str(source), "-b", "dfs,sat", "-j", "1", "--results", str(log), "--resume"
    )
    assert done.exit_code == 1, done.output
    assert "4 puzzles: 1 wrong, 0 disagree, 0 error, 0 timeout, 3 agree" in done.stdout
    assert f"line 3 of {log} says agree; checked again: wrong" in done.stdout


@pytest.mark.parametrize("field", ["verdict", "runs", "source", "mode"])
def test_a_record_without_a_field_is_refused_naming_file_and_line(
    tmp_path: Path, field: str
) -> None:
    source, log = crosscheck_log(tmp_path)
    rewrite(log, lambda records: records[3].pop(field))
    done = cli(
        "crosscheck", str(source), "-b", "dfs,sat", "-j", "1", "--results", str(log), "--resume"
    )
    assert done.exit_code == 2 and done.stdout == ""
    assert done.stderr == (
        f"Error: {log}:4: not a whole puzzle record (no {field}): repair or "
        f"remove that line, or choose another results file\n"
    )


def test_a_header_from_other_settings_in_the_middle_is_refused(tmp_path: Path) -> None:
    source, log = crosscheck_log(tmp_path)

    def insert(records: list[dict]) -> None:
        other = dict(records[0], settings=dict(records[0]["settings"], time_limit=5.0))
        records.insert(3, other)

    rewrite(log, insert)
    with pytest.raises(
        ResultsFileError,
        match=r"other settings \(the session header at line 4\)"
        r" \(time_limit 5.0 in the file, no limit now\)",
    ):
        sudoku_cp.crosscheck(str(source), backends=["dfs", "sat"], results=log, resume=True)
