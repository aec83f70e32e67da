"""Shared by the command-line tests: `run`, the command in process; `cli`, the command in a
process of its own (for signals and pipes), and `wait_for`."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from sudoku_cp.cli import main


@pytest.fixture
def run():
    def invoke(*args: str, stdin: str | bytes | None = None):
        return CliRunner().invoke(main, list(args), input=stdin)

    return invoke


def _default_signals() -> None:
    """In the child: Ctrl-C and SIGTERM as a shell would give them (an in-process CLI test that
    was interrupted leaves SIGINT ignored in pytest, and children inherit ignored signals)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def cli(*args: str, **kwargs) -> subprocess.Popen:
    """`sudoku-cp ARGS` in a process of its own, its output and errors piped as text."""
    return subprocess.Popen(
        [sys.executable, "-m", "sudoku_cp", *args],
        stdout=kwargs.pop("stdout", subprocess.PIPE),
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_default_signals,
        **kwargs,
    )


def wait_for(predicate, timeout: float = 30.0) -> None:
    """Wait until `predicate()` holds (the timeout only keeps a broken run from hanging)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.05)
