"""The certifier: one claim in, a `Certification` out (certified or not, why, the certificate).

- `AnyClaim`: the one verifier (`verify.check_completion`);
- `LexminClaim`: the verifier, then a checked refutation of `encoding.lexmin_formula`, or a
  smaller completion (checked by the verifier) that proves the claim wrong;
- `UnsatClaim`: a checked refutation of `encoding.completion_formula`, or a completion;
- `CountClaim`: the proof solver enumerates completions, each checked by the verifier and
  blocked; an exact count needs k of them and a checked refutation of another one; "at least k"
  needs k of them. At most `COUNT_CAP` are enumerated: a claim above it is refuted when the
  puzzle has fewer completions, and otherwise not certified (a count in a hand-edited log would
  make the certifier enumerate for hours).

A proof that does not check is a failure, never a pass; so is a model that the verifier rejects
(a fault of the solver or of the encoding). A `Certifier` holds only its settings and a cache of
claims already certified (identical claims, say three backends agreeing, are certified once); it
pickles without the cache, so a worker process can build or receive one and call `certify`.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from ..errors import CheckerUnavailableError, ResultsFileError
from ..grid import Grid, value_symbol
from ..verify import check_completion
from .claims import AnyClaim, Claim, CountClaim, LexminClaim, UnsatClaim, UnstatedClaim
from .encoding import Formula, completion_formula, count_formula, lexmin_formula, other_than
from .proofs import (
    DEFAULT_SOLVER,
    PROOF_SOLVERS,
    ProofSolver,
    check_refutation,
    checker_versions,
    package_version,
    proof_digest,
    require_engine,
    solver_version,
)

PHASES: Final = ("encode", "solve", "check")
# The most completions a count claim's certification enumerates (docs/decisions.md, "Certify:
# the count cap"): each one is a solver call and a blocking clause, and the calls grow slower as
# the clauses pile up.
COUNT_CAP: Final = 1000
VERIFIER: Final = "sudoku-cp verify"


@dataclass(frozen=True)
class Certificate:
    """How a claim was certified: the checker, the proof and what it cost (wall seconds).

    A claim the verifier settles alone (a completion; at least k completions) has the verifier
    as checker and no proof.
    """

    checker: str
    checker_version: str
    engine: str | None = None
    solver: str | None = None
    proof_format: str | None = None
    proof_lines: int = 0
    proof_bytes: int = 0
    proof_sha256: str | None = None
    cnf_variables: int = 0
    cnf_clauses: int = 0
    cnf_sha256: str | None = None
    encode_seconds: float = 0.0
    solve_seconds: float = 0.0
    check_seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (the `certificate` object of a record); seconds rounded to 0.1 us."""
        data = dataclasses.asdict(self)
        for key in ("encode_seconds", "solve_seconds", "check_seconds"):
            data[key] = round(data[key], 7)
        return data


