"""The one results log of `crosscheck` and `bench` (and the Python API): JSON Lines, append-only.

A log holds, per session, a header line (``"kind": "header"``: the command, the settings, the
configurations, the environment) and then one record per puzzle (``"kind": "puzzle"``, see
`runs.CheckedPuzzle.to_record`) with every run of every configuration, solutions included, so a
log can always be re-verified. Guarantees:

- One writer at a time: a run holds an exclusive `flock` on the file for its whole life; a second
  run on the same file stops at once, naming the holder's pid. Nothing is ever rewritten through
  a temporary file, so no writer can be left appending to a replaced file.
- Every record is written in one call and flushed: a killed run leaves at most a torn last line,
  which `--resume` cuts off (in place, under the lock) before appending.
- `--resume` checks every session header in the file against this run's settings (one line
  naming each difference), refuses a record that is not whole (one line naming file and line),
  skips the puzzles already done, and runs again those that ended in an error. The sessions
  (`sessions.py`) check every stored answer again with the one verifier.
- Only regular files: a FIFO, a terminal or a device is refused before anything is read.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import stat
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ._version import __version__
from .errors import ResultsFileError
from .formats import PuzzleRecord, to_json_line
from .result import Mode, RunStatus, Verdict

if TYPE_CHECKING:  # pandas is optional: only `Results.to_pandas` needs it
    import pandas

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


class ResultsLog:
    """An open, locked results log. Use `ResultsLog.open`; close it (or use `with`)."""

    def __init__(
        self,
        path: Path,
        handle: IO[bytes],
        done: dict[tuple[str, int], tuple[int, bool]],
        previous_end: int,
        resumed: bool,
    ) -> None:
        self.path = path
        self.handle = handle
        self._done = done  # (source, number) -> (crc of the puzzle, finished)
        self._previous_end = previous_end
        self.resumed = resumed
        self.written = 0
        self._pending: Mapping[str, Any] | None = None  # the session header, not yet written

    @classmethod
    def open(
        cls, path: str | os.PathLike[str], header: Mapping[str, Any], *, resume: bool = False
    ) -> ResultsLog:
        """Lock and open a log for appending; with `resume`, continue the run it holds.

        Raises:
            ResultsFileError: (one line) for a path that is not a regular file or cannot be
                written, a log held by another run, results present without `resume`, other
                settings, or a line that is not a results record.
        """
        path = Path(path)
        if path.suffix.lower() != ".jsonl":
            raise ResultsFileError(
                f"{path}: results logs are JSON Lines: name the file .jsonl "
                f"(for CSV, load it with sudoku_cp.load_results)"
            )
        _refuse_special(path)
        try:
            handle = open(path, "a+b")  # noqa: SIM115 (held for the log's life)
        except OSError as error:
            raise ResultsFileError(f"{path}: cannot write: {error.strerror or error}") from None
        try:
            _lock(path, handle)
        except BaseException:
            handle.close()  # the lock is another run's: leave its pid file alone
            raise
        try:
            handle.seek(0)
            size = os.fstat(handle.fileno()).st_size
            if size and not resume:
                raise ResultsFileError(
                    f"{path} already holds results: pass --resume to continue that run, or "
                    f"choose another results file"
                )
            done, good_end = _scan(path, handle, header) if size else ({}, 0)
            if good_end < size:
                handle.truncate(good_end)  # a torn last line: cut it, in place, under the lock
            log = cls(path, handle, done, good_end, resumed=bool(size))
            # Written with the first record: a resume refused for another input adds nothing.
            log._pending = {**header, **({"resumed": True} if size else {})}
        except BaseException:
            _unlock(path, handle)
            handle.close()
            raise
        return log

    def is_done(self, record: PuzzleRecord) -> bool:
        """Whether an earlier session finished this puzzle (an error is not finished).

        Raises:
            ResultsFileError: when the log holds another puzzle at this place of the input.
        """
        found = self._done.get(puzzle_key(record.source, record.number))
        if found is None:
            return False
        crc, finished = found
        if crc != _crc(record.text):
            raise ResultsFileError(
                f"{self.path} comes from a different input: puzzle {record.number + 1} of "
                f"{record.source} differs; resume with the same input, or choose another "
                f"results file"
            )
        return finished

    @property
    def previous_count(self) -> int:
        """Puzzles an earlier session finished."""
        return sum(finished for _, finished in self._done.values())

    def previous(self) -> Iterator[tuple[int, Record]]:
        """The finished puzzle records of earlier sessions with their line numbers, in file
        order (the last copy of a puzzle wins), read back from the file."""
        latest: dict[tuple[str, int], int] = {}
        kept: list[tuple[int, int, int]] = []  # (line number, offset, length) of each record
        offset = 0
        with open(self.path, "rb") as reader:
            for number, raw in enumerate(reader, start=1):
                if offset >= self._previous_end:
                    break
                record = _parse(raw)
                if record is not None and record.get("kind") == "puzzle":
                    key = puzzle_key(record["source"], int(record["number"]))
                    if self._done.get(key, (0, False))[1]:
                        latest[key] = len(kept)
                    kept.append((number, offset, len(raw)))
                offset += len(raw)
            for position in sorted(latest.values()):
                number, start, length = kept[position]
                reader.seek(start)
                parsed = _parse(reader.read(length))
                assert parsed is not None
                yield number, parsed

    def records_written(self) -> int:
        """Puzzle records this session wrote, counted in the file (exact even when a signal
        came between a write and the counting of it)."""
        count = 0
        with open(self.path, "rb") as reader:
            reader.seek(self._previous_end)
            for raw in reader:
                record = _parse(raw) if raw.endswith(b"\n") else None
                count += record is not None and record.get("kind") == "puzzle"
        return count

    def append_header(self) -> None:
        """Write the session header now, if it is not written yet.

        Raises:
            ResultsFileError: when the write fails.
        """
        if self._pending is not None:
            pending, self._pending = self._pending, None
            self._write(pending)

    def append(self, record: Mapping[str, Any]) -> None:
        """Write one record in one call and flush it to the file (the session header first,
        with the first record).

        Raises:
            ResultsFileError: when the write fails (a full disk); what was written stays.
        """
        self.append_header()
        self._write(record)

    def _write(self, record: Mapping[str, Any]) -> None:
        data = (to_json_line(dict(record)) + "\n").encode("utf-8")
        try:
            self.handle.write(data)
            self.handle.flush()
        except OSError as error:
            raise ResultsFileError(
                f"{self.path}: cannot write: {error.strerror or error}; "
                f"the results so far are kept: continue with --resume"
            ) from None
        self.written += 1

    def close(self) -> None:
        if self.handle.closed:
            return
        if self._pending is not None and not self.resumed:
            try:  # a new log keeps its header even when no puzzle was run
                self.append_header()
            except ResultsFileError:
                pass
        try:
            self.handle.flush()
        except OSError:
            pass  # a full disk: the records already flushed are what there is
        _unlock(self.path, self.handle)
        with contextlib.suppress(OSError):
            self.handle.close()

    def __enter__(self) -> ResultsLog:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _refuse_special(path: Path) -> None:
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if not path.parent.exists() and str(path.parent) not in ("", "."):
            raise ResultsFileError(f"{path}: cannot write: No such file or directory") from None
        return
    except OSError as error:
        raise ResultsFileError(f"{path}: cannot write: {error.strerror or error}") from None
    if stat.S_ISDIR(mode):
        raise ResultsFileError(f"{path}: cannot write: it is a directory")
    if not stat.S_ISREG(mode):
        raise ResultsFileError(
            f"{path}: not a regular file (a FIFO, terminal or device): results logs must be files"
        )


def _pid_file(path: Path) -> Path:
    return path.with_name(f".{path.name}.pid")


def _lock(path: Path, handle: IO[bytes]) -> None:
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        if error.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise ResultsFileError(f"{path}: cannot lock: {error.strerror or error}") from None
        try:
            holder = _pid_file(path).read_text().strip() or "unknown"
        except OSError:
            holder = "unknown"
        raise ResultsFileError(
            f"{path} is in use by another run (pid {holder}): wait for it "
            f"to finish, or choose another results file"
        ) from None
    try:
        _pid_file(path).write_text(f"{os.getpid()}\n")
    except OSError:
        pass  # the lock holds without it; only the message of a second run is poorer


def _unlock(path: Path, handle: IO[bytes]) -> None:
    try:
        pid_file = _pid_file(path)
        if pid_file.exists() and pid_file.read_text().strip() == str(os.getpid()):
            pid_file.unlink()
    except OSError:
        pass
    with contextlib.suppress(OSError, ValueError):
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _crc(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


def _parse(raw: bytes) -> Record | None:
    """A line as a JSON object; None for a line that is not one."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    return data if isinstance(data, dict) else None


def _scan(
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
        record = _parse(raw)
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
    return puzzle_key(record["source"], record["number"]), _crc(record["puzzle"]), finished


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


# Option names written by versions before options were declared once (the keyword then differed
# from the configuration name): read as today's names, so those logs resume.
LEGACY_OPTION_NAMES = {
    "sat_solver": "solver",
    "cpsat_strategy": "strategy",
    "cpsat_model": "model",
    "cpsat_counts": "counts",
}


def _current_options(item: Any) -> Any:
    if not isinstance(item, dict) or not isinstance(item.get("options"), dict):
        return item
    options = {LEGACY_OPTION_NAMES.get(key, key): value for key, value in item["options"].items()}
    return {**item, "options": options}


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


# -- reading logs back -----------------------------------------------------------------------------

RUN_COLUMNS = (
    "set",
    "number",
    "index",
    "source",
    "line",
    "puzzle",
    "size",
    "givens",
    "mode",
    "verdict",
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
            base = {
                key: record.get(key)
                for key in (
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
            }
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
        record = _parse(raw)
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


__all__ = ["RESULTS_FORMAT", "RUN_COLUMNS", "Results", "ResultsLog", "load_results", "make_header"]
