"""Hand-made results for the bench, report and results-log tests: flat runs for the statistics,
puzzle records and headers for results logs, and the registration of deliberately wrong backends
(tests/wrong_backends.py) for one test."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from sudoku_cp.cli import main
from sudoku_cp.errors import ResultsFileError
from sudoku_cp.results_log.reader import RunRow
from sudoku_cp.results_log.records import ConfigurationEntry, Header, PuzzleEntry, record_from_json
from sudoku_cp.results_log.resume import make_header
from sudoku_cp.results_log.writer import ResultsLog

from .wrong_backends import WRONG_BACKENDS

Record = dict[str, Any]

ENVIRONMENT = {
    "tool": "sudoku-cp 0.1.0",
    "date": "2026-01-01T00:00:00+00:00",
    "argv": "sudoku-cp bench x",
    "python": "3.11.7 (CPython)",
    "platform": "Linux-test",
    "cpu": "Test CPU",
    "cores": 2,
    "usable_cores": 2,
    "jobs": 1,
    "load_average": [0.5, 0.25, 0.1],
    "versions": {"ortools": "9.15.6755", "python-sat": "1.9.dev24"},
}


def register_wrong(register: Callable[[str, str, str], Any], *names: str) -> None:
    """Put deliberately wrong backends of tests/wrong_backends.py in the registry for one test,
    through the conftest fixture `register` (the public `sudoku_cp.backends.registered`; forked
    workers and set-up children find the module too)."""
    for name in names:
        register(name, "tests.wrong_backends", WRONG_BACKENDS.get(name, name))


def run_row(
    set_name: str,
    index: int,
    backend: str,
    status: str,
    seconds: float | None,
    *,
    repeat: int = 0,
    mode: str = "lexmin",
    size: int = 9,
    givens: int = 30,
    **extra: Any,
) -> RunRow:
    """One run with its puzzle, as `Results.rows()` gives them to the statistics."""
    run = {"backend": backend, "repeat": repeat, "status": status, "seconds": seconds, **extra}
    entry = PuzzleEntry.from_json(
        puzzle_record(
            set_name, index, [run], mode=mode, puzzle=f"p{index}", size=size, givens=givens
        )
    )
    return RunRow(entry, entry.runs[0])


def bench_header(
    *,
    backends: Sequence[str] = ("a", "b"),
    time_limit: float | None = 10.0,
    mode: str = "lexmin",
    repeat: int = 1,
    baseline: str | None = "a",
    environment: Mapping[str, Any] | None = None,
    setup: Mapping[str, Any] | None = None,
    resumed: bool = False,
    **extra: Any,
) -> Header:
    """A bench session header as `sudoku-cp bench` writes it."""
    settings = {
        "mode": mode,
        "limit": None,
        "time_limit": time_limit,
        "repeat": repeat,
        "warmup": 0,
        "baseline": baseline,
        "first": None,
    }
    header = make_header(
        command="bench",
        settings={**settings, **extra},
        backends=[ConfigurationEntry(name, name) for name in backends],
        environment=dict(environment or ENVIRONMENT),
        inputs=["top.txt"],
    )
    return replace(header, setup=setup, resumed=resumed)


def puzzle_record(
    set_name: str,
    number: int,
    runs: Iterable[Mapping[str, Any]],
    *,
    mode: str = "lexmin",
    puzzle: str | None = None,
    size: int = 9,
    givens: int = 30,
) -> Record:
    """One puzzle's record of a results log, with its runs."""
    return {
        "kind": "puzzle",
        "index": number,
        "set": set_name,
        "number": number,
        "source": f"{set_name}.txt",
        "line": number + 1,
        "puzzle": puzzle or f"{number:0{size * size}d}",
        "size": size,
        "givens": givens,
        "mode": mode,
        "verdict": "agree",
        "findings": [],
        "runs": [
            {
                "repeat": 0,
                "cpu_seconds": None,
                "build_seconds": None,
                "solve_seconds": None,
                "solution": None,
                "stats": {},
                **run,
            }
            for run in runs
        ],
    }


def hand_made(mode: str = "lexmin") -> list[Record]:
    """Set 'top': a solves 2 of 3 (4 ms at most, a timeout at 10 s), b all 3 (500 ms at most)."""
    times = [
        (("solved", 0.001), ("solved", 0.002)),
        (("solved", 0.004), ("solved", 0.001)),
        (("timeout", 10.0), ("solved", 0.5)),
    ]
    return [
        puzzle_record(
            "top",
            number,
            [
                {"backend": backend, "status": status, "seconds": seconds}
                for backend, (status, seconds) in zip(("a", "b"), pair, strict=True)
            ],
            mode=mode,
        )
        for number, pair in enumerate(times)
    ]


def hand_made_rows(mode: str = "lexmin") -> list[RunRow]:
    """The runs of `hand_made`, each with its puzzle entry."""
    return [
        RunRow(entry, run)
        for entry in map(PuzzleEntry.from_json, hand_made(mode))
        for run in entry.runs
    ]


def write_log(path: Path, header: Header, records: Iterable[Mapping[str, Any]]) -> Path:
    """A results log written through `ResultsLog`, as bench writes one (`records` as JSON)."""
    with ResultsLog.open(path, header) as log:
        for record in records:
            log.append(record_from_json(dict(record)))
    return path


def lines_of(path: Path) -> list[Record]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def one_line(error: pytest.ExceptionInfo[ResultsFileError]) -> str:
    """The message of a refused results log, which must be one line."""
    message = str(error.value)
    assert "\n" not in message
    return message


def invoke(*args: object) -> Result:
    """`sudoku-cp ARGS` in process; stdout and stderr apart."""
    return CliRunner().invoke(main, [str(arg) for arg in args])


def entries(records: Iterable[Mapping[str, Any]]) -> list[PuzzleEntry]:
    """Puzzle records (as JSON) as the typed entries a log holds."""
    return [PuzzleEntry.from_json(dict(record)) for record in records]


def rows_of(flat: Iterable[Mapping[str, Any] | RunRow]) -> list[RunRow]:
    """Flat runs (`Results.runs()`) back as the rows the statistics read (rows stay rows)."""
    found = []
    for run in flat:
        if isinstance(run, RunRow):
            found.append(run)
            continue
        entry = PuzzleEntry.from_json({**run, "runs": [run]})
        found.append(RunRow(entry, entry.runs[0]))
    return found


def bench_table(stdout: str) -> dict[tuple[str, str], dict[str, str]]:
    """The outcome tables that `sudoku-cp bench` prints, per (set, configuration): each
    column's cell by its title ('solved', 'timeout', 'PAR-2', 'median', ...)."""
    found: dict[tuple[str, str], dict[str, str]] = {}
    set_name = ""
    columns: list[str] | None = None
    for line in stdout.splitlines():
        if line and not line.startswith(" ") and line.endswith(" puzzles") and ": " in line:
            set_name, columns = line.split(": ")[0], None
        elif line.split()[:2] == ["backend", "solved"]:
            columns = line.split()
        elif line.startswith("  backend "):
            columns = None  # the spread or interval table: not the outcomes
        elif columns is not None and line.startswith("  "):
            cells = line.split()
            label = " ".join(cells[: len(cells) - len(columns) + 1])
            found[set_name, label] = dict(
                zip(columns[1:], cells[-(len(columns) - 1) :], strict=True)
            )
    return found
