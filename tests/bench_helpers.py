"""Hand-made results for the bench, report and results-log tests: flat runs for the statistics,
puzzle records and headers for results logs, and the registration of deliberately wrong backends
(tests/wrong_backends.py) for one test."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from sudoku_cp.cli import main
from sudoku_cp.errors import ResultsFileError
from sudoku_cp.results_log import ResultsLog
from sudoku_cp.results_records import make_header

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
) -> Record:
    """One flat run, as `Results.runs()` gives them to the statistics of `measure`."""
    row: Record = {
        "set": set_name,
        "number": index,
        "index": index,
        "source": f"{set_name}.txt",
        "line": index + 1,
        "puzzle": f"p{index}",
        "size": size,
        "givens": givens,
        "mode": mode,
        "backend": backend,
        "repeat": repeat,
        "status": status,
        "seconds": seconds,
        "solution": None,
        "stats": {},
    }
    row.update(extra)
    return row


def bench_header(
    *,
    backends: Sequence[str] = ("a", "b"),
    time_limit: float | None = 10.0,
    mode: str = "lexmin",
    repeat: int = 1,
    baseline: str | None = "a",
    environment: Mapping[str, Any] | None = None,
    **extra: Any,
) -> Record:
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
    return make_header(
        command="bench",
        settings=settings,
        backends=[{"label": name, "backend": name, "options": {}} for name in backends],
        environment=dict(environment or ENVIRONMENT),
        inputs=["top.txt"],
        **extra,
    )


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


def hand_made_rows(mode: str = "lexmin") -> list[Record]:
    """The runs of `hand_made` as flat rows."""
    return [
        run_row("top", record["number"], run["backend"], run["status"], run["seconds"], mode=mode)
        for record in hand_made(mode)
        for run in record["runs"]
    ]


def write_log(path: Path, header: Mapping[str, Any], records: Iterable[Mapping[str, Any]]) -> Path:
    """A results log written through `ResultsLog`, as bench writes one."""
    with ResultsLog.open(path, header) as log:
        for record in records:
            log.append(record)
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
