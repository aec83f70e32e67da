"""Ctrl-C and SIGTERM, race-free, for every command (no heavy import: this module is loaded,
and its handlers installed, before anything else of the command line).

The first Ctrl-C or SIGTERM records itself in `STOP`, has later ones ignored (so a second Ctrl-C
cannot break the clean-up) and raises `Interrupted` in the main thread. A command stops on
the exception; and should the exception be swallowed on its way (a signal landing inside a
library's clean-up or a pool's fork), the record still decides: `cli.output.run_command` never
exits 0 after a signal, and the commands' loops call `check_stop` between items.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NoReturn

EXIT_OK, EXIT_UNSOLVED, EXIT_USAGE, EXIT_INTERRUPTED, EXIT_TERMINATED = 0, 1, 2, 130, 143
EXIT_PIPE = 128 + signal.SIGPIPE  # a closed standard output: the status a shell gives SIGPIPE


class Interrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM: results kept, one line, exit 130 or 143."""

    def __init__(self, signum: int = signal.SIGINT) -> None:
        super().__init__()
        self.signum = signum


@dataclass
class _Stop:
    signum: int | None = None  # the first signal received
    said: bool = False  # its one line is printed
    deferred: bool = False  # while the command line loads: record the signal, raise nothing
    forking: int = 0  # forks under way in this process: record, raise nothing
    holding: int = 0  # steps under way that must not be cut in two: record, raise nothing

    @property
    def code(self) -> int:
        return EXIT_TERMINATED if self.signum == signal.SIGTERM else EXIT_INTERRUPTED

    @property
    def word(self) -> str:
        return "Terminated" if self.signum == signal.SIGTERM else "Interrupted"


STOP = _Stop()


def _on_signal(signum: int, frame: Any) -> None:
    if STOP.signum is not None:
        return  # already stopping: a second Ctrl-C must not break the clean-up
    STOP.signum = signum
    # Later signals are ignored by the kernel, not only by this handler: the interpreter puts
    # the default handlers back while it shuts down, and a second Ctrl-C then would kill it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    # During the imports, or inside a fork's hooks, an exception would be a traceback or be
    # swallowed ('Exception ignored in _releaseLock'): the signal is recorded, and the command's
    # next `check_stop` (or, while loading, `early_signal`) acts on it.
    if not STOP.deferred and not STOP.forking and not STOP.holding:
        raise Interrupted(signum)


def _in_a_child_process() -> bool:
    """Whether this interpreter is a worker spawned by the command (a Dask worker or nanny
    imports the `sudoku-cp` script again as its `__mp_main__`, and with it this package)."""
    process: Any = sys.modules.get("multiprocessing.process")
    # While a spawned child imports the main script, its name is set but its parent not yet.
    return process is not None and (
        process.parent_process() is not None or process.current_process().name != "MainProcess"
    )


def install_signal_handlers(*, deferred: bool = False) -> None:
    """Ctrl-C and SIGTERM stop the command cleanly (see the module docstring); `deferred`
    (while the command line's modules load) records a signal without raising, for
    `early_signal` to act on. In a worker process the command spawned, Ctrl-C (which a terminal
    sends to every process of the group) is ignored: the command stops its workers itself, so
    they print nothing."""
    if _in_a_child_process():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        return
    STOP.signum, STOP.said, STOP.deferred = None, False, deferred
    if not deferred:
        _watch_forks()
    signal.signal(signal.SIGINT, _on_signal)
    signal.signal(signal.SIGTERM, _on_signal)


_forks_watched = False


def _watch_forks() -> None:
    """Defer signals while this process forks (a worker pool starting). Registered once, when
    the command starts, so after the logging module's hooks: ours then run first before a fork
    and last after it, and the whole of the fork's Python hooks is covered."""
    global _forks_watched
    if _forks_watched or not hasattr(os, "register_at_fork"):
        return
    _forks_watched = True

    def starts() -> None:
        STOP.forking += 1

    def ends() -> None:
        STOP.forking = max(0, STOP.forking - 1)

    def child() -> None:
        STOP.forking = 0

    os.register_at_fork(before=starts, after_in_parent=ends, after_in_child=child)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """A step that a signal must not cut in two (a record written and counted): a signal that
    comes during it is recorded, and raised when the step is done."""
    STOP.holding += 1
    try:
        yield
    finally:
        STOP.holding -= 1
    check_stop()


def early_signal() -> int | None:
    """The signal that came while the command line loaded (handlers installed with
    `deferred`), if one did."""
    return STOP.signum if STOP.deferred else None


def check_stop() -> None:
    """Raise `Interrupted` if a signal came whose exception was lost on its way."""
    if STOP.signum is not None:
        raise Interrupted(STOP.signum)


def stop_with(message: str | None = None) -> NoReturn:
    """After a signal: print the command's one line ('Interrupted after ...') and exit 130/143."""
    if STOP.signum is None:
        STOP.signum = signal.SIGINT
    if not STOP.said:
        STOP.said = True
        quiet_echo(message or f"{STOP.word}.")
        _quiet_from_now_on()
    sys.exit(STOP.code)


def _quiet_from_now_on() -> None:
    """Standard error to /dev/null once the one line is out: what libraries print while the
    interpreter winds down after a signal (a Dask cluster stopped while it was starting, its
    atexit hooks, 'Exception ignored' notes) is noise, and the one line said what happened."""
    try:
        sys.stderr.flush()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stderr.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def signal_word() -> str:
    """'Interrupted' or 'Terminated', after the signal received."""
    return STOP.word


def quiet_echo(message: str) -> None:
    """A line on stderr that never fails (stderr closed or full)."""
    try:
        sys.stderr.write(message + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


__all__ = [
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_PIPE",
    "EXIT_TERMINATED",
    "EXIT_UNSOLVED",
    "EXIT_USAGE",
    "Interrupted",
    "STOP",
    "check_stop",
    "early_signal",
    "install_signal_handlers",
    "quiet_echo",
    "signal_word",
    "signals_held",
    "stop_with",
]
