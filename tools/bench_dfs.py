"""Performance figures for the `dfs` backend, measured in one run on this machine.

    git show 3314fea~1:src/sudoku_cp/backends/dfs.py > /tmp/dfs_old.py   # the baseline
    python tools/bench_dfs.py [--data ../shared/data] [--baseline /tmp/dfs_old.py]
        [--cap 60] [--naive-cap 10] [--skip-naive] [--only weak]

Per puzzle times are CPU seconds and include parsing and verification. Prints Markdown
tables. With a baseline file (a saved dfs.py, e.g. the one before the strong propagation level,
loaded from outside the package and marked "baseline"), every weak-spot figure is printed for the
baseline and today's code side by side, each puzzle solved by both in turn, so both see the same
machine load. The issue-16 figures of the strong level's second round used
`git show 43bb602:src/sudoku_cp/backends/dfs.py > /tmp/dfs_old.py`.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from sudoku_cp.backends import get_backend
from sudoku_cp.bench_statistics import percentile
from sudoku_cp.grid import Grid

ROOT = Path(__file__).resolve().parent.parent
ANTI_BACKTRACK = "000000000000003085001020000000507000004000100090000000500000073002010000000040009"
SETS = [("top95.txt", None), ("17clue.txt", 1000), ("serg_benchmark.txt", 1000)]
GENERATED = ROOT / "data" / "generated"
WEAK_SETS = ["unique-16x16.txt", "unique-25x25.txt", "multi-20x20.txt"]


def load_baseline(path: Path):
    """The DfsBackend of a saved copy of dfs.py (the baseline), imported under its own name."""
    spec = importlib.util.spec_from_file_location("sudoku_cp.backends.dfs_baseline", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module.DfsBackend()


def puzzle_lines(path: Path, count: int | None = None) -> list[str]:
    lines = [
        line.strip()
        for line in path.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    return lines[:count]


def side_by_side(backends: dict, lines: list[str], cap: float | None) -> dict[str, list[float]]:
    """Each puzzle solved by each backend in turn; the times (a timeout counts as the cap)."""
    times: dict[str, list[float]] = {label: [] for label in backends}
    solutions = {}
    labels = list(backends)
    for index, line in enumerate(lines):
        # The order rotates from puzzle to puzzle: in one process the first solver of a puzzle
        # measured ~10 % slower than the others, whichever it was.
        shift = index % len(labels)
        for label in labels[shift:] + labels[:shift]:
            backend = backends[label]
            seconds, result = timed_solve(backend, line, time_limit=cap)
            times[label].append(seconds)
            if result.solution is not None:
                solutions.setdefault(line, result.solution)
                assert result.solution == solutions[line], (label, line)
    return times


def bench_nine(backends: dict, data: Path) -> None:
    """9x9 medians of the baseline and today's code, each puzzle by both in turn."""
    print(
        "| set | puzzles | " + " | ".join(f"{label} median ms" for label in backends) + " | ratio |"
    )
    print("|---|---:|" + "---:|" * len(backends) + "---:|")
    for name, count in SETS:
        path = data / name
        if not path.exists():
            continue
        times = side_by_side(backends, path.read_text().split()[:count], None)
        medians = [statistics.median(values) for values in times.values()]
        ratio = f"{medians[-1] / medians[0]:.2f}" if len(medians) > 1 else ""
        print(
            f"| {name} | {len(times['dfs'])} | "
            + " | ".join(f"{median * 1e3:.2f}" for median in medians)
            + f" | {ratio} |"
        )


