"""What a results log holds, and the checks of what it holds: the session header (`make_header`),
the format's name and version, and the scan of an existing log that `--resume` makes before it
appends (`scan_log`): every session header compared with this run's settings (`RESUME_KEYS`, one
line naming each difference), every puzzle record checked whole (one line naming file and line),
a torn last line tolerated. The writer is `results_log.ResultsLog`; reading a log back for a report
is `results_reader.load_results`.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from ._version import __version__
from .errors import ResultsFileError
from .result import Mode, RunStatus, Verdict

RESULTS_FORMAT = "sudoku-cp results"
RESULTS_VERSION = 2
Record = dict[str, Any]

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
    backends: Sequence[Mapping[str, Any]],
    **extra: Any,
) -> Record:
    """A session header: what was run, with which settings and configurations."""
    return {
        "kind": "header",
        "format": RESULTS_FORMAT,
        "version": RESULTS_VERSION,
        "command": command,
        "settings": {**settings, "backends": list(backends)},
        "sudoku_cp": __version__,
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        **extra,
    }


def puzzle_key(source: str, number: int) -> tuple[str, int]:
    return source, number


def puzzle_crc(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


def parse_line(raw: bytes) -> Record | None:
    """A line as a JSON object; None for a line that is not one."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    return data if isinstance(data, dict) else None


def scan_log(
    path: Path, handle: IO[bytes], header: Mapping[str, Any]
) -> tuple[dict[tuple[str, int], tuple[int, bool]], int]:
    """Check an existing log against this run's header; returns what it finished and where its
    last whole line ends (a torn last line is tolerated, a bad line before it is not).

    Raises:
        ResultsFileError: naming the file and line of the first line that is not a whole
            record, or of a session header written with other settings.
    """
    done: dict[tuple[str, int], tuple[int, bool]] = {}
    good_end = 0
    lines = handle.read().split(b"\n")
    for number, raw in enumerate(lines, start=1):
        last = number == len(lines)
        if last and not raw:
            break
        record = parse_line(raw)
        if record is None or last:  # `last`: no newline after it, so it may be torn
            if last or (not raw.strip() and all(not rest.strip() for rest in lines[number:])):
                break  # a torn last line: dropped
            raise ResultsFileError(
                f"{path}:{number}: not a results record (not a JSON "
                f"object): choose another results file"
            )
        if number == 1 or record.get("kind") == "header":
            _check_header(path, number, record, header)
        elif record.get("kind") == "puzzle":
            key, crc, finished = _check_puzzle(path, number, record)
            done[key] = (crc, finished)
        else:
            raise ResultsFileError(
                f"{path}:{number}: not a results record (kind {record.get('kind')!r})"
            )
        good_end += len(raw) + 1
    if good_end == 0 and lines and lines[0].strip():
        # Only a torn header: the run died before its first puzzle; start it afresh.
        return {}, 0
    return done, good_end


_RUN_FIELDS = ("backend", "status")


def _check_puzzle(
    path: Path, number: int, record: Mapping[str, Any]
) -> tuple[tuple[str, int], int, bool]:
    """A stored puzzle record's key, the crc of its puzzle, and whether it is finished.

    Raises:
        ResultsFileError: naming file and line and the first field that is missing or wrong.
    """

    def refuse(what: str) -> ResultsFileError:
        return ResultsFileError(
            f"{path}:{number}: not a whole puzzle record ({what}): repair "
            f"or remove that line, or choose another results file"
        )

    for name, kind in (
        ("source", str),
        ("number", int),
        ("puzzle", str),
        ("mode", str),
        ("verdict", str),
        ("runs", list),
    ):
        if not isinstance(record.get(name), kind) or isinstance(record.get(name), bool):
            raise refuse(f"no {name}" if name not in record else f"{name} is not a {kind.__name__}")
    if not _is_member(Mode, record["mode"]):
        raise refuse(f"mode {record['mode']!r}")
    if not _is_member(Verdict, record["verdict"]):
        raise refuse(f"verdict {record['verdict']!r}")
    if not record["runs"]:
        raise refuse("no runs")
    for run in record["runs"]:
        if not isinstance(run, dict) or any(
            not isinstance(run.get(key), str) for key in _RUN_FIELDS
        ):
            raise refuse("a run without its backend or status")
        if not _is_member(RunStatus, run["status"]):
            raise refuse(f"run status {run['status']!r}")
    finished = all(run["status"] != RunStatus.ERROR for run in record["runs"])
    return puzzle_key(record["source"], record["number"]), puzzle_crc(record["puzzle"]), finished


def _is_member(enum_type: Any, value: Any) -> bool:
    try:
        enum_type(value)
    except ValueError:
        return False
    return True


def _check_header(
    path: Path, number: int, found: Mapping[str, Any], header: Mapping[str, Any]
) -> None:
    """A session header of the file against this run's: every setting that decides the answers
    or the times must match (a set-up line compares what it holds)."""
    if found.get("kind") != "header" or found.get("format") != RESULTS_FORMAT:
        raise ResultsFileError(
            f"{path} is not a sudoku-cp results log (line {number} is not a "
            f"results header): choose another results file"
        )
    now = _resume_settings(header)
    then = _resume_settings(found)
    keys = [key for key in RESUME_KEYS if "setup_of" not in found or key in then]
    different = [
        f"{key} {_show(key, then.get(key))} in the file, {_show(key, now.get(key))} now"
        for key in keys
        if then.get(key) != now.get(key)
    ]
    if different:
        where = "" if number == 1 else f" (the session header at line {number})"
        raise ResultsFileError(
            f"{path} was written with other settings{where} "
            f"({'; '.join(different)}): resume with the same settings, or "
            f"choose another results file"
        )


def _resume_settings(header: Mapping[str, Any]) -> dict[str, Any]:
    settings = {key: value for key, value in header.get("settings", {}).items()}
    if "backends" in settings:
        settings["backends"] = [_current_options(item) for item in settings["backends"]]
    found = {"command": header.get("command"), **settings}
    if "inputs" in header:
        found["inputs"] = header["inputs"]
    return found


def current_options(backend: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """A configuration's options as a log may hold them (names and values of an earlier
    release) in today's words, by the backend's declarations (`BackendOption.renamed_from`,
    `old_values`); as written for a backend that is not installed."""
    from .backends import backend_class
    from .errors import SudokuError

    try:
        cls = backend_class(backend)
    except SudokuError:
        return dict(options)
    return cls.canonical_options(options)


def _current_options(item: Any) -> Any:
    if not isinstance(item, dict) or not isinstance(item.get("options"), dict):
        return item
    backend = str(item.get("backend") or item.get("label") or "")
    return {**item, "options": current_options(backend, item["options"])}


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
    "current_options",
    "RESULTS_FORMAT",
    "RESULTS_VERSION",
    "RESUME_KEYS",
    "Record",
    "make_header",
    "parse_line",
    "puzzle_crc",
    "puzzle_key",
    "scan_log",
]
