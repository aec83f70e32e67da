"""What `--resume` checks before it appends to a log: every session header in the file against
this run's (`RESUME_KEYS`, in today's words: option names an earlier release wrote are read
through the backends' declarations), and which puzzles the file has finished (`scan_log`).
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import IO, Any

from .._version import __version__
from ..errors import ResultsFileError
from .reader import read_log
from .records import ConfigurationEntry, Header, PuzzleEntry

# Settings whose difference makes a log impossible to continue (the answers or times would mix).
RESUME_KEYS = (
    "command",
    "inputs",
    "mode",
    "limit",
    "time_limit",
    "repeat",
    "warmup",
    "backends",
    "certify",
)


def make_header(
    *,
    command: str,
    settings: Mapping[str, Any],
    backends: list[ConfigurationEntry],
    inputs: list[str] | None = None,
    environment: Mapping[str, Any] | None = None,
) -> Header:
    """A session header: what was run, with which settings and configurations, now."""
    return Header(
        command=command,
        settings=dict(settings),
        configurations=tuple(backends),
        sudoku_cp=__version__,
        started=datetime.now(UTC).isoformat(timespec="seconds"),
        inputs=None if inputs is None else tuple(inputs),
        environment=environment,
    )


def puzzle_crc(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


@dataclass
class Scanned:
    """What a log holds for a resume: per puzzle (source, number) the crc of its text and
    whether it is finished, and where its last whole line ends."""

    done: dict[tuple[str, int], tuple[int, bool]] = field(default_factory=dict)
    end: int = 0


def scan_log(path: str | os.PathLike[str], handle: IO[bytes], header: Header) -> Scanned:
    """Check an existing log against this run's header; what it finished, and where its last
    whole line ends (a torn last line is left out, to be cut).

    Raises:
        ResultsFileError: naming the file and line of the first line that is not a whole
            record, or of a session header written with other settings.
    """
    scanned = Scanned()
    for line in read_log(path, handle):
        record = line.record
        if isinstance(record, PuzzleEntry):
            scanned.done[record.key] = (puzzle_crc(record.puzzle), record.finished)
        else:
            check_header(path, line.number, record, header)
        scanned.end = line.end
    return scanned


def check_header(path: str | os.PathLike[str], number: int, found: Header, header: Header) -> None:
    """A session header of the file against this run's: every setting that decides the answers
    or the times must match (a set-up line compares what it holds).

    Raises:
        ResultsFileError: naming each difference.
    """
    now, then = resume_settings(header), resume_settings(found)
    keys = [key for key in RESUME_KEYS if found.setup_of is None or key in then]
    different = [
        f"{key} {_show(key, then.get(key))} in the file, {_show(key, now.get(key))} now"
        for key in keys
        if then.get(key) != now.get(key)
    ]
    if different:
        where = "" if number == 1 else f" (the session header at line {number})"
        raise ResultsFileError(
            f"{path} was written with other settings{where} ({'; '.join(different)}): "
            f"resume with the same settings, or choose another results file"
        )


def resume_settings(header: Header) -> dict[str, Any]:
    """The settings a resume compares, configurations in today's words."""
    found: dict[str, Any] = {"command": header.command, **header.settings}
    found["backends"] = [
        {"label": item.label, "options": current_options(item.backend, item.options)}
        for item in header.configurations
    ]
    if header.inputs is not None:
        found["inputs"] = list(header.inputs)
    return found


def current_options(backend: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """A configuration's options as a log may hold them (names and values of an earlier
    release) in today's words, by the backend's declarations (`BackendOption.renamed_from`,
    `old_values`); as written for a backend that is not installed."""
    from ..backends import backend_class
    from ..errors import SudokuError

    try:
        cls = backend_class(backend)
    except SudokuError:
        return dict(options)
    return cls.canonical_options(options)


def _show(key: str, value: Any) -> str:
    if key == "time_limit" and value is None:
        return "no limit"
    if key == "certify":
        return "off" if value is None else f"on ({value.get('solver')}, {value.get('engine')})"
    if value is None:
        return "none"
    if isinstance(value, list):
        return ",".join(
            item.get("label", str(item)) if isinstance(item, dict) else str(item) for item in value
        )
    text = str(value)
    return text if len(text) <= 60 else text[:60] + "..."


__all__ = [
    "RESUME_KEYS",
    "Scanned",
    "check_header",
    "current_options",
    "make_header",
    "puzzle_crc",
    "resume_settings",
    "scan_log",
]
