"""The results log's writer: `ResultsLog`, one JSON Lines file per run, append-only.

A log holds, per session, a header line and then one entry per puzzle (`records`), every run
of every configuration with its answer, so that a log can always be checked again. Guarantees:

- One writer at a time: a run holds an exclusive `flock` on the file for its whole life; a second
  run on the same file stops at once, naming the holder's pid. Nothing is ever rewritten through
  a temporary file, so no writer can be left appending to a replaced file.
- Every record is written in one call and flushed: a killed run leaves at most a torn last line,
  which `--resume` cuts off (in place, under the lock) before appending.
- `--resume` checks every session header in the file against this run's settings (`resume`),
  refuses a line that is not a whole record (one line naming file and line), skips the puzzles
  already done, and runs again those that ended in an error. The sessions (`sessions.py`) check
  every stored answer again with the one verifier.
- Only regular files: a FIFO, a terminal or a device is refused before anything is read.
- A log is created only once a puzzle has run, so a run that fails before any puzzle leaves no
  file behind to block its corrected rerun.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import IO, Any

from ..errors import ResultsFileError
from ..formats import to_json_line
from .reader import read_log
from .records import Header, PuzzleEntry
from .resume import Scanned, puzzle_crc, scan_log


def _refuse_other_suffix(path: Path) -> None:
    """Raises: ResultsFileError: for a name that does not end in .jsonl (a .csv one is told how
    to get CSV from the log)."""
    if path.suffix.lower() == ".jsonl":
        return
    named = path.with_suffix(".jsonl").name
    hint = (
        f" (for CSV: sudoku-cp report {named} -o summary.csv, or "
        f"sudoku_cp.load_results({named!r}).to_pandas())"
        if path.suffix.lower() == ".csv"
        else ""
    )
    raise ResultsFileError(f"{path}: results logs are JSON Lines: name the file .jsonl{hint}")


class ResultsLog:
    """An open, locked results log. Use `ResultsLog.open`; close it (or use `with`)."""

    def __init__(self, path: Path, handle: IO[bytes], scanned: Scanned, *, created: bool) -> None:
        self.path = path
        self.handle = handle
        self._done = scanned.done  # (source, number) -> (crc of the puzzle, finished)
        self._previous_end = scanned.end
        self.resumed = scanned.end > 0
        self.created = created  # the file did not exist: removed again if nothing is written
        self.written = 0
        self._pending: Header | None = None  # the session header, not yet written

    @classmethod
    def open(
        cls, path: str | os.PathLike[str], header: Header, *, resume: bool = False
    ) -> ResultsLog:
        """Lock and open a log for appending; with `resume`, continue the run it holds.

        Raises:
            ResultsFileError: (one line) for a path that is not a regular file or cannot be
                written, a log held by another run, results present without `resume`, other
                settings, or a line that is not a whole record.
        """
        path = Path(path)
        _refuse_other_suffix(path)
        created = not _refuse_special(path)
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
            log = cls(path, handle, cls._scanned(path, handle, header, resume), created=created)
            # Written with the first record: a resume refused for another input adds nothing.
            log._pending = replace(header, resumed=log.resumed)
        except BaseException:
            _unlock(path, handle)
            handle.close()
            if created:
                path.unlink(missing_ok=True)
            raise
        return log

    @staticmethod
    def _scanned(path: Path, handle: IO[bytes], header: Header, resume: bool) -> Scanned:
        """What the file holds, checked for this run; a torn last line cut off."""
        handle.seek(0)
        size = os.fstat(handle.fileno()).st_size
        if size and not resume:
            raise ResultsFileError(
                f"{path} already holds results: pass --resume to continue that run, or "
                f"choose another results file"
            )
        scanned = scan_log(path, handle, header) if size else Scanned()
        if scanned.end < size:
            handle.truncate(scanned.end)  # a torn last line: cut it, in place, under the lock
        return scanned

    def is_done(self, source: str, number: int, text: str) -> bool:
        """Whether an earlier session finished the puzzle `number` of `source` (an error is
        not finished).

        Raises:
            ResultsFileError: when the log holds another puzzle at this place of the input.
        """
        found = self._done.get((source, number))
        if found is None:
            return False
        crc, finished = found
        if crc != puzzle_crc(text):
            raise ResultsFileError(
                f"{self.path} comes from a different input: puzzle {number + 1} of "
                f"{source} differs; resume with the same input, or choose another "
                f"results file"
            )
        return finished

    @property
    def previous_count(self) -> int:
        """Puzzles an earlier session finished."""
        return sum(finished for _, finished in self._done.values())

    def previous(self) -> Iterator[tuple[int, PuzzleEntry]]:
        """The finished puzzle entries of earlier sessions with their line numbers, in file
        order (the last copy of a puzzle wins), read back from the file."""
        latest: dict[tuple[str, int], tuple[int, PuzzleEntry]] = {}
        for line in read_log(self.path):
            if line.end > self._previous_end:
                break
            entry = line.record
            if isinstance(entry, PuzzleEntry) and self._done.get(entry.key, (0, False))[1]:
                latest.pop(entry.key, None)  # a later copy moves to its own place
                latest[entry.key] = line.number, entry
        yield from sorted(latest.values(), key=lambda item: item[0])

    def records_written(self) -> int:
        """Puzzle entries this session wrote, counted in the file (exact even when a signal
        came between a write and the counting of it)."""
        with open(self.path, "rb") as reader:
            reader.seek(self._previous_end)
            return sum(
                raw.startswith(b'{"kind":"puzzle"') and raw.endswith(b"\n") for raw in reader
            )

    def append_header(self) -> None:
        """Write the session header now, if it is not written yet.

        Raises:
            ResultsFileError: when the write fails.
        """
        if self._pending is not None:
            pending, self._pending = self._pending, None
            self._write(pending.to_json())

    def append(self, record: Header | PuzzleEntry) -> None:
        """Write one record in one call and flush it to the file (the session header first,
        with the first record).

        Raises:
            ResultsFileError: when the write fails (a full disk); what was written stays.
        """
        self.append_header()
        self._write(record.to_json())

    def _write(self, data: dict[str, Any]) -> None:
        line = (to_json_line(data) + "\n").encode("utf-8")
        try:
            self.handle.write(line)
            self.handle.flush()
        except OSError as error:
            raise ResultsFileError(
                f"{self.path}: cannot write: {error.strerror or error}; "
                f"the results so far are kept: continue with --resume"
            ) from None
        self.written += 1

    def close(self) -> None:
        """Flush and unlock; a log this run created and never wrote to is removed."""
        if self.handle.closed:
            return
        try:
            self.handle.flush()
        except OSError:
            pass  # a full disk: the records already flushed are what there is
        if self.created and not self.written:
            self.path.unlink(missing_ok=True)
        _unlock(self.path, self.handle)
        with contextlib.suppress(OSError):
            self.handle.close()

    def __enter__(self) -> ResultsLog:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _refuse_special(path: Path) -> bool:
    """Whether the log exists (as a regular file).

    Raises:
        ResultsFileError: for a directory, a FIFO, a terminal or a device, or a missing folder.
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if not path.parent.exists() and str(path.parent) not in ("", "."):
            raise ResultsFileError(f"{path}: cannot write: No such file or directory") from None
        return False
    except OSError as error:
        raise ResultsFileError(f"{path}: cannot write: {error.strerror or error}") from None
    if stat.S_ISDIR(mode):
        raise ResultsFileError(f"{path}: cannot write: it is a directory")
    if not stat.S_ISREG(mode):
        raise ResultsFileError(
            f"{path}: not a regular file (a FIFO, terminal or device): results logs must be files"
        )
    return True


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


__all__ = ["ResultsLog"]
