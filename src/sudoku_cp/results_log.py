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

This module is the writer: `ResultsLog` and its lock. What a log holds and the checks of it (the
header, a whole record, the settings a resume compares) are `results_records`; reading logs back
(`Results`, `load_results`) is `results_reader`. The public names stay importable from here, where
the API reference names them: `RESULTS_FORMAT`, `make_header`, `Results`, `load_results` and
`RUN_COLUMNS`.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from .errors import ResultsFileError
from .formats import PuzzleRecord, to_json_line
from .results_reader import RUN_COLUMNS, Results, load_results
from .results_records import (
    RESULTS_FORMAT,
    Record,
    make_header,
    parse_line,
    puzzle_crc,
    puzzle_key,
    scan_log,
)


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
            done, good_end = scan_log(path, handle, header) if size else ({}, 0)
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
        if crc != puzzle_crc(record.text):
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
                record = parse_line(raw)
                if record is not None and record.get("kind") == "puzzle":
                    key = puzzle_key(record["source"], int(record["number"]))
                    if self._done.get(key, (0, False))[1]:
                        latest[key] = len(kept)
                    kept.append((number, offset, len(raw)))
                offset += len(raw)
            for position in sorted(latest.values()):
                number, start, length = kept[position]
                reader.seek(start)
                parsed = parse_line(reader.read(length))
                assert parsed is not None
                yield number, parsed

    def records_written(self) -> int:
        """Puzzle records this session wrote, counted in the file (exact even when a signal
        came between a write and the counting of it)."""
        count = 0
        with open(self.path, "rb") as reader:
            reader.seek(self._previous_end)
            for raw in reader:
                record = parse_line(raw) if raw.endswith(b"\n") else None
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


__all__ = ["RESULTS_FORMAT", "RUN_COLUMNS", "Results", "ResultsLog", "load_results", "make_header"]
