"""Timed runs of the backends over puzzle sets, and their statistics (pure: returns data).

What is timed, and what is kept out of the timings:

- A run's time is `SolveResult.seconds`, the in-process solve time of one puzzle (model or CNF
  building for that puzzle included, Python start-up and file reading excluded); backends that
  separate building from solving also give `build_seconds` and `solve_seconds`.
- One-off set-up is measured apart, in a fresh interpreter per backend (`measure_setup`): the
  import of the solver package, and the first solve of one puzzle of each grid shape against a
  second, warm solve of the same puzzle (the difference is the one-off cost: a SAT solver and its
  base CNF built for the shape, lazy initialisation inside the solver).
- In the measuring process the solver packages are imported before the first timed run, and each
  backend first solves one puzzle of each shape untimed ("priming", unless `warmup` runs do that
  already), so the first timed puzzle does not pay for set-up. With `jobs > 1` the workers are
  forked after the imports, but only the worker that gets the priming puzzles is primed: use
  `warmup` there.
- `warmup` untimed solves of each puzzle precede its `repeat` timed solves (the runner's
  contract). A backend that keeps state between puzzles (the `sat` backend keeps its solver and
  learnt clauses) can profit from seeing the same puzzle again; records keep the repeat number.
- Every timed run is verified: a completion must pass `Grid.is_solution_of`; an `unsatisfiable`
  answer is wrong when another run found a verified completion of that puzzle; in lexmin mode a
  completion larger than another verified one is not the lex-min, hence wrong. A wrong run is
  recorded with status `wrong`, counted, and never enters the time statistics.

Statistics are per puzzle: a puzzle's outcome is the worst of its repeats (wrong, then error,
then timeout, then answered), and its time is the median of its repeats' seconds.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.metadata
import json
import math
import os
import platform
import statistics
import subprocess
import sys
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from fractions import Fraction
from pathlib import Path
from typing import Any

from . import __version__
from .backends import backend_class
from .errors import SudokuError
from .formats import Loaded, PuzzleRecord
from .grid import Grid, Shape
from .result import Mode, SolveResult, Status
from .runner import BackendSpec, PuzzleRun, SolveSettings, run

Record = dict[str, Any]
RunKey = tuple[str, int, str, str, str]  # (set, index, puzzle, backend, mode)

# The fields of one run record, in order: the JSONL keys and the CSV columns.
RUN_COLUMNS = ("set", "index", "line", "puzzle", "size", "givens", "backend", "mode", "repeat",
               "status", "seconds", "build_seconds", "solve_seconds", "count", "reason",
               "solution", "stats")

ANSWERED = frozenset({str(Status.SOLVED), str(Status.UNSATISFIABLE)})
WRONG = "wrong"
ERROR = "error"
TIMEOUT = str(Status.TIMEOUT)
# Worst first: the outcome of a puzzle is the worst outcome among its repeats.
OUTCOME_ORDER = (WRONG, ERROR, TIMEOUT, str(Status.INVALID), str(Status.UNSATISFIABLE),
                 str(Status.SOLVED))

# The module whose import is the real cost of each backend: `requires` names only the top-level
# package, and `import ortools` alone loads almost nothing of CP-SAT.
SOLVER_MODULES: dict[str, tuple[str, ...]] = {
    "cpsat": ("ortools.sat.python.cp_model",),
    "sat": ("pysat.solvers",),
}
PACKAGES = ("ortools", "python-sat")  # versions every header records
TINY_SECONDS = 1e-9  # a floor for ratios of times, which are never truly zero
SETUP_TIMEOUT_SECONDS = 600.0


class BenchError(SudokuError, ValueError):
    """Input or settings that cannot be benchmarked (a bad puzzle, two sets with one name)."""


# -- puzzle sets -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class PuzzleSet:
    """The puzzles of one input file; the set is named after the file's stem."""

    name: str
    path: str
    records: tuple[PuzzleRecord, ...]


def set_name(source: str) -> str:
    """'top95' for '../shared/data/top95.txt'; 'stdin' for standard input."""
    return "stdin" if source == "<stdin>" else Path(source).stem


