"""How closely a backend keeps its time limit: the overshoot, wall seconds past the limit.

For each backend, grid and limit, one solve whose search needs longer than the limit (by default
the lex-min of the empty 9x9, 16x16 and 25x25 and the first puzzle of unique-25x25, under
limits far below what they take); set-up (`prepare`) is outside the clock, as in every run. The
figure is `SolveResult.seconds` (the puzzle's own wall clock, after set-up) less the limit; the
contract is an overshoot within max(1 s, 10 % of the limit), and a timeout, never a wrong answer.
The cpu column is this process's CPU seconds and a helper process's, set-up included. The wall
column is the whole `solve` call, set-up included: only a shape's first puzzle may spend longer
than the limit there (its one-off set-up), so every later one is held to the same bound on its
wall time (`--repeat K` solves each puzzle K times, so that the later ones show it).

    python benchmarks/bench_time_limits.py                      # z3 and exact, the default grids
    python benchmarks/bench_time_limits.py -b 'z3[model=integer],sat' --limits 0.05 0.5 2
    python benchmarks/bench_time_limits.py -b dfs,cpsat,sat --empty 36 49 --limits 0.5 5
    python benchmarks/bench_time_limits.py -b cpsat,sat,z3 --empty 49 --limits 0.5 --repeat 2
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from sudoku_cp.configurations import parse_configurations  # noqa: E402
from sudoku_cp.grid import Grid  # noqa: E402
from sudoku_cp.result import Status  # noqa: E402

PUZZLES = {
    "empty 9x9": Grid.empty(9),
    "empty 16x16": Grid.empty(16),
    "empty 25x25": Grid.empty(25),
    "unique-25x25 #1": next(
        Grid.parse(line)
        for line in (ROOT / "data/generated/unique-25x25.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ),
}


def measure(
    configurations: str,
    limits: Sequence[float],
    mode: str,
    puzzles: dict[str, Grid],
    repeat: int = 1,
) -> int:
    """Print a row per (configuration, puzzle, limit, repeat); the number of broken limits."""
    broken = 0
    print(
        f"{'backend':<22} {'puzzle':<17} {'limit':>6} {'status':<9} {'seconds':>8} "
        f"{'over':>7} {'wall':>8} {'cpu':>7}"
    )
    for configuration in parse_configurations([configurations]):
        backend = configuration.build()
        shapes: set[tuple[int, tuple[int, int]]] = set()
        try:
            for label, grid in puzzles.items():
                for limit in limits:
                    for _ in range(repeat):
                        first = (grid.size, grid.box) not in shapes
                        shapes.add((grid.size, grid.box))
                        broken += solve_once(
                            configuration.label, backend, label, grid, limit, mode, first
                        )
        finally:
            backend.close()
    return broken


def solve_once(
    name: str, backend: Any, label: str, grid: Grid, limit: float, mode: str, first: bool
) -> bool:
    """One solve and its row; whether it broke the limit (a shape's first puzzle may spend its
    set-up on top)."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = backend.solve(grid, mode=mode, time_limit=limit)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    cpu += float(result.stats.get("helper_cpu_seconds", 0.0))
    over = result.seconds - limit
    allowed = max(1.0, 0.1 * limit)
    wrong = result.status is Status.SOLVED and not (
        result.solution is not None and result.solution.is_solution_of(grid)
    )
    broken = over > allowed or wrong or (not first and wall - limit > allowed)
    flag = " BROKEN" if broken else ""
    print(
        f"{name:<22} {label:<17} {limit:>6g} {result.status.value:<9} {result.seconds:>8.3f} "
        f"{over:>+7.3f} {wall:>8.3f} {cpu:>7.3f}{' (set-up)' if first else ''}{flag}",
        flush=True,
    )
    return broken


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("-b", "--backends", default="z3,exact")
    parser.add_argument("--limits", type=float, nargs="+", default=[0.01, 0.1, 1.0, 5.0])
    parser.add_argument("--mode", default="lexmin", choices=("lexmin", "any", "count"))
    parser.add_argument(
        "--empty",
        type=int,
        nargs="+",
        metavar="N",
        help="the empty grids of these sizes instead of the default puzzles",
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="solve each puzzle this many times (default 1)"
    )
    args = parser.parse_args(argv)
    puzzles = {f"empty {n}x{n}": Grid.empty(n) for n in args.empty} if args.empty else PUZZLES
    return 1 if measure(args.backends, args.limits, args.mode, puzzles, args.repeat) else 0


if __name__ == "__main__":
    sys.exit(main())
