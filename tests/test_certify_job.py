"""Certifying as answers are produced (`--certify` on solve, crosscheck and bench, and the
API's `certify=`), and `sudoku-cp certify -j N` on the executors.

The wrong test backend `notlexmin` gives a valid completion that is not the smallest: the
verifier alone accepts it when it runs by itself, so these tests fail unless the proof is made,
checked and acted on.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import sudoku_cp
from sudoku_cp.cli import main

from .conftest import DATA
from .wrong_backends import wrong_backends  # noqa: F401 (a fixture)

pytest.importorskip("dratify")

GENERATED = DATA / "generated"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def jsonl(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


@pytest.fixture(scope="module")
def multi(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Puzzles with several completions (where a non-minimal answer exists) and one without."""
    lines = [
        line
        for line in (GENERATED / "multi-9x9.txt").read_text().splitlines()
        if line and not line.startswith("#")
    ][:4]
    unsat = [
        line
        for line in (GENERATED / "unsat-9x9.txt").read_text().splitlines()
        if line and not line.startswith("#")
    ][:1]
    path = tmp_path_factory.mktemp("runs") / "multi.txt"
    path.write_text("\n".join(lines + unsat) + "\n")
    return path


def test_solve_certify_adds_certified_and_the_certificate(multi: Path) -> None:
    result = run("solve", str(multi), "--format", "jsonl", "--certify")
    assert result.exit_code == 1, result.output  # the unsatisfiable puzzle
    records = jsonl(result.output)
    assert [record["certified"] for record in records] == [True] * 5
    assert records[-1]["status"] == "unsatisfiable"
    certificate = records[0]["certificate"]
    assert certificate["checker"] == "dratify" and certificate["proof_format"] in ("DRUP", "DRAT")
    assert certificate["proof_lines"] > 0 and len(certificate["proof_sha256"]) == 64
    plain = jsonl(run("solve", str(multi), "--format", "jsonl").output)
    assert all("certified" not in record for record in plain)


@pytest.mark.usefixtures("wrong_backends")
def test_a_valid_non_minimal_answer_is_wrong_only_when_certified(multi: Path) -> None:
    trusted = run("solve", str(multi), "-b", "notlexmin", "--format", "jsonl")
    assert [record["status"] for record in jsonl(trusted.output)][:4] == ["solved"] * 4
    certified = run("solve", str(multi), "-b", "notlexmin", "--format", "jsonl", "--certify")
    records = jsonl(certified.output)
    assert certified.exit_code == 1
    assert [record["status"] for record in records][:4] == ["wrong"] * 4
    assert [record["certified"] for record in records][:4] == [False] * 4
    assert records[0]["reason"].startswith("not certified: not the lex-min: row ")
    assert records[0]["solution"] is None and records[0]["answer"]  # never shown as solved


@pytest.mark.usefixtures("wrong_backends")
def test_crosscheck_certify_logs_it_and_resume_keeps_it_wrong(multi: Path, tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    first = run(
        "crosscheck", str(multi), "-b", "notlexmin", "-j", "1", "--certify", "--results", str(log)
    )
    assert first.exit_code == 1, first.output
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert records[0]["kind"] == "header"
    assert records[0]["settings"]["certify"] == {"solver": "glucose4", "engine": "auto"}
    puzzles = [record for record in records if record.get("kind") == "puzzle"]
    assert [record["verdict"] for record in puzzles] == ["wrong"] * 4 + ["agree"]
    assert puzzles[0]["runs"][0]["certified"] is False
    again = run(
        "crosscheck",
        str(multi),
        "-b",
        "notlexmin",
        "-j",
        "1",
        "--certify",
        "--results",
        str(log),
        "--resume",
    )
    assert again.exit_code == 1, again.output
    assert "4 wrong" in again.output
    unasked = run(
        "crosscheck", str(multi), "-b", "notlexmin", "-j", "1", "--results", str(log), "--resume"
    )
    assert unasked.exit_code == 2
    assert "certify on (glucose4, auto) in the file, off now" in unasked.output


def test_keep_proofs_writes_what_the_certificates_name(multi: Path, tmp_path: Path) -> None:
    proofs = tmp_path / "proofs"
    result = run(
        "crosscheck",
        str(multi),
        "-b",
        "dfs,sat",
        "-j",
        "1",
        "--keep-proofs",
        str(proofs),
        "--format",
        "jsonl",
    )
    assert result.exit_code == 0, result.output
    runs = [run for record in jsonl(result.output) for run in record["runs"]]
    assert len(runs) == 10 and all(run["certified"] for run in runs)
    kept = {
        hashlib.sha256(path.read_bytes()).hexdigest(): path
        for path in proofs.iterdir()
        if path.suffix in (".drup", ".drat")
    }
    assert {run["certificate"]["proof_sha256"] for run in runs} <= set(kept)
    assert len(list(proofs.glob("*.cnf"))) == 5


def test_bench_certify(multi: Path, tmp_path: Path) -> None:
    log = tmp_path / "bench.jsonl"
    result = run("bench", str(multi), "-b", "dfs", "--no-setup", "--certify", "--results", str(log))
    assert result.exit_code == 0, result.output
    runs = [
        run
        for line in log.read_text().splitlines()
        if (record := json.loads(line)).get("kind") == "puzzle"
        for run in record["runs"]
    ]
    assert len(runs) == 5 and all(run["certified"] is True for run in runs)


def test_the_api_certifies_too(multi: Path) -> None:
    line = multi.read_text().split()[0]
    answer = sudoku_cp.solve(line, backend="sat", certify=True)
    assert answer.certification is not None and answer.certification.certified
    assert sudoku_cp.solve(line).certification is None
    report = sudoku_cp.crosscheck(str(multi), backends=["dfs", "sat"], certify=True)
    assert report.ok


def test_certify_in_parallel_gives_the_lines_in_order(multi: Path, tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    assert (
        run("crosscheck", str(multi), "-b", "dfs,sat", "-j", "1", "--results", str(log)).exit_code
        == 0
    )
    serial = run("certify", str(log))
    parallel = run("certify", str(log), "-j", "2")
    assert serial.exit_code == parallel.exit_code == 0, parallel.output
    assert serial.output.splitlines()[0] == parallel.output.splitlines()[0]
    assert "10 certified, 0 not certified" in parallel.output


@pytest.mark.usefixtures("wrong_backends")
def test_certify_in_parallel_finds_the_same_failures(multi: Path, tmp_path: Path) -> None:
    log = tmp_path / "wrong.jsonl"
    run(
        "crosscheck", str(multi), "-b", "sat,notlexmin,nosolution", "-j", "1", "--results", str(log)
    )
    serial = run("certify", str(log))
    parallel = run("certify", str(log), "-j", "2")
    assert serial.exit_code == parallel.exit_code == 1
    failures = [line for line in serial.output.splitlines() if "not certified:" in line]
    assert len(failures) == 4 + 4  # notlexmin on the multi puzzles, nosolution on them
    assert failures == [line for line in parallel.output.splitlines() if "not certified:" in line]
