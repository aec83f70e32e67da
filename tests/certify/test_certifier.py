"""certify.certifier: every claim kind certified when right and rejected with its reason when
tampered, a corrupted proof a failure, the wrong test backends' answers rejected, the cache,
every offered proof solver, and the kept files well-formed and re-checkable."""

from __future__ import annotations

import hashlib
import json
import pickle
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from sudoku_cp.backends import get_backend
from sudoku_cp.certify import (
    AnyClaim,
    Certifier,
    CountClaim,
    LexminClaim,
    UnsatClaim,
    UnstatedClaim,
    claim_of_result,
    claim_of_run,
    proofs,
)
from sudoku_cp.certify import certifier as certifier_module
from sudoku_cp.errors import CheckerUnavailableError, ResultsFileError
from sudoku_cp.grid import Grid
from sudoku_cp.result import Mode

from ..conftest import EMPTY_9_LEXMIN, G17, UNSOLVABLE_4
from ..wrong_backends import (
    GivenChangerBackend,
    NotLexminBackend,
    OverCountBackend,
    RuleBreakerBackend,
    UnsatisfiableBackend,
)
from .conftest import SMALL_PUZZLES, completions

pytest.importorskip("dratify")


def test_lexmin_certified_with_a_checked_proof(certifier: Certifier) -> None:
    puzzle = Grid.empty(9)
    certification = certifier.certify(LexminClaim(puzzle, Grid.parse(EMPTY_9_LEXMIN)))
    assert certification.certified, certification.reason
    certificate = certification.certificate
    assert certificate is not None and certificate.checker == "dratify"
    assert certificate.proof_format == "DRUP" and certificate.proof_lines > 1
    assert certificate.proof_sha256 is not None and len(certificate.proof_sha256) == 64
    fields = certificate.to_dict()
    assert {
        "checker",
        "checker_version",
        "proof_format",
        "proof_lines",
        "proof_bytes",
        "solve_seconds",
        "check_seconds",
        "proof_sha256",
    } <= set(fields)
    json.dumps(certification.to_dict())


@pytest.mark.parametrize(
    "puzzle", SMALL_PUZZLES[1:] + [Grid.parse(G17)], ids=lambda grid: grid.to_line()
)
def test_every_backend_kind_of_claim_certified_on_right_answers(
    certifier: Certifier, puzzle: Grid
) -> None:
    backend = get_backend("dfs")
    for mode in Mode:
        result = backend.solve(puzzle, mode=mode, limit=1000)
        claim = claim_of_result(puzzle, result)
        assert claim is not None
        certification = certifier.certify(claim)
        assert certification.certified, (mode, certification.reason)


def test_unsatisfiable_certified_without_and_with_conflicting_givens(certifier: Certifier) -> None:
    for line in (UNSOLVABLE_4, "11" + "0" * 79):
        certification = certifier.certify(UnsatClaim(Grid.parse(line)))
        assert certification.certified and certification.reason.startswith("no completion")


def test_count_exact_and_at_least(certifier: Certifier) -> None:
    puzzle = SMALL_PUZZLES[3]
    total = len(completions(puzzle))
    assert certifier.certify(CountClaim(puzzle, total, exact=True)).certified
    assert certifier.certify(CountClaim(puzzle, total, exact=False)).certified
    at_least = certifier.certify(CountClaim(puzzle, total - 1, exact=False))
    assert at_least.certified and at_least.certificate is not None
    assert at_least.certificate.checker == "sudoku-cp verify"


def test_a_valid_non_minimal_answer_labelled_lexmin_is_rejected(certifier: Certifier) -> None:
    puzzle = SMALL_PUZZLES[2]
    lexmin, second = completions(puzzle)[:2]
    certification = certifier.certify(LexminClaim(puzzle, second))
    assert not certification.certified
    assert re.match(
        r"not the lex-min: row \d, column \d can be \d \(a smaller completion: ",
        certification.reason,
    )
    witness = certification.witness
    assert witness is not None and witness.is_solution_of(puzzle)
    assert witness.values < second.values and witness.to_line() in certification.reason
    assert certifier.certify(LexminClaim(puzzle, lexmin)).certified


def test_an_invalid_answer_is_rejected_before_any_proof(certifier: Certifier) -> None:
    puzzle = Grid.empty(4)
    broken = Grid.parse("1234123434124321")
    for claim in (LexminClaim(puzzle, broken), AnyClaim(puzzle, broken)):
        certification = certifier.certify(claim)
        assert not certification.certified and certification.certificate is None
        assert certification.reason.startswith("not a completion: ")


def test_a_satisfiable_puzzle_labelled_unsatisfiable_is_rejected(certifier: Certifier) -> None:
    puzzle = Grid.parse(G17)
    certification = certifier.certify(UnsatClaim(puzzle))
    assert not certification.certified
    assert certification.reason.startswith("not unsatisfiable: ")
    assert certification.witness is not None and certification.witness.is_solution_of(puzzle)


