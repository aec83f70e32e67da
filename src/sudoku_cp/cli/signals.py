"""Ctrl-C and SIGTERM, race-free, for every command (no heavy import: this module is loaded,
and its handlers installed, before anything else of the command line).

The first Ctrl-C or SIGTERM records itself in `STOP`, has later ones ignored (so a second Ctrl-C
cannot break the clean-up) and raises `Interrupted` in the main thread. A command stops on
the exception; and should the exception be swallowed on its way (a signal landing inside a
library's clean-up or a pool's fork), the record still decides: `cli.common.run_command` never
exits 0 after a signal, and the commands' loops call `check_stop` between items.
"""

from __future__ import annotations

import signal
import sys
from dataclasses import dataclass
from typing import Any, NoReturn

EXIT_OK, EXIT_UNSOLVED, EXIT_USAGE, EXIT_INTERRUPTED, EXIT_TERMINATED = 0, 1, 2, 130, 143


class Interrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM: results kept, one line, exit 130 or 143."""

    def __init__(self, signum: int = signal.SIGINT) -> None:
        super().__init__()
        self.signum = signum


@dataclass
class _Stop:
    signum: int | None = None   # the first signal received
    said: bool = False          # its one line is printed

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
    raise Interrupted(signum)


def install_signal_handlers() -> None:
    """Ctrl-C and SIGTERM stop the command cleanly (see the module docstring)."""
    STOP.signum, STOP.said = None, False
    signal.signal(signal.SIGINT, _on_signal)
    signal.signal(signal.SIGTERM, _on_signal)


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
    sys.exit(STOP.code)


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


__all__ = ["EXIT_INTERRUPTED", "EXIT_OK", "EXIT_TERMINATED", "EXIT_UNSOLVED", "EXIT_USAGE",
           "Interrupted", "STOP", "check_stop", "install_signal_handlers", "quiet_echo",
           "signal_word", "stop_with"]
