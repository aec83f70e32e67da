"""`sudoku-cp certify` end to end: real logs written by crosscheck and solve certify clean;
tampered logs (a non-minimal lex-min, a satisfiable puzzle labelled unsatisfiable, wrong counts,
a corrupted proof) and the wrong test backends' logs fail with one line each and exit 1;
unreadable input exits 2; --keep-proofs, --report, --checker."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from sudoku_cp.certify import certifier as certifier_module
from sudoku_cp.certify import proofs
from sudoku_cp.cli import main
from sudoku_cp.grid import Grid

from ..conftest import DATA, UNSOLVABLE_4, shared
from ..wrong_backends import NotLexminBackend, wrong_backends  # noqa: F401 (a fixture)

pytest.importorskip("dratify")

GENERATED = DATA / "generated"
SUMMARY = re.compile(
    r"certify: (\d+) claims? from (\d+) files?: (\d+) certified, "
    r"(\d+) not certified"
)


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


def puzzles(name: str, count: int) -> list[str]:
    lines = (GENERATED / name).read_text().splitlines()
    return [line for line in lines if line and not line.startswith("#")][:count]


def summary(result: Result) -> tuple[int, int, int, int]:
    found = SUMMARY.search(result.output)
    assert found, result.output
    claims, files, certified, failed = map(int, found.groups())
    return claims, files, certified, failed


@pytest.fixture(scope="module")
def puzzle_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Multi-solution 9x9 puzzles (the ones that expose lex-min bugs), unsatisfiable ones, and
    one with two equal givens."""
    path = tmp_path_factory.mktemp("certify") / "puzzles.txt"
    lines = puzzles("multi-9x9.txt", 8) + puzzles("unsat-9x9.txt", 3) + ["11" + "0" * 79]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def lexmin_log(puzzle_file: Path) -> Path:
    log = puzzle_file.parent / "lexmin.jsonl"
    result = run(
        "crosscheck",
        str(puzzle_file),
        "--backends",
        "dfs,cpsat,sat",
        "-j",
        "1",
        "--results",
        str(log),
    )
    assert result.exit_code == 0, result.output
    return log


@pytest.fixture(scope="module")
def count_log(puzzle_file: Path) -> Path:
    log = puzzle_file.parent / "count.jsonl"
    result = run(
        "crosscheck",
        str(puzzle_file),
        "--backends",
        "dfs,sat",
        "--mode",
        "count",
        "--count-limit",
        "20",
        "-j",
        "1",
        "--results",
        str(log),
    )
    assert result.exit_code == 0, result.output
    return log


