"""Claims read from files: results logs (crosscheck, bench) and `solve --format jsonl` output.

A results log is JSON Lines: header lines (``"kind": "header"``) and one puzzle record per
puzzle (``"kind": "puzzle"``) with every run under ``runs``; `crosscheck --format jsonl` prints
the same puzzle records without a header. `solve --format jsonl` prints one object per puzzle
with its ``status``, ``solution`` (a wrong answer's grid under ``answer``), ``mode`` and, in
count mode, ``count`` and ``limit_reached``. Every run becomes an `Entry` with its file and line;
a run that answered nothing (timeout, error, invalid input) has no claim.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sys
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import IO, Any

from ..errors import GridParseError, GridShapeError, ResultsFileError
from ..grid import Grid, parse_box
from ..result import Mode
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
            that is not a JSON object, a record of neither kind, a puzzle that is not a grid,
            or a file without a single record.
    """
    records = 0
    with _open(path) as handle:
        lines = iter(handle)
        number = 0
        for raw in lines:
            number += 1
            if not raw.strip():
                continue
            record = _json(raw, path, number, torn=not raw.endswith(b"\n"))
            if record is None:
                continue
            records += 1
            yield from _entries(record, path, number)
    if not records:
        raise ResultsFileError(
            f"{path}: holds no record to certify (expected a results log or "
            f"the output of solve --format jsonl)"
        )


def _open(path: str) -> AbstractContextManager[IO[bytes]]:
    if path == STDIN:
        return contextlib.nullcontext(sys.stdin.buffer)  # left open: it is not ours
    try:
        return open(path, "rb")
    except OSError as error:
        raise ResultsFileError(f"{path}: cannot read: {error.strerror or error}") from None


def _json(raw: bytes, path: str, number: int, *, torn: bool) -> dict[str, Any] | None:
    """One line as a JSON object; None for a torn last line (a run killed mid-write)."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        if torn:
            LOGGER.warning("%s:%d: a torn last line (not a whole record), left out", path, number)
            return None
        raise ResultsFileError(
            f"{path}:{number}: not a JSON object: expected a results log "
            f"or the output of solve --format jsonl"
        ) from None
    if not isinstance(data, dict):
        raise ResultsFileError(f"{path}:{number}: not a JSON object")
    return data


def _entries(record: Mapping[str, Any], path: str, number: int) -> Iterator[Entry]:
    kind = record.get("kind")
    if kind == "header":
        return
    if kind == "puzzle" and isinstance(record.get("runs"), list):
        yield from _log_entries(record, path, number)
    elif kind is None and "puzzle" in record and "status" in record:
        yield _solve_entry(record, path, number)
    else:
        raise ResultsFileError(
            f"{path}:{number}: neither a results record nor a line of solve --format jsonl"
        )


def _log_entries(record: Mapping[str, Any], path: str, number: int) -> Iterator[Entry]:
    puzzle = _puzzle(record, path, number)
    mode = _mode(record, path, number)
    for run in record["runs"]:
        if not isinstance(run, dict) or "status" not in run:
            raise ResultsFileError(f"{path}:{number}: a run without its status")
        label = str(run.get("backend", "?"))
        repeat = run.get("repeat") or 0
        if isinstance(repeat, int) and repeat > 0:
            label += f"#{repeat + 1}"
        status = str(run["status"])
        claim = claim_of_run(
            puzzle,
            mode,
            status,
            solution=run.get("solution"),
            count=run.get("count"),
            limit_reached=bool(run.get("limit_reached", False)),
            reason=run.get("reason"),
        )
        yield Entry(path, number, label, status, claim)


def _solve_entry(record: Mapping[str, Any], path: str, number: int) -> Entry:
    status = str(record["status"])
    label = str(record.get("backend", "?"))
    if status == "invalid input":
        return Entry(path, number, label, status, None)
    puzzle = _puzzle(record, path, number)
    claim = claim_of_run(
        puzzle,
        _mode(record, path, number),
        status,
        solution=record.get("solution") or record.get("answer"),
        count=record.get("count"),
        limit_reached=bool(record.get("limit_reached", False)),
        reason=record.get("reason"),
    )
    return Entry(path, number, label, status, claim)


def _puzzle(record: Mapping[str, Any], path: str, number: int) -> Grid:
    try:
        box = parse_box(str(record["box"])) if record.get("box") else None
        return Grid.parse(str(record["puzzle"]), box=box)
    except (GridParseError, GridShapeError) as error:
        raise ResultsFileError(f"{path}:{number}: the puzzle is not a grid: {error}") from None


def _mode(record: Mapping[str, Any], path: str, number: int) -> Mode:
    try:
        return Mode(record["mode"])
    except (KeyError, ValueError):
        raise ResultsFileError(
            f"{path}:{number}: no mode, or an unknown one: {record.get('mode')!r}"
        ) from None


__all__ = ["STDIN", "Entry", "read_entries"]
