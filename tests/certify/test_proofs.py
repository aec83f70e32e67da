"""certify.proofs: the proof-logging solver and the checker, which accepts a proof and rejects
every corruption of it, in each engine."""

from __future__ import annotations

import pytest

from sudoku_cp.backends import get_backend
from sudoku_cp.certify import encoding, proofs
from sudoku_cp.grid import Grid

from ..conftest import EMPTY_9_LEXMIN, G17

pytest.importorskip("dratify")

NATIVE = proofs.load_dratify().native_available()
ENGINES = ["python", "native", "both"] if NATIVE else ["python"]


@pytest.fixture(scope="module")
def refuted() -> tuple[encoding.Formula, str]:
    """A lex-min formula and its proof with several lemmas (the empty 9x9 grid's)."""
    formula = encoding.lexmin_formula(Grid.empty(9), Grid.parse(EMPTY_9_LEXMIN))
    with proofs.ProofSolver(formula) as solver:
        assert solver.solve() is None
        proof = solver.proof()
    assert proof.count("\n") > 10
    return formula, proof


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