def test_wrong_counts_are_rejected(certifier: Certifier) -> None:
    puzzle = SMALL_PUZZLES[3]
    total = len(completions(puzzle))
    too_few = certifier.certify(CountClaim(puzzle, total - 1, exact=True))
    assert not too_few.certified and too_few.reason.startswith(f"more than {total - 1} ")
    assert too_few.witness is not None and too_few.witness.is_solution_of(puzzle)
    too_many = certifier.certify(CountClaim(puzzle, total + 1, exact=True))
    assert not too_many.certified
    assert too_many.reason == f"only {total} completions, not {total + 1} (proof checked)"
    at_least = certifier.certify(CountClaim(puzzle, total + 1, exact=False))
    assert not at_least.certified and at_least.reason.startswith(f"only {total} completions")
    none = certifier.certify(CountClaim(puzzle, 0, exact=True))
    assert not none.certified and none.reason.startswith("more than 0 completions")


def test_a_count_above_the_cap_is_not_enumerated(monkeypatch: pytest.MonkeyPatch) -> None:
    # A hand-edited count of 1,000,000 had the certifier enumerate for over ten minutes: it
    # stops past the cap, and refutes a claim above it only when the puzzle has fewer.
    monkeypatch.setattr(certifier_module, "COUNT_CAP", 10, raising=False)
    empty = Grid.empty(4)  # 288 completions
    for exact, said in [(True, "count 100"), (False, "count at least 100")]:
        capped = Certifier().certify(CountClaim(empty, 100, exact=exact))
        assert not capped.certified and capped.witness is None
        assert capped.reason == (
            f"{said} is above the 10 completions that certify enumerates (the puzzle has more "
            "than 10; the claim is not refuted)"
        )
    assert Certifier().certify(CountClaim(empty, 11, exact=False)).certified
    at_the_cap = Certifier().certify(CountClaim(empty, 10, exact=True))  # judged as ever
    assert at_the_cap.reason.startswith("more than 10 completions (another one: ")
    few = SMALL_PUZZLES[3]
    total = len(completions(few))
    assert total < 10
    refuted = Certifier().certify(CountClaim(few, 1_000_000, exact=True))
    assert refuted.reason == f"only {total} completions, not 1000000 (proof checked)"


def test_a_count_with_an_invalid_first_completion_is_rejected(certifier: Certifier) -> None:
    puzzle = Grid.empty(4)
    certification = certifier.certify(CountClaim(puzzle, 288, True, first=Grid.parse("1234" * 4)))
    assert not certification.certified
    assert certification.reason.startswith("its first completion column 1 has four 1s")


def test_an_unstated_claim_fails_with_its_problem(certifier: Certifier) -> None:
    claim = claim_of_run(Grid.empty(4), Mode.LEXMIN, "solved", solution="12")
    assert isinstance(claim, UnstatedClaim)
    certification = certifier.certify(claim)
    assert not certification.certified and "not a grid" in certification.reason


def test_a_corrupted_proof_is_a_failure_never_a_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    honest = proofs.ProofSolver.proof
    monkeypatch.setattr(
        proofs.ProofSolver, "proof", lambda self: "\n".join(honest(self).splitlines()[:-1]) + "\n"
    )
    certification = Certifier().certify(LexminClaim(Grid.empty(9), Grid.parse(EMPTY_9_LEXMIN)))
    assert not certification.certified
    assert certification.reason.startswith("the proof does not check: ")
    assert "empty clause" in certification.reason


@pytest.mark.parametrize(
    "backend_class,mode,reason",
    [
        (NotLexminBackend, Mode.LEXMIN, "not the lex-min: "),
        (RuleBreakerBackend, Mode.LEXMIN, "not a completion: "),
        (GivenChangerBackend, Mode.ANY, "not a completion: changes the given"),
        (UnsatisfiableBackend, Mode.LEXMIN, "not unsatisfiable: "),
        (UnsatisfiableBackend, Mode.COUNT, "more than 0 completions"),
        (OverCountBackend, Mode.COUNT, "only "),
    ],
)
def test_the_wrong_backends_answers_fail_certification(
    certifier: Certifier, backend_class: type, mode: Mode, reason: str
) -> None:
    puzzle = SMALL_PUZZLES[3]
    result = backend_class().solve(puzzle, mode=mode, limit=1000)
    claim = claim_of_result(puzzle, result)
    assert claim is not None
    certification = certifier.certify(claim)
    assert not certification.certified and certification.reason.startswith(reason)


