"""Reading results logs: `read_log`, the one reader of a log file, which resume, report, the
HTML page, plots and certify all use; and `load_results`, logs read back as one `Results`.

`read_log` yields each line's typed record (`records.Header` or `records.PuzzleEntry`) with its
line number and where it ends, and refuses in one line naming the file and line whatever is not
a whole record: text that is not a JSON object (nested too deep, a number too long), a field of
the wrong type or an unknown word, a first line that is not a results header. A last line without
its newline is one a killed run was writing: it is left out (and a resume cuts it off).
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..errors import ResultsFileError
from ..result import RunStatus
from .records import Header, LogRecord, PuzzleEntry, RecordError, Run, record_from_json

if TYPE_CHECKING:  # pandas is optional: only `Results.to_pandas` needs it
    import pandas

# The puzzle's fields that every flat row of a run carries (`RunRow.flat`), then the run's.
PUZZLE_COLUMNS = (
    "set",
    "number",
    "index",
    "source",
    "line",
    "puzzle",
    "box",
    "size",
    "givens",
    "mode",
    "verdict",
)


@dataclass(frozen=True)
class RunRow:
    """One run with the puzzle it answered: a row of the bench statistics, the plots and the
    report's tables."""

    entry: PuzzleEntry
    run: Run

    @property
    def set(self) -> str:
        return self.entry.set

    @property
    def mode(self) -> str:
        return str(self.entry.mode)

    @property
    def backend(self) -> str:
        return self.run.backend

    @property
    def number(self) -> int:
        return self.entry.number

    @property
    def status(self) -> RunStatus:
        return self.run.status

    @property
    def seconds(self) -> float | None:
        return self.run.seconds

    def flat(self) -> dict[str, Any]:
        """The puzzle's fields and the run's in one JSON object (a row of `to_pandas`)."""
        puzzle = self.entry.to_json()
        return {**{key: puzzle.get(key) for key in PUZZLE_COLUMNS}, **self.run.to_json()}


RUN_COLUMNS = PUZZLE_COLUMNS + (
    "backend",
    "repeat",
    "status",
    "seconds",
    "cpu_seconds",
    "build_seconds",
    "solve_seconds",
    "count",
    "reason",
    "solution",
)

# Columns that stay text in `to_pandas` (a puzzle's leading zeros, a label that looks numeric).
TEXT_COLUMNS: tuple[str, ...] = ("puzzle", "solution", "answer", "set", "source", "backend")
TEXT_COLUMNS += ("status", "verdict", "reason", "box", "mode")


@dataclass(frozen=True)
class LogLine:
    """One whole line of a log: its number (from 1), its record, and the byte offset after it."""

    number: int
    record: LogRecord
    end: int


def parse_json(raw: bytes) -> Any:
    """A line's JSON value; None for text that is not JSON (bad bytes, nested too deep, a
    number of more digits than Python converts)."""
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None


def read_log(
    path: str | os.PathLike[str], handle: Iterable[bytes] | None = None
) -> Iterator[LogLine]:
    """The whole records of a results log, in file order (from `handle` when given, else the
    file is opened and closed here).

    Raises:
        ResultsFileError: naming the file and line of the first line that is not a whole
            record, or the file when it cannot be read or is no results log.
    """
    if handle is None:
        with _open(Path(path)) as opened:
            yield from read_log(path, opened)
        return
    version: int | None = None
    offset = 0
    for number, raw in enumerate(handle, start=1):
        offset += len(raw)
        if not raw.endswith(b"\n"):
            return  # a torn last line
        if not raw.strip():
            continue
        record = _record(path, number, raw, version)
        if isinstance(record, Header):
            version = record.version
        yield LogLine(number, record, offset)


def _record(
    path: str | os.PathLike[str], number: int, raw: bytes, version: int | None
) -> LogRecord:
    """One line's record; `version` is its session's (None before the first header).

    Raises:
        ResultsFileError: for a line that is not a whole record, or a first record that is
            not a results header.
    """
    data = parse_json(raw)
    if not isinstance(data, dict):
        raise ResultsFileError(f"{path}:{number}: not a results record (not a JSON object)")
    kind = data.get("kind")
    if version is None and kind != "header":
        raise ResultsFileError(
            f"{path} is not a sudoku-cp results log (line {number} is not a results "
            f"header): choose another results file"
        )
    try:
        return record_from_json(data, version=version or 3)
    except RecordError as error:
        if kind == "header" and version is None:
            raise ResultsFileError(
                f"{path} is not a sudoku-cp results log that this release reads (line "
                f"{number}: {error}): choose another results file"
            ) from None
        what = "puzzle record" if kind == "puzzle" else "results record"
        raise ResultsFileError(
            f"{path}:{number}: not a whole {what} ({error}): repair or remove that line, or "
            f"choose another results file"
        ) from None


