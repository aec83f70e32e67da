"""Benchmarks: the statistics of measure.py on hand-made runs, timed runs through the engine
(every one verified, a wrong one counted and never timed), set-up measured apart, and
`sudoku-cp bench` end to end (results log, resume, refusals, exit codes)."""

from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path
from typing import Any

import pytest

import sudoku_cp
from sudoku_cp.bench_statistics import (
    PuzzleOutcome,
    geometric_mean_ratio,
    has_failures,
    par2,
    percentile,
    puzzle_outcomes,
    summarize,
)
from sudoku_cp.configurations import Configuration
from sudoku_cp.environment import check_set_names, environment, first_of_each_shape, measure_setup
from sudoku_cp.errors import BenchError
from sudoku_cp.grid import Grid
from sudoku_cp.inputs import PuzzleStream
from sudoku_cp.judging import SolveSettings
from sudoku_cp.results_log.reader import Results, load_results
from sudoku_cp.verify import check_completion

from .bench_helpers import (
    bench_table,
    hand_made_rows,
    invoke,
    lines_of,
    register_wrong,
    rows_of,
    run_row,
)
from .conftest import BAEKJOON_2239, BAEKJOON_2239_ANSWER, DATA, EMPTY_4_LEXMIN
from .wrong_backends import InterruptingBackend

Record = dict[str, Any]

EXAMPLES = DATA / "examples"
EMPTY_4 = "0" * 16


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


# -- statistics on hand-made runs ------------------------------------------------------------------


def test_percentile_is_nearest_rank() -> None:
    values = [float(value) for value in range(10, 0, -1)]  # unsorted on purpose
    assert [percentile(values, p) for p in (10, 50, 90, 99, 100)] == [1, 5, 9, 10, 10]
    assert percentile([5.0, 1.0, 3.0], 90) == 5.0  # rank ceil(2.7) = 3
    assert percentile(values, 91) == 10 and percentile([1.0, 2.0, 3.0, 4.0], 30) == 2.0  # up
    assert percentile([4.0], 99) == 4.0
    # 0.07 * 100 is 7.000000000000001 in floating point: the rank must still be 7, not 8.
    assert percentile([float(value) for value in range(1, 101)], 7) == 7
    with pytest.raises(ValueError):
        percentile([], 50)
    with pytest.raises(ValueError):
        percentile([1.0], 0)


def test_par2_counts_twice_the_limit_for_every_unsolved_puzzle() -> None:
    outcomes = [
        PuzzleOutcome("solved", 1.0, 9, 30),
        PuzzleOutcome("timeout", None, 9, 30),
        PuzzleOutcome("wrong", None, 9, 30),
        PuzzleOutcome("error", None, 9, 30),
        PuzzleOutcome("unsatisfiable", 3.0, 9, 30),
    ]
    assert par2(outcomes, time_limit=10.0) == pytest.approx((1 + 20 + 20 + 20 + 3) / 5)
    assert par2(outcomes, time_limit=None) is None  # no limit, no penalty: refused, not guessed


def test_geometric_mean_ratio_over_puzzles_both_solved() -> None:
    mine = {
        0: PuzzleOutcome("solved", 2.0, 9, 30),
        1: PuzzleOutcome("solved", 8.0, 9, 30),
        2: PuzzleOutcome("solved", 1.0, 9, 30),
        3: PuzzleOutcome("solved", 5.0, 9, 30),
        4: PuzzleOutcome("timeout", None, 9, 30),
    }
    base = {
        0: PuzzleOutcome("solved", 1.0, 9, 30),
        1: PuzzleOutcome("solved", 2.0, 9, 30),
        2: PuzzleOutcome("solved", 4.0, 9, 30),
        3: PuzzleOutcome("timeout", None, 9, 30),
        4: PuzzleOutcome("solved", 1.0, 9, 30),
    }
    ratio, puzzles = geometric_mean_ratio(mine, base)
    assert puzzles == 3  # puzzles 3 and 4 were not solved by both
    assert ratio == pytest.approx((2 * 4 * 0.25) ** (1 / 3))
    assert geometric_mean_ratio(mine, {}) == (None, 0)


