"""The engine's figures, side by side in one run: first-answer latency on a slow pipe, max RSS
of `solve` and `crosscheck` on 200,000 puzzles, and 9x9 throughput of both commands against an
older checkout of the toolkit (the code before the engine), run the same way.

    git worktree add /tmp/oldtree 9cae45b        # the commit before the engine
    python tools/engine_scale.py --old /tmp/oldtree/src [--puzzles 200000] [--old-big]
    python tools/engine_scale.py --old /tmp/oldtree/src --only throughput --rounds 5

Throughput is measured in CPU seconds (user + system of the command and its worker processes)
and wall seconds, old and new interleaved round by round so that load drifts hit both alike;
the ratio is of the medians over the rounds.

Needs ../shared/data/17clue.txt (or SUDOKU_CP_DATA). Prints one Markdown table.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEVENTEEN = ROOT.parent / "shared" / "data" / "17clue.txt"


def timed(
    command: list[str], *, pythonpath: str | None, stdin: Path | None = None
) -> tuple[float, float, int]:
    """(wall seconds, max RSS in MB, exit code) of a command, by /usr/bin/time -v."""
    environment = dict(os.environ)
    if pythonpath:
        environment["PYTHONPATH"] = pythonpath
    with open(stdin or os.devnull, "rb") as source:
        start = time.perf_counter()
        done = subprocess.run(
            ["/usr/bin/time", "-v", *command],
            stdin=source,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=environment,
            check=False,
        )
        wall = time.perf_counter() - start
    match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    return wall, int(match.group(1)) / 1024 if match else float("nan"), done.returncode


def cpu_timed(command: list[str], *, pythonpath: str | None) -> tuple[float, float, int]:
    """(CPU seconds of the command and its waited-for descendants, wall seconds, exit code)."""
    environment = dict(os.environ)
    if pythonpath:
        environment["PYTHONPATH"] = pythonpath
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=environment,
        check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, done.returncode


def first_answer_latency(pythonpath: str | None, gap: float = 5.0) -> float:
    """Seconds from writing the first puzzle to reading its answer, the pipe kept open."""
    environment = dict(os.environ)
    if pythonpath:
        environment["PYTHONPATH"] = pythonpath
    process = subprocess.Popen(
        [sys.executable, "-m", "sudoku_cp", "solve"],
        env=environment,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    time.sleep(1.0)  # start-up is not the latency measured here
    first = SEVENTEEN.read_text().splitlines()[0]
    start = time.perf_counter()
    process.stdin.write(first + "\n")
    process.stdin.flush()
    import threading

    got: list[float] = []
    reader = threading.Thread(
        target=lambda: (
            process.stdout.readline(),  # type: ignore[union-attr]
            got.append(time.perf_counter() - start),
        )
    )
    reader.start()
    reader.join(timeout=gap)
    process.stdin.write(first + "\n")
    process.stdin.close()
    reader.join()
    process.wait()
    return got[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", help="src folder of an older checkout to compare with")
    parser.add_argument("--puzzles", type=int, default=200_000)
    parser.add_argument("--throughput", type=int, default=20_000)
    parser.add_argument(
        "--crosscheck-backends", default="dfs,sat", help="backends of the crosscheck runs"
    )
    parser.add_argument(
        "--rounds", type=int, default=5, help="interleaved rounds of the throughput runs"
    )
    parser.add_argument(
        "--only",
        nargs="+",
        default=["latency", "throughput", "memory"],
        choices=["latency", "throughput", "memory"],
        help="which figures to take (default: all three)",
    )
    parser.add_argument(
        "--old-big",
        action="store_true",
        help="also run the old code on the big input (slow: it reads it whole)",
    )
    args = parser.parse_args()
    lines = SEVENTEEN.read_text().split()
    folder = Path(tempfile.mkdtemp())
    big = folder / "big.txt"
    big.write_text("".join(lines[i % len(lines)] + "\n" for i in range(args.puzzles)))
    some = folder / "some.txt"
    some.write_text("".join(line + "\n" for line in lines[: args.throughput]))
    python = [sys.executable, "-m", "sudoku_cp"]
    versions = [("new", None)] + ([("old", args.old)] if args.old else [])
    rows: list[tuple[str, str, str]] = []
    print("| code | what | figure |\n|---|---|---|", flush=True)

    def report(row: tuple[str, str, str]) -> None:
        rows.append(row)
        print("| " + " | ".join(row) + " |", flush=True)

    for name, path in versions if "latency" in args.only else ():
        latency = first_answer_latency(path)
        report((name, "first answer on a slow pipe (5 s gap)", f"{latency:.3f} s"))
    if "throughput" in args.only:
        commands = (
            ("solve dfs", ["solve", str(some), "--format", "line"]),
            (
                f"crosscheck {args.crosscheck_backends} -j 2",
                ["crosscheck", str(some), "--backends", args.crosscheck_backends, "--jobs", "2"],
            ),
        )
        for label, command in commands:
            figures: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in versions}
            for round_number in range(args.rounds):
                # Interleaved, and the order flipped every round.
                ordered = versions if round_number % 2 == 0 else versions[::-1]
                for name, path in ordered:
                    cpu, wall, code = cpu_timed([*python, *command], pythonpath=path)
                    if code != 0:
                        raise SystemExit(f"{name} {label} exited {code}")
                    figures[name].append((cpu, wall))
            for name, _ in versions:
                cpus = [cpu for cpu, _ in figures[name]]
                walls = [wall for _, wall in figures[name]]
                report(
                    (
                        name,
                        f"{label}, {args.throughput} of 17clue, {args.rounds} rounds",
                        f"CPU median {statistics.median(cpus):.2f} s "
                        f"({min(cpus):.2f}-{max(cpus):.2f}), wall median "
                        f"{statistics.median(walls):.2f} s ({min(walls):.2f}-{max(walls):.2f})",
                    )
                )
            if args.old:
                new_cpu = statistics.median(cpu for cpu, _ in figures["new"])
                old_cpu = statistics.median(cpu for cpu, _ in figures["old"])
                new_wall = statistics.median(wall for _, wall in figures["new"])
                old_wall = statistics.median(wall for _, wall in figures["old"])
                report(
                    (
                        "new/old",
                        label,
                        f"CPU {new_cpu / old_cpu:.3f}, wall "
                        f"{new_wall / old_wall:.3f} (below 1: new is faster)",
                    )
                )
    if "memory" not in args.only:
        return
    for name, path in versions[: None if args.old_big else 1]:
        for label, command in (
            ("solve dfs", [*python, "solve", str(big), "--format", "line"]),
            (
                f"crosscheck {args.crosscheck_backends} -j 2",
                [
                    *python,
                    "crosscheck",
                    str(big),
                    "--backends",
                    args.crosscheck_backends,
                    "--jobs",
                    "2",
                ],
            ),
        ):
            wall, rss, code = timed(command, pythonpath=path)
            report(
                (
                    name,
                    f"{label}, {args.puzzles} puzzles",
                    f"max RSS {rss:.0f} MB, {wall:.0f} s (exit {code})",
                )
            )


if __name__ == "__main__":
    main()