def bench_weak(backends: dict, cap: float) -> None:
    """The weak spots: sparse unique 16x16 and 25x25, and sparse 20x20 with many completions
    (lex-min), with sat's worst case for scale when python-sat is installed."""
    others = dict(backends)
    try:
        others["sat"] = get_backend("sat")
    except Exception as error:  # noqa: BLE001 - sat is optional here
        print(f"(sat not usable: {error})")
    print(
        "\n| set | puzzles | "
        + " | ".join(f"{label} max s | {label} total s" for label in others)
        + " |"
    )
    print("|---|---:|" + "---:|---:|" * len(others))
    for name in WEAK_SETS:
        path = GENERATED / name
        if not path.exists():
            continue
        lines = puzzle_lines(path)
        times = side_by_side(others, lines, cap)
        print(
            f"| {name} | {len(lines)} | "
            + " | ".join(f"{max(values):.3f} | {sum(values):.2f}" for values in times.values())
            + " |"
        )
        per_puzzle = " ".join(
            f"{index + 1}: " + "/".join(f"{times[label][index]:.2f}" for label in others)
            for index in range(len(lines))
        )
        print(f"|  | per puzzle ({'/'.join(others)}, s) | {per_puzzle} |")
        if "sat" in times:
            print(f"|  | dfs worst / sat worst | {max(times['dfs']) / max(times['sat']):.1f}x |")
    print(f"(times at the {cap:g} s cap are timeouts)")


def timed_solve(backend, line: str, time_limit: float | None = None) -> tuple[float, object]:
    """CPU seconds of parse + solve + check (the machine is shared: CPU time, not wall)."""
    start = time.process_time()
    puzzle = Grid.parse(line)
    result = backend.solve(puzzle, time_limit=time_limit)
    if result.solution is not None:
        assert result.solution.is_solution_of(puzzle), line
    return time.process_time() - start, result


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
        print(
            f"| {name} | {len(times)} | {statistics.median(times) * 1e3:.2f} | "
            f"{percentile(times, 99) * 1e3:.2f} | {times[-1] * 1e3:.1f} | "
            f"{sum(t > 1 for t in times)} | {sum(times):.2f} |"
        )


def bench_named(backend) -> None:
    print("\n| grid | time | status | stats |")
    print("|---|---:|---|---|")
    runs = sorted(timed_solve(backend, ANTI_BACKTRACK)[0] for _ in range(21))
    print(
        f"| anti-backtracking 9x9 (median of 21) | {statistics.median(runs) * 1e3:.2f} ms | "
        f"solved | |"
    )
    for size, limit in ((16, 30.0), (25, 5.0)):
        seconds, result = timed_solve(backend, "0" * (size * size), time_limit=limit)
        print(
            f"| empty {size}x{size} (time limit {limit:g} s) | {seconds:.3f} s | "
            f"{result.status} | {dict(result.stats)} |"
        )


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
    print(
        f"\nnaive row-major DFS vs dfs on top95 (naive capped at {cap:g} s per puzzle, "
        f"{capped} of {len(lines)} capped): naive {naive_total:.1f} s, dfs {dfs_total:.3f} s, "
        f"ratio >= {naive_total / dfs_total:.0f}x"
    )


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
        "sudoku-cp solve --backend dfs": [
            sys.executable,
            "-m",
            "sudoku_cp",
            "solve",
            "--backend",
            "dfs",
            example,
        ],
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
    print(
        f"\nwhole process (median of {runs}): python -c pass {base * 1e3:.0f} ms, "
        f"sudoku-cp solve --backend dfs {solve * 1e3:.0f} ms, "
        f"difference {(solve - base) * 1e3:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--naive-cap", type=float, default=10.0)
    parser.add_argument("--skip-naive", action="store_true")
    parser.add_argument(
        "--baseline",
        type=Path,
        default=Path("/tmp/dfs_old.py"),
        help="a saved copy of the old dfs.py, run side by side as 'baseline'",
    )
    parser.add_argument("--cap", type=float, default=60.0, help="time limit per weak puzzle")
    parser.add_argument("--only", choices=["weak", "nine"], default=None)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}")
    backend = get_backend("dfs")
    backends = {"baseline": load_baseline(args.baseline)} if args.baseline.exists() else {}
    backends["dfs"] = backend
    if args.only != "nine":
        bench_weak(backends, args.cap)
    if args.only != "weak":
        bench_nine(backends, args.data)
    if args.only is not None:
        print(f"load average after: {os.getloadavg()}")
        return
    bench_sets(backend, args.data)
    bench_named(backend)
    bench_process()
    if not args.skip_naive:
        bench_naive(backend, args.data, args.naive_cap)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
