"""Hand-made results for the bench, crosscheck, report and results-log tests: flat runs for the
statistics, puzzle records and headers for results logs, crosscheck entries and tallies, and the
registration of deliberately wrong backends (tests/wrong_backends.py) for one test."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from sudoku_cp.agreement import CrosscheckTally, Summary, summarize
from sudoku_cp.cli import main
from sudoku_cp.errors import ResultsFileError
from sudoku_cp.result import Mode
from sudoku_cp.results_log.reader import RunRow
from sudoku_cp.results_log.records import ConfigurationEntry, Header, PuzzleEntry, record_from_json
from sudoku_cp.results_log.resume import make_header
from sudoku_cp.results_log.writer import ResultsLog

from .conftest import EXAMPLES
from .wrong_backends import WRONG_BACKENDS

Record = dict[str, Any]

# Three one-puzzle sets: a 9x9 puzzle with one completion, the empty 4x4 and the empty 9x9.
TINY = [EXAMPLES / "baekjoon2239.txt", EXAMPLES / "empty4.txt", EXAMPLES / "empty9.txt"]

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

# A bench session's one-off set-up: a measured, b failed to import its solver.
SETUP: dict[str, Any] = {
    "a": {
        "import_seconds": 0.5,
        "create_seconds": 0.001,
        "shapes": [
            {
                "set": "top",
                "size": 9,
                "first_seconds": 0.02,
                "warm_seconds": 0.002,
                "first_status": "solved",
            }
        ],
    },
    "b": {"error": "ImportError: no solver"},
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


def three_backends_two_sets() -> list[Record]:
    """Sets 'nine' and 'sixteen', 4 puzzles each, dfs timing out on the last one of each."""
    records = []
    for set_name, size in (("nine", 9), ("sixteen", 16)):
        for index in range(4):
            runs = [
                {
                    "backend": backend,
                    "status": "timeout" if (backend, index) == ("dfs", 3) else "solved",
                    "seconds": 0.001 * (index + 1) * (number + 1) * size / 9,
                }
                for number, backend in enumerate(("dfs", "cpsat", "sat"))
            ]
            record = puzzle_record(set_name, index, runs, size=size, givens=20 + index)
            records.append(record)
    return records


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


def puzzles_of(path: Path) -> list[Record]:
    """The puzzle records of a results log (its header lines left out)."""
    return [line for line in lines_of(path) if line["kind"] == "puzzle"]


def one_line(error: pytest.ExceptionInfo[ResultsFileError]) -> str:
    """The message of a refused results log, which must be one line."""
    message = str(error.value)
    assert "\n" not in message
    return message


def invoke(*args: object, stdin: str | None = None) -> Result:
    """`sudoku-cp ARGS` in process; stdout and stderr apart."""
    return CliRunner().invoke(main, [str(arg) for arg in args], input=stdin)


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


def crosscheck_entry(
    number: int, verdict: str, *runs: tuple[str, str, float | None]
) -> PuzzleEntry:
    """A crosscheck entry of the empty 4x4 from s.txt, with one finding and runs given as
    (label, status, seconds)."""
    return PuzzleEntry.from_json(
        {
            "source": "s.txt",
            "mode": "lexmin",
            "line": number + 1,
            "number": number,
            "verdict": verdict,
            "puzzle": "0" * 16,
            "findings": [f"finding {number}"],
            "runs": [
                {
                    "backend": label,
                    "repeat": 0,
                    "status": status,
                    "seconds": seconds,
                    "solution": None,
                }
                for label, status, seconds in runs
            ],
        }
    )


def timeouts_tally() -> CrosscheckTally:
    """Seven puzzles of a and b, two timeouts shown: both agree on puzzle 0, b times out on 1 to
    5, and on 6 (resumed from a log) a says unsatisfiable and b fails."""
    tally = CrosscheckTally(["a", "b"], Mode.LEXMIN, timeouts_shown=2)
    tally.add(crosscheck_entry(0, "agree", ("a", "solved", 0.002), ("b", "solved", 0.004)))
    for number in range(1, 6):
        tally.add(
            crosscheck_entry(number, "timeout", ("a", "solved", 0.001), ("b", "timeout", 1.0))
        )
    tally.add(
        crosscheck_entry(6, "error", ("a", "unsatisfiable", 0.003), ("b", "error", None)),
        resumed=True,
    )
    return tally


def answered_and_timed_out() -> list[PuzzleEntry]:
    """a solves two puzzles in 2 ms and 4 ms and times out on two at 1 s."""
    return [
        crosscheck_entry(0, "agree", ("a", "solved", 0.002)),
        crosscheck_entry(1, "agree", ("a", "solved", 0.004)),
        crosscheck_entry(2, "timeout", ("a", "timeout", 1.0)),
        crosscheck_entry(3, "timeout", ("a", "timeout", 1.0)),
    ]


def resumed_count_summary() -> Summary:
    """A count crosscheck of one puzzle, one more resumed, two input lines that are not puzzles,
    interrupted."""
    return summarize(
        [crosscheck_entry(0, "agree", ("a", "solved", 0.5))],
        backends=["a"],
        mode=Mode.COUNT,
        resumed=1,
        bad_input=2,
        interrupted=True,
    )


# Ten puzzles of set 'top' per configuration, every outcome counted differently and none zero,
# so that a table whose columns were swapped cannot show these counts.
FAILURES = {
    "a": {"solved": 1, "timeouts": 2, "wrong": 3, "errors": 4},
    "b": {"solved": 2, "timeouts": 4, "wrong": 1, "errors": 3},
}
_STATUS = {"solved": "solved", "timeouts": "timeout", "wrong": "wrong", "errors": "error"}
_RUN_FIELDS: dict[str, Record] = {
    "solved": {"solution": "1" * 81},
    "timeout": {"seconds": 10.0},
    "wrong": {"answer": "1" * 81, "reason": "a given changed"},
    "error": {"seconds": None, "reason": "the solver failed"},
}


def failures_records() -> list[Record]:
    """The puzzle records of `FAILURES`: puzzle k's run of each configuration has the status of
    its k-th outcome, in the order solved, timeouts, wrong, errors (1 ms a puzzle number)."""
    statuses = {
        label: [_STATUS[column] for column, count in counts.items() for _ in range(count)]
        for label, counts in FAILURES.items()
    }
    runs = [
        [
            {"backend": label, "status": status, "seconds": 0.001 * (number + 1)}
            | _RUN_FIELDS[status]
            for label, status in ((label, statuses[label][number]) for label in FAILURES)
        ]
        for number in range(10)
    ]
    worst = ("wrong", "error", "timeout")
    return [
        puzzle_record("top", number, found, puzzle=f"{number:081d}")
        | {"verdict": next((v for v in worst if v in {r["status"] for r in found}), "agree")}
        for number, found in enumerate(runs)
    ]