def test_summary_by_hand() -> None:
    a, b = summarize(hand_made_rows(), time_limit=10.0, baseline="a")
    assert (a.set, a.mode, a.backend) == ("top", "lexmin", "a")
    assert (a.puzzles, a.solved, a.timeouts, a.wrong, a.errors) == (3, 2, 1, 0, 0)
    assert a.par2 == pytest.approx((0.001 + 0.004 + 20) / 3)
    assert (a.mean, a.median, a.p90, a.p99, a.max) == pytest.approx(
        (0.0025, 0.0025, 0.004, 0.004, 0.004)
    )
    assert a.ratio == pytest.approx(1.0) and a.ratio_puzzles == 2
    assert b.par2 == pytest.approx((0.002 + 0.001 + 0.5) / 3) == b.mean
    assert (b.median, b.p90, b.p99, b.max) == pytest.approx((0.002, 0.5, 0.5, 0.5))
    assert b.ratio == pytest.approx(math.sqrt(2 * 0.25))  # only puzzles 0 and 1: a timed out on 2
    assert b.ratio_puzzles == 2


def test_repeats_median_time_and_worst_status() -> None:
    runs = [
        run_row("s", 0, "a", "solved", seconds, repeat=repeat)
        for repeat, seconds in enumerate([0.3, 0.1, 0.2])
    ]
    runs += [
        run_row("s", 1, "a", "solved", 0.1, repeat=0),
        run_row("s", 1, "a", "timeout", 1.0, repeat=1),
        run_row("s", 1, "a", "solved", 0.1, repeat=2),
    ]
    runs += [
        run_row("s", 2, "a", "error", None, repeat=0),
        run_row("s", 2, "a", "wrong", 0.1, repeat=1),
    ]
    outcomes = puzzle_outcomes(runs)[("s", "lexmin", "a")]
    assert outcomes[0] == PuzzleOutcome("solved", 0.2, 9, 30)
    assert outcomes[1] == PuzzleOutcome("timeout", None, 9, 30)
    assert outcomes[2] == PuzzleOutcome("wrong", None, 9, 30)  # wrong is worse than error


def test_runs_written_twice_count_once_last_wins() -> None:
    runs = [run_row("s", 0, "a", "timeout", 1.0), run_row("s", 0, "a", "solved", 0.5)]
    (row,) = summarize(rows_of(runs), time_limit=1.0, baseline=None)
    assert (row.puzzles, row.solved, row.timeouts, row.mean) == (1, 1, 0, 0.5)


def test_rows_follow_sets_then_modes_then_backends_in_order_of_appearance() -> None:
    runs = [
        run_row("s2", 0, "b", "solved", 0.1),
        run_row("s1", 0, "a", "solved", 0.1),
        run_row("s2", 0, "a", "solved", 0.1),
        run_row("s1", 0, "b", "solved", 0.1),
        run_row("s2", 0, "a", "solved", 0.1, mode="any"),
    ]
    rows = summarize(rows_of(runs), time_limit=None, baseline="a")
    assert [(row.set, row.mode, row.backend) for row in rows] == [
        ("s2", "lexmin", "b"),
        ("s2", "lexmin", "a"),
        ("s2", "any", "a"),
        ("s1", "lexmin", "a"),
        ("s1", "lexmin", "b"),
    ]
    assert all(row.par2 is None for row in rows)


def test_wrong_and_error_runs_are_failures_timeouts_are_not() -> None:
    assert not has_failures(
        [run_row("s", 0, "a", "solved", 0.1), run_row("s", 1, "a", "timeout", 1.0)]
    )
    assert has_failures([run_row("s", 0, "a", "wrong", 0.1)])
    assert has_failures([run_row("s", 0, "a", "error", None)])


def test_two_inputs_that_would_be_one_set_are_refused(tmp_path: Path) -> None:
    check_set_names([str(tmp_path / "one.txt"), str(tmp_path / "two.txt"), "-"])
    with pytest.raises(BenchError, match="would both be set 'bad': rename one of them"):
        check_set_names([str(tmp_path / "bad.txt"), str(tmp_path / "a" / "bad.txt")])


# -- timed runs through the engine: verified, never silently timed ---------------------------------


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


# -- set-up and environment ------------------------------------------------------------------------


def stream(tmp_path: Path, lines: list[str], name: str = "tiny") -> PuzzleStream:
    path = tmp_path / f"{name}.txt"
    path.write_text("\n".join(lines) + "\n")
    return PuzzleStream([str(path)])


