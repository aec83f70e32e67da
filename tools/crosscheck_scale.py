"""Issue 5 performance figures for `sudoku-cp crosscheck`, measured on this machine.

    python tools/crosscheck_scale.py [--data ../shared/data] [--serg-puzzles 1000]
                                          [--clue-puzzles N] [--only serg|17clue]

1. The first 1,000 puzzles of serg_benchmark, --mode lexmin, dfs,cpsat,sat, with --jobs 2 and
   with --jobs 1: puzzles/s of each, the speed-up (the issue asks for >= 1.7x), and the share of
   the solve time each backend takes.
2. 17clue (all 49,158 puzzles unless --clue-puzzles cuts it short) with --mode any on dfs,sat at
   the default --jobs (the machine's cores): wall time and puzzles/s, for the README.

Each run is the real command in a fresh process (`python -m sudoku_cp crosscheck ...`), so the
wall time includes start-up, reading the input, the worker pool and writing the results file.
The shares come from the per-puzzle solve times in that results file. Prints Markdown.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sudoku_cp.agreement import summarize
from sudoku_cp.executors import default_jobs
from sudoku_cp.result import Mode

ROOT = Path(__file__).resolve().parent.parent


def crosscheck(puzzles: Path, *, backends: str, mode: str, jobs: int | None, workdir: Path) -> dict:
    """Run the command once; returns its wall time, exit code and summary."""
    results = workdir / f"results-{time.monotonic_ns()}.jsonl"
    command = [
        sys.executable,
        "-m",
        "sudoku_cp",
        "crosscheck",
        str(puzzles),
        "--backends",
        backends,
        "--mode",
        mode,
        "--results",
        str(results),
        "--format",
        "jsonl",
    ]
    if jobs is not None:
        command += ["--jobs", str(jobs)]
    start = time.perf_counter()
    finished = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    lines = results.read_text().splitlines()
    records = [record for record in map(json.loads, lines) if record.get("kind") == "puzzle"]
    summary = summarize(records, backends=backends.split(","), mode=Mode(mode), wall_seconds=wall)
    if finished.returncode not in (0, 1):
        sys.exit(f"crosscheck failed ({finished.returncode}): {finished.stderr}")
    return {"wall": wall, "exit": finished.returncode, "summary": summary}


def first_lines(source: Path, count: int | None, workdir: Path) -> tuple[Path, int]:
    lines = source.read_text().split()
    lines = lines[:count] if count else lines
    path = workdir / f"{source.stem}-{len(lines)}.txt"
    path.write_text("\n".join(lines) + "\n")
    return path, len(lines)


def shares(summary) -> str:
    return ", ".join(
        f"{backend.name} {100 * summary.share(backend.name):.1f}%" for backend in summary.backends
    )


def verdicts(summary) -> str:
    return ", ".join(f"{count} {verdict}" for verdict, count in summary.verdicts.items() if count)


def serg_scaling(data: Path, count: int, workdir: Path) -> None:
    source = data / "serg_benchmark.txt"
    if not source.exists():
        print(f"serg_benchmark.txt absent from {data}: skipped")
        return
    puzzles, total = first_lines(source, count, workdir)
    print(f"## serg_benchmark, first {total} puzzles, --mode lexmin, dfs,cpsat,sat\n")
    print("| --jobs | wall s | puzzles/s | verdicts | share of solve time |")
    print("|---:|---:|---:|---|---|")
    runs = {}
    for jobs in (1, 2):
        run = crosscheck(
            puzzles, backends="dfs,cpsat,sat", mode="lexmin", jobs=jobs, workdir=workdir
        )
        runs[jobs] = run
        print(
            f"| {jobs} | {run['wall']:.1f} | {total / run['wall']:.1f} | "
            f"{verdicts(run['summary'])} | {shares(run['summary'])} |"
        )
    speedup = runs[1]["wall"] / runs[2]["wall"]
    print(f"\n--jobs 2 over --jobs 1: {speedup:.2f}x (target >= 1.7x)\n")


def clue_run(data: Path, count: int | None, workdir: Path) -> None:
    source = data / "17clue.txt"
    if not source.exists():
        print(f"17clue.txt absent from {data}: skipped")
        return
    puzzles, total = first_lines(source, count, workdir)
    jobs = default_jobs()
    print(f"## 17clue, {total} puzzles, --mode any, dfs,sat, --jobs {jobs} (default)\n")
    run = crosscheck(puzzles, backends="dfs,sat", mode="any", jobs=None, workdir=workdir)
    summary = run["summary"]
    print("| puzzles | wall s | puzzles/s | verdicts | exit | median ms (dfs / sat) | share |")
    print("|---:|---:|---:|---|---:|---|---|")
    medians = " / ".join(f"{1000 * backend.median_seconds:.2f}" for backend in summary.backends)
    print(
        f"| {total} | {run['wall']:.1f} | {total / run['wall']:.1f} | {verdicts(summary)} | "
        f"{run['exit']} | {medians} | {shares(summary)} |\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--serg-puzzles", type=int, default=1000)
    parser.add_argument(
        "--clue-puzzles",
        type=int,
        default=None,
        help="the first N puzzles of 17clue (default: all 49,158)",
    )
    parser.add_argument("--only", choices=["serg", "17clue"])
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="crosscheck-scale-") as directory:
        workdir = Path(directory)
        if options.only in (None, "serg"):
            serg_scaling(options.data, options.serg_puzzles, workdir)
        if options.only in (None, "17clue"):
            clue_run(options.data, options.clue_puzzles, workdir)


if __name__ == "__main__":
    main()
