"""Performance figures of the cpsat backend, with the sat backend as the yardstick.

Per puzzle, in process: `SolveResult.seconds` (wall clock, the puzzle's own time; the one-off
set-up done by `prepare` is outside it) and the process CPU time around `Backend.solve` (steadier
when other jobs share the machine). Every answer is verified with `is_solution_of`, and every
lex-min answer must equal sat's.

Sets: the first puzzles of 17clue (unique) and serg_benchmark (all with several completions),
puzzle by puzzle, every configuration on each puzzle in a rotating order (so load drifts and
cache effects hit all alike), for `--rounds` rounds; medians over all rounds, and their ratios to
sat. Then the empty 16x16 / 25x25 lex-mins, and the
start-up cost (ortools import, set-up) in fresh interpreters.

`--baseline REV` also runs the cpsat backend as it was at git revision REV (loaded from
`git show`: the package src/sudoku_cp/backends/cpsat/, or the module cpsat.py it was before), for
before/after figures in the same run.

    python tools/bench_cpsat.py                          # 1,000 per set, 2 rounds
    python tools/bench_cpsat.py --baseline main          # and the old backend beside it
    python tools/bench_cpsat.py --quick                  # a smoke run while developing
    python tools/bench_cpsat.py --quick --integer        # and the integer model on 9x9
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from sudoku_cp.backends import Backend, get_backend
from sudoku_cp.backends.cpsat import CpSatBackend, ortools_version
from sudoku_cp.grid import Grid
from sudoku_cp.result import SolveResult, Status

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = PROJECT_ROOT.parent / "shared" / "data"
SETS = ("17clue.txt", "serg_benchmark.txt")
PACKAGE_PATH = "src/sudoku_cp/backends/cpsat"  # a module, cpsat.py, before it was a package


@dataclass
class Timings:
    """One configuration's per-puzzle times on one set."""

    label: str
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    stages: list[int] = field(default_factory=list)


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def read_puzzles(path: Path, first: int | None) -> list[Grid]:
    """The first puzzles of a one-per-line file (blank lines and '#' comments skipped)."""
    grids = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            grids.append(Grid.parse(line.strip()))
            if first is not None and len(grids) == first:
                break
    return grids


def verified(puzzle: Grid, result: SolveResult) -> SolveResult:
    """The result, after insisting on a verified completion."""
    if result.status is not Status.SOLVED or result.solution is None:
        raise SystemExit(
            f"{puzzle.to_line()}: {result.backend} gave {result.status} ({result.reason})"
        )
    if not result.solution.is_solution_of(puzzle):
        raise SystemExit(
            f"{puzzle.to_line()}: {result.backend} gave a grid that "
            f"{result.solution.why_not_solution_of(puzzle)}"
        )
    return result


