"""Certify files one claim after another, and keep the tally (the faces render it).

`certify_files` is the plain sequential loop under `sudoku-cp certify`; a parallel session
hands `Entry.claim`s to `Certifier.certify` in workers instead and feeds the same `ClaimTally`.
"""

from __future__ import annotations

import collections
import statistics
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .certifier import Certification, Certifier
from .readers import Entry, read_entries


@dataclass
class ClaimTally:
    """What a certify session found: claims by outcome and kind, and the proofs' cost."""

    files: int = 0
    claims: int = 0
    certified: int = 0
    failed: int = 0
    unanswered: int = 0  # runs with no answer (timeout, error, invalid input)
    distinct: int = 0  # claims certified afresh (the rest came from the cache)
    kinds: collections.Counter[str] = field(default_factory=collections.Counter)
    checker: str | None = None  # 'dratify 0.1.10, native (...)' once a proof was checked
    proof_checks: list[float] = field(default_factory=list)  # check seconds per proof
    proof_lines: list[int] = field(default_factory=list)

    def add(self, entry: Entry, certification: Certification | None) -> None:
        """Count one run and, when it claimed something, its certification."""
        if certification is None:
            self.unanswered += 1
            return
        self.claims += 1
        self.kinds[certification.claim.kind] += 1
        if certification.certified:
            self.certified += 1
        else:
            self.failed += 1
        certificate = certification.certificate
        if certification.cached:
            return
        self.distinct += 1
        if certificate is not None and certificate.proof_sha256 is not None:
            self.checker = (
                f"{certificate.checker} {certificate.checker_version}, {certificate.engine}"
            )
            self.proof_checks.append(certificate.check_seconds)
            self.proof_lines.append(certificate.proof_lines)

    @property
    def ok(self) -> bool:
        """Every claim certified."""
        return self.failed == 0

    def median_check_ms(self) -> float | None:
        return statistics.median(self.proof_checks) * 1e3 if self.proof_checks else None


def certify_files(
    paths: Iterable[str], certifier: Certifier, tally: ClaimTally | None = None
) -> Iterator[tuple[Entry, Certification | None]]:
    """Every run of every file with its certification (None for a run without an answer), in
    file order; `tally`, when given, counts them.

    Raises:
        ResultsFileError: for input that cannot be read (see `readers.read_entries`) and when
            kept proofs cannot be written.
    """
    for path in paths:
        if tally is not None:
            tally.files += 1
        for entry in read_entries(path):
            certification = None if entry.claim is None else certifier.certify(entry.claim)
            if tally is not None:
                tally.add(entry, certification)
            yield entry, certification


__all__ = ["ClaimTally", "certify_files"]
