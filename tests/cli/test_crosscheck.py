"""`sudoku-cp crosscheck`: the deliberately wrong backends caught (wrong, disagree, error,
timeout), agreement on real data, the results log and --resume, usage, output formats and exit
codes. The tally is tested in test_agreement.py, the text it prints in render/test_crosscheck.py."""

from __future__ import annotations

import functools
import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from sudoku_cp import progress
from sudoku_cp.backends import backend_names
from sudoku_cp.cli import main

from ..bench_helpers import puzzles_of
from ..conftest import (
    BAEKJOON_2239,
    BAEKJOON_2239_ANSWER,
    EXAMPLES,
    UNSOLVABLE_4,
    random_multi_solution,
    shared,
)
from ..wrong_backends import InterruptingBackend, wrong_backends  # noqa: F401 (a fixture)

pytestmark = pytest.mark.usefixtures("wrong_backends")


HEADER = [
    "backend",
    "solved",
    "unsat",
    "timeout",
    "wrong",
    "disagree",
    "error",
    "total",
    "s",
    "median",
    "ms",
]


def verdicts_line(text: str) -> str:
    """The summary's line of verdicts ('15 puzzles: 0 wrong, ...')."""
    return next(line for line in text.splitlines() if " puzzles: " in line or " puzzle: " in line)


