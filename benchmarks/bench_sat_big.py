"""The `sat` backend on big grids and under time limits, this version against another one.

    python benchmarks/bench_sat_big.py [--against OLD_SAT_PY] [--sizes 25,36,49]
                                       [--modes lexmin,any] [--limit 300]
    python benchmarks/bench_sat_big.py --overshoot [--against OLD_SAT_PY]
                                       [--sizes 36,49] [--limits 0.5,5]

Each run is one puzzle in a fresh interpreter (a child of this script, killed at the limit +
`--grace` seconds), set-up outside the figure: the child builds the solver with `prepare()`,
then times `solve()`. Versions alternate run by run (this, other, then other, this). Figures:
the reported seconds (`SolveResult.seconds`, wall clock), the child's CPU seconds of the solve
call (`time.process_time`), and the hidden-cost counters from `stats`. Every solution is checked
with `Grid.is_solution_of`, and the lex-mins of the two versions are compared.

`--overshoot` runs the time-limit cases: each size with each limit (lex-min, the empty grid by
default, `--puzzle FILE` for another), and reports seconds - limit. `other` is another version:
a sat.py from before the package (`git show REV:src/sudoku_cp/backends/sat.py > /tmp/sat_old.py`)
or a sat/ package directory (as `bench_sat.py --against` takes it).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
COUNTERS = (
    "lexmin",
    "solver",
    "sat_calls",
    "propagate_calls",
    "refuted_by_propagation",
    "cells_by_peers",
    "backjumps",
    "conflicts",
)


def child(
    version: str, other: str | None, puzzle: str, mode: str, limit: float, options: str
) -> None:
    """One run, printed as one JSON line (the child's side)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_sat import load_other_sat

    from sudoku_cp.backends.sat import SatBackend
    from sudoku_cp.grid import Grid

    backend_class = SatBackend if version == "this" else load_other_sat(Path(str(other)))
    grid = Grid.parse(puzzle)
    chosen = dict(item.split("=", 1) for item in options.split(",") if item)
    with backend_class(**chosen) as backend:
        start = time.perf_counter()
        # Set-up now, for this mode, so that Backend.solve finds it done.
        if hasattr(backend, "prepare_for"):
            backend.prepare_for(grid, mode)
        else:  # a version without modes in its set-up
            backend.prepare(grid)
        setup = time.perf_counter() - start
        cpu = time.process_time()
        result = backend.solve(grid, mode=mode, time_limit=limit)
        cpu = time.process_time() - cpu
    if result.solution is not None and not result.solution.is_solution_of(grid):
        raise SystemExit(f"wrong answer: {result.solution.to_line()}")
    print(
        json.dumps(
            {
                "status": result.status.value,
                "seconds": result.seconds,
                "cpu": cpu,
                "setup": setup,
                "solution": None if result.solution is None else result.solution.to_line(),
                "stats": {name: result.stats.get(name) for name in COUNTERS},
            }
        )
    )


def run(
    version: str, args: argparse.Namespace, puzzle: str, mode: str, limit: float
) -> dict[str, Any]:
    """One run in a fresh interpreter; {'status': 'killed'} when it outlived limit + grace."""
    command = [sys.executable, __file__, "--child", version, str(args.against), puzzle, mode]
    command += [str(limit), args.options]
    grace = args.grace
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=limit + grace, check=False
        )
    except subprocess.TimeoutExpired:
        return {"status": "killed", "seconds": None, "cpu": None, "stats": {}}
    if done.returncode != 0:
        raise SystemExit(f"{version} failed: {done.stderr.strip()[-2000:]}")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def puzzle_of(size: int, path: Path | None) -> str:
    """The empty grid of this size, or the first puzzle of the file."""
    if path is None:
        return ",".join(["0"] * (size * size))
    lines = [line for line in path.read_text().splitlines() if line and line[0] != "#"]
    return lines[0]


def cell(figures: dict[str, Any]) -> str:
    if figures["status"] == "killed":
        return "killed"
    stats = figures["stats"]
    counters = ", ".join(
        f"{name} {stats[name]}" for name in COUNTERS[2:] if stats.get(name) is not None
    )
    return (
        f"{figures['status']} {figures['seconds']:.2f} s ({figures['cpu']:.2f} s CPU; "
        f"{stats.get('lexmin') or '-'}, {stats.get('solver')}; {counters})"
    )


