"""Logs written by sudoku-cp 0.1.0 (tests/fixtures/logs-0.1.0, never regenerated) still resume
with nothing run again, report in every format, and certify with exit 0. Each resume is the
command that wrote the log, as it was typed then (old option names included)."""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from sudoku_cp import load_results
from sudoku_cp.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "logs-0.1.0"

# Each log with the command line that wrote it (run in the fixture folder).
WRITTEN_BY = {
    "crosscheck.jsonl": ["crosscheck", "mixed9.txt", "-b", "dfs,cpsat,sat"],
    "count.jsonl": [
        "crosscheck", "six.txt", "--box", "2x3", "--mode", "count", "--count-limit", "3",
        "-b", "dfs,sat,cpsat", "--sat-solver", "g4",
    ],
    "bench.jsonl": [
        "bench", "bench9.txt", "six.txt", "-b",
        "sat[solver=glucose3|minisat22],dfs[propagation=singles|strong],"
        "cpsat[strategy=search|objective],z3[encoding=bool|int],dlx[order=mrv]",
        "--repeat", "2", "--time-limit", "5",
    ],
    "timeouts.jsonl": ["crosscheck", "hard.txt", "-b", "dfs,sat,cpsat", "--time-limit", "0.01"],
    "certified.jsonl": ["crosscheck", "bench9.txt", "-b", "dfs,sat", "--certify"],
}  # fmt: skip


@pytest.fixture
def old_logs(tmp_path: Path) -> Iterator[Path]:
    """A copy of the fixture folder, as the working directory (the logs name their inputs
    relative to it)."""
    folder = tmp_path / "logs"
    shutil.copytree(FIXTURES, folder)
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield folder
    finally:
        os.chdir(before)


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("log", sorted(WRITTEN_BY))
def test_an_old_log_resumes_with_nothing_run_again(old_logs: Path, log: str) -> None:
    if "z3" in " ".join(WRITTEN_BY[log]):
        pytest.importorskip("z3")
    before = digest(old_logs / log)
    result = run(*WRITTEN_BY[log], "--results", log, "--resume")
    # mixed9.txt has a line that is not a puzzle: reported, and exit 2, as when it was written.
    assert result.exit_code == (2 if log == "crosscheck.jsonl" else 0), result.output
    assert digest(old_logs / log) == before  # not a byte added: no puzzle ran again
    if WRITTEN_BY[log][0] == "crosscheck":
        assert "this session: 0 puzzles" in result.output


@pytest.mark.parametrize("log", sorted(WRITTEN_BY))
def test_an_old_log_reports_in_every_format(old_logs: Path, log: str) -> None:
    for suffix in ("md", "html", "csv", "tex"):
        result = run("report", log, "-o", f"report.{suffix}")
        assert result.exit_code == 0, result.output
        assert (old_logs / f"report.{suffix}").stat().st_size > 0


@pytest.mark.parametrize("log", [*sorted(WRITTEN_BY), "solve.jsonl"])
def test_an_old_log_certifies(old_logs: Path, log: str) -> None:
    pytest.importorskip("dratify")
    result = run("certify", log)
    assert result.exit_code == 0, result.output
    assert " 0 not certified" in result.output


def test_an_old_log_loads_for_the_api() -> None:
    results = load_results(FIXTURES / "bench.jsonl")
    assert "sat[solver=minisat22]" in results.labels()
    assert len(results.entries) == 12
    assert {run["status"] for run in results.runs()} == {"solved", "unsatisfiable"}
