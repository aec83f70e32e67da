"""bench.py: the statistics on hand-made records, verification of every timed run, resuming,
set-up measurement, and `sudoku-cp bench` end to end."""

import json
import math

import pytest
from click.testing import CliRunner

from sudoku_cp import backends as backend_registry
from sudoku_cp import bench
from sudoku_cp.backends import register_backend
from sudoku_cp.bench import (RUN_COLUMNS, BenchError, PuzzleOutcome, completed_keys,
                             geometric_mean_ratio, measure, par2, percentile, plan_runs,
                             puzzle_outcomes, puzzle_sets, summarize)
from sudoku_cp.cli import main
from sudoku_cp.formats import Layout, Loaded, load_puzzles, read_puzzles
from sudoku_cp.result import Mode
from sudoku_cp.runner import BackendSpec, SolveSettings

from .bench_helpers import TEST_BACKENDS, run_record
from .conftest import BAEKJOON_2239, DATA

EXAMPLES = DATA / "examples"
EMPTY_4 = "0" * 16


@pytest.fixture
def test_backends():
    """The deliberately wrong backends, registered for one test and removed after it."""
    saved = dict(backend_registry._REGISTRY)
    for name, class_name in TEST_BACKENDS.items():
        register_backend(name, "tests.bench_helpers", class_name)
    yield
    backend_registry._REGISTRY.clear()
    backend_registry._REGISTRY.update(saved)


def tiny_sets(lines, name="tiny"):
    _, records = read_puzzles("\n".join(lines) + "\n", source=f"{name}.txt")
    return puzzle_sets(Loaded(records, {f"{name}.txt": Layout.LINE}, []))


def measured(lines, backends, *, mode="lexmin", repeat=1, warmup=0, time_limit=None):
    plan = plan_runs(tiny_sets(lines), [BackendSpec(name) for name in backends],
                     mode=Mode(mode))
    settings = SolveSettings(Mode(mode), 2, time_limit, warmup, repeat)
    return [record for puzzle in measure(plan, settings) for record in puzzle]


def by_backend(records, backend):
    return [record for record in records if record["backend"] == backend]


# -- statistics on hand-made records ---------------------------------------------------------------

def test_percentile_is_nearest_rank():
    values = list(range(10, 0, -1))  # unsorted on purpose
    assert [percentile(values, p) for p in (10, 50, 90, 99, 100)] == [1, 5, 9, 10, 10]
    assert percentile([5.0, 1.0, 3.0], 90) == 5.0  # rank ceil(2.7) = 3
    assert percentile([4.0], 99) == 4.0
    # 0.07 * 100 is 7.000000000000001 in floating point: the rank must still be 7, not 8.
    assert percentile(list(range(1, 101)), 7) == 7
    with pytest.raises(ValueError):
        percentile([], 50)


def test_par2_counts_twice_the_limit_for_every_unsolved_puzzle():
    outcomes = [PuzzleOutcome("solved", 1.0, 9, 30), PuzzleOutcome("timeout", None, 9, 30),
                PuzzleOutcome("wrong", None, 9, 30), PuzzleOutcome("unsatisfiable", 3.0, 9, 30)]
    assert par2(outcomes, time_limit=10.0) == pytest.approx((1 + 20 + 20 + 3) / 4)
    assert par2(outcomes, time_limit=None) is None  # no limit, no penalty: refused, not guessed


def test_geometric_mean_ratio_over_puzzles_both_solved():
    mine = {0: PuzzleOutcome("solved", 2.0, 9, 30), 1: PuzzleOutcome("solved", 8.0, 9, 30),
            2: PuzzleOutcome("solved", 1.0, 9, 30), 3: PuzzleOutcome("solved", 5.0, 9, 30),
            4: PuzzleOutcome("timeout", None, 9, 30)}
    base = {0: PuzzleOutcome("solved", 1.0, 9, 30), 1: PuzzleOutcome("solved", 2.0, 9, 30),
            2: PuzzleOutcome("solved", 4.0, 9, 30), 3: PuzzleOutcome("timeout", None, 9, 30),
            4: PuzzleOutcome("solved", 1.0, 9, 30)}
    ratio, puzzles = geometric_mean_ratio(mine, base)
    assert puzzles == 3  # puzzles 3 and 4 were not solved by both
    assert ratio == pytest.approx((2 * 4 * 0.25) ** (1 / 3))


