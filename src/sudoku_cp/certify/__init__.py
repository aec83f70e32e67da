"""Certified answers: a checked proof for every claim a backend makes.

    from sudoku_cp.certify import Certifier, claim_of_result
    certifier = Certifier()                       # glucose4 proofs, dratify checks them
    certification = certifier.certify(claim_of_result(puzzle, result))
    certification.certified, certification.reason, certification.certificate

`claims` (what an answer asserts), `encoding` (the certificate CNF and why it is sound),
`proofs` (proof solver and checker), `certifier` (claim -> certification), `readers` (results
logs and `solve --format jsonl` output -> claims with file and line), `files` (certify files
one claim after another, with a tally). No solver or checker package is imported until a proof
is made or checked.
"""

from __future__ import annotations

from .certifier import Certificate, Certification, Certifier
from .claims import (
    AnyClaim,
    Claim,
    CountClaim,
    LexminClaim,
    UnsatClaim,
    UnstatedClaim,
    claim_of_result,
    claim_of_run,
)
from .proofs import DEFAULT_SOLVER, ENGINES, PROOF_SOLVERS

__all__ = [
    "DEFAULT_SOLVER",
    "ENGINES",
    "PROOF_SOLVERS",
    "AnyClaim",
    "Certificate",
    "Certification",
    "Certifier",
    "Claim",
    "CountClaim",
    "LexminClaim",
    "UnsatClaim",
    "UnstatedClaim",
    "claim_of_result",
    "claim_of_run",
]
