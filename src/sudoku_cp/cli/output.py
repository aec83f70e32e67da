"""What every command does with its errors and its output: one line and an exit code for each
error (`run_command`), a closed standard output, lines on standard output, files to write, and
the library's warnings as 'warning:' lines on stderr. Signals are `signals.py`'s."""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any, NoReturn, TextIO

import click

from .signals import EXIT_PIPE, EXIT_USAGE, STOP, stop_with


class UsageFailure(click.ClickException):
    """A one-line error for bad usage or input: 'Error: ...' on stderr, exit 2."""

    exit_code = EXIT_USAGE


def fail(message: str) -> NoReturn:
    raise UsageFailure(message)


def run_command(command: Callable[..., Any]) -> Callable[..., Any]:
    """A command's errors as one line and an exit code: library errors and unwritable files 2;
    a closed standard output 141, quietly (results kept); Ctrl-C 130; SIGTERM 143, also when
    the signal's exception was swallowed on its way."""
    from ..errors import SudokuError

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            result = command(*args, **kwargs)
        except SudokuError as error:
            if STOP.signum is not None:
                stop_with()
            raise UsageFailure(str(error)) from None
        except KeyboardInterrupt:
            stop_with()
        except BrokenPipeError:
            stdout_closed()
        except SystemExit:
            if STOP.signum is not None:
                stop_with()
            raise
        if STOP.signum is not None:
            stop_with()
        return result

    return wrapper


def stdout_closed() -> NoReturn:
    """Standard output closed under us (`... | head`): stop quietly, as Unix tools do, with the
    status of a process ended by SIGPIPE. What was finished is kept (a results log is closed by
    its session on the way out, and resumes)."""
    with contextlib.suppress(OSError, ValueError):  # no "Exception ignored" at exit
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    sys.exit(EXIT_PIPE)


def echo(text: str = "") -> None:
    """A line on standard output; a closed pipe raises `BrokenPipeError` for `run_command`,
    another write failure (a full disk) is one line and exit 2."""
    try:
        click.echo(text)
    except BrokenPipeError:
        raise
    except OSError as error:
        fail(f"standard output: cannot write: {error.strerror or error}")


@contextlib.contextmanager
def output_file(path: str) -> Iterator[TextIO]:
    """A text file to write ('-' is standard output); failures are one line, exit 2."""
    if path == "-":
        yield sys.stdout
        return
    try:
        handle = open(path, "w", encoding="utf-8")  # noqa: SIM115 (the caller closes it)
    except OSError as error:
        fail(f"{path}: cannot write: {error.strerror or error}")
    try:
        yield handle
        handle.flush()
    except OSError as error:
        fail(f"{path}: cannot write: {error.strerror or error}")
    finally:
        with contextlib.suppress(OSError):
            handle.close()


class StderrHandler(logging.StreamHandler):  # type: ignore[type-arg,unused-ignore]
    """Writes to whatever sys.stderr is at the time of the record (click's test runner swaps
    it), never to a stream that has since been closed."""

    @property  # type: ignore[override,unused-ignore]
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


def log_warnings() -> None:
    """The library's warnings as 'warning: ...' on stderr, through sudoku_cp's logger only, so
    that other libraries (Dask) keep their own logging."""
    logger = logging.getLogger("sudoku_cp")
    if not any(isinstance(handler, StderrHandler) for handler in logger.handlers):
        handler = StderrHandler()
        handler.setFormatter(logging.Formatter("warning: %(message)s"))
        handler.setLevel(logging.WARNING)
        logger.addHandler(handler)


__all__ = [
    "StderrHandler",
    "UsageFailure",
    "echo",
    "fail",
    "log_warnings",
    "output_file",
    "run_command",
    "stdout_closed",
]