def test_summary_by_hand():
    records = [
        run_record("top", 0, "a", "solved", 0.001), run_record("top", 1, "a", "solved", 0.004),
        run_record("top", 2, "a", "timeout", 10.0),
        run_record("top", 0, "b", "solved", 0.002), run_record("top", 1, "b", "solved", 0.001),
        run_record("top", 2, "b", "solved", 0.5),
    ]
    a, b = summarize(records, time_limit=10.0, baseline="a")
    assert (a.backend, a.puzzles, a.solved, a.timeouts, a.wrong, a.errors) == ("a", 3, 2, 1, 0, 0)
    assert a.par2 == pytest.approx((0.001 + 0.004 + 20) / 3)
    assert (a.mean, a.median, a.p90, a.p99, a.max) == pytest.approx((0.0025, 0.0025, 0.004,
                                                                      0.004, 0.004))
    assert (a.ratio, a.ratio_puzzles) == (pytest.approx(1.0), 2)
    assert b.par2 == pytest.approx((0.002 + 0.001 + 0.5) / 3) == b.mean
    assert (b.median, b.p90, b.p99, b.max) == pytest.approx((0.002, 0.5, 0.5, 0.5))
    assert b.ratio == pytest.approx(math.sqrt(2 * 0.25))  # only puzzles 0 and 1: a timed out on 2


def test_repeats_median_time_and_worst_status():
    records = [run_record("s", 0, "a", "solved", seconds, repeat=repeat)
               for repeat, seconds in enumerate([0.3, 0.1, 0.2])]
    records += [run_record("s", 1, "a", "solved", 0.1, repeat=0),
                run_record("s", 1, "a", "timeout", 1.0, repeat=1),
                run_record("s", 1, "a", "solved", 0.1, repeat=2)]
    outcomes = puzzle_outcomes(records)[("s", "lexmin", "a")]
    assert outcomes[0] == PuzzleOutcome("solved", 0.2, 9, 30)
    assert outcomes[1] == PuzzleOutcome("timeout", None, 9, 30)


def test_records_written_twice_count_once_last_wins():
    records = [run_record("s", 0, "a", "timeout", 1.0), run_record("s", 0, "a", "solved", 0.5)]
    (row,) = summarize(records, time_limit=1.0, baseline=None)
    assert (row.puzzles, row.solved, row.mean) == (1, 1, 0.5)


def test_rows_follow_sets_then_backends_in_order_of_appearance():
    records = [run_record("s2", 0, "b", "solved", 0.1), run_record("s1", 0, "a", "solved", 0.1),
               run_record("s2", 0, "a", "solved", 0.1), run_record("s1", 0, "b", "solved", 0.1)]
    rows = summarize(records, time_limit=None, baseline="a")
    assert [(row.set, row.backend) for row in rows] == [("s2", "b"), ("s2", "a"), ("s1", "a"),
                                                         ("s1", "b")]
    assert all(row.par2 is None for row in rows)


# -- measuring: verified, never silently timed -----------------------------------------------------

def test_record_schema_and_puzzle_facts():
    records = measured([BAEKJOON_2239, EMPTY_4], ["dfs", "sat"], repeat=2)
    assert all(tuple(record) == RUN_COLUMNS for record in records)
    assert [(r["index"], r["backend"], r["repeat"]) for r in records] == [
        (0, "dfs", 0), (0, "dfs", 1), (0, "sat", 0), (0, "sat", 1),
        (1, "dfs", 0), (1, "dfs", 1), (1, "sat", 0), (1, "sat", 1)]
    first = records[0]
    assert (first["set"], first["line"], first["puzzle"], first["size"], first["givens"]) == (
        "tiny", 1, BAEKJOON_2239, 9, 30)
    assert {r["status"] for r in records} == {"solved"}
    assert records[4]["size"] == 4 and records[4]["givens"] == 0
    sat = by_backend(records, "sat")[0]
    # The backend's build/solve split is lifted out of its stats into columns.
    assert sat["build_seconds"] is not None and sat["solve_seconds"] is not None
    assert "build_seconds" not in sat["stats"] and "sat_calls" in sat["stats"]
    assert first["build_seconds"] is None and "nodes" in first["stats"]
    json.dumps(records)  # JSON-ready


