"""Issue 2 performance figures for the `dfs` backend, measured in one run on this machine.

    python benchmarks/bench_dfs.py [--data ../shared/data] [--naive-cap 10] [--skip-naive]

Per puzzle times include parsing and verification. Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from sudoku_cp.backends import get_backend
from sudoku_cp.bench import percentile
from sudoku_cp.grid import Grid

ROOT = Path(__file__).resolve().parent.parent
ANTI_BACKTRACK = "000000000000003085001020000000507000004000100090000000500000073002010000000040009"
SETS = [("top95.txt", None), ("17clue.txt", 1000), ("serg_benchmark.txt", 1000)]


def timed_solve(backend, line: str, time_limit: float | None = None) -> tuple[float, object]:
    start = time.perf_counter()
    puzzle = Grid.parse(line)
    result = backend.solve(puzzle, time_limit=time_limit)
    if result.solution is not None:
        assert result.solution.is_solution_of(puzzle), line
    return time.perf_counter() - start, result


def bench_sets(backend, data: Path) -> None:
    print("| set | puzzles | median ms | p99 ms | max ms | over 1 s | total s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, count in SETS:
        path = data / name
        if not path.exists():
            print(f"| {name} | absent | | | | | |")
            continue
        lines = path.read_text().split()[:count]
        times = sorted(timed_solve(backend, line)[0] for line in lines)
        print(f"| {name} | {len(times)} | {statistics.median(times) * 1e3:.2f} | "
              f"{percentile(times, 99) * 1e3:.2f} | {times[-1] * 1e3:.1f} | "
              f"{sum(t > 1 for t in times)} | {sum(times):.2f} |")


def bench_named(backend) -> None:
    print("\n| grid | time | status | stats |")
    print("|---|---:|---|---|")
    runs = sorted(timed_solve(backend, ANTI_BACKTRACK)[0] for _ in range(21))
    print(f"| anti-backtracking 9x9 (median of 21) | {statistics.median(runs) * 1e3:.2f} ms | "
          f"solved | |")
    for size, limit in ((16, 30.0), (25, 5.0)):
        seconds, result = timed_solve(backend, "0" * (size * size), time_limit=limit)
        print(f"| empty {size}x{size} (time limit {limit:g} s) | {seconds:.3f} s | "
              f"{result.status} | {dict(result.stats)} |")


def bench_naive(backend, data: Path, cap: float) -> None:
    from sudoku_cp.naive import naive_solve

    path = data / "top95.txt"
    if not path.exists():
        return
    lines = path.read_text().split()
    naive_total = dfs_total = 0.0
    capped = 0
    for line in lines:
        puzzle = Grid.parse(line)
        start = time.perf_counter()
        outcome = _naive_with_cap(naive_solve, puzzle, cap)
        naive_total += min(time.perf_counter() - start, cap)
        capped += not outcome
        dfs_total += timed_solve(backend, line)[0]
    print(f"\nnaive row-major DFS vs dfs on top95 (naive capped at {cap:g} s per puzzle, "
          f"{capped} of {len(lines)} capped): naive {naive_total:.1f} s, dfs {dfs_total:.3f} s, "
          f"ratio >= {naive_total / dfs_total:.0f}x")


def _naive_with_cap(naive_solve, puzzle: Grid, cap: float) -> bool:
    """Run the naive DFS with a node cap calibrated to about `cap` seconds; True if it finished."""
    nodes_per_second = _naive_speed(naive_solve)
    result = naive_solve(puzzle, node_limit=int(nodes_per_second * cap))
    return result.finished


_SPEED: list[float] = []


def _naive_speed(naive_solve) -> float:
    if not _SPEED:
        start = time.perf_counter()
        result = naive_solve(Grid.parse(ANTI_BACKTRACK), node_limit=300_000)
        _SPEED.append(result.nodes / (time.perf_counter() - start))
    return _SPEED[0]


def bench_process(runs: int = 21) -> None:
    example = str(ROOT / "data" / "examples" / "baekjoon2239.txt")
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "sudoku-cp solve --backend dfs": [sys.executable, "-m", "sudoku_cp", "solve",
                                          "--backend", "dfs", example],
    }
    medians = {}
    for label, command in commands.items():
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            times.append(time.perf_counter() - start)
        medians[label] = statistics.median(times)
    base, solve = medians.values()
    print(f"\nwhole process (median of {runs}): python -c pass {base * 1e3:.0f} ms, "
          f"sudoku-cp solve --backend dfs {solve * 1e3:.0f} ms, difference {(solve - base) * 1e3:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--naive-cap", type=float, default=10.0)
    parser.add_argument("--skip-naive", action="store_true")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}")
    backend = get_backend("dfs")
    bench_sets(backend, args.data)
    bench_named(backend)
    bench_process()
    if not args.skip_naive:
        bench_naive(backend, args.data, args.naive_cap)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
