"""The fresh executor: a child process per (puzzle, configuration), nothing kept between them,
a stuck child killed at its deadline with its helpers (a timeout, no process left behind), a
child that dies named as an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudoku_cp import engine
from sudoku_cp.executors.fresh import FreshExecutor

from ..bench_helpers import invoke, puzzles_of, register_wrong
from ..conftest import BAEKJOON_2239, EMPTY_4


def gone(pid: int) -> bool:
    """The process has ended (a zombie waiting for its reaper counts as ended)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "\nState:\tZ" in status


def test_a_stuck_solve_is_killed_at_its_deadline_with_its_helpers(
    tmp_path: Path, register, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.wrong_backends import HangingBackend

    register_wrong(register, "hanging")
    helpers = tmp_path / "helpers"
    monkeypatch.setattr(HangingBackend, "helpers", str(helpers))
    monkeypatch.setattr(engine, "DEADLINE_GRACE", 0.5)
    puzzles, log = tmp_path / "p.txt", tmp_path / "r.jsonl"
    puzzles.write_text(f"{EMPTY_4}\n{BAEKJOON_2239}\n")
    result = invoke(
        "bench", puzzles, "-b", "hanging,dfs", "--executor", "fresh", "--time-limit", 0.2,
        "--no-setup", "--results", log,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    first, second = puzzles_of(log)
    hung = {run["backend"]: run for run in first["runs"]}
    assert hung["hanging"]["status"] == "timeout"
    assert "killed at its deadline of 0.8 s" in hung["hanging"]["reason"]
    assert hung["dfs"]["status"] == "solved"
    assert [run["status"] for run in second["runs"]] == ["solved", "solved"]
    (pid,) = map(int, helpers.read_text().split())
    assert gone(pid)  # the helper went with the child's process group


def test_each_run_is_in_a_process_of_its_own(tmp_path: Path) -> None:
    puzzles, log = tmp_path / "p.txt", tmp_path / "r.jsonl"
    puzzles.write_text(f"{EMPTY_4}\n{EMPTY_4}\n")
    result = invoke(
        "bench", puzzles, "-b", "dfs,sat", "--executor", "fresh", "--no-setup", "--results", log
    )
    assert result.exit_code == 0, result.output
    records = puzzles_of(log)
    assert [run["status"] for record in records for run in record["runs"]] == ["solved"] * 4


def test_a_child_that_dies_is_an_error_naming_its_exit(
    tmp_path: Path, register, monkeypatch: pytest.MonkeyPatch
) -> None:
    register_wrong(register, "killer")
    puzzles, log = tmp_path / "p.txt", tmp_path / "r.jsonl"
    puzzles.write_text("9" + "0" * 80 + f"\n{EMPTY_4}\n")  # killer dies on a first cell 9
    result = invoke(
        "bench", puzzles, "-b", "killer", "--executor", "fresh", "--no-setup", "--results", log
    )
    assert result.exit_code == 1
    died, solved = puzzles_of(log)
    assert died["runs"][0]["status"] == "error"
    assert "child process died (exit code 3)" in died["runs"][0]["reason"]
    assert solved["runs"][0]["status"] == "solved"


def test_no_deadline_without_a_time_limit() -> None:
    from sudoku_cp.configurations import parse_configurations
    from sudoku_cp.judging import SolveSettings

    chosen = parse_configurations(["dfs"])
    assert engine.SolveJob(chosen, SolveSettings.of()).deadline() is None
    timed = engine.SolveJob(chosen, SolveSettings.of(time_limit=2, repeat=3, prime=True))
    assert timed.deadline() == 1.5 * 4 * 2 + engine.DEADLINE_GRACE
    assert timed.cold().settings.prime is False and timed.cold().settings.repeat == 3
    assert FreshExecutor.name == "fresh"
