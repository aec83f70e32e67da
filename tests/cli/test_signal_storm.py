"""Signals at chosen moments of real `sudoku-cp` processes (issue 24.2 and 24.5): during the
imports, the pool's fork, the Dask cluster's start and mid-run, SIGINT to the process group (a
terminal's Ctrl-C) and SIGTERM to the command. Each must end with exit 130/143, one line on
stderr and no traceback, a count that matches the log, and a log that resumes to every puzzle
once. `tools/signal_storm.py` runs the same trial at random moments, hundreds of times."""

from __future__ import annotations

import importlib.util
import signal
import sys
from pathlib import Path

import pytest

from ..conftest import ROOT

pytest.importorskip("distributed")

spec = importlib.util.spec_from_file_location("signal_storm", ROOT / "tools" / "signal_storm.py")
assert spec is not None and spec.loader is not None
storm = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = storm  # its dataclasses look their module up
spec.loader.exec_module(storm)

MOMENTS = [
    ("crosscheck", signal.SIGINT, 0.12),
    ("crosscheck", signal.SIGTERM, 0.3),
    ("crosscheck", signal.SIGINT, 0.8),
    ("bench", signal.SIGTERM, 0.2),
    ("solve", signal.SIGINT, 0.5),
    ("dask", signal.SIGINT, 1.2),
    ("dask", signal.SIGTERM, 2.5),
]


_window: list[float] = []


def window(delay: float) -> float:
    """The start-up window on this machine now (three times its median, at least 0.3 s), measured
    once, and only for a trial whose signal comes late enough for it to matter."""
    if delay <= storm.WINDOW:
        return storm.WINDOW
    if not _window:
        _window.append(max(storm.WINDOW, 3 * storm.startup_window(repeats=5)))
    return _window[0]


@pytest.fixture(scope="module")
def puzzles(tmp_path_factory: pytest.TempPathFactory) -> Path:
    lines = [
        line
        for line in (ROOT / "data" / "generated" / "unique-9x9.txt").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    path = tmp_path_factory.mktemp("storm") / "puzzles.txt"
    path.write_text("\n".join((lines * 40)[:600]) + "\n")
    return path


@pytest.mark.parametrize(
    "command, signum, delay",
    MOMENTS,
    ids=[f"{c}-{signal.Signals(s).name}-{d}s" for c, s, d in MOMENTS],
)
def test_a_signal_at_this_moment_loses_nothing(command, signum, delay, puzzles, tmp_path):
    trial = storm.run_trial(command, signum, delay, puzzles, 600, tmp_path, window(delay))
    assert trial.problems == [], trial
    assert trial.kind in (
        "stopped",
        "start-up window",
        "finished first",
        "finished before the signal",
        "killed while exiting",
    )