def puzzle_sets(loaded: Loaded, *, limit_puzzles: int | None = None) -> list[PuzzleSet]:
    """Group loaded puzzles by file, keeping the first `limit_puzzles` of each.

    Raises:
        BenchError: for a file that could not be read, a line that is not a puzzle (benchmarks
            on broken data mislead), or two files with the same stem.
    """
    if loaded.errors:
        raise BenchError(loaded.errors[0])
    by_source: dict[str, list[PuzzleRecord]] = {}
    for record in loaded.records:
        by_source.setdefault(record.source, []).append(record)
    sets: list[PuzzleSet] = []
    seen: dict[str, str] = {}
    for source, records in by_source.items():
        name = set_name(source)
        if name in seen:
            raise BenchError(f"{seen[name]} and {source} would both be set {name!r}: "
                             f"rename one of them")
        seen[name] = source
        kept = records[:limit_puzzles] if limit_puzzles is not None else records
        bad = next((record for record in kept if record.grid is None), None)
        if bad is not None:
            raise BenchError(str(bad.error))
        sets.append(PuzzleSet(name, source, tuple(kept)))
    return sets


def set_index(puzzle_set: PuzzleSet, record: PuzzleRecord) -> int:
    """The 0-based position of a puzzle in its file (records are numbered across all files)."""
    return record.index - puzzle_set.records[0].index


# -- planning and measuring ------------------------------------------------------------------------

@dataclass(frozen=True)
class PlannedPuzzle:
    puzzle_set: PuzzleSet
    index: int
    record: PuzzleRecord


@dataclass
class Plan:
    """What is left to measure: puzzles grouped by the backends they still need."""

    groups: list[tuple[tuple[BackendSpec, ...], list[PlannedPuzzle]]] = field(default_factory=list)

    @property
    def total(self) -> int:
        """The number of puzzles to run (with one or more backends)."""
        return sum(len(puzzles) for _, puzzles in self.groups)


def run_key(record: Mapping[str, Any]) -> RunKey:
    """What identifies a measured (puzzle, backend, mode) for --resume."""
    return (record["set"], int(record["index"]), record["puzzle"], record["backend"],
            record["mode"])


def completed_keys(records: Iterable[Mapping[str, Any]], *, repeat: int) -> set[RunKey]:
    """The (puzzle, backend, mode) triples measured in full: every repeat, or an error."""
    repeats: dict[RunKey, set[int]] = {}
    failed: set[RunKey] = set()
    for record in records:
        key = run_key(record)
        if record["status"] == ERROR:
            failed.add(key)
        repeats.setdefault(key, set()).add(int(record["repeat"]))
    return failed | {key for key, seen in repeats.items() if len(seen) >= repeat}


def plan_runs(sets: Sequence[PuzzleSet], specs: Sequence[BackendSpec], *, mode: Mode,
              done: Collection[RunKey] = ()) -> Plan:
    """Every (puzzle, backend) not in `done`, grouped by the set of backends a puzzle needs."""
    groups: dict[tuple[int, ...], list[PlannedPuzzle]] = {}  # spec positions -> puzzles
    for puzzle_set in sets:
        for record in puzzle_set.records:
            index = set_index(puzzle_set, record)
            needed = tuple(number for number, spec in enumerate(specs)
                           if (puzzle_set.name, index, record.text, spec.name, str(mode))
                           not in done)
            if needed:
                groups.setdefault(needed, []).append(PlannedPuzzle(puzzle_set, index, record))
    return Plan([(tuple(specs[number] for number in needed), puzzles)
                 for needed, puzzles in groups.items()])


def measure(plan: Plan, settings: SolveSettings, *, jobs: int = 1) -> Iterator[list[Record]]:
    """Run the plan; yield the records of each puzzle (all its backends and repeats) in order."""
    for specs, puzzles in plan.groups:
        import_solvers(spec.name for spec in specs)
        where = {planned.record.index: planned for planned in puzzles}
        records = [planned.record for planned in puzzles]
        # closing: whatever ends the iteration (Ctrl-C, the caller stopping) stops the workers.
        # With warm-up runs the first puzzle's own warm-up absorbs the set-up: no priming then.
        priming = primers(records) if settings.warmup == 0 else []
        with contextlib.closing(run(priming + records, specs, settings, jobs=jobs)) as runs:
            for puzzle_run in runs:
                if puzzle_run.record.index < 0:  # a priming run: set-up, not measurement
                    continue
                planned = where[puzzle_run.record.index]
                yield puzzle_records(puzzle_run, set_name=planned.puzzle_set.name,
                                     index=planned.index, specs=specs, mode=settings.mode)