def _open(path: Path) -> IO[bytes]:
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise ResultsFileError(f"{path}: not a regular file")
        return open(path, "rb")  # noqa: SIM115 (closed by read_log)
    except OSError as error:
        raise ResultsFileError(f"{path}: cannot read: {error.strerror or error}") from None


@dataclass
class Results:
    """Results logs read back: their session headers and one puzzle entry per puzzle and mode,
    the last written winning (a resumed error is replaced by its re-run)."""

    headers: list[Header] = field(default_factory=list)
    entries: list[PuzzleEntry] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    header_paths: list[str] = field(default_factory=list)  # the file of each header
    entry_lines: list[tuple[str, int]] = field(default_factory=list)  # each entry's file, line

    @property
    def header(self) -> Header | None:
        """The first session's header."""
        return self.headers[0] if self.headers else None

    @property
    def time_limit(self) -> float | None:
        return None if self.header is None else self.header.time_limit

    @property
    def repeat(self) -> int:
        return int((self.header.settings.get("repeat") if self.header else None) or 1)

    def labels(self) -> list[str]:
        """The configurations, in the order of the first header (then as met)."""
        named = [label for header in self.headers for label in header.labels]
        met = [run.backend for entry in self.entries for run in entry.runs]
        return list(dict.fromkeys(named + met))

    def rows(self) -> Iterator[RunRow]:
        """Every run with its puzzle entry, in file order."""
        for entry in self.entries:
            for run in entry.runs:
                yield RunRow(entry, run)

    def runs(self) -> Iterator[dict[str, Any]]:
        """One flat JSON object per run: the puzzle's fields and the run's (stats nested)."""
        for row in self.rows():
            yield row.flat()

    def to_pandas(self) -> pandas.DataFrame:
        """One row per run; puzzles and solutions stay strings (leading zeros kept); the session
        headers are in `attrs["headers"]`.

        Raises:
            ImportError: when pandas is not installed.
        """
        import pandas

        frame = pandas.DataFrame.from_records(list(self.runs()))
        for column in TEXT_COLUMNS:
            if column in frame:
                frame[column] = frame[column].astype("string")
        frame.attrs["headers"] = [header.to_json() for header in self.headers]
        return frame


def load_results(*paths: str | os.PathLike[str]) -> Results:
    """Read one or more results logs (one per mode, say) as one.

    Raises:
        ResultsFileError: for a file that cannot be read, is not a results log, holds no
            puzzle entry, or (several files) was measured with another time limit.
    """
    merged = Results()
    for path in paths:
        results = _load_one(path)
        if merged.headers and results.time_limit != merged.time_limit:
            raise ResultsFileError(
                f"{path}: measured with a time limit of {_limit_text(results.time_limit)}, "
                f"not {_limit_text(merged.time_limit)} like {paths[0]}"
            )
        merged.headers += results.headers
        merged.header_paths += results.header_paths
        merged.entries += results.entries
        merged.entry_lines += results.entry_lines
        merged.paths.append(os.fspath(path))
    return merged


def _limit_text(limit: float | None) -> str:
    return "none" if limit is None else f"{limit:g} s"


def _load_one(path: str | os.PathLike[str]) -> Results:
    results = Results()
    latest: dict[tuple[str, int, str], tuple[PuzzleEntry, int]] = {}
    for line in read_log(path):
        record = line.record
        if isinstance(record, Header):
            results.headers.append(record)
            results.header_paths.append(os.fspath(path))
        else:
            latest[record.source, record.number, str(record.mode)] = record, line.number
    if not results.headers:
        raise ResultsFileError(f"{path}: not a sudoku-cp results log (no header line)")
    if not latest:
        raise ResultsFileError(f"{path}: no puzzle records")
    results.entries = [entry for entry, _ in latest.values()]
    results.entry_lines = [(os.fspath(path), number) for _, number in latest.values()]
    return results


__all__ = [
    "PUZZLE_COLUMNS",
    "RUN_COLUMNS",
    "LogLine",
    "Results",
    "RunRow",
    "load_results",
    "parse_json",
    "read_log",
]