def test_the_certifier_pickles_without_its_cache_and_caches_identical_claims() -> None:
    certifier = Certifier(engine="python")
    claim = UnsatClaim(Grid.parse(UNSOLVABLE_4))
    first = certifier.certify(claim)
    again = certifier.certify(UnsatClaim(Grid.parse(UNSOLVABLE_4)))
    assert not first.cached and again.cached and again.certified == first.certified
    copy = pickle.loads(pickle.dumps(certifier))
    assert not copy.certify(claim).cached and copy.engine == "python"


def test_counts_by_other_first_completions_share_one_certificate() -> None:
    certifier = Certifier()
    puzzle = SMALL_PUZZLES[3]
    every = completions(puzzle)
    one = certifier.certify(CountClaim(puzzle, len(every), True, first=every[0]))
    two = certifier.certify(CountClaim(puzzle, len(every), True, first=every[1]))
    assert one.certified and two.certified and not one.cached and two.cached
    assert isinstance(two.claim, CountClaim) and two.claim.first == every[1]


def test_unknown_solver_or_engine_is_one_clear_error() -> None:
    with pytest.raises(CheckerUnavailableError, match="unknown proof solver 'minisat22'"):
        Certifier(solver="minisat22")
    with pytest.raises(CheckerUnavailableError, match="unknown checker engine"):
        Certifier(engine="fast")


@pytest.mark.parametrize("solver", sorted(proofs.PROOF_SOLVERS))
def test_every_offered_proof_solver_certifies_and_rejects(solver: str) -> None:
    certifier = Certifier(solver=solver)
    puzzle = SMALL_PUZZLES[2]
    every = completions(puzzle)
    assert certifier.certify(LexminClaim(puzzle, every[0])).certified
    assert not certifier.certify(LexminClaim(puzzle, every[1])).certified
    assert certifier.certify(CountClaim(puzzle, len(every), exact=True)).certified
    assert certifier.certify(UnsatClaim(Grid.parse(UNSOLVABLE_4))).certified


def _well_formed_dimacs(text: str) -> tuple[int, list[list[int]]]:
    lines = [line for line in text.splitlines() if not line.startswith("c")]
    header = re.fullmatch(r"p cnf (\d+) (\d+)", lines[0])
    assert header, lines[0]
    variables, count = int(header[1]), int(header[2])
    clauses = []
    for line in lines[1:]:
        literals = [int(token) for token in line.split()]
        assert literals[-1] == 0 and 0 not in literals[:-1]
        assert all(1 <= abs(literal) <= variables for literal in literals[:-1])
        clauses.append(literals[:-1])
    assert len(clauses) == count
    return variables, clauses


def test_kept_files_are_well_formed_and_recheck(tmp_path: Path) -> None:
    certifier = Certifier(keep_proofs=tmp_path / "proofs")
    certification = certifier.certify(LexminClaim(Grid.empty(9), Grid.parse(EMPTY_9_LEXMIN)))
    certificate = certification.certificate
    assert certificate is not None and certificate.cnf_sha256 is not None
    stem = tmp_path / "proofs" / f"lexmin-{certificate.cnf_sha256[:16]}"
    cnf, drup = stem.with_suffix(".cnf"), stem.with_suffix(".drup")
    variables, clauses = _well_formed_dimacs(cnf.read_text())
    assert (variables, len(clauses)) == (certificate.cnf_variables, certificate.cnf_clauses)
    proof = drup.read_bytes()
    assert hashlib.sha256(proof).hexdigest() == certificate.proof_sha256
    assert len(proof) == certificate.proof_bytes
    assert proof.decode().count("\n") == certificate.proof_lines
    assert all(re.fullmatch(r"(d )?(-?[1-9]\d* )*0", line) for line in proof.decode().splitlines())
    assert proof.decode().splitlines()[-1] == "0"
    # The re-check recipe of docs/certify.md, with dratify's pure-Python engine.
    import dratify

    result = dratify.check_proof(
        dratify.parse_dimacs_file(str(cnf)), drup.read_text(), engine="python"
    )
    assert result.ok and result.reached_empty


@pytest.mark.skipif(shutil.which("drat-trim") is None, reason="drat-trim is not installed")
def test_kept_files_recheck_with_drat_trim(tmp_path: Path) -> None:
    certifier = Certifier(keep_proofs=tmp_path)
    certifier.certify(LexminClaim(Grid.empty(9), Grid.parse(EMPTY_9_LEXMIN)))
    for cnf in tmp_path.glob("*.cnf"):
        done = subprocess.run(
            ["drat-trim", str(cnf), str(cnf.with_suffix(".drup"))],
            capture_output=True,
            text=True,
            check=False,
        )
        assert "s VERIFIED" in done.stdout


def test_unwritable_proof_folder_is_one_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(ResultsFileError, match="cannot write proofs"):
        Certifier(keep_proofs=blocker / "proofs").certify(UnsatClaim(Grid.parse(UNSOLVABLE_4)))