def primers(records: Sequence[PuzzleRecord]) -> list[PuzzleRecord]:
    """A copy of the first puzzle of each grid shape, numbered below zero to be told apart."""
    shapes: dict[tuple[int, Shape], PuzzleRecord] = {}
    for record in records:
        assert record.grid is not None
        shapes.setdefault((record.grid.size, record.grid.box), record)
    return [replace(record, index=-1 - number) for number, record in enumerate(shapes.values())]


def import_solvers(backends: Iterable[str]) -> None:
    """Import the solver packages now, so that no timed run pays for loading them."""
    for name in backends:
        cls = backend_class(name)
        if cls.is_available():
            for module in solver_modules(name):
                importlib.import_module(module)


def solver_modules(backend: str) -> tuple[str, ...]:
    """The modules whose import is a backend's one-off cost."""
    return SOLVER_MODULES.get(backend, backend_class(backend).requires)


def verdict(result: SolveResult, puzzle: Grid) -> tuple[str, str | None]:
    """The status of one run after checking its completion, and why it is wrong if it is."""
    if result.status is Status.SOLVED:
        if result.solution is None:
            return WRONG, "reported solved without a completion"
        problem = result.solution.why_not_solution_of(puzzle)
        if problem:
            return WRONG, f"not a completion: {problem}"
    return str(result.status), result.reason


def puzzle_records(puzzle_run: PuzzleRun, *, set_name: str, index: int,
                   specs: Sequence[BackendSpec], mode: Mode) -> list[Record]:
    """The records of one puzzle: one per (backend, repeat), verified and cross-checked."""
    grid = puzzle_run.record.grid
    assert grid is not None
    checked: list[tuple[str, int, SolveResult, str, str | None]] = []
    for spec in specs:
        for repeat, result in enumerate(puzzle_run.results.get(spec.name, [])):
            status, reason = verdict(result, grid)
            checked.append((spec.name, repeat, result, status, reason))
    completions = [(result.solution.values, backend) for backend, _, result, status, _ in checked
                   if status == str(Status.SOLVED) and result.solution is not None]
    smallest = min(completions, default=None)
    records = []
    for backend, repeat, result, status, reason in checked:
        if status == str(Status.UNSATISFIABLE) and smallest is not None:
            status, reason = WRONG, f"claims no completion, but {smallest[1]} found one"
        elif (status == str(Status.SOLVED) and mode is Mode.LEXMIN and smallest is not None
              and result.solution is not None and result.solution.values > smallest[0]):
            status, reason = WRONG, f"not the lex-min: {smallest[1]} found a smaller completion"
        records.append(_record(puzzle_run.record, grid, set_name=set_name, index=index,
                               backend=backend, mode=mode, repeat=repeat, status=status,
                               reason=reason, result=result))
    for spec in specs:
        if spec.name in puzzle_run.errors:
            records.append(_record(puzzle_run.record, grid, set_name=set_name, index=index,
                                   backend=spec.name, mode=mode, repeat=0, status=ERROR,
                                   reason=puzzle_run.errors[spec.name], result=None))
    return records


def _record(puzzle: PuzzleRecord, grid: Grid, *, set_name: str, index: int, backend: str,
            mode: Mode, repeat: int, status: str, reason: str | None,
            result: SolveResult | None) -> Record:
    stats = dict(result.stats) if result is not None else {}
    build_seconds = stats.pop("build_seconds", None)
    solve_seconds = stats.pop("solve_seconds", None)
    solution = None
    if status == WRONG and result is not None and result.solution is not None:
        solution = result.solution.to_line()  # kept only to audit wrong answers
    return {
        "set": set_name, "index": index, "line": puzzle.line, "puzzle": puzzle.text,
        "size": grid.size, "givens": len(grid.givens()), "backend": backend, "mode": str(mode),
        "repeat": repeat, "status": status,
        "seconds": _round(result.seconds) if result is not None else None,
        "build_seconds": _round(build_seconds), "solve_seconds": _round(solve_seconds),
        "count": result.count if result is not None else None, "reason": reason,
        "solution": solution, "stats": stats,
    }


