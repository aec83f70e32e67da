"""Certification on the executors: `sudoku-cp certify -j N` and `--executor`.

The claims of files are read in order (`certify.readers`), grouped by entry (the runs of one
puzzle, which share their claims when the backends agree: the worker's certifier certifies such a
claim once), handed to an executor running a `CertifyJob`, and come back in input order with
their certifications, tallied as the sequential loop tallies them (`certify.files`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from .certify.certifier import Certification, Certifier
from .certify.files import ClaimTally
from .certify.readers import Entry, read_entries
from .executors import Executor, Job, JobWorker
from .executors.inline import InlineExecutor

Certified = list[tuple[Entry, Certification | None]]  # one entry's runs, certified


class CertifyJob(Job):
    """Certify the runs of one entry; an item is a list of `Entry`, its output a `Certified`."""

    def __init__(self, certifier: Certifier) -> None:
        self.certifier = certifier

    @property
    def parts(self) -> Sequence[str]:
        return ["certify"]

    def start(self) -> CertifyWorker:
        return CertifyWorker(self.certifier)

    def only(self, part: str) -> CertifyJob:
        return self

    def failed(self, item: Any, part: str, reason: str) -> Certified:
        """An entry whose worker died while certifying it: every claim of it is not certified
        (a checker that crashes has not checked anything)."""
        return [
            (
                entry,
                None
                if entry.claim is None
                else Certification(entry.claim, False, f"the certifying worker died: {reason}"),
            )
            for entry in item
        ]

    def merge(self, item: Any, outputs: Sequence[Any]) -> Certified:
        return list(outputs[0])


class CertifyWorker(JobWorker):
    """A worker's certifier, with its cache of claims already certified."""

    def __init__(self, certifier: Certifier) -> None:
        self.certifier = certifier

    def run(self, item: Any, part: str | None = None) -> Certified:
        entries: list[Entry] = item
        return [
            (entry, None if entry.claim is None else self.certifier.certify(entry.claim))
            for entry in entries
        ]


def by_line(entries: Iterable[Entry]) -> Iterator[list[Entry]]:
    """The entries grouped by the line (file and line number) they come from."""
    for _, group in itertools.groupby(entries, key=lambda entry: (entry.file, entry.line)):
        yield list(group)


def certify_paths(
    paths: Iterable[str],
    certifier: Certifier,
    tally: ClaimTally,
    *,
    executor: Executor | None = None,
) -> Iterator[tuple[Entry, Certification | None]]:
    """Every run of every file with its certification (None for a run without an answer), in
    file order, tallied; the work runs on `executor` (in this process when None).

    Raises:
        ResultsFileError: for input that cannot be read (see `certify.readers.read_entries`)
            and when kept proofs cannot be written.
    """

    def entries() -> Iterator[Entry]:
        for path in paths:
            tally.files += 1
            yield from read_entries(path)

    outputs = (executor or InlineExecutor()).map(by_line(entries()), CertifyJob(certifier))
    try:
        for certified in outputs:
            for entry, certification in certified:
                tally.add(entry, certification)
                yield entry, certification
    finally:
        close = getattr(outputs, "close", None)
        if close is not None:
            close()


__all__ = ["CertifyJob", "CertifyWorker", "by_line", "certify_paths"]