def records(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def tampered(log: Path, tmp_path: Path, change: Any) -> Path:
    """A copy of `log` where `change(record)` edited the puzzle records it wants to."""
    rows = records(log)
    for row in rows:
        if row.get("kind") == "puzzle":
            change(row)
    path = tmp_path / f"tampered-{log.name}"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


# -- real logs certify clean -----------------------------------------------------------------------


def test_a_crosscheck_log_of_three_backends_certifies(lexmin_log: Path) -> None:
    result = run("certify", str(lexmin_log))
    assert result.exit_code == 0, result.output
    assert summary(result) == (36, 1, 36, 0)
    assert "lexmin 24, unsat 12; 12 distinct" in result.output
    assert "proofs: 12 checked by dratify" in result.output


def test_a_count_log_certifies(count_log: Path) -> None:
    result = run("certify", str(count_log))
    assert result.exit_code == 0, result.output
    assert summary(result) == (24, 1, 24, 0)


def test_solve_output_on_stdin_certifies(puzzle_file: Path) -> None:
    for mode in ("lexmin", "any", "count"):
        solved = run("solve", str(puzzle_file), "-b", "sat", "--mode", mode, "--format", "jsonl")
        result = run("certify", "-", stdin=solved.stdout)
        assert result.exit_code == 0, (mode, result.output)
        assert summary(result) == (12, 1, 12, 0)


def test_two_files_and_both_checker_engines(lexmin_log: Path, count_log: Path) -> None:
    engines = ["python", "both"] if proofs.load_dratify().native_available() else ["python"]
    for engine in engines:
        result = run("certify", str(lexmin_log), str(count_log), "--checker", engine)
        assert result.exit_code == 0, result.output
        assert summary(result) == (60, 2, 60, 0)


# -- tampered logs fail, one line each ------------------------------------------------------------


def test_a_valid_non_minimal_answer_labelled_lexmin_fails(lexmin_log: Path, tmp_path: Path) -> None:
    def second_completion(row: dict[str, Any]) -> None:
        puzzle = Grid.parse(row["puzzle"])
        other = NotLexminBackend().solve(puzzle).solution
        if row["number"] == 0 and other is not None:
            row["runs"][2]["solution"] = other.to_line()  # sat's answer

    log = tampered(lexmin_log, tmp_path, second_completion)
    result = run("certify", str(log))
    assert result.exit_code == 1
    failures = [line for line in result.output.splitlines() if "not certified:" in line]
    assert len(failures) == 1
    assert re.fullmatch(
        rf"{re.escape(str(log))}:2: sat: lex-min: not certified: not the "
        rf"lex-min: row \d, column \d can be \d \(a smaller completion: \d{{81}}\)",
        failures[0],
    )
    assert summary(result) == (36, 1, 35, 1)


def test_a_satisfiable_puzzle_labelled_unsatisfiable_fails(
    lexmin_log: Path, tmp_path: Path
) -> None:
    def unsatisfiable(row: dict[str, Any]) -> None:
        if row["number"] == 1:
            row["runs"][0].update(status="unsatisfiable", solution=None)

    result = run("certify", str(tampered(lexmin_log, tmp_path, unsatisfiable)))
    assert result.exit_code == 1
    assert re.search(
        r":3: dfs: unsatisfiable: not certified: not unsatisfiable: \d{81} is a "
        r"completion\n",
        result.output,
    )


def test_wrong_counts_fail(count_log: Path, tmp_path: Path) -> None:
    def miscount(row: dict[str, Any]) -> None:
        run_of_sat = row["runs"][1]
        if row["number"] == 0 and not run_of_sat["limit_reached"]:
            run_of_sat["count"] += 1
        if row["number"] == 1 and not run_of_sat["limit_reached"]:
            run_of_sat["count"] -= 1

    result = run("certify", str(tampered(count_log, tmp_path, miscount)))
    assert result.exit_code == 1
    assert re.search(
        r":2: sat: count (\d+): not certified: only (\d+) completions?, not \1 "
        r"\(proof checked\)",
        result.output,
    )
    assert re.search(
        r":3: sat: count (\d+): not certified: more than \1 completions? "
        r"\(another one: \d{81}\)",
        result.output,
    )
    assert summary(result)[3] == 2


def test_a_corrupted_proof_fails(lexmin_log: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    honest = proofs.ProofSolver.proof

    def corrupted(self: proofs.ProofSolver) -> str:
        return "\n".join(honest(self).splitlines()[:-1]) + "\n"  # the empty clause cut off

    monkeypatch.setattr(proofs.ProofSolver, "proof", corrupted)
    result = run("certify", str(lexmin_log))
    assert result.exit_code == 1
    assert "not certified: the proof does not check: " in result.output
    assert summary(result)[2] < 36


@pytest.mark.usefixtures("wrong_backends")
def test_the_wrong_backends_logs_fail_certification(puzzle_file: Path, tmp_path: Path) -> None:
    wrong = ["notlexmin", "rulebreaker", "givenchanger", "nosolution"]
    log = tmp_path / "wrong.jsonl"
    crosscheck = run(
        "crosscheck",
        str(puzzle_file),
        "--backends",
        ",".join(["sat", *wrong]),
        "-j",
        "1",
        "--results",
        str(log),
    )
    assert crosscheck.exit_code == 1
    result = run("certify", str(log))
    assert result.exit_code == 1
    failed = {
        line.split(": ")[1] for line in result.output.splitlines() if "not certified:" in line
    }
    assert failed == set(wrong)
    reasons = result.output
    assert "notlexmin: lex-min: not certified: not the lex-min: " in reasons
    assert "rulebreaker: lex-min: not certified: not a completion: " in reasons
    assert "givenchanger: lex-min: not certified: not a completion: changes the given" in reasons
    assert "nosolution: unsatisfiable: not certified: not unsatisfiable: " in reasons


def test_a_hand_edited_count_above_the_cap_is_not_enumerated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A count claim of 1,000,000 on a puzzle with more completions made certify enumerate for
    # over ten minutes; past the cap (10 here, to keep the test quick) it stops and says why.
    monkeypatch.setattr(certifier_module, "COUNT_CAP", 10, raising=False)
    solved = run("solve", "-", "--mode", "count", "--format", "jsonl", stdin="0" * 16 + "\n")
    record = json.loads(solved.output)
    record.update(count=1_000_000, limit_reached=False)
    result = run("certify", "-", stdin=json.dumps(record) + "\n")
    assert result.exit_code == 1
    assert (
        "-:1: dfs: count 1000000: not certified: count 1000000 is above the 10 "
        "completions that certify enumerates (the puzzle has more than 10; the claim is not "
        "refuted)"
    ) in result.output
    assert summary(result) == (1, 1, 0, 1)


# -- input that cannot be read, options ------------------------------------------------------------


def test_unreadable_input_exits_2_with_its_place(tmp_path: Path, lexmin_log: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("this is not JSON\n")
    result = run("certify", str(lexmin_log), str(bad))
    assert result.exit_code == 2
    assert f"Error: {bad}:1: not a JSON object" in result.output
    missing = run("certify", str(tmp_path / "none.jsonl"))
    assert missing.exit_code == 2 and "cannot read" in missing.output
    assert run("certify").exit_code == 2


def test_a_log_holding_only_its_header_exits_2(lexmin_log: Path, tmp_path: Path) -> None:
    # It exited 0 with "0 claims", while the docs promise 2 for input with nothing to certify.
    header_only = tmp_path / "header.jsonl"
    header_only.write_text(lexmin_log.read_text().splitlines()[0] + "\n")
    result = run("certify", str(header_only))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: {header_only}: holds no puzzle to certify")


def test_keep_proofs_and_report(lexmin_log: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.jsonl"
    folder = tmp_path / "proofs"
    result = run("certify", str(lexmin_log), "--keep-proofs", str(folder), "--report", str(report))
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    assert len(lines) == 36 and all(line["certified"] for line in lines)
    digests = {line["certificate"]["cnf_sha256"][:16] for line in lines}
    assert len(digests) == 12
    kept = {path.stem.split("-")[1] for path in folder.glob("*.cnf")}
    assert kept == digests and len(list(folder.glob("*.drup"))) == 12


def test_an_unsatisfiable_4x4_line_by_line(tmp_path: Path) -> None:
    path = tmp_path / "one.txt"
    path.write_text(UNSOLVABLE_4 + "\n")
    solved = run("solve", str(path), "--format", "jsonl")
    result = run("certify", "-", stdin=solved.stdout)
    assert result.exit_code == 0 and summary(result) == (1, 1, 1, 0)


# -- the serg_benchmark case of the issue, scaled down ---------------------------------------------


@pytest.mark.slow
def test_a_serg_benchmark_crosscheck_log_certifies(tmp_path: Path) -> None:
    lines = shared("serg_benchmark.txt").read_text().splitlines()
    path = tmp_path / "serg.txt"
    path.write_text("\n".join(lines[:: len(lines) // 200][:200]) + "\n")
    log = tmp_path / "serg.jsonl"
    crosscheck = run("crosscheck", str(path), "--backends", "dfs,cpsat,sat", "--results", str(log))
    assert crosscheck.exit_code == 0, crosscheck.output
    result = run("certify", str(log))
    assert result.exit_code == 0, result.output
    assert summary(result) == (600, 1, 600, 0)
