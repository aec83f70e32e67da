"""Issue 14 figures: the Dask executor against the local process pool, side by side in one run.

    python tools/bench_dask.py [--data 17clue] [--puzzles 2000]
                                    [--backends dfs,cpsat,sat] [--jobs 2] [--rounds 2]
                                    [--chunk-sizes 32] [--mode lexmin]

Both executors run the same puzzles through the same engine (`sudoku_cp.engine.execute`: every
answer verified by the one checker) with `--jobs` workers each: the `LocalExecutor` and a
`DaskExecutor` on a fresh 127.0.0.1 `LocalCluster` of `--jobs` single-threaded worker processes, for
each chunk size asked. The rounds interleave the executors (local, dask, local, dask, ...) so that
the other loads of a shared machine fall on both alike; each figure is the median over the rounds,
and the CPU seconds of the driver and its workers are shown next to the wall time (the steadier
figure when other work shares the machine). The cluster's start-up (about 3 s: spawning the worker
processes) is measured apart and shown in its own column, the ratio is given without it and with it.
Each worker builds and warms its backends inside the timed run, for both executors. Prints Markdown.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import psutil  # type: ignore[import-untyped]  # installed with dask[distributed]

from sudoku_cp.configurations import Configuration
from sudoku_cp.datasets import resolve_source
from sudoku_cp.engine import execute
from sudoku_cp.executors import Executor
from sudoku_cp.executors.dask import DaskExecutor
from sudoku_cp.executors.local import LocalExecutor
from sudoku_cp.formats import InputPuzzle, read_puzzles
from sudoku_cp.judging import SolveSettings
from sudoku_cp.result import Mode


def load(path: Path, count: int) -> list[InputPuzzle]:
    lines = path.read_text().split()[:count]
    _, records = read_puzzles("\n".join(lines) + "\n", source=str(path))
    if any(record.grid is None for record in records):
        sys.exit(f"{path}: not clean puzzles")
    return records


def cpu_seconds() -> float:
    """CPU seconds used so far by this process and every live process below it (the pool's
    workers; the cluster's scheduler and nannies run in this process, its workers below)."""
    me = psutil.Process()
    total = 0.0
    for process in (me, *me.children(recursive=True)):
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def timed_run(
    executor: Executor,
    records: Sequence[InputPuzzle],
    specs: Sequence[Configuration],
    settings: SolveSettings,
) -> tuple[float, float, list[tuple[str | None, list[str]]]]:
    """Wall and CPU seconds of one verified run, and (verdict, solutions) per puzzle in order.

    The CPU is taken at the last answer, while the workers still live: on a shared machine it
    is the steadier measure of what an executor costs (wall time depends on the other loads)."""
    cpu_start = cpu_seconds()
    start = time.perf_counter()
    answers = []
    cpu = 0.0
    for outcome in execute(records, specs, settings, executor=executor):
        answers.append(
            (
                outcome.verdict,
                [
                    run.result.solution.to_line()
                    if run.result is not None and run.result.solution is not None
                    else run.status
                    for run in outcome.answers
                ],
            )
        )
        if len(answers) == len(records):
            cpu = cpu_seconds() - cpu_start
    return time.perf_counter() - start, cpu, answers


def check(
    answers: list[tuple[str | None, list[str]]],
    reference: list[tuple[str | None, list[str]]],
    records: Sequence[InputPuzzle],
    name: str,
) -> None:
    """Stop at the first puzzle whose verdict or answers differ from the first local round's."""
    for record, got, expected in zip(records, answers, reference, strict=True):
        if got != expected:
            sys.exit(f"{name}: {record.where}: {got} where the first local run gave {expected}")
    if len(answers) != len(reference):
        sys.exit(f"{name}: {len(answers)} answers for {len(reference)} puzzles")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data",
        type=lambda source: Path(resolve_source(source)),
        default="17clue",
        help="a puzzle file or a set name (fetched on first use; default 17clue)",
    )
    parser.add_argument("--puzzles", type=int, default=2000)
    parser.add_argument("--backends", default="dfs,cpsat,sat")
    parser.add_argument("--mode", default="lexmin")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--chunk-sizes",
        default="auto",
        help="comma-separated Dask chunk sizes to compare; auto: sized to the "
        "solve times (the default)",
    )
    args = parser.parse_args()

    records = load(args.data, args.puzzles)
    specs = [Configuration(name) for name in args.backends.split(",")]
    settings = SolveSettings(Mode(args.mode))
    chunk_sizes = [None if size == "auto" else int(size) for size in args.chunk_sizes.split(",")]
    used: dict[str, list[int]] = {}
    walls: dict[str, list[float]] = {"local": []}
    cpus: dict[str, list[float]] = {"local": []}
    starts: dict[str, list[float]] = {}
    reference = None
    for round_number in range(args.rounds):
        wall, cpu, answers = timed_run(LocalExecutor(args.jobs), records, specs, settings)
        walls["local"].append(wall)
        cpus["local"].append(cpu)
        reference = reference or answers
        check(answers, reference, records, f"local, round {round_number + 1}")
        print(
            f"round {round_number + 1}: local {wall:.1f} s, CPU {cpu:.1f} s",
            file=sys.stderr,
            flush=True,
        )
        for size in chunk_sizes:
            name = f"dask, chunks of {size}" if size else "dask, chunks sized to the solve times"
            executor = DaskExecutor(jobs=args.jobs, chunk_size=size)
            start = time.perf_counter()
            executor.start()
            starts.setdefault(name, []).append(time.perf_counter() - start)
            try:
                wall, cpu, answers = timed_run(executor, records, specs, settings)
            finally:
                executor.close()
            walls.setdefault(name, []).append(wall)
            cpus.setdefault(name, []).append(cpu)
            used.setdefault(name, []).extend(executor.chunk_sizes)
            check(answers, reference, records, name)
            print(
                f"round {round_number + 1}: {name} {wall:.1f} s, CPU {cpu:.1f} s",
                file=sys.stderr,
                flush=True,
            )

    assert reference is not None
    agree = sum(verdict == "agree" for verdict, _ in reference)
    local = statistics.median(walls["local"])
    local_cpu = statistics.median(cpus["local"])
    print(
        f"{len(records)} puzzles of {args.data.name}, --mode {args.mode}, "
        f"{args.backends}, {args.jobs} workers, median of {args.rounds} interleaved rounds; "
        f"{agree} of {len(records)} agree; every executor gave the same verdicts and "
        f"solutions. Load average at the end: "
        f"{', '.join(f'{load:.1f}' for load in os.getloadavg())} on {os.cpu_count()} cores.\n"
    )
    print(
        "| executor | run (s) | puzzles/s | vs local | CPU (s) | CPU vs local | "
        "cluster start (s) | vs local, start included |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, times in walls.items():
        wall = statistics.median(times)
        cpu = statistics.median(cpus[name])
        start_up = statistics.median(starts[name]) if name in starts else 0.0
        print(
            f"| {name} | {wall:.1f} | {len(records) / wall:.1f} | {wall / local:.3f} | "
            f"{cpu:.1f} | {cpu / local_cpu:.3f} | {start_up:.1f} | "
            f"{(wall + start_up) / local:.3f} |"
        )
    for name, sizes in used.items():
        if name.endswith("solve times"):
            print(
                f"\n{name}: {len(sizes)} tasks, puzzles per task min {min(sizes)}, median "
                f"{statistics.median(sizes):.0f}, max {max(sizes)}."
            )
    print(
        "\nall rounds, wall (CPU) s: "
        + "; ".join(
            f"{name}: "
            + ", ".join(f"{t:.1f} ({c:.1f})" for t, c in zip(times, cpus[name], strict=True))
            for name, times in walls.items()
        )
    )


if __name__ == "__main__":
    main()