def load_baseline(revision: str) -> ModuleType:
    """The cpsat backend as it was at a git revision, importable beside today's."""

    def show(path: str) -> str:
        return subprocess.run(
            ["git", "show", f"{revision}:{path}"],
            cwd=PROJECT_ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout

    listed = subprocess.run(
        ["git", "ls-tree", "--name-only", revision, f"{PACKAGE_PATH}/"],
        cwd=PROJECT_ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    folder = Path(tempfile.mkdtemp(prefix="cpsat-baseline-")) / "cpsat_baseline"
    folder.mkdir()
    if listed:  # the package: its modules, loaded as a package of the same depth
        for path in listed:
            (folder / Path(path).name).write_text(show(path))
        path, locations = folder / "__init__.py", [str(folder)]
    else:
        path, locations = folder / "cpsat_baseline.py", None
        path.write_text(show(f"{PACKAGE_PATH}.py"))
    name = "sudoku_cp.backends._cpsat_baseline"  # inside the package: its relative imports work
    spec = importlib.util.spec_from_file_location(name, path, submodule_search_locations=locations)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def configurations(
    baseline: ModuleType | None, revision: str, integer: bool = False
) -> dict[str, Callable[[], Backend]]:
    """Label -> factory; sat first (the yardstick). `integer` adds the integer model (which
    `model=auto` takes only for lex-min from 26x26) with both strategies."""
    factories: dict[str, Callable[[], Backend]] = {
        "sat": lambda: get_backend("sat"),
        "cpsat search (auto)": lambda: CpSatBackend(),
        "cpsat objective": lambda: CpSatBackend(lexmin="objective"),
    }
    if integer:
        factories["cpsat integer objective"] = lambda: CpSatBackend(
            lexmin="objective", model="integer"
        )
        factories["cpsat integer search"] = lambda: CpSatBackend(lexmin="search", model="integer")
    if baseline is not None:
        old: Callable[..., Backend] = baseline.CpSatBackend
        factories[f"cpsat@{revision} objective"] = lambda: old()
        factories[f"cpsat@{revision} search"] = lambda: old(lexmin="search")
    return factories


def time_set(
    puzzles: Sequence[Grid], factories: dict[str, Callable[[], Backend]], rounds: int
) -> list[Timings]:
    """Lex-min over the puzzles, `rounds` times: each puzzle by every configuration, the order
    rotating from puzzle to puzzle; every answer verified and compared with sat's (the first)."""
    backends = list((label, factory()) for label, factory in factories.items())
    for _label, backend in backends:
        backend.solve(puzzles[0])  # prepare and warm up outside the figures
    timings = {label: Timings(label) for label, _backend in backends}
    for round_number in range(rounds):
        progress(f"  round {round_number + 1}")
        for index, puzzle in enumerate(puzzles):
            turn = (index + round_number) % len(backends)
            answers = {}
            for label, backend in backends[turn:] + backends[:turn]:
                cpu = time.process_time()
                result = backend.solve(puzzle)
                cpu = time.process_time() - cpu
                verified(puzzle, result)
                timings[label].wall.append(result.seconds)
                timings[label].cpu.append(cpu)
                timings[label].stages.append(int(result.stats.get("stages", 0)))
                answers[label] = result.solution
            reference = answers[backends[0][0]]
            wrong = [label for label, answer in answers.items() if answer != reference]
            if wrong:
                raise SystemExit(f"{puzzle.to_line()}: {', '.join(wrong)} differ from sat")
    return list(timings.values())


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1e3:.2f}"


def set_table(name: str, count: int, rounds: int, timings: Sequence[Timings]) -> str:
    """A Markdown table: medians and ratios to sat (the first row)."""
    yardstick = timings[0]
    wall_0, cpu_0 = statistics.median(yardstick.wall), statistics.median(yardstick.cpu)
    lines = [
        f"#### lexmin, first {count} of {name}, {rounds} rounds\n",
        "| backend | median ms | x sat | CPU median ms | x sat (CPU) | mean ms | "
        "max ms | stages (median) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for t in timings:
        wall, cpu = statistics.median(t.wall), statistics.median(t.cpu)
        stages = f"{statistics.median(t.stages):g}" if t.label != "sat" else "-"
        lines.append(
            f"| {t.label} | {milliseconds(wall)} | {wall / wall_0:.2f} | "
            f"{milliseconds(cpu)} | {cpu / cpu_0:.2f} | "
            f"{milliseconds(statistics.mean(t.wall))} | {milliseconds(max(t.wall))} | "
            f"{stages} |"
        )
    return "\n".join(lines)


def empty_grid_table(sizes: Sequence[int], factories: dict[str, Callable[[], Backend]]) -> str:
    """Lex-min of the empty grids, one fresh backend each (its set-up outside the figure)."""
    lines = [
        "#### lexmin of the empty grids (fresh backend; set-up outside the time)\n",
        "| grid | backend | seconds | CPU seconds | stages | set-up s |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for size in sizes:
        grid = Grid.empty(size)
        for label, factory in factories.items():
            progress(f"  empty {size}x{size}: {label}")
            backend = factory()
            cpu = time.process_time()
            result = verified(grid, backend.solve(grid))
            cpu = time.process_time() - cpu
            setup = result.stats.get("setup_seconds")
            lines.append(
                f"| empty {size}x{size} | {label} | {result.seconds:.3f} | {cpu:.3f} | "
                f"{result.stats.get('stages', '-')} | "
                f"{'-' if setup is None else f'{setup:.3f}'} |"
            )
    return "\n".join(lines)


def start_up_table(repeat: int) -> str:
    """In fresh interpreters: the ortools import alone, and a one-blank 9x9 under a 0.05 s limit
    (status, its own seconds, and the set-up `prepare` did before the clock)."""
    puzzle = "043628579572139468986754231391542786468917352725863914237481695619275843854396127"
    snippets = {
        "import ortools.sat.python.cp_model (not used any more)": (
            "import time, json; start = time.perf_counter();"
            " import ortools.sat.python.cp_model;"
            " print(json.dumps([time.perf_counter() - start]))"
        ),
        "import ortools.sat.python.cp_model_helper (what cpsat imports)": (
            "import time, json; start = time.perf_counter();"
            " import ortools.sat.python.cp_model_helper;"
            " print(json.dumps([time.perf_counter() - start]))"
        ),
        "cpsat, one-blank 9x9, time_limit=0.05": (
            "import json; from sudoku_cp.backends import get_backend;"
            " from sudoku_cp.grid import Grid;"
            f" r = get_backend('cpsat').solve(Grid.parse('{puzzle}'), time_limit=0.05);"
            " print(json.dumps([r.seconds, str(r.status), r.stats.get('setup_seconds')]))"
        ),
    }
    lines = [
        "#### start-up, fresh interpreters\n",
        "| what | runs | median s | statuses | set-up median s |",
        "|---|---:|---:|---|---:|",
    ]
    for label, code in snippets.items():
        progress(f"  start-up: {label}")
        runs = [
            json.loads(
                subprocess.run(
                    [sys.executable, "-c", code], check=True, capture_output=True, text=True
                ).stdout
            )
            for _ in range(repeat)
        ]
        statuses = sorted({run[1] for run in runs if len(run) > 1})
        setups = [run[2] for run in runs if len(run) > 2 and run[2] is not None]
        lines.append(
            f"| {label} | {repeat} | {statistics.median(run[0] for run in runs):.4f} | "
            f"{', '.join(statuses) or '-'} | "
            f"{f'{statistics.median(setups):.3f}' if setups else '-'} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print Markdown tables."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--data",
        type=Path,
        default=DEFAULT_DATA,
        help="folder holding 17clue.txt and serg_benchmark.txt "
        "(default: ../shared/data from the project root)",
    )
    parser.add_argument(
        "--puzzles",
        type=int,
        default=1000,
        help="the first this many puzzles of each set (default 1000)",
    )
    parser.add_argument("--rounds", type=int, default=2, help="rounds per set (default 2)")
    parser.add_argument(
        "--baseline",
        metavar="REV",
        default=None,
        help="also time the cpsat backend of this git revision",
    )
    parser.add_argument(
        "--integer", action="store_true", help="also the integer model (objective and search)"
    )
    parser.add_argument(
        "--no-empty-25", action="store_true", help="skip the empty 25x25 (the slowest part)"
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a smoke run: 100 puzzles, one round, no 25x25, 2 start-ups",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.puzzles, args.rounds, args.no_empty_25 = min(args.puzzles, 100), 1, True
    data = args.data if args.data.is_absolute() else PROJECT_ROOT / args.data
    baseline = load_baseline(args.baseline) if args.baseline else None
    factories = configurations(baseline, args.baseline or "", args.integer)
    started = time.perf_counter()
    print(
        f"cpsat vs sat; ortools {ortools_version()}, Python {sys.version.split()[0]}; "
        f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}\n"
    )
    for name in SETS:
        path = data / name
        if not path.exists():
            progress(f"skipped {name}: {path} not found")
            continue
        progress(f"{name}")
        puzzles = read_puzzles(path, args.puzzles)
        print(set_table(name, len(puzzles), args.rounds, time_set(puzzles, factories, args.rounds)))
        print()
    empty = {label: factory for label, factory in factories.items() if label != "sat"}
    print(empty_grid_table((16,) if args.no_empty_25 else (16, 25), empty))
    print()
    print(start_up_table(2 if args.quick else 5))
    print(
        f"\nload average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}; "
        f"total {time.perf_counter() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