@dataclass(frozen=True)
class Certification:
    """The outcome for one claim: `certified`, `reason` (what was shown, or why not), the
    `certificate`, and `witness`, a checked completion that refutes the claim when there is one.
    `cpu` holds CPU seconds per phase (for benchmarks); `cached` says the claim was met before.
    """

    claim: Claim
    certified: bool
    reason: str
    certificate: Certificate | None = None
    witness: Grid | None = None
    cpu: Mapping[str, float] = field(default_factory=dict)
    cached: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: certified, reason, certificate (or None) and the witness as a line."""
        return {
            "certified": self.certified,
            "reason": self.reason,
            "certificate": None if self.certificate is None else self.certificate.to_dict(),
            "witness": None if self.witness is None else self.witness.to_line(),
        }


class _Clock:
    """Wall and CPU seconds per phase."""

    def __init__(self) -> None:
        self.wall = dict.fromkeys(PHASES, 0.0)
        self.cpu = dict.fromkeys(PHASES, 0.0)

    @contextlib.contextmanager
    def __call__(self, phase: str) -> Iterator[None]:
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            yield
        finally:
            self.wall[phase] += time.perf_counter() - wall
            self.cpu[phase] += time.process_time() - cpu


class Certifier:
    """Certifies claims with one proof solver and one checker engine; see the module docstring.

    `keep_proofs` is a folder for every CNF and proof made (named `KIND-HASH.cnf` and
    `KIND-HASH.drup` or `.drat`, HASH the first 16 hex digits of the CNF's sha256).

    Raises:
        CheckerUnavailableError: for an unknown solver or engine, or when dratify (or the
            native engine asked for) is not installed.
    """

    def __init__(
        self,
        *,
        solver: str = DEFAULT_SOLVER,
        engine: str = "auto",
        keep_proofs: str | Path | None = None,
        cache_size: int = 4096,
    ) -> None:
        if solver not in PROOF_SOLVERS:
            raise CheckerUnavailableError(
                f"unknown proof solver {solver!r}: choose one of {', '.join(PROOF_SOLVERS)}"
            )
        require_engine(engine)
        self.solver = solver
        self.engine = engine
        self.keep_proofs = None if keep_proofs is None else Path(keep_proofs)
        self.cache_size = cache_size
        self._cache: collections.OrderedDict[Claim, Certification] = collections.OrderedDict()

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_cache": collections.OrderedDict()}

    def certify(self, claim: Claim) -> Certification:
        """Certify one claim (never raises for a wrong claim: that is `certified=False`).

        Raises:
            ResultsFileError: when `keep_proofs` cannot be written.
        """
        if isinstance(claim, CountClaim) and claim.first is not None:
            # The count is certified apart from the run's first completion, so runs that
            # found the same count by other first completions share one certificate.
            check = check_completion(claim.puzzle, claim.first)
            if not check.ok:
                return Certification(claim, False, f"its first completion {check.describe()}")
            counted = self.certify(dataclasses.replace(claim, first=None))
            return dataclasses.replace(counted, claim=claim)
        known = self._cache.get(claim)
        if known is not None:
            self._cache.move_to_end(claim)
            return dataclasses.replace(known, cached=True, cpu=dict.fromkeys(PHASES, 0.0))
        clock = _Clock()
        certification = self._certify(claim, clock)
        certification = dataclasses.replace(certification, cpu=dict(clock.cpu))
        if self.cache_size > 0:
            self._cache[claim] = certification
            if len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return certification

    def _certify(self, claim: Claim, clock: _Clock) -> Certification:
        if isinstance(claim, UnstatedClaim):
            return Certification(claim, False, claim.problem)
        if isinstance(claim, AnyClaim):
            return self._any(claim, clock)
        if isinstance(claim, LexminClaim):
            return self._lexmin(claim, clock)
        if isinstance(claim, UnsatClaim):
            return self._unsat(claim, clock)
        return self._count(claim, clock)

    # -- one method per kind -------------------------------------------------------------------

    def _any(self, claim: AnyClaim, clock: _Clock) -> Certification:
        with clock("check"):
            check = check_completion(claim.puzzle, claim.solution)
        if not check.ok:
            return Certification(claim, False, f"not a completion: {check.describe()}")
        return Certification(
            claim, True, "a completion (checked by the verifier)", _verified(clock)
        )

    def _lexmin(self, claim: LexminClaim, clock: _Clock) -> Certification:
        check = check_completion(claim.puzzle, claim.solution)
        if not check.ok:
            return Certification(claim, False, f"not a completion: {check.describe()}")
        with clock("encode"):
            formula = lexmin_formula(claim.puzzle, claim.solution)
            _ = formula.dimacs  # written here, so its cost counts as encoding
        with clock("solve"), ProofSolver(formula, self.solver) as solver:
            model = solver.solve()
            proof = solver.proof() if model is None else ""
        if model is None:
            return self._checked(
                claim,
                formula,
                proof,
                clock,
                "a completion, and no completion is smaller (proof checked)",
            )
        witness = formula.completion(model)
        fault = _fault(claim.puzzle, witness, "smaller completion")
        if fault is None and not witness.values < claim.solution.values:
            fault = "the proof solver's smaller completion is not smaller (a certifier fault)"
        if fault is not None:
            return Certification(claim, False, fault)
        return Certification(
            claim,
            False,
            f"not the lex-min: {_first_smaller(witness, claim)} "
            f"(a smaller completion: {witness.to_line()})",
            witness=witness,
        )

    def _unsat(self, claim: UnsatClaim, clock: _Clock) -> Certification:
        with clock("encode"):
            formula = completion_formula(claim.puzzle)
            _ = formula.dimacs  # written here, so its cost counts as encoding
        with clock("solve"), ProofSolver(formula, self.solver) as solver:
            model = solver.solve()
            proof = solver.proof() if model is None else ""
        if model is None:
            return self._checked(claim, formula, proof, clock, "no completion (proof checked)")
        witness = formula.completion(model)
        fault = _fault(claim.puzzle, witness, "completion")
        if fault is not None:
            return Certification(claim, False, fault)
        return Certification(
            claim, False, f"not unsatisfiable: {witness.to_line()} is a completion", witness=witness
        )

    def _count(self, claim: CountClaim, clock: _Clock) -> Certification:
        wanted = min(claim.count + 1 if claim.exact else claim.count, COUNT_CAP + 1)
        with clock("encode"):
            base = completion_formula(claim.puzzle)
        found: list[Grid] = []
        with clock("solve"), ProofSolver(base, self.solver) as solver:
            while len(found) < wanted:
                model = solver.solve()
                if model is None:
                    break
                grid = base.completion(model)
                fault = _fault(claim.puzzle, grid, "completion") or (
                    "the proof solver found one completion twice (a certifier fault)"
                    if grid in found
                    else None
                )
                if fault is not None:
                    return Certification(claim, False, fault)
                found.append(grid)
                solver.add(other_than(claim.puzzle, grid))
            proof = solver.proof() if len(found) < wanted else ""
        return self._counted(claim, found, proof, clock)

    def _counted(
        self, claim: CountClaim, found: list[Grid], proof: str, clock: _Clock
    ) -> Certification:
        if len(found) > claim.count:
            return Certification(
                claim,
                False,
                f"more than {_completions(claim.count)} (another one: {found[-1].to_line()})",
                witness=found[-1],
            )
        if not claim.exact and len(found) == claim.count:
            return Certification(
                claim,
                True,
                f"at least {_completions(claim.count)} (found and checked by the verifier)",
                _verified(clock),
            )
        if len(found) > COUNT_CAP:  # the claim is above the cap, and so may be the puzzle
            return Certification(
                claim,
                False,
                f"{claim.describe()} is above the {COUNT_CAP} completions that certify "
                f"enumerates (the puzzle has more than {COUNT_CAP}; the claim is not refuted)",
            )
        with clock("encode"):
            formula = count_formula(claim.puzzle, found)
            _ = formula.dimacs  # written here, so its cost counts as encoding
        checked = self._checked(
            claim,
            formula,
            proof,
            clock,
            f"exactly {_completions(claim.count)} (found and checked; "
            f"proof that there is no other)",
        )
        if len(found) == claim.count:
            return checked
        how = "proof checked" if checked.certified else checked.reason
        return dataclasses.replace(
            checked,
            certified=False,
            reason=f"only {_completions(len(found))}, not {claim.count} ({how})",
        )

    # -- proofs --------------------------------------------------------------------------------

    def _checked(
        self, claim: Claim, formula: Formula, proof: str, clock: _Clock, shown: str
    ) -> Certification:
        with clock("check"):
            check = check_refutation(formula, proof, self.engine)
        version, engine = checker_versions(check.engine)
        lines, size, digest = proof_digest(proof)
        proof_format = PROOF_SOLVERS[self.solver]
        if self.keep_proofs is not None:
            self._keep(claim, formula, proof, proof_format)
        certificate = Certificate(
            checker="dratify",
            checker_version=version,
            engine=engine,
            solver=solver_version(self.solver),
            proof_format=proof_format,
            proof_lines=lines,
            proof_bytes=size,
            proof_sha256=digest,
            cnf_variables=formula.variables,
            cnf_clauses=len(formula.clauses),
            cnf_sha256=formula.sha256,
            encode_seconds=clock.wall["encode"],
            solve_seconds=clock.wall["solve"],
            check_seconds=clock.wall["check"],
        )
        if check.ok:
            return Certification(claim, True, shown, certificate)
        return Certification(claim, False, f"the proof does not check: {check.reason}", certificate)

    def _keep(self, claim: Claim, formula: Formula, proof: str, proof_format: str) -> None:
        folder = self.keep_proofs
        assert folder is not None
        stem = f"{claim.kind}-{formula.sha256[:16]}"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{stem}.cnf").write_text(formula.dimacs, encoding="ascii")
            (folder / f"{stem}.{proof_format.lower()}").write_text(proof, encoding="ascii")
        except OSError as error:
            raise ResultsFileError(
                f"{folder}: cannot write proofs: {error.strerror or error}"
            ) from None


def _completions(count: int) -> str:
    return f"{count} completion{'' if count == 1 else 's'}"


def _verified(clock: _Clock) -> Certificate:
    return Certificate(
        checker=VERIFIER,
        checker_version=package_version("sudoku-cp"),
        check_seconds=clock.wall["check"],
        solve_seconds=clock.wall["solve"],
        encode_seconds=clock.wall["encode"],
    )


def _fault(puzzle: Grid, grid: Grid, what: str) -> str | None:
    """Why a model of the proof solver is not the completion it must be (never expected)."""
    check = check_completion(puzzle, grid)
    if check.ok:
        return None
    return f"the proof solver's {what} {check.describe()} (a certifier fault)"


def _first_smaller(smaller: Grid, claim: LexminClaim) -> str:
    """'row 2, column 5 can be 3': the first cell where the smaller completion differs."""
    size = smaller.size
    cell = next(
        cell
        for cell, (mine, theirs) in enumerate(
            zip(smaller.values, claim.solution.values, strict=True)
        )
        if mine != theirs
    )
    row, column = divmod(cell, size)
    return f"row {row + 1}, column {column + 1} can be {value_symbol(smaller.values[cell])}"


__all__ = ["PHASES", "VERIFIER", "Certificate", "Certification", "Certifier"]
