"""Proofs: produced by a proof-logging SAT solver through python-sat, checked by dratify.

The two sides share no code: the solver (Glucose, CaDiCaL, Lingeling, ... as python-sat builds
them) writes a DRUP/DRAT refutation of a certificate formula; dratify, a checker written apart
from any solver and from sudoku-cp, reads the formula back *from its published DIMACS text* and
replays the proof. The solver is not trusted at all: its refutations are checked, and its models
are decoded and checked by the one verifier.

Both packages are imported only when a proof is made or checked. dratify's engines: `python`
(pure Python, always there) and `native` (its Rust checker as shipped by `cdclkit-native`, which
this module registers with dratify when it is installed); `auto` takes native when it is there,
`both` runs the two and needs both to accept.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Final

from ..errors import CheckerUnavailableError, solver_interrupts
from .encoding import Clause, Formula

# The python-sat solvers that log proofs, with the format they write (DRUP is DRAT without RAT
# steps). Each was measured to refute and enumerate correctly (models are checked anyway).
PROOF_SOLVERS: Final = {
    "glucose4": "DRUP",
    "glucose3": "DRUP",
    "glucose42": "DRUP",
    "cadical195": "DRAT",
    "lingeling": "DRAT",
    "maplechrono": "DRUP",
}
DEFAULT_SOLVER: Final = "glucose4"
ENGINES: Final = ("auto", "native", "python", "both")
EMPTY_CLAUSE: Final = "0"


class ProofSolver:
    """One proof-logging solver on one formula; `close` it (or use `with`).

    Raises:
        CheckerUnavailableError: when python-sat cannot log proofs with this solver.
    """

    def __init__(self, formula: Formula, name: str = DEFAULT_SOLVER) -> None:
        if name not in PROOF_SOLVERS:
            raise CheckerUnavailableError(
                f"unknown proof solver {name!r}: choose one of {', '.join(PROOF_SOLVERS)}"
            )
        from pysat.solvers import Solver

        self.name = name
        self._solver = Solver(name=name, bootstrap_with=formula.clauses, with_proof=True)

    def solve(self) -> list[int] | None:
        """A model of the clauses so far, or None when they are unsatisfiable."""
        with solver_interrupts():
            found = self._solver.solve()
        if found:
            model: list[int] = self._solver.get_model()
            return model
        return None

    def add(self, clause: Clause) -> None:
        self._solver.add_clause(clause)

    def proof(self) -> str:
        """The solver's proof so far as text, one step a line, ending in the empty clause (added
        when the solver found the formula refuted by propagation alone and wrote nothing: the
        checker must derive it like any other step)."""
        lines = [line.strip() for line in self._solver.get_proof() or []]
        lines = [line for line in lines if line]
        if not lines or lines[-1] != EMPTY_CLAUSE:
            lines.append(EMPTY_CLAUSE)
        return "\n".join(lines) + "\n"

    def close(self) -> None:
        self._solver.delete()

    def __enter__(self) -> ProofSolver:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


@dataclass(frozen=True)
class ProofCheck:
    """What the checker said about one proof."""

    ok: bool
    reason: str  # the checker's own words
    engine: str  # the engine(s) that ran


def proof_digest(proof: str) -> tuple[int, int, str]:
    """Lines, bytes and sha256 of a proof text."""
    data = proof.encode("ascii")
    return proof.count("\n"), len(data), hashlib.sha256(data).hexdigest()


def check_refutation(formula: Formula, proof: str, engine: str = "auto") -> ProofCheck:
    """Check with dratify that `proof` refutes `formula`.

    The checker gets the formula's clauses as they are, not read back from its DIMACS text:
    `Formula.dimacs` writes exactly these clauses (a test reads the text back with dratify's
    parser and compares), and parsing the text again cost more than the rest of a 9x9
    certificate. The proof, which is not trusted at all, is read by dratify's parser.

    Raises:
        CheckerUnavailableError: when dratify is missing, or `engine` is native (or both)
            without the native checker.
    """
    dratify = require_engine(engine)
    native = _native_available(dratify)
    engines: Sequence[str] = (
        ("native", "python")
        if engine == "both"
        else ("native" if native else "python",)
        if engine == "auto"
        else (engine,)
    )
    try:
        steps = dratify.parse_proof(proof)
    except ValueError as error:  # dratify's one-line account of malformed input
        return ProofCheck(False, f"the checker cannot read it: {error}", "+".join(engines))
    checked = checker_formula(dratify, formula)
    for name in engines:
        try:
            result = dratify.check_proof(checked, steps, engine=name)
        except ValueError as error:
            return ProofCheck(False, f"{name} checker: {error}", "+".join(engines))
        if not (result.ok and result.reached_empty):
            return ProofCheck(False, f"{name} checker: {result.reason}", "+".join(engines))
    return ProofCheck(True, str(result.reason), "+".join(engines))


@functools.cache
def _native_available(dratify: Any) -> bool:
    """Whether dratify has a native engine: asked once per process (dratify looks for one by
    trying imports, each a search of the module path)."""
    return bool(dratify.native_available())


def checker_formula(dratify: Any, formula: Formula) -> Any:
    """The formula as dratify's `CNF`, in dratify's literal numbering (2(v - 1) for v,
    2(v - 1) + 1 for -v): the clauses its DIMACS parser makes of `formula.dimacs`.

    The clauses are set as they are, not through `CNF.add`, whose normalisation (repeated
    literals merged, tautologies dropped) has nothing to do here: the encoding never repeats a
    variable within a clause (a test holds this against dratify's parser of the text).
    """
    checked = dratify.CNF(formula.variables)
    checked.clauses = [
        tuple([2 * literal - 2 if literal > 0 else -2 * literal - 1 for literal in clause])
        for clause in formula.clauses
    ]
    return checked


def require_engine(engine: str) -> Any:
    """dratify, ready to run `engine` (see `ENGINES`).

    Raises:
        CheckerUnavailableError: for an unknown engine, when dratify is missing, or for native
            (or both) without the native checker.
    """
    if engine not in ENGINES:
        raise CheckerUnavailableError(
            f"unknown checker engine {engine!r}: choose one of {', '.join(ENGINES)}"
        )
    dratify = load_dratify()
    if engine in ("native", "both") and not _native_available(dratify):
        raise CheckerUnavailableError(
            "the native proof checker is not installed: pip install cdclkit-native "
            "(or choose the python engine)"
        )
    return dratify


@functools.cache
def load_dratify() -> Any:
    """dratify, with the native checker registered when cdclkit-native is installed (once per
    process).

    Raises:
        CheckerUnavailableError: when dratify is not installed.
    """
    try:
        import dratify as module
    except ImportError:
        raise CheckerUnavailableError(
            "certificates need the proof checker dratify: pip install '.[certify]' "
            "from a sudoku-cp checkout "
            "(or pip install dratify)"
        ) from None
    dratify: Any = module  # partly untyped (native_implementation, register_native)
    if dratify.native_implementation() is None:
        native = _native_module()
        if native is not None:
            dratify.register_native(native)
    return dratify


def _native_module() -> ModuleType | None:
    try:
        import cdclkit_native
    except ImportError:
        return None
    return cdclkit_native if hasattr(cdclkit_native, "check_proof") else None


def checker_versions(engine: str) -> tuple[str, str]:
    """(dratify's version, the engine named with the package that provides it)."""
    dratify = load_dratify()
    if "native" not in engine:
        return str(dratify.__version__), engine
    return str(dratify.__version__), engine.replace(
        "native", f"native (cdclkit-native {package_version('cdclkit-native')})"
    )


def solver_version(name: str) -> str:
    return f"{name} (python-sat {package_version('python-sat')})"


@functools.cache
def package_version(package: str) -> str:
    """An installed distribution's version ('unknown' when it is not installed); looked up
    once per process (a look-up reads the installed metadata from disk)."""
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


__all__ = [
    "DEFAULT_SOLVER",
    "ENGINES",
    "PROOF_SOLVERS",
    "ProofCheck",
    "ProofSolver",
    "check_refutation",
    "checker_formula",
    "checker_versions",
    "load_dratify",
    "package_version",
    "proof_digest",
    "require_engine",
    "solver_version",
]
