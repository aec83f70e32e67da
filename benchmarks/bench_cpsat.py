"""Performance figures of the cpsat backend (issue 3), printed as a Markdown table.

Per puzzle, in process, model building included: lexmin, any and count medians on top95 and the
first puzzles of serg_benchmark; the empty 16x16 and 25x25 lex-mins with where their time goes;
and the cost of importing OR-Tools on its own, measured in fresh interpreters. Every answer is
verified with `is_solution_of`.

    python benchmarks/bench_cpsat.py                 # everything (about a minute on 2 cores)
    python benchmarks/bench_cpsat.py --quick         # a smoke run while developing
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sudoku_cp.backends import get_backend
from sudoku_cp.backends.cpsat import CpSatBackend, ortools_version
from sudoku_cp.grid import Grid
from sudoku_cp.result import Mode, SolveResult, Status

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = PROJECT_ROOT.parent / "shared" / "data"
IMPORT_SNIPPETS = {
    "import ortools": "import ortools",
    "import ortools.sat.python.cp_model": "import ortools.sat.python.cp_model",
}


@dataclass
class Row:
    """One line of the table."""

    case: str
    mode: str
    strategy: str
    puzzles: int
    median: str
    worst: str
    detail: str = ""


def read_puzzles(path: Path, first: int | None) -> list[Grid]:
    """The puzzles of a one-per-line file (blank lines and '#' comments skipped)."""
    grids = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            grids.append(Grid.parse(line.strip()))
            if first is not None and len(grids) == first:
                break
    return grids


def solve_verified(backend: CpSatBackend, puzzle: Grid, mode: Mode, limit: int) -> SolveResult:
    """Solve one puzzle and insist on a verified completion."""
    result = backend.solve(puzzle, mode=mode, limit=limit)
    if result.status is not Status.SOLVED or result.solution is None:
        raise SystemExit(f"{puzzle.to_line()}: {mode} gave {result.status} ({result.reason})")
    if not result.solution.is_solution_of(puzzle):
        raise SystemExit(f"{puzzle.to_line()}: {mode} gave a grid that "
                         f"{result.solution.why_not_solution_of(puzzle)}")
    return result


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1e3:.1f} ms"


def duration(seconds: float) -> str:
    return milliseconds(seconds) if seconds < 1 else f"{seconds:.2f} s"


def puzzle_set_rows(name: str, puzzles: Sequence[Grid], count_limit: int) -> list[Row]:
    """Median and worst per-puzzle seconds for each mode and lexmin strategy on one set."""
    runs = [("lexmin", "objective", Mode.LEXMIN), ("lexmin", "search", Mode.LEXMIN),
            ("any", "objective", Mode.ANY), ("count", "objective", Mode.COUNT)]
    rows = []
    lexmins: dict[str, list[Grid | None]] = {}
    for label, strategy, mode in runs:
        backend = CpSatBackend(cpsat_strategy=strategy)
        backend.solve(puzzles[0], mode=mode, limit=count_limit)  # warm the imports
        results = [solve_verified(backend, puzzle, mode, count_limit) for puzzle in puzzles]
        seconds = [r.seconds for r in results]
        detail = f"mean {statistics.mean(r.stats['stages'] for r in results):.1f} stages"
        if mode is Mode.LEXMIN:
            lexmins[strategy] = [r.solution for r in results]
            if len(lexmins) == 2:
                disagree = sum(a != b for a, b in zip(*lexmins.values()))
                detail += f"; {disagree} answers differ from the objective's"
                if disagree:
                    raise SystemExit(f"{name}: the two lexmin strategies disagree {disagree} times")
        if mode is Mode.COUNT:
            unique = sum(r.count == 1 for r in results)
            detail = f"limit {count_limit}: {unique}/{len(results)} unique"
        elif mode is Mode.ANY:
            detail = f"workers {results[0].stats['workers']}"
        rows.append(Row(name, label, strategy if mode is Mode.LEXMIN else results[0].stats[
            "strategy"], len(puzzles), milliseconds(statistics.median(seconds)),
            milliseconds(max(seconds)), detail))
    return rows


def empty_grid_rows(size: int) -> list[Row]:
    """The empty grid's lex-min (both strategies, with the time split) and one `any`."""
    grid = Grid.empty(size)
    rows = []
    result = solve_verified(CpSatBackend(), grid, Mode.LEXMIN, 2)
    stats = result.stats
    rows.append(Row(f"empty {size}x{size}", "lexmin", "objective", 1, duration(result.seconds),
                    "", f"build {duration(stats['build_seconds'])}, {stats['stages']} stages "
                        f"(chunks of {stats['chunk_length']}), lex-min found after "
                        f"{duration(stats['first_solution_seconds'])}, proof "
                        f"{duration(stats['proof_seconds'])}; {stats['branches']} branches, "
                        f"{stats['conflicts']} conflicts"))
    for strategy, mode in (("search", Mode.LEXMIN), ("objective", Mode.ANY)):
        result = solve_verified(CpSatBackend(cpsat_strategy=strategy), grid, mode, 2)
        stats = result.stats
        rows.append(Row(f"empty {size}x{size}", str(mode), stats["strategy"], 1,
                        duration(result.seconds), "",
                        f"build {duration(stats['build_seconds'])}, "
                        f"{stats['branches']} branches"))
    return rows