def versions(other: Path | None, index: int) -> list[str]:
    names = ["this"] if other is None else ["this", "other"]
    return names if index % 2 == 0 else names[::-1]


def bench_sizes(args: argparse.Namespace) -> None:
    print(f"\n### solve, limit {args.limit:g} s, one run each (load {load()})\n")
    print(
        "| N | mode | puzzle | this | other |" if args.against else "| N | mode | puzzle | this |"
    )
    print("|---:|---|---|---|---|" if args.against else "|---:|---|---|---|")
    index = 0
    for size in args.sizes:
        for mode in args.modes:
            puzzle = puzzle_of(size, args.puzzle)
            results: dict[str, dict[str, Any]] = {}
            for version in versions(args.against, index):
                results[version] = run(version, args, puzzle, mode, args.limit)
                print(f"  {size} {mode} {version}: {cell(results[version])}", file=sys.stderr)
            index += 1
            answers = {figures.get("solution") for figures in results.values()} - {None}
            if mode == "lexmin" and len(answers) > 1:
                raise SystemExit(f"the versions disagree on the {size}x{size} lex-min")
            shown = " | ".join(cell(results[name]) for name in ("this", "other") if name in results)
            what = "empty" if args.puzzle is None else args.puzzle.name
            print(f"| {size} | {mode} | {what} | {shown} |")


def bench_overshoot(args: argparse.Namespace) -> None:
    print(
        f"\n### time-limit overshoot: reported seconds - limit, {args.mode} "
        f"{args.options or 'default options'} (load {load()})\n"
    )
    header = "| N | limit | this: status, overshoot | other: status, overshoot |"
    print(header if args.against else "| N | limit | this: status, overshoot |")
    print("|---:|---:|---|---|" if args.against else "|---:|---:|---|")
    index = 0
    for size in args.sizes:
        for limit in args.limits:
            puzzle = puzzle_of(size, args.puzzle)
            shown = {}
            for version in versions(args.against, index):
                figures = run(version, args, puzzle, args.mode, limit)
                if figures["status"] == "killed":
                    shown[version] = f"killed at {limit + args.grace:g} s"
                else:
                    shown[version] = (
                        f"{figures['status']}, {figures['seconds'] - limit:+.3f} s "
                        f"({figures['seconds']:.3f} s reported, {figures['cpu']:.2f} s CPU)"
                    )
                print(f"  {size} {limit:g} {version}: {shown[version]}", file=sys.stderr)
            index += 1
            cells = " | ".join(shown[name] for name in ("this", "other") if name in shown)
            print(f"| {size} | {limit:g} s | {cells} |")


def load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


def numbers(text: str, kind: type) -> list[Any]:
    return [kind(item) for item in text.split(",") if item]


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        version, other, puzzle, mode, limit, options = sys.argv[2:8]
        child(version, None if other == "None" else other, puzzle, mode, float(limit), options)
        return
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--against", type=Path, default=None, help="another sat.py or sat/ package to compare"
    )
    parser.add_argument("--sizes", type=lambda t: numbers(t, int), default=[25, 36, 49])
    parser.add_argument("--modes", type=lambda t: t.split(","), default=["lexmin", "any"])
    parser.add_argument("--limit", type=float, default=300.0, help="time limit per run")
    parser.add_argument("--grace", type=float, default=60.0, help="kill at limit + grace")
    parser.add_argument("--puzzle", type=Path, default=None, help="first puzzle of FILE")
    parser.add_argument("--overshoot", action="store_true", help="the time-limit cases")
    parser.add_argument("--limits", type=lambda t: numbers(t, float), default=[0.5, 5.0])
    parser.add_argument("--mode", default="lexmin", help="--overshoot: the mode")
    parser.add_argument("--options", default="", help="backend options: encoding=minimal,...")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}; load average before: {load()}")
    if args.overshoot:
        bench_overshoot(args)
    else:
        bench_sizes(args)
    print(f"\nload average after: {load()}")


if __name__ == "__main__":
    main()
