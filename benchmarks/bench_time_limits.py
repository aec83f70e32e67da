"""How closely a backend keeps its time limit: the overshoot, wall seconds past the limit.

For each backend, grid and limit, one solve whose search needs longer than the limit (by default
the lex-min of the empty 9x9, 16x16 and 25x25 and the first puzzle of unique-25x25, under
limits far below what they take); set-up (`prepare`) is outside the clock, as in every run. The
figure is `SolveResult.seconds` (the puzzle's own wall clock, after set-up) less the limit; the
contract is an overshoot within max(1 s, 10 % of the limit), and a timeout, never a wrong answer.
The cpu column is this process's CPU seconds and a helper process's, set-up included.

    python benchmarks/bench_time_limits.py                      # z3 and exact, the default grids
    python benchmarks/bench_time_limits.py -b 'z3[model=integer],sat' --limits 0.05 0.5 2
    python benchmarks/bench_time_limits.py -b dfs,cpsat,sat --empty 36 49 --limits 0.5 5
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

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
    configurations: str, limits: Sequence[float], mode: str, puzzles: dict[str, Grid]
) -> int:
    """Print a row per (configuration, puzzle, limit); the number of broken limits."""
    broken = 0
    print(
        f"{'backend':<22} {'puzzle':<17} {'limit':>6} {'status':<9} {'seconds':>8} "
        f"{'over':>7} {'cpu':>7}"
    )
    for configuration in parse_configurations([configurations]):
        backend = configuration.build()
        try:
            for label, grid in puzzles.items():
                for limit in limits:
                    cpu = time.process_time()
                    result = backend.solve(grid, mode=mode, time_limit=limit)
                    cpu = time.process_time() - cpu
                    cpu += float(result.stats.get("helper_cpu_seconds", 0.0))
                    over = result.seconds - limit
                    allowed = max(1.0, 0.1 * limit)
                    wrong = result.status is Status.SOLVED and not (
                        result.solution is not None and result.solution.is_solution_of(grid)
                    )
                    flag = " BROKEN" if over > allowed or wrong else ""
                    broken += bool(flag)
                    print(
                        f"{configuration.label:<22} {label:<17} {limit:>6g} "
                        f"{result.status.value:<9} {result.seconds:>8.3f} {over:>+7.3f} "
                        f"{cpu:>7.3f}{flag}",
                        flush=True,
                    )
        finally:
            backend.close()
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
    args = parser.parse_args(argv)
    puzzles = {f"empty {n}x{n}": Grid.empty(n) for n in args.empty} if args.empty else PUZZLES
    return 1 if measure(args.backends, args.limits, args.mode, puzzles) else 0


if __name__ == "__main__":
    sys.exit(main())