def test_setup_is_measured_on_the_first_puzzle_of_each_shape(tmp_path: Path) -> None:
    records = list(stream(tmp_path, [BAEKJOON_2239, EMPTY_4, "0" * 81, "0" * 36]))
    assert [(name, puzzle, box) for name, puzzle, box in first_of_each_shape(records)] == [
        ("tiny", BAEKJOON_2239, (3, 3)),
        ("tiny", EMPTY_4, (2, 2)),
        ("tiny", "0" * 36, (2, 3)),
    ]


def test_setup_is_measured_in_a_fresh_interpreter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, register: Any
) -> None:
    register_wrong(register, "rulebreaker")
    puzzles = first_of_each_shape(stream(tmp_path, [BAEKJOON_2239, EMPTY_4, BAEKJOON_2239]))
    setup = measure_setup(
        [Configuration("dfs"), Configuration("rulebreaker", label="rb")], puzzles, SolveSettings()
    )
    assert list(setup) == ["dfs", "rb"]
    for measured in setup.values():  # rulebreaker lives in tests/: the child finds it too
        assert measured["import_seconds"] is None  # pure Python: nothing to import
        assert measured["create_seconds"] >= 0
        assert [shape["size"] for shape in measured["shapes"]] == [9, 4]
        assert [shape["set"] for shape in measured["shapes"]] == ["tiny", "tiny"]
        assert all(
            shape["first_seconds"] > 0 and shape["warm_seconds"] > 0 for shape in measured["shapes"]
        )


def test_a_failing_setup_is_an_error_entry_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, register: Any
) -> None:
    register_wrong(register, "crasher")  # raises on puzzles whose first cell is blank
    puzzles = first_of_each_shape(stream(tmp_path, [EMPTY_4]))
    setup = measure_setup([Configuration("crasher")], puzzles, SolveSettings())
    assert setup["crasher"]["error"] == "RuntimeError: boom"


def test_environment_records_machine_versions_and_command() -> None:
    found = environment(
        configurations=[Configuration("dfs"), Configuration("cpsat"), Configuration("sat")],
        jobs=1,
        argv="sudoku-cp bench x",
    )
    assert {
        "tool",
        "date",
        "argv",
        "python",
        "platform",
        "cpu",
        "cores",
        "usable_cores",
        "jobs",
        "load_average",
        "versions",
    } <= set(found)
    assert found["argv"] == "sudoku-cp bench x" and found["jobs"] == 1
    assert set(found["versions"]) == {"ortools", "python-sat"}  # what the backends declare
    assert environment(configurations=[Configuration("dfs")], jobs=1, argv="x")["versions"] == {}


# -- the command line ------------------------------------------------------------------------------

TINY = [EXAMPLES / "baekjoon2239.txt", EXAMPLES / "empty4.txt", EXAMPLES / "empty9.txt"]
# The outcome table's columns, as `bench_table` reads them (one table per set).
TABLE_COLUMNS = ["solved", "timeout", "wrong", "error", "PAR-2", "Borda", "median", "max", "ratio"]


def puzzles_of(path: Path) -> list[Record]:
    return [line for line in lines_of(path) if line["kind"] == "puzzle"]


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


def test_api_bench_returns_results_and_writes_the_same_log(tmp_path: Path) -> None:
    log = tmp_path / "api.jsonl"
    results = sudoku_cp.bench(
        [str(TINY[0]), str(TINY[1])], backends=["dfs", "sat"], time_limit=5, results=log
    )
    assert isinstance(results, Results)
    assert results.labels() == ["dfs", "sat"] and results.time_limit == 5.0
    assert load_results(log).entries == results.entries
    for entry in results.entries:  # solutions are kept: the log can be checked again
        puzzle = Grid.parse(entry.puzzle)
        for run in entry.runs:
            assert (
                run.solution is not None and check_completion(puzzle, Grid.parse(run.solution)).ok
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


# -- what bench says while it runs ---------------------------------------------------------------


def test_without_scipy_bench_says_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    from sudoku_cp import bench_statistics

    monkeypatch.setattr(bench_statistics, "statistics_available", lambda: False)
    result = invoke(
        "bench", *TINY, "-b", "dfs,sat", "--repeat", "2", "--no-setup", "--executor", "inline"
    )
    assert result.exit_code == 0, result.output
    assert (
        "Note: the 95% intervals and the Wilcoxon test need scipy, which is not installed: "
        "pip install 'sudoku-cp[stats]'"
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
