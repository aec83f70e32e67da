"""Fast tests of the scaling study driver's logic (benchmarks/scaling_study.py): a series stops
after its first timeout, --resume skips recorded runs, answers are checked, the report renders."""

import importlib.util
import sys
from pathlib import Path

import pytest

from sudoku_cp.grid import Grid

PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "scaling_study.py"


@pytest.fixture(scope="module")
def study():
    spec = importlib.util.spec_from_file_location("scaling_study", PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules["scaling_study"] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("scaling_study", None)


EMPTY_LEXMIN_4 = "1234341221434321"


def fake_puzzles(study):
    def puzzles(kind, size):
        return [study.Puzzle(kind, size, index, Grid.empty(4).to_line()) for index in range(2)]

    return puzzles


class FakeRunner:
    """Solves everything with the 4x4 lex-min, times out from `timeout_from` on."""

    def __init__(self, timeout_from=None, answer=EMPTY_LEXMIN_4):
        self.timeout_from = timeout_from
        self.answer = answer
        self.calls = []

    def __call__(self, spec, kill_after):
        size = self.current  # set by run() before each size
        self.calls.append(size)
        if self.timeout_from is not None and size >= self.timeout_from:
            return {"status": "timeout", "solve_seconds": None, "wall_seconds": 1.0}
        return {
            "status": "solved",
            "solve_seconds": 0.01 * size,
            "wall_seconds": 0.5,
            "answer": self.answer,
        }


def run(study, log, runner, sizes, series=None):
    series = series or study.Series("empty", "lexmin", "dfs")
    for size in sizes:  # the fake runner needs to know N: run one size at a time
        runner.current = size
        study.run_series(
            series,
            [size],
            log,
            time_limit=5,
            runner=runner,
            progress=lambda message: None,
            puzzles=fake_puzzles(study),
        )


def new_log(study, path, resume=False):
    return study.Log(path, {"time_limit": 5}, resume=resume)


def test_series_stops_after_its_first_timeout(study, tmp_path):
    log = new_log(study, tmp_path / "r.jsonl")
    runner = FakeRunner(timeout_from=9)
    run(study, log, runner, [4, 6, 9, 12, 16])
    assert runner.calls == [4, 4, 6, 6, 9]  # the first timeout ends it, even within N=9
    records = [r for r in log.records if r["type"] == "run"]
    assert [(r["size"], r["status"]) for r in records] == [
        (4, "solved"),
        (4, "solved"),
        (6, "solved"),
        (6, "solved"),
        (9, "timeout"),
        (9, "not run"),
        (12, "not run"),
        (12, "not run"),
        (16, "not run"),
        (16, "not run"),
    ]
    assert records[-1]["reason"] == "stopped at 9"
    assert all(r["verified"] for r in records if r["status"] == "solved")


def test_resume_skips_runs_already_recorded(study, tmp_path):
    path = tmp_path / "r.jsonl"
    first = FakeRunner()
    run(study, new_log(study, path), first, [4, 6])
    assert first.calls == [4, 4, 6, 6]
    with pytest.raises(SystemExit):
        new_log(study, path)  # results there and no --resume
    again = FakeRunner()
    run(study, new_log(study, path, resume=True), again, [4, 6, 9])
    assert again.calls == [9, 9]
    with pytest.raises(SystemExit, match="time_limit"):
        study.Log(path, {"time_limit": 300}, resume=True)
    runs = [r for r in study.load(path) if r.get("type") == "run"]
    assert len(runs) == 6 and len({study.run_key(r) for r in runs}) == 6


def test_a_stopped_series_stays_stopped_when_resumed(study, tmp_path):
    path = tmp_path / "r.jsonl"
    run(study, new_log(study, path), FakeRunner(timeout_from=6), [4, 6])
    later = FakeRunner()
    run(study, new_log(study, path, resume=True), later, [4, 6, 9])
    assert later.calls == []
    assert [r["status"] for r in study.load(path) if r.get("size") == 9] == ["not run"] * 2


def test_a_wrong_answer_is_caught_and_stops_the_series(study, tmp_path):
    log = new_log(study, tmp_path / "r.jsonl")
    bad = "1234341221434312"  # last row repeats: not a completion
    run(study, log, FakeRunner(answer=bad), [4, 6])
    records = [r for r in log.records if r["type"] == "run"]
    assert records[0]["status"] == "wrong" and records[0]["verified"] is False
    assert {r["status"] for r in records if r["size"] == 6} == {"not run"}


def test_lexmin_disagreement_is_flagged(study, tmp_path):
    log = new_log(study, tmp_path / "r.jsonl")
    other = "1243342121344312"  # a valid 4x4 completion, larger than the lex-min
    assert not Grid.parse(other).conflicts()
    run(study, log, FakeRunner(), [4])
    run(study, log, FakeRunner(answer=other), [4], study.Series("empty", "lexmin", "sat"))
    found = study.disagreements(log.records)
    assert found and "sat" in found[0] and "dfs" not in found[0].split("smallest:")[1]
    assert "DISAGREEMENTS" in study.markdown(log.records)


def test_report_renders_table_and_plot(study, tmp_path):
    path = tmp_path / "r.jsonl"
    log = new_log(study, path)
    run(study, log, FakeRunner(timeout_from=9), [4, 6, 9, 12])
    run(study, log, FakeRunner(), [4, 6, 9, 12], study.Series("empty", "lexmin", "sat"))
    text = study.markdown(log.records)
    assert "| 4 (2x2) | 40 ms | 40 ms |" in text
    assert "| 9 (3x3) | timeout | 90 ms |" in text
    assert "| 12 (3x4) | not run | 120 ms |" in text
    out = tmp_path / "out"
    args = study.parse_args(["--report", "--results", str(path), "--out", str(out)])
    assert study.report(args) == 0
    assert (out / "table.md").read_text() == text
    assert (out / "scaling.png").stat().st_size > 1000


def test_child_runs_the_library_and_a_stuck_child_is_killed(study):
    spec = {"puzzle": Grid.empty(4).to_line(), "backend": "dfs", "mode": "lexmin", "time_limit": 10}
    result = study.run_child(spec, kill_after=60)
    assert result["status"] == "solved" and result["answer"] == EMPTY_LEXMIN_4
    assert result["child_cpu_seconds"] > 0 and result["wall_seconds"] > 0
    stuck = study.run_child(
        spec, kill_after=0.5, command=[sys.executable, "-c", "import time; time.sleep(30)"]
    )
    assert stuck["status"] == "killed" and stuck["wall_seconds"] < 10


def test_keep_going_runs_every_shape_past_a_timeout(study, tmp_path):
    log = new_log(study, tmp_path / "r.jsonl")
    runner = FakeRunner(timeout_from=9)
    for size in [4, 9, 12]:
        runner.current = size
        study.run_series(
            study.Series("empty", "lexmin", "dfs"),
            [size],
            log,
            time_limit=5,
            runner=runner,
            progress=lambda message: None,
            puzzles=fake_puzzles(study),
            keep_going=True,
        )
    assert runner.calls == [4, 4, 9, 9, 12, 12]
    assert "not run" not in {r["status"] for r in log.records if r["type"] == "run"}


def test_shapes_are_a_parameter_every_n_with_its_box_or_a_box_named(study):
    shapes = study.parse_args(["--sizes", "all"]).sizes
    assert len(shapes) == 45 and shapes[0] == (4, "2x2") and shapes[-1] == (64, "8x8")
    assert (26, "2x13") in shapes and (42, "6x7") in shapes and (7, "1x7") not in shapes
    assert study.parse_args(["--sizes", "9,4x9"]).sizes == [(9, "3x3"), (36, "4x9")]
    # a box other than the default is solved and checked in that box
    spec = {
        "puzzle": Grid.empty(8).to_line(),
        "box": "4x2",
        "backend": "dfs",
        "mode": "lexmin",
        "time_limit": 10,
    }
    result = study.run_child(spec, kill_after=60)
    assert result["status"] == "solved"
    record = {"box": "4x2", "size": 8, **result}
    study.check_answer(study.Puzzle("empty", 8, 0, spec["puzzle"]), record)
    assert record["verified"] and result["peak_rss_mb"] > 10
    assert Grid.parse(result["answer"]).conflicts()  # the 4x2 lex-min breaks the 2x4 boxes