@pytest.fixture(scope="module")
def serg(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """40 puzzles spread over serg_benchmark (every one has two or more completions)."""
    lines = shared("serg_benchmark.txt").read_text().splitlines()
    path = tmp_path_factory.mktemp("serg") / "serg40.txt"
    path.write_text("\n".join(lines[:: len(lines) // 40][:40]) + "\n")
    return path


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A quick mixed set: unique, multi-solution 4x4 and 9x9, unsatisfiable, empty grids."""
    puzzles = [BAEKJOON_2239, "0" * 16, UNSOLVABLE_4, "55" + "0" * 79, "0" * 81]
    puzzles += [random_multi_solution(9, 30, seed).to_line() for seed in range(6)]
    puzzles += [random_multi_solution(4, 5, seed).to_line() for seed in range(4)]
    path = tmp_path_factory.mktemp("small") / "small.txt"
    path.write_text("\n".join(puzzles) + "\n")
    return path


def invoke(*args: str | Path, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["crosscheck", *map(str, args)], input=stdin)


def jsonl(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def measured(key: str) -> bool:
    """Fields that differ from one run to the next: times and memory."""
    return key.endswith(("seconds", "_mb"))


def without_timing(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records without what depends on the machine or on which worker ran the puzzle: times,
    and the solvers' counters (a kept SAT solver's decisions depend on the puzzles it saw
    before, and with -j 2 the first chunks go to both workers)."""
    for record in records:
        for number, run in enumerate(record["runs"]):
            run = {key: value for key, value in run.items() if not measured(key)}
            run.pop("stats")
            record["runs"][number] = run
    return records


def blocks_of(stdout: str) -> list[str]:
    """The findings blocks of the text output (after the summary and the legend)."""
    return [block for block in stdout.split("\n\n")[1:] if not block.startswith("'*' marks")]


def test_another_valid_completion_is_wrong_not_the_lexmin(serg: Path) -> None:
    result = invoke(serg, "--backends", "dfs,notlexmin", "--jobs", "1")
    assert result.exit_code == 1
    summary = result.stdout.splitlines()
    assert summary[0] == "crosscheck --mode lexmin: dfs, notlexmin"
    assert summary[1].split() == HEADER
    assert summary[2].split()[:7] == ["dfs", "40", "0", "0", "0", "0", "0"]
    assert summary[3].split()[:7] == ["notlexmin", "0", "0", "0", "40", "0", "0"]
    assert summary[5] == "40 puzzles: 40 wrong, 0 disagree, 0 error, 0 timeout, 0 agree"
    assert result.stdout.count("\nWRONG  ") == 40
    assert (
        result.stdout.count(
            "  notlexmin: wrong: not the lex-min: dfs's completion is "
            "smaller (first difference at row "
        )
        == 40
    )


def test_wrong_answers_are_drawn_side_by_side_with_the_bad_cells_marked(small: Path) -> None:
    result = invoke(small, "--backends", "notlexmin,dfs,rulebreaker,givenchanger", "--jobs", "1")
    assert result.exit_code == 1
    assert "15 puzzles: 13 wrong, 0 disagree, 0 error, 0 timeout, 2 agree" in result.stdout
    assert (
        "\n\n'*' marks a cell that breaks a rule or changes a given, or (lexmin) that "
        "differs from the smallest valid completion.\n\n"
    ) in result.stdout
    blocks = blocks_of(result.stdout)
    assert [block.split()[0] for block in blocks] == ["WRONG"] * 13
    first = blocks[0].splitlines()
    assert first[0] == f"WRONG  {small}:1 (puzzle 1)"
    assert first[1:3] == [
        "  rulebreaker: wrong: column 2 has two 6s (and 3 more violations)",
        "  givenchanger: wrong: changes the given 1 at row 1, column 1 (and 3 more violations)",
    ]
    assert first[3].split() == ["puzzle", "notlexmin", "dfs", "rulebreaker", "givenchanger"]
    assert first[4].split()[2::3] == ["solved", "solved", "WRONG", "WRONG"]
    # Row 1 of each grid: the swapped blanks, the cells they repeat in their columns and boxes,
    # and the changed given (with the value it now repeats) carry a '*'.
    assert first[5] == (
        "  1 . 3 | . . . | 5 . 9    1 4 3 | 6 2 8 | 5 7 9    1 4 3 | 6 2 8 | 5 7 9"
        "    1 6*3 | 4*2 8 | 5 7 9    2*4 3 | 6 2*8 | 5 7 9"
    )
    assert first[8] == "  " + "   ".join(["------+-------+-------"] * 5)
    assert blocks[1].splitlines()[:2] == [
        f"WRONG  {small}:2 (puzzle 2)",
        "  notlexmin: wrong: not the lex-min: dfs's completion is smaller (first difference at "
        "row 3, column 2)",
    ]


def test_a_refuted_unsatisfiable_answer_is_wrong_in_any_mode(small: Path) -> None:
    result = invoke(
        small, "--backends", "dfs,nosolution", "--mode", "any", "--jobs", "1", "--format", "jsonl"
    )
    assert result.exit_code == 1
    records = jsonl(result.stdout)
    assert [record["verdict"] for record in records] == ["wrong", "wrong", "agree", "agree"] + [
        "wrong"
    ] * 11
    assert records[0]["findings"] == [
        "nosolution: wrong: says unsatisfiable, but dfs's completion is valid"
    ]
    assert [run["status"] for run in records[0]["runs"]] == ["solved", "wrong"]


def test_differing_counts_disagree_and_a_count_unfit_for_its_status_is_wrong(small: Path) -> None:
    result = invoke(
        small,
        "--backends",
        "dfs,overcount,sat",
        "--mode",
        "count",
        "--count-limit",
        "3",
        "--jobs",
        "1",
    )
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[3].split()[:7] == ["overcount", "13", "1", "0", "1", "4", "0"]
    assert verdicts_line(result.stdout) == (
        "15 puzzles: 1 wrong, 4 disagree, 0 error, 0 timeout, 10 agree"
    )
    blocks = blocks_of(result.stdout)
    # Worst first: the wrong answer on puzzle 3 comes before the disagreement on puzzle 1.
    assert [block.splitlines()[0] for block in blocks] == [
        f"WRONG  {small}:3 (puzzle 3)",
        f"DISAGREE  {small}:1 (puzzle 1)",
        f"DISAGREE  {small}:12 (puzzle 12)",
        f"DISAGREE  {small}:13 (puzzle 13)",
        f"DISAGREE  {small}:15 (puzzle 15)",
    ]
    assert blocks[0].splitlines()[1] == (
        "  overcount: wrong: count 1 does not fit the status unsatisfiable"
    )
    assert blocks[1].splitlines()[1:3] == [
        "  counts differ: dfs 1, overcount 2, sat 1",
        "  puzzle                   dfs                      overcount (disagrees)    sat",
    ]
    assert "  counts differ: dfs 2, overcount 3+, sat 2" in blocks[2]


def test_a_refuted_unsatisfiable_count_is_wrong(small: Path) -> None:
    result = invoke(small, "--backends", "dfs,nosolution,sat", "--mode", "count", "--jobs", "1")
    assert result.exit_code == 1
    assert "15 puzzles: 13 wrong, 0 disagree, 0 error, 0 timeout, 2 agree" in result.stdout


def test_counts_at_the_limit_agree(small: Path) -> None:
    result = invoke(
        small,
        "--backends",
        "dfs,overcount",
        "--mode",
        "count",
        "--count-limit",
        "3",
        "--jobs",
        "1",
        "--format",
        "jsonl",
    )
    records = jsonl(result.stdout)
    assert records[1]["verdict"] == "agree"  # the empty 4x4: both stop at the limit
    assert [(run["count"], run["limit_reached"]) for run in records[1]["runs"]] == [
        (3, True),
        (3, True),
    ]


def test_timeouts_are_reported_not_held_against(small: Path) -> None:
    result = invoke(small, "--backends", "dfs,sleepy", "--jobs", "1")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[3].split()[:7] == ["sleepy", "5", "1", "9", "0", "0", "0"]
    assert verdicts_line(result.stdout) == (
        "15 puzzles: 0 wrong, 0 disagree, 0 error, 9 timeout, 6 agree"
    )
    blocks = blocks_of(result.stdout)
    assert blocks[0] == (
        f"TIMEOUT  {small}:2 (puzzle 2)\n  sleepy: timeout (no answer within 0.001 s)"
    )
    assert len(blocks) == 9 and "DISAGREE" not in result.stdout and "'*' marks" not in result.stdout


def test_a_crashing_backend_is_an_error_and_the_run_goes_on(small: Path) -> None:
    result = invoke(small, "--backends", "dfs,crasher", "--jobs", "1", "--format", "jsonl")
    assert result.exit_code == 1
    records = jsonl(result.stdout)
    assert len(records) == 15
    assert records[1]["verdict"] == "error"
    assert records[1]["findings"] == ["crasher: error: RuntimeError: boom"]
    assert records[1]["runs"][1]["status"] == "error"
    assert records[1]["runs"][1]["reason"] == "RuntimeError: boom"
    assert "15 puzzles: 0 wrong, 0 disagree, 9 error, 0 timeout, 6 agree" in result.stderr


def test_a_worker_that_dies_is_an_error_for_that_backend_and_the_run_goes_on() -> None:
    dies = "9" + "0" * 80  # the killer backend ends its worker on a first value of 9
    stdin = f"{BAEKJOON_2239}\n{dies}\n{'0' * 16}\n"
    result = invoke("--backends", "dfs,killer", "--jobs", "2", "--format", "jsonl", stdin=stdin)
    assert result.exit_code == 1
    records = jsonl(result.stdout)
    assert [record["verdict"] for record in records] == ["agree", "error", "agree"]
    dfs, killer = records[1]["runs"]
    assert killer["status"] == "error"
    assert killer["reason"].startswith("worker process died while running killer on this puzzle")
    assert dfs["status"] == "solved"


def test_dfs_cpsat_sat_agree_on_serg_lexmin(serg: Path, tmp_path: Path) -> None:
    result = invoke(
        serg, "--backends", "dfs,cpsat,sat", "--jobs", "2", "--results", tmp_path / "r.jsonl"
    )
    assert result.exit_code == 0, result.output
    assert "40 puzzles: 0 wrong, 0 disagree, 0 error, 0 timeout, 40 agree" in result.stdout
    records = puzzles_of(tmp_path / "r.jsonl")
    assert len(records) == 40 and all(record["verdict"] == "agree" for record in records)


@pytest.mark.parametrize("mode", ["lexmin", "any", "count"])
def test_dfs_cpsat_sat_agree_on_project_data(small: Path, mode: str) -> None:
    examples = [
        EXAMPLES / name
        for name in (
            "baekjoon2239.txt",
            "baekjoon2580.txt",
            "empty4.txt",
            "empty6.txt",
            "empty9.txt",
        )
    ]
    result = invoke(
        small,
        *examples,
        "--backends",
        "dfs,cpsat,sat",
        "--mode",
        mode,
        "--count-limit",
        "3",
        "--jobs",
        "1",
    )
    assert result.exit_code == 0, result.output
    assert "20 puzzles: 0 wrong, 0 disagree, 0 error, 0 timeout, 20 agree" in result.stdout


def test_jobs_2_gives_the_records_of_jobs_1(small: Path, tmp_path: Path) -> None:
    outputs = []
    for jobs in ("1", "2"):
        path = tmp_path / f"jobs{jobs}.jsonl"
        result = invoke(small, "--backends", "dfs,sat,notlexmin", "--jobs", jobs, "--results", path)
        assert result.exit_code == 1
        outputs.append(without_timing(puzzles_of(path)))
    assert outputs[0] == outputs[1]
    assert [record["index"] for record in outputs[1]] == list(range(15))


RESUMABLE = ("--backends", "dfs,interrupting", "--jobs", "1")


def complete_run(puzzles: Path, path: Path) -> list[dict[str, Any]]:
    result = invoke(puzzles, *RESUMABLE, "--results", path)
    assert result.exit_code == 0, result.output
    return puzzles_of(path)


def test_resume_after_ctrl_c_gives_the_records_of_an_uninterrupted_run(
    small: Path, tmp_path: Path
) -> None:
    whole = complete_run(small, tmp_path / "whole.jsonl")
    path = tmp_path / "interrupted.jsonl"
    # Six solves pass, the seventh is Ctrl-C: seven puzzles are done, since puzzle 4 has two
    # equal givens and never reaches a backend's search.
    InterruptingBackend.solves_before_interrupt = 6
    result = invoke(small, *RESUMABLE, "--results", path)
    assert result.exit_code == 130
    assert "7 puzzles: 0 wrong, 0 disagree, 0 error, 0 timeout, 7 agree" in result.stdout
    assert result.stdout.splitlines()[0].endswith("(interrupted)")
    assert result.stderr.splitlines()[-1] == (
        f"Interrupted after 7 puzzles: the results so far are in {path}; to continue, run the "
        f"same command with --resume."
    )
    assert len(puzzles_of(path)) == 7 and path.read_text().endswith("\n")
    result = invoke(small, *RESUMABLE, "--results", path, "--resume")
    assert result.exit_code == 0, result.output
    assert "resumed: 7 puzzles from the results log" in result.stdout
    assert "this session: 8 puzzles in " in result.stdout
    assert "15 puzzles: 0 wrong, 0 disagree, 0 error, 0 timeout, 15 agree" in result.stdout
    assert without_timing(puzzles_of(path)) == without_timing(whole)
    headers = [record for record in jsonl(path.read_text()) if record["kind"] == "header"]
    assert [header.get("resumed") for header in headers] == [None, True]


@pytest.mark.parametrize("cut", ["mid-line", "before-newline"])
def test_resume_drops_a_torn_last_line(small: Path, tmp_path: Path, cut: str) -> None:
    path = tmp_path / "r.jsonl"
    whole = complete_run(small, path)
    text = path.read_text()
    end_of_line_6 = [i for i, char in enumerate(text) if char == "\n"][5]  # header + 5 puzzles
    path.write_text(text[: end_of_line_6 - 40] if cut == "mid-line" else text[:end_of_line_6])
    result = invoke(small, *RESUMABLE, "--results", path, "--resume", "--format", "jsonl")
    assert result.exit_code == 0, result.output
    # A last line without its newline may be torn anywhere: it is cut and run again.
    assert "resumed: 4 puzzles from the results log" in result.stderr
    assert [record["number"] for record in jsonl(result.stdout)] == list(range(15))
    assert without_timing(puzzles_of(path)) == without_timing(whole)


def test_an_existing_results_log_is_never_overwritten(small: Path, tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    complete_run(small, path)
    before = path.read_text()
    result = invoke(small, *RESUMABLE, "--results", path)
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: {path} already holds results: pass --resume to continue "
        f"that run, or choose another results file\n"
    )
    assert path.read_text() == before


def test_resume_refuses_other_settings(small: Path, tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    complete_run(small, path)
    before = path.read_text()
    other_mode = invoke(small, *RESUMABLE, "--mode", "any", "--results", path, "--resume")
    assert other_mode.exit_code == 2
    assert other_mode.stderr == (
        f"Error: {path} was written with other settings (mode lexmin "
        f"in the file, any now): resume with the same settings, or "
        f"choose another results file\n"
    )
    other_backends = invoke(
        small, "--backends", "dfs", "--jobs", "1", "--results", path, "--resume"
    )
    assert other_backends.exit_code == 2
    assert "(backends dfs,interrupting in the file, dfs now)" in other_backends.stderr
    assert path.read_text() == before


def edited_input(small: Path, tmp_path: Path) -> tuple[Path, Path, str]:
    """A finished log whose input file has since changed its first puzzle: the input, the
    log, and the log's text."""
    edited = tmp_path / "small.txt"
    edited.write_text(small.read_text())
    path = tmp_path / "r.jsonl"
    complete_run(edited, path)
    edited.write_text(small.read_text().replace(BAEKJOON_2239, BAEKJOON_2239_ANSWER))
    return edited, path, path.read_text()


def test_resume_refuses_another_puzzle_at_a_done_place(small: Path, tmp_path: Path) -> None:
    edited, path, before = edited_input(small, tmp_path)
    result = invoke(edited, *RESUMABLE, "--results", path, "--resume")
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: {path} comes from a different input: puzzle 1 of "
        f"{edited} differs; resume with the same input, or choose "
        f"another results file\n"
    )
    assert puzzles_of(path) == [record for record in jsonl(before) if record["kind"] == "puzzle"]


def test_a_refused_resume_leaves_the_log_as_it_was(small: Path, tmp_path: Path) -> None:
    edited, path, before = edited_input(small, tmp_path)
    assert invoke(edited, *RESUMABLE, "--results", path, "--resume").exit_code == 2
    assert path.read_text() == before


def test_resume_refuses_another_input(small: Path, serg: Path, tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    complete_run(small, path)
    before = path.read_text()
    result = invoke(serg, *RESUMABLE, "--results", path, "--resume")
    assert result.exit_code == 2
    assert path.read_text() == before


def test_resume_of_a_finished_run_runs_nothing_and_reports_it_all(
    small: Path, tmp_path: Path
) -> None:
    path = tmp_path / "r.jsonl"
    whole = complete_run(small, path)
    result = invoke(small, *RESUMABLE, "--results", path, "--resume")
    assert result.exit_code == 0
    assert "15 puzzles: 0 wrong, 0 disagree, 0 error, 0 timeout, 15 agree" in result.stdout
    assert "resumed: 15 puzzles from the results log" in result.stdout
    assert puzzles_of(path) == whole


def test_resumed_puzzles_count_in_the_progress_but_not_in_its_rate(
    small: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The puzzles of the log are replayed in a blink: in the rate they made a 130 s run's
    # ETA 0:17. The count includes them; the rate and ETA wait for this session's own.
    path = tmp_path / "r.jsonl"
    complete_run(small, path)
    screen = io.StringIO()
    monkeypatch.setattr(
        progress.Progress,
        "__init__",
        functools.partialmethod(
            progress.Progress.__init__, stream=screen, enabled=True, interval=0
        ),
    )
    assert invoke(small, *RESUMABLE, "--results", path, "--resume").exit_code == 0
    draws = screen.getvalue().split("\r")[1:]
    assert draws[-1].startswith("crosscheck 15/15 (100%)")
    assert not any("/s" in draw or "ETA" in draw for draw in draws)


def test_certify_says_how_many_answers_are_certified_and_what_failed(tmp_path: Path) -> None:
    pytest.importorskip("dratify")
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(f"{BAEKJOON_2239}\n{random_multi_solution(9, 30, 1).to_line()}\n")
    result = invoke(puzzles, "-b", "dfs,notlexmin", "-j", "1", "--certify")
    assert result.exit_code == 1
    assert "\n3/4 answers certified; 1 not certified, counted as wrong\n" in result.stdout
    quiet = invoke(puzzles, "-b", "dfs,sat", "-j", "1", "--certify", "--format", "jsonl")
    assert "\n4/4 answers certified\n" in quiet.stderr


def test_the_certified_tally_counts_the_resumed_answers(tmp_path: Path) -> None:
    pytest.importorskip("dratify")
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(f"{BAEKJOON_2239}\n{random_multi_solution(9, 30, 1).to_line()}\n")
    path = tmp_path / "r.jsonl"
    first = invoke(
        puzzles, "-b", "dfs,sat", "-j", "1", "--certify", "--results", path, "--first", 1
    )
    assert "\n2/2 answers certified\n" in first.stdout
    resumed = invoke(
        puzzles, "-b", "dfs,sat", "-j", "1", "--certify", "--results", path, "--resume"
    )
    assert resumed.exit_code == 0, resumed.output
    assert "\n4/4 answers certified\n" in resumed.stdout  # the log's two answers, and two more


def test_the_results_log_starts_with_the_settings(small: Path, tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    complete_run(small, path)
    header = jsonl(path.read_text())[0]
    assert {key: header[key] for key in ("kind", "format", "version", "command")} == {
        "kind": "header",
        "format": "sudoku-cp results",
        "version": 3,
        "command": "crosscheck",
    }
    assert header["settings"] == {
        "mode": "lexmin",
        "limit": None,
        "time_limit": None,
        "repeat": 1,
        "warmup": 0,
        "backends": [
            {"label": "dfs", "backend": "dfs", "options": {}},
            {"label": "interrupting", "backend": "interrupting", "options": {}},
        ],
    }


def test_jsonl_prints_one_record_per_puzzle_and_the_summary_on_stderr(small: Path) -> None:
    result = invoke(small, "--backends", "dfs,sat", "--jobs", "1", "--format", "jsonl")
    assert result.exit_code == 0
    records = jsonl(result.stdout)
    assert [(record["kind"], record["number"], record["verdict"]) for record in records] == [
        ("puzzle", number, "agree") for number in range(15)
    ]
    assert records[0]["runs"][1]["solution"] == BAEKJOON_2239_ANSWER
    assert result.stderr.splitlines()[0] == "crosscheck --mode lexmin: dfs, sat"
    assert "15 puzzles: 0 wrong, 0 disagree, 0 error, 0 timeout, 15 agree" in result.stderr


def test_unknown_backends_are_one_line_and_exit_2() -> None:
    result = invoke("--backends", "dfs,nope", stdin=BAEKJOON_2239 + "\n")
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: unknown backend 'nope' (choose from {', '.join(backend_names())})\n"
    )


def test_resume_without_results_is_bad_usage() -> None:
    result = invoke("--resume", stdin=BAEKJOON_2239 + "\n")
    assert result.exit_code == 2
    assert result.stderr == (
        "Error: --resume needs --results FILE (the results log of the run to continue)\n"
    )


def test_bad_input_lines_are_reported_and_the_run_goes_on() -> None:
    stdin = f"{BAEKJOON_2239}\n{'x' * 81}\n{'0' * 16}\n"
    result = invoke("--backends", "dfs,sat", "--jobs", "1", "--format", "jsonl", stdin=stdin)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == (
        "<stdin>:2:1: unknown symbol 'x' (a 9x9 puzzle uses 0 or . for blank and 1-9)"
    )
    assert "1 input line is not a puzzle (not run)" in result.stderr
    records = jsonl(result.stdout)
    assert [(record["index"], record["verdict"]) for record in records] == [
        (0, "agree"),
        (2, "agree"),
    ]


def test_out_names_the_results_log_as_in_bench(tmp_path) -> None:
    """`--out` is bench's older name of --results; crosscheck takes it too (click had suggested
    --amo for it)."""
    from click.testing import CliRunner

    from sudoku_cp.cli import main

    log = tmp_path / "r.jsonl"
    result = CliRunner().invoke(
        main, ["crosscheck", "-b", "dfs", "-j", "1", "--out", str(log)], input="0" * 16 + "\n"
    )
    assert result.exit_code == 0 and log.exists()
    assert "warning: --out is now --results" in result.stderr


def test_first_takes_the_first_puzzles_of_each_input(tmp_path: Path) -> None:
    puzzles = tmp_path / "p.txt"
    puzzles.write_text("\n".join([BAEKJOON_2239] * 5) + "\n")
    result = invoke(puzzles, puzzles, "-b", "dfs", "-j", "1", "--first", "2", "--format", "jsonl")
    assert result.exit_code == 0, result.output
    assert [(entry["number"], entry["index"]) for entry in jsonl(result.stdout)] == [
        (0, 0),
        (1, 1),
        (0, 2),
        (1, 3),
    ]
