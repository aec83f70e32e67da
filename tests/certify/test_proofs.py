"""certify.proofs: the proof-logging solver and the checker, which accepts a proof and rejects
every corruption of it, in each engine."""

from __future__ import annotations

import pytest

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
    assert proofs.check_refutation(formula.dimacs, proof, engine).ok
    for name, corrupted in _corruptions(proof).items():
        check = proofs.check_refutation(formula.dimacs, corrupted, engine)
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
    assert not proofs.check_refutation(formula.dimacs, "0\n").ok
