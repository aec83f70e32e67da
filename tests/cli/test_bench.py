"""`sudoku-cp bench` end to end: the results log and its summary table, resume and its refusals,
wrong answers counted and never timed, set-up measured apart, bad usage as one line and exit 2,
and what bench says while it runs."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

import sudoku_cp
from sudoku_cp.results_log.reader import load_results

from ..bench_helpers import TINY, bench_table, invoke, lines_of, puzzles_of, register_wrong
from ..conftest import BAEKJOON_2239, BAEKJOON_2239_ANSWER, EMPTY_4
from ..wrong_backends import InterruptingBackend

# The outcome table's columns, as `bench_table` reads them (one table per set).
TABLE_COLUMNS = ["solved", "timeout", "wrong", "error", "PAR-2", "Borda", "median", "max", "ratio"]


def test_cli_bench_writes_a_log_of_header_and_puzzle_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "results.jsonl"
    monkeypatch.setattr(sys, "argv", ["/usr/bin/sudoku-cp", "bench", "my set.txt"])
    result = invoke(
        "bench", *TINY, "--backends", "dfs", "--time-limit", 5, "--results", log, "--no-setup"
    )
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    table = bench_table(result.stdout)
    assert [(set_name, label) for set_name, label in table] == [
        ("baekjoon2239", "dfs"),
        ("baekjoon2239", "VBS"),
        ("empty4", "dfs"),
        ("empty4", "VBS"),
        ("empty9", "dfs"),
        ("empty9", "VBS"),
    ]
    assert list(table["empty4", "dfs"]) == TABLE_COLUMNS
    assert all(table[name, "dfs"]["solved"] == "1" for name in ("baekjoon2239", "empty4", "empty9"))
    assert max(map(len, result.stdout.splitlines())) <= 80
    assert "Times in ms per puzzle" in result.stdout
    assert "2 x 5 s" in " ".join(result.stdout.split())
    header, *records = lines_of(log)
    assert header["kind"] == "header" and header["command"] == "bench"
    assert header["settings"]["time_limit"] == 5.0 and header["settings"]["baseline"] == "dfs"
    assert header["environment"]["argv"] == "sudoku-cp bench 'my set.txt'"  # the command line
    assert header["inputs"] == [str(path) for path in TINY]
    assert [(r["kind"], r["set"], r["number"]) for r in records] == [
        ("puzzle", "baekjoon2239", 0),
        ("puzzle", "empty4", 0),
        ("puzzle", "empty9", 0),
    ]
    assert records[0]["runs"][0]["solution"] == BAEKJOON_2239_ANSWER


def test_cli_bench_out_is_a_hidden_alias_of_results(tmp_path: Path) -> None:
    log = tmp_path / "results.jsonl"
    result = invoke("bench", TINY[1], "--backends", "dfs", "--out", log, "--no-setup")
    assert result.exit_code == 0, result.output
    assert len(puzzles_of(log)) == 1
    assert "warning: --out is now --results" in result.stderr
    assert "--out" not in invoke("bench", "--help").stdout


def test_cli_bench_first_k_puzzles_of_each_file(tmp_path: Path) -> None:
    one, two = tmp_path / "one.txt", tmp_path / "two.txt"
    one.write_text(f"{BAEKJOON_2239}\n{EMPTY_4}\n{EMPTY_4}\n")
    two.write_text(f"{EMPTY_4}\n{EMPTY_4}\n")
    for option in ("--first", "--limit-puzzles"):
        result = invoke("bench", one, two, "--backends", "dfs", option, 2, "--no-setup")
        assert result.exit_code == 0, result.output
        table = bench_table(result.stdout)
        assert [(name, table[name, "dfs"]["solved"]) for name in ("one", "two")] == [
            ("one", "2"),
            ("two", "2"),
        ]
        assert result.stdout.startswith("one: 2 puzzles")
        if option == "--limit-puzzles":  # an earlier flag: read, with a notice naming the new
            assert "warning: --limit-puzzles is now --first" in result.stderr
    assert "--limit-puzzles" not in invoke("bench", "--help").stdout


def test_cli_bench_count_limit(tmp_path: Path) -> None:
    log = tmp_path / "count.jsonl"
    result = invoke(
        "bench",
        TINY[1],
        "--backends",
        "dfs",
        "--mode",
        "count",
        "--count-limit",
        3,
        "--results",
        log,
        "--no-setup",
    )
    assert result.exit_code == 0, result.output
    (record,) = puzzles_of(log)
    assert (record["mode"], record["runs"][0]["count"], record["runs"][0]["limit_reached"]) == (
        "count",
        3,
        True,
    )
    assert lines_of(log)[0]["settings"]["limit"] == 3


def test_cli_bench_refuses_a_used_log_and_other_settings_then_resumes(tmp_path: Path) -> None:
    log = tmp_path / "results.jsonl"
    args = ["bench", *TINY, "--backends", "dfs", "--results", log, "--no-setup"]
    assert invoke(*args, "--time-limit", 5).exit_code == 0
    written = log.read_text()

    again = invoke(*args, "--time-limit", 5)
    assert (again.exit_code, again.stderr) == (
        2,
        f"Error: {log} already holds results: pass --resume to continue that run, or choose "
        f"another results file\n",
    )

    other = invoke(*args, "--time-limit", 2, "--resume")
    assert (other.exit_code, other.stderr) == (
        2,
        f"Error: {log} was written with other settings (time_limit 5.0 in the file, 2.0 now):"
        f" resume with the same settings, or choose another results file\n",
    )
    more = invoke(
        "bench",
        *TINY,
        "--backends",
        "dfs,sat",
        "--results",
        log,
        "--no-setup",
        "--time-limit",
        5,
        "--resume",
    )
    assert more.exit_code == 2
    assert "(backends dfs in the file, dfs,sat now)" in more.stderr
    assert more.stderr.count("\n") == 1
    assert log.read_text() == written  # a refused resume leaves the log as it was

    done = invoke(*args, "--time-limit", 5, "--resume")
    assert done.exit_code == 0, done.output
    assert done.stderr == f"Resumed {log}: 3 of 3 puzzles were already measured.\n"
    table = bench_table(done.stdout)  # the summary covers the whole log
    assert [table[name, "dfs"]["solved"] for name in ("baekjoon2239", "empty4", "empty9")] == [
        "1"
    ] * 3
    kinds = [line["kind"] for line in lines_of(log)]
    assert kinds == ["header", "puzzle", "puzzle", "puzzle"]  # nothing run, nothing added


def test_cli_bench_resume_retries_the_puzzles_that_ended_in_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, register: Any
) -> None:
    log = tmp_path / "results.jsonl"
    args = ["bench", *TINY, "--backends", "dfs,flaky", "--results", log, "--no-setup"]
    register("flaky", "tests.wrong_backends", "CrashingBackend")  # raises on a blank first cell
    first = invoke(*args)
    assert first.exit_code == 1  # a backend error
    assert first.stderr.splitlines()[0] == f"{TINY[1]}:1: flaky error: RuntimeError: boom"
    assert [[run["status"] for run in record["runs"]] for record in puzzles_of(log)] == [
        ["solved", "solved"],
        ["solved", "error"],
        ["solved", "error"],
    ]

    register("flaky", "sudoku_cp.backends.dfs", "DfsBackend")  # fixed
    resumed = invoke(*args, "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stderr == f"Resumed {log}: 1 of 3 puzzles were already measured.\n"
    numbers = [(line["kind"], line.get("set")) for line in lines_of(log)]
    assert numbers[4:] == [("header", None), ("puzzle", "empty4"), ("puzzle", "empty9")]
    table = bench_table(resumed.stdout)
    assert [
        [table[name, "flaky"][column] for column in ("solved", "timeout", "wrong", "error")]
        for name in ("baekjoon2239", "empty4", "empty9")
    ] == [["1", "0", "0", "0"]] * 3
    loaded = load_results(log)  # the re-run replaces the error
    assert [[run.status for run in entry.runs] for entry in loaded.entries] == [
        ["solved", "solved"]
    ] * 3


def test_cli_bench_interrupted_then_resumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, register: Any
) -> None:
    log = tmp_path / "results.jsonl"
    register_wrong(register, "interrupting")
    # Solves: the untimed priming and the timed run of puzzle 1, then Ctrl-C in puzzle 2.
    monkeypatch.setattr(InterruptingBackend, "solves_before_interrupt", 2)
    # In-process (--no-isolate): the test backend raises KeyboardInterrupt where Ctrl-C would.
    args = [
        "bench",
        *TINY,
        "--backends",
        "interrupting",
        "--results",
        log,
        "--no-setup",
        "--no-isolate",
    ]
    result = invoke(*args)
    assert result.exit_code == 130
    assert result.stderr == (
        f"Interrupted after 1 of 3 puzzles; the results so far are in {log}; "
        f"to continue, run the same command with --resume.\n"
    )
    assert [record["set"] for record in puzzles_of(log)] == ["baekjoon2239"]
    # The summary of what was measured, marked as such (docs/faults.md promises it).
    assert result.stdout.startswith("Summary so far (interrupted):\n")
    table = bench_table(result.stdout)
    assert [key for key in table if key[1] != "VBS"] == [("baekjoon2239", "interrupting")]
    assert table["baekjoon2239", "interrupting"]["solved"] == "1"

    resumed = invoke(*args, "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stderr == f"Resumed {log}: 1 of 3 puzzles were already measured.\n"
    assert [record["set"] for record in puzzles_of(log)] == ["baekjoon2239", "empty4", "empty9"]
    assert len([key for key in bench_table(resumed.stdout) if key[1] != "VBS"]) == 3


def test_cli_bench_torn_last_line_is_cut_on_resume(tmp_path: Path) -> None:
    log = tmp_path / "results.jsonl"
    args = ["bench", *TINY[:2], "--backends", "dfs", "--results", log, "--no-setup"]
    assert invoke(*args).exit_code == 0
    whole = log.read_text().splitlines(keepends=True)
    log.write_text("".join(whole[:2]) + whole[2][:40])  # killed while writing puzzle 2
    result = invoke(*args, "--resume")
    assert result.exit_code == 0, result.output
    assert result.stderr == f"Resumed {log}: 1 of 2 puzzles were already measured.\n"
    assert [line["kind"] for line in lines_of(log)] == ["header", "puzzle", "header", "puzzle"]


def test_cli_bench_wrong_answer_is_counted_never_timed_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, register: Any
) -> None:
    register_wrong(register, "givenchanger")
    puzzles = tmp_path / "two.txt"
    puzzles.write_text(f"{BAEKJOON_2239}\n{BAEKJOON_2239}\n")
    result = invoke("bench", puzzles, "--backends", "dfs,givenchanger", "--no-setup")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{puzzles}:{line}: givenchanger wrong: changes the given 1 at row 1, column 1 (and 3 "
        f"more violations)"
        for line in (1, 2)
    ]
    table = bench_table(result.stdout)
    dfs, wrong = table["two", "dfs"], table["two", "givenchanger (excluded)"]
    assert [dfs[column] for column in ("solved", "timeout", "wrong", "error")] == [
        "2",
        "0",
        "0",
        "0",
    ]
    assert [wrong[column] for column in ("solved", "wrong", "error")] == ["0", "2", "0"]
    # Excluded from the Borda scores; no PAR-2 without a limit, no time, no ratio.
    assert [wrong[column] for column in ("PAR-2", "Borda", "median", "max", "ratio")] == ["-"] * 5
    assert table["two", "VBS"]["solved"] == "2"  # dfs alone: the excluded one is not a member
    spread = next(
        line
        for line in result.stdout.splitlines()
        if "givenchanger" in line and "(excluded)" in line and line.split()[-2].isdigit()
    )
    assert spread.split()[-2].isdigit()  # its memory was measured
    assert "PAR-2: '-', since without --time-limit" in " ".join(result.stdout.split())


def test_cli_bench_measures_setup_by_default_and_logs_it(tmp_path: Path) -> None:
    log = tmp_path / "results.jsonl"
    result = invoke("bench", TINY[1], "--backends", "dfs", "--results", log)
    assert result.exit_code == 0, result.output
    tail = result.stdout.splitlines()[-2:]
    assert tail[0] == "One-off set-up, not in the times above:"
    assert tail[1].startswith("dfs: create ") and "empty4 first solve" in tail[1]
    setup = [line for line in lines_of(log) if "setup" in line]
    assert len(setup) == 1 and setup[0]["kind"] == "header"
    assert [shape["set"] for shape in setup[0]["setup"]["dfs"]["shapes"]] == ["empty4"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--backends", "dfs", "--baseline", "sat"], "--baseline sat is not one of --backends dfs"),
        (
            ["--backends", "dfs", "--resume"],
            "--resume needs --results FILE (the results log of the run to continue)",
        ),
        (
            ["--backends", "dfs,nope"],
            f"unknown backend 'nope' (choose from {', '.join(sudoku_cp.backends.backend_names())})",
        ),
    ],
)
def test_cli_bench_bad_usage_is_one_line_exit_2(args: list[str], message: str) -> None:
    result = invoke("bench", TINY[1], *args)
    assert (result.exit_code, result.stderr) == (2, f"Error: {message}\n")


def test_cli_bench_refuses_a_csv_results_file_in_one_line(tmp_path: Path) -> None:
    csv = tmp_path / "results.csv"
    result = invoke("bench", TINY[1], "--backends", "dfs", "--results", csv, "--no-setup")
    assert result.exit_code == 2
    assert result.stderr.startswith(
        f"Error: {csv}: results logs are JSON Lines: name the file .jsonl"
    )
    assert result.stderr.count("\n") == 1 and not csv.exists()


def test_cli_bench_bad_puzzle_is_refused_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(f"{EMPTY_4}\n{'x' * 16}\n")
    result = invoke("bench", bad, "--backends", "dfs")
    assert result.exit_code == 2
    assert result.stderr.startswith(
        f"Error: {bad}:2:1: unknown symbol 'x' (a 4x4 puzzle uses 0 or . for blank and 1-4)"
    )
    assert result.stderr.count("\n") == 1 and result.stdout == ""


def test_cli_bench_two_files_named_alike_exit_2(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    first, second = tmp_path / "bad.txt", tmp_path / "a" / "bad.txt"
    for path in (first, second):
        path.write_text(f"{EMPTY_4}\n")
    result = invoke("bench", first, second, "--backends", "dfs")
    assert (result.exit_code, result.stderr) == (
        2,
        f"Error: {first} and {second} would both be set 'bad': rename one of them\n",
    )


def test_cli_bench_resume_of_a_new_log_starts_it(tmp_path: Path) -> None:
    log = tmp_path / "new.jsonl"
    result = invoke(
        "bench", TINY[1], "--backends", "dfs", "--results", log, "--resume", "--no-setup"
    )
    assert (result.exit_code, result.stderr) == (0, "")  # nothing was measured before
    assert [line["kind"] for line in lines_of(log)] == ["header", "puzzle"]
    assert "resumed" not in lines_of(log)[0]


def test_cli_bench_does_not_resume_a_crosscheck_log(tmp_path: Path) -> None:
    log = tmp_path / "cross.jsonl"
    crossed = invoke("crosscheck", TINY[1], "--backends", "dfs", "--results", log, "--jobs", 1)
    assert crossed.exit_code == 0, crossed.output
    result = invoke(
        "bench", TINY[1], "--backends", "dfs", "--results", log, "--resume", "--no-setup"
    )
    assert (result.exit_code, result.stderr) == (
        2,
        f"Error: {log} was written with other settings (command crosscheck in the file, bench "
        f"now): resume with the same settings, or choose another results file\n",
    )


def test_cli_bench_resume_with_a_smaller_first_keeps_every_puzzle_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, register: Any
) -> None:
    one, two = tmp_path / "one.txt", tmp_path / "two.txt"
    one.write_text(f"{BAEKJOON_2239}\n" * 3)
    two.write_text(f"{BAEKJOON_2239}\n{'0' * 81}\n{BAEKJOON_2239}\n")
    log = tmp_path / "results.jsonl"
    args = ["bench", one, two, "--backends", "flaky", "--results", log, "--no-setup"]
    register("flaky", "tests.wrong_backends", "CrashingBackend")  # two:2 ends in an error
    assert invoke(*args, "--first", 3).exit_code == 1
    register("flaky", "sudoku_cp.backends.dfs", "DfsBackend")
    resumed = invoke(*args, "--first", 2, "--resume")  # two:2 is run again, at another index
    assert resumed.exit_code == 0, resumed.output
    table = bench_table(resumed.stdout)
    assert [
        (table[name, "flaky"]["solved"], table[name, "flaky"]["timeout"]) for name in ("one", "two")
    ] == [("3", "0"), ("3", "0")]


def test_cli_bench_refuses_a_fifo_or_a_missing_folder_exit_2(tmp_path: Path) -> None:
    fifo, missing = tmp_path / "fifo.jsonl", tmp_path / "nowhere" / "r.jsonl"
    os.mkfifo(fifo)
    for path, why in (
        (fifo, "not a regular file (a FIFO, terminal or device): results logs must be files"),
        (missing, "cannot write: No such file or directory"),
    ):
        result = invoke("bench", TINY[1], "--backends", "dfs", "--results", path, "--no-setup")
        assert (result.exit_code, result.stderr, result.stdout) == (
            2,
            f"Error: {path}: {why}\n",
            "",
        )


def test_without_scipy_bench_says_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    from sudoku_cp import bench_statistics

    monkeypatch.setattr(bench_statistics, "statistics_available", lambda: False)
    result = invoke(
        "bench", *TINY, "-b", "dfs,sat", "--repeat", "2", "--no-setup", "--executor", "inline"
    )
    assert result.exit_code == 0, result.output
    assert (
        "Note: the 95% intervals and the Wilcoxon test need scipy, which is not installed: "
        "pip install '.[stats]' from a sudoku-cp checkout (or pip install scipy)"
    ) in result.stderr
    assert "Wilcoxon" not in result.stdout and "95%" not in result.stdout


def test_ctrl_c_during_set_up_keeps_the_header_once_and_says_how_to_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sudoku_cp import sessions

    def interrupted(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(sessions, "measure_setup", interrupted)
    log = tmp_path / "r.jsonl"
    result = invoke("bench", *TINY, "-b", "dfs", "--results", log)
    assert result.exit_code == 130
    assert result.stderr == (
        f"Interrupted after 0 of 3 puzzles; the results so far are in {log}; "
        f"to continue, run the same command with --resume.\n"
    )
    assert not log.exists()  # nothing measured: no file to stand in the way of the rerun


def test_set_up_shows_which_configuration_it_measures(monkeypatch: pytest.MonkeyPatch) -> None:
    import functools
    import io

    from sudoku_cp import progress

    screen = io.StringIO()
    monkeypatch.setattr(
        progress.Progress,
        "__init__",
        functools.partialmethod(
            progress.Progress.__init__, stream=screen, enabled=True, interval=0
        ),
    )
    result = invoke("bench", *TINY, "-b", "dfs")
    assert result.exit_code == 0, result.output
    assert "\rbench set-up: dfs " in screen.getvalue()
    assert "\rbench 3/3 (100%)" in screen.getvalue()


def test_certify_says_how_many_answers_are_certified() -> None:
    pytest.importorskip("dratify")
    result = invoke("bench", *TINY, "-b", "dfs", "--no-setup", "--certify")
    assert result.exit_code == 0, result.output
    assert "\n3/3 answers certified\n" in result.stdout


def test_certify_says_what_was_not_certified(register: Any) -> None:
    pytest.importorskip("dratify")
    register_wrong(register, "notlexmin")  # not the lex-min of the two empty grids
    result = invoke("bench", *TINY, "-b", "notlexmin", "--no-setup", "--certify")
    assert "\n1/3 answers certified; 2 not certified, counted as wrong\n" in result.stdout


def test_cli_bench_rating_stores_each_puzzle_s_rating(tmp_path: Path) -> None:
    log = tmp_path / "rated.jsonl"
    result = invoke("bench", *TINY, "--backends", "dfs", "--results", log, "--no-setup", "--rating")
    assert result.exit_code == 0, result.output
    header, *records = lines_of(log)
    assert header["settings"]["rating"] is True
    assert [record["rating"] for record in records] == [
        {"level": 1, "technique": "hidden single"},
        {"level": 11, "technique": "contradiction"},  # the empty 4x4: singles cannot start
        {"level": 11, "technique": "contradiction"},
    ]
    unrated = tmp_path / "plain.jsonl"
    invoke("bench", *TINY, "--backends", "dfs", "--results", unrated, "--no-setup")
    assert all("rating" not in record for record in lines_of(unrated)[1:])
    assert load_results(log).entries[0].rating == {"level": 1, "technique": "hidden single"}
