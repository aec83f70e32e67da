"""sessions: one crosscheck and one bench session under both faces. A log written by the command
line resumes through the Python API and the reverse; a resumed log is checked again, record by
record, header by header. A bench session's timed runs go through the engine: every one verified,
a wrong one counted and never timed, set-up kept out of the times."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import sudoku_cp
from sudoku_cp.bench_statistics import has_failures, summarize
from sudoku_cp.cli import main
from sudoku_cp.errors import ResultsFileError

from .bench_helpers import register_wrong, rows_of
from .conftest import (
    BAEKJOON_2239,
    BAEKJOON_2239_ANSWER,
    EMPTY_4,
    EMPTY_4_LEXMIN,
    random_multi_solution,
)

Record = dict[str, Any]


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


def crosscheck_table(stdout: str) -> dict[str, list[str]]:
    """crosscheck's table: each backend's row of counts (solved, unsat, timeout, wrong,
    disagree, error)."""
    return {
        words[0]: words[1:7]
        for words in map(str.split, stdout.splitlines())
        if len(words) == 9 and words[1].isdigit()
    }


def test_a_record_that_stays_wrong_is_judged_again_run_by_run(
    tmp_path: Path, register: Any
) -> None:
    """notlexmin makes every verdict wrong; then sat's stored answer on puzzle 2 is broken. Its
    verdict stays wrong, but sat's run must turn wrong: a re-judging that compared only the
    verdict would keep counting it solved."""
    register_wrong(register, "notlexmin")
    source = puzzles(tmp_path, 3)
    log = tmp_path / "r.jsonl"
    args = ["crosscheck", str(source), "-b", "dfs,sat,notlexmin", "-j", "1", "--results", str(log)]
    first = cli(*args)
    assert first.exit_code == 1, first.output
    assert crosscheck_table(first.stdout)["sat"] == ["3", "0", "0", "0", "0", "0"]
    assert [record["verdict"] for record in puzzle_records(log)] == ["wrong"] * 3

    def tamper(records: list[dict]) -> None:
        run = records[2]["runs"][1]  # puzzle 2, sat: a valid grid no more
        assert run["backend"] == "sat" and run["status"] == "solved"
        run["solution"] = ("9" if run["solution"][0] != "9" else "1") + run["solution"][1:]

    rewrite(log, tamper)
    done = cli(*args, "--resume")
    assert done.exit_code == 1, done.output
    table = crosscheck_table(done.stdout)
    assert table["sat"] == ["2", "0", "0", "1", "0", "0"]
    assert table["dfs"] == ["3", "0", "0", "0", "0", "0"]
    assert table["notlexmin"] == ["0", "0", "0", "3", "0", "0"]
    assert f"line 3 of {log} says wrong; checked again: wrong" in done.stdout


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


def timed(
    lines: list[str],
    backends: list[str],
    *,
    mode: str = "lexmin",
    repeat: int = 1,
    time_limit: float | None = None,
) -> list[Record]:
    """Every run of `sudoku_cp.bench` on these puzzles, flat (what the statistics read)."""
    return list(
        sudoku_cp.bench(
            "\n".join(lines) + "\n",
            backends=backends,
            mode=mode,
            repeat=repeat,
            time_limit=time_limit,
            executor="inline",
            setup=False,
        ).runs()
    )


def of(runs: list[Record], backend: str) -> list[Record]:
    return [run for run in runs if run["backend"] == backend]


def test_run_records_keep_repeats_puzzle_facts_and_the_build_solve_split() -> None:
    runs = timed([BAEKJOON_2239, EMPTY_4], ["dfs", "sat"], repeat=2)
    assert [(run["index"], run["backend"], run["repeat"]) for run in runs] == [
        (0, "dfs", 0),
        (0, "dfs", 1),
        (0, "sat", 0),
        (0, "sat", 1),
        (1, "dfs", 0),
        (1, "dfs", 1),
        (1, "sat", 0),
        (1, "sat", 1),
    ]
    first = runs[0]
    assert (first["line"], first["puzzle"], first["size"], first["givens"]) == (
        1,
        BAEKJOON_2239,
        9,
        30,
    )
    assert {run["status"] for run in runs} == {"solved"}
    assert runs[4]["size"] == 4 and runs[4]["givens"] == 0
    assert runs[0]["solution"] == BAEKJOON_2239_ANSWER and runs[4]["solution"] == EMPTY_4_LEXMIN
    sat = of(runs, "sat")[0]
    # The backend's build/solve split is lifted out of its stats into fields of the run.
    assert sat["build_seconds"] is not None and sat["solve_seconds"] is not None
    assert "build_seconds" not in sat["stats"] and "sat_calls" in sat["stats"]
    assert first["build_seconds"] is None and "nodes" in first["stats"]
    assert all(run["seconds"] > 0 and run["cpu_seconds"] is not None for run in runs)
    json.dumps(runs)  # JSON-ready


def test_priming_keeps_one_off_set_up_out_of_the_first_timed_run() -> None:
    runs = timed([EMPTY_4, BAEKJOON_2239], ["sat"])
    # The sat backend builds its solver once per grid shape: the untimed priming run did it.
    assert [run["stats"]["reused"] for run in runs] == [True, True]
    assert [run["build_seconds"] for run in runs] == [0.0, 0.0]


def test_a_broken_completion_is_counted_and_not_timed(
    monkeypatch: pytest.MonkeyPatch, register: Any
) -> None:
    register_wrong(register, "rulebreaker")
    runs = timed([BAEKJOON_2239, EMPTY_4], ["dfs", "rulebreaker"], time_limit=1.0)
    broken = of(runs, "rulebreaker")
    # rulebreaker breaks only puzzles with givens: the empty 4x4 is solved right.
    assert [run["status"] for run in broken] == ["wrong", "solved"]
    assert broken[0]["reason"].startswith("column ")
    assert broken[0]["answer"] is not None and broken[0]["solution"] is None  # kept to audit
    assert broken[0]["seconds"] is not None  # recorded, yet no statistic uses it
    dfs_row, broken_row = summarize(rows_of(runs), time_limit=1.0, baseline="dfs")
    assert (broken_row.solved, broken_row.wrong, broken_row.ratio_puzzles) == (1, 1, 1)
    assert broken_row.mean == broken_row.max == pytest.approx(broken[1]["seconds"])
    assert broken_row.par2 == pytest.approx((2.0 + broken[1]["seconds"]) / 2)
    assert dfs_row.solved == 2 and has_failures(rows_of(runs))


def test_an_unsatisfiable_claim_is_wrong_when_another_backend_found_a_completion(
    monkeypatch: pytest.MonkeyPatch, register: Any
) -> None:
    register_wrong(register, "nosolution")
    runs = timed([BAEKJOON_2239], ["nosolution", "dfs"])
    assert of(runs, "nosolution")[0]["status"] == "wrong"
    assert of(runs, "nosolution")[0]["reason"] == (
        "says unsatisfiable, but dfs's completion is valid"
    )
    (row, _) = summarize(rows_of(runs), time_limit=None, baseline=None)
    assert (row.solved, row.wrong, row.mean) == (0, 1, None)
    alone = timed([BAEKJOON_2239], ["nosolution"])
    assert alone[0]["status"] == "unsatisfiable"  # nothing contradicts it: an answer
    assert summarize(rows_of(alone), time_limit=None, baseline=None)[0].solved == 1


def test_a_larger_completion_is_not_the_lexmin(
    monkeypatch: pytest.MonkeyPatch, register: Any
) -> None:
    register_wrong(register, "notlexmin")
    runs = timed([EMPTY_4], ["notlexmin", "dfs"])
    assert of(runs, "notlexmin")[0]["status"] == "wrong"
    assert of(runs, "notlexmin")[0]["reason"].startswith(
        "not the lex-min: dfs's completion is smaller (first difference at row "
    )
    any_mode = timed([EMPTY_4], ["notlexmin", "dfs"], mode="any")
    assert of(any_mode, "notlexmin")[0]["status"] == "solved"


def test_a_timeout_is_recorded_as_such(monkeypatch: pytest.MonkeyPatch, register: Any) -> None:
    register_wrong(register, "sleepy")  # times out on puzzles whose first cell is blank
    runs = timed([BAEKJOON_2239, EMPTY_4], ["sleepy"], time_limit=2.0)
    assert [run["status"] for run in runs] == ["solved", "timeout"]
    (row,) = summarize(rows_of(runs), time_limit=2.0, baseline=None)
    assert (row.solved, row.timeouts, row.wrong) == (1, 1, 0)
    assert row.par2 == pytest.approx((runs[0]["seconds"] + 4.0) / 2)
    assert not has_failures(rows_of(runs))


def test_count_mode_records_the_count_up_to_the_limit() -> None:
    runs = timed([EMPTY_4, BAEKJOON_2239], ["dfs"], mode="count")
    assert [(run["count"], run["limit_reached"]) for run in runs] == [(2, True), (1, False)]
    entries = sudoku_cp.bench(EMPTY_4 + "\n", backends=["dfs"], mode="count", limit=5).entries
    assert entries[0].runs[0].count == 5