def _round(seconds: float | None) -> float | None:
    return None if seconds is None else round(float(seconds), 7)


# -- set-up and environment ------------------------------------------------------------------------

_SETUP_SCRIPT = r"""
import importlib, json, sys, time
task = json.load(sys.stdin)
start = time.perf_counter()
for module in task["modules"]:
    importlib.import_module(module)
import_seconds = time.perf_counter() - start if task["modules"] else None
from sudoku_cp.grid import Grid
cls = getattr(importlib.import_module(task["module"]), task["class"])
start = time.perf_counter()
backend = cls(**task["options"])
create_seconds = time.perf_counter() - start
shapes = []
for set_name, line, box in task["puzzles"]:
    grid = Grid.parse(line, box=tuple(box))
    first, warm = (backend.solve(grid, mode=task["mode"], limit=task["limit"],
                                 time_limit=task["time_limit"]) for _ in range(2))
    shapes.append({"set": set_name, "size": grid.size, "first_seconds": first.seconds,
                   "warm_seconds": warm.seconds, "first_status": str(first.status)})
backend.close()
json.dump({"import_seconds": import_seconds, "create_seconds": create_seconds,
           "shapes": shapes}, sys.stdout)
"""


def measure_setup(specs: Sequence[BackendSpec], sets: Sequence[PuzzleSet],
                  settings: SolveSettings) -> dict[str, Any]:
    """One-off costs per backend, each measured in a fresh interpreter.

    `import_seconds`: importing the solver package (None for pure Python); `create_seconds`:
    building the backend; per grid shape (its first puzzle): `first_seconds`, the cold first
    solve, and `warm_seconds`, the same puzzle solved again. A backend whose measurement fails
    gets an `error` instead.
    """
    puzzles: list[tuple[str, str, Shape]] = []
    shapes: set[tuple[int, Shape]] = set()
    for puzzle_set in sets:
        for record in puzzle_set.records:
            assert record.grid is not None
            shape = (record.grid.size, record.grid.box)
            if shape not in shapes:
                shapes.add(shape)
                puzzles.append((puzzle_set.name, record.text, record.grid.box))
    # The child must import what this process imports (a test's backend module included).
    environment_variables = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    setup: dict[str, Any] = {}
    for spec in specs:
        cls = backend_class(spec.name)
        task = {"modules": list(solver_modules(spec.name)), "module": cls.__module__,
                "class": cls.__qualname__, "options": spec.options, "puzzles": puzzles,
                "mode": str(settings.mode), "limit": settings.limit,
                "time_limit": settings.time_limit}
        try:
            done = subprocess.run([sys.executable, "-c", _SETUP_SCRIPT], input=json.dumps(task),
                                  capture_output=True, text=True, env=environment_variables,
                                  timeout=SETUP_TIMEOUT_SECONDS, check=False)
        except subprocess.TimeoutExpired:
            setup[spec.name] = {"error": f"took over {SETUP_TIMEOUT_SECONDS:g} s"}
            continue
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
            setup[spec.name] = {"error": last}
            continue
        setup[spec.name] = json.loads(done.stdout)
    return setup


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo (or what the platform module knows)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                key, _, value = line.partition(":")
                if key.strip() in ("model name", "Model", "Hardware"):
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def package_versions(backends: Iterable[str]) -> dict[str, str]:
    """ortools and python-sat (whether used or not), and whatever the chosen backends report."""
    versions: dict[str, str] = {}
    for package in PACKAGES:
        try:
            versions[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            versions[package] = "not installed"
    for name in backends:
        versions.update(backend_class(name).versions())
    return versions


def environment(*, specs: Sequence[BackendSpec], settings: SolveSettings,
                sets: Sequence[PuzzleSet], jobs: int, baseline: str | None, command: str,
                limit_puzzles: int | None = None,
                setup: Mapping[str, Any] | None = None) -> Record:
    """The header of a results file: machine, versions, date, command and settings."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    return {
        "kind": "header",
        "tool": f"sudoku-cp {__version__}",
        "date": datetime.now(timezone.utc).astimezone().isoformat(timespec="seconds"),
        "command": command,
        "python": f"{platform.python_version()} ({platform.python_implementation()})",
        "platform": platform.platform(),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "load_average": [round(load, 2) for load in os.getloadavg()]
        if hasattr(os, "getloadavg") else None,
        "versions": package_versions(spec.name for spec in specs),
        "settings": {
            "backends": {spec.name: dict(spec.options) for spec in specs},
            "mode": str(settings.mode), "limit": settings.limit,
            "time_limit": settings.time_limit, "warmup": settings.warmup,
            "repeat": settings.repeat, "jobs": jobs, "baseline": baseline,
            "limit_puzzles": limit_puzzles,
        },
        "sets": {puzzle_set.name: {"path": puzzle_set.path, "puzzles": len(puzzle_set.records)}
                 for puzzle_set in sets},
        "setup": dict(setup or {}),
    }


RESUME_SETTINGS = ("mode", "limit", "time_limit", "warmup", "repeat")


def check_resumable(previous: Mapping[str, Any], current: Mapping[str, Any]) -> None:
    """Refuse to resume a file measured with other settings: its numbers would not compare.

    Raises:
        BenchError: naming the first setting that differs.
    """
    before, now = previous.get("settings", {}), current.get("settings", {})
    for key in RESUME_SETTINGS:
        if before.get(key) != now.get(key):
            raise BenchError(f"cannot resume: the results were measured with {key} "
                             f"{before.get(key)!r}, not {now.get(key)!r}")
    for name, options in now.get("backends", {}).items():
        old = before.get("backends", {}).get(name)
        if old is not None and old != options:
            raise BenchError(f"cannot resume: backend {name} was measured with options {old}, "
                             f"not {options}")


# -- statistics ------------------------------------------------------------------------------------

def percentile(values: Sequence[float], percent: float) -> float:
    """The nearest-rank percentile: the smallest value with `percent`% of the values at or below.

    Raises:
        ValueError: for no values or a percent outside (0, 100].
    """
    if not values:
        raise ValueError("percentile of no values")
    if not 0 < percent <= 100:
        raise ValueError(f"percent must be in (0, 100], got {percent}")
    ordered = sorted(values)
    # Exact arithmetic: 0.9 * 30 in floating point could round the rank up by one.
    rank = math.ceil(Fraction(str(percent)) * len(ordered) / 100)
    return ordered[max(rank, 1) - 1]


def par2(outcomes: Iterable[PuzzleOutcome], *, time_limit: float | None) -> float | None:
    """Mean PAR-2 per puzzle: its time if answered, else twice the time limit (None: no limit)."""
    if time_limit is None:
        return None
    scores = [outcome.seconds if outcome.answered and outcome.seconds is not None
              else 2 * time_limit for outcome in outcomes]
    return statistics.fmean(scores) if scores else None


def geometric_mean_ratio(outcomes: Mapping[Any, PuzzleOutcome],
                         baseline: Mapping[Any, PuzzleOutcome]) -> tuple[float | None, int]:
    """The geometric mean over puzzles both answered of time / baseline time, and their number."""
    logs = [math.log(max(outcome.seconds, TINY_SECONDS)
                     / max(baseline[key].seconds, TINY_SECONDS))  # type: ignore[arg-type]
            for key, outcome in outcomes.items()
            if outcome.answered and key in baseline and baseline[key].answered]
    return (math.exp(statistics.fmean(logs)), len(logs)) if logs else (None, 0)


@dataclass(frozen=True)
class PuzzleOutcome:
    """One puzzle for one backend: the worst status of its repeats, the median of their times."""

    status: str
    seconds: float | None  # median over repeats; None unless every repeat answered
    size: int
    givens: int

    @property
    def answered(self) -> bool:
        return self.status in ANSWERED


GroupKey = tuple[str, str, str]  # (set, mode, backend)


def deduplicate(records: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """One record per (puzzle, backend, mode, repeat), the last one written winning."""
    latest: dict[tuple[RunKey, int], Mapping[str, Any]] = {}
    for record in records:
        latest[(run_key(record), int(record["repeat"]))] = record
    return list(latest.values())


def puzzle_outcomes(records: Iterable[Mapping[str, Any]]
                    ) -> dict[GroupKey, dict[int, PuzzleOutcome]]:
    """Per (set, mode, backend), in order of first appearance: puzzle index -> outcome."""
    runs: dict[GroupKey, dict[int, list[Mapping[str, Any]]]] = {}
    for record in deduplicate(records):
        key = (record["set"], record["mode"], record["backend"])
        runs.setdefault(key, {}).setdefault(int(record["index"]), []).append(record)
    outcomes: dict[GroupKey, dict[int, PuzzleOutcome]] = {}
    for key, puzzles in runs.items():
        outcomes[key] = {}
        for index, repeats in puzzles.items():
            status = min((record["status"] for record in repeats), key=_badness)
            seconds = (statistics.median(float(record["seconds"]) for record in repeats)
                       if status in ANSWERED else None)
            outcomes[key][index] = PuzzleOutcome(status, seconds, int(repeats[0]["size"]),
                                                 int(repeats[0]["givens"]))
    return outcomes


def _badness(status: str) -> int:
    return OUTCOME_ORDER.index(status) if status in OUTCOME_ORDER else 0


@dataclass(frozen=True)
class SummaryRow:
    """The statistics of one backend on one set in one mode; times in seconds."""

    set: str
    mode: str
    backend: str
    puzzles: int
    solved: int      # answered: a verified completion, or an uncontradicted "unsatisfiable"
    timeouts: int
    wrong: int
    errors: int
    par2: float | None
    mean: float | None
    median: float | None
    p90: float | None
    p99: float | None
    max: float | None
    ratio: float | None  # geometric mean of time / baseline time over puzzles both answered
    ratio_puzzles: int


def summarize(records: Iterable[Mapping[str, Any]], *, time_limit: float | None,
              baseline: str | None) -> list[SummaryRow]:
    """The summary table: one row per (set, mode, backend), sets and backends in input order."""
    outcomes = puzzle_outcomes(records)
    rows = []
    for (name, mode, backend), puzzles in outcomes.items():
        times = [outcome.seconds for outcome in puzzles.values()
                 if outcome.answered and outcome.seconds is not None]
        statuses = [outcome.status for outcome in puzzles.values()]
        reference = outcomes.get((name, mode, baseline)) if baseline else None
        ratio, ratio_puzzles = (geometric_mean_ratio(puzzles, reference)
                                if reference is not None else (None, 0))
        rows.append(SummaryRow(
            set=name, mode=mode, backend=backend, puzzles=len(puzzles),
            solved=sum(status in ANSWERED for status in statuses),
            timeouts=statuses.count(TIMEOUT), wrong=statuses.count(WRONG),
            errors=statuses.count(ERROR),
            par2=par2(puzzles.values(), time_limit=time_limit),
            mean=statistics.fmean(times) if times else None,
            median=statistics.median(times) if times else None,
            p90=percentile(times, 90) if times else None,
            p99=percentile(times, 99) if times else None,
            max=max(times) if times else None,
            ratio=ratio, ratio_puzzles=ratio_puzzles))
    # Sets, then modes, in order of first appearance; sorting is stable, so backends keep theirs.
    set_order = {name: number for number, name in enumerate(dict.fromkeys(k[0] for k in outcomes))}
    mode_order = {mode: number for number, mode in enumerate(dict.fromkeys(k[1] for k in outcomes))}
    rows.sort(key=lambda row: (set_order[row.set], mode_order[row.mode]))
    return rows


def has_failures(records: Iterable[Mapping[str, Any]]) -> bool:
    """Whether any run was wrong or raised (what makes `bench` exit 1)."""
    return any(record["status"] in (WRONG, ERROR) for record in records)
