"""Claims read from files: results logs (crosscheck, bench) and `solve --format jsonl` output.

Both are read by the results log's own types (`results_log.records`): a log's lines by its one
reader (`results_log.reader.read_log`), one `Entry` per run of each puzzle entry; a line of
`solve --format jsonl` as an `AnswerLine`, one `Entry`. A run that answered nothing (timeout,
error, invalid input) has no claim.
"""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import IO

from ..errors import GridParseError, GridShapeError, ResultsFileError
from ..grid import Grid
from ..result import Mode
from ..results_log.reader import parse_json, read_log
from ..results_log.records import AnswerLine, PuzzleEntry, PuzzleFields, RecordError, Run
from .claims import Claim, claim_of_run

LOGGER = logging.getLogger(__name__)
STDIN = "-"


@dataclass(frozen=True)
class Entry:
    """One run read from a file: where it is, whose it is, its status, and its claim (None when
    it answered nothing)."""

    file: str
    line: int
    label: str
    status: str
    claim: Claim | None

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


def read_entries(path: str) -> Iterator[Entry]:
    """The runs of one file, in file order (`-` reads standard input).

    Raises:
        ResultsFileError: (one line, with file and line) for a file that cannot be read, a line
            that is not a whole record, a puzzle that is not a grid, or a file without a single
            puzzle entry or answer.
    """
    claims = 0
    with _open(path) as handle:
        first = handle.readline()
        data = parse_json(first) if first.strip() else None
        lines: Iterator[tuple[int, PuzzleEntry | AnswerLine]] = (
            _log_lines(path, first, handle)
            if isinstance(data, dict) and data.get("kind") == "header"
            else _answer_lines(path, first, handle)
        )
        for number, record in lines:
            claims += 1
            yield from _entries(record, path, number)
    if not claims:
        raise ResultsFileError(
            f"{path}: holds no puzzle to certify (expected a results log with puzzle records, "
            f"or the output of solve --format jsonl)"
        )


def _log_lines(path: str, first: bytes, rest: IO[bytes]) -> Iterator[tuple[int, PuzzleEntry]]:
    for line in read_log(path, _Chained(first, rest)):
        if isinstance(line.record, PuzzleEntry):
            yield line.number, line.record


def _answer_lines(path: str, first: bytes, rest: IO[bytes]) -> Iterator[tuple[int, AnswerLine]]:
    for number, raw in enumerate(_Chained(first, rest), start=1):
        if not raw.strip():
            continue
        if not raw.endswith(b"\n"):
            LOGGER.warning("%s:%d: a torn last line (not a whole record), left out", path, number)
            return
        data = parse_json(raw)
        if not isinstance(data, dict):
            raise ResultsFileError(
                f"{path}:{number}: not a JSON object: certify reads results logs and the "
                f"output of solve --format jsonl"
            )
        if "kind" in data:
            raise ResultsFileError(
                f"{path}:{number}: neither a results log nor a line of solve --format jsonl"
            )
        try:
            yield number, AnswerLine.from_json(data)
        except RecordError as error:
            raise ResultsFileError(
                f"{path}:{number}: not a whole line of solve --format jsonl ({error})"
            ) from None


class _Chained:
    """A first line already read, then the rest of the stream: one iterable of lines."""

    def __init__(self, first: bytes, rest: IO[bytes]) -> None:
        self.first, self.rest = first, rest

    def __iter__(self) -> Iterator[bytes]:
        if self.first:
            yield self.first
        yield from self.rest


def _open(path: str) -> AbstractContextManager[IO[bytes]]:
    if path == STDIN:
        return contextlib.nullcontext(sys.stdin.buffer)  # left open: it is not ours
    try:
        return open(path, "rb")
    except OSError as error:
        raise ResultsFileError(f"{path}: cannot read: {error.strerror or error}") from None


def _entries(record: PuzzleEntry | AnswerLine, path: str, number: int) -> Iterator[Entry]:
    if isinstance(record, AnswerLine) and record.run is None:
        yield Entry(path, number, record.backend or "?", "invalid", None)
        return
    puzzle = _puzzle(record, path, number)
    runs = record.runs if isinstance(record, PuzzleEntry) else (record.run,)
    for run in runs:
        assert run is not None
        label = run.backend + (f"#{run.repeat + 1}" if run.repeat > 0 else "")
        yield Entry(path, number, label, str(run.status), _claim(puzzle, record.mode, run))


def _claim(puzzle: Grid, mode: Mode, run: Run) -> Claim | None:
    return claim_of_run(
        puzzle,
        mode,
        str(run.status),
        solution=run.grid_text,
        count=run.count,
        limit_reached=bool(run.limit_reached),
        reason=run.reason,
    )


def _puzzle(record: PuzzleFields, path: str, number: int) -> Grid:
    try:
        return record.grid()
    except (GridParseError, GridShapeError) as error:
        raise ResultsFileError(f"{path}:{number}: the puzzle is not a grid: {error}") from None


__all__ = ["STDIN", "Entry", "read_entries"]
