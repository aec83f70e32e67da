"""Results logs read back, for reports, plots and the Python API: `load_results` reads one or
more logs as one `Results` (its session headers, one puzzle record per puzzle, the last written
winning), refusing in one line what is not a results log. Writing a log is `results_log`.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import ResultsFileError
from .results_records import RESULTS_FORMAT, Record, parse_line

if TYPE_CHECKING:  # pandas is optional: only `Results.to_pandas` needs it
    import pandas

# The puzzle's fields that every row of `Results.runs` carries, then the run's own.
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


@dataclass
class Results:
    """A results log read back: its session headers and its puzzle records (one per puzzle,
    the last written winning: a resumed error is replaced by its re-run)."""

    headers: list[Record] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    header_paths: list[str] = field(default_factory=list)  # the file of each header
    record_lines: list[tuple[str, int]] = field(default_factory=list)  # each record's file, line

    @property
    def header(self) -> Record:
        """The first session's header (empty when there is none)."""
        return self.headers[0] if self.headers else {}

    @property
    def settings(self) -> Mapping[str, Any]:
        settings: Mapping[str, Any] = self.header.get("settings", {})
        return settings

    @property
    def time_limit(self) -> float | None:
        value = self.settings.get("time_limit")
        return None if value is None else float(value)

    @property
    def repeat(self) -> int:
        return int(self.settings.get("repeat") or 1)

    def labels(self) -> list[str]:
        """The configurations, in the order of the first header (then as met)."""
        named = [
            str(item["label"])
            for header in self.headers
            for item in header.get("settings", {}).get("backends", [])
            if isinstance(item, dict) and "label" in item
        ]
        met = [run["backend"] for record in self.records for run in record["runs"]]
        return list(dict.fromkeys(named + met))

    def runs(self) -> Iterator[Record]:
        """One flat row per run: the puzzle's fields and the run's (stats left nested)."""
        for record in self.records:
            base = {key: record.get(key) for key in PUZZLE_COLUMNS}
            for run in record["runs"]:
                yield {**base, **run}

    def to_pandas(self) -> pandas.DataFrame:
        """One row per run; puzzles and solutions stay strings (leading zeros kept).

        Raises:
            ImportError: when pandas is not installed.
        """
        import pandas

        frame = pandas.DataFrame.from_records(list(self.runs()))
        for column in (
            "puzzle",
            "solution",
            "set",
            "source",
            "backend",
            "status",
            "verdict",
            "reason",
            "box",
            "mode",
        ):
            if column in frame:
                frame[column] = frame[column].astype("string")
        frame.attrs["headers"] = self.headers
        return frame


def load_results(*paths: str | os.PathLike[str]) -> Results:
    """Read one or more results logs (one per mode, say) as one.

    Raises:
        ResultsFileError: for a file that cannot be read, is not a results log, holds no
            puzzle record, or (several files) was measured with another time limit.
    """
    merged = Results()
    for path in paths:
        results = _load_one(Path(path))
        if merged.headers and results.time_limit != merged.time_limit:
            raise ResultsFileError(
                f"{path}: measured with a time limit of "
                f"{_limit_text(results.time_limit)}, not "
                f"{_limit_text(merged.time_limit)} like {paths[0]}"
            )
        merged.headers += results.headers
        merged.header_paths += results.header_paths
        merged.records += results.records
        merged.record_lines += results.record_lines
        merged.paths.append(str(path))
    return merged


def _limit_text(limit: float | None) -> str:
    return "none" if limit is None else f"{limit:g} s"


def _load_one(path: Path) -> Results:
    try:
        mode = os.stat(path).st_mode
        if not stat.S_ISREG(mode):
            raise ResultsFileError(f"{path}: not a regular file")
        data = path.read_bytes()
    except OSError as error:
        raise ResultsFileError(f"{path}: cannot read: {error.strerror or error}") from None
    results = Results()
    latest: dict[tuple[str, int, str], Record] = {}
    where: dict[tuple[str, int, str], int] = {}  # the line of the latest record of each
    lines = data.split(b"\n")
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        record = parse_line(raw)
        if record is None:
            if number == len(lines):
                continue  # a torn last line
            raise ResultsFileError(f"{path}:{number}: not a results record (not a JSON object)")
        if record.get("kind") == "header":
            if record.get("format") != RESULTS_FORMAT:
                raise ResultsFileError(
                    f"{path}: not a sudoku-cp results log (written by another "
                    f"version?): run it again with this version"
                )
            results.headers.append(record)
            results.header_paths.append(str(path))
        elif record.get("kind") == "puzzle" and isinstance(record.get("runs"), list):
            key = (
                str(record.get("source")),
                int(record.get("number") or 0),
                str(record.get("mode")),
            )
            latest[key], where[key] = record, number
        else:
            raise ResultsFileError(
                f"{path}:{number}: not a results record; write one with "
                f"sudoku-cp crosscheck or bench --results"
            )
    if not results.headers:
        raise ResultsFileError(f"{path}: not a sudoku-cp results log (no header line)")
    if not latest:
        raise ResultsFileError(f"{path}: no puzzle records")
    results.records = list(latest.values())
    results.record_lines = [(str(path), where[key]) for key in latest]
    return results


__all__ = ["RUN_COLUMNS", "Results", "load_results"]