def counting_rows(limit: int) -> list[Row]:
    """Enumerating many completions of the empty 9x9."""
    result = solve_verified(CpSatBackend(), Grid.empty(9), Mode.COUNT, limit)
    return [Row("empty 9x9", "count", "enumerate", 1, duration(result.seconds), "",
                f"limit {limit}: {result.count} distinct of {result.stats['reported_solutions']}"
                f" reported")]


def import_rows(repeat: int) -> list[Row]:
    """Importing OR-Tools in a fresh interpreter, `repeat` times (median and worst)."""
    rows = []
    for label, statement in IMPORT_SNIPPETS.items():
        code = (f"import time; start = time.perf_counter(); {statement}; "
                f"print(time.perf_counter() - start)")
        seconds = [float(subprocess.run([sys.executable, "-c", code], check=True,
                                        capture_output=True, text=True).stdout)
                   for _ in range(repeat)]
        rows.append(Row(label, "-", "-", repeat, milliseconds(statistics.median(seconds)),
                        milliseconds(max(seconds)), "fresh interpreter, warm file cache"))
    return rows


def markdown(rows: Sequence[Row]) -> str:
    """The rows as a Markdown table."""
    header = ["case", "mode", "strategy", "puzzles", "median", "worst", "detail"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in rows:
        cells = [row.case, row.mode, row.strategy, str(row.puzzles), row.median, row.worst,
                 row.detail]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA,
                        help="folder holding top95.txt and serg_benchmark.txt "
                             "(default: ../shared/data from the project root)")
    parser.add_argument("--serg", type=int, default=500,
                        help="how many serg_benchmark puzzles (default 500)")
    parser.add_argument("--count-limit", type=int, default=2,
                        help="limit for count mode on the puzzle sets (default 2)")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: 20 puzzles per set, no 25x25, fewer imports")
    args = parser.parse_args(argv)
    data = args.data if args.data.is_absolute() else PROJECT_ROOT / args.data
    started = time.perf_counter()
    sets = {"top95": (data / "top95.txt", 20 if args.quick else None),
            f"serg_benchmark[:{args.serg}]": (data / "serg_benchmark.txt",
                                              20 if args.quick else args.serg)}
    rows: list[Row] = []
    for name, (path, first) in sets.items():
        if not path.exists():
            print(f"skipped {name}: {path} not found", file=sys.stderr)
            continue
        puzzles = read_puzzles(path, first)
        rows += puzzle_set_rows(name if first is None or not args.quick
                                else f"{path.stem}[:{first}]", puzzles, args.count_limit)
    for size in (9, 16) if args.quick else (9, 16, 25):
        rows += empty_grid_rows(size)
    rows += counting_rows(100 if args.quick else 1000)
    rows += import_rows(3 if args.quick else 7)
    backend = get_backend("cpsat")
    print(f"cpsat backend, ortools {ortools_version()}, Python {sys.version.split()[0]}, "
          f"workers for any: {backend.solve(Grid.empty(4), mode='any').stats['workers']}; "
          f"times per puzzle, in process, model building included")
    print()
    print(markdown(rows))
    print()
    print(f"total benchmark time {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