def test_priming_keeps_one_off_set_up_out_of_the_first_timed_run():
    records = measured([EMPTY_4, BAEKJOON_2239], ["sat"])
    # The sat backend builds its solver once per grid shape: the untimed priming run did it.
    assert [record["stats"]["reused"] for record in records] == [True, True]
    assert [record["build_seconds"] for record in records] == [0.0, 0.0]


def test_a_wrong_completion_is_counted_and_not_timed(test_backends):
    records = measured([BAEKJOON_2239, EMPTY_4], ["dfs", "broken"], time_limit=1.0)
    broken = by_backend(records, "broken")
    assert [record["status"] for record in broken] == ["wrong", "wrong"]
    assert broken[0]["reason"].startswith("not a completion: ")
    assert broken[0]["solution"] is not None  # kept to audit the wrong answer
    assert by_backend(records, "dfs")[0]["solution"] is None
    dfs_row, broken_row = summarize(records, time_limit=1.0, baseline="dfs")
    assert (broken_row.solved, broken_row.wrong, broken_row.mean, broken_row.ratio) == (
        0, 2, None, None)
    assert broken_row.par2 == 2.0 and dfs_row.solved == 2
    assert bench.has_failures(records)


def test_an_unsatisfiable_claim_is_wrong_when_another_backend_found_a_completion(test_backends):
    records = measured([BAEKJOON_2239], ["nothing", "dfs"])
    assert by_backend(records, "nothing")[0]["status"] == "wrong"
    assert by_backend(records, "nothing")[0]["reason"] == (
        "claims no completion, but dfs found one")
    alone = measured([BAEKJOON_2239], ["nothing"])
    assert alone[0]["status"] == "unsatisfiable"  # nothing to contradict it: an answer


def test_a_larger_completion_is_not_the_lexmin(test_backends):
    records = measured([EMPTY_4], ["swapped", "dfs"])
    assert by_backend(records, "swapped")[0]["status"] == "wrong"
    assert by_backend(records, "swapped")[0]["reason"] == (
        "not the lex-min: dfs found a smaller completion")
    assert by_backend(measured([EMPTY_4], ["swapped", "dfs"], mode="any"),
                      "swapped")[0]["status"] == "solved"


def test_a_timeout_is_recorded_as_such():
    records = measured(["0" * 625], ["dfs"], time_limit=0.05)
    assert records[0]["status"] == "timeout" and records[0]["seconds"] >= 0.05


# -- puzzle sets, resuming, set-up, header ---------------------------------------------------------

def test_sets_are_named_after_file_stems_and_limited(tmp_path):
    first, second = tmp_path / "one.txt", tmp_path / "two.txt"
    first.write_text(f"{BAEKJOON_2239}\n{EMPTY_4}\n{EMPTY_4}\n")
    second.write_text(f"{EMPTY_4}\n")
    sets = puzzle_sets(load_puzzles([str(first), str(second)]), limit_puzzles=2)
    assert [(s.name, len(s.records)) for s in sets] == [("one", 2), ("two", 1)]
    assert bench.set_index(sets[1], sets[1].records[0]) == 0  # not 3, its number in the run


def test_bad_input_and_clashing_names_are_refused(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text(f"{EMPTY_4}\n{'x' * 16}\n")
    with pytest.raises(BenchError, match=r"bad.txt:2:1: unknown symbol 'x'"):
        puzzle_sets(load_puzzles([str(bad)]))
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "bad.txt").write_text(f"{EMPTY_4}\n")
    bad.write_text(f"{EMPTY_4}\n")
    with pytest.raises(BenchError, match="would both be set 'bad'"):
        puzzle_sets(load_puzzles([str(bad), str(tmp_path / "a" / "bad.txt")]))


def test_resume_plans_only_what_is_missing():
    sets = tiny_sets([BAEKJOON_2239, EMPTY_4])
    specs = [BackendSpec("dfs"), BackendSpec("sat")]
    done_records = [run_record("tiny", 0, "dfs", "solved", 0.1, puzzle=BAEKJOON_2239),
                    run_record("tiny", 0, "dfs", "solved", 0.1, puzzle=BAEKJOON_2239, repeat=1),
                    run_record("tiny", 1, "dfs", "error", None, puzzle=EMPTY_4),
                    run_record("tiny", 1, "sat", "solved", 0.1, puzzle=EMPTY_4, repeat=0)]
    done = completed_keys(done_records, repeat=2)  # sat has one repeat of two: not done
    plan = plan_runs(sets, specs, mode=Mode.LEXMIN, done=done)
    assert [([spec.name for spec in group], [p.index for p in puzzles])
            for group, puzzles in plan.groups] == [(["sat"], [0, 1])]
    assert plan.total == 2
    assert plan_runs(sets, specs, mode=Mode.ANY, done=done).total == 2  # another mode: all


