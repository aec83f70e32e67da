"""The certification library: the encoding's soundness property checked against brute force,
every claim kind certified when right and rejected with its reason when tampered, corrupted
proofs rejected by the checker, the wrong test backends' answers rejected, the kept files
well-formed and re-checkable, the readers."""

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
    encoding,
    proofs,
)
from sudoku_cp.certify.readers import read_entries
from sudoku_cp.errors import CheckerUnavailableError, ResultsFileError
from sudoku_cp.grid import Grid
from sudoku_cp.result import Mode
from sudoku_cp.testing import random_multi_solution

from .conftest import EMPTY_9_LEXMIN, G17, UNSOLVABLE_4
from .wrong_backends import (
    GivenChangerBackend,
    NotLexminBackend,
    OverCountBackend,
    RuleBreakerBackend,
    UnsatisfiableBackend,
)

pytest.importorskip("dratify")

NATIVE = proofs.load_dratify().native_available()
ENGINES = ["python", "native", "both"] if NATIVE else ["python"]
SMALL_PUZZLES = [
    random_multi_solution(4, givens, seed)
    for givens, seed in [(0, 0), (2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (7, 6)]
]


def completions(puzzle: Grid) -> list[Grid]:
    """Every completion, by plain enumeration, in row-major (lexicographic) order."""
    values = list(puzzle.values)
    peers = puzzle.geometry.peers
    blanks = puzzle.blanks()
    found: list[Grid] = []
    if puzzle.conflicts():
        return found

    def search(k: int) -> None:
        if k == len(blanks):
            found.append(Grid(tuple(values), puzzle.box))
            return
        cell = blanks[k]
        for value in range(1, puzzle.size + 1):
            if all(values[peer] != value for peer in peers[cell]):
                values[cell] = value
                search(k + 1)
        values[cell] = 0

    search(0)
    return found


def satisfiable(formula: encoding.Formula) -> bool:
    from pysat.solvers import Solver

    with Solver(name="minisat22", bootstrap_with=formula.clauses) as solver:
        return bool(solver.solve())


def one_hot(grid: Grid) -> set[int]:
    return {cell * grid.size + value for cell, value in enumerate(grid.values)}


def holds(clause: list[int], true: set[int]) -> bool:
    return any((literal in true) if literal > 0 else (-literal not in true) for literal in clause)


@pytest.fixture(scope="module")
def certifier() -> Certifier:
    return Certifier()


# -- the encoding: its one property, against brute force ---------------------------------------


@pytest.mark.parametrize("puzzle", SMALL_PUZZLES, ids=lambda grid: grid.to_line())
def test_every_completion_satisfies_the_completion_clauses(puzzle: Grid) -> None:
    formula = encoding.completion_formula(puzzle)
    every = completions(puzzle)
    assert every, "the test wants satisfiable puzzles"
    for completion in every:
        true = one_hot(completion)
        assert all(holds(clause, true) for clause in formula.clauses)
        assert formula.completion(sorted(true)) == completion
        assert all(
            value in cands
            for value, cands in zip(completion.values, formula.candidates, strict=True)
        )


@pytest.mark.parametrize("puzzle", SMALL_PUZZLES, ids=lambda grid: grid.to_line())
def test_smaller_than_is_satisfiable_exactly_above_the_lexmin(puzzle: Grid) -> None:
    every = completions(puzzle)
    for position, completion in enumerate(every[:12]):
        formula = encoding.lexmin_formula(puzzle, completion)
        assert satisfiable(formula) == (position > 0), completion.to_line()


@pytest.mark.parametrize("puzzle", SMALL_PUZZLES, ids=lambda grid: grid.to_line())
def test_blocking_leaves_exactly_the_other_completions(puzzle: Grid) -> None:
    every = completions(puzzle)[:20]
    assert not satisfiable(encoding.count_formula(puzzle, completions(puzzle)))
    if len(completions(puzzle)) > len(every):
        assert satisfiable(encoding.count_formula(puzzle, every))
    assert satisfiable(encoding.count_formula(puzzle, every[:-1]))


def test_conflicting_givens_and_a_blocked_cell_are_refuted_by_the_clauses() -> None:
    assert not satisfiable(encoding.completion_formula(Grid.parse("1100" + "0" * 12)))
    assert not satisfiable(encoding.completion_formula(Grid.parse(UNSOLVABLE_4)))


@pytest.mark.parametrize("puzzle", SMALL_PUZZLES, ids=lambda grid: grid.to_line())
def test_the_extended_clauses_hold_under_every_completion_too(
    puzzle: Grid, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Below EXTENDED_FROM_SIZE the formula holds the minimal clauses; the extended ones, which
    # bigger grids get, are held to the same property here on the small puzzles.
    minimal = len(encoding.completion_formula(puzzle).clauses)
    monkeypatch.setattr(encoding, "EXTENDED_FROM_SIZE", puzzle.size)
    formula = encoding.completion_formula(puzzle)
    assert len(formula.clauses) > minimal
    for completion in completions(puzzle):
        assert all(holds(clause, one_hot(completion)) for clause in formula.clauses)
    first = completions(puzzle)[0]
    assert not satisfiable(encoding.lexmin_formula(puzzle, first))


def test_nine_by_nine_formulas_are_minimal_and_sixteen_extended() -> None:
    def cell_pairs(puzzle: Grid) -> int:  # two values of one cell excluded by a clause
        size = puzzle.size
        formula = encoding.completion_formula(puzzle)
        return sum(
            len(clause) == 2 and (-clause[0] - 1) // size == (-clause[1] - 1) // size
            for clause in formula.clauses
            if clause[0] < 0 and clause[1] < 0
        )

    assert encoding.EXTENDED_FROM_SIZE == 16
    assert cell_pairs(Grid.parse(G17)) == 0
    assert cell_pairs(Grid.empty(16)) == 256 * 120


@pytest.mark.parametrize("size", [9, 16])
def test_the_checked_clauses_are_what_dratify_reads_from_the_published_text(size: int) -> None:
    # The checker is handed the formula's clauses, not the text; what anyone re-checks is the
    # text, so the two must be one formula: dratify's own parser reads the text back to them.
    dratify = proofs.load_dratify()
    puzzle = Grid.parse(G17) if size == 9 else Grid.empty(16)
    solution = get_backend("sat").solve(puzzle).solution
    assert solution is not None
    formulas = [
        encoding.completion_formula(puzzle),
        encoding.lexmin_formula(puzzle, solution),
        encoding.count_formula(puzzle, [solution]),
    ]
    for formula in formulas:
        parsed = dratify.parse_dimacs(formula.dimacs, strict=True)
        checked = proofs.checker_formula(dratify, formula)
        assert (checked.nvars, checked.clauses) == (parsed.nvars, parsed.clauses)


def test_candidates_leave_out_the_values_of_given_peers() -> None:
    puzzle = Grid.parse(UNSOLVABLE_4)  # cell 0 sees 1, 2 in its row and 3, 4 in its column
    cands = encoding.candidates(puzzle)
    assert cands[0] == () and cands[1] == (1,) and cands[15] == (1, 2, 3, 4)


# -- each claim kind: certified when right --------------------------------------------------------


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


# -- each claim kind: tampered, rejected with the reason ---------------------------------------


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


# -- corrupted proofs -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def refuted() -> tuple[encoding.Formula, str]:
    """A lex-min formula and its proof with several lemmas (the empty 9x9 grid's)."""
    formula = encoding.lexmin_formula(Grid.empty(9), Grid.parse(EMPTY_9_LEXMIN))
    with proofs.ProofSolver(formula) as solver:
        assert solver.solve() is None
        proof = solver.proof()
    assert proof.count("\n") > 10
    return formula, proof


def _corruptions(proof: str) -> dict[str, str]:
    lines = proof.splitlines()
    lemmas = [
        number for number, line in enumerate(lines) if not line.startswith("d") and line != "0"
    ]
    flipped = list(lines)
    first = lemmas[0]
    literals = flipped[first].split()
    flipped[first] = " ".join([str(-int(literals[0])), *literals[1:]])
    return {
        "truncated (no empty clause)": "\n".join(lines[:-1]) + "\n",
        "first lemma negated": "\n".join(flipped) + "\n",
        "only the empty clause": "0\n",
        "garbage": "1 2 x 0\n",
        "unterminated": proof.rstrip("\n").removesuffix("0") + "\n",
    }


@pytest.mark.parametrize("engine", ENGINES)
def test_the_checker_accepts_the_proof_and_rejects_every_corruption(
    refuted: tuple[encoding.Formula, str], engine: str
) -> None:
    formula, proof = refuted
    assert proofs.check_refutation(formula, proof, engine).ok
    for name, corrupted in _corruptions(proof).items():
        check = proofs.check_refutation(formula, corrupted, engine)
        assert not check.ok, name
        assert check.reason


def test_ctrl_c_during_a_proof_solve_is_a_keyboard_interrupt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # python-sat's form of Ctrl-C during a call (`pysolvers.error: Caught keyboard interrupt`)
    # comes out as KeyboardInterrupt, so `certify` ends with one line and exit 130.
    import pysolvers

    def interrupted(*args: object) -> bool:
        raise pysolvers.error("Caught keyboard interrupt")

    formula = encoding.completion_formula(Grid.parse(G17))
    with proofs.ProofSolver(formula) as solver:
        monkeypatch.setattr(solver._solver, "solve", interrupted)
        with pytest.raises(KeyboardInterrupt):
            solver.solve()


def test_a_proof_of_a_satisfiable_formula_is_rejected() -> None:
    formula = encoding.completion_formula(Grid.parse(G17))
    with pytest.raises(AssertionError), proofs.ProofSolver(formula) as solver:
        assert solver.solve() is None
    assert not proofs.check_refutation(formula, "0\n").ok


def test_a_corrupted_proof_is_a_failure_never_a_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    honest = proofs.ProofSolver.proof
    monkeypatch.setattr(
        proofs.ProofSolver, "proof", lambda self: "\n".join(honest(self).splitlines()[:-1]) + "\n"
    )
    certification = Certifier().certify(LexminClaim(Grid.empty(9), Grid.parse(EMPTY_9_LEXMIN)))
    assert not certification.certified
    assert certification.reason.startswith("the proof does not check: ")
    assert "empty clause" in certification.reason


# -- the deliberately wrong test backends ----------------------------------------------------


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


# -- claims of runs, the certifier's state -----------------------------------------------------


def test_claims_of_runs() -> None:
    puzzle = Grid.empty(4)
    answer = "1234341221434321"
    assert claim_of_run(puzzle, "lexmin", "timeout", solution=None) is None
    assert claim_of_run(puzzle, "lexmin", "error", solution=None) is None
    assert claim_of_run(puzzle, "lexmin", "solved", solution=answer) == LexminClaim(
        puzzle, Grid.parse(answer)
    )
    assert isinstance(claim_of_run(puzzle, "any", "wrong", solution=answer), AnyClaim)
    assert claim_of_run(puzzle, "lexmin", "wrong", solution=None) == UnsatClaim(puzzle)
    assert isinstance(
        claim_of_run(
            puzzle, "lexmin", "wrong", solution=None, reason="reported solved without a completion"
        ),
        UnstatedClaim,
    )
    assert claim_of_run(puzzle, "count", "solved", solution=answer, count=288) == CountClaim(
        puzzle, 288, True, Grid.parse(answer)
    )
    assert claim_of_run(
        puzzle, "count", "solved", solution=None, count=2, limit_reached=True
    ) == CountClaim(puzzle, 2, False)
    assert claim_of_run(puzzle, "count", "unsatisfiable", solution=None) == CountClaim(
        puzzle, 0, True
    )
    assert isinstance(claim_of_run(puzzle, "count", "wrong", solution=None), UnstatedClaim)
    assert isinstance(
        claim_of_run(puzzle, "count", "solved", solution=None, count=-1), UnstatedClaim
    )


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


# -- kept files: well-formed, re-checkable by another checker ------------------------------------


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


# -- readers ------------------------------------------------------------------------------------


def test_solve_output_and_log_records_become_entries(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    header = {"kind": "header", "format": "sudoku-cp results", "version": 3}
    header.update(command="crosscheck", settings={"mode": "lexmin", "backends": []})
    entry = {
        "kind": "puzzle",
        "source": "p.txt",
        "number": 0,
        "puzzle": "0" * 16,
        "mode": "lexmin",
        "verdict": "timeout",
        "runs": [
            {"backend": "dfs", "repeat": 0, "status": "solved", "solution": "1234341221434321"},
            {"backend": "dfs", "repeat": 1, "status": "timeout", "solution": None},
        ],
    }
    log.write_text(json.dumps(header) + "\n" + json.dumps(entry) + "\n" + '{"torn')
    solved = tmp_path / "solve.jsonl"
    lines = [
        {
            "index": 0,
            "source": "p.txt",
            "puzzle": "0" * 16,
            "status": "wrong",
            "solution": None,
            "answer": "1234341221434321",
            "backend": "x",
            "mode": "any",
        },
        {"index": 1, "source": "p.txt", "puzzle": "00", "status": "invalid", "backend": "x"},
    ]
    solved.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    entries = list(read_entries(str(log))) + list(read_entries(str(solved)))
    assert [(entry.line, entry.label, entry.status) for entry in entries] == [
        (2, "dfs", "solved"),
        (2, "dfs#2", "timeout"),
        (1, "x", "wrong"),
        (2, "x", "invalid"),
    ]
    assert isinstance(entries[0].claim, LexminClaim) and entries[1].claim is None
    assert isinstance(entries[2].claim, AnyClaim) and entries[3].claim is None


@pytest.mark.parametrize(
    "text,message",
    [
        ("not json\n{}\n", r"bad\.jsonl:1: not a JSON object: certify reads results logs"),
        ('{"kind": "other"}\n', r"bad\.jsonl:1: neither a results log nor a line of solve"),
        (
            '{"puzzle": "123", "backend": "x", "status": "solved", "mode": "lexmin"}\n',
            r"bad\.jsonl:1: the puzzle is not a grid",
        ),
        (
            '{"puzzle": "' + "0" * 16 + '", "status": "solved", "mode": "fast"}\n',
            r"bad\.jsonl:1: not a whole line of solve --format jsonl \(mode 'fast' is none of",
        ),
        ("\n\n", r"bad\.jsonl: holds no puzzle to certify"),
    ],
)
def test_unreadable_input_is_one_line_with_its_place(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    with pytest.raises(ResultsFileError, match=message):
        list(read_entries(str(path)))


def test_a_missing_file_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ResultsFileError, match="cannot read"):
        list(read_entries(str(tmp_path / "nothing.jsonl")))


def test_the_small_puzzles_cover_one_to_many_completions() -> None:
    # The tampering tests need a second completion (puzzles 2 and 3); the soundness tests
    # also cover a unique puzzle and the empty grid.
    assert [len(completions(puzzle)) for puzzle in SMALL_PUZZLES] == [288, 24, 12, 4, 3, 1, 2]