def test_resume_refuses_other_settings():
    header = {"settings": {"mode": "lexmin", "limit": 2, "time_limit": 5.0, "warmup": 0,
                           "repeat": 1, "backends": {"sat": {"sat_solver": "glucose4"}}}}
    same = json.loads(json.dumps(header))
    bench.check_resumable(header, same)
    other = json.loads(json.dumps(header))
    other["settings"]["time_limit"] = 2.0
    with pytest.raises(BenchError, match="measured with time_limit 5.0, not 2.0"):
        bench.check_resumable(header, other)
    other = json.loads(json.dumps(header))
    other["settings"]["backends"] = {"sat": {"sat_solver": "cadical195"}}
    with pytest.raises(BenchError, match="backend sat was measured with options"):
        bench.check_resumable(header, other)


def test_setup_is_measured_in_a_fresh_interpreter(test_backends):
    sets = tiny_sets([BAEKJOON_2239, EMPTY_4, BAEKJOON_2239])
    setup = bench.measure_setup([BackendSpec("dfs"), BackendSpec("broken")], sets,
                                SolveSettings())
    for backend in ("dfs", "broken"):  # broken lives in tests/: the child finds it too
        assert setup[backend]["import_seconds"] is None  # pure Python: nothing to import
        assert [shape["size"] for shape in setup[backend]["shapes"]] == [9, 4]
        assert all(shape["first_seconds"] > 0 and shape["warm_seconds"] > 0
                   for shape in setup[backend]["shapes"])


def test_header_records_the_environment():
    sets = tiny_sets([EMPTY_4])
    header = bench.environment(specs=[BackendSpec("dfs")], settings=SolveSettings(time_limit=3),
                               sets=sets, jobs=1, baseline="dfs", command="sudoku-cp bench x")
    assert header["kind"] == "header"
    assert {"date", "python", "cpu", "cores", "load_average", "versions", "command"} <= set(header)
    assert set(header["versions"]) >= {"ortools", "python-sat"}
    assert header["settings"]["time_limit"] == 3
    assert header["sets"] == {"tiny": {"path": "tiny.txt", "puzzles": 1}}


# -- the command line ------------------------------------------------------------------------------

def invoke(*args):
    return CliRunner().invoke(main, [str(arg) for arg in args])


TINY = [EXAMPLES / "baekjoon2239.txt", EXAMPLES / "empty4.txt", EXAMPLES / "empty9.txt"]
TABLE_COLUMNS = ["set", "backend", "puzzles", "solved", "timeout", "wrong", "error", "PAR-2",
                 "mean", "median", "p90", "p99", "max", "t/dfs"]


def lines_of(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_cli_bench_out_resume_and_refusals(tmp_path):
    out = tmp_path / "results.jsonl"
    result = invoke("bench", *TINY, "--backends", "dfs", "--time-limit", 5, "--out", out,
                    "--no-setup")
    assert result.exit_code == 0, result.output
    table = result.stdout.splitlines()
    assert table[0].split() == TABLE_COLUMNS
    assert [line.split()[:4] for line in table[1:4]] == [
        ["baekjoon2239", "dfs", "1", "1"], ["empty4", "dfs", "1", "1"], ["empty9", "dfs", "1", "1"]]
    assert table[4] == "" and table[5].startswith("Times in ms per puzzle")
    written = lines_of(out)
    assert written[0]["kind"] == "header" and len(written) == 4

    again = invoke("bench", *TINY, "--backends", "dfs", "--time-limit", 5, "--out", out)
    assert again.exit_code == 2
    assert again.stderr == (f"Error: {out} already holds results: add --resume to continue it, "
                            f"or choose another --out\n")

    other = invoke("bench", *TINY, "--backends", "dfs", "--time-limit", 2, "--out", out,
                   "--resume")
    assert other.exit_code == 2
    assert other.stderr == ("Error: cannot resume: the results were measured with time_limit "
                            "5.0, not 2.0\n")

    more = invoke("bench", *TINY, "--backends", "dfs,sat", "--time-limit", 5, "--out", out,
                  "--resume", "--no-setup")
    assert more.exit_code == 0, more.output
    assert "Resumed" in more.stderr and "0 of 3 puzzles were already measured" in more.stderr
    written = lines_of(out)
    assert [line.get("kind") for line in written].count("header") == 2
    assert written[4]["resumed"] is True
    assert [line["backend"] for line in written[5:]] == ["sat"] * 3  # dfs was not run again
    assert len(more.stdout.splitlines()[1:7]) == 6  # the summary covers the whole file

    done = invoke("bench", *TINY, "--backends", "dfs,sat", "--time-limit", 5, "--out", out,
                  "--resume")
    assert done.exit_code == 0 and len(lines_of(out)) == len(written)  # nothing left to do


def test_cli_bench_interrupted_then_resumed(tmp_path, monkeypatch):
    out = tmp_path / "results.csv"
    real = bench.puzzle_records
    calls = []

    def interrupt_second(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(bench, "puzzle_records", interrupt_second)
    result = invoke("bench", *TINY, "--backends", "dfs", "--out", out, "--no-setup")
    assert result.exit_code == 130
    assert result.stderr == (f"Interrupted after 1 of 3 puzzles; the finished ones are in {out}: "
                             f"run the same command with --resume to continue.\n")
    monkeypatch.setattr(bench, "puzzle_records", real)
    resumed = invoke("bench", *TINY, "--backends", "dfs", "--out", out, "--resume", "--no-setup")
    assert resumed.exit_code == 0, resumed.output
    assert "1 of 3 puzzles were already measured" in resumed.stderr
    rows = [line for line in out.read_text().splitlines() if not line.startswith("#")]
    assert rows[0] == ",".join(RUN_COLUMNS) and len(rows) == 4


def test_cli_bench_wrong_answer_exits_1(tmp_path, test_backends):
    puzzles = tmp_path / "two.txt"
    puzzles.write_text(f"{BAEKJOON_2239}\n{EMPTY_4}\n")
    result = invoke("bench", puzzles, "--backends", "dfs,broken", "--no-setup")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0].startswith("two:0: broken wrong: not a completion: ")
    broken = [line.split() for line in result.stdout.splitlines() if " broken " in line]
    assert [row[:7] for row in broken] == [["two", "broken", "2", "0", "0", "2", "0"]]
    assert broken[0][7] == "-"  # no PAR-2 without a time limit
    assert "PAR-2: '-', since without --time-limit" in result.stdout


def test_cli_bench_measures_setup_by_default():
    result = invoke("bench", EXAMPLES / "empty4.txt", "--backends", "dfs")
    assert result.exit_code == 0, result.output
    tail = result.stdout.splitlines()[-2:]
    assert tail[0] == "One-off set-up, not in the times above:"
    assert tail[1].startswith("dfs: create ") and "empty4 first solve" in tail[1]


@pytest.mark.parametrize("args, message", [
    (["--backends", "dfs", "--baseline", "sat"], "--baseline sat is not one of --backends dfs"),
    (["--backends", "dfs", "--resume"], "--resume needs --out FILE (the results file of the run "
                                        "to continue)"),
    (["--backends", "dfs", "--out", "results.txt"], "results.txt: results files end in .jsonl "
                                                    "or .csv, not .txt"),
    (["--backends", "dfs,nope"], "unknown backend 'nope' in --backends (choose from dfs, cpsat, "
                                 "sat)"),
])
def test_cli_bench_bad_usage_is_one_line_exit_2(args, message):
    result = invoke("bench", EXAMPLES / "empty4.txt", *args)
    assert (result.exit_code, result.stderr) == (2, f"Error: {message}\n")


def test_cli_bench_bad_puzzle_is_one_line_exit_2(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text(f"{EMPTY_4}\n{'x' * 16}\n")
    result = invoke("bench", bad, "--backends", "dfs")
    assert result.exit_code == 2
    assert result.stderr == (f"Error: {bad}:2:1: unknown symbol 'x' (a 4x4 puzzle uses 0 or . "
                             f"for blank and 1-4)\n")
